#pragma once
/// @file
/// Loops of the step on every core (OpenMP), with results that do not depend on the number of
/// threads: each index writes only its own slots, and the counts summed are integers. Below a
/// size the loop runs as a plain loop, without entering a parallel region (an OpenMP region that
/// runs on one thread still costs libgomp's bookkeeping, system calls included). Built without
/// OpenMP (COULOMB_OPENMP=OFF), the pragmas are ignored and every loop is a plain one.

#include <cstddef>
#include <vector>

namespace coulomb {

/// f(i) for i in [0, n): on every core from `min` indices on (static schedule), else in order.
template <class F>
void parallel_for(std::ptrdiff_t n, std::ptrdiff_t min, F&& f) {
  if (n < min) {
    for (std::ptrdiff_t i = 0; i < n; ++i) f(i);
    return;
  }
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) f(i);
}

/// Σ f(i) for i in [0, n) (f returns an int: a count), run as parallel_for.
template <class F>
int parallel_count(std::ptrdiff_t n, std::ptrdiff_t min, F&& f) {
  int sum = 0;
  if (n < min) {
    for (std::ptrdiff_t i = 0; i < n; ++i) sum += f(i);
    return sum;
  }
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::ptrdiff_t i = 0; i < n; ++i) sum += f(i);
  return sum;
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
