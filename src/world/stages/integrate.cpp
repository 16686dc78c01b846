// Stage 6: velocities and poses at the end of the step (θ-method), contact memory, energy.
//
//   v_{k+1} = v_free + M⁻¹ Σ Jᵀ r
//   x_{k+1} = x_k + h (θ v_{k+1} + (1 − θ) v_k)
//   q_{k+1} = q_k ⊗ cay(h (θ Ω_{k+1} + (1 − θ) Ω_k))      (body-frame Ω; see
//   dynamics/rigid_body.hpp)
//
// Energy removed by the contacts in the step: minus the work of the contact impulses,
//   W = Σ_b P_b·(v_k + v_{k+1})/2 + τ_b·R_k(Ω_free + Ω_{k+1})/2,
// which for θ = 1/2 equals the change of kinetic + potential energy exactly (the gravity terms
// cancel and the gyroscopic term does no work), so kinetic + potential + dissipated is constant to
// round-off in free flight and to the solver tolerance with contacts.
#include <coulomb/dynamics/rigid_body.hpp>

#include <algorithm>
#include <cmath>

#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

bool finite(const Vec3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

// The solved impulses of active contact i: force (N, T1, T2) and moment (Mn, Mt1, Mt2).
Vec3 force_impulse(const Workspace& ws, std::size_t i) {
  return ws.use_moments ? Vec3(ws.r6[i].head<3>()) : ws.r[i];
}
Vec3 moment_impulse(const Workspace& ws, std::size_t i) {
  return ws.use_moments ? Vec3(ws.r6[i].tail<3>()) : Vec3::Zero();
}

}  // namespace

