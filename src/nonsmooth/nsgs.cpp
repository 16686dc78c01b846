/// @file
/// Nonsmooth block Gauss–Seidel (NSGS; Jean 1999, Acary & Brogliato 2008 §13.4):
///
///   for each sweep, for α = 1..nc in order:
///     q̃_α = q_α + Σ_{β≠α} W_αβ r_β            (block row α of W, latest r_β)
///     r_α ← exact solution of  u_α = W_αα r_α + q̃_α,  K* ∋ û_α ⊥ r_α ∈ K
///     r_α ← ω r_α + (1 − ω) r_α^old            (optional over-relaxation)
///   then u = W r + q and the error of Acary, Brémond & Huber (2018) decide convergence.
///
/// The error is evaluated exactly after every sweep, so the reported error is the true one at
/// exit. Deterministic (fixed sweep order); no allocation once r and u have the right size.

#include <coulomb/nonsmooth/solver.hpp>

#include <chrono>
#include <cmath>

namespace coulomb {

SolverResult solve_nsgs(const ContactProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                        const SolverOptions& options, SolverWorkspace& workspace) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  (void)workspace;
  const int nc = problem.contact_count;
  // Shapes: a warm start of the wrong size is replaced by zero.
  if (static_cast<int>(r.size()) != nc) r.assign(static_cast<std::size_t>(nc), Vec3::Zero());
  u.resize(static_cast<std::size_t>(nc));
  SolverResult result;
  const double omega = options.over_relaxation;

  // Error of the warm start: nothing to do if it already solves the problem.
  problem.velocity(r, u);
  result.error = contact_error(problem, r, u);
  if (!std::isfinite(result.error)) {
    result.status = SolverStatus::non_finite;
    result.time_s = elapsed();
    return result;
  }
  if (result.error <= options.tolerance) {
    result.status = SolverStatus::converged;
    result.time_s = elapsed();
    return result;
  }

  result.status = SolverStatus::max_iterations;
  for (int sweep = 1; sweep <= options.max_iterations; ++sweep) {
    // One Gauss–Seidel sweep with the exact local solve.
    for (int a = 0; a < nc; ++a) {
      Vec3 qt = problem.q[a];
      for (std::int32_t k = problem.row_start[a]; k < problem.row_start[a + 1]; ++k) {
        if (k != problem.diag[a]) qt.noalias() += problem.blocks[k] * r[problem.col[k]];
      }
      const Vec3 r_old = r[a];
      solve_single_contact(problem.blocks[problem.diag[a]], qt, problem.mu[a], r[a],
                           options.local_tolerance);
      if (omega != 1.0) r[a] = omega * r[a] + (1.0 - omega) * r_old;
    }
    // True error of the sweep's iterate.
    problem.velocity(r, u);
    result.iterations = sweep;
    result.error = contact_error(problem, r, u);
    if (!std::isfinite(result.error)) {
      result.status = SolverStatus::non_finite;
      break;
    }
    if (result.error <= options.tolerance) {
      result.status = SolverStatus::converged;
      break;
    }
  }
  result.time_s = elapsed();
  return result;
}

}  // namespace coulomb
