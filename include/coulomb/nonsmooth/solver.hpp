#pragma once
/// @file
/// Solvers of the local frictional contact problem (coulomb/nonsmooth/problem.hpp) and the error
/// measure of Acary, Brémond & Huber (2018).

#include <coulomb/nonsmooth/problem.hpp>

#include <string>
#include <vector>

namespace coulomb {

enum class SolverStatus : std::uint8_t { converged, max_iterations, non_finite };

[[nodiscard]] const char* to_string(SolverStatus s);

struct SolverOptions {
  double tolerance = 1e-10;   ///< stop when error ≤ tolerance [-]
  int max_iterations = 500;   ///< sweeps
  double over_relaxation = 1.0;  ///< ω in r ← ω r_new + (1 − ω) r_old (1 = plain Gauss–Seidel)
  double local_tolerance = 1e-14;  ///< tolerance of each exact per-contact solve [-]
};

struct SolverResult {
  SolverStatus status = SolverStatus::converged;
  int iterations = 0;
  double error = 0.0;   ///< ‖r − P_K(r − u − [μ‖u_T‖,0,0])‖ / ‖q‖ at exit
  double time_s = 0.0;  ///< wall time of the solve [s]
};

/// Scratch of the solvers, reusable across steps (no allocation once warm).
struct SolverWorkspace {
  std::vector<Vec3> u;  ///< (nc) local velocities
};

/// Error of (r, u) for `problem`: ‖r − P_K(r − u − [μ‖u_T‖, 0, 0])‖ / ‖q‖ (‖q‖ = 0: not divided).
/// u must equal W r + q (it is not recomputed).
[[nodiscard]] double contact_error(const ContactProblem& problem, const std::vector<Vec3>& r,
                                   const std::vector<Vec3>& u);

/// Projection onto the cone K = {(rN, rT) : ‖rT‖ ≤ μ rN}.
[[nodiscard]] Vec3 project_on_cone(const Vec3& x, double mu);

/// Exact solution of one contact: find r with u = W r + q, K* ∋ û ⊥ r ∈ K (W 3×3 SPD).
/// Enumerates take-off and stick in closed form, solves slip by a damped Newton on the
/// Alart–Curnier function with a projected fixed-point fallback. `r` holds the warm start on entry.
/// Returns false if the fallback did not reach `tolerance` either.
bool solve_single_contact(const Block3& w, const Vec3& q, double mu, Vec3& r, double tolerance);

/// Nonsmooth block Gauss–Seidel with the exact per-contact solve. `r` (nc) holds the warm start on
/// entry and the solution on exit; `u` receives W r + q.
SolverResult solve_nsgs(const ContactProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                        const SolverOptions& options, SolverWorkspace& workspace);

}  // namespace coulomb
