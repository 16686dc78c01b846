// Stage 5: the local frictional contact problem of the active contacts, and its warm start (the
// impulses of the contact memory), in factored form (coulomb/nonsmooth/factored_problem.hpp: W is
// never assembled).
//
//   ξ = W r + q,  W = J M⁻¹ Jᵀ,  W_ij = Σ_b J_ib M_b⁻¹ J_jbᵀ,  q_i = J_i ν_free + u_c,i − (I − E)
//   u_0,i
//
// at the contact configuration c (the midpoint of the step, or its start for Moreau–Jean), with
// J_i,body2 = J_i, J_i,body1 = −J_i as rows of the contact frame: (N, T1, T2) on the velocity of
// the point (H of the kinematics) and, with moment laws, (n, t1, t2) on the angular velocity;
// M_b⁻¹ = diag(I/m, R_c I_B⁻¹ R_cᵀ) (fixed bodies: 0); E = diag(e_n, e_t, e_t, 0, 0, 0).
// The complementarity (De Saxcé's) holds on ξ = u⁺ + u_c − (I − E) u_0, where u⁺ = J ν⁺ is the
// velocity after the impulses and u_c = J ν⁻ the one before, both at c, and u_0 the velocity at
// the start of the step: ξ = u⁺ + E u_0 + (u_c − u_0). For Moreau–Jean u_c = u_0 and this is
// Newton's impact law u⁺ + E u_0 (Moreau's). For the midpoint scheme a closed contact satisfies
// u⁺ + u_c = O(h²) (the symmetric, second-order condition) while a new impact sees
// u_c ≈ u_0 and Newton's law: see docs/nonsmooth.md. Three unknowns per contact (FCLIB's local
// problem) unless a contact of the model has a moment law (pivoting, rolling, Contensou), then six
// for every contact (a moment with a zero bound is zero).
#include <coulomb/compliant/geometry.hpp>
#include <coulomb/laws/hertz.hpp>
#include <coulomb/math/parallel.hpp>

#include <algorithm>
#include <cmath>

#include "stages/joints.hpp"
#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

template <int D>
using JacobianD = Eigen::Matrix<double, D, 6>;

// The Jacobian of one side of point k: rows (N, T1, T2) from the kinematics, then (n, t1, t2)
// on the angular velocity; sign + for body 2, − for body 1.
template <int D>
JacobianD<D> side_jacobian(const ContactPoints& points, int k, int side) {
  JacobianD<D> J;
  // (two assignments rather than a conditional expression, whose temporary went through the
  // stack: a store-forwarding stall, 2.7 % of a carpet's step)
  if (side == 1)
    J.template topRows<3>() = points.H2[k];
  else
    J.template topRows<3>() = -points.H1[k];
  if constexpr (D == 6) {
    const ContactPoint& c = points.points[k];
    const double s = side == 1 ? 1.0 : -1.0;
    J.template bottomRows<3>().template leftCols<3>().setZero();
    J.template bottomRows<3>().template rightCols<3>() << s * c.n_W.transpose(),
        s * c.t1_W.transpose(), s * c.t2_W.transpose();
  }
  return J;
}

// The law of one contact of the problem, per size: μ (3 unknowns), or the coefficients of the
// admissible set with moments (6 unknowns).
void set_law(double& law, const NonsmoothLaws&, double mu, double, const ContactMemory*, double) {
  law = mu;
}
void set_law(ContactLaw6& law, const NonsmoothLaws& laws, double mu, double h,
             const ContactMemory* memory, double curvature_radius) {
  law = ContactLaw6{};
  law.mu = mu;
  law.k = laws.k;
  law.pressure = laws.pressure;
  if (laws.coupling == NonsmoothLaws::Coupling::none) {
    law.h = laws.h;
    return;
  }
  law.coupling = laws.coupling == NonsmoothLaws::Coupling::ellipsoid
                     ? ContactLaw6::Coupling::ellipsoid
                     : ContactLaw6::Coupling::exact;
  double a = laws.patch_radius;
  if (!(a > 0.0)) {
    // Hertz: a = (3 N R/(4 E*))^{1/3} with N the normal force of the last step (the problem is
    // linear in this step's unknowns only if a is fixed during the step) and R that of the circle
    // with the area of the elliptic Hertz patch (compliant/geometry.hpp: patch_area_radius). A
    // new contact starts from a point (a = 0: no pivoting friction in its first step).
    const double N = memory ? memory->impulse.x() / h : 0.0;
    a = hertz_patch_radius(N, curvature_radius, laws.e_star);
  }
  if (a > 0.0) {
    law.a = a;
  } else {
    law.coupling = ContactLaw6::Coupling::none;  // a point: Coulomb only
  }
}

}  // namespace

