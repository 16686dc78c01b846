#pragma once
// The nonsmooth block Gauss–Seidel loop, for both sizes of ContactProblem<N> (nsgs.cpp): the
// sweep, the error schedule, the stall test, the statuses; and the choice of the start, which
// PROX shares (prox.cpp). The problem type gives the blocks; the caller gives the exact local
// solve and the error measure. See nsgs.cpp for the method and its references.

#include <coulomb/math/parallel.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
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

// How a sweep reaches the other contacts' impulses, per problem form. Both give: size(), q(),
// velocity(r, u) (u = W r + q, exact; it leaves the sweep's own state as reset(r) does), reset(r)
// (after r was replaced), and sweep(r, ω, order, local_solve) → the number of local solves short
// of their tolerance (each local solve leaves its best answer in r[a]).

// The assembled problem: q̃_α = q_α + Σ_{β≠α} W_αβ r_β over the stored blocks of row α.
template <int N>
class AssembledSweep {
 public:
  using Vec = VecN<N>;
  explicit AssembledSweep(const ContactProblem<N>& p) : p_(p) {}
  [[nodiscard]] int size() const { return p_.contact_count; }
  [[nodiscard]] const std::vector<Vec>& q() const { return p_.q; }
  void velocity(const std::vector<Vec>& r, std::vector<Vec>& u) const { p_.velocity(r, u); }
  void reset(const std::vector<Vec>&) const {}
  template <class LocalSolve>
  int sweep(std::vector<Vec>& r, double omega, const std::vector<std::int32_t>* order,
            const LocalSolve& local_solve) const {
    int failures = 0;
    if (order) {
      for (const std::int32_t a : *order) failures += relax(a, r, omega, local_solve) ? 0 : 1;
    } else {
      for (int a = 0; a < p_.contact_count; ++a)
        failures += relax(a, r, omega, local_solve) ? 0 : 1;
    }
    return failures;
  }
  // One sweep in contact order on the regularised problem FC(W + ηI, q − η r_k) (PROX).
  template <class LocalSolve>
  void regularised_sweep(double eta, const std::vector<Vec>& rk, std::vector<Vec>& x,
                         const LocalSolve& local_solve) const {
    for (int a = 0; a < p_.contact_count; ++a) {
      Vec qt = p_.q[a] - eta * rk[a];
      const std::int32_t d = p_.diag[a];
      for (std::int32_t k = p_.row_start[a]; k < p_.row_start[a + 1]; ++k) {
        if (k != d) qt.noalias() += p_.blocks[k] * x[p_.col[k]];
      }
      BlockN<N> wd = p_.blocks[d];
      wd.diagonal().array() += eta;
      local_solve(wd, qt, a, x[a]);
    }
  }
  [[nodiscard]] const BlockN<N>& diagonal_block(int a) const { return p_.blocks[p_.diag[a]]; }

 private:
  template <class LocalSolve>
  bool relax(int a, std::vector<Vec>& r, double omega, const LocalSolve& local_solve) const {
    Vec qt = p_.q[a];
    const std::int32_t d = p_.diag[a];
    for (std::int32_t k = p_.row_start[a]; k < p_.row_start[a + 1]; ++k) {
      if (k != d) qt.noalias() += p_.blocks[k] * r[p_.col[k]];
    }
    if (omega == 1.0) return local_solve(p_.blocks[d], qt, a, r[a]);
    const Vec r_old = r[a];
    const bool ok = local_solve(p_.blocks[d], qt, a, r[a]);
    r[a] = omega * r[a] + (1.0 - omega) * r_old;
    return ok;
  }
  const ContactProblem<N>& p_;
};

