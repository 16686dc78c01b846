// Every pair without a closed form (docs/collision.md, "Pairs" and "Supporting features and
// clipping"):
//
// 1. Direction. libccd's MPR on shape 1 grown by the margin detects the pair and gives a direction
//    n (mpr.hpp). Its gap is recomputed from the exact support functions,
//    gap(n) = min_{x∈2} n·x − max_{x∈1} n·x (support.hpp). When that gap is below −kEpaDepth of
//    their size, GJK + EPA (penetration.hpp) gives the minimum-penetration direction (or, if the
//    shapes are apart after all, GJK's closest-points direction; if they touch, EPA on shape 1
//    grown by the margin); when it is above +kEpaDepth (apart, within the margin), GJK's
//    closest-points direction. Either is kept if its gap is larger: MPR's portal normal is neither
//    the minimum-translation direction of deep or oblique overlaps nor the closest-points
//    direction of shapes apart.
// 2. Normal. Each shape's supporting feature along ±n (supporting_feature.hpp). A face of either
//    shape becomes the reference face when the gap along its own normal is at least n's and the
//    other face's, within kTie of the size: a separating-axis test over a few candidate axes, so a
//    candidate is taken only if it separates at least as well (then the contact normal is the
//    face's exact normal, whatever MPR's direction was). Two faces tied (lying flat on each
//    other): the larger one, whose normal wins as soon as the faces tilt, then shape 1's.
// 3. Points. With a reference face: the other shape's feature along the face normal clipped by it;
//    with two lines: their overlap ends and crossing (contact_manifold.hpp). A manifold is kept
//    when it has a point within margin and its deepest point reaches the pair's gap along the
//    normal (within kMissing of the size). Otherwise, and for the other feature pairs (a point
//    against a point or a line), one point at a smooth shape's support point or at the MPR (EPA)
//    position, moved onto each shape's support plane along n (feature 0); for a sphere against a
//    capsule's or a cylinder's side the normal is first made exact (radial from the line).

#include "collision/contact_build.hpp"
#include "collision/contact_manifold.hpp"
#include "collision/curvature.hpp"
#include "collision/mpr.hpp"
#include "collision/pairs.hpp"
#include "collision/penetration.hpp"
#include "collision/support.hpp"

