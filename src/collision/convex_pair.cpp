// Every pair without a closed form (docs/collision.md, "Pairs"): libccd's MPR gives the
// direction n (mpr.hpp); the gap along n is recomputed from the exact support functions,
// gap = min_{x∈2} n·x − max_{x∈1} n·x; flat-on-flat pairs get the clipped face polygon
// (face_manifold.hpp), the others one point placed at a smooth shape's support point or at MPR's
// position, moved onto each shape's support plane along n.

#include "collision/contact_build.hpp"
#include "collision/curvature.hpp"
#include "collision/face_manifold.hpp"
#include "collision/mpr.hpp"
#include "collision/pairs.hpp"

namespace coulomb::narrow {

int convex_pair(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                double margin, std::vector<ContactPoint>& out) {
  Vec3 n, pos;
  if (!mpr_direction(g1, X1, g2, X2, margin, n, pos)) return 0;
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
  const Vec3 m = is_smooth(g1) ? x1 : (is_smooth(g2) ? x2 : pos);
  const Vec3 p1 = m + (e1 - n.dot(m)) * n;
  const Vec3 p2 = m + (e2 - n.dot(m)) * n;
  emit(out, p1, p2, n, gap, 0, surface_curvature(g1, X1.apply_inverse(p1), X1.q, n),
       surface_curvature(g2, X2.apply_inverse(p2), X2.q, -n));
  return 1;
}

}  // namespace coulomb::narrow
