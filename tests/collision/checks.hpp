#pragma once
// Helpers of the narrowphase tests: poses, the invariants every contact point satisfies, and a
// collide() call that also checks the swapped call order.

#include <coulomb/collision/narrowphase.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace coulomb::testing {

inline Pose at(const Vec3& p, const Quat& q = Quat::Identity()) { return Pose{p, q}; }
inline Quat rot(double angle, const Vec3& axis) {
  return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
}

// Unit n, right-handed frame, gap = (p2 − p1)·n and p2 − p1 ∥ n (round-off bounds).
inline void check_invariants(const ContactPoint& c) {
  EXPECT_NEAR(c.n_W.norm(), 1.0, 1e-14);
  EXPECT_NEAR(c.t1_W.cross(c.t2_W).dot(c.n_W), 1.0, 1e-14);
  EXPECT_NEAR(c.t1_W.dot(c.n_W), 0.0, 1e-14);
  EXPECT_NEAR((c.p2_W - c.p1_W).dot(c.n_W), c.gap, 1e-12);
  EXPECT_NEAR((c.p2_W - c.p1_W).cross(c.n_W).norm(), 0.0, 1e-12);
}

// collide(g1, g2) with the invariants checked, and the swapped call giving the same points flipped
// (for two shapes of one kind only the count: the call order decides the roles there).
inline std::vector<ContactPoint> run(const Geometry& g1, const Pose& X1, const Geometry& g2,
                                     const Pose& X2, double margin) {
  std::vector<ContactPoint> out;
  const int n = collide(g1, X1, g2, X2, margin, out);
  EXPECT_EQ(n, static_cast<int>(out.size()));
  for (const auto& c : out) check_invariants(c);
  std::vector<ContactPoint> back;
  EXPECT_EQ(collide(g2, X2, g1, X1, margin, back), n);
  if (g1.index() == g2.index()) return out;
  for (std::size_t i = 0; i < back.size() && i < out.size(); ++i) {
    EXPECT_EQ(back[i].gap, out[i].gap);
    EXPECT_EQ(back[i].feature, out[i].feature);
    EXPECT_EQ(back[i].n_W, Vec3(-out[i].n_W));
    EXPECT_EQ(back[i].p1_W, out[i].p2_W);
    EXPECT_EQ(back[i].p2_W, out[i].p1_W);
    EXPECT_EQ(back[i].curvature1.r1, out[i].curvature2.r1);
    EXPECT_EQ(back[i].curvature2.r2, out[i].curvature1.r2);
  }
  return out;
}

inline std::vector<std::uint32_t> features(const std::vector<ContactPoint>& pts) {
  std::vector<std::uint32_t> f;
  for (const auto& p : pts) f.push_back(p.feature);
  return f;
}

// The 8 corners of a box of half extents `half`, as a hull.
inline ConvexHull box_hull(const Vec3& half) {
  std::vector<Vec3> pts;
  for (int i = 0; i < 8; ++i)
    pts.emplace_back(i & 1 ? half.x() : -half.x(), i & 2 ? half.y() : -half.y(),
                     i & 4 ? half.z() : -half.z());
  return make_convex_hull(pts);
}

}  // namespace coulomb::testing
