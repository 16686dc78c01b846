// Shape kinds, support points and the 3-D convex hull.

#include <coulomb/geometry/shape.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace coulomb {

std::string_view shape_kind_name(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::plane:
      return "plane";
    case ShapeKind::sphere:
      return "sphere";
    case ShapeKind::box:
      return "box";
    case ShapeKind::capsule:
      return "capsule";
    case ShapeKind::cylinder:
      return "cylinder";
    case ShapeKind::ellipsoid:
      return "ellipsoid";
    case ShapeKind::cone:
      return "cone";
    case ShapeKind::convex:
      return "convex";
  }
  return "unknown";
}

namespace {

// Unit vector of (x, y) in the plane, or (0, 0) when it is zero.
inline void radial_unit(double x, double y, double& ux, double& uy) {
  const double r = std::hypot(x, y);
  if (r > 0.0) {
    ux = x / r;
    uy = y / r;
  } else {
    ux = 0.0;
    uy = 0.0;
  }
}

inline double sign_pos(double v) { return v >= 0.0 ? 1.0 : -1.0; }

}  // namespace

Vec3 support_point(const Geometry& geometry, const Vec3& d) {
  struct Visitor {
    const Vec3& d;
    Vec3 operator()(const Plane&) const { return Vec3::Zero(); }
    Vec3 operator()(const Sphere& s) const {
      const double n = d.norm();
      return n > 0.0 ? Vec3(d * (s.radius / n)) : Vec3(0, 0, s.radius);
    }
    Vec3 operator()(const Box& b) const {
      return {sign_pos(d.x()) * b.half_extents.x(), sign_pos(d.y()) * b.half_extents.y(),
              sign_pos(d.z()) * b.half_extents.z()};
    }
    Vec3 operator()(const Capsule& c) const {
      const double n = d.norm();
      const Vec3 end(0, 0, sign_pos(d.z()) * c.half_length);
      return n > 0.0 ? Vec3(end + d * (c.radius / n)) : Vec3(end + Vec3(0, 0, c.radius));
    }
    Vec3 operator()(const Cylinder& c) const {
      double ux, uy;
      radial_unit(d.x(), d.y(), ux, uy);
      return {c.radius * ux, c.radius * uy, sign_pos(d.z()) * c.half_length};
    }
    Vec3 operator()(const Ellipsoid& e) const {
      // x = D² d / |D d| maximises d·x on x^T D^-2 x = 1, D = diag(a, b, c).
      const Vec3 dd = e.semi_axes.cwiseProduct(d);
      const double n = dd.norm();
      if (!(n > 0.0)) return Vec3(0, 0, e.semi_axes.z());
      return e.semi_axes.cwiseProduct(dd) / n;
    }
    Vec3 operator()(const Cone& c) const {
      double ux, uy;
      radial_unit(d.x(), d.y(), ux, uy);
      const Vec3 apex(0, 0, 0.5 * c.height);
      const Vec3 rim(c.radius * ux, c.radius * uy, -0.5 * c.height);
      return d.dot(apex) >= d.dot(rim) ? apex : rim;
    }
    Vec3 operator()(const ConvexHull& h) const {
      const auto& v = hull_vertices(h);
      if (v.empty()) return Vec3::Zero();
      std::size_t best = 0;
      double best_dot = d.dot(v[0]);
      for (std::size_t i = 1; i < v.size(); ++i) {
        const double s = d.dot(v[i]);
        if (s > best_dot) {
          best_dot = s;
          best = i;
        }
      }
      return v[best];
    }
  };
  return std::visit(Visitor{d}, geometry);
}