namespace coulomb::narrow {

namespace {

// EPA or GJK runs when the gap along MPR's direction is farther from 0 than this fraction of the
// shapes' size [-]. Closer to 0 (resting contacts) MPR's direction is kept: no direction separates
// more than the true one, so its gap overstates an overlap by at most this fraction.
constexpr double kEpaDepth = 1e-6;
// EPA and GJK stop when their upper and lower bounds of the depth (distance) are within this
// fraction of the size [-].
constexpr double kEpaTolerance = 1e-12;
// Candidate normals within this fraction of the size of the best gap count as ties (as box–box's
// preference for face axes) [-].
constexpr double kTie = 1e-9;
// A manifold whose deepest point is shallower than the pair's gap along its normal by more than
// this fraction of the size misses the deepest part and is not used [-]: it covers the rim
// polygon's sampling of a cap tilted by less than kFlatAngle (≤ 0.08 R kFlatAngle).
constexpr double kMissing = 1e-6;

// Area of a polygon feature (its vertices are coplanar and counter-clockwise about its normal).
double polygon_area(const Feature& f) {
  Vec3 twice = Vec3::Zero();
  for (int q = 1; q + 1 < f.count; ++q) twice += (f.v[q] - f.v[0]).cross(f.v[q + 1] - f.v[0]);
  return 0.5 * twice.dot(f.normal);
}

// A sphere's centre (a point feature with a radius) against a round line (capsule core, cylinder
// axis): the exact normal, from the centre to its nearest point of the line, when that point is
// inside the segment. n points from the point's shape to the line's shape.
bool point_line_normal(const Feature& p, const Feature& l, Vec3& n) {
  if (p.kind != FeatureKind::point || !(p.radius > 0.0) || l.kind != FeatureKind::segment ||
      !(l.line_radius > 0.0))
    return false;
  Vec3 u = l.line[1] - l.line[0];
  const double len = u.norm();
  if (!(len > 0.0)) return false;
  u /= len;
  const double s = u.dot(p.v[0] - l.line[0]);
  if (!(s > 0.0 && s < len)) return false;
  const Vec3 w = l.line[0] + s * u - p.v[0];
  const double wn = w.norm();
  if (!(wn > 1e-12 * len)) return false;
  n = w / wn;
  return true;
}

// The manifold of the pair along the direction n with gap `gap`; false when none applies. For a
// sphere against a round line, n and gap may be replaced by the exact normal and its gap for the
// single point.
bool manifold(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2, Vec3& n,
              double& gap, double margin, double size, Manifold& m) {
  Feature f1, f2;
  supporting_feature(g1, X1, n, f1);
  supporting_feature(g2, X2, -n, f2);
  // Reference face: the candidate normal that separates best, faces before n on ties; between
  // the two faces on a tie (two faces lying flat on each other) the larger one, whose normal wins
  // as soon as the faces tilt, then shape 1's.
  const double tie = kTie * size;
  const bool poly1 = f1.kind == FeatureKind::polygon, poly2 = f2.kind == FeatureKind::polygon;
  const double gap1 = poly1 ? separation(g1, X1, g2, X2, f1.normal) : -kInf;
  const double gap2 = poly2 ? separation(g1, X1, g2, X2, -f2.normal) : -kInf;
  bool use1 = poly1 && gap1 >= std::max(gap, gap2) - tie;
  const bool use2 = poly2 && gap2 >= std::max(gap, gap1) - tie;
  if (use1 && use2) use1 = polygon_area(f1) >= polygon_area(f2);
  if (use1 || use2) {
    // The reference face along its own normal (a cap without the inserted rim point), the other
    // shape's feature along the opposite direction.
    const Geometry& g_ref = use1 ? g1 : g2;
    const Pose& X_ref = use1 ? X1 : X2;
    const Vec3 nr = use1 ? f1.normal : f2.normal;
    Feature ref, inc;
    supporting_feature(g_ref, X_ref, nr, ref);
    supporting_feature(use1 ? g2 : g1, use1 ? X2 : X1, -nr, inc);
    return ref.kind == FeatureKind::polygon &&
           clip_to_face(ref, !use1, inc, use1 ? g2 : g1, use1 ? X2 : X1, margin, m) &&
           m.min_gap <= (use1 ? gap1 : gap2) + kMissing * size;
  }
  if (f1.kind == FeatureKind::segment && f2.kind == FeatureKind::segment)
    return line_pair(f1, g1, X1, f2, g2, X2, margin, kMissing * size, m) &&
           m.min_gap <= gap + kMissing * size;
  // A sphere against a capsule's or cylinder's side: the radial normal, if it separates better.
  Vec3 nc;
  bool radial = point_line_normal(f1, f2, nc);
  if (!radial && point_line_normal(f2, f1, nc)) {
    radial = true;
    nc = -nc;
  }
  if (radial) {
    const double gc = separation(g1, X1, g2, X2, nc);
    if (gc >= gap - tie) {
      n = nc;
      gap = gc;
    }
  }
  return false;
}

}  // namespace

int convex_pair(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                double margin, std::vector<ContactPoint>& out) {
  Vec3 n, pos;
  if (!mpr_direction(g1, X1, g2, X2, margin, n, pos)) return 0;
  const double size = shape_size(g1) + shape_size(g2);
  double gap = separation(g1, X1, g2, X2, n);
  // A better direction replaces MPR's only if it separates better (MPR exact: kept bit for bit).
  const double tol = kEpaTolerance * size;
  auto consider = [&](const Penetration& pen) {
    const double gap_better = separation(g1, X1, g2, X2, pen.n);
    if (gap_better > gap + kTie * size) {
      n = pen.n;
      gap = gap_better;
      pos = 0.5 * (pen.p1 + pen.p2);
    }
  };
  Penetration pen;
  if (gap < -kEpaDepth * size && penetration(g1, X1, g2, X2, n, tol, pen)) {
    consider(pen);  // an overlap: EPA's minimum translation
  } else if (gap < -kEpaDepth * size || gap > kEpaDepth * size) {
    // Apart (MPR found the shapes through the margin, its gap may be too small, even negative):
    // GJK's closest points; when GJK does not converge (a small distance next to a curved part)
    // or the shapes touch, EPA on shape 1 grown by the margin, which encloses the other shape.
    const bool done = closest_direction(g1, X1, g2, X2, n, tol, pen);
    if (done) consider(pen);
    if ((!done || !pen.converged) && margin > 0.0 &&
        penetration(g1, X1, g2, X2, n, tol, pen, margin))
      consider(pen);
  }
  if (gap > margin) return 0;
  // Several points from the supporting features.
  Manifold m;
  if (manifold(g1, X1, g2, X2, n, gap, margin, size, m)) {
    for (int i = 0; i < m.count; ++i) out.push_back(m.point[i]);
    return m.count;
  }
  // One point. Exact extents along n, witness points from the support functions.
  const Vec3 x1 = world_support(g1, X1, n);
  const Vec3 x2 = world_support(g2, X2, -n);
  const double e1 = n.dot(x1), e2 = n.dot(x2);
  // Tangential location: a smooth shape's support point, else the MPR (EPA) position.
  const Vec3 c = is_smooth(g1) ? x1 : (is_smooth(g2) ? x2 : pos);
  const Vec3 p1 = c + (e1 - n.dot(c)) * n;
  const Vec3 p2 = c + (e2 - n.dot(c)) * n;
  emit(out, p1, p2, n, e2 - e1, 0, surface_curvature(g1, X1.apply_inverse(p1), X1.q, n),
       surface_curvature(g2, X2.apply_inverse(p2), X2.q, -n));
  return 1;
}

}  // namespace coulomb::narrow
