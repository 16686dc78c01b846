// Closest points of two spheres and of two segments (see segments.hpp).

#include "collision/segments.hpp"

#include <algorithm>
#include <cmath>

namespace coulomb::narrow {

void sphere_pair_point(const Vec3& c1, double r1, const Vec3& c2, double r2, Vec3& n, double& gap,
                       Vec3& p1, Vec3& p2) {
  const Vec3 d = c2 - c1;
  const double dist = d.norm();
  n = dist > 0.0 ? Vec3(d / dist) : Vec3(Vec3::UnitZ());
  gap = dist - r1 - r2;
  p1 = c1 + r1 * n;
  p2 = c2 - r2 * n;
}

void segment_segment(const Vec3& p, const Vec3& u, double a, const Vec3& q, const Vec3& v, double b,
                     double& s, double& t) {
  const Vec3 w = p - q;
  const double c = u.dot(v), du = u.dot(w), dv = v.dot(w);
  const double den = 1.0 - c * c;
  if (den > 1e-14) {
    s = std::clamp((c * dv - du) / den, -a, a);
  } else {
    // Parallel: middle of the overlap of Q's projection on P's line, clamped to P.
    const double q0 = -du - b * std::abs(c), q1 = -du + b * std::abs(c);
    s = std::clamp(0.5 * (std::max(q0, -a) + std::min(q1, a)), -a, a);
  }
  t = std::clamp(s * c + dv, -b, b);
  s = std::clamp(t * c - du, -a, a);
}

}  // namespace coulomb::narrow
