// Tests of the block LU of the body-space Newton systems (src/nonsmooth/block_lu.cpp): its
// solves against a dense pivoting LU, its fill against Eigen's symbolic Cholesky of the same
// graph under the same ordering, and its refusals.
#include <coulomb/nonsmooth/block_lu.hpp>

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>

#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <utility>

namespace coulomb {
namespace {

using Mat6 = BlockLU6::Mat6;

// A symmetric block pattern: every block on the diagonal and `pairs` random pairs (i, j) with
// their transposes; values random, the diagonal blocks shifted by `shift` I.
struct BlockMatrix {
  int nb = 0;
  std::vector<std::int32_t> col_start, rows;
  BlockLU6::Blocks blocks;
  Eigen::MatrixXd dense;
};

BlockMatrix random_matrix(int nb, int pairs, unsigned seed, double shift) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> body(0, nb - 1);
  std::normal_distribution<double> normal;
  std::set<std::pair<int, int>> entries;  // (column, row)
  for (int i = 0; i < nb; ++i) entries.insert({i, i});
  for (int e = 0; e < pairs; ++e) {
    const int i = body(rng), j = body(rng);
    entries.insert({i, j});
    entries.insert({j, i});
  }
  BlockMatrix m;
  m.nb = nb;
  m.col_start.assign(static_cast<std::size_t>(nb) + 1, 0);
  m.dense = Eigen::MatrixXd::Zero(6 * nb, 6 * nb);
  for (const auto& [j, i] : entries) {  // sorted by column, then row
    m.rows.push_back(i);
    ++m.col_start[j + 1];
    Mat6 block;
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) block(r, c) = normal(rng);
    if (i == j) block += shift * Mat6::Identity();
    m.blocks.push_back(block);
    m.dense.block<6, 6>(6 * i, 6 * j) = block;
  }
  for (int j = 0; j < nb; ++j) m.col_start[j + 1] += m.col_start[j];
  return m;
}

// Blocks of the Cholesky factor of the graph (diagonal included), from Eigen's symbolic analysis
// under the same ordering (AMD).
std::int64_t cholesky_blocks(const BlockMatrix& m) {
  std::vector<Eigen::Triplet<double>> t;
  for (int j = 0; j < m.nb; ++j)
    for (std::int32_t e = m.col_start[j]; e < m.col_start[j + 1]; ++e)
      t.emplace_back(m.rows[e], j, m.rows[e] == j ? 1000.0 : -1.0);
  Eigen::SparseMatrix<double> graph(m.nb, m.nb);
  graph.setFromTriplets(t.begin(), t.end());
  const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>>
      cholesky(graph);
  EXPECT_EQ(cholesky.info(), Eigen::Success);
  return cholesky.matrixL().nestedExpression().nonZeros();
}

// Random graphs from one block to 120, sparse to dense: the solve agrees with a dense LU with
// partial pivoting to round-off (relative 1e-12: the matrices' condition numbers are below ~1e3,
// so a backward-stable solve is within ~1e-13), and the fill is the Cholesky factor's.
TEST(BlockLU6, SolvesRandomGraphsAsADenseLUDoes) {
  unsigned seed = 1;
  for (const auto& [nb, pairs] : std::vector<std::pair<int, int>>{
           {1, 0}, {2, 1}, {5, 4}, {30, 40}, {40, 300}, {100, 200}, {120, 600}}) {
    SCOPED_TRACE(nb);
    const BlockMatrix m = random_matrix(nb, pairs, seed++, 30.0);
    BlockLU6 lu;
    lu.analyze(nb, m.col_start, m.rows);
    ASSERT_TRUE(lu.factorize(m.blocks));
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal;
    Eigen::VectorXd b(6 * nb), x;
    for (Eigen::Index k = 0; k < b.size(); ++k) b[k] = normal(rng);
    lu.solve(b, x);
    const Eigen::VectorXd expected = m.dense.partialPivLu().solve(b);
    EXPECT_LE((x - expected).norm(), 1e-12 * expected.norm());
    EXPECT_EQ(lu.lower_blocks(), cholesky_blocks(m));
    EXPECT_EQ(lu.fill(), 36.0 * static_cast<double>(2 * lu.lower_blocks() - nb));
    // The same values again: the same bits (no state kept between factorisations).
    Eigen::VectorXd x2;
    ASSERT_TRUE(lu.factorize(m.blocks));
    lu.solve(b, x2);
    EXPECT_EQ(x, x2);
  }
}

// A chain of bodies (a tower): no fill, l = 2 nb − 1 blocks.
TEST(BlockLU6, AChainHasNoFill) {
  const int nb = 50;
  BlockMatrix m;
  m.nb = nb;
  m.col_start.push_back(0);
  for (int j = 0; j < nb; ++j) {
    for (int i = std::max(0, j - 1); i <= std::min(nb - 1, j + 1); ++i) {
      m.rows.push_back(i);
      m.blocks.push_back(i == j ? Mat6(4.0 * Mat6::Identity()) : Mat6(-Mat6::Identity()));
    }
    m.col_start.push_back(static_cast<std::int32_t>(m.rows.size()));
  }
  BlockLU6 lu;
  lu.analyze(nb, m.col_start, m.rows);
  EXPECT_EQ(lu.lower_blocks(), 2 * nb - 1);
  ASSERT_TRUE(lu.factorize(m.blocks));
  Eigen::VectorXd b = Eigen::VectorXd::Ones(6 * nb), x;
  lu.solve(b, x);
  // Row i: 4 x_i − x_{i−1} − x_{i+1} = 1.
  for (int i = 0; i < nb; ++i) {
    double row = 4.0 * x[6 * i];
    if (i > 0) row -= x[6 * (i - 1)];
    if (i + 1 < nb) row -= x[6 * (i + 1)];
    EXPECT_NEAR(row, 1.0, 1e-14);
  }
}

// Without pivoting between blocks, a zero pivot block is refused (a pivoting LU would solve
// [[0, I], [I, 0]]); so are non-finite values. The caller then falls back (prox_body.cpp).
TEST(BlockLU6, ASingularPivotOrANonFiniteValueIsRefused) {
  BlockMatrix m;
  m.nb = 2;
  m.col_start = {0, 2, 4};
  m.rows = {0, 1, 0, 1};
  m.blocks = {Mat6::Zero(), Mat6::Identity(), Mat6::Identity(), Mat6::Zero()};
  BlockLU6 lu;
  lu.analyze(2, m.col_start, m.rows);
  EXPECT_FALSE(lu.factorize(m.blocks));
  // Both pivots invertible with finite inverses, the first of condition 1e17 (above
  // 1 / kMinPivotRcond): refused by its condition.
  m.blocks[0] = Mat6::Identity();
  m.blocks[0](5, 5) = 1e-17;
  m.blocks[3] = 3.0 * Mat6::Identity();
  EXPECT_FALSE(lu.factorize(m.blocks));
  m.blocks[0] = 2.0 * Mat6::Identity();
  EXPECT_TRUE(lu.factorize(m.blocks));
  m.blocks[1](2, 3) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(lu.factorize(m.blocks));
}

}  // namespace
}  // namespace coulomb
