#pragma once
/// @file
/// Sparse LU of a matrix of 6×6 blocks whose block pattern is symmetric (the body-space Newton
/// matrix M + Jᵀ D J of PROX, prox_body.cpp: one block per pair of bodies in contact), without
/// pivoting between blocks.
///
/// Ordering: approximate minimum degree (Eigen::AMDOrdering) on the block graph, applied
/// symmetrically, A = P H Pᵀ. Symbolic analysis (once per pattern): the elimination tree and, for
/// every block row k, the sorted set R_k of the earlier block columns i < k where L(k, i) ≠ 0 —
/// Liu's row subtree: each off-diagonal entry A(k, j), j < k, climbs the tree from j to the first
/// node already marked for k. The pattern being symmetric, U(i, k) ≠ 0 exactly for i ∈ R_k, so L
/// by rows and U by columns share the index lists (the fill of a Cholesky factor of the graph).
///
/// Factorisation A = L U, L unit block-lower-triangular, U block-upper-triangular with pivot
/// blocks U_kk; row k of L and column k of U together ("up-looking"), for i ∈ R_k ascending:
///
///   U(i, k) = A(i, k) − Σ_{j ∈ R_i ∩ R_k} L(i, j) U(j, k)
///   L(k, i) = (A(k, i) − Σ_{j ∈ R_i ∩ R_k} L(k, j) U(j, i)) U_ii⁻¹
///   U_kk    = A(k, k) − Σ_{i ∈ R_k} L(k, i) U(i, k)
///
/// (the terms j ∉ R_k vanish: U(j, k) = L(k, j) = 0; R_k is marked while row k is formed).
/// U_kk is inverted by a dense LU with partial pivoting — the only pivoting: factorize() refuses
/// (returns false) when a pivot block's reciprocal condition estimate is below kMinPivotRcond or
/// anything is not finite, and the caller falls back to a pivoting LU. Without pivoting between
/// blocks the factorisation exists for a matrix whose symmetric part is positive definite (so is
/// every leading submatrix's, hence every pivot block is invertible), with a growth bounded by the
/// size of the skew part against the symmetric one (Golub & Van Loan, Matrix Computations, §4.4
/// on unsymmetric positive definite systems): M + Jᵀ D J with D = I/η for a sticking contact is
/// symmetric positive definite, a sliding contact's D is not symmetric, so the caller checks the
/// backward error of the solve and refines (prox_body.cpp). Work: 2·216 multiply-adds per pair
/// (j, i) with j ∈ R_i ∩ R_k, i ∈ R_k, for every k; no symbolic work per factorisation;
/// deterministic (one fixed order of operations); no allocation after a pattern's first
/// factorisation.
///
/// Units: whatever H's are (prox_body.cpp: kg, kg m, kg m²); the solve returns H⁻¹ b.

#include <coulomb/math/types.hpp>

#include <cstdint>
#include <vector>

namespace coulomb {

class BlockLU6 {
 public:
  using Mat6 = Eigen::Matrix<double, 6, 6>;
  using Blocks = std::vector<Mat6, Eigen::aligned_allocator<Mat6>>;

  /// Below this reciprocal condition estimate of a pivot block, factorize() refuses.
  static constexpr double kMinPivotRcond = 1e-13;

  /// The symbolic analysis of the block pattern: block column J holds the sorted block rows
  /// rows[col_start[J] .. col_start[J + 1]) (J itself included); the pattern must be symmetric.
  void analyze(int block_count, const std::vector<std::int32_t>& col_start,
               const std::vector<std::int32_t>& rows);

  /// Factorises the matrix whose block (rows[e], J) is blocks[e] for e in block column J (the
  /// pattern of the last analyze). False when a pivot block is singular or ill-conditioned
  /// (kMinPivotRcond) or a value is not finite; the factors are then unusable.
  [[nodiscard]] bool factorize(const Blocks& blocks);

  /// x = A⁻¹ b with the last successful factorisation (x may not alias b).
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;

  /// Blocks of L, diagonal included (the same count in U): Σ_k (|R_k| + 1).
  [[nodiscard]] std::int64_t lower_blocks() const { return lower_blocks_; }
  /// nnz(L) + nnz(U), the blocks taken dense and the diagonal once: 36 (2 l − n_b).
  [[nodiscard]] double fill() const {
    return 36.0 * static_cast<double>(2 * lower_blocks_ - block_count_);
  }

 private:
  int block_count_ = 0;
  std::int64_t lower_blocks_ = 0;
  std::vector<int> node_at_, position_;            // elimination order ↔ block index
  std::vector<int> parent_, flag_;                 // elimination tree, marks
  std::vector<std::int32_t> reach_start_, reach_;  // R_k, sorted, in elimination order
  std::vector<std::int32_t> diagonal_;             // entry e of block (J, J)
  std::vector<std::int32_t> transposed_;           // entry of block (J, I) for entry e = (I, J)
  std::vector<std::int32_t> col_start_, rows_;     // the analysed pattern
  Blocks lower_, upper_, pivot_inverse_;           // L(k, R_k), U(R_k, k), U_kk⁻¹
  Blocks x_, y_;                                   // scratch: U(·, k), L(k, ·) by node
  mutable Eigen::VectorXd z_;                      // scratch of solve
};

}  // namespace coulomb
