#pragma once
/// @file
/// Proximal-point solver with an inner semismooth Newton on the whole force problem (3 unknowns
/// per contact); reached through `solve` (coulomb/nonsmooth/solver.hpp) with SolverKind::prox or,
/// after a stalled NSGS, SolverKind::automatic.
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

#include <vector>

namespace coulomb {

/// Proximal point + semismooth Newton. `r` holds the warm start; `options.max_iterations` bounds
/// the total number of Newton iterations (reported in `iterations`); the error is the true one
/// of FC(W, q, μ) at exit.
SolverResult solve_prox(const ForceProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                        const SolverOptions& options);

/// PROX on the factored problem of the time stepping: the same method, rules and answer, with the
/// Newton systems solved in body space (M + Jᵀ D J, 6 nb unknowns; prox_body.cpp: a block LU,
/// BlockLU6, with a pivoting sparse LU to fall back on). `cache` (may be null) keeps the symbolic
/// analysis across calls while the pattern (which bodies touch) is unchanged.
SolverResult solve_prox(const FactoredForceProblem& problem, std::vector<Vec3>& r,
                        std::vector<Vec3>& u, const SolverOptions& options,
                        BodyNewtonCachePtr* cache = nullptr);

}  // namespace coulomb
