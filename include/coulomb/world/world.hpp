#pragma once
/// @file
/// The step pipeline of the nonsmooth formulation (Moreau–Jean time stepping):
///
///   broadphase → narrowphase → contact kinematics → contact problem (assemble) → solve → integrate
///
/// Each stage is one function in src/world/stages/, timed into Workspace::profile.
/// See docs/architecture.md and docs/nonsmooth.md for the scheme, its equations and its choices.

#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>
#include <coulomb/world/workspace.hpp>

namespace coulomb {

/// Sizes the workspace for `model` (call once before stepping; `step` calls it if needed).
void prepare(const Model& model, Workspace& ws);

/// Advances `state` by one time step h = model.time_step. Returns the step's report (also in
/// ws.report). Never throws for a non-finite state: report.finite tells.
const StepReport& step(const Model& model, State& state, Workspace& ws);

/// Energies of a state [J]: kinetic (translation + rotation) and potential (gravity, relative to
/// the origin: −m g·x).
struct Energy {
  double kinetic = 0.0;
  double potential = 0.0;
};
[[nodiscard]] Energy energy(const Model& model, const State& state);

/// World pose of a body's frame B (the state holds the centre of mass).
[[nodiscard]] Pose body_pose(const Model& model, const State& state, int body);

}  // namespace coulomb
