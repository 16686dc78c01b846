#pragma once
/// @file
/// Solvers of the local frictional contact problem (coulomb/nonsmooth/problem.hpp) and the error
/// measure of Acary, Brémond & Huber (2018).

#include <coulomb/nonsmooth/problem.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace coulomb {

/// Why a solver stopped. Only `converged` means error ≤ tolerance; every other status still
/// returns the best iterate with its true error.
enum class SolverStatus : std::uint8_t {
  converged,       ///< error ≤ tolerance
  max_iterations,  ///< the sweep / Newton-iteration cap was hit
  non_finite,      ///< a NaN or Inf appeared (bad input or breakdown)
  max_time,        ///< the wall-clock limit `max_time_s` was hit
  stalled,         ///< NSGS with `stall_window` > 0: the error stopped decreasing (see below);
                   ///< PROX: no progress with η at its cap
  diverged,        ///< PROX only: an iterate's error grew kDivergenceFactor × above the start's
};

/// PROX stops with status `diverged` when an outer iterate's error exceeds this factor times the
/// error of its start (three orders of magnitude): its answer is then the best iterate.
inline constexpr double kDivergenceFactor = 1e3;

/// Every solver starts from the caller's warm start unless its error exceeds this factor times
/// the error of r = 0 (or is not finite), and then from r = 0 (`cold_start`). The error of r = 0
/// is at most 1 + μ, so a kept warm start has error <= 100 (1 + μ) and PROX's first η = 5 e s
/// stays below its cap 1e4 s (μ < 19). Why not simply the lower error: on box stacks, when a new
/// contact point shifts the remembered impulses, the warm start's error is up to 8.6 times that
/// of r = 0 and is still the better start; starting those steps from r = 0 (factor 1) took
/// box-stack-10 from 93 to 337 iterations per step on average and its solve from 7.3 s to 159 s.
/// The trap it guards against has ratios of 1e9–1e14 (a row of balls after its impact).
inline constexpr double kWarmStartFactor = 100.0;

[[nodiscard]] const char* to_string(SolverStatus s);

struct SolverOptions {
  double tolerance = 1e-10;  ///< stop when error ≤ tolerance [-]
  int max_iterations = 500;  ///< sweeps (NSGS) or Newton iterations in total (PROX)
  /// NSGS: sweeps to take even when the start already meets the tolerance (0: none). The time
  /// stepping uses 1, so that every contact gets one exact local solve per step: a warm start
  /// within the tolerance can still hold a small impulse on a contact that has since opened (its
  /// exact local answer is 0), and re-applied unchanged every step it would push the bodies apart
  /// a little more each step. A last iterate within the tolerance is then returned as it is.
  int min_iterations = 0;
  double over_relaxation =
      1.0;  ///< ω in r ← ω r_new + (1 − ω) r_old (1 = plain Gauss–Seidel), 0 < ω < 2
  double local_tolerance = 1e-14;  ///< tolerance of each exact per-contact solve [-]
  /// Wall-clock limit of one solve [s] (infinity: none). Checked after every NSGS sweep and
  /// every PROX Newton iteration, so a solve overruns it by at most one of those.
  double max_time_s = std::numeric_limits<double>::infinity();
  /// NSGS: the true error costs one more product W r per evaluation. With 1 it is evaluated after
  /// every sweep; with k > 1 the next evaluation is scheduled from the observed linear rate (the
  /// sweep at which the error is predicted to reach the tolerance), at most k sweeps later. The
  /// error reported at exit is always the true one of the returned r.
  int error_check_interval = 1;
  /// NSGS: visit the contacts in a new pseudo-random order every sweep (splitmix64 from
  /// `shuffle_seed`: deterministic and the same on every platform).
  bool shuffle = false;
  std::uint64_t shuffle_seed = 0;  ///< seed of the shuffled order
  /// NSGS stall test (used by SolverKind::automatic): stop with status `stalled` when the error
  /// has not decreased below `stall_factor` × its value `stall_window` sweeps earlier (0: off).
  int stall_window = 0;
  double stall_factor = 0.5;  ///< in (0, 1)
};

/// What a solve returns besides r and u. Every solver returns the iterate of lowest true error
/// among its start and the iterates whose error it evaluated, never a non-finite one when its
/// start was finite: an answer is never worse than the start.
struct SolverResult {
  SolverStatus status = SolverStatus::converged;
  int iterations = 0;
  double error = 0.0;  ///< ‖r − P_K(r − u − [μ‖u_T‖,0,0])‖ / ‖q‖ of the returned r
  double time_s = 0.0;      ///< wall time of the solve [s]
  const char* method = "";  ///< what ran: "nsgs", "prox", "nsgs+prox", "nsgs6" (static string)
  /// Error of the start: the caller's warm start, or r = 0 (kWarmStartFactor).
  double start_error = 0.0;
  /// The warm start's error was above kWarmStartFactor times that of r = 0 (or not finite): the
  /// solve started from r = 0.
  bool cold_start = false;
  /// The solver's last iterate was non-finite or worse than the start, and was replaced by the
  /// best iterate (the start at worst). `status` still says why it stopped.
  bool fell_back = false;
  /// Per-contact (exact local) solves that did not reach options.local_tolerance in the last
  /// Gauss–Seidel sweep (NSGS, and the NSGS part of `auto`; PROX has none: 0).
  int local_failures = 0;
  /// The same, summed over every sweep of the solve.
  std::int64_t local_failures_total = 0;
};

/// Scratch of the solvers, reusable across steps (no allocation once warm).
struct SolverWorkspace {
  std::vector<Vec3> u;              ///< (nc) local velocities
  std::vector<std::int32_t> order;  ///< (nc) NSGS visiting order (shuffle)
  std::vector<Vec3> r_start;        ///< (nc) warm start kept by SolverKind::automatic
  std::vector<Vec3> r_best;         ///< (nc) NSGS's best iterate
  std::vector<Vec3> r_first;        ///< (nc) NSGS's answer while `automatic` runs PROX
  std::vector<Vec3> r_second;       ///< (nc) PROX's answer while `automatic` retries from zero
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
/// entry and the solution on exit; `u` receives W r + q. Starts from the warm start, or from r = 0
/// when the warm start is far worse (kWarmStartFactor); returns its best iterate (SolverResult).
SolverResult solve_nsgs(const ContactProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                        const SolverOptions& options, SolverWorkspace& workspace);

}  // namespace coulomb
