// Plane (shape 1) against every kind (shape 2), in closed form (docs/collision.md, "Pairs").
//
// The plane is the half-space {x : n·x <= off} in the world (n its outward unit normal). Each
// point's gap is n·x − off for the point x of shape 2 nearest the plane (sphere: centre − R n; box:
// each corner; capsule: each end sphere; cylinder and cone: rim samples or the lowest rim point;
// ellipsoid: the support point in −n; hull: each vertex), so that exactly placed bodies give exact
// zeros; p1 is x projected on the plane. Features: see the table of pairs in docs/collision.md.

#include "collision/contact_build.hpp"
#include "collision/curvature.hpp"
#include "collision/pairs.hpp"

#include <cmath>

namespace coulomb::narrow {

namespace {

// Plane (shape 1) against each kind (shape 2). n = plane's outward normal in world; off its offset.
struct PlaneW {
  Vec3 n;
  double off;
};
PlaneW world_plane(const Plane& p, const Pose& X) {
  const Vec3 n = X.rotate(p.normal);
  return {n, p.offset + n.dot(X.p)};
}

// A point x2 on shape 2 with gap g to the plane: p1 is its projection on the plane.
void emit_on_plane(std::vector<ContactPoint>& out, const PlaneW& pl, const Vec3& x2, double gap,
                   std::uint32_t feature, const Curvature& c2) {
  emit(out, x2 - gap * pl.n, x2, pl.n, gap, feature, flat(pl.n), c2);
}

int plane_sphere_of(const PlaneW& pl, const Sphere& s, const Pose& X, double margin,
                    std::vector<ContactPoint>& out) {
  const double gap = pl.n.dot(X.p) - pl.off - s.radius;
  if (gap > margin) return 0;
  emit_on_plane(out, pl, X.p - s.radius * pl.n, gap, 0, round(s.radius, -pl.n));
  return 1;
}

// Box corners: feature = corner index (bit 0: +x, bit 1: +y, bit 2: +z).
int plane_box_of(const PlaneW& pl, const Box& b, const Pose& X, double margin,
                 std::vector<ContactPoint>& out) {
  const Vec3 n_B = X.q.conjugate() * pl.n;
  // Lying flat when a face normal is within kFlatAngle of −n.
  const bool flat_face = n_B.cwiseAbs().maxCoeff() >= std::cos(kFlatAngle);
  int count = 0;
  for (std::uint32_t i = 0; i < 8; ++i) {
    const Vec3 c_B((i & 1) ? b.half_extents.x() : -b.half_extents.x(),
                   (i & 2) ? b.half_extents.y() : -b.half_extents.y(),
                   (i & 4) ? b.half_extents.z() : -b.half_extents.z());
    const Vec3 c_W = X.apply(c_B);
    const double gap = pl.n.dot(c_W) - pl.off;
    if (gap > margin) continue;
    emit_on_plane(out, pl, c_W, gap, i, flat_face ? flat(-pl.n) : corner(-pl.n));
    ++count;
  }
  return count;
}

// Capsule: the two end spheres; feature 0 for the −z end, 1 for the +z end.
int plane_capsule_of(const PlaneW& pl, const Capsule& c, const Pose& X, double margin,
                     std::vector<ContactPoint>& out) {
  const Vec3 a = X.rotate(Vec3::UnitZ());
  const bool side = std::abs(a.dot(pl.n)) <= std::sin(kFlatAngle);
  int count = 0;
  for (std::uint32_t k = 0; k < 2; ++k) {
    const Vec3 e = X.apply(Vec3(0, 0, k ? c.half_length : -c.half_length));
    const double gap = pl.n.dot(e) - pl.off - c.radius;
    if (gap > margin) continue;
    emit_on_plane(out, pl, e - c.radius * pl.n, gap, k,
                  side ? curved_across(c.radius, kInf, a, -pl.n) : round(c.radius, -pl.n));
    ++count;
  }
  return count;
}

// A circular rim (centre c, unit axis a, radius r) against the plane. Lying flat (axis within
// kFlatAngle of the normal): kRimSamples points at fixed angles of the shape frame, features
// first..first+7, reported flat. Tilted: the lowest rim point, feature `first + kRimSamples`, a
// sharp edge (0 across, r along the rim).
int plane_rim_of(const PlaneW& pl, const Pose& X, double z_L, double r, double margin,
                 std::uint32_t first, std::vector<ContactPoint>& out) {
  const Vec3 a = X.rotate(Vec3::UnitZ());
  const Vec3 c = X.apply(Vec3(0, 0, z_L));
  Vec3 u = -pl.n + pl.n.dot(a) * a;  // −n projected on the rim plane
  const double s = u.norm();
  int count = 0;
  if (s <= std::sin(kFlatAngle)) {
    for (int k = 0; k < kRimSamples; ++k) {
      const double th = 2.0 * kPi * k / kRimSamples;
      const Vec3 x = X.apply(Vec3(r * std::cos(th), r * std::sin(th), z_L));
      const double gap = pl.n.dot(x) - pl.off;
      if (gap > margin) continue;
      emit_on_plane(out, pl, x, gap, first + static_cast<std::uint32_t>(k), flat(-pl.n));
      ++count;
    }
    return count;
  }
  u /= s;
  const Vec3 x = c + r * u;
  const double gap = pl.n.dot(x) - pl.off;
  if (gap > margin) return 0;
  emit_on_plane(out, pl, x, gap, first + kRimSamples, curved_across(0.0, r, a.cross(u), -pl.n));
  return 1;
}

int plane_cylinder_of(const PlaneW& pl, const Cylinder& c, const Pose& X, double margin,
                      std::vector<ContactPoint>& out) {
  // Bottom rim features 0..8, top rim features 9..17.
  return plane_rim_of(pl, X, -c.half_length, c.radius, margin, 0, out) +
         plane_rim_of(pl, X, c.half_length, c.radius, margin, kRimSamples + 1, out);
}

int plane_cone_of(const PlaneW& pl, const Cone& c, const Pose& X, double margin,
                  std::vector<ContactPoint>& out) {
  // Apex: feature 0; base rim: features 1..9.
  int count = 0;
  const Vec3 apex = X.apply(Vec3(0, 0, 0.5 * c.height));
  const double gap = pl.n.dot(apex) - pl.off;
  if (gap <= margin) {
    emit_on_plane(out, pl, apex, gap, 0, corner(-pl.n));
    ++count;
  }
  return count + plane_rim_of(pl, X, -0.5 * c.height, c.radius, margin, 1, out);
}

int plane_ellipsoid_of(const PlaneW& pl, const Ellipsoid& e, const Pose& X, double margin,
                       std::vector<ContactPoint>& out) {
  // The point whose outward normal is −n: the support point in direction −n.
  const Vec3 x_L = support_point(e, X.q.conjugate() * (-pl.n));
  const Vec3 x = X.apply(x_L);
  const double gap = pl.n.dot(x) - pl.off;
  if (gap > margin) return 0;
  emit_on_plane(out, pl, x, gap, 0, ellipsoid_curvature(e.semi_axes, x_L, X.q));
  return 1;
}

// Hull vertices: feature = vertex index; corners.
int plane_hull_of(const PlaneW& pl, const ConvexHull& h, const Pose& X, double margin,
                  std::vector<ContactPoint>& out) {
  const auto& v = hull_vertices(h);
  int count = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vec3 x = X.apply(v[i]);
    const double gap = pl.n.dot(x) - pl.off;
    if (gap > margin) continue;
    emit_on_plane(out, pl, x, gap, static_cast<std::uint32_t>(i), corner(-pl.n));
    ++count;
  }
  return count;
}

}  // namespace

