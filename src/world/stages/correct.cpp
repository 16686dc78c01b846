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
// over body displacements, W never formed; where its sweeps run out with a row still open, by
// Dostál's projected conjugate gradients from its answer, which take O(n) iterations where the
// sweeps take O(n²) on a stack or a chain of n bodies).
// Centres of mass move by Δx, orientations turn by the world rotation vector Δθ (Cayley); the
// world angular momentum is kept, so ω = I⁻¹ L follows the new inertia. The energy this adds
// (potential −m g·Δx, and ½ Lᵀ ΔI⁻¹ L) is booked as EnergyKind::correction so that the energy
// audit still closes. A closed contact of the midpoint scheme has ĝ = O(h³) per step, so the stage
// acts on impacts, initial overlaps and drift, not on smooth rolling.
//
// The end-configuration check. The gaps above are those of the step's points, fixed in the
// bodies at the contact configuration; where a body with edges or corners turns relative to the
// other (a box tumbling at 30 rad/s turns a corner 30 mrad in a step of 1 ms), another feature
// can reach deeper by the end of the step than any of those points says: the drum of the peer
// benchmark ended steps with cubes 2.7 mm into each other while the points' gaps were closed to
// 1e-11 m, and a cube turning onto the drum's next wall slab meets a shape pair that had no
// active point (or, pushed by the projection, one with no point at all). So the broadphase's
// candidate pairs (AABBs grown by the margin and the step's sweep) in which a polyhedron (box,
// convex hull) turns relative to a polyhedron, a plane or a sphere by more than the tolerance over
// its reach, h |ω₂ − ω₁| (reach₁ + reach₂) > position_tolerance, are collided again at the
// corrected poses. If a point is deeper than the tolerance, every point of those pairs within the
// contact margin becomes a normal row (touching ones too, so that closing one overlap does not
// push a body into another pair) and a projection by translation closes them (normal_row says
// why not the kinetic metric); the next pass adds the candidate pairs of the bodies it moved; at
// most kEndPasses passes. Pairs that do not turn keep their features (for polyhedra in relative
// translation a point's gap is linear in the displacement), so resting stacks and piles of
// spheres never pay for it. A curved shape other than a sphere (capsule, cylinder, cone,
// ellipsoid) against a face or an edge is left out: its contact moves smoothly, its end gap is the
// scheme's O(h²) drift rather than a corner's jump, and lifting that at every step fed the next
// steps' normal impulses (tried on the cone rolling on a turntable, a driven box: 2.4e-6 J of lifts
// and 1.7e-6 J dissipated, against 1.8e-7 J dissipated without the check).
//
// References: V. Acary, Projected event-capturing time-stepping schemes for nonsmooth mechanical
// systems with unilateral contact and Coulomb's friction, CMAME 256 (2013) 224–250; C. W. Gear,
// B. Leimkuhler, G. K. Gupta, Automatic integration of Euler–Lagrange equations with constraints,
// J. Comput. Appl. Math. 12 (1985) 77–90; S. Schoeder, H. Ulbrich, T. Schindler, Discussion of the
// Gear–Gupta–Leimkuhler method for impacting mechanical systems, Multibody Syst. Dyn. 31 (2014).
#include <coulomb/collision/narrowphase.hpp>
#include <coulomb/dynamics/rigid_body.hpp>
#include <coulomb/math/parallel.hpp>
#include <coulomb/model/state.hpp>

#include <algorithm>
#include <limits>

#include "stages/joints.hpp"
#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

// Sweeps of projected Gauss–Seidel at most; it stops earlier once every residual penetration is
// below 1e-3 of the tolerance (the correction is a projection, not the physics: an unconverged
// remainder is reported in StepReport::penetration_left and StepReport::unclosed, named in a
// warning, and handled at the next step). Why 1000: with 100 the dropped piles of the peer
// benchmark ended steps with overlaps above the tolerance (1e-8 m) — 17 of the first 600 steps of
// 1000 spheres, up to 1.05e-7 m; 37 of the first 400 of 8000 spheres, up to 2.77e-7 m — and with
// 1000 none. Its cost, measured on the 1000 spheres' 600 steps (stage `correct`, two threads):
// 0.46 s before, 0.58 s after, of 19 s (most steps stop within a few sweeps; only those that need
// more take them).
constexpr int kMaxSweeps = 1000;

