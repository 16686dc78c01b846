/// @file
/// The no-slip law in the contact problem: residual, Alart–Curnier function and closed-form
/// local solve (equations in coulomb/nonsmooth/no_slip.hpp).

#include <coulomb/nonsmooth/no_slip.hpp>

#include <algorithm>

namespace coulomb {

double no_slip_residual2(const Vec3& r, const Vec3& u) {
  const double un_neg = std::min(u[0], 0.0);
  const double rn_neg = std::min(r[0], 0.0);
  const double open = r.squaredNorm() + un_neg * un_neg;
  const double closed = u.squaredNorm() + rn_neg * rn_neg;
  return std::min(open, closed);
}

void no_slip_alart_curnier(const Vec3& r, const Vec3& u, const AlartCurnierRho& rho, Vec3& phi,
                           Mat3* dphi_dr, Mat3* dphi_du) {
  const bool pressed = r[0] - rho.n * u[0] > 0.0;
  const Vec3 scale(rho.n, rho.t, rho.t);
  if (pressed) {
    phi = scale.cwiseProduct(u);
  } else {
    phi = r;
  }
  if (dphi_dr != nullptr) *dphi_dr = pressed ? Mat3(Mat3::Zero()) : Mat3(Mat3::Identity());
  if (dphi_du != nullptr) *dphi_du = pressed ? Mat3(scale.asDiagonal()) : Mat3::Zero();
}

bool invert_block(const Block3& w, Mat3& inverse) {
  const Mat3 wm = w;
  bool invertible = false;
  double det = 0.0;
  wm.computeInverseAndDetWithCheck(inverse, det, invertible, 0.0);
  return invertible;
}

bool stopping_impulse(const Block3& w, const Vec3& q, Vec3& r) {
  Mat3 winv;
  if (!invert_block(w, winv)) return false;
  r = -winv * q;
  return r.allFinite();
}

bool solve_no_slip_block(const Block3& w, const Vec3& q, Vec3& r) {
  // Closed: u = 0, r = −W⁻¹q, accepted when its normal part is positive.
  Vec3 closed;
  if (stopping_impulse(w, q, closed) && closed[0] > 0.0) {
    r = closed;
    return true;
  }
  // Open: r = 0, u = q, accepted when q_N ≥ 0.
  if (q[0] >= 0.0) {
    r.setZero();
    return true;
  }
  // Neither (normal–tangential coupling in W): the frictionless impulse, reported.
  r = Vec3(w(0, 0) > 0.0 ? -q[0] / w(0, 0) : 0.0, 0.0, 0.0);
  return false;
}

}  // namespace coulomb
