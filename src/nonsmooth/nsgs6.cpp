/// @file
/// Nonsmooth block Gauss–Seidel on the 6-unknown contact problem (coulomb/nonsmooth/solver6.hpp):
///
///   for each sweep, for α in the visiting order (1..nc, or a seeded shuffle):
///     q̃_α = q_α + Σ_{β≠α} W_αβ r_β            (block row α of W, latest r_β)
///     r_α ← solve_single_contact6(W_αα, q̃_α, law_α)   (exact local solve)
///     r_α ← ω r_α + (1 − ω) r_α^old            (optional over-relaxation)
///   then, at the sweeps chosen by the error schedule, u = W r + q and contact_error6 decide.
///
/// The sweep, options, error schedule, stall test and statuses are those of solve_nsgs
/// (src/nonsmooth/nsgs.cpp) with 6×6 blocks. Deterministic; no allocation once r, u and the
/// workspace have size nc.

#include <coulomb/nonsmooth/solver6.hpp>

#include "nsgs_loop.hpp"

namespace coulomb {

SolverResult solve_nsgs6(const ContactProblem6& problem, std::vector<Vec6>& r, std::vector<Vec6>& u,
                         const SolverOptions& options, SolverWorkspace6& workspace) {
  const auto local_solve = [&](const Block6& w, const Vec6& q, int a, Vec6& ra) {
    return solve_single_contact6(w, q, problem.laws[a], ra, options.local_tolerance);
  };
  return detail::nsgs(problem, r, u, options, workspace.order, workspace.r_best, "nsgs6",
                      local_solve,
                      [](const ContactProblem6& p, const std::vector<Vec6>& rr,
                         const std::vector<Vec6>& uu) { return contact_error6(p, rr, uu); });
}

SolverResult solve6(const ContactProblem6& problem, std::vector<Vec6>& r, std::vector<Vec6>& u,
                    const SolverOptions& options, SolverWorkspace6& workspace) {
  return solve_nsgs6(problem, r, u, options, workspace);
}

}  // namespace coulomb
