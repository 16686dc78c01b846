// Flat-on-flat manifold for the MPR pairs. After MPR gives the direction n (shape 1 to shape 2),
// each shape's support feature along ±n is looked up: a box face, a hull face (all hull vertices
// in the plane of the best-aligned triangle), a cylinder cap or a cone base (as the polygon of the
// kRimSamples rim samples at θk = 2πk/8, the points the plane–cylinder closed form reports). When
// both features are faces whose normals lie within kManifoldCos of ±n, shape 1's face is the
// reference face (its exact normal becomes the contact normal) and shape 2's face, the incident
// face, is clipped by the reference face's side planes (Sutherland–Hodgman). The points within
// margin are kept (at most kMaxManifold, the deepest first, then farthest from those kept).

#include "collision/face_manifold.hpp"

#include "collision/contact_build.hpp"

#include <array>
#include <cmath>

namespace coulomb::narrow {

namespace {

// Alignment needed for the manifold: cos of the angle between a face normal and ±n. MPR's normal
// is exact only to about 1e-6 (see the tests), so the 1e-6 rad of kFlatAngle is too strict here;
// 1 − 1e-6 is an angle of 1.4e-3 rad.
constexpr double kManifoldCos = 1.0 - 1e-6;
// Largest face polygon handled (hull faces with more vertices keep the single MPR point).
constexpr int kMaxPoly = 16;
// Largest clipped polygon: an m-gon clipped by k planes has at most m + k vertices.
constexpr int kMaxClip = 2 * kMaxPoly;
// At most this many manifold points per pair.
constexpr int kMaxManifold = 8;

// A face polygon in the shape frame, counter-clockwise seen from outside (about `normal`).
struct FacePoly {
  std::array<Vec3, kMaxPoly> v;
  int count = 0;
  Vec3 normal = Vec3::Zero();  // outward unit normal
  Vec3 centre = Vec3::Zero();  // a point of the face's plane
  std::uint32_t id = 0;        // face label, stable for a given shape
  double rim_radius = kInf;    // radius of the curve the edges sample (∞: straight edges)
};

// The circle of radius r at height z as kRimSamples points, counter-clockwise about +z when `up`
// (cylinder top cap), about −z otherwise (cylinder bottom cap, cone base).
void rim_poly(double r, double z, bool up, std::uint32_t id, FacePoly& f) {
  f.count = kRimSamples;
  for (int q = 0; q < kRimSamples; ++q) {
    const int k = up ? q : (kRimSamples - q) % kRimSamples;  // sample k at θk = 2πk/8
    const double th = 2.0 * kPi * k / kRimSamples;
    f.v[q] = Vec3(r * std::cos(th), r * std::sin(th), z);
  }
  f.normal = Vec3(0, 0, up ? 1.0 : -1.0);
  f.centre = Vec3(0, 0, z);
  f.id = id;
  f.rim_radius = r;
}

// The face of a hull most aligned with d (local), if within kManifoldCos: the vertices in the
// plane of the best triangle, ordered counter-clockwise from the lowest vertex index. The face id
// is the lowest index of the triangles coplanar with it (so it does not depend on which of them
// wins by round-off).
bool hull_face(const ConvexHull& h, const Vec3& d, FacePoly& f) {
  if (h.faces.empty() || h.face_normals.size() != h.faces.size()) return false;
  std::size_t best = 0;
  double best_dot = -kInf;
  for (std::size_t i = 0; i < h.face_normals.size(); ++i) {
    const double c = h.face_normals[i].dot(d);
    if (c > best_dot) {
      best_dot = c;
      best = i;
    }
  }
  if (best_dot < kManifoldCos) return false;
  const auto& v = h.vertices;
  double size = 0.0;
  for (const Vec3& x : v) size = std::max(size, x.cwiseAbs().maxCoeff());
  const double tol = 1e-9 * size;
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
  if (count < 3 || best >= (1u << 10)) return false;
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
  for (int q = 0; q < count; ++q) f.v[q] = v[static_cast<std::size_t>(idx[(start + q) % count])];
  f.normal = nf;
  f.centre = x0;
  f.id = static_cast<std::uint32_t>(best);
  f.rim_radius = kInf;
  return true;
}

// The face of a shape whose outward normal is within kManifoldCos of the local direction d.
bool flat_feature(const Geometry& g, const Vec3& d, FacePoly& f) {
  if (const auto* b = std::get_if<Box>(&g)) {
    int k = 0;
    for (int i = 1; i < 3; ++i) {
      if (std::abs(d[i]) > std::abs(d[k])) k = i;
    }
    if (std::abs(d[k]) < kManifoldCos) return false;
    const bool pos = d[k] > 0.0;
    const int ku = (k + 1) % 3, kv = (k + 2) % 3;
    const Vec3& h = b->half_extents;
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
    }
    f.normal = Vec3::Zero();
    f.normal[k] = pos ? 1.0 : -1.0;
    f.centre = Vec3::Zero();
    f.centre[k] = pos ? h[k] : -h[k];
    f.id = static_cast<std::uint32_t>(2 * k + (pos ? 1 : 0));
    f.rim_radius = kInf;
    return true;
  }
  if (const auto* c = std::get_if<Cylinder>(&g)) {
    if (std::abs(d.z()) < kManifoldCos) return false;
    const bool up = d.z() > 0.0;
    rim_poly(c->radius, up ? c->half_length : -c->half_length, up, up ? 1u : 0u, f);
    return true;
  }
  if (const auto* c = std::get_if<Cone>(&g)) {
    if (d.z() > -kManifoldCos) return false;
    rim_poly(c->radius, -0.5 * c->height, false, 0u, f);
    return true;
  }
  if (const auto* h = std::get_if<ConvexHull>(&g)) return hull_face(*h, d, f);
  return false;
}

struct ClipPointN {
  Vec3 x;
  std::uint32_t id;      // point label (see flat_manifold)
  std::uint32_t edges;   // bitmask of incident edges the point lies on
  std::uint32_t planes;  // bitmask of reference side planes the point lies on
};

}  // namespace

