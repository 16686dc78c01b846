// Narrowphase: contact points between two shapes (docs/collision.md lists the pairs).
//
// Dispatch: pairs are implemented for kind(g1) <= kind(g2) in the order of Geometry's alternatives;
// a pair given the other way round is computed swapped and its points flipped (normal negated,
// p1/p2 and curvatures exchanged, tangents rebuilt). Closed forms for the pairs with a plane and
// for sphere/capsule/box pairs; libccd's MPR for the other convex pairs (one point, or up to 8
// from face clipping when two faces lie flat on each other: flat_manifold).
//
// Conventions: n from shape 1 to shape 2; gap = (p2 − p1)·n, < 0 in penetration; only points with
// gap <= margin are appended. Gaps are computed from the shapes' own coordinates along n (not as a
// difference of the reported points) so that exactly placed resting bodies give gap == 0 exactly.
//
// Curvature reported (principal radii, d1 tangent): a face is flat (inf, inf); a sphere (R, R); a
// cylindrical side (R, inf) with d1 around the axis; an ellipsoid its exact principal radii; a cone
// side (r/cos α, inf), r the distance to the axis and α the half-angle; a sharp edge (0, ρ) with
// d1 across the edge and ρ the radius of the edge curve (inf for straight edges); a corner or apex
// (0, 0). Points that sample a face lying flat on the other surface (a box face on a plane or on
// another box, a cylinder cap or cone base on a plane) report the face as flat (inf, inf).

#include <coulomb/collision/narrowphase.hpp>

#include <ccd/ccd.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace coulomb {

