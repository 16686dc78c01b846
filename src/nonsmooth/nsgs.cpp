/// @file
/// Nonsmooth block Gauss–Seidel (NSGS; Jean 1999, Acary & Brogliato 2008 §13.4):
///
///   for each sweep, for α in the visiting order (1..nc, or a seeded shuffle):
///     q̃_α = q_α + Σ_{β≠α} W_αβ r_β            (block row α of W, latest r_β)
///     r_α ← exact solution of  u_α = W_αα r_α + q̃_α,  K* ∋ û_α ⊥ r_α ∈ K
///     r_α ← ω r_α + (1 − ω) r_α^old            (optional over-relaxation)
///   then, at the sweeps chosen by the error schedule, u = W r + q and the error of Acary,
///   Brémond & Huber (2018) decide convergence.
///
/// Error schedule: the true error costs one block product W r (about as much as the sweep's
/// off-diagonal products). With `error_check_interval` = k > 1 it is evaluated at the sweep where
/// the linear rate observed between the last two evaluations predicts the tolerance, at most k
/// sweeps later (k sweeps later when the error did not decrease since the last evaluation). At exit
/// the error of the returned r is always evaluated, so the reported error is the true one.
/// Data layout: the sweep reads W block row by block row (compressed rows), which is the order
/// the blocks are stored in (coulomb/nonsmooth/problem.hpp). Deterministic (fixed order or a
/// seeded splitmix64 shuffle); no allocation once r, u and the workspace have size nc.

#include <coulomb/nonsmooth/solver.hpp>

#include "nsgs_loop.hpp"

namespace coulomb {

SolverResult solve_nsgs(const ContactProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                        const SolverOptions& options, SolverWorkspace& workspace) {
  const auto local_solve = [&](const Block3& w, const Vec3& q, int a, Vec3& ra) {
    return solve_single_contact(w, q, problem.mu[a], ra, options.local_tolerance);
  };
  return detail::nsgs(problem, r, u, options, workspace.order, workspace.r_best, "nsgs",
                      local_solve,
                      [](const ContactProblem& p, const std::vector<Vec3>& rr,
                         const std::vector<Vec3>& uu) { return contact_error(p, rr, uu); });
}

}  // namespace coulomb
