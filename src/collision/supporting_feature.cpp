// Supporting features of each shape kind (see supporting_feature.hpp).

#include "collision/supporting_feature.hpp"

#include "collision/contact_build.hpp"

#include <algorithm>
#include <cmath>

namespace coulomb::narrow {

namespace {

// Sets a point feature at the local point x_L.
void point_feature(const Pose& X, const Vec3& x_L, double radius, std::uint32_t id, Feature& f) {
  f.kind = FeatureKind::point;
  f.count = 1;
  f.v[0] = X.apply(x_L);
  f.radius = radius;
  f.id = id;
}

// Sets a segment feature from a to b (local), with its line of curvature centres (local) and the
// radius about it.
void segment_feature(const Pose& X, const Vec3& a_L, const Vec3& b_L, double radius,
                     const Vec3& la_L, const Vec3& lb_L, double line_radius, std::uint32_t id,
                     Feature& f) {
  f.kind = FeatureKind::segment;
  f.count = 2;
  f.v[0] = X.apply(a_L);
  f.v[1] = X.apply(b_L);
  f.label[0] = 0;
  f.label[1] = 1;
  f.radius = radius;
  f.id = id;
  f.line = {X.apply(la_L), X.apply(lb_L)};
  f.line_radius = line_radius;
}

// Moves a polygon given in the shape frame to the world.
void polygon_to_world(const Pose& X, Feature& f) {
  for (int q = 0; q < f.count; ++q) f.v[q] = X.apply(f.v[q]);
  f.normal = X.rotate(f.normal);
  f.centre = X.apply(f.centre);
  f.kind = FeatureKind::polygon;
}

// The circle of radius r at height z as kRimSamples points (local), counter-clockwise about +z when
// `up` (cylinder top cap), about −z otherwise (cylinder bottom cap, cone base): position q holds
// sample k = q (up) or k = (8 − q) mod 8 (down), at θk = 2πk/8, label q. When the local direction
// d_L is tilted from the cap normal by more than kFlatAngle, the rim point along d_L (the support
// point of the rim) is inserted between its two neighbouring samples with label 8, unless it falls
// on a sample.
void rim_polygon(double r, double z, bool up, std::uint32_t id, const Vec3& d_L, Feature& f) {
  const double dxy = std::hypot(d_L.x(), d_L.y());
  const bool tilted = dxy > std::sin(kFlatAngle) * d_L.norm();
  const double step = 2.0 * kPi / kRimSamples;
  double phi = tilted ? std::atan2(d_L.y(), d_L.x()) : 0.0;
  if (phi < 0.0) phi += 2.0 * kPi;
  // The sample k0 at or below φ, and whether φ falls strictly between k0 and k0 + 1.
  const int k0 = std::min(kRimSamples - 1, static_cast<int>(std::floor(phi / step)));
  const bool insert =
      tilted && std::abs(phi - step * k0) > 1e-12 && std::abs(phi - step * (k0 + 1)) > 1e-12;
  // Position after which the rim point goes: sample k0's position up, sample k0+1's down.
  const int after = up ? k0 : (kRimSamples - (k0 + 1)) % kRimSamples;
  int n = 0;
  for (int q = 0; q < kRimSamples; ++q) {
    const int k = up ? q : (kRimSamples - q) % kRimSamples;
    const double th = step * k;
    f.v[n] = Vec3(r * std::cos(th), r * std::sin(th), z);
    f.label[n] = static_cast<std::uint8_t>(q);
    ++n;
    if (insert && q == after) {
      f.v[n] = Vec3(r * std::cos(phi), r * std::sin(phi), z);
      f.label[n] = kRimSamples;
      ++n;
    }
  }
  f.count = n;
  f.normal = Vec3(0, 0, up ? 1.0 : -1.0);
  f.centre = Vec3(0, 0, z);
  f.id = id;
  f.rim_radius = r;
  f.radius = 0.0;
}

// A box's face most aligned with d (local), counter-clockwise about its outward normal.
void box_face(const Box& b, const Vec3& d, Feature& f) {
  int k = 0;
  for (int i = 1; i < 3; ++i) {
    if (std::abs(d[i]) > std::abs(d[k])) k = i;
  }
  const bool pos = d[k] > 0.0;
  const int ku = (k + 1) % 3, kv = (k + 2) % 3;
  const Vec3& h = b.half_extents;
  // Counter-clockwise about +e_k in (e_ku, e_kv) (e_ku × e_kv = e_k); reversed for −e_k.
  constexpr double kSu[4] = {-1, 1, 1, -1}, kSv[4] = {-1, -1, 1, 1};
  f.count = 4;
  for (int q = 0; q < 4; ++q) {
    const int r = pos ? q : 3 - q;
    Vec3 x = Vec3::Zero();
    x[k] = pos ? h[k] : -h[k];
    x[ku] = kSu[r] * h[ku];
    x[kv] = kSv[r] * h[kv];
    f.v[q] = x;
    f.label[q] = static_cast<std::uint8_t>(q);
  }
  f.normal = Vec3::Zero();
  f.normal[k] = pos ? 1.0 : -1.0;
  f.centre = Vec3::Zero();
  f.centre[k] = pos ? h[k] : -h[k];
  f.id = static_cast<std::uint32_t>(2 * k + (pos ? 1 : 0));
  f.rim_radius = kInf;
  f.radius = 0.0;
}

// A hull's face through its support vertex along d (local), most aligned with d; false when the
// hull has no triangles or the face has more than kMaxPoly vertices (the caller then takes the
// support vertex).
bool hull_face(const ConvexHull& h, const Vec3& d, Feature& f) {
  if (h.faces.empty() || h.face_normals.size() != h.faces.size() || h.vertices.empty())
    return false;
  const auto& v = h.vertices;
  // Support vertex (lowest index on ties, as support_point).
  std::size_t top = 0;
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (d.dot(v[i]) > d.dot(v[top])) top = i;
  }
  // Of the triangles through it, the most aligned with d.
  std::size_t best = h.faces.size();
  double best_dot = -kInf;
  for (std::size_t i = 0; i < h.faces.size(); ++i) {
    const auto& t = h.faces[i];
    const auto it = static_cast<std::int32_t>(top);
    if (t[0] != it && t[1] != it && t[2] != it) continue;
    const double c = h.face_normals[i].dot(d);
    if (c > best_dot) {
      best_dot = c;
      best = i;
    }
  }
  if (best == h.faces.size()) return false;
  double size = 0.0;
  for (const Vec3& x : v) size = std::max(size, x.cwiseAbs().maxCoeff());
  const double tol = 1e-9 * size;
  // Canonical id: the lowest index of the triangles in the same plane.
  for (std::size_t i = 0; i < h.face_normals.size(); ++i) {
    if ((h.face_normals[i] - h.face_normals[best]).norm() <= 1e-9) {
      best = i;
      break;
    }
  }
  const Vec3 nf = h.face_normals[best];
  const Vec3 x0 = v[static_cast<std::size_t>(h.faces[best][0])];
  const double off = nf.dot(x0);
  std::array<int, kMaxPoly> idx{};
  int count = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (std::abs(nf.dot(v[i]) - off) > tol) continue;
    if (count == kMaxPoly) return false;
    idx[count++] = static_cast<int>(i);
  }
  if (count < 3 || best >= kFeatureSegment) return false;
  // Counter-clockwise about nf: angles in the frame (t1, t2) with t1 × t2 = nf around the mean.
  Vec3 c = Vec3::Zero();
  for (int q = 0; q < count; ++q) c += v[static_cast<std::size_t>(idx[q])];
  c /= count;
  Vec3 t1, t2;
  complete_frame(nf, t1, t2);
  std::array<double, kMaxPoly> ang{};
  for (int q = 0; q < count; ++q) {
    const Vec3 r = v[static_cast<std::size_t>(idx[q])] - c;
    ang[q] = std::atan2(r.dot(t2), r.dot(t1));
  }
  for (int a = 1; a < count; ++a) {  // insertion sort by angle (vertex index breaks ties)
    for (int b = a; b > 0 && (ang[b] < ang[b - 1] || (ang[b] == ang[b - 1] && idx[b] < idx[b - 1]));
         --b) {
      std::swap(ang[b], ang[b - 1]);
      std::swap(idx[b], idx[b - 1]);
    }
  }
  int start = 0;
  for (int q = 1; q < count; ++q) {
    if (idx[q] < idx[start]) start = q;
  }
  f.count = count;
  for (int q = 0; q < count; ++q) {
    f.v[q] = v[static_cast<std::size_t>(idx[(start + q) % count])];
    f.label[q] = static_cast<std::uint8_t>(q);
  }
  f.normal = nf;
  f.centre = x0;
  f.id = static_cast<std::uint32_t>(best);
  f.rim_radius = kInf;
  f.radius = 0.0;
  return true;
}

}  // namespace