namespace {

// Angle below which a flat face counts as lying flat on a plane or another face [rad].
constexpr double kFlatAngle = 1e-6;
// Number of rim points sampled on a cylinder cap or cone base lying flat.
constexpr int kRimSamples = 8;

// Flat (plane/face) curvature with a tangent d1 completing n.
Curvature flat(const Vec3& n) {
  Vec3 t1, t2;
  complete_frame(n, t1, t2);
  return {kInf, kInf, t1};
}
Curvature round(double r, const Vec3& n) {
  Curvature c = flat(n);
  c.r1 = c.r2 = r;
  return c;
}
Curvature corner(const Vec3& n) { return round(0.0, n); }
// A surface curved with radius r1 across direction `along` (the straight or r2 direction) at a
// point of unit normal n: d1 = along × n so that n × d1 = along.
Curvature curved_across(double r1, double r2, const Vec3& along, const Vec3& n) {
  Vec3 a = along - along.dot(n) * n;
  const double na = a.norm();
  if (!(na > 1e-12)) return round(r1, n);
  a /= na;
  return {r1, r2, a.cross(n)};
}

// Appends one point with an explicitly computed gap.
void emit(std::vector<ContactPoint>& out, const Vec3& p1, const Vec3& p2, const Vec3& n, double gap,
          std::uint32_t feature, const Curvature& c1, const Curvature& c2) {
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

// ---------------------------------------------------------------------------------------------
// Principal curvatures of an ellipsoid x²/a² + y²/b² + z²/c² = 1 at a surface point x (local):
// with F = x^T D^-2 x − 1, the shape operator on the tangent plane is P D^-2 P / |D^-2 x|
// (P the tangent projector), whose eigenvalues are the principal curvatures. At the end of the
// a axis this gives radii b²/a and c²/a.
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

// ---------------------------------------------------------------------------------------------
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

int plane_sphere(const PlaneW& pl, const Sphere& s, const Pose& X, double margin,
                 std::vector<ContactPoint>& out) {
  const double gap = pl.n.dot(X.p) - pl.off - s.radius;
  if (gap > margin) return 0;
  emit_on_plane(out, pl, X.p - s.radius * pl.n, gap, 0, round(s.radius, -pl.n));
  return 1;
}

// Box corners: feature = corner index (bit 0: +x, bit 1: +y, bit 2: +z).
int plane_box(const PlaneW& pl, const Box& b, const Pose& X, double margin,
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
int plane_capsule(const PlaneW& pl, const Capsule& c, const Pose& X, double margin,
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
int plane_rim(const PlaneW& pl, const Pose& X, double z_L, double r, double margin,
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

int plane_cylinder(const PlaneW& pl, const Cylinder& c, const Pose& X, double margin,
                   std::vector<ContactPoint>& out) {
  // Bottom rim features 0..8, top rim features 9..17.
  return plane_rim(pl, X, -c.half_length, c.radius, margin, 0, out) +
         plane_rim(pl, X, c.half_length, c.radius, margin, kRimSamples + 1, out);
}

int plane_cone(const PlaneW& pl, const Cone& c, const Pose& X, double margin,
               std::vector<ContactPoint>& out) {
  // Apex: feature 0; base rim: features 1..9.
  int count = 0;
  const Vec3 apex = X.apply(Vec3(0, 0, 0.5 * c.height));
  const double gap = pl.n.dot(apex) - pl.off;
  if (gap <= margin) {
    emit_on_plane(out, pl, apex, gap, 0, corner(-pl.n));
    ++count;
  }
  return count + plane_rim(pl, X, -0.5 * c.height, c.radius, margin, 1, out);
}

int plane_ellipsoid(const PlaneW& pl, const Ellipsoid& e, const Pose& X, double margin,
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
int plane_hull(const PlaneW& pl, const ConvexHull& h, const Pose& X, double margin,
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

// ---------------------------------------------------------------------------------------------
// Round pairs: a sphere (centre c1, radius r1) against a sphere (c2, r2); the fallback normal for
// coincident centres is +z of the world.
void sphere_pair_point(const Vec3& c1, double r1, const Vec3& c2, double r2, Vec3& n, double& gap,
                       Vec3& p1, Vec3& p2) {
  const Vec3 d = c2 - c1;
  const double dist = d.norm();
  n = dist > 0.0 ? Vec3(d / dist) : Vec3(Vec3::UnitZ());
  gap = dist - r1 - r2;
  p1 = c1 + r1 * n;
  p2 = c2 - r2 * n;
}

int sphere_sphere(const Sphere& s1, const Pose& X1, const Sphere& s2, const Pose& X2, double margin,
                  std::vector<ContactPoint>& out) {
  Vec3 n, p1, p2;
  double gap;
  sphere_pair_point(X1.p, s1.radius, X2.p, s2.radius, n, gap, p1, p2);
  if (gap > margin) return 0;
  emit(out, p1, p2, n, gap, 0, round(s1.radius, n), round(s2.radius, -n));
  return 1;
}

// Curvature of a capsule's surface at the point over core parameter t (|t| < hl: side).
Curvature capsule_curvature(const Capsule& c, double t, const Vec3& axis, const Vec3& n_out) {
  if (std::abs(t) < c.half_length) return curved_across(c.radius, kInf, axis, n_out);
  return round(c.radius, n_out);
}

int sphere_capsule(const Sphere& s, const Pose& X1, const Capsule& c, const Pose& X2, double margin,
                   std::vector<ContactPoint>& out) {
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

// Closest points of segments P(s) = p + s u, s ∈ [-a, a] and Q(t) = q + t v, t ∈ [-b, b]
// (u, v unit). Returns s, t. Deterministic choice for parallel segments (the middle of overlap).
void segment_segment(const Vec3& p, const Vec3& u, double a, const Vec3& q, const Vec3& v, double b,
                     double& s, double& t) {
  const Vec3 w = p - q;
  const double c = u.dot(v), du = u.dot(w), dv = v.dot(w);
  const double den = 1.0 - c * c;
  if (den > 1e-14) {
    s = std::clamp((c * dv - du) / den, -a, a);
  } else {
    // Parallel: middle of the overlap of Q's projection on P's line, clamped to P.
    const double q0 = -du - b * std::abs(c), q1 = -du + b * std::abs(c);
    s = std::clamp(0.5 * (std::max(q0, -a) + std::min(q1, a)), -a, a);
  }
  t = std::clamp(s * c + dv, -b, b);
  s = std::clamp(t * c - du, -a, a);
}

int capsule_capsule(const Capsule& c1, const Pose& X1, const Capsule& c2, const Pose& X2,
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

// ---------------------------------------------------------------------------------------------
// Sphere (1) against box (2): closest point of the box to the centre, or the nearest face when the
// centre is inside. Feature: base-3 code of the clamped coordinates (0 inside the slab, 1 at −h,
// 2 at +h), + 27 when the centre is inside the box (then the face of least depth, 1 or 2 on it).
int sphere_box(const Sphere& s, const Pose& X1, const Box& b, const Pose& X2, double margin,
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

// ---------------------------------------------------------------------------------------------
// Box–box: separating-axis test over the 15 axes, then either face clipping (reference face of
// the box whose face axis separates best, incident face of the other clipped by the reference
// face's 4 side planes: up to 8 points) or one edge–edge point.
struct ClipPoint {
  Vec3 x;
  std::uint32_t id;     // stable label of the point's origin (see below)
  std::uint8_t edges;   // bitmask of incident-face edges the point lies on
  std::uint8_t planes;  // bitmask of reference side planes the point lies on
};

int box_box(const Box& b1, const Pose& X1, const Box& b2, const Pose& X2, double margin,
            std::vector<ContactPoint>& out) {
  const Mat3 A = X1.q.toRotationMatrix(), B = X2.q.toRotationMatrix();
  const Vec3 &ha = b1.half_extents, &hb = b2.half_extents;
  const Vec3 d = X2.p - X1.p;
  const double size = std::max(ha.maxCoeff(), hb.maxCoeff());
  const double tie = 1e-9 * size;  // prefer face axes (and box 1) within this distance
  // Early out only beyond margin + rounding: the reported points are filtered on their own gaps.
  const double reject = margin + 1e-12 * size;

  // Separation along a unit axis L (oriented from box 1 to box 2 afterwards).
  auto separation = [&](const Vec3& L) {
    const double ra = ha.x() * std::abs(L.dot(A.col(0))) + ha.y() * std::abs(L.dot(A.col(1))) +
                      ha.z() * std::abs(L.dot(A.col(2)));
    const double rb = hb.x() * std::abs(L.dot(B.col(0))) + hb.y() * std::abs(L.dot(B.col(1))) +
                      hb.z() * std::abs(L.dot(B.col(2)));
    return std::abs(L.dot(d)) - ra - rb;
  };
  // Face axes of box 1 (0..2) and box 2 (3..5).
  int best_face = -1;
  double best_face_sep = -kInf;
  for (int i = 0; i < 6; ++i) {
    const Vec3 L = i < 3 ? Vec3(A.col(i)) : Vec3(B.col(i - 3));
    const double sep = separation(L);
    if (sep > reject) return 0;
    if (sep > best_face_sep + (best_face >= 0 ? tie : 0.0)) {
      best_face_sep = sep;
      best_face = i;
    }
  }
  // Edge axes.
  int best_edge = -1;
  double best_edge_sep = -kInf;
  Vec3 best_edge_axis = Vec3::Zero();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      Vec3 L = A.col(i).cross(B.col(j));
      const double ln = L.norm();
      if (ln < 1e-6) continue;  // (nearly) parallel edges: covered by the face axes
      L /= ln;
      const double sep = separation(L);
      if (sep > reject) return 0;
      if (sep > best_edge_sep) {
        best_edge_sep = sep;
        best_edge = 3 * i + j;
        best_edge_axis = L;
      }
    }
  }

  if (best_edge >= 0 && best_edge_sep > best_face_sep + tie) {
    // Edge–edge: the edge of box 1 along a_i farthest along L, of box 2 along b_j farthest along
    // −L.
    const int i = best_edge / 3, j = best_edge % 3;
    Vec3 L = best_edge_axis;
    if (L.dot(d) < 0.0) L = -L;
    Vec3 pa = X1.p, pb = X2.p;
    std::uint32_t code = 0;
    for (int k = 0; k < 3; ++k) {
      if (k != i) {
        const bool pos = L.dot(A.col(k)) >= 0.0;
        pa += (pos ? ha[k] : -ha[k]) * A.col(k);
        code |= (pos ? 1u : 0u) << k;
      }
      if (k != j) {
        const bool pos = L.dot(B.col(k)) < 0.0;
        pb += (pos ? hb[k] : -hb[k]) * B.col(k);
        code |= (pos ? 1u : 0u) << (3 + k);
      }
    }
    double s, t;
    segment_segment(pa, A.col(i), ha[i], pb, B.col(j), hb[j], s, t);
    const Vec3 p1 = pa + s * A.col(i), p2 = pb + t * B.col(j);
    const double gap = (p2 - p1).dot(L);
    if (gap > margin) return 0;
    const std::uint32_t feature = 0x10000u | (static_cast<std::uint32_t>(best_edge) << 6) | code;
    emit(out, p1, p2, L, gap, feature, curved_across(0.0, kInf, A.col(i), L),
         curved_across(0.0, kInf, B.col(j), -L));
    return 1;
  }

  // Face contact. Reference box R (with face axis k), incident box I; nr from R towards I.
  const bool ref_is_1 = best_face < 3;
  const Mat3& RR = ref_is_1 ? A : B;
  const Mat3& RI = ref_is_1 ? B : A;
  const Vec3& hr = ref_is_1 ? ha : hb;
  const Vec3& hi = ref_is_1 ? hb : ha;
  const Vec3& cr = ref_is_1 ? X1.p : X2.p;
  const Vec3& ci = ref_is_1 ? X2.p : X1.p;
  const int k = best_face % 3;
  const Vec3 dri = ci - cr;
  const double sk = RR.col(k).dot(dri) >= 0.0 ? 1.0 : -1.0;
  const Vec3 nr = sk * RR.col(k);
  const Vec3 cf = cr + (sk * hr[k]) * RR.col(k);  // reference face centre
  const int ku = (k + 1) % 3, kv = (k + 2) % 3;
  const Vec3 u = RR.col(ku), v = RR.col(kv);

  // Incident face: the face of I whose outward normal is most opposed to nr.
  int m = 0;
  double most = kInf;
  double sm = 1.0;
  for (int j = 0; j < 3; ++j) {
    const double dj = RI.col(j).dot(nr);
    for (double sg : {-1.0, 1.0}) {
      if (sg * dj < most - 1e-12) {
        most = sg * dj;
        m = j;
        sm = sg;
      }
    }
  }
  const int mu = (m + 1) % 3, mv = (m + 2) % 3;
  const Vec3 fi = ci + (sm * hi[m]) * RI.col(m);
  // Incident vertices, counter-clockwise order around the face (in terms of (mu, mv) signs).
  constexpr double kSu[4] = {-1, 1, 1, -1}, kSv[4] = {-1, -1, 1, 1};
  std::array<ClipPoint, 8> poly{}, next{};
  int np = 4;
  for (int q = 0; q < 4; ++q) {
    poly[q].x = fi + (kSu[q] * hi[mu]) * RI.col(mu) + (kSv[q] * hi[mv]) * RI.col(mv);
    poly[q].id = static_cast<std::uint32_t>(q);
    poly[q].edges = static_cast<std::uint8_t>((1u << q) | (1u << ((q + 3) % 4)));
    poly[q].planes = 0;
  }
  // Clip by the 4 side planes: plane j keeps sign_j · dir_j · (x − cf) <= h_j.
  const Vec3 dirs[4] = {u, -u, v, -v};
  const double lims[4] = {hr[ku], hr[ku], hr[kv], hr[kv]};
  for (int j = 0; j < 4 && np > 0; ++j) {
    int nn = 0;
    for (int q = 0; q < np; ++q) {
      const ClipPoint& P = poly[q];
      const ClipPoint& Q = poly[(q + 1) % np];
      const double dp = dirs[j].dot(P.x - cf) - lims[j];
      const double dq = dirs[j].dot(Q.x - cf) - lims[j];
      if (dp <= 0.0) next[nn++] = P;
      if ((dp <= 0.0) != (dq <= 0.0) && nn < 8) {
        const double t = dp / (dp - dq);
        ClipPoint X;
        X.x = P.x + t * (Q.x - P.x);
        const auto common_edges = static_cast<std::uint8_t>(P.edges & Q.edges);
        const auto common_planes = static_cast<std::uint8_t>(P.planes & Q.planes);
        X.planes = static_cast<std::uint8_t>(common_planes | (1u << j));
        if (common_edges != 0) {
          const int e = __builtin_ctz(common_edges);
          X.edges = static_cast<std::uint8_t>(1u << e);
          X.id = 4u + 4u * static_cast<std::uint32_t>(e) + static_cast<std::uint32_t>(j);
        } else {
          const int jp = common_planes ? __builtin_ctz(common_planes) : 0;
          X.edges = 0;
          X.id = 20u + 4u * static_cast<std::uint32_t>(jp) + static_cast<std::uint32_t>(j);
        }
        next[nn++] = X;
      }
    }
    poly = next;
    np = nn;
  }

  // Emit the clipped points within margin of the reference face.
  const bool parallel = std::abs(most) >= std::cos(kFlatAngle);
  const std::uint32_t ref_face =
      static_cast<std::uint32_t>((ref_is_1 ? 0 : 6) + 2 * k + (sk > 0 ? 1 : 0));
  const std::uint32_t inc_face = static_cast<std::uint32_t>(2 * m + (sm > 0 ? 1 : 0));
  int count = 0;
  for (int q = 0; q < np; ++q) {
    const Vec3& x = poly[q].x;
    const double gap = nr.dot(x - cf);
    if (gap > margin) continue;
    const Vec3 xr = x - gap * nr;
    const std::uint32_t feature = (ref_face << 10) | (inc_face << 6) | poly[q].id;
    // Incident side: flat when the faces are parallel; else its corner (ids 0..3), its edge (ids
    // 4..19: edge e runs along axis mu for even e, mv for odd e) or its face (ids 20..35).
    Curvature c_inc = flat(-nr);
    const std::uint32_t id = poly[q].id;
    if (!parallel && id < 4) {
      c_inc = corner(-nr);
    } else if (!parallel && id < 20) {
      const Vec3 edge_dir = ((id - 4) / 4) % 2 == 0 ? Vec3(RI.col(mu)) : Vec3(RI.col(mv));
      c_inc = curved_across(0.0, kInf, edge_dir, -nr);
    }
    if (ref_is_1) {
      emit(out, xr, x, nr, gap, feature, flat(nr), c_inc);
    } else {
      emit(out, x, xr, -nr, gap, feature, c_inc, flat(-nr));
    }
    ++count;
  }
  return count;
}

// ---------------------------------------------------------------------------------------------
// General convex pairs: libccd's MPR on shape 1 grown by `margin` (a Minkowski sum with a ball),
// so that shapes up to `margin` apart are found. MPR gives the direction n; the gap along n is
// then recomputed from the exact support functions: gap = min_{x∈2} n·x − max_{x∈1} n·x.
struct CcdShape {
  const Geometry* g;
  const Pose* X;
  double grow;
  Vec3 centre;
};

void ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* vec) {
  const auto* s = static_cast<const CcdShape*>(obj);
  const Vec3 d(dir->v[0], dir->v[1], dir->v[2]);
  Vec3 x = s->X->apply(support_point(*s->g, s->X->q.conjugate() * d));
  if (s->grow > 0.0) {
    const double dn = d.norm();
    if (dn > 0.0) x += (s->grow / dn) * d;
  }
  vec->v[0] = x.x();
  vec->v[1] = x.y();
  vec->v[2] = x.z();
}

void ccd_centre(const void* obj, ccd_vec3_t* c) {
  const auto* s = static_cast<const CcdShape*>(obj);
  c->v[0] = s->centre.x();
  c->v[1] = s->centre.y();
  c->v[2] = s->centre.z();
}

// An interior point of the shape in its frame: the origin, except for hulls (vertex mean).
Vec3 interior_point(const Geometry& g) {
  if (const auto* h = std::get_if<ConvexHull>(&g)) {
    const auto& v = hull_vertices(*h);
    Vec3 c = Vec3::Zero();
    for (const Vec3& x : v) c += x;
    return v.empty() ? c : Vec3(c / static_cast<double>(v.size()));
  }
  return Vec3::Zero();
}

bool is_smooth(const Geometry& g) {
  return std::holds_alternative<Sphere>(g) || std::holds_alternative<Ellipsoid>(g) ||
         std::holds_alternative<Capsule>(g);
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

// ---------------------------------------------------------------------------------------------
// Flat-on-flat manifold for the MPR pairs. After MPR gives the direction n (shape 1 to shape 2),
// each shape's support feature along ±n is looked up: a box face, a hull face (all hull vertices
// in the plane of the best-aligned triangle), a cylinder cap or a cone base (as the polygon of the
// kRimSamples rim samples at θk = 2πk/8, the points the plane–cylinder closed form reports). When
// both features are faces whose normals lie within kManifoldCos of ±n, shape 1's face is the
// reference face (its exact normal becomes the contact normal) and shape 2's face, the incident
// face, is clipped by the reference face's side planes (Sutherland–Hodgman). The points within
// margin are kept (at most kMaxManifold, the deepest first, then farthest from those kept).

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

int ccd_pair(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2, double margin,
             std::vector<ContactPoint>& out) {
  CcdShape s1{&g1, &X1, std::max(margin, 0.0), X1.apply(interior_point(g1))};
  CcdShape s2{&g2, &X2, 0.0, X2.apply(interior_point(g2))};
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = ccd_support;
  ccd.support2 = ccd_support;
  ccd.center1 = ccd_centre;
  ccd.center2 = ccd_centre;
  ccd.max_iterations = 200;
  ccd.mpr_tolerance = 1e-12;
  ccd_real_t depth;
  ccd_vec3_t dir, pos;
  if (ccdMPRPenetration(&s1, &s2, &ccd, &depth, &dir, &pos) != 0) return 0;
  Vec3 n(dir.v[0], dir.v[1], dir.v[2]);
  const double nn = n.norm();
  if (!(nn > 0.0)) return 0;
  n /= nn;
  // Exact extents along n, witness points from the support functions.
  const Vec3 x1 = X1.apply(support_point(g1, X1.q.conjugate() * n));
  const Vec3 x2 = X2.apply(support_point(g2, X2.q.conjugate() * (-n)));
  const double e1 = n.dot(x1), e2 = n.dot(x2);
  const double gap = e2 - e1;
  if (gap > margin) return 0;
  // Flat-on-flat: several points from face clipping.
  const int flat_count = flat_manifold(g1, X1, g2, X2, n, margin, out);
  if (flat_count >= 0) return flat_count;
  // Tangential location: a smooth shape's support point, else the MPR position.
  const Vec3 m = is_smooth(g1) ? x1 : (is_smooth(g2) ? x2 : Vec3(pos.v[0], pos.v[1], pos.v[2]));
  const Vec3 p1 = m + (e1 - n.dot(m)) * n;
  const Vec3 p2 = m + (e2 - n.dot(m)) * n;
  emit(out, p1, p2, n, gap, 0, surface_curvature(g1, X1.apply_inverse(p1), X1.q, n),
       surface_curvature(g2, X2.apply_inverse(p2), X2.q, -n));
  return 1;
}

// ---------------------------------------------------------------------------------------------
// Ordered dispatch: kind(g1) <= kind(g2).
int collide_ordered(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                    double margin, std::vector<ContactPoint>& out) {
  if (const auto* p = std::get_if<Plane>(&g1)) {
    const PlaneW pl = world_plane(*p, X1);
    struct Visitor {
      const PlaneW& pl;
      const Pose& X;
      double m;
      std::vector<ContactPoint>& out;
      int operator()(const Plane&) const { return 0; }  // two half-spaces: no contact points
      int operator()(const Sphere& s) const { return plane_sphere(pl, s, X, m, out); }
      int operator()(const Box& b) const { return plane_box(pl, b, X, m, out); }
      int operator()(const Capsule& c) const { return plane_capsule(pl, c, X, m, out); }
      int operator()(const Cylinder& c) const { return plane_cylinder(pl, c, X, m, out); }
      int operator()(const Ellipsoid& e) const { return plane_ellipsoid(pl, e, X, m, out); }
      int operator()(const Cone& c) const { return plane_cone(pl, c, X, m, out); }
      int operator()(const ConvexHull& h) const { return plane_hull(pl, h, X, m, out); }
    };
    return std::visit(Visitor{pl, X2, margin, out}, g2);
  }
  if (const auto* s = std::get_if<Sphere>(&g1)) {
    if (const auto* s2 = std::get_if<Sphere>(&g2))
      return sphere_sphere(*s, X1, *s2, X2, margin, out);
    if (const auto* b = std::get_if<Box>(&g2)) return sphere_box(*s, X1, *b, X2, margin, out);
    if (const auto* c = std::get_if<Capsule>(&g2))
      return sphere_capsule(*s, X1, *c, X2, margin, out);
  }
  if (const auto* b = std::get_if<Box>(&g1)) {
    if (const auto* b2 = std::get_if<Box>(&g2)) return box_box(*b, X1, *b2, X2, margin, out);
  }
  if (const auto* c = std::get_if<Capsule>(&g1)) {
    if (const auto* c2 = std::get_if<Capsule>(&g2))
      return capsule_capsule(*c, X1, *c2, X2, margin, out);
  }
  return ccd_pair(g1, X1, g2, X2, margin, out);
}

}  // namespace

int collide(const Geometry& g1, const Pose& X_W1, const Geometry& g2, const Pose& X_W2,
            double margin, std::vector<ContactPoint>& out) {
  if (g1.index() <= g2.index()) return collide_ordered(g1, X_W1, g2, X_W2, margin, out);
  // Swapped: compute (2, 1), then flip each appended point.
  const std::size_t first = out.size();
  const int count = collide_ordered(g2, X_W2, g1, X_W1, margin, out);
  for (std::size_t i = first; i < out.size(); ++i) {
    ContactPoint& cp = out[i];
    std::swap(cp.p1_W, cp.p2_W);
    std::swap(cp.curvature1, cp.curvature2);
    cp.n_W = -cp.n_W;
    complete_frame(cp.n_W, cp.t1_W, cp.t2_W);
  }
  return count;
}

}  // namespace coulomb
