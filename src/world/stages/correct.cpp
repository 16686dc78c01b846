// Stage 8: the position stage. A velocity-level scheme keeps contacts closed only to its order:
// an impact ends a step inside the support (by up to h|v|/2), bodies may start overlapping, and
// the linearised gap of a curved contact drifts. When an active contact's predicted end-of-step
// gap ĝ (integrate.cpp: ĝ = g_c + (h/2) u⁺_N + (h/4)(u_c − u_0)_N for the midpoint scheme) is
// below −position_tolerance, the positions are displaced by a mass-weighted correction that
// does not touch the velocities (the Gear–Gupta–Leimkuhler idea: a second multiplier at position
// level; Acary 2013's projected Moreau–Jean scheme solves the same problem):
//
//   Δq = M_c⁻¹ J_Nᵀ κ,   ĝ + W_NN κ ≥ 0 ⊥ κ ≥ 0,   W_NN = J_N M_c⁻¹ J_Nᵀ,
//
// the smallest displacement in the kinetic metric that closes every active contact (a linear
// complementarity problem on the normal rows of the step's W, solved by projected Gauss–Seidel
// over body displacements, W never formed).
// Centres of mass move by Δx, orientations turn by the world rotation vector Δθ (Cayley); the
// world angular momentum is kept, so ω = I⁻¹ L follows the new inertia. The energy this adds
// (potential −m g·Δx, and ½ Lᵀ ΔI⁻¹ L) is booked as EnergyKind::correction so that the energy
// audit still closes. A closed contact of the midpoint scheme has ĝ = O(h³) per step, so the stage
// acts on impacts, initial overlaps and drift, not on smooth rolling.
//
// References: V. Acary, Projected event-capturing time-stepping schemes for nonsmooth mechanical
// systems with unilateral contact and Coulomb's friction, CMAME 256 (2013) 224–250; C. W. Gear,
// B. Leimkuhler, G. K. Gupta, Automatic integration of Euler–Lagrange equations with constraints,
// J. Comput. Appl. Math. 12 (1985) 77–90; S. Schoeder, H. Ulbrich, T. Schindler, Discussion of the
// Gear–Gupta–Leimkuhler method for impacting mechanical systems, Multibody Syst. Dyn. 31 (2014).
#include <coulomb/dynamics/rigid_body.hpp>

#include <algorithm>

#include "stages/joints.hpp"
#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

// Sweeps of projected Gauss–Seidel at most; it stops earlier once every residual penetration is
// below 1e-3 of the tolerance (the correction is a projection, not the physics: an unconverged
// remainder is reported in StepReport::penetration_left and handled at the next step).
constexpr int kMaxSweeps = 100;

// Projected Gauss–Seidel on the normal rows, over body displacements: d_b = Σ M_b⁻¹ J_N,bᵀ κ (the
// first column of each side's M⁻¹ Jᵀ) is kept per body, so the gap of contact i after the
// displacement is gap_i + J_N,i d (its first row of J on each side) and a sweep costs a constant
// per contact. `d` (nb) is the displacement on exit.
template <int N>
int solve_positions(const FactoredProblem<N>& p, const std::vector<double>& gap, double tolerance,
                    std::vector<double>& kappa, std::vector<Vec6d>& d, double& left) {
  const std::size_t n = gap.size();
  kappa.assign(n, 0.0);
  d.assign(static_cast<std::size_t>(p.body_count), Vec6d::Zero());
  const auto gap_after = [&](std::size_t i) {
    double g = gap[i];
    if (p.body1[i] >= 0) g += p.J1[i].row(0).dot(d[p.body1[i]]);
    if (p.body2[i] >= 0) g += p.J2[i].row(0).dot(d[p.body2[i]]);
    return g;
  };
  int sweeps = 0;
  left = 0.0;
  for (int s = 1; s <= kMaxSweeps; ++s) {
    sweeps = s;
    for (std::size_t i = 0; i < n; ++i) {
      const double w_ii = p.w_diag[i](0, 0);
      if (!(w_ii > 0.0)) continue;  // both bodies fixed
      const double k_new = std::max(0.0, kappa[i] - gap_after(i) / w_ii);
      const double delta = k_new - kappa[i];
      kappa[i] = k_new;
      if (p.body1[i] >= 0) d[p.body1[i]] += delta * p.G1[i].col(0);
      if (p.body2[i] >= 0) d[p.body2[i]] += delta * p.G2[i].col(0);
    }
    // The deepest penetration left.
    left = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      if (p.w_diag[i](0, 0) > 0.0) left = std::max(left, -gap_after(i));
    if (left <= 1e-3 * tolerance) break;
  }
  return sweeps;
}

}  // namespace

