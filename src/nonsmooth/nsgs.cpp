/// @file
/// Nonsmooth block Gauss–Seidel (NSGS; Jean 1999, Acary & Brogliato 2008 §13.4):
///
///   for each sweep, for α in the visiting order (1..nc, or a seeded shuffle):
///     q̃_α = q_α + Σ_{β≠α} W_αβ r_β            (block row α of W, latest r_β)
///     r_α ← exact solution of  u_α = W_αα r_α + q̃_α,  K* ∋ û_α ⊥ r_α ∈ K
///     r_α ← ω r_α + (1 − ω) r_α^old            (optional over-relaxation)
///   then, at the sweeps chosen by the error schedule, u = W r + q and the error of Acary,
///   Brémond & Huber (2018) decide convergence.
///
/// Error schedule: the true error costs one block product W r (about as much as the sweep's
/// off-diagonal products). With `error_check_interval` = k > 1 it is evaluated at the sweep where
/// the linear rate observed between the last two evaluations predicts the tolerance, at most k
/// sweeps later (k sweeps later when the error did not decrease since the last evaluation). At exit
/// the error of the returned r is always evaluated, so the reported error is the true one.
/// Data layout: the sweep reads W block row by block row (compressed rows), which is the order
/// the blocks are stored in (coulomb/nonsmooth/problem.hpp). Deterministic (fixed order or a
/// seeded splitmix64 shuffle); no allocation once r, u and the workspace have size nc.

#include <coulomb/nonsmooth/solver.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace coulomb {
namespace {

// splitmix64 (Steele, Lea & Flood 2014): a portable, seedable 64-bit generator.
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31U);
}

// Fisher–Yates shuffle of `order` driven by splitmix64; the index in [0, i] is taken from the
// high bits by a multiply-shift (bias < 2^-32 here, irrelevant for a visiting order).
void shuffle_order(std::vector<std::int32_t>& order, std::uint64_t& state) {
  for (std::size_t i = order.size(); i > 1; --i) {
    const auto bound = static_cast<std::uint64_t>(i);
    const std::uint64_t x = splitmix64(state) >> 32U;
    const auto j = static_cast<std::size_t>((x * bound) >> 32U);
    std::swap(order[i - 1], order[j]);
  }
}

// One exact local solve of contact a with the latest impulses of the others.
inline void relax_contact(const ContactProblem& p, int a, std::vector<Vec3>& r, double omega,
                          double local_tolerance) {
  Vec3 qt = p.q[a];
  const std::int32_t d = p.diag[a];
  for (std::int32_t k = p.row_start[a]; k < p.row_start[a + 1]; ++k) {
    if (k != d) qt.noalias() += p.blocks[k] * r[p.col[k]];
  }
  if (omega == 1.0) {
    solve_single_contact(p.blocks[d], qt, p.mu[a], r[a], local_tolerance);
  } else {
    const Vec3 r_old = r[a];
    solve_single_contact(p.blocks[d], qt, p.mu[a], r[a], local_tolerance);
    r[a] = omega * r[a] + (1.0 - omega) * r_old;
  }
}

}  // namespace

SolverResult solve_nsgs(const ContactProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                        const SolverOptions& options, SolverWorkspace& workspace) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const int nc = problem.contact_count;
  // Shapes: a warm start of the wrong size is replaced by zero.
  if (static_cast<int>(r.size()) != nc) r.assign(static_cast<std::size_t>(nc), Vec3::Zero());
  u.resize(static_cast<std::size_t>(nc));
  SolverResult result;
  result.method = "nsgs";
  const double omega = options.over_relaxation;
  const auto true_error = [&] {
    problem.velocity(r, u);
    return contact_error(problem, r, u);
  };

  // Error of the warm start: nothing to do if it already solves the problem.
  result.error = true_error();
  if (!std::isfinite(result.error)) {
    result.status = SolverStatus::non_finite;
    result.time_s = elapsed();
    return result;
  }
  if (result.error <= options.tolerance) {
    result.status = SolverStatus::converged;
    result.time_s = elapsed();
    return result;
  }

  // Visiting order (identity unless shuffled).
  std::vector<std::int32_t>& order = workspace.order;
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
    // One Gauss–Seidel sweep with the exact local solve.
    if (options.shuffle) {
      shuffle_order(order, rng);
      for (const std::int32_t a : order)
        relax_contact(problem, a, r, omega, options.local_tolerance);
    } else {
      for (int a = 0; a < nc; ++a) relax_contact(problem, a, r, omega, options.local_tolerance);
    }
    result.iterations = sweep;
    checked = false;
    // Wall-clock limit (the error is evaluated at exit).
    if (elapsed() > options.max_time_s) {
      result.status = SolverStatus::max_time;
      break;
    }
    if (sweep < next_check) continue;

    // True error of the sweep's iterate.
    result.error = true_error();
    checked = true;
    if (!std::isfinite(result.error)) {
      result.status = SolverStatus::non_finite;
      break;
    }
    if (result.error <= options.tolerance) {
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
  // The reported error is the true one of the returned r.
  if (!checked) {
    result.error = true_error();
    if (!std::isfinite(result.error)) {
      result.status = SolverStatus::non_finite;
    } else if (result.error <= options.tolerance) {
      result.status = SolverStatus::converged;
    }
  }
  result.time_s = elapsed();
  return result;
}

}  // namespace coulomb
