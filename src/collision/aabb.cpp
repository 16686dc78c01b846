// World axis-aligned bounding boxes of every shape kind (closed forms from the shape's axes).

#include <coulomb/collision/broadphase.hpp>

#include <cmath>

namespace coulomb {

namespace {

// Extent along world axis i of a disk of radius r with unit normal (axis) a: r sqrt(1 − a_i²).
Vec3 disk_extent(const Vec3& a, double r) {
  return Vec3(r * std::sqrt(std::max(0.0, 1.0 - a.x() * a.x())),
              r * std::sqrt(std::max(0.0, 1.0 - a.y() * a.y())),
              r * std::sqrt(std::max(0.0, 1.0 - a.z() * a.z())));
}

}  // namespace

Aabb compute_aabb(const Geometry& geometry, const Pose& X_WS, double margin) {
  struct Visitor {
    const Pose& X;
    double m;
    Aabb centred(const Vec3& c, const Vec3& e) const { return {c - e, c + e}; }
    Aabb operator()(const Plane& p) const {
      // The half-space is unbounded except, for a normal along a world axis, on its outward side.
      Aabb box{Vec3::Constant(-kInf), Vec3::Constant(kInf)};
      const Vec3 n = X.rotate(p.normal);
      const double off = p.offset + n.dot(X.p);
      for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        if (n[j] == 0.0 && n[k] == 0.0 && n[i] != 0.0) {
          // n = ±e_i exactly: the solid is e_i·x <= off (n = +e_i) or >= -off (n = -e_i).
          if (n[i] > 0.0)
            box.hi[i] = off / n[i] + m;
          else
            box.lo[i] = off / n[i] - m;
        }
      }
      return box;
    }
    Aabb operator()(const Sphere& s) const { return centred(X.p, Vec3::Constant(s.radius + m)); }
    Aabb operator()(const Box& b) const {
      const Mat3 R = X.q.toRotationMatrix();
      return centred(X.p, R.cwiseAbs() * b.half_extents + Vec3::Constant(m));
    }
    Aabb operator()(const Capsule& c) const {
      const Vec3 a = X.rotate(Vec3::UnitZ());
      return centred(X.p, (c.half_length * a).cwiseAbs() + Vec3::Constant(c.radius + m));
    }
    Aabb operator()(const Cylinder& c) const {
      const Vec3 a = X.rotate(Vec3::UnitZ());
      return centred(X.p,
                     (c.half_length * a).cwiseAbs() + disk_extent(a, c.radius) + Vec3::Constant(m));
    }
    Aabb operator()(const Ellipsoid& e) const {
      // Support of the ellipsoid R D B (unit ball) along e_i: |row i of R D|.
      const Mat3 RD = X.q.toRotationMatrix() * e.semi_axes.asDiagonal();
      return centred(X.p, RD.rowwise().norm() + Vec3::Constant(m));
    }
    Aabb operator()(const Cone& c) const {
      const Vec3 a = X.rotate(Vec3::UnitZ());
      const Vec3 apex = X.p + 0.5 * c.height * a;
      const Vec3 base = X.p - 0.5 * c.height * a;
      const Vec3 e = disk_extent(a, c.radius);
      return {apex.cwiseMin(base - e) - Vec3::Constant(m),
              apex.cwiseMax(base + e) + Vec3::Constant(m)};
    }
    Aabb operator()(const ConvexHull& h) const {
      Aabb box;
      for (const Vec3& v : hull_vertices(h)) {
        const Vec3 w = X.apply(v);
        box.lo = box.lo.cwiseMin(w);
        box.hi = box.hi.cwiseMax(w);
      }
      box.lo -= Vec3::Constant(m);
      box.hi += Vec3::Constant(m);
      return box;
    }
  };
  return std::visit(Visitor{X_WS, margin}, geometry);
}

}  // namespace coulomb
