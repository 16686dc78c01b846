// Narrowphase: contact points between two shapes (docs/collision.md lists the pairs).
//
// Dispatch: a table of pair functions indexed by the two kinds, filled for kind(g1) <= kind(g2)
// in the order of Geometry's alternatives (as MuJoCo's mjCOLLISIONFUNC table and Box2D's
// registered manifold functions). A pair given the other way round is computed swapped and its
// points flipped: normal negated, p1/p2 and curvatures exchanged, tangents rebuilt; gap and
// feature unchanged.
//
// The pair families live in their own files (pairs.hpp): plane pairs, round pairs, box–box, and
// the general convex pair (MPR/EPA direction and a supporting-feature manifold).

#include <coulomb/collision/narrowphase.hpp>

#include "collision/pairs.hpp"

#include <array>
#include <utility>

namespace coulomb {

namespace {

using narrow::PairFn;
constexpr std::size_t kKinds = std::variant_size_v<Geometry>;

// table[k1][k2] for k1 <= k2 (the other half is never read).
constexpr std::array<std::array<PairFn, kKinds>, kKinds> make_table() {
  using namespace narrow;
  std::array<std::array<PairFn, kKinds>, kKinds> t{};
  for (auto& row : t) row.fill(&convex_pair);
  t[0] = {&plane_plane,    &plane_sphere,    &plane_box,  &plane_capsule,
          &plane_cylinder, &plane_ellipsoid, &plane_cone, &plane_hull};
  t[1][1] = &sphere_sphere;
  t[1][2] = &sphere_box;
  t[1][3] = &sphere_capsule;
  t[2][2] = &box_box;
  t[3][3] = &capsule_capsule;
  return t;
}
constexpr auto kPairTable = make_table();

}  // namespace

int collide(const Geometry& g1, const Pose& X_W1, const Geometry& g2, const Pose& X_W2,
            double margin, std::vector<ContactPoint>& out) {
  if (g1.index() <= g2.index())
    return kPairTable[g1.index()][g2.index()](g1, X_W1, g2, X_W2, margin, out);
  // Swapped: compute (2, 1), then flip each appended point.
  const std::size_t first = out.size();
  const int count = kPairTable[g2.index()][g1.index()](g2, X_W2, g1, X_W1, margin, out);
  for (std::size_t i = first; i < out.size(); ++i) {
    ContactPoint& cp = out[i];
    std::swap(cp.p1_W, cp.p2_W);
    std::swap(cp.curvature1, cp.curvature2);
    cp.n_W = -cp.n_W;
    complete_frame(cp.n_W, cp.t1_W, cp.t2_W);
  }
  return count;
}

void merge_into_centroid(std::vector<ContactPoint>& points, std::size_t first) {
  const std::size_t count = points.size() - first;
  if (count < 2) return;
  ContactPoint merged = points[first];
  Vec3 p1 = Vec3::Zero(), p2 = Vec3::Zero();
  double gap = 0.0;
  for (std::size_t k = first; k < points.size(); ++k) {
    p1 += points[k].p1_W;
    p2 += points[k].p2_W;
    gap += points[k].gap;
  }
  const double inv = 1.0 / static_cast<double>(count);
  merged.p1_W = p1 * inv;
  merged.p2_W = p2 * inv;
  merged.gap = gap * inv;
  merged.feature = 0;
  points.resize(first + 1);
  points[first] = merged;
}

}  // namespace coulomb