Vec6 law_shift(const ContactPoints& points, std::size_t k, const NonsmoothLaws& laws) {
  // E = diag(e_n, e_t, e_t, 0, 0, 0) (Newton's restitutions); a point that kept moving (sliding,
  // spinning, rolling) takes the tangential and angular rows at the middle of the step:
  // ξ = u⁺ + u_c there (E = 1), so the friction direction is that of the mean velocity.
  // Row by row, u_pre − (1 − E) u_0 (the vector form built E on the stack and read it back in
  // halves: a store-forwarding stall that made this 3.4 % of a carpet's step).
  const bool moving = points.moving[k] != 0;
  const double e_t = moving ? 1.0 : laws.e_t, e_a = moving ? 1.0 : 0.0;
  const Vec6& u_c = points.u_pre[k];
  const Vec6& u_0 = points.u_zero[k];
  Vec6 shift;
  shift(0) = u_c(0) - (1.0 - laws.e_n) * u_0(0);
  for (int row = 1; row < 3; ++row) shift(row) = u_c(row) - (1.0 - e_t) * u_0(row);
  for (int row = 3; row < 6; ++row) shift(row) = u_c(row) - (1.0 - e_a) * u_0(row);
  return shift;
}

template <int D>
void assemble(const Model& model, const State& state, const FreeMotion& motion,
              const ContactPoints& points, const ActiveSet& active, ContactBuffers<D>& out) {
  FactoredProblem<D>& p = out.problem;
  std::vector<VecN<D>>& r = out.r;
  const std::size_t nactive = active.active.size();
  p.clear();
  p.contact_count = static_cast<int>(nactive);
  p.laws.resize(nactive);
  p.q.resize(nactive);
  p.body1.resize(nactive);
  p.body2.resize(nactive);
  p.J1.resize(nactive);
  p.J2.resize(nactive);
  out.laws_of_active.resize(nactive);
  r.resize(nactive);

  // The problem's bodies: the dynamic bodies of the active contacts, numbered in body order (so
  // the numbering is a function of the active set), with their inverse mass and world inverse
  // inertia at the contact configuration.
  const std::size_t nbodies = model.bodies.size();
  out.body_index.assign(nbodies, -1);
  for (std::size_t b = 0; b < nbodies; ++b) {
    // (a body held by a joint is in every step's problem: docs/joints.md)
    const bool jointed = b < model.compiled.body_jointed.size() && model.compiled.body_jointed[b];
    // (Body::fixed and inv_mass() as free_motion read them: FreeMotion::body_flags)
    if ((motion.body_flags[b] & kBodyFixed) != 0 ||
        (!jointed && active.body_contacts_start[b] == active.body_contacts_start[b + 1]))
      continue;
    out.body_index[b] = p.body_count++;
  }
  // Their masses and inertias, each into its own slot.
  p.inv_mass.resize(static_cast<std::size_t>(p.body_count));
  p.inv_inertia.resize(static_cast<std::size_t>(p.body_count));
  parallel_for(static_cast<std::ptrdiff_t>(nbodies), model.solver.parallel_loop_min,
               [&](std::ptrdiff_t ib) {
                 const auto b = static_cast<std::size_t>(ib);
                 const std::int32_t j = out.body_index[b];
                 if (j < 0) return;
                 p.inv_mass[static_cast<std::size_t>(j)] = motion.inv_mass[b];
                 p.inv_inertia[static_cast<std::size_t>(j)] = motion.inv_inertia_W[b];
               });

  // Per active contact: the laws of its material pair, the memory of the last step (warm start
  // and stick/slip status), the Jacobian of each side, the free velocity q.
  // Contact by contact, each into its own slots (parallel from parallel_loop_min contacts on).
  const auto n = static_cast<std::ptrdiff_t>(nactive);
  parallel_for(n, model.solver.parallel_loop_min, [&](std::ptrdiff_t ii) {
    const auto i = static_cast<std::size_t>(ii);
    const int k = active.active[i];
    const ContactPoint& c = points.points[k];
    const int law_index =
        model.compiled.law_index(model.compiled.body_material[static_cast<std::size_t>(c.body1)],
                                 model.compiled.body_material[static_cast<std::size_t>(c.body2)]);
    const NonsmoothLaws& laws = model.compiled.laws[static_cast<std::size_t>(law_index)];
    out.laws_of_active[i] = law_index;

    const std::int32_t m = points.memory_of_point[k];
    const ContactMemory* memory = m >= 0 ? &state.contacts[static_cast<std::size_t>(m)] : nullptr;
    r[i].setZero();
    if (memory) {
      r[i].template head<3>() = memory->impulse;
      if constexpr (D == 6) r[i].template tail<3>() = memory->moment;
    }
    // Static/kinetic rule: μ_k for a contact that slid at the last step, or a new contact whose
    // points already slip at the start of the step; μ_s for a contact that stuck or a new one at
    // rest. So a block at rest starts to slide exactly at tan α = μ_s, and a sliding block keeps
    // μ_k until the step in which it stops, then μ_s holds it.
    const bool slid = memory ? memory->status == ContactStatus::sliding
                             : norm2d(points.u_zero[k](1), points.u_zero[k](2)) > kStickVelocity;
    // The Hertz patch's radius (elliptic integrals) only where a Contensou law needs it.
    const bool hertz_patch = D == kWrench && laws.coupling != NonsmoothLaws::Coupling::none &&
                             !(laws.patch_radius > 0.0);
    set_law(p.laws[i], laws, slid ? laws.mu_k : laws.mu_s, model.time_step, memory,
            hertz_patch ? patch_area_radius(c.curvature1, c.curvature2, model.solver.sharp_radius)
                        : 0.0);

    const JacobianD<D> J1 = side_jacobian<D>(points, k, 0);
    const JacobianD<D> J2 = side_jacobian<D>(points, k, 1);
    p.J1[i] = J1;
    p.J2[i] = J2;
    p.body1[i] = out.body_index[static_cast<std::size_t>(c.body1)];
    p.body2[i] = out.body_index[static_cast<std::size_t>(c.body2)];
    VecN<D> q = J1.template leftCols<3>() * motion.v_free[c.body1] +
                J1.template rightCols<3>() * motion.w_free[c.body1] +
                J2.template leftCols<3>() * motion.v_free[c.body2] +
                J2.template rightCols<3>() * motion.w_free[c.body2];
    // The law's velocity ξ = u⁺ + u_c − (I − E) u_0 (Newton's restitution per component).
    q += law_shift(points, k, laws).template head<D>();
    p.q[i] = q;
  });
  // The joint blocks after the contacts (joints.cpp), then M⁻¹ Jᵀ of each side, W_αα, the
  // contacts of each body, the visiting order.
  assemble_joints(model, state, motion, out);
  p.finish();
}

template void assemble<kForce>(const Model&, const State&, const FreeMotion&, const ContactPoints&,
                               const ActiveSet&, ContactBuffers<kForce>&);
template void assemble<kWrench>(const Model&, const State&, const FreeMotion&, const ContactPoints&,
                                const ActiveSet&, ContactBuffers<kWrench>&);

}  // namespace coulomb::stages