// Passes of the end-configuration check at most (collide, project, displace); the overlaps a
// last pass leaves are the next step's (its narrowphase sees them).
constexpr int kEndPasses = 3;

// The normal rows of the step's problem: each contact's first row of J and first column of
// G = M⁻¹ Jᵀ on each side, W_NN its first diagonal entry; bodies numbered as the problem's.
template <int N>
struct ProblemRows {
  const FactoredProblem<N>& p;
  [[nodiscard]] std::int32_t body1(std::size_t i) const { return p.body1[i]; }
  [[nodiscard]] std::int32_t body2(std::size_t i) const { return p.body2[i]; }
  [[nodiscard]] auto J1(std::size_t i) const { return p.J1[i].row(0); }
  [[nodiscard]] auto J2(std::size_t i) const { return p.J2[i].row(0); }
  [[nodiscard]] auto G1(std::size_t i) const { return p.G1[i].col(0); }
  [[nodiscard]] auto G2(std::size_t i) const { return p.G2[i].col(0); }
  [[nodiscard]] double w(std::size_t i) const { return p.w_diag[i](0, 0); }
};

// The normal rows of the end-configuration check, bodies numbered as the model's.
struct EndRows {
  const PositionStage& s;
  [[nodiscard]] std::int32_t body1(std::size_t i) const { return s.end_body1[i]; }
  [[nodiscard]] std::int32_t body2(std::size_t i) const { return s.end_body2[i]; }
  [[nodiscard]] auto J1(std::size_t i) const { return s.end_J1[i].transpose(); }
  [[nodiscard]] auto J2(std::size_t i) const { return s.end_J2[i].transpose(); }
  [[nodiscard]] const Vec6d& G1(std::size_t i) const { return s.end_G1[i]; }
  [[nodiscard]] const Vec6d& G2(std::size_t i) const { return s.end_G2[i]; }
  [[nodiscard]] double w(std::size_t i) const { return s.end_w[i]; }
};

// The displacement Σ G_i v_i of the rows' multipliers v, gathered per body (`body` keeps its size).
template <class Rows>
void gather(const Rows& p, const std::vector<double>& v, std::vector<Vec6d>& body) {
  std::fill(body.begin(), body.end(), Vec6d::Zero());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == 0.0) continue;
    if (p.body1(i) >= 0) body[p.body1(i)] += v[i] * p.G1(i);
    if (p.body2(i) >= 0) body[p.body2(i)] += v[i] * p.G2(i);
  }
}

// out = W v over the rows (W = J M⁻¹ Jᵀ, never formed): the displacement of v gathered per body,
// then each row's J on its two bodies. Rows with W_ii = 0 (both bodies fixed) give 0.
template <class Rows>
void apply_w(const Rows& p, const std::vector<double>& v, std::vector<Vec6d>& body,
             std::vector<double>& out) {
  const std::size_t n = v.size();
  gather(p, v, body);
  for (std::size_t i = 0; i < n; ++i) {
    double y = 0.0;
    if (p.w(i) > 0.0) {
      if (p.body1(i) >= 0) y += p.J1(i).dot(body[p.body1(i)]);
      if (p.body2(i) >= 0) y += p.J2(i).dot(body[p.body2(i)]);
    }
    out[i] = y;
  }
}

// Iterations of the projected conjugate gradients at most, after Gauss–Seidel's sweeps. Measured:
// a leaning column of 20, 40, 80 spheres overlapping by 0.1 mm each (tests/world/correct_test.cpp)
// took 20, 40, 80 iterations; stacks of 20, 40, 80 cubes, each turned on the one below, 62, 131,
// 272; the steps of the peer benchmark's drum that the sweeps left open, 12–154. The method
// decreases the quadratic, not the deepest overlap (which can rise tenfold on the way), so there
// is no earlier stop than the closing one; a problem no displacement closes (bodies squeezed
// between walls too close) runs the whole budget, in a step whose overlaps the sweeps left anyway.
constexpr int kMaxCgIterations = 3000;

