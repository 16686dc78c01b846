#pragma once
// The block compressed-row matrix W shared by ContactProblem (3×3 blocks) and ContactProblem6
// (6×6 blocks): dense copy, product, structure and symmetry checks. `fail` throws with the
// problem type's prefix. Internal to the nonsmooth module.

#include <Eigen/Core>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace coulomb::detail {

/// Dense W (D nc × D nc): every stored block scattered at its (row, column) position.
template <int D, class Problem>
Eigen::MatrixXd dense_w(const Problem& p) {
  const int nc = p.contact_count;
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(D * nc, D * nc);
  for (int i = 0; i < nc; ++i)
    for (std::int32_t k = p.row_start[i]; k < p.row_start[i + 1]; ++k)
      w.template block<D, D>(D * i, D * p.col[k]) = p.blocks[k];
  return w;
}

/// u_i = q_i + Σ_j W_ij r_j over the stored blocks of row i.
template <class Problem, class VecT>
void velocity(const Problem& p, const std::vector<VecT>& r, std::vector<VecT>& u) {
  u.resize(static_cast<std::size_t>(p.contact_count));
  for (int i = 0; i < p.contact_count; ++i) {
    VecT ui = p.q[i];
    for (std::int32_t k = p.row_start[i]; k < p.row_start[i + 1]; ++k)
      ui.noalias() += p.blocks[k] * r[p.col[k]];
    u[i] = ui;
  }
}

/// Index of block (i, j) in the block row i, or -1 if it is not stored (columns increasing).
template <class Problem>
std::int32_t find_block(const Problem& p, int i, int j) {
  const auto first = p.col.begin() + p.row_start[i];
  const auto last = p.col.begin() + p.row_start[i + 1];
  const auto it = std::lower_bound(first, last, j);
  if (it == last || *it != j) return -1;
  return static_cast<std::int32_t>(it - p.col.begin());
}

/// Shapes of q, diag, row_start, col and blocks; strictly increasing columns in range; diag
/// pointing at the stored diagonal blocks; finite q and W.
template <class Problem, class Fail>
void validate_pattern(const Problem& p, const Fail& fail) {
  const int nc = p.contact_count;
  if (nc < 0) fail("contact_count must be >= 0, got " + std::to_string(nc));
  const auto n = static_cast<std::size_t>(nc);
  if (p.q.size() != n) fail("q must have contact_count entries, has " + std::to_string(p.q.size()));
  if (p.diag.size() != n) fail("diag must have contact_count entries");
  if (p.row_start.size() != n + 1) fail("row_start must have contact_count + 1 entries");
  if (p.row_start[0] != 0) fail("row_start[0] must be 0");
  for (int i = 0; i < nc; ++i)
    if (p.row_start[i + 1] < p.row_start[i]) fail("row_start must be non-decreasing");
  const auto nnzb = static_cast<std::size_t>(p.row_start[n]);
  if (p.col.size() != nnzb || p.blocks.size() != nnzb)
    fail("col and blocks must have row_start[contact_count] entries");
  for (int i = 0; i < nc; ++i) {
    for (std::int32_t k = p.row_start[i]; k < p.row_start[i + 1]; ++k) {
      if (p.col[k] < 0 || p.col[k] >= nc)
        fail("block column out of range in row " + std::to_string(i));
      if (k > p.row_start[i] && p.col[k] <= p.col[k - 1])
        fail("block columns must be strictly increasing in row " + std::to_string(i));
    }
    if (p.diag[i] < p.row_start[i] || p.diag[i] >= p.row_start[i + 1] || p.col[p.diag[i]] != i)
      fail("diag[" + std::to_string(i) + "] must index the stored diagonal block of row " +
           std::to_string(i));
  }
  for (int i = 0; i < nc; ++i)
    if (!p.q[i].allFinite()) fail("q must be finite");
  for (const auto& b : p.blocks)
    if (!b.allFinite()) fail("W must be finite");
}

/// W_ij = W_jiᵀ up to round-off of the assembly: 1e-10 of the largest entry (the FCLIB files
/// are products J M⁻¹ Jᵀ computed in double precision).
template <class Problem, class Fail>
void validate_symmetry(const Problem& p, const Fail& fail) {
  using Block = typename std::decay_t<decltype(p.blocks)>::value_type;
  double w_max = 0.0;
  for (const Block& b : p.blocks) w_max = std::max(w_max, b.cwiseAbs().maxCoeff());
  const double sym_tol = 1e-10 * w_max;
  for (int i = 0; i < p.contact_count; ++i) {
    for (std::int32_t k = p.row_start[i]; k < p.row_start[i + 1]; ++k) {
      const int j = p.col[k];
      const std::int32_t kt = find_block(p, j, i);
      const Block transposed = kt < 0 ? Block(Block::Zero()) : Block(p.blocks[kt].transpose());
      if ((p.blocks[k] - transposed).cwiseAbs().maxCoeff() > sym_tol)
        fail("W must be symmetric: block (" + std::to_string(i) + ", " + std::to_string(j) +
             ") differs from the transpose of block (" + std::to_string(j) + ", " +
             std::to_string(i) + ")");
    }
  }
}

}  // namespace coulomb::detail
