/// @file
/// Nonsmooth block Gauss–Seidel (NSGS; Jean 1999, Acary & Brogliato 2008 §13.4), for both sizes
/// of the contact problem (3 unknowns per contact, or 6 with moment laws):
///
///   for each sweep, for α in the visiting order (1..nc, or a seeded shuffle):
///     q̃_α = q_α + Σ_{β≠α} W_αβ r_β            (block row α of W, latest r_β)
///     r_α ← exact solution of  u_α = W_αα r_α + q̃_α,  K* ∋ û_α ⊥ r_α ∈ K
///           (solve_single_contact of the size: single_contact.cpp, single_contact6.cpp)
///     r_α ← ω r_α + (1 − ω) r_α^old            (optional over-relaxation)
///   then, at the sweeps chosen by the error schedule, u = W r + q and the error of Acary,
///   Brémond & Huber (2018) on the problem's cone (contact_error) decide convergence.
///
/// Error schedule: the true error costs one block product W r (about as much as the sweep's
/// off-diagonal products). With `error_check_interval` = k > 1 it is evaluated at the sweep where
/// the linear rate observed between the last two evaluations predicts the tolerance, at most k
/// sweeps later (k sweeps later when the error did not decrease since the last evaluation). At exit
/// the error of the returned r is always evaluated, so the reported error is the true one.
/// Data layout: the sweep reads W block row by block row (compressed rows), which is the order
/// the blocks are stored in (coulomb/nonsmooth/problem.hpp). Deterministic (fixed order or a
/// seeded splitmix64 shuffle); no allocation once r, u and the workspace have size nc. A force
/// problem's local solves keep W_αα⁻¹ (the stick branch's r = −W_αα⁻¹ q̃) for the sweeps of the
/// solve (SolverWorkspace::w_inverse, computed at a contact's first stick test, stamped with the
/// solve): the same bits as computing it at every sweep, which was a tenth of a moving pile's.

#include <coulomb/nonsmooth/solver.hpp>

#include "nsgs_loop.hpp"

namespace coulomb {

namespace {

// The Gauss–Seidel loop of either form with its sweep: the exact local solve and the error
// measure of the problem's size (solver.hpp).
template <int N, class Problem, class Sweep>
SolverResult run_nsgs(const Problem& problem, const Sweep& sweep, std::vector<VecN<N>>& r,
                      std::vector<VecN<N>>& u, const SolverOptions& options,
                      SolverWorkspace<N>& workspace) {
  // A force problem's local solves keep W_αα⁻¹ for the solve (stamped, so that nothing is
  // cleared between solves; the stamps restart when the counter wraps).
  std::uint32_t stamp = 0;
  if constexpr (N == kForce) {
    workspace.w_inverse.resize(static_cast<std::size_t>(problem.contact_count));
    if (++workspace.solve_stamp == 0) {
      for (BlockInverse& b : workspace.w_inverse) b.stamp = 0;
      workspace.solve_stamp = 1;
    }
    stamp = workspace.solve_stamp;
  }
  const auto local_solve = [&](const BlockN<N>& w, const VecN<N>& q, int a, VecN<N>& ra) {
    // A joint block: its box law (joint_rows.hpp); a contact: its cone.
    if (const auto* joint = joint_of(problem, a)) return solve_joint_block<N>(w, q, *joint, ra);
    if constexpr (N == kForce) {
      return solve_single_contact(w, q, problem.laws[a], ra, options.local_tolerance,
                                  workspace.w_inverse[static_cast<std::size_t>(a)], stamp);
    } else {
      return solve_single_contact(w, q, problem.laws[a], ra, options.local_tolerance);
    }
  };
  const auto error = [&](const std::vector<VecN<N>>& rr, const std::vector<VecN<N>>& uu) {
    return contact_error(problem, rr, uu);
  };
  return detail::nsgs(sweep, r, u, options, workspace.order, workspace.r_best, workspace.r_before,
                      workspace.anderson, N == kForce ? "nsgs" : "nsgs6", local_solve, error);
}

}  // namespace

template <int N>
SolverResult solve_nsgs(const ContactProblem<N>& problem, std::vector<VecN<N>>& r,
                        std::vector<VecN<N>>& u, const SolverOptions& options,
                        SolverWorkspace<N>& workspace) {
  return run_nsgs<N>(problem, detail::AssembledSweep<N>(problem), r, u, options, workspace);
}

template <int N>
SolverResult solve_nsgs(const FactoredProblem<N>& problem, std::vector<VecN<N>>& r,
                        std::vector<VecN<N>>& u, const SolverOptions& options,
                        SolverWorkspace<N>& workspace) {
  return run_nsgs<N>(problem,
                     detail::FactoredSweep<N>(problem, workspace.nu, options.parallel_colour_min),
                     r, u, options, workspace);
}

template SolverResult solve_nsgs<kForce>(const ForceProblem&, std::vector<Vec3>&,
                                         std::vector<Vec3>&, const SolverOptions&,
                                         SolverWorkspace<kForce>&);
template SolverResult solve_nsgs<kWrench>(const WrenchProblem&, std::vector<Vec6>&,
                                          std::vector<Vec6>&, const SolverOptions&,
                                          SolverWorkspace<kWrench>&);
template SolverResult solve_nsgs<kForce>(const FactoredForceProblem&, std::vector<Vec3>&,
                                         std::vector<Vec3>&, const SolverOptions&,
                                         SolverWorkspace<kForce>&);
template SolverResult solve_nsgs<kWrench>(const FactoredWrenchProblem&, std::vector<Vec6>&,
                                          std::vector<Vec6>&, const SolverOptions&,
                                          SolverWorkspace<kWrench>&);

}  // namespace coulomb
