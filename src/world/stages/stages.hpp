#pragma once
// The stages of one step (internal). Each reads the model and the state and writes the workspace;
// only `stage_integrate` writes the state.

#include <coulomb/world/world.hpp>

namespace coulomb::stages {

/// Slip speed below which a contact counts as sticking [m/s] (status, μ_s/μ_k rule).
inline constexpr double kStickVelocity = 1e-9;

/// Shape world poses, AABBs (grown by the contact margin), candidate pairs.
void broadphase(const Model& model, const State& state, Workspace& ws);
/// Contact points of each candidate pair with gap ≤ margin.
void narrowphase(const Model& model, const State& state, Workspace& ws);
/// Free motion of each body over the step, relative velocities at the start, the active set.
void kinematics(const Model& model, const State& state, Workspace& ws);
/// Jacobians and the local problem (W, q, μ) of the active contacts.
void assemble(const Model& model, const State& state, Workspace& ws);
/// Warm start from the contact memory, then the frictional contact solve.
void solve(const Model& model, const State& state, Workspace& ws);
/// New velocities and poses (θ-method), contact memory, dissipated energy, time.
void integrate(const Model& model, State& state, Workspace& ws);

}  // namespace coulomb::stages
