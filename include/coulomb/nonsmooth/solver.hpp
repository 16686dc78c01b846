#pragma once
/// @file
/// Solvers of the local frictional contact problem, both sizes (coulomb/nonsmooth/problem.hpp):
/// the one entry point `solve`, nonsmooth block Gauss–Seidel (`solve_nsgs`), the exact
/// per-contact solves, and the error measures of Acary, Brémond & Huber (2018). PROX (the
/// proximal-point solver, 3 unknowns only) is declared in coulomb/nonsmooth/prox.hpp and reached
/// through `solve`.
///
/// Which solver runs on which problem (solver_supports):
///
///   SolverKind   ForceProblem (3 unknowns)           WrenchProblem (6 unknowns)
///   nsgs         solve_nsgs                          solve_nsgs
///   prox         solve_prox                          rejected (std::invalid_argument)
///   automatic    NSGS with a stall test, then PROX   solve_nsgs (no stall test, no PROX)
///
/// Exact local solve of the wrench problem (solve_single_contact for a Block6, in
/// single_contact6.cpp), in the scaled variables of problem.hpp (r̃ = S r, W̃ = S⁻¹ W S⁻¹,
/// q̃ = S⁻¹ q):
///  (0)   plain Coulomb (h = k = 0, no coupling): moments 0, (N, T) by the 3-unknown solve;
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
/// problem.hpp relative to ‖q̃‖, floored at its round-off level. Nothing allocates.

#include <coulomb/nonsmooth/anderson.hpp>
#include <coulomb/nonsmooth/factored_problem.hpp>
#include <coulomb/nonsmooth/problem.hpp>

#include <cstdint>
#include <limits>
#include <memory>
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
  /// NSGS: depth m of the Anderson acceleration of the sweeps (0: plain Gauss–Seidel; at most
  /// AndersonAcceleration::kMaxDepth). The sweep's iterate G(x) is extrapolated with the last m
  /// (x, G(x)) pairs; the history is dropped when the fixed-point residual ‖G(x) − x‖ grows. The
  /// error is evaluated on sweep iterates, so the answer is always one (every r_α ∈ K_α).
  int anderson_depth = 0;
  /// Factored problems: a colour of the coloured order is relaxed in parallel (OpenMP) when it
  /// holds at least this many contacts (kParallelColourMin; results do not depend on it).
  int parallel_colour_min = kParallelColourMin;
  /// SolverKind::automatic on a force problem: Newton (PROX) is preferred for this solve, so NSGS
  /// runs only kNewtonProbeSweeps sweeps (is the warm start already the answer?) before PROX.
  /// The time stepping sets it from prefer_newton_next of the last step (State::prefer_newton).
  bool prefer_newton = false;
  /// PROX on a factored problem: stop (status max_iterations) once the estimated cost of its
  /// Newton iterations exceeds this many NSGS sweeps of the same problem. Each iteration counts
  /// 1 + kNewtonWorkPerFill (nnz(L) + nnz(U)) / nc: the factorisation's cost follows the LU's
  /// fill, a deterministic function of the problem (so is the stop). Not applied to assembled
  /// problems. `auto` in the time stepping bounds its hand-over with it (kAutoNewtonWork).
  double max_work = std::numeric_limits<double>::infinity();
  /// PROX on a factored problem: stop (status max_iterations, before taking the step) when one
  /// Newton iteration costs more than this many sweeps: the contact graph makes Newton too dear
  /// for what it gains (kAutoNewtonMaxIterationWork). The block LU's cost is known from the
  /// graph's structure, so the stop comes before the factorisation; an iteration that falls back
  /// on the pivoting LU (prox_body.cpp) counts both factorisations and stops after them.
  double max_iteration_work = std::numeric_limits<double>::infinity();
  /// SolverKind::automatic: NSGS goes on (no stall test) for the sweeps left when PROX did not
  /// finish ("nsgs+prox+nsgs"). The time stepping turns it off for its provisional solves, whose
  /// answer need not be exact: on a touching heap of 10³ spheres, where no solve of a step reaches
  /// even 1e-4, it took every provisional solve to its cap (2520 sweeps a step instead of 770).
  bool finish_with_nsgs = true;
  /// NSGS: where the sweeps have moved r by the same step for a few sweeps in a row (a drift
  /// along directions W barely sees, the error standing still), r is taken along that step to
  /// the first contact that would leave the interior of its Coulomb cone or open, and the sweeps
  /// go on from there (nsgs.cpp, "Drift jump"). Not while a stall test watches the sweeps
  /// (stall_window > 0); a drifting joint block, moment law or no-slip contact stops it. Off:
  /// plain sweeps.
  bool drift_jump = true;
};