void integrate(const Model& model, State& state, Workspace& ws) {
  const double h = model.time_step;
  const double theta = model.solver.theta;
  const std::size_t nbodies = model.bodies.size();
  const std::size_t nactive = ws.active.size();

  // Contact impulses gathered per body (force and torque about the centre of mass, world).
  for (std::size_t b = 0; b < nbodies; ++b) {
    ws.impulse_force[b].setZero();
    ws.impulse_torque[b].setZero();
  }
  for (std::size_t i = 0; i < nactive; ++i) {
    const int k = ws.active[i];
    const ContactPoint& c = ws.points[k];
    const Vec3 r = force_impulse(ws, i);
    // Moment impulse of 1 on 2 in the world: Mn n + Mt1 t1 + Mt2 t2.
    const Vec3 m = moment_impulse(ws, i);
    const Vec3 m_W = m.x() * c.n_W + m.y() * c.t1_W + m.z() * c.t2_W;
    const Eigen::Matrix<double, 6, 1> p2 = ws.H2[k].transpose() * r;
    const Eigen::Matrix<double, 6, 1> p1 = -(ws.H1[k].transpose() * r);
    ws.impulse_force[c.body2] += p2.head<3>();
    ws.impulse_torque[c.body2] += p2.tail<3>() + m_W;
    ws.impulse_force[c.body1] += p1.head<3>();
    ws.impulse_torque[c.body1] += p1.tail<3>() - m_W;
  }

  // New twists and poses of the dynamic bodies; work of the impulses.
  double work = 0.0;
  bool all_finite = true;
  for (std::size_t b = 0; b < nbodies; ++b) {
    const Body& body = model.bodies[b];
    if (body.fixed) continue;
    const Mat3 R0 = state.q_WB[b].toRotationMatrix();
    const Vec3 v0 = state.v_WC[b];
    const Vec3 omega0_B = R0.transpose() * state.w_W[b];
    const Vec3 v1 = ws.v_free[b] + body.inv_mass() * ws.impulse_force[b];
    const Vec3 omega1_B =
        ws.omega_free_B[b] + ws.inv_inertia_B[b] * (R0.transpose() * ws.impulse_torque[b]);
    ws.v_mean[b] = 0.5 * (v0 + v1);
    ws.w_mean[b] = R0 * (0.5 * (ws.omega_free_B[b] + omega1_B));
    work += ws.impulse_force[b].dot(ws.v_mean[b]) + ws.impulse_torque[b].dot(ws.w_mean[b]);

    state.x_WC[b] += h * (theta * v1 + (1.0 - theta) * v0);
    state.q_WB[b] =
        integrate_orientation(state.q_WB[b], theta * omega1_B + (1.0 - theta) * omega0_B, h);
    state.v_WC[b] = v1;
    state.w_W[b] = state.q_WB[b].toRotationMatrix() * omega1_B;
    all_finite = all_finite && finite(state.x_WC[b]) && finite(v1) && finite(state.w_W[b]);
  }
  state.dissipated -= work;

  // The same work contact by contact, split by kind: r·J(v_mean, w_mean) is linear in r, so the
  // normal and tangential parts add up to the total above.
  for (std::size_t i = 0; i < nactive; ++i) {
    const int k = ws.active[i];
    const ContactPoint& c = ws.points[k];
    const Vec3 u_mean =
        ws.H2[k].leftCols<3>() * ws.v_mean[c.body2] + ws.H2[k].rightCols<3>() * ws.w_mean[c.body2] -
        ws.H1[k].leftCols<3>() * ws.v_mean[c.body1] - ws.H1[k].rightCols<3>() * ws.w_mean[c.body1];
    const Vec3 w_mean = ws.w_mean[c.body2] - ws.w_mean[c.body1];
    const Vec3 r = force_impulse(ws, i), m = moment_impulse(ws, i);
    state.dissipated_by_kind[0] -= r.x() * u_mean.x();
    state.dissipated_by_kind[1] -= r.y() * u_mean.y() + r.z() * u_mean.z();
    state.dissipated_by_kind[2] -= m.y() * w_mean.dot(c.t1_W) + m.z() * w_mean.dot(c.t2_W);
    state.dissipated_by_kind[3] -= m.x() * w_mean.dot(c.n_W);
  }

  // Per point: impulse, end-of-step relative velocities, status. Then the contact memory.
  const std::size_t npoints = ws.points.size();
  ws.u_end.resize(npoints);
  ws.w_rel_end.resize(npoints);
  ws.impulse.resize(npoints);
  ws.moment.resize(npoints);
  ws.status.resize(npoints);
  state.contacts.clear();
  for (std::size_t k = 0; k < npoints; ++k) {
    const ContactPoint& c = ws.points[k];
    const int i = ws.active_of_point[k];
    // Velocities after the step in the step's contact frame (bodies' frames at the step start).
    const Vec3 w1 = model.bodies[c.body1].fixed ? Vec3::Zero() : Vec3(state.w_W[c.body1]);
    const Vec3 w2 = model.bodies[c.body2].fixed ? Vec3::Zero() : Vec3(state.w_W[c.body2]);
    ws.w_rel_end[k] = w2 - w1;
    if (i < 0) {
      ws.u_end[k] = ws.H2[k].leftCols<3>() * state.v_WC[c.body2] + ws.H2[k].rightCols<3>() * w2 -
                    ws.H1[k].leftCols<3>() * state.v_WC[c.body1] - ws.H1[k].rightCols<3>() * w1;
      ws.impulse[k].setZero();
      ws.moment[k].setZero();
      ws.status[k] = ContactStatus::separated;
      continue;
    }
    ws.u_end[k] = ws.use_moments ? Vec3(ws.u6[i].head<3>()) : ws.u[i];
    // Undo the Newton shift of q (restitution) to report the velocity itself.
    const NonsmoothLaws& laws = ws.laws[ws.laws_of_active[i]];
    ws.u_end[k] -= Vec3(laws.e_n * ws.u_start[k].x(), laws.e_t * ws.u_start[k].y(),
                        laws.e_t * ws.u_start[k].z());
    ws.impulse[k] = force_impulse(ws, i);
    ws.moment[k] = moment_impulse(ws, i);
    const double slip = std::hypot(ws.u_end[k].y(), ws.u_end[k].z());
    ws.status[k] = ws.impulse[k].x() <= 0.0 ? ContactStatus::separated
                   : slip <= kStickVelocity ? ContactStatus::sticking
                                            : ContactStatus::sliding;
    state.contacts.push_back(ContactMemory{ContactKey{c.shape1, c.shape2, c.feature}, ws.impulse[k],
                                           ws.moment[k], ws.status[k]});
  }
  std::sort(state.contacts.begin(), state.contacts.end(),
            [](const ContactMemory& a, const ContactMemory& b) { return a.key < b.key; });

  // Time by compensated summation, so that 10^4 steps of 1e-4 s end at 1 s, not 0.99999999999991.
  const double increment = h - state.time_carry;
  const double t = state.time + increment;
  state.time_carry = (t - state.time) - increment;
  state.time = t;
  ++state.step;
  ws.report.finite = all_finite;
}

}  // namespace coulomb::stages
