/// @file
/// Sparse LU of a symmetric-pattern matrix of 6×6 blocks (equations in
/// coulomb/nonsmooth/block_lu.hpp).

#include <coulomb/nonsmooth/block_lu.hpp>

#include <Eigen/LU>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>

#include <algorithm>

namespace coulomb {

void BlockLU6::analyze(int block_count, const std::vector<std::int32_t>& col_start,
                       const std::vector<std::int32_t>& rows) {
  const int nb = block_count;
  block_count_ = nb;
  col_start_ = col_start;
  rows_ = rows;
  // The ordering, on the block graph (values unused).
  Eigen::SparseMatrix<double, Eigen::ColMajor, int> graph(nb, nb);
  graph.resizeNonZeros(static_cast<Eigen::Index>(rows.size()));
  std::copy(col_start.begin(), col_start.end(), graph.outerIndexPtr());
  std::copy(rows.begin(), rows.end(), graph.innerIndexPtr());
  std::fill(graph.valuePtr(), graph.valuePtr() + graph.nonZeros(), 1.0);
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> perm;
  Eigen::AMDOrdering<int>()(graph, perm);
  // The ordering's indices are the blocks in elimination order (Eigen's orderings give P⁻¹).
  node_at_.assign(perm.indices().data(), perm.indices().data() + nb);
  position_.resize(static_cast<std::size_t>(nb));
  for (int k = 0; k < nb; ++k) position_[node_at_[k]] = k;
  // Row subtrees on the elimination tree, built as it goes (Liu): R_k, sorted.
  parent_.assign(static_cast<std::size_t>(nb), -1);
  flag_.assign(static_cast<std::size_t>(nb), -1);
  reach_start_.assign(static_cast<std::size_t>(nb) + 1, 0);
  reach_.clear();
  for (int k = 0; k < nb; ++k) {
    flag_[k] = k;
    const int j = node_at_[k];
    for (std::int32_t e = col_start[j]; e < col_start[j + 1]; ++e) {
      for (int i = position_[rows[e]]; i < k && flag_[i] != k; i = parent_[i]) {
        if (parent_[i] == -1) parent_[i] = k;
        flag_[i] = k;
        reach_.push_back(i);
      }
    }
    std::sort(reach_.begin() + reach_start_[k], reach_.end());
    reach_start_[k + 1] = static_cast<std::int32_t>(reach_.size());
  }
  lower_blocks_ = nb + static_cast<std::int64_t>(reach_.size());
  // Where each block's transpose and each diagonal block are stored.
  diagonal_.assign(static_cast<std::size_t>(nb), -1);
  transposed_.resize(rows.size());
  for (int j = 0; j < nb; ++j) {
    for (std::int32_t e = col_start[j]; e < col_start[j + 1]; ++e) {
      const std::int32_t i = rows[e];
      if (i == j) diagonal_[j] = e;
      const auto first = rows.begin() + col_start[i];
      const auto last = rows.begin() + col_start[i + 1];
      transposed_[e] = static_cast<std::int32_t>(std::lower_bound(first, last, j) - rows.begin());
    }
  }
}

bool BlockLU6::factorize(const Blocks& blocks) {
  const int nb = block_count_;
  // The factors' storage at the first factorisation of a pattern (none for a pattern only
  // analysed, as when its cost refuses the iteration).
  lower_.resize(reach_.size());
  upper_.resize(reach_.size());
  pivot_inverse_.resize(static_cast<std::size_t>(nb));
  x_.resize(static_cast<std::size_t>(nb));
  y_.resize(static_cast<std::size_t>(nb));
  z_.resize(6 * static_cast<Eigen::Index>(nb));
  std::fill(flag_.begin(), flag_.end(), -1);
  for (int k = 0; k < nb; ++k) {
    const std::int32_t first = reach_start_[k], last = reach_start_[k + 1];
    for (std::int32_t q = first; q < last; ++q) {
      x_[reach_[q]].setZero();
      y_[reach_[q]].setZero();
      flag_[reach_[q]] = k;
    }
    // Column k of A above the diagonal into x, row k left of it into y.
    const int node = node_at_[k];
    for (std::int32_t e = col_start_[node]; e < col_start_[node + 1]; ++e) {
      const int i = position_[rows_[e]];
      if (i < k) {
        x_[i] = blocks[e];
        y_[i] = blocks[transposed_[e]];
      }
    }
    Mat6 pivot = blocks[diagonal_[node]];
    for (std::int32_t q = first; q < last; ++q) {
      const int i = reach_[q];
      Mat6 xi = x_[i];
      Mat6 yi = y_[i];
      for (std::int32_t p = reach_start_[i]; p < reach_start_[i + 1]; ++p) {
        const int j = reach_[p];
        if (flag_[j] != k) continue;  // U(j, k) = L(k, j) = 0
        xi.noalias() -= lower_[p] * x_[j];
        yi.noalias() -= y_[j] * upper_[p];
      }
      upper_[q] = xi;
      x_[i] = xi;
      lower_[q].noalias() = yi * pivot_inverse_[i];
      y_[i] = lower_[q];
      pivot.noalias() -= lower_[q] * xi;
    }
    const Eigen::PartialPivLU<Mat6> lu(pivot);
    if (!(lu.rcond() >= kMinPivotRcond)) return false;  // NaN included
    pivot_inverse_[k] = lu.inverse();
    if (!pivot_inverse_[k].allFinite()) return false;
  }
  return true;
}

void BlockLU6::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  const int nb = block_count_;
  for (int k = 0; k < nb; ++k) z_.segment<6>(6 * k) = b.segment<6>(6 * node_at_[k]);
  // L z = P b, L by rows.
  for (int k = 0; k < nb; ++k) {
    Eigen::Matrix<double, 6, 1> zk = z_.segment<6>(6 * k);
    for (std::int32_t q = reach_start_[k]; q < reach_start_[k + 1]; ++q)
      zk.noalias() -= lower_[q] * z_.segment<6>(6 * reach_[q]);
    z_.segment<6>(6 * k) = zk;
  }
  // U y = z, U by columns, last first.
  for (int k = nb - 1; k >= 0; --k) {
    const Eigen::Matrix<double, 6, 1> yk = pivot_inverse_[k] * z_.segment<6>(6 * k);
    z_.segment<6>(6 * k) = yk;
    for (std::int32_t q = reach_start_[k]; q < reach_start_[k + 1]; ++q)
      z_.segment<6>(6 * reach_[q]).noalias() -= upper_[q] * yk;
  }
  x.resize(6 * static_cast<Eigen::Index>(nb));
  for (int k = 0; k < nb; ++k) x.segment<6>(6 * node_at_[k]) = z_.segment<6>(6 * k);
}

}  // namespace coulomb