/// What a solve returns besides r and u. Every solver returns the iterate of lowest true error
/// among its start and the iterates whose error it evaluated, never a non-finite one when its
/// start was finite: an answer is never worse than the start.
struct SolverResult {
  SolverStatus status = SolverStatus::converged;
  int iterations = 0;
  double error = 0.0;  ///< ‖r − P_K(r − u − [μ‖u_T‖,0,0])‖ / ‖q‖ of the returned r
  double time_s = 0.0;  ///< wall time of the solve [s]
  /// what ran: "nsgs", "prox", "nsgs+prox", "nsgs+prox+nsgs", "nsgs6" (static string)
  const char* method = "";
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
  /// NSGS: drift jumps taken (SolverOptions::drift_jump), each in place of a sweep's iterate.
  int drift_jumps = 0;
  /// Newton iterations of PROX within `iterations` (SolverKind::automatic; 0 when NSGS answered).
  int newton_iterations = 0;
  /// PROX on a factored problem: the estimated cost of its Newton iterations, in sweeps
  /// (SolverOptions::max_work).
  double work = 0.0;
  /// PROX on a factored problem: stopped at an iteration its contact graph's structure showed
  /// too dear, before any factorisation (its cost is known from the structure).
  bool refused_by_structure = false;
};

/// Which solver `solve` runs.
enum class SolverKind : std::uint8_t {
  nsgs,       ///< solve_nsgs only
  prox,       ///< solve_prox only (3 unknowns per contact)
  automatic,  ///< NSGS with a stall test, then PROX from the same warm start, then NSGS again
              ///< unless PROX converged (3 unknowns); NSGS (6)
};

/// Stall window of SolverKind::automatic when options.stall_window is 0 [sweeps]: NSGS hands over
/// to PROX when its error has not halved (options.stall_factor) within this many sweeps.
inline constexpr int kAutoStallWindow = 100;