// Dostál's MPRGP (modified proportioning with reduced gradient projections) on the same problem,
// min ½ κᵀ W κ + gapᵀ κ over κ ≥ 0, whose gradient W κ + gap is each row's gap after the
// displacement: conjugate gradients on the rows with κ > 0, a projected step of length ᾱ when a
// step would leave κ ≥ 0 (expansion), and a step on the rows at κ = 0 whose gap is negative when
// their part of the gradient outweighs the free rows' (proportioning, Γ = 1). Gauss–Seidel
// propagates a push one body a sweep, so a stack or a chain of n bodies takes O(n²) sweeps to
// close: after 1000 sweeps a column of 40 spheres overlapping by 0.1 mm each kept 4.8e-7 m, 80
// spheres 1.3e-6 m; conjugate gradients take O(n) iterations.
// ᾱ = 1/λ with λ ≥ ‖W‖ by Gershgorin's bound over the bodies (ᾱ ∈ (0, 2/‖W‖] as MPRGP needs).
// κ holds the starting point on entry and the answer on exit; stops when no row's gap is below
// −1e-3 tolerance (as the sweeps do) or at kMaxCgIterations. Returns the iterations.
// Reference: Z. Dostál, Optimal Quadratic Programming Algorithms, Springer (2009), ch. 5 (MPRGP);
// Z. Dostál, J. Schöberl, Minimizing quadratic functions subject to bound constraints with the
// rate of convergence and finite termination, Comput. Optim. Appl. 30 (2005) 23–43.
template <class Rows>
int mprgp(const Rows& p, std::size_t body_count, const std::vector<double>& gap, double tolerance,
          std::vector<double>& kappa, PositionStage& s, double& left) {
  const std::size_t n = gap.size();
  std::vector<double>& g = s.cg_gradient;
  std::vector<double>& dir = s.cg_direction;
  std::vector<double>& wd = s.cg_product;
  g.resize(n);
  dir.resize(n);
  wd.resize(n);
  s.cg_body.resize(body_count);
  // λ ≥ ‖W‖: row i's absolute sum is at most Σ over its bodies of |J_i,b| Σ_{j at b} |G_j,b|.
  std::fill(s.cg_body.begin(), s.cg_body.end(), Vec6d::Zero());
  for (std::size_t i = 0; i < n; ++i) {
    if (!(p.w(i) > 0.0)) continue;
    if (p.body1(i) >= 0) s.cg_body[p.body1(i)](0) += p.G1(i).norm();
    if (p.body2(i) >= 0) s.cg_body[p.body2(i)](0) += p.G2(i).norm();
  }
  double lambda = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(p.w(i) > 0.0)) continue;
    double row = 0.0;
    if (p.body1(i) >= 0) row += p.J1(i).norm() * s.cg_body[p.body1(i)](0);
    if (p.body2(i) >= 0) row += p.J2(i).norm() * s.cg_body[p.body2(i)](0);
    lambda = std::max(lambda, row);
  }
  if (!(lambda > 0.0)) return 0;
  const double step = 1.0 / lambda;
  const auto gradient = [&] {
    apply_w(p, kappa, s.cg_body, g);
    for (std::size_t i = 0; i < n; ++i) g[i] = p.w(i) > 0.0 ? g[i] + gap[i] : 0.0;
  };
  // The free gradient φ (rows with κ > 0) and the chopped gradient β (rows at κ = 0 whose gap is
  // negative): the two parts of the projected gradient.
  const auto phi = [&](std::size_t i) { return kappa[i] > 0.0 ? g[i] : 0.0; };
  const auto beta = [&](std::size_t i) { return kappa[i] > 0.0 ? 0.0 : std::min(g[i], 0.0); };
  const auto dot = [&](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += a[i] * b[i];
    return sum;
  };
  gradient();
  for (std::size_t i = 0; i < n; ++i) dir[i] = phi(i);
  int iterations = 0;
  for (;;) {
    left = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      if (p.w(i) > 0.0) left = std::max(left, -g[i]);
    if (left <= 1e-3 * tolerance || iterations == kMaxCgIterations) break;
    ++iterations;
    double chopped = 0.0, reduced = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      chopped += beta(i) * beta(i);
      if (kappa[i] > 0.0) reduced += std::min(kappa[i] / step, phi(i)) * phi(i);
    }
    if (chopped <= reduced) {
      apply_w(p, dir, s.cg_body, wd);
      const double curvature = dot(dir, wd);
      if (!(curvature > 0.0)) break;
      const double a_cg = dot(g, dir) / curvature;
      // The longest step that keeps κ ≥ 0.
      double a_f = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < n; ++i)
        if (dir[i] > 0.0) a_f = std::min(a_f, kappa[i] / dir[i]);
      if (a_cg <= a_f) {
        // Conjugate gradient step.
        for (std::size_t i = 0; i < n; ++i) {
          kappa[i] = std::max(0.0, kappa[i] - a_cg * dir[i]);
          g[i] -= a_cg * wd[i];
        }
        double num = 0.0;
        for (std::size_t i = 0; i < n; ++i) num += phi(i) * wd[i];
        const double gamma = num / curvature;
        for (std::size_t i = 0; i < n; ++i) dir[i] = phi(i) - gamma * dir[i];
      } else {
        // Expansion: to the bound, then a projected gradient step of length ᾱ on the free rows.
        for (std::size_t i = 0; i < n; ++i) {
          kappa[i] = std::max(0.0, kappa[i] - a_f * dir[i]);
          g[i] -= a_f * wd[i];
        }
        for (std::size_t i = 0; i < n; ++i) kappa[i] = std::max(0.0, kappa[i] - step * phi(i));
        gradient();
        for (std::size_t i = 0; i < n; ++i) dir[i] = phi(i);
      }
    } else {
      // Proportioning: a step on the chopped gradient, raising κ of rows still overlapping.
      for (std::size_t i = 0; i < n; ++i) dir[i] = beta(i);
      apply_w(p, dir, s.cg_body, wd);
      const double curvature = dot(dir, wd);
      if (!(curvature > 0.0)) break;
      const double a = dot(g, dir) / curvature;
      for (std::size_t i = 0; i < n; ++i) {
        kappa[i] = std::max(0.0, kappa[i] - a * dir[i]);
        g[i] -= a * wd[i];
      }
      for (std::size_t i = 0; i < n; ++i) dir[i] = phi(i);
    }
  }
  return iterations;
}

