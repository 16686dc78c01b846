// Stage 3: free motion over the step, contact Jacobians and relative velocities, the active set.
#include <coulomb/contact/kinematics.hpp>
#include <coulomb/dynamics/rigid_body.hpp>

#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

// Relative velocity (N, T1, T2) of a point from its Jacobians and the two bodies' twists.
Vec3 relative_velocity(const Jacobian36& H1, const Jacobian36& H2, const Vec3& v1, const Vec3& w1,
                       const Vec3& v2, const Vec3& w2) {
  return H2.leftCols<3>() * v2 + H2.rightCols<3>() * w2 - H1.leftCols<3>() * v1 -
         H1.rightCols<3>() * w1;
}

}  // namespace

void kinematics(const Model& model, const State& state, Workspace& ws) {
  const double h = model.time_step;
  const double theta = model.solver.theta;
  const std::size_t nbodies = model.bodies.size();

  // Free motion: gravity on the centre of mass; Euler's equations with the θ-method in the body
  // frame (implicit midpoint for θ = 1/2, which conserves energy and angular momentum).
  for (std::size_t b = 0; b < nbodies; ++b) {
    const Body& body = model.bodies[b];
    if (body.fixed) {
      ws.v_free[b].setZero();
      ws.w_free[b].setZero();
      ws.omega_free_B[b].setZero();
      ws.inv_inertia_W[b].setZero();
      continue;
    }
    const Mat3 R = state.q_WB[b].toRotationMatrix();
    ws.v_free[b] = state.v_WC[b] + h * model.gravity;
    const Vec3 omega0_B = R.transpose() * state.w_W[b];
    ws.omega_free_B[b] = free_angular_velocity_B(body.inertia_B, ws.inv_inertia_B[b], omega0_B,
                                                 Vec3::Zero(), h, theta);
    ws.w_free[b] = R * ws.omega_free_B[b];
    ws.inv_inertia_W[b] = R * ws.inv_inertia_B[b] * R.transpose();
  }

  // Per point: Jacobians, velocity at the start and free velocity, and the active-set rule.
  const std::size_t npoints = ws.points.size();
  ws.H1.resize(npoints);
  ws.H2.resize(npoints);
  ws.u_start.resize(npoints);
  ws.active_of_point.resize(npoints);
  ws.active.clear();
  const bool siconos_rule = model.solver.active_set == "siconos";
  for (std::size_t k = 0; k < npoints; ++k) {
    const ContactPoint& c = ws.points[k];
    const int b1 = c.body1, b2 = c.body2;
    contact_jacobians(c, state.x_WC[b1], state.x_WC[b2], ws.H1[k], ws.H2[k]);
    ws.u_start[k] = relative_velocity(ws.H1[k], ws.H2[k], state.v_WC[b1], state.w_W[b1],
                                      state.v_WC[b2], state.w_W[b2]);
    double predicted_gap;
    if (siconos_rule) {
      // Siconos' rule (γ = 1/2): g + (h/2) ġ_k.
      predicted_gap = c.gap + 0.5 * h * ws.u_start[k].x();
    } else {
      // End-of-step gap if no contact acted: g + h (θ ġ_free + (1 − θ) ġ_k).
      const double un_free = relative_velocity(ws.H1[k], ws.H2[k], ws.v_free[b1], ws.w_free[b1],
                                               ws.v_free[b2], ws.w_free[b2])
                                 .x();
      predicted_gap = c.gap + h * (theta * un_free + (1.0 - theta) * ws.u_start[k].x()) -
                      model.solver.activation_distance;
    }
    if (predicted_gap <= 0.0) {
      ws.active_of_point[k] = static_cast<std::int32_t>(ws.active.size());
      ws.active.push_back(static_cast<std::int32_t>(k));
    } else {
      ws.active_of_point[k] = -1;
    }
  }
  ws.report.active_contacts = static_cast<int>(ws.active.size());
}

}  // namespace coulomb::stages
