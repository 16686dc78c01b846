#pragma once
// The nonsmooth block Gauss–Seidel loop, for both sizes of ContactProblem<N> (nsgs.cpp): the
// sweep, the error schedule, the stall test, the statuses; and the choice of the start, which
// PROX shares (prox.cpp). The problem type gives the blocks; the caller gives the exact local
// solve and the error measure. See nsgs.cpp for the method and its references.

#include <coulomb/nonsmooth/solver.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

namespace coulomb::detail {

// splitmix64 (Steele, Lea & Flood 2014): a portable, seedable 64-bit generator.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31U);
}

// Fisher–Yates shuffle of `order` driven by splitmix64; the index in [0, i] is taken from the
// high bits by a multiply-shift (bias < 2^-32 here, irrelevant for a visiting order).
inline void shuffle_order(std::vector<std::int32_t>& order, std::uint64_t& state) {
  for (std::size_t i = order.size(); i > 1; --i) {
    const auto bound = static_cast<std::uint64_t>(i);
    const std::uint64_t x = splitmix64(state) >> 32U;
    const auto j = static_cast<std::size_t>((x * bound) >> 32U);
    std::swap(order[i - 1], order[j]);
  }
}

// One exact local solve of contact a with the latest impulses of the others; false when the local
// solve did not reach its tolerance (it then leaves its best answer in r[a]).
template <class Problem, class VecT, class LocalSolve>
inline bool relax_contact(const Problem& p, int a, std::vector<VecT>& r, double omega,
                          const LocalSolve& local_solve) {
  VecT qt = p.q[a];
  const std::int32_t d = p.diag[a];
  for (std::int32_t k = p.row_start[a]; k < p.row_start[a + 1]; ++k) {
    if (k != d) qt.noalias() += p.blocks[k] * r[p.col[k]];
  }
  if (omega == 1.0) return local_solve(p.blocks[d], qt, a, r[a]);
  const VecT r_old = r[a];
  const bool ok = local_solve(p.blocks[d], qt, a, r[a]);
  r[a] = omega * r[a] + (1.0 - omega) * r_old;
  return ok;
}

// The start of a solve: the caller's warm start, unless its error is above kWarmStartFactor (100)
// times that of r = 0 or not finite, and then r = 0. The error of r = 0 needs no product with W
// (u = q) and is at most (1 + μ) (P_K is non-expansive: ‖P_K(−q − [μ‖q_T‖, 0, 0])‖ <= (1 + μ)‖q‖).
// A warm start can be far worse: the impulses of an impact step kept for contacts whose q is
// round-off at the next step (a touching row of balls after the impact) have a relative error of
// ~1e14 there. It can also be somewhat worse and still the better start: when a new contact point
// shifts the remembered impulses of a box stack its error is up to 8.6 times that of r = 0, and
// starting from r = 0 there costs 3.6 times the iterations (kWarmStartFactor). On exit r is the
// start, u = W r + q, and the result's start_error, error and cold_start are set. `zero` is
// scratch of size nc.
template <class Problem, class VecT, class ErrorFn>
void choose_start(const Problem& problem, std::vector<VecT>& r, std::vector<VecT>& u,
                  std::vector<VecT>& zero, const ErrorFn& error, SolverResult& result) {
  const auto n = static_cast<std::size_t>(problem.contact_count);
  problem.velocity(r, u);
  double warm = error(problem, r, u);
  const bool all_zero =
      std::all_of(r.begin(), r.end(), [](const VecT& x) { return x.isZero(0.0); });
  if (!all_zero) {
    zero.assign(n, VecT::Zero());
    for (std::size_t a = 0; a < n; ++a) u[a] = problem.q[a];
    const double cold = error(problem, zero, u);
    if (std::isfinite(cold) && !(warm <= kWarmStartFactor * cold)) {
      r.assign(n, VecT::Zero());
      warm = cold;
      result.cold_start = true;
    } else {
      problem.velocity(r, u);
    }
  }
  result.start_error = warm;
  result.error = warm;
}