// Projected Gauss–Seidel on the normal rows, over body displacements: d_b = Σ M_b⁻¹ J_N,bᵀ κ (the
// column G of each side) is kept per body, so the gap of contact i after the displacement is
// gap_i + J_N,i d (its row of J on each side) and a sweep costs a constant per contact. When
// kMaxSweeps leave a row's gap below −tolerance (an overlap the step would report), MPRGP goes on
// from the sweeps' κ (above). Not below: a touching heap of 10⁵ spheres (575,209 rows) ended its
// sweeps at 9.1e-9 m, inside the tolerance of 1e-8 m, and the gradients then ran their 3000
// iterations for an answer not taken (2.6e-8 m): 138 s of a 140 s step.
// `d` (body_count) is the displacement on exit. Returns the sweeps and iterations.
template <class Rows>
int solve_positions(const Rows& p, std::size_t body_count, const std::vector<double>& gap,
                    double tolerance, std::vector<double>& kappa, std::vector<Vec6d>& d,
                    PositionStage& scratch, double& left) {
  const std::size_t n = gap.size();
  kappa.assign(n, 0.0);
  d.assign(body_count, Vec6d::Zero());
  const auto gap_after = [&](std::size_t i) {
    double g = gap[i];
    if (p.body1(i) >= 0) g += p.J1(i).dot(d[p.body1(i)]);
    if (p.body2(i) >= 0) g += p.J2(i).dot(d[p.body2(i)]);
    return g;
  };
  // The deepest penetration left.
  const auto deepest_left = [&] {
    double deepest = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      if (p.w(i) > 0.0) deepest = std::max(deepest, -gap_after(i));
    return deepest;
  };
  int sweeps = 0;
  left = 0.0;
  for (int s = 1; s <= kMaxSweeps; ++s) {
    sweeps = s;
    for (std::size_t i = 0; i < n; ++i) {
      const double w_ii = p.w(i);
      if (!(w_ii > 0.0)) continue;  // both bodies fixed
      const double k_new = std::max(0.0, kappa[i] - gap_after(i) / w_ii);
      const double delta = k_new - kappa[i];
      kappa[i] = k_new;
      if (p.body1(i) >= 0) d[p.body1(i)] += delta * p.G1(i);
      if (p.body2(i) >= 0) d[p.body2(i)] += delta * p.G2(i);
    }
    left = deepest_left();
    if (left <= 1e-3 * tolerance) break;
  }
  if (left > tolerance) {
    scratch.cg_start.assign(kappa.begin(), kappa.end());
    const double left_by_sweeps = left;
    sweeps += mprgp(p, body_count, gap, tolerance, kappa, scratch, left);
    if (left > tolerance) {
      // Only an answer that closes every row to the tolerance is taken: where no displacement
      // closes them (bodies squeezed between walls closer than they fit), the problem has no
      // minimum, κ grows along a direction W does not see and round-off turns it into
      // displacements of 1e14 m; the sweeps' answer is kept there (d is still theirs: the
      // gradients work in their own buffers), and what it leaves is counted.
      kappa.swap(scratch.cg_start);
      left = left_by_sweeps;
    } else {
      // The displacement of the answer, and what it leaves (from d itself, as the sweeps do).
      gather(p, kappa, d);
      left = deepest_left();
    }
  }
  return sweeps;
}

