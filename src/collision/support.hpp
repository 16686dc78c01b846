#pragma once
// Support functions in the world frame and the separation of two shapes along a direction: the
// quantities the general convex pairs are built on.
//
// For a bounded convex shape A placed at X, its support point along a world direction d is
// s_A(d) = X(support_point(A, Rᵀ d)), a point of A maximising d·x; its support value is
// h_A(d) = d·s_A(d). For the unit direction n from shape 1 to shape 2,
//
//   separation(n) = min_{x∈2} n·x − max_{x∈1} n·x = −h_2(−n) − h_1(n) = −h_M(n),
//
// with M = A1 − A2 the Minkowski difference. It is the gap along n (negative: overlap depth along
// n). Over unit n, its maximum is the signed distance of the two shapes: the distance when they
// are apart, minus the depth of the minimum translation when they overlap; every other direction
// gives less (van den Bergen, "Collision Detection in Interactive 3D Environments", 2003, §4.3).
// The narrowphase compares candidate normals with it, so a better candidate is never rejected.

#include <coulomb/geometry/shape.hpp>

#include <algorithm>
#include <cmath>

namespace coulomb::narrow {

// Support point of g placed at X along the world direction d (any length, non-zero) [m].
inline Vec3 world_support(const Geometry& g, const Pose& X, const Vec3& d_W) {
  return X.apply(support_point(g, X.q.conjugate() * d_W));
}

// Gap of the two shapes along the unit world direction n (from shape 1 to shape 2) [m].
inline double separation(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                         const Vec3& n) {
  return n.dot(world_support(g2, X2, -n)) - n.dot(world_support(g1, X1, n));
}

// A length scale of a bounded shape: the radius of a ball about its frame origin that holds it
// [m]. Used to make tolerances relative.
inline double shape_size(const Geometry& g) {
  struct Visitor {
    double operator()(const Plane&) const { return 0.0; }
    double operator()(const Sphere& s) const { return s.radius; }
    double operator()(const Box& b) const { return b.half_extents.norm(); }
    double operator()(const Capsule& c) const { return c.half_length + c.radius; }
    double operator()(const Cylinder& c) const { return std::hypot(c.radius, c.half_length); }
    double operator()(const Ellipsoid& e) const { return e.semi_axes.maxCoeff(); }
    double operator()(const Cone& c) const { return std::hypot(c.radius, 0.5 * c.height); }
    double operator()(const ConvexHull& h) const {
      double r = 0.0;
      for (const Vec3& v : hull_vertices(h)) r = std::max(r, v.norm());
      return r;
    }
  };
  return std::visit(Visitor{}, g);
}

}  // namespace coulomb::narrow
