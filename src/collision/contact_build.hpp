#pragma once
// Building blocks of every narrowphase pair: the flatness tolerance, the curvature of the simple
// surface kinds at a contact point, and `emit`, which appends one contact point.
//
// Conventions (docs/collision.md): n points from shape 1 to shape 2; gap = (p2 − p1)·n, < 0 in
// penetration, computed by each pair from the shapes' own coordinates (not from p2 − p1) so that
// exactly placed bodies give exact zeros; the frame (t1, t2, n) comes from complete_frame(n).
// Curvature: principal radii (r1, r2) [m] and the unit tangent d1 of r1 (r2 along n × d1); +inf
// is flat, 0 is sharp (an edge across d1, or a corner when both are 0).

#include <coulomb/collision/contact_point.hpp>

#include <cstdint>
#include <vector>

namespace coulomb::narrow {

// Angle below which a flat face counts as lying flat on a plane or another face [rad].
constexpr double kFlatAngle = 1e-6;
// Number of rim points sampled on a cylinder cap or cone base lying flat.
constexpr int kRimSamples = 8;

// Flat (plane/face) curvature with a tangent d1 completing n.
inline Curvature flat(const Vec3& n) {
  Vec3 t1, t2;
  complete_frame(n, t1, t2);
  return {kInf, kInf, t1};
}
inline Curvature round(double r, const Vec3& n) {
  Curvature c = flat(n);
  c.r1 = c.r2 = r;
  return c;
}
inline Curvature corner(const Vec3& n) { return round(0.0, n); }
// A surface curved with radius r1 across direction `along` (the straight or r2 direction) at a
// point of unit normal n: d1 = along × n so that n × d1 = along.
inline Curvature curved_across(double r1, double r2, const Vec3& along, const Vec3& n) {
  Vec3 a = along - along.dot(n) * n;
  const double na = a.norm();
  if (!(na > 1e-12)) return round(r1, n);
  a /= na;
  return {r1, r2, a.cross(n)};
}

// Appends one point with an explicitly computed gap.
inline void emit(std::vector<ContactPoint>& out, const Vec3& p1, const Vec3& p2, const Vec3& n,
                 double gap, std::uint32_t feature, const Curvature& c1, const Curvature& c2) {
  ContactPoint cp;
  cp.p1_W = p1;
  cp.p2_W = p2;
  cp.n_W = n;
  complete_frame(n, cp.t1_W, cp.t2_W);
  cp.gap = gap;
  cp.feature = feature;
  cp.curvature1 = c1;
  cp.curvature2 = c2;
  out.push_back(cp);
}

}  // namespace coulomb::narrow
