#pragma once
/// @file
/// The step pipeline of the nonsmooth formulation (the midpoint scheme by default, or Moreau–Jean):
///
///   free motion → broadphase → narrowphase → contact kinematics → contact problem (assemble)
///   → solve → integrate → position correction
///
/// Each stage is one function in src/world/stages/, timed into Workspace::profile.
/// See docs/architecture.md and docs/nonsmooth.md for the scheme, its equations and its choices.

#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>
#include <coulomb/world/workspace.hpp>

#include <string>
#include <vector>

namespace coulomb {

/// Sizes the workspace for `model`'s bodies, shapes and contact problem (CompiledModel::unknowns);
/// `step` calls it when the sizes do not match.
void prepare(const Model& model, Workspace& ws);

/// Advances `state` by one time step h = model.time_step. Returns the step's report (also in
/// ws.report). Never throws for a non-finite state: report.finite tells. Throws std::logic_error
/// when the model was not compiled for its sizes (Model::finalize() not called after building or
/// resizing it).
const StepReport& step(const Model& model, State& state, Workspace& ws);

/// Energies of a state [J]: kinetic (translation + rotation), potential (gravity, relative to
/// the origin: −m g·x) and elastic (stored in the compliant contacts' and springs' springs:
/// State::compliant.elastic; 0 in the nonsmooth formulation).
struct Energy {
  double kinetic = 0.0;
  double potential = 0.0;
  double elastic = 0.0;
  /// kinetic + potential + elastic: with the dissipated energy, the audited total.
  [[nodiscard]] double mechanical() const { return kinetic + potential + elastic; }
};
[[nodiscard]] Energy energy(const Model& model, const State& state);
/// The audited total of energy.csv: kinetic + potential + elastic + dissipated, and for a model
/// with actuation (Model::has_actuation) + damping − driven_work − force_work (State): constant
/// up to the scheme's error (docs/outputs.md).
[[nodiscard]] double audited_total(const Model& model, const Energy& e, const State& state);

/// One line locating a non-finite step (report.finite false): "body 'NAME': its QUANTITY is not
/// finite at t = T s (step N)".
[[nodiscard]] std::string non_finite_message(const Model& model, const State& state,
                                             const StepReport& report);

/// Two bodies whose shapes overlap, and by how much.
struct Overlap {
  int body1 = -1;
  int body2 = -1;
  double depth = 0.0;  ///< deepest penetration between their shapes [m] (> 0)
};
/// The pairs of bodies whose shapes overlap by more than `min_depth` [m] in the state's
/// configuration (the deepest point of each pair, pairs in body order). Allocates; for checks
/// before a run (the position stage then moves them apart, see docs/nonsmooth.md). Throws
/// std::logic_error, as `step` does, for a model not compiled for its sizes.
[[nodiscard]] std::vector<Overlap> find_overlaps(const Model& model, const State& state,
                                                 double min_depth);

}  // namespace coulomb
