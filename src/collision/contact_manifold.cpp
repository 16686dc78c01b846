// Clipping of supporting features into contact manifolds (see contact_manifold.hpp).

#include "collision/contact_manifold.hpp"

#include "collision/contact_build.hpp"
#include "collision/curvature.hpp"

#include <algorithm>
#include <cmath>

namespace coulomb::narrow {

namespace {

// Largest clipped polygon: an m-gon clipped by k planes has at most m + k vertices.
constexpr int kMaxClip = 2 * kMaxPoly;
constexpr auto kP = static_cast<std::uint32_t>(kMaxPoly);

std::uint32_t manifold_id(bool ref_on_2, std::uint32_t ref_id, std::uint32_t inc_id,
                          std::uint32_t point) {
  return (1u << 31) | (ref_on_2 ? 1u << 30 : 0u) | (ref_id << 20) | (inc_id << 10) | point;
}

// A clipped point of the incident feature.
struct ClipPoint {
  Vec3 x;                // world position (core of a rounded incident shape)
  std::uint32_t id;      // point id (header)
  std::uint32_t edges;   // bitmask of incident polygon edges (by position) the point lies on
  std::uint32_t planes;  // bitmask of reference side planes the point lies on
};

// The reference face in the world: its vertices and outward side-plane normals.
struct RefFace {
  std::array<Vec3, kMaxPoly> r;
  std::array<Vec3, kMaxPoly> side;
  int count = 0;
};

RefFace side_planes(const Feature& ref) {
  RefFace R;
  R.count = ref.count;
  for (int j = 0; j < ref.count; ++j) R.r[j] = ref.v[j];
  for (int j = 0; j < ref.count; ++j)
    R.side[j] = (ref.v[(j + 1) % ref.count] - ref.v[j]).cross(ref.normal);
  return R;
}

// Sutherland–Hodgman: the incident polygon clipped by every side plane (ids as in the header).
int clip_polygon(const RefFace& R, const Feature& inc, std::array<ClipPoint, kMaxClip>& poly) {
  std::array<ClipPoint, kMaxClip> next{};
  int np = inc.count;
  for (int q = 0; q < np; ++q) {
    poly[q].x = inc.v[q];
    poly[q].id = inc.label[q];
    poly[q].edges = (1u << q) | (1u << ((q + np - 1) % np));
    poly[q].planes = 0;
  }
  for (int j = 0; j < R.count && np > 0; ++j) {
    if (!(R.side[j].squaredNorm() > 0.0)) continue;  // degenerate edge
    int nn = 0;
    for (int q = 0; q < np; ++q) {
      const ClipPoint& P = poly[q];
      const ClipPoint& Q = poly[(q + 1) % np];
      const double dp = R.side[j].dot(P.x - R.r[j]);
      const double dq = R.side[j].dot(Q.x - R.r[j]);
      if (dp <= 0.0 && nn < kMaxClip) next[nn++] = P;
      // A crossing strictly through the plane (a vertex on the plane is kept as it is).
      if (((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0)) && nn < kMaxClip) {
        const double t = dp / (dp - dq);
        ClipPoint X;
        X.x = P.x + t * (Q.x - P.x);
        const std::uint32_t common_edges = P.edges & Q.edges;
        const std::uint32_t common_planes = P.planes & Q.planes;
        X.planes = common_planes | (1u << j);
        const auto uj = static_cast<std::uint32_t>(j);
        if (common_edges != 0) {
          const auto e = static_cast<std::uint32_t>(__builtin_ctz(common_edges));
          X.edges = 1u << e;
          X.id = kP + kP * inc.label[e] + uj;  // incident edge e cut by side plane j
        } else {
          const auto jp =
              static_cast<std::uint32_t>(common_planes ? __builtin_ctz(common_planes) : 0);
          X.edges = 0;
          X.id = kP + kP * kP + kP * jp + uj;  // reference corner of side planes jp, j
        }
        next[nn++] = X;
      }
    }
    poly = next;
    np = nn;
  }
  return np;
}

// Cyrus–Beck: the incident segment's parameter interval cut by every side plane; 0, 1 or 2
// points (ids as in the header).
int clip_segment(const RefFace& R, const Feature& inc, std::array<ClipPoint, kMaxClip>& pts) {
  const Vec3 a = inc.v[0], b = inc.v[1];
  double t0 = 0.0, t1 = 1.0;
  std::uint32_t id0 = 0, id1 = 1;
  for (int j = 0; j < R.count; ++j) {
    if (!(R.side[j].squaredNorm() > 0.0)) continue;
    const double da = R.side[j].dot(a - R.r[j]);
    const double db = R.side[j].dot(b - R.r[j]);
    if (da > 0.0 && db > 0.0) return 0;
    const auto uj = static_cast<std::uint32_t>(j);
    if (da > 0.0) {  // entering: the start moves to the plane
      const double t = da / (da - db);
      if (t > t0) {
        t0 = t;
        id0 = kP + uj;
      }
    } else if (db > 0.0) {  // leaving: the end moves to the plane
      const double t = da / (da - db);
      if (t < t1) {
        t1 = t;
        id1 = kP + kP + uj;
      }
    }
  }
  if (t0 > t1) return 0;
  pts[0].x = t0 == 0.0 ? a : Vec3(a + t0 * (b - a));
  pts[0].id = id0;
  if (t1 == t0) return 1;
  pts[1].x = t1 == 1.0 ? b : Vec3(a + t1 * (b - a));
  pts[1].id = id1;
  return 2;
}

// Keeps at most kMaxManifold of the nk points listed in `keep`: the deepest, then repeatedly the
// farthest from those kept (ties to the lower index), in their original order.
int reduce(const std::array<ClipPoint, kMaxClip>& pts, const std::array<double, kMaxClip>& gap,
           std::array<int, kMaxClip>& keep, int nk) {
  if (nk <= kMaxManifold) return nk;
  std::array<bool, kMaxClip> chosen{};
  std::array<double, kMaxClip> dist{};
  int first = 0;
  for (int a = 1; a < nk; ++a) {
    if (gap[keep[a]] < gap[keep[first]]) first = a;
  }
  chosen[first] = true;
  for (int a = 0; a < nk; ++a) dist[a] = (pts[keep[a]].x - pts[keep[first]].x).squaredNorm();
  for (int m = 1; m < kMaxManifold; ++m) {
    int far = -1;
    for (int a = 0; a < nk; ++a) {
      if (!chosen[a] && (far < 0 || dist[a] > dist[far])) far = a;
    }
    chosen[far] = true;
    for (int a = 0; a < nk; ++a) {
      dist[a] = std::min(dist[a], (pts[keep[a]].x - pts[keep[far]].x).squaredNorm());
    }
  }
  int w = 0;
  for (int a = 0; a < nk; ++a) {
    if (chosen[a]) keep[w++] = keep[a];
  }
  return w;
}

// Curvature of the incident surface at a clipped point. n_out: the incident shape's outward
// normal there (−nr).
Curvature incident_curvature(const Feature& inc, const ClipPoint& P, const Vec3& x_surface,
                             const Geometry& g, const Pose& X, const Vec3& n_out) {
  if (inc.kind == FeatureKind::polygon) {
    // Faces parallel (within kFlatAngle): the incident face lies flat on the reference face.
    if (inc.normal.dot(n_out) >= std::cos(kFlatAngle)) return flat(n_out);
    if (P.id < kP) {  // a vertex: a corner, or a point of a rim (sharp across, R along)
      return inc.rim_radius < kInf ? surface_curvature(g, X.apply_inverse(x_surface), X.q, n_out)
                                   : corner(n_out);
    }
    if (P.id < kP + kP * kP) {  // on an incident edge: sharp across it
      const int e = __builtin_ctz(P.edges);
      const Vec3 along = inc.v[(e + 1) % inc.count] - inc.v[e];
      return curved_across(0.0, inc.rim_radius, along, n_out);
    }
    return flat(n_out);  // inside the incident face
  }
  if (inc.kind == FeatureKind::segment) {
    const Vec3 axis = inc.line[1] - inc.line[0];
    const bool lying = std::abs(axis.normalized().dot(n_out)) <= std::sin(kFlatAngle);
    if (const auto* c = std::get_if<Capsule>(&g)) {
      if (lying) return curved_across(c->radius, kInf, axis, n_out);
      return capsule_curvature(*c, X.apply_inverse(P.x).z(), axis, n_out);
    }
    if (const auto* c = std::get_if<Cylinder>(&g)) {
      if (lying) return curved_across(c->radius, kInf, axis, n_out);  // the side along its line
    }
  }
  return surface_curvature(g, X.apply_inverse(x_surface), X.q, n_out);
}

// Appends a manifold point: x on the incident surface with gap g from the reference plane.
void add_point(Manifold& m, bool ref_on_2, const Vec3& nr, const Vec3& x, double g,
               std::uint32_t feature, const Curvature& c_inc) {
  ContactPoint& cp = m.point[m.count++];
  const Vec3 on_face = x - g * nr;
  cp.p1_W = ref_on_2 ? x : on_face;
  cp.p2_W = ref_on_2 ? on_face : x;
  cp.n_W = ref_on_2 ? Vec3(-nr) : nr;
  complete_frame(cp.n_W, cp.t1_W, cp.t2_W);
  cp.gap = g;
  cp.feature = feature;
  cp.curvature1 = ref_on_2 ? c_inc : flat(nr);
  cp.curvature2 = ref_on_2 ? flat(nr) : c_inc;
  m.min_gap = std::min(m.min_gap, g);
}

// Closest points of the infinite lines a1 + s u and a2 + t v (u, v unit, not parallel).
void line_line(const Vec3& a1, const Vec3& u, const Vec3& a2, const Vec3& v, double& s, double& t) {
  const Vec3 w = a1 - a2;
  const double c = u.dot(v), du = u.dot(w), dv = v.dot(w);
  const double den = 1.0 - c * c;
  s = (c * dv - du) / den;
  t = (dv - c * du) / den;
}

// Curvature of a line feature's surface at p (world) with outward normal n_out.
Curvature line_curvature(const Feature& f, const Geometry& g, const Pose& X, double s,
                         const Vec3& p, const Vec3& n_out) {
  const Vec3 axis = f.line[1] - f.line[0];
  if (const auto* c = std::get_if<Capsule>(&g))
    return capsule_curvature(*c, s - c->half_length, axis, n_out);
  if (const auto* c = std::get_if<Cylinder>(&g)) return curved_across(c->radius, kInf, axis, n_out);
  return surface_curvature(g, X.apply_inverse(p), X.q, n_out);
}

}  // namespace

bool clip_to_face(const Feature& ref, bool ref_on_2, const Feature& inc, const Geometry& g_inc,
                  const Pose& X_inc, double margin, Manifold& m) {
  m.count = 0;
  m.min_gap = kInf;
  const Vec3& nr = ref.normal;
  const RefFace R = side_planes(ref);
  std::array<ClipPoint, kMaxClip> pts{};
  int np = 0;
  if (inc.kind == FeatureKind::polygon) {
    np = clip_polygon(R, inc, pts);
  } else if (inc.kind == FeatureKind::segment) {
    np = clip_segment(R, inc, pts);
  } else {
    pts[0].x = inc.v[0];
    pts[0].id = 0;
    np = 1;
    for (int j = 0; j < R.count; ++j) {
      if (R.side[j].dot(inc.v[0] - R.r[j]) > 0.0) np = 0;
    }
  }
  // Gaps of the surface points (moved by the incident radius towards the face).
  std::array<double, kMaxClip> gap{};
  std::array<int, kMaxClip> keep{};
  int nk = 0;
  for (int q = 0; q < np; ++q) {
    gap[q] = nr.dot(pts[q].x - ref.centre) - inc.radius;
    if (gap[q] <= margin) keep[nk++] = q;
  }
  if (nk == 0) return false;
  nk = reduce(pts, gap, keep, nk);
  for (int a = 0; a < nk; ++a) {
    const ClipPoint& P = pts[keep[a]];
    const Vec3 x = P.x - inc.radius * nr;  // on the incident surface
    const Curvature c = incident_curvature(inc, P, x, g_inc, X_inc, -nr);
    add_point(m, ref_on_2, nr, x, gap[keep[a]], manifold_id(ref_on_2, ref.id, inc.id, P.id), c);
  }
  return true;
}

bool line_pair(const Feature& f1, const Geometry& g1, const Pose& X1, const Feature& f2,
               const Geometry& g2, const Pose& X2, double margin, double crossing_depth,
               Manifold& m) {
  m.count = 0;
  m.min_gap = kInf;
  const Vec3 a1 = f1.line[0], a2 = f2.line[0];
  Vec3 u = f1.line[1] - a1, v = f2.line[1] - a2;
  const double L1 = u.norm(), L2 = v.norm();
  if (!(L1 > 0.0) || !(L2 > 0.0)) return false;
  u /= L1;
  v /= L2;
  const double len_tol = 1e-9 * (L1 + L2);
  // Nearly parallel lines: the stretch of L1 whose feet on L2 fall inside L2, t(s) = t0 + s u·v.
  const double c = u.dot(v), t0 = v.dot(a1 - a2);
  double lo = 0.0, hi = -1.0;
  if (std::abs(c) >= std::cos(kParallelLines)) {
    const double sa = -t0 / c, sb = (L2 - t0) / c;
    lo = std::max(0.0, std::min(sa, sb));
    hi = std::min(L1, std::max(sa, sb));
  }
  const bool ends = hi - lo > len_tol;
  // The crossing: closest points of the lines, when not parallel and on both segments.
  bool cross = false;
  double sc = 0.0, tc = 0.0;
  if (u.cross(v).norm() > std::sin(kFlatAngle)) {
    line_line(a1, u, a2, v, sc, tc);
    cross = sc >= 0.0 && sc <= L1 && tc >= 0.0 && tc <= L2 &&
            (!ends || (sc > lo + len_tol && sc < hi - len_tol));
  }
  if (!ends && !cross) return false;
  // The distance of the two lines' points at parameters s of L1 and t of L2.
  auto distance = [&](double s, double t) { return ((a2 + t * v) - (a1 + s * u)).norm(); };
  auto on_l2 = [&](double s) { return std::clamp(t0 + s * c, 0.0, L2); };
  if (cross && ends) {
    cross = distance(sc, tc) <
            std::min(distance(lo, on_l2(lo)), distance(hi, on_l2(hi))) - crossing_depth;
  }
  // One point at parameter s of L1 (and t of L2).
  auto one = [&](double s, double t, std::uint32_t id) {
    const Vec3 x1 = a1 + s * u, x2 = a2 + t * v;
    const Vec3 w = x2 - x1;
    const double dist = w.norm();
    if (!(dist > len_tol)) return false;  // the lines meet: no direction
    const Vec3 n = w / dist;
    const double g = dist - f1.line_radius - f2.line_radius;
    if (g > margin) return true;
    ContactPoint& cp = m.point[m.count++];
    cp.p1_W = x1 + f1.line_radius * n;
    cp.p2_W = x2 - f2.line_radius * n;
    cp.n_W = n;
    complete_frame(n, cp.t1_W, cp.t2_W);
    cp.gap = g;
    cp.feature = manifold_id(false, kNoFace, f2.id, id);
    cp.curvature1 = line_curvature(f1, g1, X1, s, cp.p1_W, n);
    cp.curvature2 = line_curvature(f2, g2, X2, t, cp.p2_W, -n);
    m.min_gap = std::min(m.min_gap, g);
    return true;
  };
  bool ok = true;
  if (ends) ok = one(lo, on_l2(lo), 0) && ok;
  if (cross) ok = one(sc, tc, 2) && ok;
  if (ends) ok = one(hi, on_l2(hi), 1) && ok;
  return ok && m.count > 0;
}

}  // namespace coulomb::narrow