void supporting_feature(const Geometry& g, const Pose& X, const Vec3& d_W, Feature& f) {
  const Vec3 d = X.q.conjugate() * d_W;
  struct Visitor {
    const Pose& X;
    const Vec3& d;
    Feature& f;
    void operator()(const Plane&) const { point_feature(X, Vec3::Zero(), 0.0, kFeaturePoint, f); }
    void operator()(const Sphere& s) const {
      point_feature(X, Vec3::Zero(), s.radius, kFeaturePoint, f);
    }
    void operator()(const Ellipsoid& e) const {
      point_feature(X, support_point(e, d), 0.0, kFeaturePoint + 1, f);
    }
    void operator()(const Box& b) const {
      box_face(b, d, f);
      polygon_to_world(X, f);
    }
    void operator()(const Capsule& c) const {
      const Vec3 a(0, 0, -c.half_length), b(0, 0, c.half_length);
      segment_feature(X, a, b, c.radius, a, b, c.radius, kFeatureSegment, f);
    }
    void operator()(const Cylinder& c) const {
      const double dxy = std::hypot(d.x(), d.y());
      if (std::abs(d.z()) >= dxy) {  // within 45° of the axis: the cap facing d
        const bool up = d.z() > 0.0;
        rim_polygon(c.radius, up ? c.half_length : -c.half_length, up, up ? 1u : 0u, d, f);
        polygon_to_world(X, f);
        return;
      }
      // The side generator at the azimuth of d: the rim points along d of both caps.
      const Vec3 u(d.x() / dxy, d.y() / dxy, 0.0);
      const Vec3 a = c.radius * u - Vec3(0, 0, c.half_length);
      const Vec3 b = c.radius * u + Vec3(0, 0, c.half_length);
      segment_feature(X, a, b, 0.0, Vec3(0, 0, -c.half_length), Vec3(0, 0, c.half_length), c.radius,
                      kFeatureSegment + 1, f);
    }
    void operator()(const Cone& c) const {
      // Base normal −z against the side normal (cos α u, sin α) at the azimuth u of d.
      const double dxy = std::hypot(d.x(), d.y());
      const double slant = std::hypot(c.radius, c.height);
      const double cos_a = c.height / slant, sin_a = c.radius / slant;
      if (-d.z() >= cos_a * dxy + sin_a * d.z()) {
        rim_polygon(c.radius, -0.5 * c.height, false, 0u, d, f);
        polygon_to_world(X, f);
        return;
      }
      const Vec3 u = dxy > 0.0 ? Vec3(d.x() / dxy, d.y() / dxy, 0.0) : Vec3(Vec3::UnitX());
      const Vec3 rim = c.radius * u - Vec3(0, 0, 0.5 * c.height);
      const Vec3 apex(0, 0, 0.5 * c.height);
      segment_feature(X, rim, apex, 0.0, rim, apex, 0.0, kFeatureSegment + 2, f);
    }
    void operator()(const ConvexHull& h) const {
      if (hull_face(h, d, f)) {
        polygon_to_world(X, f);
        return;
      }
      point_feature(X, support_point(h, d), 0.0, kFeaturePoint + 2, f);
    }
  };
  std::visit(Visitor{X, d, f}, g);
}

}  // namespace coulomb::narrow
