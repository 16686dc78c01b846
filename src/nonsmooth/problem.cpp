/// @file
/// ContactProblem<N>: the local frictional contact problem as a value (block-sparse W, q, laws),
/// for both sizes (coulomb/nonsmooth/problem.hpp). Data layout: W is a block compressed-row matrix
/// of N×N row-major blocks because the Gauss–Seidel sweep reads one block row at a time.

#include <coulomb/nonsmooth/problem.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>

namespace coulomb {

namespace {

// The law of one contact, per size; throws std::invalid_argument with what is wrong.
// μ = +∞ is the no-slip law (coulomb/nonsmooth/no_slip.hpp).
void validate_law(double mu) {
  if (std::isnan(mu) || mu < 0.0) throw std::invalid_argument("mu must be >= 0 (+inf: no slip)");
}
void validate_law(const ContactLaw6& law) { law.validate(); }

template <int N>
[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument(std::string(N == kForce ? "ForceProblem: " : "WrenchProblem: ") +
                              what);
}

// Index of block (i, j) in the block row i, or -1 if it is not stored (columns increasing).
template <int N>
std::int32_t find_block(const ContactProblem<N>& p, int i, int j) {
  const auto first = p.col.begin() + p.row_start[i];
  const auto last = p.col.begin() + p.row_start[i + 1];
  const auto it = std::lower_bound(first, last, j);
  if (it == last || *it != j) return -1;
  return static_cast<std::int32_t>(it - p.col.begin());
}

// The joint blocks: at most nc of them, lo ≤ hi, no NaN.
template <int N>
void validate_joint_rows(const std::vector<JointRows<N>>& rows, int nc) {
  if (static_cast<int>(rows.size()) > nc) fail<N>("more joint blocks than blocks");
  for (std::size_t j = 0; j < rows.size(); ++j)
    if (rows[j].lo.hasNaN() || rows[j].hi.hasNaN() ||
        (rows[j].lo.array() > rows[j].hi.array()).any())
      fail<N>("joint block " + std::to_string(j) + ": bounds must satisfy lo <= hi");
}

}  // namespace

template <int N>
void ContactProblem<N>::clear() {
  contact_count = 0;
  laws.clear();
  q.clear();
  row_start.clear();
  col.clear();
  blocks.clear();
  diag.clear();
  joint_rows.clear();
}

template <int N>
Eigen::MatrixXd ContactProblem<N>::dense_w() const {
  // Every stored block scattered at its (row, column) position.
  const int nc = contact_count;
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(N * nc, N * nc);
  for (int i = 0; i < nc; ++i)
    for (std::int32_t k = row_start[i]; k < row_start[i + 1]; ++k)
      w.template block<N, N>(N * i, N * col[k]) = blocks[k];
  return w;
}

template <int N>
void ContactProblem<N>::velocity(const std::vector<Vec>& r, std::vector<Vec>& u) const {
  assert(static_cast<int>(r.size()) == contact_count);
  // u_i = q_i + Σ_j W_ij r_j over the stored blocks of row i.
  u.resize(static_cast<std::size_t>(contact_count));
  for (int i = 0; i < contact_count; ++i) {
    Vec ui = q[i];
    for (std::int32_t k = row_start[i]; k < row_start[i + 1]; ++k)
      ui.noalias() += blocks[k] * r[col[k]];
    u[i] = ui;
  }
}

template <int N>
void ContactProblem<N>::validate_structure() const {
  // Shapes of q, diag, row_start, col and blocks; strictly increasing columns in range; diag
  // pointing at the stored diagonal blocks; finite q and W.
  const int nc = contact_count;
  if (nc < 0) fail<N>("contact_count must be >= 0, got " + std::to_string(nc));
  const auto n = static_cast<std::size_t>(nc);
  if (q.size() != n) fail<N>("q must have contact_count entries, has " + std::to_string(q.size()));
  if (diag.size() != n) fail<N>("diag must have contact_count entries");
  if (row_start.size() != n + 1) fail<N>("row_start must have contact_count + 1 entries");
  if (row_start[0] != 0) fail<N>("row_start[0] must be 0");
  for (int i = 0; i < nc; ++i)
    if (row_start[i + 1] < row_start[i]) fail<N>("row_start must be non-decreasing");
  const auto nnzb = static_cast<std::size_t>(row_start[n]);
  if (col.size() != nnzb || blocks.size() != nnzb)
    fail<N>("col and blocks must have row_start[contact_count] entries");
  for (int i = 0; i < nc; ++i) {
    for (std::int32_t k = row_start[i]; k < row_start[i + 1]; ++k) {
      if (col[k] < 0 || col[k] >= nc)
        fail<N>("block column out of range in row " + std::to_string(i));
      if (k > row_start[i] && col[k] <= col[k - 1])
        fail<N>("block columns must be strictly increasing in row " + std::to_string(i));
    }
    if (diag[i] < row_start[i] || diag[i] >= row_start[i + 1] || col[diag[i]] != i)
      fail<N>("diag[" + std::to_string(i) + "] must index the stored diagonal block of row " +
              std::to_string(i));
  }
  for (int i = 0; i < nc; ++i)
    if (!q[i].allFinite()) fail<N>("q must be finite");
  for (const auto& b : blocks)
    if (!b.allFinite()) fail<N>("W must be finite");
  // The laws: one per contact, each valid.
  if (laws.size() != q.size())
    fail<N>("laws must have contact_count entries, has " + std::to_string(laws.size()));
  for (std::size_t i = 0; i < laws.size(); ++i) {
    try {
      validate_law(laws[i]);
    } catch (const std::invalid_argument& e) {
      fail<N>("contact " + std::to_string(i) + ": " + e.what());
    }
  }
  validate_joint_rows<N>(joint_rows, contact_count);
}

template <int N>
void ContactProblem<N>::validate() const {
  validate_structure();
  // W_ij = W_jiᵀ up to round-off of the assembly: 1e-10 of the largest entry (the FCLIB files
  // are products J M⁻¹ Jᵀ computed in double precision).
  double w_max = 0.0;
  for (const Block& b : blocks) w_max = std::max(w_max, b.cwiseAbs().maxCoeff());
  const double sym_tol = 1e-10 * w_max;
  for (int i = 0; i < contact_count; ++i) {
    for (std::int32_t k = row_start[i]; k < row_start[i + 1]; ++k) {
      const int j = col[k];
      const std::int32_t kt = find_block(*this, j, i);
      const Block transposed = kt < 0 ? Block(Block::Zero()) : Block(blocks[kt].transpose());
      if ((blocks[k] - transposed).cwiseAbs().maxCoeff() > sym_tol)
        fail<N>("W must be symmetric: block (" + std::to_string(i) + ", " + std::to_string(j) +
                ") differs from the transpose of block (" + std::to_string(j) + ", " +
                std::to_string(i) + ")");
    }
  }
}

template struct ContactProblem<kForce>;
template struct ContactProblem<kWrench>;

WrenchProblem embed_problem(const ForceProblem& p3) {
  WrenchProblem p;
  p.contact_count = p3.contact_count;
  p.row_start = p3.row_start;
  p.col = p3.col;
  p.diag = p3.diag;
  p.laws.resize(p3.laws.size());
  p.q.resize(p3.q.size());
  for (std::size_t i = 0; i < p3.laws.size(); ++i) {
    p.laws[i].mu = p3.laws[i];
    p.q[i].setZero();
    p.q[i].head<3>() = p3.q[i];
  }
  p.blocks.resize(p3.blocks.size());
  for (std::size_t k = 0; k < p3.blocks.size(); ++k) {
    p.blocks[k].setZero();
    p.blocks[k].topLeftCorner<3, 3>() = p3.blocks[k];
  }
  return p;
}

ForceProblem restrict_problem(const WrenchProblem& p6) {
  ForceProblem p;
  p.contact_count = p6.contact_count;
  p.row_start = p6.row_start;
  p.col = p6.col;
  p.diag = p6.diag;
  p.laws.resize(p6.laws.size());
  p.q.resize(p6.q.size());
  for (std::size_t i = 0; i < p6.laws.size(); ++i) {
    p.laws[i] = p6.laws[i].mu;
    p.q[i] = p6.q[i].head<3>();
  }
  p.blocks.resize(p6.blocks.size());
  for (std::size_t k = 0; k < p6.blocks.size(); ++k) {
    p.blocks[k] = p6.blocks[k].topLeftCorner<3, 3>();
  }
  return p;
}

}  // namespace coulomb
