// Stage 4: contact kinematics at the contact configuration: the memory of each point, its frame,
// its Jacobians, its relative velocities before the impulses (u_c) and at the start of the step
// (u_0), the active set and its contacts per body. Equations in docs/nonsmooth.md.
//
// u_0 is the relative velocity with the Jacobian at the start of the step. Moreau–Jean evaluates
// its contacts there, so u_0 = u_c. The midpoint scheme evaluates them at the midpoint c_k of the
// step; the start q_k is the midpoint of the last step's contact configuration c_{k−1} and of c_k
// (both are half steps of the same velocity away from q_k), so
//   J(q_k) = (J(c_{k−1}) + J(c_k))/2 + O(h²),   u_0 = (J(c_{k−1}) ν_k + J(c_k) ν_k)/2,
// with J(c_{k−1}) rebuilt from the frame and lever arms the contact memory keeps. A point without
// memory (or whose normal turned by more than kMemoryCos) uses J(c_k) ν_k.
#include <coulomb/contact/kinematics.hpp>
#include <coulomb/math/parallel.hpp>

#include <algorithm>
#include <array>

#include "stages/body_contacts.hpp"
#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

// Normals of a point's memory and of its new frame must agree this well to interpolate the
// Jacobian (cos 8°): smooth motion turns a normal by O(h ω) per step; more is a feature switch.
constexpr double kMemoryCos = 0.99;

// (N, T1, T2, ωn, ωt1, ωt2) of body 2 relative to body 1 at a point with lever arms r1, r2 (point
// minus centre of mass) in the frame (n, t1, t2).
Vec6 relative_velocity(const Vec3& n, const Vec3& t1, const Vec3& t2, const Vec3& r1,
                       const Vec3& r2, const Vec3& v1, const Vec3& w1, const Vec3& v2,
                       const Vec3& w2) {
  const Vec3 v = (v2 + w2.cross(r2)) - (v1 + w1.cross(r1));
  const Vec3 w = w2 - w1;
  Vec6 u;
  u << v.dot(n), v.dot(t1), v.dot(t2), w.dot(n), w.dot(t1), w.dot(t2);
  return u;
}

// Index of the memory of point c in the sorted contact memory, or -1. `hint` is where the point
// was in the last step's list (its index k): in a settled scene every point is found there, and
// checking that slot first (it must hold the key and be its first slot, as lower_bound's answer)
// spares the binary search, which was ~14 cache misses a point on a carpet of 10⁴ spheres.
std::int32_t find_memory(const State& state, const ContactPoint& c, std::size_t hint) {
  const ContactKey key{c.shape1, c.shape2, c.feature};
  if (hint < state.contacts.size() && state.contacts[hint].key == key &&
      (hint == 0 || state.contacts[hint - 1].key < key))
    return static_cast<std::int32_t>(hint);
  const auto it =
      std::lower_bound(state.contacts.begin(), state.contacts.end(), key,
                       [](const ContactMemory& m, const ContactKey& k) { return m.key < k; });
  return it != state.contacts.end() && it->key == key
             ? static_cast<std::int32_t>(it - state.contacts.begin())
             : -1;
}

}  // namespace

void body_contacts(const Model& model, const ContactPoints& points, ActiveSet& out) {
  // Active contacts of each dynamic body (CSR; a fixed body couples nothing). Each contact's two
  // dynamic bodies (or -1) first, on every core; then the count and the fill in contact order.
  const std::size_t nactive = out.active.size();
  const std::size_t nbodies = model.bodies.size();
  parallel_terms(static_cast<std::ptrdiff_t>(nactive), model.solver.parallel_loop_min, out.ends,
                 [&](std::ptrdiff_t i) -> std::array<std::int32_t, 2> {
                   const ContactPoint& c = points.points[out.active[static_cast<std::size_t>(i)]];
                   const auto dynamic = [&](std::int32_t shape, int body) {
                     return model.compiled.shape_fixed[static_cast<std::size_t>(shape)] != 0
                                ? std::int32_t{-1}
                                : static_cast<std::int32_t>(body);
                   };
                   return {dynamic(c.shape1, c.body1), dynamic(c.shape2, c.body2)};
                 });
  out.body_contacts_start.assign(nbodies + 1, 0);
  for (const auto& ends : out.ends)
    for (const std::int32_t b : ends)
      if (b >= 0) ++out.body_contacts_start[static_cast<std::size_t>(b) + 1];
  for (std::size_t b = 0; b < nbodies; ++b)
    out.body_contacts_start[b + 1] += out.body_contacts_start[b];
  out.body_contacts.resize(static_cast<std::size_t>(out.body_contacts_start[nbodies]));
  out.next.assign(out.body_contacts_start.begin(), out.body_contacts_start.end() - 1);
  for (std::size_t i = 0; i < nactive; ++i)
    for (const std::int32_t b : out.ends[i])
      if (b >= 0) out.body_contacts[out.next[static_cast<std::size_t>(b)]++] = static_cast<int>(i);
}