/// NSGS on `problem`: local_solve(W_aa, q̃_a, a, r_a) solves contact a exactly and returns false
/// when it did not reach its tolerance; error(problem, r, u) is the error measure of the problem
/// type. `best` is scratch of size nc (the best iterate, no allocation once warm).
/// Returns the last iterate when it meets the tolerance, else the iterate of lowest true error
/// among the start (choose_start) and the iterates whose error was evaluated; `fell_back` when the
/// last iterate was non-finite or worse than the start.
template <class Problem, class VecT, class LocalSolve, class ErrorFn>
SolverResult nsgs(const Problem& problem, std::vector<VecT>& r, std::vector<VecT>& u,
                  const SolverOptions& options, std::vector<std::int32_t>& order,
                  std::vector<VecT>& best, const char* method, const LocalSolve& local_solve,
                  const ErrorFn& error) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const int nc = problem.contact_count;
  // Shapes: a warm start of the wrong size is replaced by zero.
  if (static_cast<int>(r.size()) != nc) r.assign(static_cast<std::size_t>(nc), VecT::Zero());
  u.resize(static_cast<std::size_t>(nc));
  SolverResult result;
  result.method = method;
  const double omega = options.over_relaxation;
  const auto true_error = [&] {
    problem.velocity(r, u);
    return error(problem, r, u);
  };

  // Start: the warm start, or zero if that is far worse; nothing to do if it solves the problem.
  choose_start(problem, r, u, best, error, result);
  if (!std::isfinite(result.error)) {
    result.status = SolverStatus::non_finite;
    result.time_s = elapsed();
    return result;
  }
  // A start within the tolerance is the answer, unless min_iterations asks for sweeps: then only
  // those are taken, and their iterate replaces the start if it meets the tolerance too.
  const bool start_converged = result.error <= options.tolerance;
  if (start_converged && options.min_iterations <= 0) {
    result.status = SolverStatus::converged;
    result.time_s = elapsed();
    return result;
  }
  // The best iterate so far: the start.
  best.assign(r.begin(), r.end());
  double best_error = result.error;

  // Visiting order (identity unless shuffled).
  if (options.shuffle) {
    order.resize(static_cast<std::size_t>(nc));
    for (int a = 0; a < nc; ++a) order[a] = a;
  }
  std::uint64_t rng = options.shuffle_seed;

  // Error schedule and stall reference.
  const int max_interval = std::max(1, options.error_check_interval);
  int next_check = 1;
  int last_check = 0;
  double last_error = result.error;
  int stall_sweep = 0;
  double stall_error = result.error;
  bool checked = true;  // result.error is the error of the current r

  result.status = SolverStatus::max_iterations;
  for (int sweep = 1; sweep <= options.max_iterations; ++sweep) {
    // One Gauss–Seidel sweep with the exact local solve; local solves short of their tolerance
    // are counted (those of the last sweep are reported).
    int failures = 0;
    if (options.shuffle) {
      shuffle_order(order, rng);
      for (const std::int32_t a : order)
        failures += relax_contact(problem, a, r, omega, local_solve) ? 0 : 1;
    } else {
      for (int a = 0; a < nc; ++a)
        failures += relax_contact(problem, a, r, omega, local_solve) ? 0 : 1;
    }
    result.local_failures = failures;
    result.local_failures_total += failures;
    result.iterations = sweep;
    checked = false;
    // Wall-clock limit (the error is evaluated at exit).
    if (elapsed() > options.max_time_s) {
      result.status = SolverStatus::max_time;
      break;
    }
    if (sweep < next_check) continue;

    // True error of the sweep's iterate; the best one is kept.
    result.error = true_error();
    checked = true;
    if (!std::isfinite(result.error)) {
      result.status = SolverStatus::non_finite;
      break;
    }
    if (result.error < best_error) {
      best_error = result.error;
      best.assign(r.begin(), r.end());
    }
    if (sweep >= options.min_iterations && (result.error <= options.tolerance || start_converged)) {
      result.status = SolverStatus::converged;
      break;
    }
    // Stall test: the error must fall by stall_factor within stall_window sweeps.
    if (result.error <= options.stall_factor * stall_error) {
      stall_sweep = sweep;
      stall_error = result.error;
    } else if (options.stall_window > 0 && sweep - stall_sweep >= options.stall_window) {
      result.status = SolverStatus::stalled;
      break;
    }
    // Next evaluation: where the observed linear rate reaches the tolerance, capped.
    // (no decrease since the last evaluation: no rate, wait the full interval).
    int gap = max_interval;
    if (max_interval > 1 && result.error < last_error) {
      const double log_rate = std::log(result.error / last_error) / (sweep - last_check);
      const double needed = std::log(options.tolerance / result.error) / log_rate;
      if (needed < max_interval) gap = std::max(1, static_cast<int>(std::ceil(needed)));
    }
    if (options.stall_window > 0) gap = std::min(gap, std::max(1, options.stall_window / 4));
    last_check = sweep;
    last_error = result.error;
    next_check = sweep + gap;
  }
  // The error of the last iterate (evaluated now if the schedule skipped it).
  if (!checked) result.error = true_error();
  // Never worse than the best iterate: a last iterate that is non-finite or worse than an earlier
  // one is replaced by the best (the start at worst); falling below the start is reported.
  if (!std::isfinite(result.error) ||
      (result.error > best_error && result.error > options.tolerance)) {
    result.fell_back =
        !std::isfinite(result.error) || (result.error > result.start_error && !start_converged);
    if (!std::isfinite(result.error)) result.status = SolverStatus::non_finite;
    r.assign(best.begin(), best.end());
    result.error = true_error();
  }
  if (result.error <= options.tolerance) result.status = SolverStatus::converged;
  result.time_s = elapsed();
  return result;
}

}  // namespace coulomb::detail