// Moves the bodies by (dx, dθ), keeping velocities and world angular momenta, and books the
// energy it adds (potential −m g·Δx, and ½ Lᵀ ΔI⁻¹ L) as EnergyKind::correction.
void displace(const Model& model, const std::vector<Vec3>& dx, const std::vector<Vec3>& dtheta,
              State& state) {
  double added = 0.0;
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.fixed) continue;
    if (dx[b].isZero(0.0) && dtheta[b].isZero(0.0)) continue;
    const Mat3 R0 = state.q_WB[b].toRotationMatrix();
    const Vec3 L = R0 * (body.inertia_B * (R0.transpose() * state.w_W[b]));
    state.x_WC[b] += dx[b];
    Quat q = cayley_quaternion(dtheta[b]) * state.q_WB[b];
    q.normalize();
    state.q_WB[b] = q;
    const Mat3 R1 = q.toRotationMatrix();
    const Vec3 w1 = R1 * (model.compiled.inv_inertia_B[b] * (R1.transpose() * L));
    added += -body.mass * model.gravity.dot(dx[b]) + 0.5 * L.dot(w1 - state.w_W[b]);
    state.w_W[b] = w1;
  }
  state.dissipated -= added;
  state.dissipated_by_kind[static_cast<std::size_t>(EnergyKind::correction)] -= added;
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
  report.unclosed = 0.0;
  const std::size_t nactive = active.active.size();
  // What the stage closes: the predicted penetrations of the contacts that do not rebound. A
  // rebounding contact (outward normal velocity at the end of the step: an impact with
  // restitution) leaves its penetration by its own motion; lifting it too would add the
  // potential energy of the lift on top of the rebound at every impact, and a box landing on a
  // face with e > 0 would chatter between its edges for ever on that energy. It only must not be
  // pushed deeper. Without restitution an outward velocity is no rebound (StepResults::rebounding
  // says so): a face on a face is a statically indeterminate support, and the step's impulses can
  // leave some of its corners moving out at ~1e-7 m/s; taking those for rebounds closed a stack's
  // overlaps by tilting each box on the corners left open, and every pair stayed 0.1 mm deep (the
  // test of the stack of 20 boxes in tests/world/correct_test.cpp).
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
  report.correction_sweeps = solve_positions(
      ProblemRows<N>{contact.problem}, static_cast<std::size_t>(contact.problem.body_count),
      out.target_gap, model.solver.position_tolerance, out.kappa, out.displacement, out, left);
  report.penetration_left = left;
  if (left > model.solver.position_tolerance) report.unclosed = left;
  const std::size_t nbodies = model.bodies.size();
  out.dx.assign(nbodies, Vec3::Zero());
  out.dtheta.assign(nbodies, Vec3::Zero());
  for (std::size_t b = 0; b < nbodies; ++b) {
    const std::int32_t j = contact.body_index[b];
    if (j < 0) continue;
    out.dx[b] = out.displacement[static_cast<std::size_t>(j)].head<3>();
    out.dtheta[b] = out.displacement[static_cast<std::size_t>(j)].tail<3>();
  }

  displace(model, out.dx, out.dtheta, state);
}

