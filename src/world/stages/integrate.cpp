// Stage 7: the impulses applied (the kick), the second part of the motion, contact memory, energy.
//
// Kick, at the contact configuration c (docs/nonsmooth.md):
//   v_{k+1} = v_free + (1/m) Σ P,        L⁺ = L_k + Σ (r_c × P + M)      (world, exact)
//   ω_post = I_c⁻¹ L⁺                    (the velocity the contact law saw)
// Midpoint scheme: x_{k+1} = x_c + (h/2) v_{k+1}; (R_{k+1}, Π_{k+1}) = torque-free half step from
//   (R_c, R_cᵀ L⁺); ω_{k+1} = R_{k+1} I_B⁻¹ Π_{k+1}.
// Moreau–Jean: x_{k+1} = x_k + h (θ v_{k+1} + (1 − θ) v_k); (R_{k+1}, Π_{k+1}) = torque-free θ-step
//   of length h from (R_k, R_kᵀ L⁺).
// The torque-free steps (implicit midpoint + Cayley, rotate_free) conserve the world angular
// momentum and the kinetic energy exactly, so the impulses change L by exactly Σ r × P + M.
//
// Energy removed by the contacts: minus the work of the impulses,
//   W = Σ_b P_b·(v_k + v_{k+1})/2 + ΔL_b·(ω_pre + ω_post)/2,
// which equals the change of kinetic + potential energy exactly for the midpoint scheme (and for
// Moreau–Jean with θ = 1/2): the gravity terms cancel (x_{k+1} − x_k = h (v_k + v_{k+1})/2),
// the drifts keep the rotational energy, and ½ Lᵀ I_c⁻¹ L changes by ΔL·(ω_pre + ω_post)/2.
//
// Actuation (issue 11): the applied impulses of free_motion (loads, springs, dampers) are in
// v_free and L_free; their work is counted the same way, P·v̄ + ΔL·ω̄: the loads' into
// State::force_work, the dampers' (minus) into State::damping, the springs' into nothing (their
// energy is energy.csv's elastic). A driven body ends the step at its exact pose and twist at
// t_{k+1}, with mean twist ν̄_d = (ν_k + ν_{k+1})/2; it does the work −P_d·ν̄_d on the others
// (P_d its contact and spring impulses), State::driven_work, and the contacts dissipate
// −Σ r·J ν̄ over all bodies, which is the free bodies' impulse work minus the driven work.
#include <coulomb/dynamics/rigid_body.hpp>
#include <coulomb/math/parallel.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include "stages/joints.hpp"
#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

bool finite(const Vec3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

// The solved impulses of active contact i: force (N, T1, T2) and moment (Mn, Mt1, Mt2; zero
// without moment laws).
template <int N>
Vec3 force_impulse(const ContactBuffers<N>& contact, std::size_t i) {
  return contact.r[i].template head<3>();
}
template <int N>
Vec3 moment_impulse(const ContactBuffers<N>& contact, std::size_t i) {
  if constexpr (N == kWrench)
    return contact.r[i].template tail<3>();
  else
    return Vec3::Zero();
}
// The law's velocity ξ = W r + q of active contact i (N, T1, T2, ωn, ωt1, ωt2; the angular rows
// zero without moment laws).
template <int N>
Vec6 law_velocity(const ContactBuffers<N>& contact, std::size_t i) {
  Vec6 xi = Vec6::Zero();
  xi.head<N>() = contact.u[i];
  return xi;
}

}  // namespace

