/// @file
/// PROX on the assembled problem (equations in coulomb/nonsmooth/prox.hpp; the algorithm in
/// prox_loop.hpp): the contact-space Newton system.
///
/// Data layout: the Newton matrix J = ∂Φ/∂r + ∂Φ/∂u (W + η I) has the block pattern of W (the
/// per-contact derivatives are block diagonal), so its compressed-column pattern is built once
/// per solve, every 3×3 block keeps the positions of its 9 entries in the value array, and each
/// Newton iteration only rewrites values and refactorises with the analysed pattern
/// (Eigen::SparseLU, COLAMD ordering). This solver allocates (once per call).

#include <coulomb/nonsmooth/alart_curnier.hpp>
#include <coulomb/nonsmooth/prox.hpp>

#include "prox_loop.hpp"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <algorithm>

namespace coulomb {
namespace {

using SpMat = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

// The sparse Newton matrix with the positions of every block entry in its value array.
struct NewtonMatrix {
  SpMat jac;
  std::vector<int> pos;  // (9 nnzb) value index of entry (r, c) of block k at 9k + 3r + c
};

NewtonMatrix build_pattern(const ForceProblem& p) {
  const int nc = p.contact_count;
  std::vector<Eigen::Triplet<double, int>> trip;
  trip.reserve(p.blocks.size() * 9);
  for (int i = 0; i < nc; ++i) {
    for (std::int32_t k = p.row_start[i]; k < p.row_start[i + 1]; ++k) {
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) trip.emplace_back(3 * i + a, 3 * p.col[k] + b, 1.0);
      }
    }
  }
  NewtonMatrix m;
  m.jac.resize(3 * nc, 3 * nc);
  m.jac.setFromTriplets(trip.begin(), trip.end());
  m.jac.makeCompressed();
  // Locate each entry in its column (rows are sorted within a column).
  m.pos.resize(p.blocks.size() * 9);
  const int* outer = m.jac.outerIndexPtr();
  const int* inner = m.jac.innerIndexPtr();
  for (int i = 0; i < nc; ++i) {
    for (std::int32_t k = p.row_start[i]; k < p.row_start[i + 1]; ++k) {
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
          const int c = 3 * p.col[k] + b;
          const int* it = std::lower_bound(inner + outer[c], inner + outer[c + 1], 3 * i + a);
          m.pos[9 * static_cast<std::size_t>(k) + 3 * a + b] = static_cast<int>(it - inner);
        }
      }
    }
  }
  return m;
}

// Newton matrix J = ∂Φ/∂r + ∂Φ/∂u (W + ηI), written block by block into the fixed pattern.
void assemble_jacobian(const ForceProblem& p, const std::vector<AlartCurnierRho>& rho, double eta,
                       const std::vector<Vec3>& x, const std::vector<Vec3>& u, NewtonMatrix& m) {
  double* values = m.jac.valuePtr();
  for (int a = 0; a < p.contact_count; ++a) {
    Vec3 f;
    Mat3 jr;
    Mat3 ju;
    if (const auto* joint = joint_of(p, a))
      joint_alart_curnier(x[a], u[a], *joint, rho[a].n, f, &jr, &ju);
    else
      alart_curnier_function(x[a], u[a], p.laws[a], rho[a], f, &jr, &ju);
    for (std::int32_t k = p.row_start[a]; k < p.row_start[a + 1]; ++k) {
      Mat3 block = ju * p.blocks[k];
      if (k == p.diag[a]) block += jr + eta * ju;
      const int* pos = &m.pos[9 * static_cast<std::size_t>(k)];
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) values[pos[3 * i + j]] = block(i, j);
      }
    }
  }
}

// The contact-space Newton system of PROX (prox_loop.hpp).
class ContactSpaceSystem {
 public:
  explicit ContactSpaceSystem(const ForceProblem& p) : p_(p), sweep_(p) {}
  [[nodiscard]] const detail::AssembledSweep<kForce>& sweep() const { return sweep_; }
  void prepare() {
    m_ = build_pattern(p_);
    lu_.analyzePattern(m_.jac);
    phi_.resize(3 * p_.contact_count);
  }
  // Not estimated for the assembled problem (FCLIB files): SolverOptions::max_work does not
  // bound it.
  [[nodiscard]] static double iteration_work() { return 0.0; }
  [[nodiscard]] static double estimated_work() { return 0.0; }
  // (∂Φ/∂r + ∂Φ/∂u (W + ηI)) Δx = −Φ by sparse LU; Δu = W Δx.
  bool direction(double eta, const std::vector<AlartCurnierRho>& rho, const std::vector<Vec3>& x,
                 const std::vector<Vec3>& u, const Eigen::VectorXd& phi, std::vector<Vec3>& dx,
                 std::vector<Vec3>& du) {
    assemble_jacobian(p_, rho, eta, x, u, m_);
    lu_.factorize(m_.jac);
    if (lu_.info() != Eigen::Success) return false;
    phi_ = -phi;
    step_ = lu_.solve(phi_);
    if (!step_.allFinite()) return false;
    for (int a = 0; a < p_.contact_count; ++a) dx[a] = step_.segment<3>(3 * a);
    for (int a = 0; a < p_.contact_count; ++a) {
      Vec3 d = Vec3::Zero();
      for (std::int32_t k = p_.row_start[a]; k < p_.row_start[a + 1]; ++k)
        d.noalias() += p_.blocks[k] * dx[p_.col[k]];
      du[a] = d;
    }
    return true;
  }

 private:
  const ForceProblem& p_;
  detail::AssembledSweep<kForce> sweep_;
  NewtonMatrix m_;
  Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu_;
  Eigen::VectorXd phi_, step_;
};

}  // namespace

SolverResult solve_prox(const ForceProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                        const SolverOptions& options) {
  ContactSpaceSystem system(problem);
  return detail::prox(problem, system, r, u, options);
}

}  // namespace coulomb