void kinematics(const Model& model, const State& state, const FreeMotion& motion,
                ContactPoints& points, ActiveSet& out, StepReport& report) {
  const double h = model.time_step;
  const double theta = model.solver.theta;
  const bool midpoint = model.solver.scheme == TimeScheme::midpoint;
  const bool siconos_rule = !midpoint && model.solver.active_set == ActiveSetRule::siconos;

  const std::size_t npoints = points.points.size();
  points.memory_of_point.resize(npoints);
  points.moving.resize(npoints);
  points.H1.resize(npoints);
  points.H2.resize(npoints);
  points.u_pre.resize(npoints);
  points.u_zero.resize(npoints);
  points.predicted_gap.resize(npoints);
  out.active_of_point.resize(npoints);
  out.active.clear();
  // Point by point, each into its own slots (parallel from parallel_loop_min points on).
  const auto n = static_cast<std::ptrdiff_t>(npoints);
  parallel_for(n, model.solver.parallel_loop_min, [&](std::ptrdiff_t i) {
    const auto k = static_cast<std::size_t>(i);
    ContactPoint& c = points.points[k];
    const int b1 = c.body1, b2 = c.body2;
    const std::int32_t m = find_memory(state, c, k);
    points.memory_of_point[k] = m;
    const ContactMemory* memory = m >= 0 ? &state.contacts[static_cast<std::size_t>(m)] : nullptr;
    bool interpolate = midpoint && memory && memory->n_W.dot(c.n_W) >= kMemoryCos;
    points.moving[k] = midpoint && memory && memory->moving ? 1 : 0;
    // Midpoint scheme: the tangents of a remembered point are carried over from the last step
    // (the last t1 projected on the new tangent plane), so that the two Jacobians averaged below,
    // and the warm-start impulses, refer to the same directions.
    if (interpolate) {
      const Vec3 t = memory->t1_W - memory->t1_W.dot(c.n_W) * c.n_W;
      const double norm = t.norm();
      if (norm > 0.5) {
        c.t1_W = t / norm;
        c.t2_W = c.n_W.cross(c.t1_W);
      } else {
        interpolate = false;
      }
    }
    contact_jacobians(c, motion.x_c[b1], motion.x_c[b2], points.H1[k], points.H2[k]);

    // Velocities before the impulses at the contact configuration (u_c), at the start (u_0), and
    // the free velocity (no contact) at the end of the step.
    const Vec3 I = c.point();
    const Vec3 r1 = I - motion.x_c[b1], r2 = I - motion.x_c[b2];
    points.u_pre[k] = relative_velocity(c.n_W, c.t1_W, c.t2_W, r1, r2, state.v_WC[b1],
                                        motion.w_pre[b1], state.v_WC[b2], motion.w_pre[b2]);
    points.u_zero[k] = relative_velocity(c.n_W, c.t1_W, c.t2_W, r1, r2, state.v_WC[b1],
                                         state.w_W[b1], state.v_WC[b2], state.w_W[b2]);
    if (interpolate) {
      const Vec6 u_last =
          relative_velocity(memory->n_W, memory->t1_W, memory->t2_W, memory->r1_W, memory->r2_W,
                            state.v_WC[b1], state.w_W[b1], state.v_WC[b2], state.w_W[b2]);
      points.u_zero[k] = 0.5 * (points.u_zero[k] + u_last);
    }
    const double un_free =
        relative_velocity(c.n_W, c.t1_W, c.t2_W, r1, r2, motion.v_free[b1], motion.w_free[b1],
                          motion.v_free[b2], motion.w_free[b2])(0);

    // Active set: the gap at the end of the step if no contact acted.
    double predicted_gap;
    if (midpoint) {
      // g(c_k) + (h/2) u_N,free + (h/4)(u_c − u_0)_N: the last term is the second-order part
      // (h²/8) d(J ν)/dt of the gap over the half step, from the Jacobian's change.
      predicted_gap = c.gap + 0.5 * h * un_free +
                      0.25 * h * (points.u_pre[k](0) - points.u_zero[k](0)) -
                      model.solver.activation_distance;
    } else if (siconos_rule) {
      // Siconos' rule (γ = 1/2): g + (h/2) ġ_k.
      predicted_gap = c.gap + 0.5 * h * points.u_zero[k](0);
    } else {
      // End-of-step gap of the θ-method: g + h (θ ġ_free + (1 − θ) ġ_k).
      predicted_gap = c.gap + h * (theta * un_free + (1.0 - theta) * points.u_zero[k](0)) -
                      model.solver.activation_distance;
    }
    points.predicted_gap[k] = predicted_gap;
  });
  // The active set, in point order.
  for (std::size_t k = 0; k < npoints; ++k) {
    if (points.predicted_gap[k] <= 0.0) {
      out.active_of_point[k] = static_cast<std::int32_t>(out.active.size());
      out.active.push_back(static_cast<std::int32_t>(k));
    } else {
      out.active_of_point[k] = -1;
    }
  }
  report.active_contacts = static_cast<int>(out.active.size());

  body_contacts(model, points, out);
}

}  // namespace coulomb::stages