/// Sweeps a Newton iteration of the body-space PROX costs per nonzero of its LU factors per
/// contact (SolverOptions::max_work). The factors are those of the block LU (BlockLU6: the fill
/// of the Cholesky factor of the body graph under AMD, 6×6 blocks taken dense). Measured, the
/// Newton direction (H assembled, factorised, solved) against a sweep of NSGS on the same problem
/// (2-core machine, Release): 2.0 sweeps on the box stacks (24.5 nonzeros per contact), 3.0 on
/// the 20-row box pyramid (58.7), a median 13 on the dropped pile of 10³ spheres (170) — 0.05 to
/// 0.09 sweeps per nonzero per contact. (Eigen's SparseLU, COLAMD and partial pivoting, which it
/// replaced: 0.25, with 1.07–1.23 times the fill on the box scenes and 2.1–3.3 times on the pile.)
inline constexpr double kNewtonWorkPerFill = 0.08;
/// SolverKind::automatic: PROX's hand-over may cost at most this many times max_iterations
/// sweeps (SolverOptions::max_work), PROX from zero after it included. On a 3-D heap an iteration
/// costs hundreds of sweeps: unbounded, the cold first step of a touching heap of 250 spheres
/// took 9.6 s in PROX and ended at error 1e-5, of 1000 spheres more than 85 s, where NSGS's 500
/// sweeps take 0.2 s and 0.6 s (2-core machine). Why 20: with 4 the cold step of the 20-row box
/// pyramid (210 boxes, ~19 sweeps an iteration as the SparseLU was counted; 5.7 with the block
/// LU, the bound thus 3.3 times looser in iterations) was cut before PROX converged, and no later
/// step converged either (47 steps in 60 s, error 1e-2), as the warm start never became the answer;
/// with 20 it converges and the run goes on at one sweep a step.
inline constexpr double kAutoNewtonWork = 20.0;
/// SolverKind::automatic: no hand-over to PROX where one Newton iteration costs more than this
/// many sweeps (SolverOptions::max_iteration_work; PROX stops before its first factorisation,
/// the cost being known from the contact graph's structure). 7.5 sweeps is 81 nonzeros per
/// contact (kNewtonWorkPerFill): walls, box stacks (24.5), towers (25.2) and the 20-row box
/// pyramid (58.7) — nearly planar contact graphs — keep Newton; 3-D heaps (the dropped pile of
/// 10³ spheres: 105–195) are left to NSGS, on which PROX converges badly however cheap its
/// iterations (a 250-sphere heap's cold step: 9.6 s, error 1e-5; with a limit of
/// 50, which admits its iterations (9.4–16.6 sweeps), the dropped pile ran at 3.9 steps/s
/// instead of 30).
inline constexpr double kAutoNewtonMaxIterationWork = 7.5;
/// SolverKind::automatic on a factored problem: above this many bodies NSGS runs alone (to
/// max_iterations, no stall test), PROX is not tried. Why: the body-space LU's fill, hence its
/// memory, grows faster than the bodies on a 3-D contact graph, and is known only once
/// factorised — measured peak memory of a run's cold step on a touching heap: 87 MB for 10³
/// spheres, 414 MB for 3·10³, 2.4 GB for 10⁴ (one factorisation, before the iteration cost
/// stopped PROX). With this bound memory stays linear in the bodies.
inline constexpr int kAutoNewtonMaxBodies = 2000;
/// SolverKind::automatic: sweeps NSGS takes before PROX when Newton is preferred.
inline constexpr int kNewtonProbeSweeps = 2;
/// SolverKind::automatic: Newton stays preferred while PROX answers in at most this many
/// iterations. Why 3: a Newton iteration costs 10–60 sweeps (measured: a body-space factorisation
/// against a matrix-free sweep, docs/nonsmooth-solvers.md), so three are worth it where NSGS needs
/// hundreds (box stacks: 100–600 sweeps a step, PROX 0–2 iterations), and not where NSGS with
/// Anderson acceleration converges in tens (piles of spheres: 40–120 sweeps, PROX 20–40).
inline constexpr int kNewtonPreferredIterations = 3;

/// Whether the next solve should prefer Newton (SolverOptions::prefer_newton), from this solve's
/// result and preference: yes when PROX answered it in at most kNewtonPreferredIterations; kept
/// when Newton was preferred and NSGS's probe answered.
[[nodiscard]] bool prefer_newton_next(const SolverResult& result, bool prefer_newton);

/// "nsgs", "prox" or "auto".
[[nodiscard]] const char* to_string(SolverKind kind);

/// Parses "nsgs", "prox" or "auto" (also "automatic"); false if `name` is none of them.
[[nodiscard]] bool parse_solver_kind(const std::string& name, SolverKind& kind);

/// Whether `solve` runs `kind` on a problem with `unknowns` (kForce or kWrench) per contact: PROX
/// (a semismooth Newton on the Alart–Curnier function of the Coulomb cone) exists for kForce only.
[[nodiscard]] constexpr bool solver_supports(SolverKind kind, int unknowns) {
  return kind != SolverKind::prox || unknowns == kForce;
}

/// What the body-space Newton of PROX on a factored problem keeps across calls: the pattern of its
/// matrix, the block LU's symbolic analysis (redone only when the pattern changes; BlockLU6), the
/// pivoting LU's if it was needed, and its scratch (prox_body.cpp). Opaque.
struct BodyNewtonCache;
struct BodyNewtonCacheDeleter {
  void operator()(BodyNewtonCache* cache) const;
};
using BodyNewtonCachePtr = std::unique_ptr<BodyNewtonCache, BodyNewtonCacheDeleter>;

/// W⁻¹ of a contact's diagonal block, kept across the sweeps of one NSGS solve (the block does
/// not change between them) for the stick branch of the local solve: `stamp` names the solve
/// that computed it (0: none yet).
struct BlockInverse {
  Mat3 inverse = Mat3::Zero();
  std::uint32_t stamp = 0;
  bool invertible = false;
};