// Incremental convex hull: start from a tetrahedron of extreme points, add the other points in
// index order; each point outside the current hull (above some face by more than eps) removes the
// faces it sees and is joined to their horizon. O(n·f): meant for setup, not for the step loop.
ConvexHull make_convex_hull(std::span<const Vec3> points) {
  const std::size_t n = points.size();
  if (n < 4)
    throw std::invalid_argument("make_convex_hull: need at least 4 points spanning a volume");
  for (const Vec3& p : points) {
    if (!p.allFinite()) throw std::invalid_argument("make_convex_hull: non-finite point");
  }

  // Tolerance relative to the size of the point set.
  Vec3 lo = points[0], hi = points[0];
  for (const Vec3& p : points) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const double scale = (hi - lo).norm();
  const double eps = 1e-10 * scale;
  if (!(scale > 0.0)) throw std::invalid_argument("make_convex_hull: all points coincide");

  // Initial tetrahedron: i0 lowest x, i1 farthest from i0, i2 farthest from line, i3 from plane.
  std::size_t i0 = 0;
  for (std::size_t i = 1; i < n; ++i) {
    if (points[i].x() < points[i0].x()) i0 = i;
  }
  std::size_t i1 = i0;
  double best = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = (points[i] - points[i0]).norm();
    if (d > best) {
      best = d;
      i1 = i;
    }
  }
  const Vec3 e01 = (points[i1] - points[i0]).normalized();
  std::size_t i2 = i0;
  best = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = (points[i] - points[i0]).cross(e01).norm();
    if (d > best) {
      best = d;
      i2 = i;
    }
  }
  if (best <= eps) throw std::invalid_argument("make_convex_hull: points are collinear");
  const Vec3 n012 = (points[i1] - points[i0]).cross(points[i2] - points[i0]).normalized();
  std::size_t i3 = i0;
  best = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = std::abs((points[i] - points[i0]).dot(n012));
    if (d > best) {
      best = d;
      i3 = i;
    }
  }
  if (best <= eps) throw std::invalid_argument("make_convex_hull: points are coplanar");

  struct Face {
    std::array<std::int32_t, 3> v;
    Vec3 normal;
    double offset;  // normal·x = offset on the face plane
  };
  auto make_face = [&](std::int32_t a, std::int32_t b, std::int32_t c) {
    Face f{{a, b, c}, Vec3::Zero(), 0.0};
    f.normal = (points[b] - points[a]).cross(points[c] - points[a]).normalized();
    f.offset = f.normal.dot(points[a]);
    return f;
  };
  std::vector<Face> faces;
  {
    auto a = static_cast<std::int32_t>(i0), b = static_cast<std::int32_t>(i1),
         c = static_cast<std::int32_t>(i2), d = static_cast<std::int32_t>(i3);
    // Orient so that the fourth vertex is below (inside) face (a, b, c).
    if ((points[i3] - points[i0]).dot(n012) > 0.0) std::swap(b, c);
    faces.push_back(make_face(a, b, c));
    faces.push_back(make_face(a, d, b));
    faces.push_back(make_face(b, d, c));
    faces.push_back(make_face(c, d, a));
  }

  // Add the remaining points one by one.
  std::vector<char> visible;
  std::vector<std::pair<std::int32_t, std::int32_t>> horizon;
  for (std::size_t ip = 0; ip < n; ++ip) {
    if (ip == i0 || ip == i1 || ip == i2 || ip == i3) continue;
    const Vec3& p = points[ip];
    visible.assign(faces.size(), 0);
    bool any = false;
    for (std::size_t f = 0; f < faces.size(); ++f) {
      if (faces[f].normal.dot(p) - faces[f].offset > eps) {
        visible[f] = 1;
        any = true;
      }
    }
    if (!any) continue;
    // Horizon: directed edges of visible faces whose reverse edge is not on a visible face.
    horizon.clear();
    for (std::size_t f = 0; f < faces.size(); ++f) {
      if (!visible[f]) continue;
      for (int k = 0; k < 3; ++k) {
        const std::int32_t u = faces[f].v[k], w = faces[f].v[(k + 1) % 3];
        bool shared_visible = false;
        for (std::size_t g = 0; g < faces.size() && !shared_visible; ++g) {
          if (g == f || !visible[g]) continue;
          for (int m = 0; m < 3; ++m) {
            if (faces[g].v[m] == w && faces[g].v[(m + 1) % 3] == u) {
              shared_visible = true;
              break;
            }
          }
        }
        if (!shared_visible) horizon.emplace_back(u, w);
      }
    }
    // Replace the visible faces by the cone from p to the horizon.
    std::vector<Face> kept;
    kept.reserve(faces.size() + horizon.size());
    for (std::size_t f = 0; f < faces.size(); ++f) {
      if (!visible[f]) kept.push_back(faces[f]);
    }
    for (const auto& [u, w] : horizon)
      kept.push_back(make_face(u, w, static_cast<std::int32_t>(ip)));
    faces = std::move(kept);
  }

  // Compact: vertices in the order of `points`, faces re-indexed.
  ConvexHull hull;
  hull.points.assign(points.begin(), points.end());
  std::vector<std::int32_t> index(n, -1);
  for (const Face& f : faces) {
    for (std::int32_t v : f.v) index[static_cast<std::size_t>(v)] = 0;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (index[i] == 0) {
      index[i] = static_cast<std::int32_t>(hull.vertices.size());
      hull.vertices.push_back(points[i]);
    }
  }
  for (const Face& f : faces) {
    hull.faces.push_back({index[static_cast<std::size_t>(f.v[0])],
                          index[static_cast<std::size_t>(f.v[1])],
                          index[static_cast<std::size_t>(f.v[2])]});
    hull.face_normals.push_back(f.normal);
  }
  return hull;
}

}  // namespace coulomb
