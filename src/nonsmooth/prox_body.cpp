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
/// sharing a body). It is not symmetric (D is not for a sliding contact: its normal row couples
/// into the slip direction), so it is factorised by Eigen::SparseLU, with a COLAMD column
/// ordering analysed once per call; each Newton iteration rewrites the values in place (the
/// position of each 6×6 block in the compressed columns is computed once) and refactorises.
///
/// Data layout: the pattern is by block columns — body J's block column holds the sorted bodies
/// I in contact with J (J included), each contributing six consecutive rows to every one of J's
/// six columns — so block (I, J) entry (r, c) sits at outer[6J + c] + 6 slot(I, J) + r.

#include <coulomb/nonsmooth/alart_curnier.hpp>
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

// The pattern of H, the LU's symbolic analysis for it, and the scratch of the Newton directions.
struct BodyNewtonCache {
  std::vector<std::int32_t> col_start, rows;  // block rows (bodies) of each block column
  std::vector<std::int32_t> new_col_start, new_rows, scratch;
  SpMat h;
  Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu;
  bool patterned = false;       // col_start/rows and estimated_fill hold a pattern
  bool analysed = false;        // h and lu are those of the pattern in col_start/rows
  double estimated_fill = 0.0;  // structural estimate of nnz(L + U) for that pattern
  Eigen::SparseMatrix<double, Eigen::ColMajor, int> graph;  // the body graph (estimate)
  std::vector<int> parent, flag, node_at, position;         // scratch of the estimate
  std::vector<std::int32_t> diag_slot;
  std::vector<std::array<std::int32_t, 4>> slots;
  std::vector<Mat6, Eigen::aligned_allocator<Mat6>> mass;
  std::vector<Mat3> d;
  std::vector<Vec3> c;
  Eigen::VectorXd rhs, dnu;
  std::vector<Vec6d> nu;
};

void BodyNewtonCacheDeleter::operator()(BodyNewtonCache* cache) const { delete cache; }

namespace {

class BodySpaceSystem {
 public:
  BodySpaceSystem(const FactoredForceProblem& p, BodyNewtonCache& cache)
      : p_(p), k_(cache), sweep_(p, cache.nu) {}
  [[nodiscard]] const detail::FactoredSweep<kForce>& sweep() const { return sweep_; }
  // The estimated cost of the last direction, in sweeps of NSGS on the same problem.
  [[nodiscard]] double iteration_work() const { return work_; }
  // The cost of a direction estimated from the contact graph's structure alone, before any
  // factorisation (kNewtonStructureFactor), in the same unit.
  [[nodiscard]] double estimated_work() const {
    return 1.0 + kNewtonWorkPerFill * k_.estimated_fill / static_cast<double>(p_.contact_count);
  }

  // The block pattern of H and its structural estimate (redone only when it changed; the
  // symbolic analysis at the first direction of a new pattern), the slots of
  // every contact's four blocks, the bodies' mass matrices.
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
      // The matrix and its symbolic analysis at the first direction (none when the estimate
      // refuses the iteration).
      k_.analysed = false;
      estimate_fill(nb);
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
    if (!k_.analysed) build_matrix(nb);
    SpMat& h = k_.h;
    std::fill(h.valuePtr(), h.valuePtr() + h.nonZeros(), 0.0);
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
    k_.lu.factorize(h);
    if (k_.lu.info() != Eigen::Success) return false;
    // The cost of this iteration in sweeps (SolverOptions::max_work): the factorisation's work
    // grows with the LU's fill, which the contact graph decides (a box pyramid, nearly planar:
    // 71 nonzeros of L + U per contact; a 3-D heap of 250 spheres: 460).
    work_ = 1.0 + kNewtonWorkPerFill * static_cast<double>(k_.lu.nnzL() + k_.lu.nnzU()) /
                      static_cast<double>(nc);
    k_.dnu = k_.lu.solve(k_.rhs);
    if (!k_.dnu.allFinite()) return false;
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
  // Structural estimate of the LU's fill for the block pattern in k_.col_start/rows: the 6×6
  // blocks l of the Cholesky factor of the (symmetric) body graph under an AMD ordering, counted
  // row by row on the elimination tree (Liu's row subtrees: each off-diagonal entry of a row
  // climbs the tree to the first node already marked for that row, every node passed is a block
  // of L), taken dense: nnz(L + U) ≈ 36 (2 (l − n_b) + n_b). O(blocks of L), no values.
  void estimate_fill(int nb) {
    Eigen::SparseMatrix<double, Eigen::ColMajor, int>& g = k_.graph;
    g.resize(nb, nb);
    g.resizeNonZeros(static_cast<Eigen::Index>(k_.rows.size()));
    std::copy(k_.col_start.begin(), k_.col_start.end(), g.outerIndexPtr());
    std::copy(k_.rows.begin(), k_.rows.end(), g.innerIndexPtr());
    std::fill(g.valuePtr(), g.valuePtr() + g.nonZeros(), 1.0);
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> perm;
    Eigen::AMDOrdering<int>()(g, perm);
    // The ordering's indices are the bodies in elimination order (Eigen's orderings give P⁻¹).
    k_.node_at.assign(perm.indices().data(), perm.indices().data() + nb);
    std::vector<int>& position = k_.position;  // where body i is eliminated
    position.resize(static_cast<std::size_t>(nb));
    for (int k = 0; k < nb; ++k) position[k_.node_at[k]] = k;
    k_.parent.assign(static_cast<std::size_t>(nb), -1);
    k_.flag.assign(static_cast<std::size_t>(nb), -1);
    std::int64_t blocks = nb;
    for (int k = 0; k < nb; ++k) {
      k_.flag[k] = k;
      const int j = k_.node_at[k];
      for (std::int32_t e = k_.col_start[j]; e < k_.col_start[j + 1]; ++e) {
        for (int i = position[k_.rows[e]]; i < k && k_.flag[i] != k; i = k_.parent[i]) {
          if (k_.parent[i] == -1) k_.parent[i] = k;
          k_.flag[i] = k;
          ++blocks;
        }
      }
    }
    k_.estimated_fill = 36.0 * static_cast<double>(2 * (blocks - nb) + nb);
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
    double* values = k_.h.valuePtr();
    const int* outer = k_.h.outerIndexPtr();
    for (int c = 0; c < 6; ++c) {
      double* column = values + outer[6 * j + c] + 6 * slot;
      for (int r = 0; r < 6; ++r) column[r] += block(r, c);
    }
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