// The factored problem: ν = M⁻¹ Jᵀ r per body is kept with r, q̃_α = q_α + J1_α ν_b1 + J2_α ν_b2 −
// W_αα r_α, and ν += G δr after the local solve. Colours of the problem's order are relaxed in
// parallel (their contacts share no body: each ν is written by one contact of a colour, so the
// result is the same for any number of threads). `velocity` and `reset` recompute ν from r, which
// also keeps the round-off of the updates from accumulating.
template <int N>
class FactoredSweep {
 public:
  using Vec = VecN<N>;
  FactoredSweep(const FactoredProblem<N>& p, std::vector<Vec6d>& nu,
                int parallel_colour_min = kParallelColourMin)
      : p_(p), nu_(nu), parallel_colour_min_(parallel_colour_min) {}
  [[nodiscard]] int size() const { return p_.contact_count; }
  [[nodiscard]] const std::vector<Vec>& q() const { return p_.q; }
  void velocity(const std::vector<Vec>& r, std::vector<Vec>& u) const { p_.velocity(r, u, nu_); }
  void reset(const std::vector<Vec>& r) const { p_.body_velocity(r, nu_); }
  template <class LocalSolve>
  int sweep(std::vector<Vec>& r, double omega, const std::vector<std::int32_t>* order,
            const LocalSolve& local_solve) const {
    int failures = 0;
    if (order) {
      for (const std::int32_t a : *order) failures += relax(a, r, omega, local_solve) ? 0 : 1;
      return failures;
    }
    // Below kColorThreshold the order is contact order, uncoloured; above it even one colour is
    // relaxed in parallel (a carpet of spheres on the ground: no two contacts share a body).
    const int colors = static_cast<int>(p_.color_start.size()) - 1;
    if (p_.contact_count < kColorThreshold) {
      for (const std::int32_t a : p_.order) failures += relax(a, r, omega, local_solve) ? 0 : 1;
      return failures;
    }
    for (int c = 0; c < colors; ++c) {
      const std::int32_t begin = p_.color_start[c], end = p_.color_start[c + 1];
      failures += parallel_count(
          end - begin, parallel_colour_min_,
          [&](std::ptrdiff_t k) {
            return relax(p_.order[begin + k], r, omega, local_solve) ? 0 : 1;
          },
          Schedule::guided);
    }
    return failures;
  }
  // One sweep in contact order on the regularised problem FC(W + ηI, q − η r_k) (PROX); ν is
  // recomputed from x first.
  template <class LocalSolve>
  void regularised_sweep(double eta, const std::vector<Vec>& rk, std::vector<Vec>& x,
                         const LocalSolve& local_solve) const {
    reset(x);
    for (int a = 0; a < p_.contact_count; ++a) {
      const std::int32_t b1 = p_.body1[a], b2 = p_.body2[a];
      Vec qt = p_.q[a] - eta * rk[a];
      qt.noalias() -= p_.w_diag[a] * x[a];
      if (b1 >= 0) qt.noalias() += p_.J1[a] * nu_[b1];
      if (b2 >= 0) qt.noalias() += p_.J2[a] * nu_[b2];
      BlockN<N> wd = p_.w_diag[a];
      wd.diagonal().array() += eta;
      const Vec x_old = x[a];
      local_solve(wd, qt, a, x[a]);
      const Vec delta = x[a] - x_old;
      if (b1 >= 0) nu_[b1].noalias() += p_.G1[a] * delta;
      if (b2 >= 0) nu_[b2].noalias() += p_.G2[a] * delta;
    }
  }
  [[nodiscard]] const BlockN<N>& diagonal_block(int a) const { return p_.w_diag[a]; }

 private:
  template <class LocalSolve>
  bool relax(int a, std::vector<Vec>& r, double omega, const LocalSolve& local_solve) const {
    const std::int32_t b1 = p_.body1[a], b2 = p_.body2[a];
    Vec qt = p_.q[a];
    qt.noalias() -= p_.w_diag[a] * r[a];
    if (b1 >= 0) qt.noalias() += p_.J1[a] * nu_[b1];
    if (b2 >= 0) qt.noalias() += p_.J2[a] * nu_[b2];
    const Vec r_old = r[a];
    const bool ok = local_solve(p_.w_diag[a], qt, a, r[a]);
    if (omega != 1.0) r[a] = omega * r[a] + (1.0 - omega) * r_old;
    const Vec delta = r[a] - r_old;
    if (b1 >= 0) nu_[b1].noalias() += p_.G1[a] * delta;
    if (b2 >= 0) nu_[b2].noalias() += p_.G2[a] * delta;
    return ok;
  }
  const FactoredProblem<N>& p_;
  std::vector<Vec6d>& nu_;
  int parallel_colour_min_;
};

