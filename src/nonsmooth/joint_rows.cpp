/// @file
/// The exact local solve, residual and Alart–Curnier function of a joint block
/// (coulomb/nonsmooth/joint_rows.hpp).
#include <coulomb/nonsmooth/joint_rows.hpp>

#include <cmath>

namespace coulomb {

template <int N>
bool solve_joint_block(const Eigen::Matrix<double, N, N, Eigen::RowMajor>& w,
                       const Eigen::Matrix<double, N, 1>& q, const JointRows<N>& law,
                       Eigen::Matrix<double, N, 1>& r, double tolerance) {
  using Vec = Eigen::Matrix<double, N, 1>;
  // Row states: 0 interior (u_i = 0), 1 at lo, 2 at hi. Fixed rows (lo = hi) are at lo; rows
  // without finite bounds are interior; the others are enumerated.
  int enumerated[N];
  int k = 0;
  int state[N];
  for (int i = 0; i < N; ++i) {
    if (law.lo[i] == law.hi[i]) {
      state[i] = 1;
    } else {
      state[i] = 0;
      if (std::isfinite(law.lo[i]) || std::isfinite(law.hi[i])) enumerated[k++] = i;
    }
  }
  int cases = 1;
  for (int i = 0; i < k; ++i) cases *= 3;
  // Scale of the tolerance: the block's diagonal and q.
  const double scale = std::max(1.0, q.cwiseAbs().maxCoeff());
  double best_violation = std::numeric_limits<double>::infinity();
  Vec best = Vec::Zero();
  for (int c = 0; c < cases; ++c) {
    int code = c;
    bool skip = false;
    for (int j = 0; j < k; ++j) {
      const int i = enumerated[j];
      state[i] = code % 3;
      code /= 3;
      if ((state[i] == 1 && !std::isfinite(law.lo[i])) ||
          (state[i] == 2 && !std::isfinite(law.hi[i])))
        skip = true;
    }
    if (skip) continue;
    // Rows at a bound take it; the interior rows solve W_II r_I = −(q_I + W_IB r_B).
    Vec x = Vec::Zero();
    int interior[N];
    int m = 0;
    for (int i = 0; i < N; ++i) {
      if (state[i] == 1)
        x[i] = law.lo[i];
      else if (state[i] == 2)
        x[i] = law.hi[i];
      else
        interior[m++] = i;
    }
    if (m > 0) {
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, N, N> wi(m, m);
      Eigen::Matrix<double, Eigen::Dynamic, 1, 0, N, 1> rhs(m);
      const Vec wx = w * x;
      for (int a = 0; a < m; ++a) {
        rhs[a] = -(q[interior[a]] + wx[interior[a]]);
        for (int b = 0; b < m; ++b) wi(a, b) = w(interior[a], interior[b]);
      }
      const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, N, 1> xi =
          wi.completeOrthogonalDecomposition().solve(rhs);
      for (int a = 0; a < m; ++a) x[interior[a]] = xi[a];
    }
    // Conditions: interior rows within the box, u_i ≥ 0 at lo, u_i ≤ 0 at hi, u_i = 0 inside.
    const Vec u = w * x + q;
    double violation = 0.0;
    for (int i = 0; i < N; ++i) {
      if (law.lo[i] == law.hi[i]) continue;
      if (state[i] == 0) {
        violation = std::max({violation, law.lo[i] - x[i], x[i] - law.hi[i], std::abs(u[i])});
      } else if (state[i] == 1) {
        violation = std::max(violation, -u[i]);
      } else {
        violation = std::max(violation, u[i]);
      }
    }
    if (!(violation < best_violation)) continue;
    best_violation = violation;
    best = x;
    if (violation <= tolerance * scale) break;
  }
  r = best;
  return best_violation <= tolerance * scale;
}

template bool solve_joint_block<3>(const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>&,
                                   const Eigen::Matrix<double, 3, 1>&, const JointRows<3>&,
                                   Eigen::Matrix<double, 3, 1>&, double);
template bool solve_joint_block<6>(const Eigen::Matrix<double, 6, 6, Eigen::RowMajor>&,
                                   const Eigen::Matrix<double, 6, 1>&, const JointRows<6>&,
                                   Eigen::Matrix<double, 6, 1>&, double);

void joint_alart_curnier(const Vec3& r, const Vec3& u, const JointRows<3>& law, double rho,
                         Vec3& phi, Mat3* dphi_dr, Mat3* dphi_du) {
  const Vec3 z = r - rho * u;
  const Vec3 p = project_on_box(law, z);
  phi = r - p;
  // S_ii = 1 where the projection is the identity (z strictly inside the box).
  Vec3 s;
  for (int i = 0; i < 3; ++i) s[i] = (z[i] > law.lo[i] && z[i] < law.hi[i]) ? 1.0 : 0.0;
  if (dphi_dr) *dphi_dr = (Vec3::Ones() - s).asDiagonal();
  if (dphi_du) *dphi_du = (rho * s).asDiagonal();
}

}  // namespace coulomb
