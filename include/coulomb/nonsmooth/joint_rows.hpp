#pragma once
/// @file
/// Joint blocks of the contact problem: rows with a box law, solved in the same problem as the
/// frictional contacts (docs/joints.md).
///
/// A joint block is a block of N unknowns (N = 3, or 6 in a problem with moment laws, where its
/// last three rows are unused) placed after the frictional contacts of a ContactProblem<N> or
/// FactoredProblem<N> (`joint_rows`: the last nj blocks). Row i of a block has an interval
/// [lo_i, hi_i] ∋ r_i and the law
///
///   r_i ∈ [lo_i, hi_i],   −u_i ∈ N_[lo_i, hi_i](r_i)
///   ⇔ r_i = P_[lo_i, hi_i](r_i − ρ u_i) for any ρ > 0  (a box mixed complementarity problem),
///
/// which covers every row of a joint:
///   equality   (−∞, +∞):  u_i = 0, r_i free                 (ball, hinge, prismatic, fixed rows)
///   free       [0, 0]:    r_i = 0, u_i free                 (an unused row, a hinge's axis)
///   friction   [−b, b]:   |r_i| ≤ b, r_i = −b sign(u_i) if u_i ≠ 0 (b = M_f h, the hinge's
///                         friction moment: a set-valued law, maximal dissipation)
///   unilateral [0, +∞):   r_i ≥ 0, u_i ≥ 0, r_i u_i = 0     (a string: Signorini)
/// Units: r [N s] or [N m s], u [m/s] or [rad/s], as for contacts (problem.hpp).
///
/// Exact local solve (solve_joint_block): the block's law is the optimality condition of the
/// convex quadratic program min ½ rᵀ W_αα r + q̃ᵀ r over the box; the rows with a finite, non-
/// degenerate bound are enumerated as {interior, at lo, at hi} (3^k cases, k ≤ N; a joint has at
/// most one such row), the interior rows solved with the block, and the first case satisfying
/// every condition (KKT) is the answer. Error measure: the natural map of the box,
/// e_α = ‖r_α − P_box(r_α − u_α)‖, summed with the contacts' e_α in contact_error (solver.hpp).
/// PROX: the Alart–Curnier function of a joint block is φ = r − P_box(r − ρ u), with the
/// generalised Jacobian ∂φ/∂r = I − S, ∂φ/∂u = ρ S (S = diag of the rows where the box is not
/// active) (joint_alart_curnier).
///
/// References: F. Facchinei, J.-S. Pang, Finite-Dimensional Variational Inequalities and
/// Complementarity Problems (2003), §1.4 (box MCP, natural map); V. Acary, B. Brogliato,
/// Numerical Methods for Nonsmooth Dynamical Systems (2008), ch. 12–13.

#include <coulomb/math/types.hpp>

#include <limits>

namespace coulomb {

template <int N>
struct JointRows {
  using Vec = Eigen::Matrix<double, N, 1>;
  /// Lower and upper bound of each row [N s] or [N m s]; ±infinity allowed, lo ≤ hi.
  Vec lo = Vec::Zero();
  Vec hi = Vec::Zero();
};

/// r projected on the box [lo, hi] row by row.
template <int N>
[[nodiscard]] Eigen::Matrix<double, N, 1> project_on_box(const JointRows<N>& law,
                                                         const Eigen::Matrix<double, N, 1>& x) {
  return x.cwiseMax(law.lo).cwiseMin(law.hi);
}

/// Exact solve of one joint block u = W r + q, r ∈ box, −u ∈ N_box(r) (see the file comment);
/// false when no case satisfied the conditions to `tolerance` (r then holds the case of smallest
/// violation).
template <int N>
bool solve_joint_block(const Eigen::Matrix<double, N, N, Eigen::RowMajor>& w,
                       const Eigen::Matrix<double, N, 1>& q, const JointRows<N>& law,
                       Eigen::Matrix<double, N, 1>& r, double tolerance = 1e-12);

/// ‖r − P_box(r − u)‖² of one joint block.
template <int N>
[[nodiscard]] double joint_residual2(const JointRows<N>& law, const Eigen::Matrix<double, N, 1>& r,
                                     const Eigen::Matrix<double, N, 1>& u) {
  return (r - project_on_box(law, Eigen::Matrix<double, N, 1>(r - u))).squaredNorm();
}

/// The Alart–Curnier function of a joint block of a force problem, φ = r − P_box(r − ρ u), and
/// its generalised Jacobian (see the file comment).
void joint_alart_curnier(const Vec3& r, const Vec3& u, const JointRows<3>& law, double rho,
                         Vec3& phi, Mat3* dphi_dr, Mat3* dphi_du);

/// The joint law of block a of a problem (nullptr for a frictional contact): the last
/// joint_rows.size() blocks are joint blocks.
template <class Problem>
[[nodiscard]] const auto* joint_of(const Problem& p, int a) {
  const int first = p.contact_count - static_cast<int>(p.joint_rows.size());
  return a >= first ? &p.joint_rows[static_cast<std::size_t>(a - first)] : nullptr;
}

}  // namespace coulomb
