// Stage 1: free motion. Where the step evaluates its contacts (the contact configuration), the
// velocities before the contact impulses there, and the free velocities (gravity, no contact).
//
// Midpoint scheme (docs/nonsmooth.md):
//   x_c = x_k + (h/2) v_k,   (R_c, Π_c) = torque-free half step from (R_k, Π_k)   [drift]
//   L_k = R_k I_B Ω_k (world angular momentum, unchanged by the drift),
//   ω_pre = I_c⁻¹ L_k with I_c⁻¹ = R_c I_B⁻¹ R_cᵀ (the inertia at the pose where it is used),
//   v_free = v_k + h g,  ω_free = ω_pre.
// Moreau–Jean: the contact configuration is the start (x_c = x_k, R_c = R_k), ω_pre = ω_k.
#include <coulomb/dynamics/rigid_body.hpp>
#include <coulomb/math/parallel.hpp>

#include "stages/stages.hpp"

namespace coulomb::stages {

void free_motion(const Model& model, const State& state, FreeMotion& out, StepReport& report) {
  const double h = model.time_step;
  const bool midpoint = model.solver.scheme == TimeScheme::midpoint;
  const std::size_t nbodies = model.bodies.size();
  const auto n = static_cast<std::ptrdiff_t>(nbodies);
  // Body by body, each into its own slots (parallel from parallel_loop_min bodies on).
  const int failures = parallel_count(n, model.solver.parallel_loop_min, [&](std::ptrdiff_t i) {
    const auto b = static_cast<std::size_t>(i);
    const Body& body = model.bodies[b];
    if (body.fixed) {
      out.x_c[b] = state.x_WC[b];
      out.q_c[b] = state.q_WB[b];
      out.L_start[b].setZero();
      out.w_pre[b].setZero();
      out.v_free[b].setZero();
      out.w_free[b].setZero();
      out.inv_inertia_W[b].setZero();
      return 0;
    }
    const Mat3 R0 = state.q_WB[b].toRotationMatrix();
    const Vec3 omega0_B = R0.transpose() * state.w_W[b];
    out.L_start[b] = R0 * (body.inertia_B * omega0_B);
    Vec3 omega_c_B = omega0_B;
    int failed = 0;
    if (midpoint) {
      out.x_c[b] = state.x_WC[b] + (0.5 * h) * state.v_WC[b];
      const FreeRotation drift = rotate_free(
          state.q_WB[b], body.inertia_B, model.compiled.inv_inertia_B[b], omega0_B, 0.5 * h, 0.5);
      out.q_c[b] = drift.q_WB;
      omega_c_B = drift.omega_B;
      if (!drift.converged) failed = 1;
    } else {
      out.x_c[b] = state.x_WC[b];
      out.q_c[b] = state.q_WB[b];
    }
    const Mat3 Rc = out.q_c[b].toRotationMatrix();
    out.inv_inertia_W[b] = Rc * model.compiled.inv_inertia_B[b] * Rc.transpose();
    out.w_pre[b] = Rc * omega_c_B;
    out.v_free[b] = state.v_WC[b] + h * model.gravity;
    out.w_free[b] = out.w_pre[b];
    return failed;
  });
  report.rotation_failures = failures;
}

}  // namespace coulomb::stages
