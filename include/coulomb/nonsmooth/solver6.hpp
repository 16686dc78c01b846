#pragma once
/// @file
/// Solvers of the 6-unknown contact problem (coulomb/nonsmooth/problem6.hpp): the exact
/// per-contact solve and nonsmooth block Gauss–Seidel over contacts (`solve6`).
///
/// Exact local solve (solve_single_contact6), in the scaled variables of problem6.hpp
/// (r̃ = S r, W̃ = S⁻¹ W S⁻¹, q̃ = S⁻¹ q):
///  (0)   plain Coulomb (h = k = 0, no coupling): moments 0, (N, T) by solve_single_contact;
///  (i)   take-off r = 0 when q_N ≥ 0 (û = q + [σ_C(−q_w), 0] ∈ K*, r·û = 0);
///  (ii)  stick r = −W_ff⁻¹ q_f on the free components f (N and every component whose bound is
///        positive; the others are 0), accepted when it lies in K (then u_f = 0, û ∈ K*, r·û = 0);
///  (iii) otherwise damped semismooth Newton on the Alart–Curnier function
///          a = N − ρ_N u_N,  φ_N = N − max(0, a),  φ_y = y − P_{max(0,a) C}(y − ρ_T ∘ w)
///        (Alart & Curnier 1991 for the Coulomb disc; the same fixed-point characterisation holds
///        for any convex C: y = P_{RC}(y − ρ w) ⇔ −w ∈ N_{RC}(y) when ρ is one scalar per factor of
///        a product set, and φ_N = 0 ⇔ N ≥ 0, u_N ≥ 0, N u_N = 0, R = N). Jacobian: ∂P/∂z and
///        ∂P/∂R of the set (disc, interval, ball closed forms; the exact limit set through
///        contensou::project_limit_surface_jacobian), Armijo search on ½‖φ‖²; started from the
///        warm start, then from (−q_N/W_NN, 0) with ρ ×1, ×0.1, ×10;
///  (iv)  if Newton does not reach the tolerance: the nested fixed point
///          N ← max(0, −(q_N + W_Ny y)/W_NN),  y ← argmin_{y ∈ N C} ½ yᵀW_yy y + (q_y + W_yN N)·y
///        (the inner convex problem by projected gradient with Nesterov acceleration and restart),
///        polished by Newton. A fixed point is a solution: the first update is Signorini for the
///        normal row, the second is −w ∈ N_{NC}(y) (first-order optimality of the convex problem).
/// The best answer (lowest residual) is kept; the tolerance is on the one-contact error of
/// problem6.hpp relative to ‖q̃‖, floored at its round-off level. Nothing allocates.
///
/// NSGS (solve6 / solve_nsgs6): as solve_nsgs for ContactProblem (solver.hpp): q̃_α = q_α +
/// Σ_{β≠α} W_αβ r_β, exact local solve, optional over-relaxation, shuffle, error schedule, stall
/// test, wall-clock limit; statuses and the true error at exit as SolverResult.

#include <coulomb/nonsmooth/problem6.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <cstdint>
#include <vector>

namespace coulomb {

/// Scratch of solve6, reusable across steps (no allocation once warm).
struct SolverWorkspace6 {
  std::vector<Vec6> u;              ///< (nc) local velocities
  std::vector<std::int32_t> order;  ///< (nc) visiting order (shuffle)
  std::vector<Vec6> r_best;         ///< (nc) best iterate
};

/// Exact solution of one contact: u = W r + q with the law of `law` (W 6×6 symmetric positive
/// semi-definite, positive definite on the free components). `r` holds the warm start on entry.
/// Returns false (never silently) if no path reached `tolerance` (relative to ‖q̃‖); r is then the
/// best iterate found.
bool solve_single_contact6(const Block6& w, const Vec6& q, const ContactLaw6& law, Vec6& r,
                           double tolerance);

/// Nonsmooth block Gauss–Seidel with the exact local solve. `r` (nc) holds the warm start on
/// entry (replaced by 0 if its size is wrong) and the solution on exit; `u` receives W r + q.
SolverResult solve_nsgs6(const ContactProblem6& problem, std::vector<Vec6>& r, std::vector<Vec6>& u,
                         const SolverOptions& options, SolverWorkspace6& workspace);

/// The entry point of the 6-unknown problem (NSGS; `method` = "nsgs6").
SolverResult solve6(const ContactProblem6& problem, std::vector<Vec6>& r, std::vector<Vec6>& u,
                    const SolverOptions& options, SolverWorkspace6& workspace);

}  // namespace coulomb