// Returns the number of points appended, or −1 when the pair is not flat-on-flat (the caller then
// keeps the single MPR point). n: MPR's direction from shape 1 to shape 2.
int flat_manifold(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                  const Vec3& n, double margin, std::vector<ContactPoint>& out) {
  FacePoly fr, fi;
  if (!flat_feature(g1, X1.q.conjugate() * n, fr)) return -1;
  if (!flat_feature(g2, X2.q.conjugate() * (-n), fi)) return -1;
  // Reference face (shape 1) in world: normal nr (≈ n), a point cf of its plane, side planes.
  const Vec3 nr = X1.rotate(fr.normal);
  const Vec3 cf = X1.apply(fr.centre);
  std::array<Vec3, kMaxPoly> rv, side;
  for (int j = 0; j < fr.count; ++j) rv[j] = X1.apply(fr.v[j]);
  for (int j = 0; j < fr.count; ++j) side[j] = (rv[(j + 1) % fr.count] - rv[j]).cross(nr);
  // Incident polygon (shape 2) in world.
  std::array<ClipPointN, kMaxClip> poly{}, next{};
  int np = fi.count;
  for (int q = 0; q < np; ++q) {
    poly[q].x = X2.apply(fi.v[q]);
    poly[q].id = static_cast<std::uint32_t>(q);
    poly[q].edges = (1u << q) | (1u << ((q + np - 1) % np));
    poly[q].planes = 0;
  }
  const auto kp = static_cast<std::uint32_t>(kMaxPoly);
  for (int j = 0; j < fr.count && np > 0; ++j) {
    if (!(side[j].squaredNorm() > 0.0)) continue;  // degenerate edge
    int nn = 0;
    for (int q = 0; q < np; ++q) {
      const ClipPointN& P = poly[q];
      const ClipPointN& Q = poly[(q + 1) % np];
      const double dp = side[j].dot(P.x - rv[j]);
      const double dq = side[j].dot(Q.x - rv[j]);
      if (dp <= 0.0 && nn < kMaxClip) next[nn++] = P;
      if ((dp <= 0.0) != (dq <= 0.0) && nn < kMaxClip) {
        const double t = dp / (dp - dq);
        ClipPointN X;
        X.x = P.x + t * (Q.x - P.x);
        const std::uint32_t common_edges = P.edges & Q.edges;
        const std::uint32_t common_planes = P.planes & Q.planes;
        X.planes = common_planes | (1u << j);
        const auto uj = static_cast<std::uint32_t>(j);
        if (common_edges != 0) {
          const auto e = static_cast<std::uint32_t>(__builtin_ctz(common_edges));
          X.edges = 1u << e;
          X.id = kp + kp * e + uj;  // incident edge e cut by side plane j
        } else {
          const auto jp =
              static_cast<std::uint32_t>(common_planes ? __builtin_ctz(common_planes) : 0);
          X.edges = 0;
          X.id = kp + kp * kp + kp * jp + uj;  // reference corner of side planes jp, j
        }
        next[nn++] = X;
      }
    }
    poly = next;
    np = nn;
  }
  // Points within margin.
  std::array<double, kMaxClip> gap{};
  std::array<int, kMaxClip> keep{};
  int nk = 0;
  for (int q = 0; q < np; ++q) {
    gap[q] = nr.dot(poly[q].x - cf);
    if (gap[q] <= margin) keep[nk++] = q;
  }
  if (nk == 0) return -1;
  // At most kMaxManifold: the deepest, then repeatedly the farthest from those chosen.
  if (nk > kMaxManifold) {
    std::array<bool, kMaxClip> chosen{};
    std::array<double, kMaxClip> dist{};
    int first = 0;
    for (int a = 1; a < nk; ++a) {
      if (gap[keep[a]] < gap[keep[first]]) first = a;
    }
    chosen[first] = true;
    for (int a = 0; a < nk; ++a) dist[a] = (poly[keep[a]].x - poly[keep[first]].x).squaredNorm();
    for (int m = 1; m < kMaxManifold; ++m) {
      int far = -1;
      for (int a = 0; a < nk; ++a) {
        if (!chosen[a] && (far < 0 || dist[a] > dist[far])) far = a;
      }
      chosen[far] = true;
      for (int a = 0; a < nk; ++a) {
        dist[a] = std::min(dist[a], (poly[keep[a]].x - poly[keep[far]].x).squaredNorm());
      }
    }
    int w = 0;
    for (int a = 0; a < nk; ++a) {
      if (chosen[a]) keep[w++] = keep[a];
    }
    nk = w;
  }
  // Emit: p2 on the incident face, p1 its projection on the reference plane.
  const Vec3 ni = X2.rotate(fi.normal);
  const bool parallel = -ni.dot(nr) >= std::cos(kFlatAngle);
  const std::uint32_t base = (1u << 31) | (fr.id << 20) | (fi.id << 10);
  for (int a = 0; a < nk; ++a) {
    const ClipPointN& P = poly[keep[a]];
    const double g = gap[keep[a]];
    Curvature c_inc = flat(-nr);
    if (!parallel && P.id < kp) {
      c_inc = corner(-nr);
    } else if (!parallel && P.id < kp + kp * kp) {
      const std::uint32_t e = (P.id - kp) / kp;
      const int e0 = static_cast<int>(e), e1 = (e0 + 1) % fi.count;
      const Vec3 along = X2.rotate(fi.v[e1] - fi.v[e0]);
      c_inc = curved_across(0.0, fi.rim_radius, along, -nr);
    }
    emit(out, P.x - g * nr, P.x, nr, g, base | P.id, flat(nr), c_inc);
  }
  return nk;
}

}  // namespace coulomb::narrow
