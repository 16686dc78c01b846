/// @file
/// ContactProblem: the local frictional contact problem as a value (block-sparse W, q, μ).
/// Data layout: W is a block compressed-row matrix of 3×3 row-major blocks because the
/// Gauss–Seidel sweep reads one block row at a time (coulomb/nonsmooth/problem.hpp).

#include <coulomb/nonsmooth/problem.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>

namespace coulomb {

void ContactProblem::clear() {
  contact_count = 0;
  mu.clear();
  q.clear();
  row_start.clear();
  col.clear();
  blocks.clear();
  diag.clear();
}

Eigen::MatrixXd ContactProblem::dense_w() const {
  const int nc = contact_count;
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(3 * nc, 3 * nc);
  // Scatter every stored block at its (row, column) position.
  for (int i = 0; i < nc; ++i) {
    for (std::int32_t k = row_start[i]; k < row_start[i + 1]; ++k) {
      w.block<3, 3>(3 * i, 3 * col[k]) = blocks[k];
    }
  }
  return w;
}

void ContactProblem::velocity(const std::vector<Vec3>& r, std::vector<Vec3>& u) const {
  assert(static_cast<int>(r.size()) == contact_count);
  u.resize(contact_count);
  // u_i = q_i + Σ_j W_ij r_j over the stored blocks of row i.
  for (int i = 0; i < contact_count; ++i) {
    Vec3 ui = q[i];
    for (std::int32_t k = row_start[i]; k < row_start[i + 1]; ++k) {
      ui.noalias() += blocks[k] * r[col[k]];
    }
    u[i] = ui;
  }
}

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("ContactProblem: " + what);
}

// Index of block (i, j) in the block row i, or -1 if it is not stored (columns are increasing).
std::int32_t find_block(const ContactProblem& p, int i, int j) {
  const auto first = p.col.begin() + p.row_start[i];
  const auto last = p.col.begin() + p.row_start[i + 1];
  const auto it = std::lower_bound(first, last, j);
  if (it == last || *it != j) return -1;
  return static_cast<std::int32_t>(it - p.col.begin());
}

}  // namespace

void ContactProblem::validate_structure() const {
  const int nc = contact_count;
  const auto n = static_cast<std::size_t>(nc);
  // Shapes.
  if (nc < 0) fail("contact_count must be >= 0, got " + std::to_string(nc));
  if (mu.size() != n) fail("mu must have contact_count entries, has " + std::to_string(mu.size()));
  if (q.size() != n) fail("q must have contact_count entries, has " + std::to_string(q.size()));
  if (diag.size() != n) fail("diag must have contact_count entries");
  if (row_start.size() != n + 1) fail("row_start must have contact_count + 1 entries");
  if (row_start[0] != 0) fail("row_start[0] must be 0");
  for (int i = 0; i < nc; ++i) {
    if (row_start[i + 1] < row_start[i]) fail("row_start must be non-decreasing");
  }
  const auto nnzb = static_cast<std::size_t>(row_start[n]);
  if (col.size() != nnzb || blocks.size() != nnzb) {
    fail("col and blocks must have row_start[contact_count] entries");
  }
  // Columns increasing and in range, diagonal index right.
  for (int i = 0; i < nc; ++i) {
    for (std::int32_t k = row_start[i]; k < row_start[i + 1]; ++k) {
      if (col[k] < 0 || col[k] >= nc) fail("block column out of range in row " + std::to_string(i));
      if (k > row_start[i] && col[k] <= col[k - 1]) {
        fail("block columns must be strictly increasing in row " + std::to_string(i));
      }
    }
    if (diag[i] < row_start[i] || diag[i] >= row_start[i + 1] || col[diag[i]] != i) {
      fail("diag[" + std::to_string(i) + "] must index the stored diagonal block of row " +
           std::to_string(i));
    }
  }
  // Finite values, μ >= 0.
  for (int i = 0; i < nc; ++i) {
    if (!std::isfinite(mu[i]) || mu[i] < 0.0) fail("mu must be finite and >= 0");
    if (!q[i].allFinite()) fail("q must be finite");
  }
  for (const Block3& b : blocks) {
    if (!b.allFinite()) fail("W must be finite");
  }
}

void ContactProblem::validate() const {
  validate_structure();
  const int nc = contact_count;
  double w_max = 0.0;
  for (const Block3& b : blocks) w_max = std::max(w_max, b.cwiseAbs().maxCoeff());
  // Symmetry W_ij = W_ji^T up to round-off of the assembly (1e-10 of the largest entry: the
  // FCLIB files are products J M^-1 J^T computed in double precision).
  const double sym_tol = 1e-10 * w_max;
  for (int i = 0; i < nc; ++i) {
    for (std::int32_t k = row_start[i]; k < row_start[i + 1]; ++k) {
      const int j = col[k];
      const std::int32_t kt = find_block(*this, j, i);
      const Block3 transposed = kt < 0 ? Block3::Zero() : Block3(blocks[kt].transpose());
      if ((blocks[k] - transposed).cwiseAbs().maxCoeff() > sym_tol) {
        fail("W must be symmetric: block (" + std::to_string(i) + ", " + std::to_string(j) +
             ") differs from the transpose of block (" + std::to_string(j) + ", " +
             std::to_string(i) + ")");
      }
    }
  }
}

}  // namespace coulomb
