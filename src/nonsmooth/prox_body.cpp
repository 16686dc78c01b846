/// @file
/// PROX on the factored problem of the time stepping (equations in coulomb/nonsmooth/prox.hpp;
/// the algorithm in prox_loop.hpp): the Newton system in body space.
///
/// The contact-space Newton system (C + B W) Δx = −Φ, with the per-contact blocks
/// C_α = ∂φ_α/∂r + η ∂φ_α/∂u and B_α = ∂φ_α/∂u of the Alart–Curnier function and W = J M⁻¹ Jᵀ, is
/// reduced to the bodies' velocity change δν = M⁻¹ Jᵀ Δx:
///
///   C Δx + B J δν = −Φ   ⇒   Δx = −C⁻¹Φ − D J δν,   D = C⁻¹ B   (3×3 per contact)
///   M δν = Jᵀ Δx         ⇒   (M + Jᵀ D J) δν = −Jᵀ C⁻¹ Φ,        and Δu = W Δx = J δν.
///
/// C_α is invertible for η > 0 on every branch of φ_α: a pressed, sticking contact has
/// C = η diag(ρ_N, ρ_T, ρ_T) (D = I/η: the stiff penalty of the proximal step); a contact that
/// takes off has C = I on the normal row; a sliding one a lower block-triangular C with the
/// diagonal (ηρ_N, 1, 1 − s + ηρ_T s), s = μ a/‖z‖ < 1. The body-space matrix H = M + Jᵀ D J is
/// 6 nb × 6 nb with one 6×6 block per pair of bodies in contact: the sparsity of the contact
/// graph, whatever the number of contacts between two bodies (four for two boxes face to face,
/// where the contact-space matrix has a 3×3 block for every pair of the up to ~30 contacts
/// sharing a body). Its block pattern is symmetric, its values are not (D is not for a sliding
/// contact: its normal row couples into the slip direction). It is factorised by a block LU
/// without pivoting between blocks (BlockLU6, coulomb/nonsmooth/block_lu.hpp: AMD ordering of the
/// body graph, the fill of a Cholesky factor, symbolic analysis once per pattern), whose answer is
/// taken when its backward error is at most kBlockLUBackwardError; otherwise (a pivot block
/// singular, or growth) by Eigen::SparseLU with a COLAMD ordering and partial pivoting. Measured:
/// on the box scenes (20-row pyramid, stacks, tower; 681 factorisations) backward errors
/// ≤ 3.5e-16, no refinement, no fall-back; on the tests' random problems (10–30 bodies, 40–90
/// contacts, μ = 0.3, strongly sliding) 31 % of the solves refined, 0.8 % fallen back; on the
/// 3-D tumble of tests/world/prox_3d_test.cpp (1848 systems) 4 % refined, none fallen back. The
/// factorisation and solve 3.5 times faster than the SparseLU's on the pyramid, 4.4–19 times on
/// the dropped pile of 10³ spheres.
///
/// Data layout: the pattern is by block columns — body J's block column holds the sorted bodies
/// I in contact with J (J included); block (I, J) is blocks[col_start[J] + slot(I, J)]. The
/// SparseLU's compressed columns put its entry (r, c) at outer[6J + c] + 6 slot(I, J) + r.

#include <coulomb/nonsmooth/alart_curnier.hpp>
#include <coulomb/nonsmooth/block_lu.hpp>
#include <coulomb/nonsmooth/prox.hpp>

#include "prox_loop.hpp"

#include <Eigen/LU>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <algorithm>
#include <array>