namespace {

template <int N>
void correct_contacts(const Model& model, const ActiveSet& active, const ContactBuffers<N>& contact,
                      const StepResults& results, State& state, PositionStage& out,
                      StepReport& report) {
  report.penetration = 0.0;
  report.penetration_left = 0.0;
  report.correction_sweeps = 0;
  const std::size_t nactive = active.active.size();
  // What the stage closes: the predicted penetrations of the contacts that do not rebound. A
  // rebounding contact (outward normal velocity at the end of the step: an impact with
  // restitution) leaves its penetration by its own motion; lifting it too would add the
  // potential energy of the lift on top of the rebound at every impact, and a box landing on a
  // face with e > 0 would chatter between its edges for ever on that energy. It only must not be
  // pushed deeper.
  double deepest = 0.0, to_close = 0.0;
  out.target_gap.resize(nactive);
  for (std::size_t i = 0; i < nactive; ++i) {
    deepest = std::max(deepest, -results.end_gap[i]);
    out.target_gap[i] =
        results.rebounding[i] ? std::max(0.0, results.end_gap[i]) : results.end_gap[i];
    to_close = std::max(to_close, -out.target_gap[i]);
  }
  report.penetration = deepest;
  report.penetration_left = deepest;
  if (!model.solver.position_correction || to_close <= model.solver.position_tolerance) return;

  // The multipliers κ, then the displacement of every body.
  double left = 0.0;
  report.correction_sweeps =
      solve_positions(contact.problem, out.target_gap, model.solver.position_tolerance, out.kappa,
                      out.displacement, left);
  report.penetration_left = left;
  const std::size_t nbodies = model.bodies.size();
  out.dx.assign(nbodies, Vec3::Zero());
  out.dtheta.assign(nbodies, Vec3::Zero());
  for (std::size_t b = 0; b < nbodies; ++b) {
    const std::int32_t j = contact.body_index[b];
    if (j < 0) continue;
    out.dx[b] = out.displacement[static_cast<std::size_t>(j)].head<3>();
    out.dtheta[b] = out.displacement[static_cast<std::size_t>(j)].tail<3>();
  }

  // Apply, keeping velocities and world angular momenta; book the energy it adds.
  double added = 0.0;
  for (std::size_t b = 0; b < nbodies; ++b) {
    const Body& body = model.bodies[b];
    if (body.fixed) continue;
    if (out.dx[b].isZero(0.0) && out.dtheta[b].isZero(0.0)) continue;
    const Mat3 R0 = state.q_WB[b].toRotationMatrix();
    const Vec3 L = R0 * (body.inertia_B * (R0.transpose() * state.w_W[b]));
    state.x_WC[b] += out.dx[b];
    Quat q = cayley_quaternion(out.dtheta[b]) * state.q_WB[b];
    q.normalize();
    state.q_WB[b] = q;
    const Mat3 R1 = q.toRotationMatrix();
    const Vec3 w1 = R1 * (model.compiled.inv_inertia_B[b] * (R1.transpose() * L));
    added += -body.mass * model.gravity.dot(out.dx[b]) + 0.5 * L.dot(w1 - state.w_W[b]);
    state.w_W[b] = w1;
  }
  state.dissipated -= added;
  state.dissipated_by_kind[static_cast<std::size_t>(EnergyKind::correction)] -= added;
}

}  // namespace

// The contacts' position stage, then the joints' (joints.cpp), which leaves every joint closed to
// round-off.
template <int N>
void correct(const Model& model, const ActiveSet& active, const ContactBuffers<N>& contact,
             const StepResults& results, State& state, PositionStage& out, StepReport& report) {
  correct_contacts(model, active, contact, results, state, out, report);
  correct_joints(model, state, report);
}

template void correct<kForce>(const Model&, const ActiveSet&, const ContactBuffers<kForce>&,
                              const StepResults&, State&, PositionStage&, StepReport&);
template void correct<kWrench>(const Model&, const ActiveSet&, const ContactBuffers<kWrench>&,
                               const StepResults&, State&, PositionStage&, StepReport&);

}  // namespace coulomb::stages
