// Box–box (docs/collision.md, "Pairs"): separating-axis test on the 15 axes (the 3 + 3 face axes
// preferred within 1e-9 of the size, box 1 first on a tie), then either face clipping or one
// edge–edge point.
//
// Face contact: the reference face is the face of the best face axis, the incident face the face
// of the other box most opposed to it; the incident face is clipped by the reference face's 4 side
// planes (Sutherland–Hodgman) and the points within margin are kept, up to 8. Each point's gap is
// nr·(x − c) with c the reference face centre, so stacked boxes give exact zeros. Edge contact: the
// closest points of the two edges along the best edge axis. Ids in docs/collision.md.
//
// References: Gottschalk, Lin, Manocha, "OBBTree" (SIGGRAPH 1996) for the 15 axes;
// Sutherland & Hodgman, "Reentrant polygon clipping" (CACM 1974).

#include "collision/contact_build.hpp"
#include "collision/pairs.hpp"
#include "collision/segments.hpp"

#include <array>
#include <cmath>

namespace coulomb::narrow {

namespace {

// Box–box: separating-axis test over the 15 axes, then either face clipping (reference face of
// the box whose face axis separates best, incident face of the other clipped by the reference
// face's 4 side planes: up to 8 points) or one edge–edge point.
struct ClipPoint {
  Vec3 x;
  std::uint32_t id;     // stable label of the point's origin (see below)
  std::uint8_t edges;   // bitmask of incident-face edges the point lies on
  std::uint8_t planes;  // bitmask of reference side planes the point lies on
};

int box_box_of(const Box& b1, const Pose& X1, const Box& b2, const Pose& X2, double margin,
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
  // Clip by the 4 side planes: plane j keeps sign_j · dir_j · (x − cf) <= h_j. A vertex within
  // `tie` of a plane is on it: kept, and no crossing is made on an edge that ends on the plane.
  // Equal boxes stacked square put every incident vertex on a side plane; an exact test would
  // decide their side by round-off, so a vertex would flip between its own id and a crossing's
  // (or both, a near-duplicate point) from step to step, and the contact memory keyed by those ids
  // would lose the warm start of the stack.
  const auto side = [&](double d) { return d < -tie ? -1 : (d > tie ? 1 : 0); };
  const Vec3 dirs[4] = {u, -u, v, -v};
  const double lims[4] = {hr[ku], hr[ku], hr[kv], hr[kv]};
  for (int j = 0; j < 4 && np > 0; ++j) {
    int nn = 0;
    for (int q = 0; q < np; ++q) {
      const ClipPoint& P = poly[q];
      const ClipPoint& Q = poly[(q + 1) % np];
      const double dp = dirs[j].dot(P.x - cf) - lims[j];
      const double dq = dirs[j].dot(Q.x - cf) - lims[j];
      const int sp = side(dp), sq = side(dq);
      if (sp <= 0) next[nn++] = P;
      if (sp * sq < 0 && nn < 8) {
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

}  // namespace

int box_box(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2, double margin,
            std::vector<ContactPoint>& out) {
  return box_box_of(as<Box>(g1), X1, as<Box>(g2), X2, margin, out);
}

}  // namespace coulomb::narrow