// Whether shape pair (s1, s2) is checked again at the end of the step: a polyhedron (box, convex
// hull) against a polyhedron, a plane or a sphere, the pairs whose contact can jump to a corner
// or an edge, turning relative to each other by more than the tolerance over the shapes' reach in
// the step (see the file comment). Capsules, cylinders, cones and ellipsoids against a face roll
// smoothly and are left out.
bool turns_with_edges(const Model& model, const State& state, std::int32_t s1, std::int32_t s2) {
  const auto kind = [&](std::int32_t s) {
    return model.compiled.shape_kind[static_cast<std::size_t>(s)];
  };
  const auto polyhedron = [](ShapeKind k) { return k == ShapeKind::box || k == ShapeKind::convex; };
  const ShapeKind k1 = kind(s1), k2 = kind(s2);
  // A polyhedron's partner: a polyhedron, a plane or a sphere (whose gap to a face is exact in
  // the scheme, so only a turning corner or edge gives the check anything to close).
  const auto partner = [&](ShapeKind k) {
    return polyhedron(k) || k == ShapeKind::plane || k == ShapeKind::sphere;
  };
  if (!(polyhedron(k1) && partner(k2)) && !(polyhedron(k2) && partner(k1))) return false;
  const auto b1 = static_cast<std::size_t>(model.shape_body[static_cast<std::size_t>(s1)]);
  const auto b2 = static_cast<std::size_t>(model.shape_body[static_cast<std::size_t>(s2)]);
  const double reach = model.compiled.shape_reach[static_cast<std::size_t>(s1)] +
                       model.compiled.shape_reach[static_cast<std::size_t>(s2)];
  return model.time_step * (state.w_W[b2] - state.w_W[b1]).norm() * reach >
         model.solver.position_tolerance;
}

// The normal row of point c on the side of body b (sign +1 for body 2, −1 for body 1) at the
// state's poses, for a displacement by translation only: J = ±[n; 0], G = [J_v / m; 0]. Why not
// the kinetic metric of correct_contacts: a small box turns more easily than it moves (for a
// 3.2 cm cube (r × n)ᵀ I⁻¹ (r × n) is 1.5 times 1/m), so the projection closed a corner by
// turning the cube, which dipped the opposite corner (not a point of the manifold) into the
// same support; three passes see-sawed at 8e-5 m in the test of this check. A translation keeps
// every feature where it is relative to the body.
void normal_row(const Model& model, const ContactPoint& c, int b, double sign, Vec6d& J, Vec6d& G) {
  const Vec3 n = sign * c.n_W;
  J << n, Vec3::Zero();
  G << n / model.bodies[static_cast<std::size_t>(b)].mass, Vec3::Zero();
}