// The start of a solve: the caller's warm start, unless its error is above kWarmStartFactor (100)
// times that of r = 0 or not finite, and then r = 0. The error of r = 0 needs no product with W
// (u = q) and is at most (1 + μ) (P_K is non-expansive: ‖P_K(−q − [μ‖q_T‖, 0, 0])‖ <= (1 + μ)‖q‖).
// A warm start can be far worse: the impulses of an impact step kept for contacts whose q is
// round-off at the next step (a touching row of balls after the impact) have a relative error of
// ~1e14 there. It can also be somewhat worse and still the better start: when a new contact point
// shifts the remembered impulses of a box stack its error is up to 8.6 times that of r = 0, and
// starting from r = 0 there costs 3.6 times the iterations (kWarmStartFactor). A warm start
// within `tolerance` already answers the problem and is kept without the error of r = 0 (a
// settled carpet of 10⁴ spheres spent a fifth of its solve on it). On exit r is the start,
// u = W r + q, and the result's start_error, error and cold_start are set. `zero` is scratch of
// size nc.
template <class Sweep, class VecT, class ErrorFn>
void choose_start(const Sweep& sweep, std::vector<VecT>& r, std::vector<VecT>& u,
                  std::vector<VecT>& zero, const ErrorFn& error, double tolerance,
                  SolverResult& result) {
  const auto n = static_cast<std::size_t>(sweep.size());
  // velocity() leaves the sweep's state at r too (reset(r)), so only a cold start resets it; the
  // error of r = 0 reads q itself (u = q there), so u keeps W r + q of the warm start. Both spare
  // a recomputation of the same numbers: a settled carpet of 10⁴ spheres, solved in one sweep,
  // spent half of its solve in three products ν = M⁻¹Jᵀr and two u = Jν + q where one of each does.
  sweep.velocity(r, u);
  double warm = error(r, u);
  const bool keep = warm <= tolerance ||
                    std::all_of(r.begin(), r.end(), [](const VecT& x) { return x.isZero(0.0); });
  if (!keep) {
    zero.assign(n, VecT::Zero());
    const double cold = error(zero, sweep.q());
    if (std::isfinite(cold) && !(warm <= kWarmStartFactor * cold)) {
      r.assign(n, VecT::Zero());
      for (std::size_t a = 0; a < n; ++a) u[a] = sweep.q()[a];
      sweep.reset(r);
      warm = cold;
      result.cold_start = true;
    }
  }
  result.start_error = warm;
  result.error = warm;
}

// The drift jump (SolverOptions::drift_jump; nsgs.cpp has the method). Once the sweeps have moved
// r by the same step f = G(x) − x for kDriftSweeps sweeps in a row (‖f_k − f_{k−1}‖ ≤
// kDriftFlatness ‖f_k‖), r is taken along f to the first event of that motion, s* = min over
// the contacts of the first s > 0 at which r_α + s f_α leaves the interior of its set
// (drift.event), and projected on the sets (drift.project); no jump when there is no event or
// s* ≤ 1 (the next sweep gets there). Sweeps before kDriftFirstSweep are not watched, nor any
// while the stall test is (options.stall_window > 0). Why 1e-2: on drop_pile(n) of the peer
// benchmark (500 steps, n = 800 / 1200 / 1500; measured with the jump also in `auto`'s first
// NSGS, before the doubling rule) 1e-3 left 7 / 31 / 23 steps unconverged, 1e-2 7 / 20 / 16, 3e-2
// (watched from sweep 5) 7 / 24 / 11 — within the piles' chaotic spread of each other, and all far
// below the 42 / 75 / 90 of no jump; 1e-1 left 40 of 500 at n = 1000, against 27 with 1e-2.
inline constexpr int kDriftSweeps = 5;
inline constexpr double kDriftFlatness = 1e-2;
inline constexpr int kDriftFirstSweep = 20;

// With Anderson acceleration the steps f = G(x) − x scatter about the drift: x is the
// extrapolation, not the last sweep's iterate. The watch then compares each step with the mean
// of the steps since it began (an exponential mean of weight kDriftMeanWeight for the new step),
// which is also the jump's direction, and a step repeats when it is within kDriftMeanFlatness of
// that mean. Why: on the last problem of step 416 of drop_pile(1000) (1044 contacts, from r = 0,
// Anderson depth 5) the error stands at 5.46e-8 from sweep ~100 to 5000 while ‖f‖ stays
// 3.2–3.4e-8 and ‖f_k − f_{k−1}‖/‖f_k‖ wanders over 2e-3 to 0.19: never five sweeps in a row
// below 1e-2, so no jump, where plain sweeps jump once and converge in 1096 sweeps. Compared with
// the mean it jumps and converges in 222 sweeps (docs/benchmarks.md, twentieth wave, with the
// weights and flatnesses tried). Plain sweeps keep the last step (the same bits as before).
inline constexpr double kDriftMeanWeight = 0.2;
inline constexpr double kDriftMeanFlatness = 0.2;

// A contact is inside its cone for the drift jump's event when μ² r_N² − ‖r_T‖² exceeds this
// fraction of μ² r_N² (‖r_T‖ below μ r_N by more than 5e-7 of it): a sliding contact's answer
// lies on the surface only to the local solve's round-off.
inline constexpr double kDriftInterior = 1e-6;

