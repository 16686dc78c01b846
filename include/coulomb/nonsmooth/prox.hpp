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
/// Curnier 1991), Jacobian ∂Φ/∂r + ∂Φ/∂u (W + η I), Armijo line search on ½‖Φ‖², stopped when
/// the error of the regularised problem is below 0.1 e_k min(1, e_k) (e_k: true error of r_k) or
/// after 25 iterations. Proximal parameter: η = σ e_k s with σ = 5 and s the mean diagonal of W
/// (the rule of Siconos' PROX, made dimensionally consistent), clamped to [1e-10 s, 1e4 s]; an
/// outer step that does not lower the best error restarts from the best iterate with 10 η.
/// As e_k → 0, η → 0 and the inner Newton becomes Newton on FC(W, q, μ): superlinear finish.
/// The Newton systems are sparse (the block pattern of W; Eigen::SparseLU with COLAMD ordering,
/// pattern analysed once per call, refactorised each iteration). Not for the per-step hot path:
/// this solver allocates once per call.

#include <coulomb/nonsmooth/solver.hpp>

#include <cstdint>
#include <string>

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
  automatic,  ///< NSGS with a stall test, then PROX from the same warm start
};

/// Stall window of SolverKind::automatic when options.stall_window is 0 [sweeps]: NSGS hands over
/// to PROX when its error has not halved (options.stall_factor) within this many sweeps.
inline constexpr int kAutoStallWindow = 100;

/// "nsgs", "prox" or "auto".
[[nodiscard]] const char* to_string(SolverKind kind);

/// Parses "nsgs", "prox" or "auto" (also "automatic"); false if `name` is none of them.
[[nodiscard]] bool parse_solver_kind(const std::string& name, SolverKind& kind);

/// The one entry point: solves `problem` with the chosen solver. With `automatic`, NSGS runs with
/// options.stall_window (kAutoStallWindow if 0); unless it converged or ran out of time, PROX
/// runs from the caller's warm start (not from NSGS's stalled iterate, see prox.cpp) with
/// options.max_iterations Newton iterations and the time left of options.max_time_s. Iterations
/// (sweeps + Newton iterations) and time are summed; `method` says what ran.
SolverResult solve(const ContactProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                   const SolverOptions& options, SolverWorkspace& workspace,
                   SolverKind kind = SolverKind::automatic);

}  // namespace coulomb
