// The parallel loops' sums do not depend on the threads (coulomb/math/parallel.hpp): blocked
// sums of floating-point terms give the same bits on 1, 2 and 4 threads, and those bits are the
// sum of each block in index order, the blocks added in order.
#include <coulomb/math/parallel.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace coulomb {
namespace {

// Terms spread over 30 decades, so that any other order of the additions changes the bits.
std::vector<double> spread_terms(std::size_t n) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-15, 15);
  std::vector<double> t(n);
  for (double& x : t) x = std::ldexp(mantissa(rng), exponent(rng) * 3);
  return t;
}

std::array<double, 2> blocked(const std::vector<double>& t, std::ptrdiff_t block,
                              std::ptrdiff_t min = 0) {
  std::vector<std::array<double, 2>> partials;
  std::array<double, 2> sum{0.0, 0.0};
  parallel_blocked_sums(static_cast<std::ptrdiff_t>(t.size()), min, block, partials, sum,
                        [&](std::ptrdiff_t begin, std::ptrdiff_t end, std::array<double, 2>& p) {
                          for (std::ptrdiff_t i = begin; i < end; ++i) {
                            p[0] += t[static_cast<std::size_t>(i)];
                            p[1] += t[static_cast<std::size_t>(i)] * t[static_cast<std::size_t>(i)];
                          }
                        });
  return sum;
}

TEST(ParallelBlockedSums, AreEachBlockInOrderThenTheBlocksInOrder) {
  for (const std::size_t n : {0UL, 1UL, 767UL, 768UL, 769UL, 10000UL}) {
    SCOPED_TRACE(n);
    const std::vector<double> t = spread_terms(n);
    constexpr std::ptrdiff_t kBlock = 768;
    // The definition, written out serially.
    std::array<double, 2> expected{0.0, 0.0};
    for (std::size_t b = 0; b < n; b += kBlock) {
      double s0 = 0.0, s1 = 0.0;
      for (std::size_t i = b; i < std::min(n, b + kBlock); ++i) {
        s0 += t[i];
        s1 += t[i] * t[i];
      }
      expected[0] += s0;
      expected[1] += s1;
    }
    const std::array<double, 2> got = blocked(t, kBlock);
    EXPECT_EQ(std::memcmp(got.data(), expected.data(), sizeof got), 0);
  }
}

TEST(ParallelBlockedSums, BelowTheirMinimumAreOnePlainLoop) {
  // Below `min` indices [0, n) is one block: the bits of `for i: sum += term(i)`; from `min`
  // on, the blocks (whose bits differ for these spread terms, else the test proves nothing).
  constexpr std::ptrdiff_t kBlock = 768, kMin = 1536;
  for (const std::size_t n : {0UL, 1UL, 769UL, 1535UL}) {
    SCOPED_TRACE(n);
    const std::vector<double> t = spread_terms(n);
    std::array<double, 2> plain{0.0, 0.0};
    for (const double x : t) {
      plain[0] += x;
      plain[1] += x * x;
    }
    const std::array<double, 2> got = blocked(t, kBlock, kMin);
    EXPECT_EQ(std::memcmp(got.data(), plain.data(), sizeof got), 0);
    if (n == 1535) {  // two long blocks (at 769 the second holds one term: the same bits)
      const std::array<double, 2> in_blocks = blocked(t, kBlock);
      EXPECT_NE(std::memcmp(in_blocks.data(), plain.data(), sizeof got), 0);
    }
  }
  const std::vector<double> t = spread_terms(kMin);
  const std::array<double, 2> at_min = blocked(t, kBlock, kMin), in_blocks = blocked(t, kBlock);
  EXPECT_EQ(std::memcmp(at_min.data(), in_blocks.data(), sizeof at_min), 0);
}

TEST(ParallelBlockedSums, AreBitIdenticalForOneTwoAndFourThreads) {
#ifndef _OPENMP
  GTEST_SKIP() << "built without OpenMP (COULOMB_OPENMP=OFF): one thread only";
#else
  const std::vector<double> t = spread_terms(100000);
  const int threads_before = omp_get_max_threads();
  std::vector<std::array<double, 2>> sums;
  for (const int threads : {1, 2, 4}) {
    omp_set_num_threads(threads);
    sums.push_back(blocked(t, 768));
  }
  omp_set_num_threads(threads_before);
  EXPECT_EQ(std::memcmp(sums[0].data(), sums[1].data(), sizeof sums[0]), 0);
  EXPECT_EQ(std::memcmp(sums[0].data(), sums[2].data(), sizeof sums[0]), 0);
  // The order matters at all (else the test proves nothing): the plain sum differs.
  double plain = 0.0;
  for (const double x : t) plain += x;
  EXPECT_NE(plain, sums[0][0]);
#endif
}

}  // namespace
}  // namespace coulomb