// The first s > 0 at which r + s f leaves the interior of the cone ‖r_T‖ ≤ μ r_N: r_N + s f_N
// reaches 0, or, from strictly inside, the smallest positive root of
// μ²(r_N + s f_N)² − ‖r_T + s f_T‖² = 0 (a contact on the cone's surface slides along it, and is
// projected back after the jump). +∞ where neither happens.
inline double cone_event(const Vec3& r, const Vec3& f, double mu) {
  double s = std::numeric_limits<double>::infinity();
  if (f(0) < 0.0 && r(0) > 0.0) s = r(0) / -f(0);
  const double mu2 = mu * mu;
  const double c = mu2 * r(0) * r(0) - r.tail<2>().squaredNorm();
  if (!(c > kDriftInterior * mu2 * r(0) * r(0))) return s;
  const double a = mu2 * f(0) * f(0) - f.tail<2>().squaredNorm();
  const double b = 2.0 * (mu2 * r(0) * f(0) - r.tail<2>().dot(f.tail<2>()));
  if (a == 0.0) return b < 0.0 ? std::min(s, c / -b) : s;
  const double disc = b * b - 4.0 * a * c;
  if (disc < 0.0) return s;  // a > 0 here: inside for every s
  // The two roots without cancellation: q/a and c/q.
  const double q = -0.5 * (b + std::copysign(std::sqrt(disc), b));
  for (const double root : {q / a, q != 0.0 ? c / q : -1.0})
    if (root > 0.0) s = std::min(s, root);
  return s;
}

// The drift of the sweeps, watched sweep by sweep: `f_prev` (nc) the drift's step — the last step
// of plain sweeps, the mean of the steps under Anderson (`averaged`) — and `flat` the sweeps in a
// row whose step repeated it.
template <class VecT>
struct DriftWatch {
  std::vector<VecT>& f_prev;
  bool averaged = false;  // Anderson: f_prev is the mean of the steps (kDriftMeanWeight)
  int flat = 0;
  int needed = kDriftSweeps;  // sweeps in a row that make a drift steady (doubled on no progress)
  double best_at_jump = std::numeric_limits<double>::infinity();  // best error at the last jump
  bool seeded = false;  // f_prev holds a step (the mean starts from the first one)
  // Compares the step r − before with the drift's step and updates it; true when it has repeated
  // for `needed` sweeps in a row.
  bool steady(const std::vector<VecT>& r, const std::vector<VecT>& before) {
    double step2 = 0.0, change2 = 0.0;
    const bool mean = averaged && seeded;
    for (std::size_t a = 0; a < r.size(); ++a) {
      const VecT f = r[a] - before[a];
      change2 += (f - f_prev[a]).squaredNorm();
      if (mean) {
        f_prev[a] = (1.0 - kDriftMeanWeight) * f_prev[a] + kDriftMeanWeight * f;
      } else {
        f_prev[a] = f;
      }
      step2 += f_prev[a].squaredNorm();
    }
    seeded = true;
    const double flatness = averaged ? kDriftMeanFlatness : kDriftFlatness;
    const bool repeated = step2 > 0.0 && change2 <= flatness * flatness * step2;
    flat = repeated ? flat + 1 : 0;
    return flat >= needed;
  }
  // Before a jump: where the best error has not halved since the last jump, that jump led to no
  // progress (a contact brought to its cone's surface and back), and the next jump waits twice as
  // long.
  void judge(double best_error) {
    if (!(best_error <= 0.5 * best_at_jump)) needed *= 2;
    best_at_jump = best_error;
  }
  void forget() {
    flat = 0;
    seeded = false;
    std::fill(f_prev.begin(), f_prev.end(), VecT::Zero());
  }
};