namespace coulomb {

using SpMat = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Jacobian = FactoredForceProblem::Jacobian;

// The pattern of H, its block LU (and the pivoting LU it falls back on), the scratch of the Newton
// directions.
struct BodyNewtonCache {
  std::vector<std::int32_t> col_start, rows;  // block rows (bodies) of each block column
  std::vector<std::int32_t> new_col_start, new_rows, scratch;
  BlockLU6 block_lu;
  BlockLU6::Blocks blocks;  // H, block (rows[e], J) at e
  SpMat h;
  Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu;
  bool patterned = false;  // col_start/rows and block_lu hold a pattern
  bool analysed = false;   // h and lu are those of the pattern in col_start/rows
  std::vector<std::int32_t> diag_slot;
  std::vector<std::array<std::int32_t, 4>> slots;
  std::vector<Mat6, Eigen::aligned_allocator<Mat6>> mass;
  std::vector<Mat3> d;
  std::vector<Vec3> c;
  Eigen::VectorXd rhs, dnu, residual, correction, row_norm;
  std::vector<Vec6d> nu;
};

void BodyNewtonCacheDeleter::operator()(BodyNewtonCache* cache) const { delete cache; }

namespace {

// The block LU's answer is taken when its normwise backward error is at most this (a pivoting
// LU's is a small multiple of the unit round-off, 1.1e-16, times its growth factor). Why not
// 1e-14: 75 of the 3-D tumble's 1848 systems (tests/world/prox_3d_test.cpp) came out between
// 1e-15 and 1e-14, and one of its PROX solves took a Newton iteration more than the SparseLU's.
constexpr double kBlockLUBackwardError = 1e-15;
// Steps of iterative refinement before the fall-back on the pivoting LU.
constexpr int kBlockLURefinements = 3;
// Sweeps an iteration by the pivoting LU costs per nonzero of its factors per contact (as
// kNewtonWorkPerFill for the block LU; measured when it was PROX's only factorisation: 0.16–0.39
// on the box stacks, the 20-row pyramid and a heap of 250 spheres).
constexpr double kPivotingLUWorkPerFill = 0.25;

class BodySpaceSystem {
 public:
  BodySpaceSystem(const FactoredForceProblem& p, BodyNewtonCache& cache)
      : p_(p), k_(cache), sweep_(p, cache.nu) {}
  [[nodiscard]] const detail::FactoredSweep<kForce>& sweep() const { return sweep_; }
  // The estimated cost of the last direction, in sweeps of NSGS on the same problem.
  [[nodiscard]] double iteration_work() const { return work_; }
  // The cost of a direction by the block LU, known from the contact graph's structure alone
  // before any factorisation, in the same unit.
  [[nodiscard]] double estimated_work() const {
    return 1.0 + kNewtonWorkPerFill * k_.block_lu.fill() / static_cast<double>(p_.contact_count);
  }

  // The block pattern of H and the block LU's symbolic analysis (redone only when it changed; the
  // SparseLU's, if it is ever needed, at its first use), the slots of every contact's four
  // blocks, the bodies' mass matrices.
  void prepare() {
    const int nb = p_.body_count;
    const int nc = p_.contact_count;
    // Bodies in contact with each body (itself included), sorted: the block rows of its column.
    k_.new_col_start.assign(static_cast<std::size_t>(nb) + 1, 0);
    k_.new_rows.clear();
    for (int j = 0; j < nb; ++j) {
      k_.scratch.assign(1, j);
      for (std::int32_t e = p_.body_contacts_start[j]; e < p_.body_contacts_start[j + 1]; ++e) {
        const std::int32_t a = p_.body_contacts[e];
        for (const std::int32_t b : {p_.body1[a], p_.body2[a]})
          if (b >= 0) k_.scratch.push_back(b);
      }
      std::sort(k_.scratch.begin(), k_.scratch.end());
      k_.scratch.erase(std::unique(k_.scratch.begin(), k_.scratch.end()), k_.scratch.end());
      k_.new_rows.insert(k_.new_rows.end(), k_.scratch.begin(), k_.scratch.end());
      k_.new_col_start[j + 1] = static_cast<std::int32_t>(k_.new_rows.size());
    }
    if (!k_.patterned || k_.new_col_start != k_.col_start || k_.new_rows != k_.rows) {
      k_.col_start.swap(k_.new_col_start);
      k_.rows.swap(k_.new_rows);
      k_.patterned = true;
      // The block LU's symbolic analysis (its fill is the estimate); the pivoting LU's matrix and
      // analysis only if it is needed.
      k_.analysed = false;
      k_.block_lu.analyze(nb, k_.col_start, k_.rows);
      k_.blocks.resize(k_.rows.size());
    }
    const auto slot = [&](std::int32_t i, std::int32_t j) {
      const auto first = k_.rows.begin() + k_.col_start[j];
      const auto last = k_.rows.begin() + k_.col_start[j + 1];
      return static_cast<std::int32_t>(std::lower_bound(first, last, i) - first);
    };
    // Slots of the blocks (b1, b1), (b2, b1), (b1, b2), (b2, b2) of each contact (−1: a fixed
    // side).
    k_.slots.resize(static_cast<std::size_t>(nc));
    for (int a = 0; a < nc; ++a) {
      const std::int32_t b1 = p_.body1[a], b2 = p_.body2[a];
      k_.slots[a] = {b1 >= 0 ? slot(b1, b1) : -1, b1 >= 0 && b2 >= 0 ? slot(b2, b1) : -1,
                     b1 >= 0 && b2 >= 0 ? slot(b1, b2) : -1, b2 >= 0 ? slot(b2, b2) : -1};
    }
    // Mass matrices M_b = diag(m I, I_W) and the diagonal slots.
    k_.mass.resize(static_cast<std::size_t>(nb));
    k_.diag_slot.resize(static_cast<std::size_t>(nb));
    for (int b = 0; b < nb; ++b) {
      k_.mass[b].setZero();
      k_.mass[b].topLeftCorner<3, 3>().diagonal().setConstant(1.0 / p_.inv_mass[b]);
      k_.mass[b].bottomRightCorner<3, 3>() = p_.inv_inertia[b].inverse();
      k_.diag_slot[b] = slot(b, b);
    }
    k_.d.resize(static_cast<std::size_t>(nc));
    k_.c.resize(static_cast<std::size_t>(nc));
    k_.rhs.resize(6 * nb);
  }

