/// @file
/// Contact kinematics: slip velocity, sliding, pivoting, rolling at a contact point, and the
/// contact Jacobians. Definitions in include/coulomb/contact/kinematics.hpp, examples in
/// docs/kinematics.md. Fixed-size Eigen only: no allocation, no exceptions.

#include <coulomb/contact/kinematics.hpp>

#include <cmath>

namespace coulomb {

ContactKinematics contact_kinematics(const ContactPoint& c, const Vec3& x1_WC, const Vec3& v1,
                                     const Vec3& w1, const Vec3& x2_WC, const Vec3& v2,
                                     const Vec3& w2, const KinematicsTolerances& tol) {
  ContactKinematics k;
  const Vec3 I = c.point();
  const Vec3& n = c.n_W;

  // Velocities of the material points of each body at I; slip = 2 relative to 1.
  const Vec3 vI1 = v1 + w1.cross(I - x1_WC);
  const Vec3 vI2 = v2 + w2.cross(I - x2_WC);
  k.v_W = vI2 - vI1;

  // Normal rate and sliding velocity in the contact frame.
  k.vn = k.v_W.dot(n);
  k.vt_W = k.v_W - k.vn * n;
  k.vt1 = k.v_W.dot(c.t1_W);
  k.vt2 = k.v_W.dot(c.t2_W);

  // Relative rotation split into pivoting (about n) and rolling (tangent): n × (ω × n) = ω − ω_n n.
  k.omega_W = w2 - w1;
  k.spin = k.omega_W.dot(n);
  k.roll_W = k.omega_W - k.spin * n;
  k.roll1 = k.omega_W.dot(c.t1_W);
  k.roll2 = k.omega_W.dot(c.t2_W);

  // Status and flags.
  if (c.gap > tol.gap) {
    k.status = ContactStatus::separated;
  } else if (k.vt_W.norm() <= tol.velocity) {
    k.status = ContactStatus::sticking;
  } else {
    k.status = ContactStatus::sliding;
  }
  k.pivoting = std::abs(k.spin) > tol.angular;
  k.rolling = k.roll_W.norm() > tol.angular;
  return k;
}

void contact_jacobians(const ContactPoint& c, const Vec3& x1_WC, const Vec3& x2_WC,
                       Eigen::Matrix<double, 3, 6>& H1, Eigen::Matrix<double, 3, 6>& H2) {
  const Vec3 I = c.point();
  const Vec3 r1 = I - x1_WC;
  const Vec3 r2 = I - x2_WC;
  // Row d: d·(v + ω × r) = dᵀ v + (r × d)ᵀ ω, for d = n, t1, t2.
  const Vec3* dirs[3] = {&c.n_W, &c.t1_W, &c.t2_W};
  for (int i = 0; i < 3; ++i) {
    const Vec3& d = *dirs[i];
    H1.block<1, 3>(i, 0) = d.transpose();
    H1.block<1, 3>(i, 3) = r1.cross(d).transpose();
    H2.block<1, 3>(i, 0) = d.transpose();
    H2.block<1, 3>(i, 3) = r2.cross(d).transpose();
  }
}

void contact_angular_jacobians(const ContactPoint& c, Eigen::Matrix<double, 3, 6>& A1,
                               Eigen::Matrix<double, 3, 6>& A2) {
  // Rows (n, t1, t2) acting on the angular part only.
  A1.setZero();
  A1.block<1, 3>(0, 3) = c.n_W.transpose();
  A1.block<1, 3>(1, 3) = c.t1_W.transpose();
  A1.block<1, 3>(2, 3) = c.t2_W.transpose();
  A2 = A1;
}

}  // namespace coulomb