template <int N>
void integrate(const Model& model, const FreeMotion& motion, const ContactPoints& points,
               const ActiveSet& active, const ContactBuffers<N>& contact, State& state,
               StepResults& out, StepReport& report) {
  const double h = model.time_step;
  const double theta = model.solver.theta;
  const bool midpoint = model.solver.scheme == TimeScheme::midpoint;
  const std::size_t nbodies = model.bodies.size();
  const std::size_t nactive = active.active.size();

  // Contact impulses gathered per body (force, and torque about the centre of mass), world. A
  // body's sides of the impulses are added in contact order, as a pass over the contacts would:
  // each free body's from ActiveSet's CSR (on every core), a driven body's (a fixed body, which the
  // CSR leaves out) in a pass over the contacts when there is one; a fixed body's stay zero.
  // The side of body b (body 1 or 2 of contact i) of the impulse, added to (f, t).
  const auto add_side = [&](std::size_t i, std::size_t b, Vec3& f, Vec3& t) {
    const int k = active.active[i];
    const ContactPoint& c = points.points[k];
    const Vec3 r = force_impulse(contact, i);
    // Moment impulse of 1 on 2 in the world: Mn n + Mt1 t1 + Mt2 t2.
    const Vec3 m = moment_impulse(contact, i);
    const Vec3 m_W = m.x() * c.n_W + m.y() * c.t1_W + m.z() * c.t2_W;
    if (static_cast<std::size_t>(c.body2) == b) {
      const Eigen::Matrix<double, 6, 1> p2 = points.H2[k].transpose() * r;
      f += p2.head<3>();
      t += p2.tail<3>() + m_W;
    } else {
      const Eigen::Matrix<double, 6, 1> p1 = -(points.H1[k].transpose() * r);
      f += p1.head<3>();
      t += p1.tail<3>() - m_W;
    }
  };
  parallel_for(static_cast<std::ptrdiff_t>(nbodies), model.solver.parallel_loop_min,
               [&](std::ptrdiff_t ib) {
                 const auto b = static_cast<std::size_t>(ib);
                 Vec3 f = Vec3::Zero(), t = Vec3::Zero();
                 // (A fixed body's range of the CSR is empty.)
                 for (std::int32_t e = active.body_contacts_start[b];
                      e < active.body_contacts_start[b + 1]; ++e)
                   add_side(static_cast<std::size_t>(active.body_contacts[e]), b, f, t);
                 out.impulse_force[b] = f;
                 out.impulse_torque[b] = t;
               });
  if (std::any_of(motion.body_flags.begin(), motion.body_flags.end(),
                  [](std::uint8_t flags) { return (flags & kBodyDriven) != 0; })) {
    for (std::size_t i = 0; i < nactive; ++i) {
      const ContactPoint& c = points.points[active.active[i]];
      for (const int b : {c.body1, c.body2}) {
        const auto side = static_cast<std::size_t>(b);
        if ((motion.body_flags[side] & kBodyDriven) != 0)
          add_side(i, side, out.impulse_force[side], out.impulse_torque[side]);
      }
    }
  }
  // The joint blocks' impulses, and the joint reactions (joints.cpp).
  apply_joint_impulses(model, motion, contact, nactive, out);

  // The end of the step (compensated sum, the same as the State's time below).
  const double increment = h - state.time_carry;
  const double t_end = state.time + increment;

  // Kick, then the rest of the motion, and the works of the step, body by body, each into its own
  // slots (parallel from parallel_loop_min bodies on); summed below in body order.
  out.work.assign(nbodies, 0.0);
  out.load_work.resize(nbodies);
  out.damping_work.resize(nbodies);
  out.driven_work.resize(nbodies);
  const auto n = static_cast<std::ptrdiff_t>(nbodies);
  const int failures = parallel_count(n, model.solver.parallel_loop_min, [&](std::ptrdiff_t ib) {
    const auto b = static_cast<std::size_t>(ib);
    // The body's flags (free_motion): a free body's loop reads no field of its Body but, with
    // an anisotropic inertia, I_B.
    const std::uint8_t flags = motion.body_flags[b];
    if ((flags & kBodyDriven) != 0) {
      // The exact pose and twist at the end; the work of the driven body on the others.
      const Vec3 v0 = state.v_WC[b], w0 = state.w_W[b];
      set_driven_body_state(model.bodies[b], b, state, t_end);
      out.L_end[b].setZero();
      out.v_mean[b] = 0.5 * (v0 + state.v_WC[b]);
      out.w_mean[b] = 0.5 * (w0 + state.w_W[b]);
      const double contact_power =
          out.impulse_force[b].dot(out.v_mean[b]) + out.impulse_torque[b].dot(out.w_mean[b]);
      out.driven_work[b] = contact_power + motion.spring_force[b].dot(out.v_mean[b]) +
                           motion.spring_torque[b].dot(out.w_mean[b]);
      // The contacts' share is also theirs: Σ r·J ν̄ counts it with the free bodies' work.
      out.work[b] = contact_power;
      return 0;
    }
    if ((flags & kBodyFixed) != 0) return 0;
    const Vec3 v0 = state.v_WC[b];
    const Vec3 v1 = motion.v_free[b] + motion.inv_mass[b] * out.impulse_force[b];
    out.L_end[b] = motion.L_free[b] + out.impulse_torque[b];
    const Vec3 w_post = motion.inv_inertia_W[b] * out.L_end[b];
    out.v_mean[b] = 0.5 * (v0 + v1);
    out.w_mean[b] = 0.5 * (motion.w_pre[b] + w_post);
    out.work[b] =
        out.impulse_force[b].dot(out.v_mean[b]) + out.impulse_torque[b].dot(out.w_mean[b]);
    if ((flags & kBodyLoaded) != 0)
      out.load_work[b] =
          motion.load_force[b].dot(out.v_mean[b]) + motion.load_torque[b].dot(out.w_mean[b]);
    if ((flags & kBodyDamped) != 0 || !model.springs.empty())
      out.damping_work[b] =
          motion.damping_force[b].dot(out.v_mean[b]) + motion.damping_torque[b].dot(out.w_mean[b]);

    // The rest of the motion: from the contact configuration for the midpoint scheme (second
    // half step), from the start for Moreau–Jean (whole step).
    const Quat q_from = midpoint ? motion.q_c[b] : state.q_WB[b];
    const Vec3 omega_from_B = model.compiled.inv_inertia_B[b] * (q_from.conjugate() * out.L_end[b]);
    const double length = midpoint ? 0.5 * h : h, weight = midpoint ? 0.5 : theta;
    const FreeRotation drift =
        (flags & kBodyIsotropic) != 0
            ? rotate_free_isotropic(q_from, omega_from_B, length, weight)
            : rotate_free(q_from, model.bodies[b].inertia_B, model.compiled.inv_inertia_B[b],
                          omega_from_B, length, weight);
    if (midpoint)
      state.x_WC[b] = motion.x_c[b] + (0.5 * h) * v1;
    else
      state.x_WC[b] += h * (theta * v1 + (1.0 - theta) * v0);
    state.q_WB[b] = drift.q_WB;
    state.v_WC[b] = v1;
    state.w_W[b] = drift.q_WB * drift.omega_B;
    return drift.converged ? 0 : 1;
  });
  report.rotation_failures += failures;

  // The works in body order (the same sums whatever the threads); the first non-finite body.
  double work = 0.0;
  double driven_work = 0.0;
  // (A State filled by hand rather than by State::resize starts them here, at zero.)
  if (state.driven_work_by_body.size() != nbodies) state.driven_work_by_body.resize(nbodies, 0.0);
  report.finite = true;
  report.non_finite_body = -1;
  report.non_finite_quantity = StateQuantity::none;
  // The state's finiteness, counted on every core; the first non-finite body found below if any.
  const auto state_quantity_not_finite = [&](std::size_t b) {
    return !finite(state.x_WC[b]) ? StateQuantity::position
           : !std::isfinite(state.q_WB[b].w()) || !finite(state.q_WB[b].vec())
               ? StateQuantity::orientation
           : !finite(state.v_WC[b]) ? StateQuantity::velocity
           : !finite(state.w_W[b])  ? StateQuantity::angular_velocity
                                    : StateQuantity::none;
  };
  const bool check_finite =
      parallel_count(n, model.solver.parallel_loop_min, [&](std::ptrdiff_t ib) {
        const auto b = static_cast<std::size_t>(ib);
        // (fixed and driven bodies are not checked below either)
        if ((motion.body_flags[b] & kBodyFixed) != 0) return 0;
        return state_quantity_not_finite(b) != StateQuantity::none ? 1 : 0;
      }) > 0;
  for (std::size_t b = 0; b < nbodies; ++b) {
    const std::uint8_t flags = motion.body_flags[b];
    if ((flags & kBodyDriven) != 0) {
      driven_work -= out.driven_work[b];
      state.driven_work_by_body[b] -= out.driven_work[b];
      work += out.work[b];
      continue;
    }
    if ((flags & kBodyFixed) != 0) continue;
    work += out.work[b];
    if ((flags & kBodyLoaded) != 0) state.force_work += out.load_work[b];
    if ((flags & kBodyDamped) != 0 || !model.springs.empty()) state.damping -= out.damping_work[b];
    if (check_finite && report.finite) {
      const StateQuantity bad = state_quantity_not_finite(b);
      if (bad != StateQuantity::none) {
        report.finite = false;
        report.non_finite_body = static_cast<int>(b);
        report.non_finite_quantity = bad;
      }
    }
  }
  state.dissipated -= work;
  state.driven_work += driven_work;

  // The same work contact by contact, split by kind: r·J(v_mean, w_mean) is linear in r, so the
  // normal and tangential parts add up to the total above.
  // Minus each contact's terms (x − t and x + (−t) are the same number), added in contact order
  // (parallel_ordered_sum: the same bits for any threads).
  std::array<double, 4> by_kind{};
  for (std::size_t j = 0; j < by_kind.size(); ++j) by_kind[j] = state.dissipated_by_kind[j];
  parallel_ordered_sum(
      static_cast<std::ptrdiff_t>(nactive), model.solver.parallel_loop_min, out.work_by_kind,
      by_kind, [&](std::ptrdiff_t ii) {
        const auto i = static_cast<std::size_t>(ii);
        const int k = active.active[i];
        const ContactPoint& c = points.points[k];
        const Vec3 u_mean = points.H2[k].leftCols<3>() * out.v_mean[c.body2] +
                            points.H2[k].rightCols<3>() * out.w_mean[c.body2] -
                            points.H1[k].leftCols<3>() * out.v_mean[c.body1] -
                            points.H1[k].rightCols<3>() * out.w_mean[c.body1];
        const Vec3 w_mean = out.w_mean[c.body2] - out.w_mean[c.body1];
        const Vec3 r = force_impulse(contact, i), m = moment_impulse(contact, i);
        std::array<double, 4> terms{};
        terms[static_cast<std::size_t>(EnergyKind::normal)] = -(r.x() * u_mean.x());
        terms[static_cast<std::size_t>(EnergyKind::friction)] =
            -(r.y() * u_mean.y() + r.z() * u_mean.z());
        terms[static_cast<std::size_t>(EnergyKind::rolling)] =
            -(m.y() * w_mean.dot(c.t1_W) + m.z() * w_mean.dot(c.t2_W));
        terms[static_cast<std::size_t>(EnergyKind::pivoting)] = -(m.x() * w_mean.dot(c.n_W));
        return terms;
      });
  for (std::size_t j = 0; j < by_kind.size(); ++j) state.dissipated_by_kind[j] = by_kind[j];

  book_joint_work(model, contact, nactive, out, state);

  // Per point: impulse, end-of-step relative velocity, status, and (active points) the predicted
  // end-of-step gap for the position stage. Then the contact memory.
  const std::size_t npoints = points.points.size();
  out.u_end.resize(npoints);
  out.w_rel_end.resize(npoints);
  out.impulse.resize(npoints);
  out.moment.resize(npoints);
  out.status.resize(npoints);
  out.end_gap.resize(nactive);
  out.rebounding.resize(nactive);
  // A sleeping body has no point in the step (its pairs with moving bodies woke it): the memory
  // of its contacts is kept for the step that wakes it.
  out.kept_memory.clear();
  bool keep_memory = false;
  if (model.solver.sleep.enabled) {
    const auto asleep = [&](const ContactMemory& m) {
      const auto body = [&](std::int32_t shape) {
        return static_cast<std::size_t>(model.shape_body[static_cast<std::size_t>(shape)]);
      };
      return ((motion.body_flags[body(m.key.shape1)] | motion.body_flags[body(m.key.shape2)]) &
              kBodyAsleep) != 0;
    };
    // No point, and every remembered contact asleep: the memory stays as it is.
    keep_memory = npoints == 0 && std::all_of(state.contacts.begin(), state.contacts.end(), asleep);
    if (!keep_memory)
      for (const ContactMemory& m : state.contacts)
        if (asleep(m)) out.kept_memory.push_back(m);
  }
  if (!keep_memory) state.contacts.resize(npoints);
  // Point by point, each into its own slots (parallel from parallel_loop_min points on).
  const auto np = static_cast<std::ptrdiff_t>(npoints);
  // Each counts 1 when its key is below the last point's (the memory then needs a sort).
  const auto key_of = [&](std::size_t k) {
    const ContactPoint& c = points.points[k];
    return ContactKey{c.shape1, c.shape2, c.feature};
  };
  const int out_of_order =
      parallel_count(np, model.solver.parallel_loop_min, [&](std::ptrdiff_t ik) {
        const auto k = static_cast<std::size_t>(ik);
        const ContactPoint& c = points.points[k];
        const int i = active.active_of_point[k];
        const auto still = [&](int b) {  // fixed and not driven
          return (motion.body_flags[static_cast<std::size_t>(b)] & (kBodyFixed | kBodyDriven)) ==
                 kBodyFixed;
        };
        const Vec3 w1 = still(c.body1) ? Vec3::Zero() : Vec3(state.w_W[c.body1]);
        const Vec3 w2 = still(c.body2) ? Vec3::Zero() : Vec3(state.w_W[c.body2]);
        out.w_rel_end[k] = w2 - w1;
        if (i < 0) {
          out.u_end[k] =
              points.H2[k].leftCols<3>() * state.v_WC[c.body2] + points.H2[k].rightCols<3>() * w2 -
              points.H1[k].leftCols<3>() * state.v_WC[c.body1] - points.H1[k].rightCols<3>() * w1;
          out.impulse[k].setZero();
          out.moment[k].setZero();
          out.status[k] = ContactStatus::separated;
        } else {
          // ξ = u⁺ + u_c − (I − E) u_0: the velocity after the impulses at c is u⁺ = ξ − shift, and
          // the relative velocity at the end of the step, J(q_{k+1}) ν_{k+1} = u⁺ + (u_c − u_0) +
          // O(h²) (the Jacobian changes over the second half step as over the first), is ξ − E u_0.
          const NonsmoothLaws& laws =
              model.compiled.laws[static_cast<std::size_t>(contact.laws_of_active[i])];
          const Vec6 xi = law_velocity(contact, static_cast<std::size_t>(i));
          const Vec6 shift = law_shift(points, k, laws);
          const Vec3 u_post = (xi - shift).head<3>();
          out.u_end[k] = u_post + (points.u_pre[k] - points.u_zero[k]).head<3>();
          out.impulse[k] = force_impulse(contact, i);
          out.moment[k] = moment_impulse(contact, i);
          // Stick is judged on the law's velocity (zero slip in the law means sticking).
          const double slip = norm2d(xi(1), xi(2));
          out.status[k] = out.impulse[k].x() <= 0.0 ? ContactStatus::separated
                          : slip <= kStickVelocity  ? ContactStatus::sticking
                                                    : ContactStatus::sliding;
          // Gap at the end of the step, linearised at c (the same rule as the active set, with the
          // velocity after the impulses).
          out.end_gap[i] =
              midpoint ? c.gap + 0.5 * h * u_post.x() +
                             0.25 * h * (points.u_pre[k](0) - points.u_zero[k](0))
                       : c.gap + h * (theta * u_post.x() + (1.0 - theta) * points.u_zero[k](0));
          // A contact that rebounds leaves its penetration by its own motion (correct.cpp). Only
          // with restitution: without it an outward velocity is no rebound (the corners of a face
          // on a face, a statically indeterminate support, can leave moving out at ~1e-7 m/s).
          out.rebounding[i] = laws.e_n > 0.0 && out.u_end[k].x() > kStickVelocity ? 1 : 0;
        }
        const Vec3 I = c.point();
        ContactMemory memory;
        memory.key = ContactKey{c.shape1, c.shape2, c.feature};
        memory.impulse = out.impulse[k];
        memory.moment = out.moment[k];
        memory.status = out.status[k];
        // Moving: a slip, spin or rolling the law saw above kMovingSpeed (stages.hpp).
        if (i >= 0 && out.impulse[k].x() > 0.0) {
          const Vec6 xi = law_velocity(contact, static_cast<std::size_t>(i));
          memory.moving = xi.segment<2>(1).norm() > kMovingSpeed ||
                          std::abs(xi(3)) > kMovingSpeed || xi.segment<2>(4).norm() > kMovingSpeed;
        }
        memory.n_W = c.n_W;
        memory.t1_W = c.t1_W;
        memory.t2_W = c.t2_W;
        memory.r1_W = I - motion.x_c[c.body1];
        memory.r2_W = I - motion.x_c[c.body2];
        state.contacts[k] = memory;
        return k > 0 && memory.key < key_of(k - 1) ? 1 : 0;
      });
  // Sorted by key (the points come pair by pair, usually in key order already).
  const auto by_key = [](const ContactMemory& a, const ContactMemory& b) { return a.key < b.key; };
  if (out_of_order > 0) std::sort(state.contacts.begin(), state.contacts.end(), by_key);
  if (!out.kept_memory.empty()) {
    out.merged_memory.resize(state.contacts.size() + out.kept_memory.size());
    std::merge(state.contacts.begin(), state.contacts.end(), out.kept_memory.begin(),
               out.kept_memory.end(), out.merged_memory.begin(), by_key);
    state.contacts.swap(out.merged_memory);
  }

  // The solver memory of `auto` for the next step.
  state.prefer_newton = contact.prefer_newton_next;

  // Time by compensated summation, so that 10^4 steps of 1e-4 s end at 1 s, not 0.99999999999991.
  state.time_carry = (t_end - state.time) - increment;
  state.time = t_end;
  ++state.step;
}

template void integrate<kForce>(const Model&, const FreeMotion&, const ContactPoints&,
                                const ActiveSet&, const ContactBuffers<kForce>&, State&,
                                StepResults&, StepReport&);
template void integrate<kWrench>(const Model&, const FreeMotion&, const ContactPoints&,
                                 const ActiveSet&, const ContactBuffers<kWrench>&, State&,
                                 StepResults&, StepReport&);

}  // namespace coulomb::stages