  // H δν = −Jᵀ C⁻¹ Φ, then Δx = −C⁻¹Φ − D J δν and Δu = J δν.
  bool direction(double eta, const std::vector<AlartCurnierRho>& rho, const std::vector<Vec3>& x,
                 const std::vector<Vec3>& u, const Eigen::VectorXd& phi, std::vector<Vec3>& dx,
                 std::vector<Vec3>& du) {
    const int nb = p_.body_count;
    const int nc = p_.contact_count;
    for (Mat6& block : k_.blocks) block.setZero();
    k_.rhs.setZero();
    for (int b = 0; b < nb; ++b) add_block(b, k_.diag_slot[b], k_.mass[b]);
    for (int a = 0; a < nc; ++a) {
      // Per contact: C = ∂φ/∂r + η ∂φ/∂u, D = C⁻¹ ∂φ/∂u, c = C⁻¹ φ.
      Vec3 f;
      Mat3 jr, ju;
      if (const auto* joint = joint_of(p_, a))
        joint_alart_curnier(x[a], u[a], *joint, rho[a].n, f, &jr, &ju);
      else
        alart_curnier_function(x[a], u[a], p_.laws[a], rho[a], f, &jr, &ju);
      const Mat3 C = jr + eta * ju;
      Mat3 C_inv;
      bool invertible = false;
      C.computeInverseWithCheck(C_inv, invertible, 0.0);
      if (!invertible || !C_inv.allFinite()) return false;
      k_.d[a] = C_inv * ju;
      k_.c[a] = C_inv * phi.segment<3>(3 * a);
      // Jᵀ D J into the four blocks, −Jᵀ c into the right-hand side.
      const std::int32_t b1 = p_.body1[a], b2 = p_.body2[a];
      const auto& s = k_.slots[a];
      if (b1 >= 0) {
        const Eigen::Matrix<double, 3, 6> dj = k_.d[a] * p_.J1[a];
        add_block(b1, s[0], p_.J1[a].transpose() * dj);
        if (b2 >= 0) add_block(b1, s[1], p_.J2[a].transpose() * dj);
        k_.rhs.segment<6>(6 * b1).noalias() -= p_.J1[a].transpose() * k_.c[a];
      }
      if (b2 >= 0) {
        const Eigen::Matrix<double, 3, 6> dj = k_.d[a] * p_.J2[a];
        add_block(b2, s[3], p_.J2[a].transpose() * dj);
        if (b1 >= 0) add_block(b2, s[2], p_.J1[a].transpose() * dj);
        k_.rhs.segment<6>(6 * b2).noalias() -= p_.J2[a].transpose() * k_.c[a];
      }
    }
    if (!factorize_and_solve(nb, nc)) return false;
    for (int a = 0; a < nc; ++a) {
      Vec3 jdnu = Vec3::Zero();
      if (p_.body1[a] >= 0) jdnu.noalias() += p_.J1[a] * k_.dnu.segment<6>(6 * p_.body1[a]);
      if (p_.body2[a] >= 0) jdnu.noalias() += p_.J2[a] * k_.dnu.segment<6>(6 * p_.body2[a]);
      dx[a] = -k_.c[a] - k_.d[a] * jdnu;
      du[a] = jdnu;
    }
    return true;
  }

