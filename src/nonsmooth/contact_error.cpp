/// @file
/// Projection onto the Coulomb cone and the error measure of Acary, Brémond & Huber (2018).
///
///   K = {x = (x_N, x_T) : ‖x_T‖ ≤ μ x_N},  polar cone K° = −K* = {μ ‖x_T‖ ≤ −x_N}.
///   P_K(x) = x on K, 0 on K°, otherwise
///   P_K(x) = ((x_N + μ‖x_T‖)/(1 + μ²)) · (1, μ x_T/‖x_T‖);
///   μ = 0 (frictionless): K is the half-line, P_K(x) = (max(x_N, 0), 0, 0).
///   μ = +∞ (no slip): e_α² = min(‖r‖² + min(u_N, 0)², ‖u‖² + min(r_N, 0)²), the residual of
///   the law's two branches (coulomb/nonsmooth/no_slip.hpp).
///
///   error(r, u) = sqrt(Σ_α ‖r_α − P_K(r_α − u_α − [μ_α ‖u_{T,α}‖, 0, 0])‖²) / ‖q‖
///
/// Normalisation: divided by ‖q‖ only when ‖q‖ > DBL_EPSILON, otherwise the absolute value is
/// returned. Siconos numerics 4.4 (fc3d_compute_error) computes the same residual but divides it
/// by max(‖q‖, ‖r‖, ‖u‖) (measured on the FCLIB files, docs/nonsmooth-solvers.md): its values
/// equal ours only where ‖q‖ is the largest of the three.

#include <coulomb/nonsmooth/solver.hpp>

#include <coulomb/laws/admissible_set.hpp>
#include <coulomb/math/parallel.hpp>
#include <coulomb/nonsmooth/no_slip.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <cfloat>
#include <cmath>

namespace coulomb {

const char* to_string(SolverStatus s) {
  switch (s) {
    case SolverStatus::converged:
      return "converged";
    case SolverStatus::max_iterations:
      return "max_iterations";
    case SolverStatus::non_finite:
      return "non_finite";
    case SolverStatus::max_time:
      return "max_time";
    case SolverStatus::stalled:
      return "stalled";
    case SolverStatus::diverged:
      return "diverged";
  }
  return "unknown";
}

Vec3 project_on_cone(const Vec3& x, double mu) { return CircularCone{mu}.project(x); }

namespace {

// The force error of any problem form holding laws (μ), q and contact_count. The contacts'
// terms (residual², ‖q_α‖²) on every core, added in contact order: the same bits for any threads.
template <class Problem>
double force_error(const Problem& problem, const std::vector<Vec3>& r, const std::vector<Vec3>& u) {
  const int nc = problem.contact_count;
  assert(static_cast<int>(r.size()) >= nc && static_cast<int>(u.size()) >= nc);
  // Natural-map residual of De Saxcé's complementarity, contact by contact.
  thread_local std::vector<std::array<double, 2>> terms;
  std::array<double, 2> sums{0.0, 0.0};  // Σ residual², Σ ‖q_α‖²
  parallel_ordered_sum(nc, kProblemLoopMin, terms, sums, [&](std::ptrdiff_t ia) {
    const auto a = static_cast<int>(ia);
    const double q2 = problem.q[a].squaredNorm();
    // A joint block: the natural map of its box (joint_rows.hpp).
    if (const auto* joint = joint_of(problem, a))
      return std::array<double, 2>{joint_residual2<3>(*joint, r[a], u[a]), q2};
    const double mu = problem.laws[a];
    const Vec3& ua = u[a];
    // μ = +∞: the smaller of the no-slip law's two branch residuals (no_slip.hpp).
    if (is_no_slip(mu)) return std::array<double, 2>{no_slip_residual2(r[a], ua), q2};
    const Vec3 x(r[a][0] - ua[0] - mu * norm2d(ua[1], ua[2]), r[a][1] - ua[1], r[a][2] - ua[2]);
    return std::array<double, 2>{(r[a] - CircularCone{mu}.project(x)).squaredNorm(), q2};
  });
  const double sum = sums[0];
  const double q2 = sums[1];
  // Relative to ‖q‖ (absolute when ‖q‖ <= DBL_EPSILON, as Siconos does).
  const double err = std::sqrt(sum);
  const double qn = std::sqrt(q2);
  return qn > DBL_EPSILON ? err / qn : err;
}

}  // namespace

double contact_error(const ForceProblem& problem, const std::vector<Vec3>& r,
                     const std::vector<Vec3>& u) {
  return force_error(problem, r, u);
}

double contact_error(const FactoredForceProblem& problem, const std::vector<Vec3>& r,
                     const std::vector<Vec3>& u) {
  return force_error(problem, r, u);
}

}  // namespace coulomb
