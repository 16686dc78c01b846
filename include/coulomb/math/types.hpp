#pragma once
/// @file
/// Basic linear-algebra types of coulomb (Eigen, double precision) and small helpers.
///
/// Conventions (docs/architecture.md §Conventions): SI units; quaternions (w, x, y, z), unit norm,
/// body-to-world; names carry frames where it matters (`p_WC`, `R_WB`, `omega_B`).

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <limits>

namespace coulomb {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;  ///< constructed as Quat(w, x, y, z)

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kPi = 3.141592653589793238462643383279502884;

/// A rigid transform: x_W = R * x_L + p (local frame L placed in parent frame W).
struct Pose {
  Vec3 p = Vec3::Zero();      ///< origin of L in W [m]
  Quat q = Quat::Identity();  ///< rotation L -> W

  /// Maps a point given in L to W.
  [[nodiscard]] Vec3 apply(const Vec3& x_L) const { return q * x_L + p; }
  /// Maps a direction given in L to W.
  [[nodiscard]] Vec3 rotate(const Vec3& d_L) const { return q * d_L; }
  /// Maps a point given in W to L.
  [[nodiscard]] Vec3 apply_inverse(const Vec3& x_W) const { return q.conjugate() * (x_W - p); }
  /// Composition: (this ∘ child) places child's frame in this pose's parent frame.
  [[nodiscard]] Pose operator*(const Pose& child) const { return {q * child.p + p, q * child.q}; }
};

/// Skew-symmetric matrix such that skew(a) * b = a × b.
/// √(a² + b²) without std::hypot's guard against overflow and underflow of the squares (|a|, |b|
/// between 1e-154 and 1e154, which impulses [N s] and velocities [m/s] are): glibc's hypot took
/// 13 % of a box tower's step. For the solvers' hot loops (the cone projection, the error).
[[nodiscard]] inline double norm2d(double a, double b) { return std::sqrt(a * a + b * b); }

[[nodiscard]] inline Mat3 skew(const Vec3& a) {
  Mat3 s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

/// An orthonormal pair (t1, t2) completing the unit vector n to a right-handed frame (t1, t2, n).
/// Deterministic and continuous except where n crosses the plane n_x = ±n_z's switch
/// (Frisvad/Duff).
inline void complete_frame(const Vec3& n, Vec3& t1, Vec3& t2) {
  // Duff et al. 2017, "Building an orthonormal basis, revisited" (branchless except for the sign).
  const double sign = n.z() >= 0.0 ? 1.0 : -1.0;
  const double a = -1.0 / (sign + n.z());
  const double b = n.x() * n.y() * a;
  t1 = Vec3(1.0 + sign * n.x() * n.x() * a, sign * b, -sign * n.x());
  t2 = Vec3(b, sign + n.y() * n.y() * a, -n.y());
}

}  // namespace coulomb