int plane_plane(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
                std::vector<ContactPoint>&) {
  return 0;  // two half-spaces: no contact points
}

int plane_sphere(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                 double margin, std::vector<ContactPoint>& out) {
  return plane_sphere_of(world_plane(as<Plane>(g1), X1), as<Sphere>(g2), X2, margin, out);
}
int plane_box(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2, double margin,
              std::vector<ContactPoint>& out) {
  return plane_box_of(world_plane(as<Plane>(g1), X1), as<Box>(g2), X2, margin, out);
}
int plane_capsule(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                  double margin, std::vector<ContactPoint>& out) {
  return plane_capsule_of(world_plane(as<Plane>(g1), X1), as<Capsule>(g2), X2, margin, out);
}
int plane_cylinder(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                   double margin, std::vector<ContactPoint>& out) {
  return plane_cylinder_of(world_plane(as<Plane>(g1), X1), as<Cylinder>(g2), X2, margin, out);
}
int plane_ellipsoid(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                    double margin, std::vector<ContactPoint>& out) {
  return plane_ellipsoid_of(world_plane(as<Plane>(g1), X1), as<Ellipsoid>(g2), X2, margin, out);
}
int plane_cone(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
               double margin, std::vector<ContactPoint>& out) {
  return plane_cone_of(world_plane(as<Plane>(g1), X1), as<Cone>(g2), X2, margin, out);
}
int plane_hull(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
               double margin, std::vector<ContactPoint>& out) {
  return plane_hull_of(world_plane(as<Plane>(g1), X1), as<ConvexHull>(g2), X2, margin, out);
}

}  // namespace coulomb::narrow