/// Scratch of the solvers, reusable across steps (no allocation once warm).
template <int N>
struct SolverWorkspace {
  std::vector<VecN<N>> u;           ///< (nc) local velocities
  std::vector<std::int32_t> order;  ///< (nc) NSGS visiting order (shuffle)
  std::vector<VecN<N>> r_start;     ///< (nc) warm start kept by SolverKind::automatic
  std::vector<VecN<N>> r_best;      ///< (nc) NSGS's best iterate
  std::vector<VecN<N>> r_first;     ///< (nc) NSGS's answer while `automatic` runs PROX
  std::vector<VecN<N>> r_second;    ///< (nc) PROX's answer while `automatic` retries from zero
  std::vector<Vec6d> nu;            ///< (nb) factored problems: M⁻¹ Jᵀ r of the current r
  std::vector<VecN<N>> r_before;    ///< (nc) NSGS: the iterate before the sweep (Anderson, drift)
  std::vector<VecN<N>> drift_step;  ///< (nc) NSGS: the last sweep's step (drift jump)
  std::vector<BlockInverse> w_inverse;  ///< (nc) NSGS on a force problem: W_αα⁻¹ of this solve
  std::uint32_t solve_stamp = 0;        ///< the stamp of the current NSGS solve (w_inverse)
  AndersonAcceleration anderson;        ///< NSGS with Anderson: the history
  BodyNewtonCachePtr newton;            ///< PROX on a factored force problem (created on first use)
};

// ---------------------------------------------------------------------------------------------
// Error measures (one per size: different cones)
// ---------------------------------------------------------------------------------------------

/// Error of (r, u) for a force problem: ‖r − P_K(r − u − [μ‖u_T‖, 0, 0])‖ / ‖q‖ (‖q‖ = 0: not
/// divided). u must equal W r + q (it is not recomputed).
[[nodiscard]] double contact_error(const ForceProblem& problem, const std::vector<Vec3>& r,
                                   const std::vector<Vec3>& u);

/// Error of (r, u) for a wrench problem: √(Σ contact_residual6²) / ‖q̃‖ (‖q̃‖ ≤ DBL_EPSILON: not
/// divided; problem.hpp). u must equal W r + q (not recomputed).
[[nodiscard]] double contact_error(const WrenchProblem& problem, const std::vector<Vec6>& r,
                                   const std::vector<Vec6>& u);
/// The same measures for the factored forms (they read only the laws and q).
[[nodiscard]] double contact_error(const FactoredForceProblem& problem, const std::vector<Vec3>& r,
                                   const std::vector<Vec3>& u);
[[nodiscard]] double contact_error(const FactoredWrenchProblem& problem, const std::vector<Vec6>& r,
                                   const std::vector<Vec6>& u);

/// Projection onto the cone K = {(rN, rT) : ‖rT‖ ≤ μ rN}: CircularCone{μ}.project(x)
/// (coulomb/laws/admissible_set.hpp, the one implementation).
[[nodiscard]] Vec3 project_on_cone(const Vec3& x, double mu);

/// Support function σ_C(w) of the unit admissible set C of `law` (for N = 1), w = (w_F1, w_F2,
/// w_Mn, w_Mt1, w_Mt2) in raw units (moment rows multiplied by the moment impulses) [m/s].
[[nodiscard]] double support6(const ContactLaw6& law, const Eigen::Matrix<double, 5, 1>& w);

/// Euclidean projection onto K̃ = S K in the scaled variables of the wrench error measure
/// (problem.hpp): x = (N, T1, T2, Mn/ℓ_n, Mt1, Mt2) for the law's ℓ_n.
[[nodiscard]] Vec6 project_on_cone6(const ContactLaw6& law, const Vec6& x_scaled);

/// ‖r̃ − P_K̃(r̃ − û~)‖ for one wrench contact (absolute, scaled variables; r, u raw).
[[nodiscard]] double contact_residual6(const ContactLaw6& law, const Vec6& r, const Vec6& u);

// ---------------------------------------------------------------------------------------------
// Exact per-contact solves (one per size: different mathematics)
// ---------------------------------------------------------------------------------------------