 private:
  // δν = H⁻¹ rhs: by the block LU without pivoting between blocks (BlockLU6) and up to
  // kBlockLURefinements steps of iterative refinement (δν += LU⁻¹ (rhs − H δν)), accepted when the
  // normwise backward error ‖rhs − H δν‖∞ / (‖H‖∞ ‖δν‖∞ + ‖rhs‖∞) is at most
  // kBlockLUBackwardError; otherwise, or when a pivot block is singular, by Eigen's SparseLU
  // (COLAMD, partial pivoting). The iteration's work from the factorisation used.
  bool factorize_and_solve(int nb, int nc) {
    if (k_.block_lu.factorize(k_.blocks)) {
      k_.block_lu.solve(k_.rhs, k_.dnu);
      row_sums(nb);
      for (int refinement = 0; k_.dnu.allFinite(); ++refinement) {
        const double be = backward_error(nb);
        if (be <= kBlockLUBackwardError) {
          work_ = 1.0 + kNewtonWorkPerFill * k_.block_lu.fill() / static_cast<double>(nc);
          return true;
        }
        if (refinement == kBlockLURefinements) break;
        k_.block_lu.solve(k_.residual, k_.correction);
        k_.dnu += k_.correction;
      }
    }
    if (!k_.analysed) build_matrix(nb);
    double* values = k_.h.valuePtr();
    const int* outer = k_.h.outerIndexPtr();
    for (int j = 0; j < nb; ++j)
      for (std::int32_t e = k_.col_start[j]; e < k_.col_start[j + 1]; ++e)
        for (int c = 0; c < 6; ++c)
          for (int r = 0; r < 6; ++r)
            values[outer[6 * j + c] + 6 * (e - k_.col_start[j]) + r] = k_.blocks[e](r, c);
    k_.lu.factorize(k_.h);
    if (k_.lu.info() != Eigen::Success) return false;
    // The cost of this iteration in sweeps (SolverOptions::max_work): the block LU's attempt
    // and the pivoting LU's factorisation, whose work grows with its fill.
    work_ = 1.0 + (kNewtonWorkPerFill * k_.block_lu.fill() +
                   kPivotingLUWorkPerFill * static_cast<double>(k_.lu.nnzL() + k_.lu.nnzU())) /
                      static_cast<double>(nc);
    k_.dnu = k_.lu.solve(k_.rhs);
    return k_.dnu.allFinite();
  }

  // The row sums of |H| (k_.row_norm), for the backward error.
  void row_sums(int nb) {
    k_.row_norm.setZero(6 * nb);
    for (int j = 0; j < nb; ++j)
      for (std::int32_t e = k_.col_start[j]; e < k_.col_start[j + 1]; ++e)
        k_.row_norm.segment<6>(6 * k_.rows[e]) += k_.blocks[e].cwiseAbs().rowwise().sum();
  }

  // ‖rhs − H δν‖∞ / (‖H‖∞ ‖δν‖∞ + ‖rhs‖∞) for δν in k_.dnu; the residual left in k_.residual.
  double backward_error(int nb) {
    Eigen::VectorXd& residual = k_.residual;
    residual = k_.rhs;
    for (int j = 0; j < nb; ++j)
      for (std::int32_t e = k_.col_start[j]; e < k_.col_start[j + 1]; ++e)
        residual.segment<6>(6 * k_.rows[e]).noalias() -= k_.blocks[e] * k_.dnu.segment<6>(6 * j);
    const double scale = k_.row_norm.lpNorm<Eigen::Infinity>() * k_.dnu.lpNorm<Eigen::Infinity>() +
                         k_.rhs.lpNorm<Eigen::Infinity>();
    const double norm = residual.lpNorm<Eigen::Infinity>();
    return scale > 0.0 ? norm / scale : norm;
  }

  // The compressed columns of H for the pattern in k_.col_start/rows (column 6J + c holds 6 rows
  // per block row of J) and their symbolic analysis.
  void build_matrix(int nb) {
    const int n = 6 * nb;
    SpMat& h = k_.h;
    h.resize(n, n);
    h.resizeNonZeros(36 * static_cast<Eigen::Index>(k_.rows.size()));
    int* outer = h.outerIndexPtr();
    int* inner = h.innerIndexPtr();
    outer[0] = 0;
    for (int j = 0; j < nb; ++j) {
      const int blocks = k_.col_start[j + 1] - k_.col_start[j];
      for (int c = 0; c < 6; ++c) {
        const int col = 6 * j + c;
        int k = outer[col];
        for (std::int32_t e = k_.col_start[j]; e < k_.col_start[j + 1]; ++e)
          for (int r = 0; r < 6; ++r) inner[k++] = 6 * k_.rows[e] + r;
        outer[col + 1] = outer[col] + 6 * blocks;
      }
    }
    std::fill(h.valuePtr(), h.valuePtr() + h.nonZeros(), 1.0);
    k_.lu.analyzePattern(h);
    k_.analysed = true;
  }

  // Adds a 6×6 block at row slot `slot` of block column `j`.
  void add_block(std::int32_t j, std::int32_t slot, const Mat6& block) {
    k_.blocks[k_.col_start[j] + slot] += block;
  }

  const FactoredForceProblem& p_;
  BodyNewtonCache& k_;
  double work_ = 0.0;
  detail::FactoredSweep<kForce> sweep_;
};

}  // namespace

SolverResult solve_prox(const FactoredForceProblem& problem, std::vector<Vec3>& r,
                        std::vector<Vec3>& u, const SolverOptions& options,
                        BodyNewtonCachePtr* cache) {
  BodyNewtonCachePtr local;
  BodyNewtonCachePtr& held = cache ? *cache : local;
  if (!held) held.reset(new BodyNewtonCache);
  BodySpaceSystem system(problem, *held);
  return detail::prox(problem, system, r, u, options);
}

}  // namespace coulomb
