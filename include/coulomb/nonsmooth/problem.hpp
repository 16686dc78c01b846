#pragma once
/// @file
/// The local frictional contact problem of one step, as a plain value (FCLIB "local" layout).
///
///   find r, u in R^{3 nc}:  u = W r + q,  and for every contact α
///   K_α* ∋ û_α ⊥ r_α ∈ K_α,   û_α = u_α + [μ_α ‖u_{T,α}‖, 0, 0]   (De Saxcé's modified velocity)
///
/// with K_α = {r : ‖r_T‖ ≤ μ_α r_N} the exact circular Coulomb cone. Per contact the unknowns are
/// ordered (N, T1, T2): normal first, as in FCLIB and Siconos.
/// Units: r is an impulse [N s], u a velocity [m/s], W [m/(N s²)] = [1/kg], q [m/s].
///
/// W is symmetric positive semi-definite, stored as a block-sparse matrix of 3×3 blocks in
/// compressed-row form (the layout the Gauss–Seidel sweep reads row by row).

#include <coulomb/math/types.hpp>

#include <cstdint>
#include <vector>

namespace coulomb {

/// A 3×3 block, row-major, (N, T1, T2) ordering.
using Block3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

struct ContactProblem {
  int contact_count = 0;                ///< nc
  std::vector<double> mu;               ///< (nc) friction coefficients [-]
  std::vector<Vec3> q;                  ///< (nc) free velocity (N, T1, T2) [m/s]
  std::vector<std::int32_t> row_start;  ///< (nc+1) first block of each block row
  std::vector<std::int32_t> col;        ///< (nnzb) block column of each block, increasing per row
  std::vector<Block3, Eigen::aligned_allocator<Block3>> blocks;  ///< (nnzb) W blocks
  std::vector<std::int32_t> diag;  ///< (nc) index of the diagonal block of each row

  /// Empties the problem, keeping capacity.
  void clear();
  /// Dense W (3nc × 3nc), for tests and small problems.
  [[nodiscard]] Eigen::MatrixXd dense_w() const;
  /// u = W r + q.
  void velocity(const std::vector<Vec3>& r, std::vector<Vec3>& u) const;
  /// Checks shapes, symmetry and finiteness; throws std::invalid_argument with what is wrong.
  void validate() const;
  /// Checks shapes, index ranges, finiteness and μ >= 0 but not symmetry (some published FCLIB
  /// problems have W symmetric only to 1e-3 relative); throws std::invalid_argument.
  void validate_structure() const;
};

}  // namespace coulomb