// The end-configuration check (see the file comment): the candidate pairs that turn with edges,
// collided again at the corrected poses; their points deeper than the tolerance closed by one more
// projection, repeated (at most kEndPasses times) while a projection pushes some other checked pair
// into overlap.
void correct_at_end(const Model& model, const ShapeFrames& frames, const ActiveSet& active,
                    const ContactPoints& points, const StepResults& results, State& state,
                    PositionStage& out, StepReport& report) {
  const double tolerance = model.solver.position_tolerance;
  if (!model.solver.position_correction) return;
  // The pairs, and the features of the contacts rebounding with restitution: a point found at
  // the end on the same feature of the same pair leaves by its own motion and is not lifted (as
  // in correct_contacts: lifting would add energy at every bounce). Without restitution an
  // outward velocity at the step's point does not say that the feature leaves: a turning box
  // corner can be deep at the end while its linearised gap opened.
  // A pass checks the pairs that turn with edges and, after the first, every candidate pair of a
  // body an earlier pass moved (a cube pushed out of one neighbour into another that turns with
  // it, or a sphere beside it).
  const std::size_t nbodies = model.bodies.size();
  // Which candidate pairs turn with edges at the start of the check, on every core: usually none
  // (a settled carpet of 10⁴ spheres), and then the check stops here.
  const auto npairs = static_cast<std::ptrdiff_t>(frames.pairs.size());
  out.end_turns.resize(frames.pairs.size());
  const int turning = parallel_count(npairs, model.solver.parallel_loop_min, [&](std::ptrdiff_t i) {
    const ShapePair& pair = frames.pairs[static_cast<std::size_t>(i)];
    const bool turns = turns_with_edges(model, state, pair.a, pair.b);
    out.end_turns[static_cast<std::size_t>(i)] = turns ? 1 : 0;
    return turns ? 1 : 0;
  });
  if (turning == 0) return;
  // The pairs of a pass: the first pass's turning ones; a later pass's also the pairs of a body an
  // earlier pass moved (turning judged again at the moved poses).
  const auto select_pairs = [&](bool with_moved) {
    out.end_pairs.clear();
    for (std::size_t i = 0; i < frames.pairs.size(); ++i) {
      const ShapePair& pair = frames.pairs[i];
      const auto moved = [&](std::int32_t s) {
        return with_moved && out.end_moved[static_cast<std::size_t>(
                                 model.shape_body[static_cast<std::size_t>(s)])] != 0;
      };
      const bool turns =
          with_moved ? turns_with_edges(model, state, pair.a, pair.b) : out.end_turns[i] != 0;
      if (moved(pair.a) || moved(pair.b) || turns) out.end_pairs.push_back({pair.a, pair.b});
    }
  };
  select_pairs(false);
  out.end_moved.assign(nbodies, 0);  // only once some pair turns
  // What the contacts' projection left above the tolerance (correct_contacts), kept whatever the
  // passes below do: they see only the pairs that turn.
  const double contacts_unclosed = report.unclosed;
  out.end_rebounds.clear();
  for (std::size_t k = 0; k < points.points.size(); ++k) {
    const ContactPoint& c = points.points[k];
    const std::int32_t a = active.active_of_point[k];
    if (a >= 0 && results.rebounding[static_cast<std::size_t>(a)])
      out.end_rebounds.push_back({c.shape1, c.shape2, c.feature});
  }
  const auto rebounds = [&](const ContactPoint& c) {
    return std::any_of(out.end_rebounds.begin(), out.end_rebounds.end(), [&](const auto& r) {
      return r.shape1 == c.shape1 && r.shape2 == c.shape2 && r.feature == c.feature;
    });
  };
  const auto shape_pose = [&](std::int32_t s) {
    const Shape& shape = model.shapes[static_cast<std::size_t>(s)];
    return body_frame_pose(model, state, model.shape_body[static_cast<std::size_t>(s)]) *
           shape.pose_BS;
  };
  for (int pass = 0; pass < kEndPasses; ++pass) {
    if (pass > 0) select_pairs(true);
    // The points of the pairs at the current poses, within the contact margin: the touching ones
    // are rows too, so that closing one overlap does not push a body into another pair.
    out.end_points.clear();
    for (const auto& [s1, s2] : out.end_pairs) {
      const std::size_t first = out.end_points.size();
      collide(model.shapes[static_cast<std::size_t>(s1)].geometry, shape_pose(s1),
              model.shapes[static_cast<std::size_t>(s2)].geometry, shape_pose(s2),
              model.solver.contact_margin, out.end_points);
      std::size_t kept = first;
      for (std::size_t k = first; k < out.end_points.size(); ++k) {
        ContactPoint& c = out.end_points[k];
        c.shape1 = s1;
        c.shape2 = s2;
        if (!rebounds(c)) out.end_points[kept++] = c;
      }
      out.end_points.resize(kept);
    }
    const std::size_t n = out.end_points.size();
    const bool overlap = std::any_of(out.end_points.begin(), out.end_points.end(),
                                     [&](const ContactPoint& c) { return c.gap < -tolerance; });
    if (!overlap) {
      report.unclosed = contacts_unclosed;
      return;
    }

    // Their normal rows, then the projection and the displacement.
    out.end_body1.resize(n);
    out.end_body2.resize(n);
    out.end_J1.resize(n);
    out.end_J2.resize(n);
    out.end_G1.resize(n);
    out.end_G2.resize(n);
    out.end_w.resize(n);
    out.end_gap.resize(n);
    double deepest = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      const ContactPoint& c = out.end_points[k];
      const auto side = [&](std::int32_t s, double sign, std::int32_t& body, Vec6d& J, Vec6d& G) {
        const std::int32_t b = model.shape_body[static_cast<std::size_t>(s)];
        body = model.bodies[static_cast<std::size_t>(b)].fixed ? -1 : b;
        J.setZero();
        G.setZero();
        if (body >= 0) normal_row(model, c, b, sign, J, G);
      };
      side(c.shape1, -1.0, out.end_body1[k], out.end_J1[k], out.end_G1[k]);
      side(c.shape2, 1.0, out.end_body2[k], out.end_J2[k], out.end_G2[k]);
      out.end_w[k] = out.end_J1[k].dot(out.end_G1[k]) + out.end_J2[k].dot(out.end_G2[k]);
      out.end_gap[k] = c.gap;
      deepest = std::max(deepest, -c.gap);
    }
    report.penetration = std::max(report.penetration, deepest);
    double left = 0.0;
    report.correction_sweeps += solve_positions(EndRows{out}, nbodies, out.end_gap, tolerance,
                                                out.end_kappa, out.end_displacement, out, left);
    report.penetration_left = std::max(report.penetration_left, left);
    // What this pass leaves above the tolerance: a next pass that finds no overlap closed it.
    report.unclosed = left > tolerance ? std::max(contacts_unclosed, left) : contacts_unclosed;
    out.dx.resize(nbodies);
    out.dtheta.resize(nbodies);
    for (std::size_t b = 0; b < nbodies; ++b) {
      out.dx[b] = out.end_displacement[b].head<3>();
      out.dtheta[b] = out.end_displacement[b].tail<3>();
      if (!out.dx[b].isZero(0.0)) out.end_moved[b] = 1;
    }
    displace(model, out.dx, out.dtheta, state);
  }
}

}  // namespace

// The contacts' position stage, then the joints' (joints.cpp), which leaves every joint closed to
// round-off.
template <int N>
void correct(const Model& model, const ShapeFrames& frames, const ActiveSet& active,
             const ContactPoints& points, const ContactBuffers<N>& contact,
             const StepResults& results, State& state, PositionStage& out, StepReport& report) {
  correct_contacts(model, active, contact, results, state, out, report);
  correct_at_end(model, frames, active, points, results, state, out, report);
  correct_joints(model, state, report);
}

template void correct<kForce>(const Model&, const ShapeFrames&, const ActiveSet&,
                              const ContactPoints&, const ContactBuffers<kForce>&,
                              const StepResults&, State&, PositionStage&, StepReport&);
template void correct<kWrench>(const Model&, const ShapeFrames&, const ActiveSet&,
                               const ContactPoints&, const ContactBuffers<kWrench>&,
                               const StepResults&, State&, PositionStage&, StepReport&);

}  // namespace coulomb::stages
