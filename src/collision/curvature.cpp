// Curvature of the curved shapes at a surface point (see curvature.hpp for the formulas).

#include "collision/curvature.hpp"

#include <cmath>

namespace coulomb::narrow {

Curvature ellipsoid_curvature(const Vec3& axes, const Vec3& x_L, const Quat& q_WL) {
  const Vec3 inv2 = axes.cwiseAbs2().cwiseInverse();
  const Vec3 g = inv2.cwiseProduct(x_L);
  const double gn = g.norm();
  const Vec3 nl = g / gn;
  Vec3 e1, e2;
  complete_frame(nl, e1, e2);
  const double m11 = e1.dot(inv2.cwiseProduct(e1)) / gn;
  const double m12 = e1.dot(inv2.cwiseProduct(e2)) / gn;
  const double m22 = e2.dot(inv2.cwiseProduct(e2)) / gn;
  // Eigen-decomposition of the symmetric 2×2 [m11 m12; m12 m22].
  const double mean = 0.5 * (m11 + m22);
  const double rad = std::hypot(0.5 * (m11 - m22), m12);
  const double k1 = mean - rad;  // smaller curvature: larger radius first
  const double k2 = mean + rad;
  Vec3 d1;
  if (rad > 1e-15 * mean) {
    // Eigenvector of k1: (m12, k1 − m11) or (k1 − m22, m12), the better conditioned one.
    const double ax = m12, ay = k1 - m11, bx = k1 - m22, by = m12;
    d1 = (ax * ax + ay * ay >= bx * bx + by * by) ? Vec3(ax * e1 + ay * e2)
                                                  : Vec3(bx * e1 + by * e2);
    d1.normalize();
  } else {
    d1 = e1;  // umbilic: any direction
  }
  return {1.0 / k1, 1.0 / k2, q_WL * d1};
}

// Curvature of a capsule's surface at the point over core parameter t (|t| < hl: side).
Curvature capsule_curvature(const Capsule& c, double t, const Vec3& axis, const Vec3& n_out) {
  if (std::abs(t) < c.half_length) return curved_across(c.radius, kInf, axis, n_out);
  return round(c.radius, n_out);
}

// Curvature of a shape's surface at the local point x with local outward normal nl; the returned
// d1 is in world (q rotates local to world), n_W the world outward normal.
Curvature surface_curvature(const Geometry& g, const Vec3& x, const Quat& q, const Vec3& n_W) {
  const double tol = 1e-9;
  struct Visitor {
    const Vec3& x;
    const Quat& q;
    const Vec3& n_W;
    double tol;
    Curvature operator()(const Plane&) const { return flat(n_W); }
    Curvature operator()(const Sphere& s) const { return round(s.radius, n_W); }
    Curvature operator()(const Box& b) const {
      int on = 0, free_axis = 0;
      for (int i = 0; i < 3; ++i) {
        if (std::abs(std::abs(x[i]) - b.half_extents[i]) <= tol * b.half_extents.maxCoeff())
          ++on;
        else
          free_axis = i;
      }
      if (on <= 1) return flat(n_W);
      if (on == 2) return curved_across(0.0, kInf, q * Vec3::Unit(free_axis), n_W);
      return corner(n_W);
    }
    Curvature operator()(const Capsule& c) const {
      return capsule_curvature(c, x.z(), q * Vec3::UnitZ(), n_W);
    }
    Curvature operator()(const Cylinder& c) const {
      const double r = std::hypot(x.x(), x.y());
      const bool on_side = r >= c.radius * (1.0 - tol);
      const bool on_cap = std::abs(x.z()) >= c.half_length - tol * c.radius;
      const Vec3 axis = q * Vec3::UnitZ();
      if (on_side && on_cap) {
        const Vec3 tangent = axis.cross(q * Vec3(x.x(), x.y(), 0.0));
        return curved_across(0.0, c.radius, tangent, n_W);  // rim
      }
      if (on_side) return curved_across(c.radius, kInf, axis, n_W);
      return flat(n_W);
    }
    Curvature operator()(const Ellipsoid& e) const {
      return ellipsoid_curvature(e.semi_axes, x, q);
    }
    Curvature operator()(const Cone& c) const {
      const double r = std::hypot(x.x(), x.y());
      const double h = c.height;
      if (x.z() >= 0.5 * h - tol * h) return corner(n_W);  // apex
      const bool on_base = x.z() <= -0.5 * h + tol * h;
      const double r_side = c.radius * (0.5 * h - x.z()) / h;  // radius of the side at this z
      const Vec3 axis = q * Vec3::UnitZ();
      if (on_base && r >= c.radius * (1.0 - tol)) {
        return curved_across(0.0, c.radius, axis.cross(q * Vec3(x.x(), x.y(), 0.0)), n_W);
      }
      if (on_base) return flat(n_W);
      // Side: radius r/cos α around, straight along the generator (apex − point).
      const double cos_a = h / std::hypot(h, c.radius);
      const Vec3 generator = q * (Vec3(0, 0, 0.5 * h) - x);
      return curved_across(std::max(r, r_side) / cos_a, kInf, generator, n_W);
    }
    Curvature operator()(const ConvexHull&) const { return flat(n_W); }
  };
  return std::visit(Visitor{x, q, n_W, tol}, g);
}

}  // namespace coulomb::narrow
