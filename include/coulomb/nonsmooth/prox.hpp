#pragma once
/// @file
/// Proximal-point solver with an inner semismooth Newton on the whole problem, and the dispatcher
/// `solve` (NSGS, PROX, or NSGS then PROX).
///
/// Proximal point (Rockafellar 1976; applied to frictional contact by Acary, Brémond & Huber
/// 2018, §4.3 "PROX"): given r_k, solve the regularised problem
///
///   u = W r + q + η (r − r_k),   K* ∋ û ⊥ r ∈ K  for every contact,
///
/// i.e. FC(W + η I, q − η r_k, μ), whose matrix is positive definite even when W is only
/// semi-definite (redundant contacts); its solution r_{k+1} is the next iterate, and a fixed
/// point is a solution of FC(W, q, μ). Inner solve: damped semismooth Newton on the stacked
/// Alart–Curnier function Φ(r) = [φ_α(r_α, u_α)] (coulomb/nonsmooth/alart_curnier.hpp; Alart &
/// Curnier 1991), Jacobian ∂Φ/∂r + ∂Φ/∂u (W + η I), Armijo line search on ½‖Φ‖². η starts at
/// the mean diagonal of W and is divided by 10 after an outer step that reduced the error, and
/// multiplied by 10 after one that did not (minimum 1e-10 of the mean diagonal).
/// The Newton systems are dense (3nc × 3nc, LU with partial pivoting): meant for the hard
/// problems of a few hundred contacts that NSGS cannot finish, not for the per-step hot path;
/// this solver allocates.

#include <coulomb/nonsmooth/solver.hpp>

namespace coulomb {

/// Proximal point + semismooth Newton. `r` holds the warm start; `options.max_iterations` bounds
/// the total number of Newton iterations (reported in `iterations`); the error is the true one
/// of FC(W, q, μ) at exit.
SolverResult solve_prox(const ContactProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                        const SolverOptions& options);

/// Which solver `solve` runs.
enum class SolverKind : std::uint8_t {
  nsgs,       ///< solve_nsgs only
  prox,       ///< solve_prox only
  automatic,  ///< NSGS, then PROX warm-started from NSGS's answer if NSGS did not converge
};

/// The one entry point: solves `problem` with the chosen solver (iterations and time summed).
SolverResult solve(const ContactProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                   const SolverOptions& options, SolverWorkspace& workspace,
                   SolverKind kind = SolverKind::automatic);

}  // namespace coulomb
