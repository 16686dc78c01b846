#pragma once
/// @file
/// Loops of the step on every core (OpenMP), with results that do not depend on the number of
/// threads: each index writes only its own slots, and the counts summed are integers. Below a
/// size the loop runs as a plain loop, without entering a parallel region (an OpenMP region that
/// runs on one thread still costs libgomp's bookkeeping, system calls included). Built without
/// OpenMP (COULOMB_OPENMP=OFF), the pragmas are ignored and every loop is a plain one.

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace coulomb {

/// The threads a parallel loop would run on (1 without OpenMP).
inline int parallel_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/// Whether a loop of n indices runs on several threads: from `min` indices on, with more than one
/// thread. (A loop that would not may take a cheaper serial form than its parallel one.)
inline bool runs_parallel(std::ptrdiff_t n, std::ptrdiff_t min) {
  return n >= min && parallel_threads() > 1;
}

/// f(i) for i in [0, n): on every core from `min` indices on (static schedule), else in order (and
/// in order on one thread, without a parallel region).
template <class F>
void parallel_for(std::ptrdiff_t n, std::ptrdiff_t min, F&& f) {
  if (!runs_parallel(n, min)) {
    for (std::ptrdiff_t i = 0; i < n; ++i) f(i);
    return;
  }
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) f(i);
}

/// How a parallel count shares its indices between the threads.
enum class Schedule {
  /// One contiguous block per thread.
  fixed,
  /// Large contiguous chunks first, then smaller ones to whichever thread is free. For loops whose
  /// indices differ in cost and are independent of each other (a colour of the Gauss–Seidel sweep:
  /// contacts sharing no body), so that the schedule never changes a result. Why not one block
  /// per thread there: on the moving pile of 8000 spheres (bench/scenes.hpp, drop_pile(8000), 330
  /// steps, two threads) the second half of a colour took 1.4 times the first (its contacts slide
  /// more), so one thread waited ~27 % of the colours' time; a cyclic schedule (chunks of 16, or
  /// dynamic chunks of 32) balanced the threads but cost each 1.3 times the work (neighbouring
  /// chunks' bodies share cache lines across threads); guided kept the locality and the balance
  /// (docs/benchmarks.md, sixteenth wave).
  guided,
};

/// Σ f(i) for i in [0, n) (f returns an int: a count), run as parallel_for (or on the guided
/// schedule).
template <class F>
int parallel_count(std::ptrdiff_t n, std::ptrdiff_t min, F&& f,
                   Schedule schedule = Schedule::fixed) {
  int sum = 0;
  if (!runs_parallel(n, min)) {
    for (std::ptrdiff_t i = 0; i < n; ++i) sum += f(i);
    return sum;
  }
  if (schedule == Schedule::guided) {
#pragma omp parallel for schedule(guided) reduction(+ : sum)
    for (std::ptrdiff_t i = 0; i < n; ++i) sum += f(i);
  } else {
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (std::ptrdiff_t i = 0; i < n; ++i) sum += f(i);
  }
  return sum;
}

/// sum[j] += f(i)[j] for i = 0, 1, ..., n − 1 in that order (f returns K doubles): on several
/// threads the terms are computed on every core into `terms` (scratch), then added in index order;
/// on one thread they are added as they are computed. The same bits either way, for any threads.
template <std::size_t K, class F>
void parallel_ordered_sum(std::ptrdiff_t n, std::ptrdiff_t min,
                          std::vector<std::array<double, K>>& terms, std::array<double, K>& sum,
                          F&& f) {
  const auto add = [&sum](const std::array<double, K>& t) {
    for (std::size_t j = 0; j < K; ++j) sum[j] += t[j];
  };
  if (!runs_parallel(n, min)) {
    for (std::ptrdiff_t i = 0; i < n; ++i) add(f(i));
    return;
  }
  terms.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) terms[static_cast<std::size_t>(i)] = f(i);
  for (const std::array<double, K>& t : terms) add(t);
}

/// Sums of floating-point terms over [0, n) on every core, with bits that do not depend on the
/// threads: [0, n) is cut into blocks of `block` indices (a size the caller fixes, never the
/// threads), f(begin, end, partial) adds the terms of [begin, end) into `partial` (zeroed) in
/// index order, and the blocks' partial sums are added to `sum` in block order. The blocks run on
/// every core when there are at least two of them and more than one thread; on one thread they
/// run in order, with the same additions. Below `min` indices, [0, n) is one block (a loop too
/// short to share). `partials` is scratch (one row a block).
template <std::size_t K, class F>
void parallel_blocked_sums(std::ptrdiff_t n, std::ptrdiff_t min, std::ptrdiff_t block,
                           std::vector<std::array<double, K>>& partials, std::array<double, K>& sum,
                           F&& f) {
  if (n < min) block = n > 0 ? n : 1;
  const std::ptrdiff_t blocks = n > 0 ? (n + block - 1) / block : 0;
  partials.resize(static_cast<std::size_t>(blocks));
  const auto run = [&](std::ptrdiff_t b) {
    std::array<double, K>& partial = partials[static_cast<std::size_t>(b)];
    partial.fill(0.0);
    f(b * block, std::min(n, (b + 1) * block), partial);
  };
  parallel_for(blocks, 2, run);
  for (const std::array<double, K>& partial : partials)
    for (std::size_t j = 0; j < K; ++j) sum[j] += partial[j];
}

/// terms[i] = f(i) for i in [0, n), run as parallel_for (terms is resized to n). For sums of
/// floating-point terms that must not depend on the threads: the caller adds terms[i] in index
/// order afterwards, which gives the bits of the plain loop `for i: sum += f(i)`.
template <class T, class F>
void parallel_terms(std::ptrdiff_t n, std::ptrdiff_t min, std::vector<T>& terms, F&& f) {
  terms.resize(static_cast<std::size_t>(n));
  parallel_for(n, min, [&](std::ptrdiff_t i) { terms[static_cast<std::size_t>(i)] = f(i); });
}

}  // namespace coulomb
