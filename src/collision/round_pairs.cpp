// Closed forms of the round pairs (docs/collision.md, "Pairs"):
//
// - sphere–sphere: the centres; sphere–capsule: the closest core point, then sphere–sphere;
// - capsule–capsule: closest points of the core segments; parallel cores (within kFlatAngle) that
//   overlap give both ends of the overlap (features 0, 1), else one point (feature 2);
// - sphere–box: the box point closest to the centre (clamped local coordinates), or the face of
//   least depth when the centre is inside (features: base-3 code of the clamps, 27 + face inside).
//
// Gaps come from the distances between centres or core points minus the radii.

#include "collision/contact_build.hpp"
#include "collision/curvature.hpp"
#include "collision/pairs.hpp"
#include "collision/segments.hpp"

#include <algorithm>
#include <cmath>

namespace coulomb::narrow {

namespace {

int sphere_sphere_of(const Sphere& s1, const Pose& X1, const Sphere& s2, const Pose& X2,
                     double margin, std::vector<ContactPoint>& out) {
  Vec3 n, p1, p2;
  double gap;
  sphere_pair_point(X1.p, s1.radius, X2.p, s2.radius, n, gap, p1, p2);
  if (gap > margin) return 0;
  emit(out, p1, p2, n, gap, 0, round(s1.radius, n), round(s2.radius, -n));
  return 1;
}

int sphere_capsule_of(const Sphere& s, const Pose& X1, const Capsule& c, const Pose& X2,
                      double margin, std::vector<ContactPoint>& out) {
  const Vec3 c_L = X2.apply_inverse(X1.p);
  const double t = std::clamp(c_L.z(), -c.half_length, c.half_length);
  Vec3 n, p1, p2;
  double gap;
  sphere_pair_point(X1.p, s.radius, X2.apply(Vec3(0, 0, t)), c.radius, n, gap, p1, p2);
  if (gap > margin) return 0;
  emit(out, p1, p2, n, gap, 0, round(s.radius, n),
       capsule_curvature(c, t, X2.rotate(Vec3::UnitZ()), -n));
  return 1;
}

int capsule_capsule_of(const Capsule& c1, const Pose& X1, const Capsule& c2, const Pose& X2,
                       double margin, std::vector<ContactPoint>& out) {
  const Vec3 u = X1.rotate(Vec3::UnitZ()), v = X2.rotate(Vec3::UnitZ());
  auto one = [&](double s, double t, std::uint32_t feature) {
    Vec3 n, p1, p2;
    double gap;
    sphere_pair_point(X1.p + s * u, c1.radius, X2.p + t * v, c2.radius, n, gap, p1, p2);
    if (gap > margin) return 0;
    emit(out, p1, p2, n, gap, feature, capsule_curvature(c1, s, u, n),
         capsule_curvature(c2, t, v, -n));
    return 1;
  };
  const double cosang = u.dot(v);
  if (std::abs(cosang) >= std::cos(kFlatAngle)) {
    // Parallel: the two ends of the overlap of the cores, features 0 and 1 (one point, feature 2,
    // when the overlap is a single point or empty).
    const double off = u.dot(X2.p - X1.p);
    const double lo = std::max(-c1.half_length, off - c2.half_length);
    const double hi = std::min(c1.half_length, off + c2.half_length);
    if (hi > lo) {
      // t: position on Q's line of the foot of P(s), v·(P(s) − q), clamped to Q.
      auto t_exact = [&](double s) {
        return std::clamp(v.dot(X1.p + s * u - X2.p), -c2.half_length, c2.half_length);
      };
      return one(lo, t_exact(lo), 0) + one(hi, t_exact(hi), 1);
    }
  }
  double s, t;
  segment_segment(X1.p, u, c1.half_length, X2.p, v, c2.half_length, s, t);
  return one(s, t, 2);
}

// Sphere (1) against box (2): closest point of the box to the centre, or the nearest face when the
// centre is inside. Feature: base-3 code of the clamped coordinates (0 inside the slab, 1 at −h,
// 2 at +h), + 27 when the centre is inside the box (then the face of least depth, 1 or 2 on it).
int sphere_box_of(const Sphere& s, const Pose& X1, const Box& b, const Pose& X2, double margin,
                  std::vector<ContactPoint>& out) {
  const Vec3 c = X2.apply_inverse(X1.p);
  const Vec3& h = b.half_extents;
  Vec3 q;
  std::uint32_t feature = 0, mult = 1;
  int clamped = 0;
  for (int i = 0; i < 3; ++i) {
    if (c[i] > h[i]) {
      q[i] = h[i];
      feature += 2 * mult;
      ++clamped;
    } else if (c[i] < -h[i]) {
      q[i] = -h[i];
      feature += mult;
      ++clamped;
    } else {
      q[i] = c[i];
    }
    mult *= 3;
  }
  if (clamped > 0) {
    const Vec3 d_L = q - c;  // from the sphere centre to the box
    const double dist = d_L.norm();
    const double gap = dist - s.radius;
    if (gap > margin) return 0;
    const Vec3 n = X2.rotate(d_L / dist);
    const Vec3 p2 = X2.apply(q);
    Curvature c2 = corner(-n);
    if (clamped == 1) {
      c2 = flat(-n);
    } else if (clamped == 2) {
      int free_axis = 0;
      for (int i = 0; i < 3; ++i) {
        if (q[i] == c[i]) free_axis = i;
      }
      c2 = curved_across(0.0, kInf, X2.rotate(Vec3::Unit(free_axis)), -n);
    }
    emit(out, X1.p + s.radius * n, p2, n, gap, feature, round(s.radius, n), c2);
    return 1;
  }
  // Centre inside: the face of least depth; the box is pushed along −(outward face normal).
  int axis = 0;
  double depth = kInf;
  for (int i = 0; i < 3; ++i) {
    const double di = h[i] - std::abs(c[i]);
    if (di < depth) {
      depth = di;
      axis = i;
    }
  }
  const double sgn = c[axis] >= 0.0 ? 1.0 : -1.0;
  Vec3 face = c;
  face[axis] = sgn * h[axis];
  const Vec3 n = -X2.rotate(sgn * Vec3::Unit(axis));
  const double gap = -(depth + s.radius);
  feature = 27 + static_cast<std::uint32_t>(axis) * 2 + (sgn > 0 ? 1 : 0);
  emit(out, X1.p + s.radius * n, X2.apply(face), n, gap, feature, round(s.radius, n), flat(-n));
  return 1;
}

}  // namespace

int sphere_sphere(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                  double margin, std::vector<ContactPoint>& out) {
  return sphere_sphere_of(as<Sphere>(g1), X1, as<Sphere>(g2), X2, margin, out);
}
int sphere_box(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
               double margin, std::vector<ContactPoint>& out) {
  return sphere_box_of(as<Sphere>(g1), X1, as<Box>(g2), X2, margin, out);
}
int sphere_capsule(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                   double margin, std::vector<ContactPoint>& out) {
  return sphere_capsule_of(as<Sphere>(g1), X1, as<Capsule>(g2), X2, margin, out);
}
int capsule_capsule(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                    double margin, std::vector<ContactPoint>& out) {
  return capsule_capsule_of(as<Capsule>(g1), X1, as<Capsule>(g2), X2, margin, out);
}

}  // namespace coulomb::narrow