/// NSGS through `sweep` (AssembledSweep or FactoredSweep): local_solve(W_aa, q̃_a, a, r_a) solves
/// contact a exactly and returns false when it did not reach its tolerance; error(r, u) is the
/// error measure of the problem type; `drift` gives the drift jump's events and projection
/// (event(a, r_a, f_a) → s, project(a, x) → P(x)). `best`, `before` and `f_prev` are scratch of
/// size nc (no allocation once warm). Returns the last iterate when it meets the tolerance, else
/// the iterate of lowest true error among the start (choose_start) and the iterates whose error
/// was evaluated; `fell_back` when the last iterate was non-finite or worse than the start.
template <class Sweep, class VecT, class LocalSolve, class ErrorFn, class Drift>
SolverResult nsgs(const Sweep& sweeper, std::vector<VecT>& r, std::vector<VecT>& u,
                  const SolverOptions& options, std::vector<std::int32_t>& order,
                  std::vector<VecT>& best, std::vector<VecT>& before, std::vector<VecT>& f_prev,
                  AndersonAcceleration& anderson, const char* method, const LocalSolve& local_solve,
                  const ErrorFn& error, const Drift& drift) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const int nc = sweeper.size();
  // Shapes: a warm start of the wrong size is replaced by zero.
  if (static_cast<int>(r.size()) != nc) r.assign(static_cast<std::size_t>(nc), VecT::Zero());
  u.resize(static_cast<std::size_t>(nc));
  SolverResult result;
  result.method = method;
  const double omega = options.over_relaxation;
  const auto true_error = [&] {
    sweeper.velocity(r, u);
    return error(r, u);
  };

  // Start: the warm start, or zero if that is far worse; nothing to do if it solves the problem.
  choose_start(sweeper, r, u, best, error, options.tolerance, result);
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
  // Anderson acceleration of the sweeps (options.anderson_depth), history sized for r.
  const bool accelerate = options.anderson_depth > 0;
  constexpr int kRows = VecT::RowsAtCompileTime;
  if (accelerate) anderson.reset(options.anderson_depth, static_cast<std::size_t>(kRows) * nc);

  // Error schedule and stall reference.
  const int max_interval = std::max(1, options.error_check_interval);
  int next_check = 1;
  int last_check = 0;
  double last_error = result.error;
  int stall_sweep = 0;
  double stall_error = result.error;
  bool checked = true;  // result.error is the error of the current r

  // Anderson: the sweep's iterate r = G(x) is replaced by the extrapolation from x (`before`)
  // and the history (after the error check, which is made on sweep iterates only).
  const auto extrapolate = [&] {
    if (!accelerate || !anderson.extrapolate(before.data()->data(), r.data()->data())) return;
    r.swap(before);
    sweeper.reset(r);
    checked = false;
  };

  // The drift jump: watched from kDriftFirstSweep on (the step needs the iterate before the sweep).
  const bool watch_drift = options.drift_jump && options.stall_window == 0;
  DriftWatch<VecT> watch{f_prev, accelerate};
  if (watch_drift) f_prev.assign(static_cast<std::size_t>(nc), VecT::Zero());
  // After a steady drift: r along the drift's step f (the last step, or under Anderson their mean)
  // to the first event, projected on the sets.
  // Returns whether it jumped (r, and the sweep's state, replaced).
  const auto jump = [&] {
    double s_star = std::numeric_limits<double>::infinity();
    for (int a = 0; a < nc; ++a) s_star = std::min(s_star, drift.event(a, r[a], f_prev[a]));
    const bool go = s_star > 1.0 && std::isfinite(s_star);
    if (go) {
      watch.judge(best_error);
      for (int a = 0; a < nc; ++a) r[a] = drift.project(a, r[a] + s_star * f_prev[a]);
      sweeper.reset(r);
      ++result.drift_jumps;
    }
    watch.forget();
    return go;
  };

  result.status = SolverStatus::max_iterations;
  for (int sweep = 1; sweep <= options.max_iterations; ++sweep) {
    // One Gauss–Seidel sweep with the exact local solve; local solves short of their tolerance
    // are counted (those of the last sweep are reported).
    if (options.shuffle) shuffle_order(order, rng);
    // Anderson and the drift watch: the iterate before the sweep.
    const bool watching = watch_drift && sweep >= kDriftFirstSweep;
    if (accelerate || watching) before.assign(r.begin(), r.end());
    const int failures = sweeper.sweep(r, omega, options.shuffle ? &order : nullptr, local_solve);
    result.local_failures = failures;
    result.local_failures_total += failures;
    result.iterations = sweep;
    checked = false;
    // Wall-clock limit (the error is evaluated at exit).
    if (elapsed() > options.max_time_s) {
      result.status = SolverStatus::max_time;
      break;
    }
    // A steady drift: the jump replaces the sweep's iterate, which Anderson's history must not
    // take as G(before); its error is evaluated after the next sweep.
    if (watching && watch.steady(r, before) && jump()) {
      if (accelerate) anderson.restart();
      next_check = std::min(next_check, sweep + 1);
      continue;
    }
    if (sweep < next_check) {
      extrapolate();
      continue;
    }

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
    extrapolate();
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
