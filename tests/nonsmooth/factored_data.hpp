#pragma once
// Factored contact problems for the tests (W = J M⁻¹ Jᵀ never formed): random bodies and
// contacts, and a dense reference for W.
#include <coulomb/nonsmooth/factored_problem.hpp>

#include <Eigen/Geometry>

#include <random>

namespace coulomb::testing {

// Dense W = J M⁻¹ Jᵀ (3 nc × 3 nc), from the rows and the bodies' inverse masses, independently
// of the problem's own products.
inline Eigen::MatrixXd dense_w(const FactoredForceProblem& p) {
  const int nc = p.contact_count, nb = p.body_count;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3 * nc, 6 * nb);
  Eigen::MatrixXd Minv = Eigen::MatrixXd::Zero(6 * nb, 6 * nb);
  for (int a = 0; a < nc; ++a) {
    if (p.body1[a] >= 0) J.block<3, 6>(3 * a, 6 * p.body1[a]) += p.J1[a];
    if (p.body2[a] >= 0) J.block<3, 6>(3 * a, 6 * p.body2[a]) += p.J2[a];
  }
  for (int b = 0; b < nb; ++b) {
    Minv.block<3, 3>(6 * b, 6 * b) = p.inv_mass[b] * Mat3::Identity();
    Minv.block<3, 3>(6 * b + 3, 6 * b + 3) = p.inv_inertia[b];
  }
  return J * Minv * J.transpose();
}

// nb bodies with random masses and inertias; nc contacts between random pairs (a side fixed with
// probability `fixed`), each with an orthonormal contact frame at a random point, rows
// J2 = [R; (p − x2) × R] and J1 = −[R; (p − x1) × R] as the kinematics builds them; μ in [0.1, 1];
// q = u* − W r* from a chosen solution (each contact taking off, sticking or sliding with equal
// odds), so that the problem has one (random normals on few bodies need not, otherwise).
inline FactoredForceProblem random_factored(int nb, int nc, unsigned seed, double fixed = 0.2) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0), pos(0.5, 2.0);
  FactoredForceProblem p;
  p.body_count = nb;
  std::vector<Vec3> x(static_cast<std::size_t>(nb));
  for (int b = 0; b < nb; ++b) {
    p.inv_mass.push_back(1.0 / pos(rng));
    const Mat3 R = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    const Vec3 I(pos(rng), pos(rng), pos(rng));
    p.inv_inertia.push_back(R * I.cwiseInverse().asDiagonal() * R.transpose());
    x[b] = Vec3(uni(rng), uni(rng), uni(rng));
  }
  std::uniform_int_distribution<int> body(0, nb - 1);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  p.contact_count = nc;
  for (int a = 0; a < nc; ++a) {
    int b1 = body(rng), b2 = body(rng);
    while (nb > 1 && b2 == b1) b2 = body(rng);
    if (u01(rng) < fixed) b1 = -1;
    const Vec3 n = Vec3(uni(rng), uni(rng), uni(rng)).normalized();
    Vec3 t1 = n.unitOrthogonal();
    const Vec3 t2 = n.cross(t1);
    Mat3 frame;
    frame << n.transpose(), t1.transpose(), t2.transpose();
    const Vec3 point(uni(rng), uni(rng), uni(rng));
    const auto rows = [&](int b) {
      FactoredForceProblem::Jacobian J;
      J.leftCols<3>() = frame;
      for (int i = 0; i < 3; ++i) J.block<1, 3>(i, 3) = (point - x[b]).cross(frame.row(i).transpose());
      return J;
    };
    p.body1.push_back(b1);
    p.body2.push_back(b2);
    p.J1.push_back(b1 >= 0 ? FactoredForceProblem::Jacobian(-rows(b1))
                           : FactoredForceProblem::Jacobian(FactoredForceProblem::Jacobian::Zero()));
    p.J2.push_back(rows(b2));
    p.laws.push_back(0.1 + 0.9 * u01(rng));
    p.q.push_back(Vec3::Zero());
  }
  p.finish();
  // A solution (r*, u*): take-off (r = 0, u_N > 0), stick (r inside the cone, u = 0) or slide
  // (u_N = 0, r_T = −μ r_N u_T/‖u_T‖); then q = u* − W r*.
  Eigen::VectorXd r(3 * nc), u(3 * nc);
  for (int a = 0; a < nc; ++a) {
    const double mu = p.laws[a];
    const double kind = u01(rng);
    Vec3 ra = Vec3::Zero(), ua = Vec3::Zero();
    if (kind < 1.0 / 3.0) {
      ua = Vec3(pos(rng), uni(rng), uni(rng));
    } else if (kind < 2.0 / 3.0) {
      const double n = pos(rng), angle = 3.0 * uni(rng), frac = 0.9 * u01(rng);
      ra = Vec3(n, frac * mu * n * std::cos(angle), frac * mu * n * std::sin(angle));
    } else {
      const double n = pos(rng);
      const Eigen::Vector2d ut(uni(rng), uni(rng));
      ua = Vec3(0.0, ut.x(), ut.y());
      ra = Vec3(n, -mu * n * ut.x() / ut.norm(), -mu * n * ut.y() / ut.norm());
    }
    r.segment<3>(3 * a) = ra;
    u.segment<3>(3 * a) = ua;
  }
  std::vector<Vec3> rs(static_cast<std::size_t>(nc)), wr;
  std::vector<Vec6d> nu;
  for (int a = 0; a < nc; ++a) rs[a] = r.segment<3>(3 * a);
  p.velocity(rs, wr, nu);  // W r* (q is still zero)
  for (int a = 0; a < nc; ++a) p.q[a] = u.segment<3>(3 * a) - wr[a];
  return p;
}

}  // namespace coulomb::testing