/// Exact solution of one force contact: find r with u = W r + q, K* ∋ û ⊥ r ∈ K (W 3×3 SPD).
/// Enumerates take-off and stick in closed form, solves slip by a damped Newton on the
/// Alart–Curnier function with a projected fixed-point fallback; μ = +∞ (no slip) in closed form
/// (no_slip.hpp). `r` holds the warm start on entry.
/// Returns false if the fallback did not reach `tolerance` either.
bool solve_single_contact(const Block3& w, const Vec3& q, double mu, Vec3& r, double tolerance);

/// The same solve (the same bits) with the stick branch's W⁻¹ taken from `cache` when it was
/// computed in the solve `stamp`, else computed and kept there: NSGS calls it with the same
/// diagonal block at every sweep (the 3×3 inverse was a tenth of a moving pile's sweep).
bool solve_single_contact(const Block3& w, const Vec3& q, double mu, Vec3& r, double tolerance,
                          BlockInverse& cache, std::uint32_t stamp);

/// Exact solution of one wrench contact (method above): u = W r + q with the law of `law` (W 6×6
/// symmetric positive semi-definite, positive definite on the free components). `r` holds the
/// warm start on entry. Returns false (never silently) if no path reached `tolerance` (relative
/// to ‖q̃‖); r is then the best iterate found.
bool solve_single_contact(const Block6& w, const Vec6& q, const ContactLaw6& law, Vec6& r,
                          double tolerance);

// ---------------------------------------------------------------------------------------------
// Solvers of the whole problem
// ---------------------------------------------------------------------------------------------

/// Nonsmooth block Gauss–Seidel with the exact per-contact solve (nsgs.cpp), both sizes. `r` (nc)
/// holds the warm start on entry (replaced by 0 if its size is wrong) and the solution on exit;
/// `u` receives W r + q. Starts from the warm start, or from r = 0 when the warm start is far
/// worse (kWarmStartFactor); returns its best iterate (SolverResult; `method` "nsgs" for a force
/// problem, "nsgs6" for a wrench problem).
template <int N>
SolverResult solve_nsgs(const ContactProblem<N>& problem, std::vector<VecN<N>>& r,
                        std::vector<VecN<N>>& u, const SolverOptions& options,
                        SolverWorkspace<N>& workspace);
/// NSGS on the factored problem: the same iteration with q̃_α = q_α + J_α ν − W_αα r_α, where ν =
/// M⁻¹ Jᵀ r is kept per body (updated by ν += G δr after each local solve, recomputed at every
/// error evaluation), so a sweep costs a constant per contact; contacts are visited in the
/// problem's order (coloured above kColorThreshold: one colour relaxed in parallel, results
/// independent of the number of threads). `shuffle` visits a shuffled contact order, one thread.
template <int N>
SolverResult solve_nsgs(const FactoredProblem<N>& problem, std::vector<VecN<N>>& r,
                        std::vector<VecN<N>>& u, const SolverOptions& options,
                        SolverWorkspace<N>& workspace);

/// The one entry point: solves `problem` with the chosen solver (table above). With `automatic`
/// on a force problem, NSGS runs with options.stall_window (kAutoStallWindow if 0); unless it
/// converged or ran out of time, PROX runs from the caller's warm start (not from NSGS's stalled
/// iterate, see solve.cpp) with options.max_iterations Newton iterations and the time left of
/// options.max_time_s; unless PROX converged, NSGS goes on from the better answer without the
/// stall test for the sweeps left of options.max_iterations ("nsgs+prox+nsgs"). Iterations (sweeps
/// + Newton iterations) and time are summed; `method` says what ran. Throws std::invalid_argument
/// for a (kind, size) pair solver_supports rejects.
template <int N>
SolverResult solve(const ContactProblem<N>& problem, std::vector<VecN<N>>& r,
                   std::vector<VecN<N>>& u, const SolverOptions& options,
                   SolverWorkspace<N>& workspace, SolverKind kind = SolverKind::automatic);
/// The same entry point for the factored problem of the time stepping.
template <int N>
SolverResult solve(const FactoredProblem<N>& problem, std::vector<VecN<N>>& r,
                   std::vector<VecN<N>>& u, const SolverOptions& options,
                   SolverWorkspace<N>& workspace, SolverKind kind = SolverKind::automatic);

}  // namespace coulomb
