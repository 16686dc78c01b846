// Contact manifolds of two features (contact_manifold.cpp): a polygon, a segment or a point
// clipped by a reference face (positions, gaps, ids, the margin, the reduction to 8 points, the
// roles' orientation), and two lines (overlap ends, crossing).

#include "collision/contact_manifold.hpp"
#include "collision/checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace coulomb {
namespace {

using narrow::clip_to_face;
using narrow::Feature;
using narrow::FeatureKind;
using narrow::line_pair;
using narrow::Manifold;
using narrow::supporting_feature;
using testing::at;
using testing::check_invariants;
using testing::rot;

// The square [−1, 1]² at z = 0, counter-clockwise about +z (the reference face), id 5.
Feature square() {
  Feature f;
  f.kind = FeatureKind::polygon;
  f.count = 4;
  f.v[0] = Vec3(-1, -1, 0);
  f.v[1] = Vec3(1, -1, 0);
  f.v[2] = Vec3(1, 1, 0);
  f.v[3] = Vec3(-1, 1, 0);
  for (int q = 0; q < 4; ++q) f.label[q] = static_cast<std::uint8_t>(q);
  f.normal = Vec3::UnitZ();
  f.centre = Vec3::Zero();
  f.id = 5;
  return f;
}

// A regular n-gon of circumradius r at height z, counter-clockwise about −z (an incident face
// facing down), id 7.
Feature ngon_down(int n, double r, double z, double turn = 0.0) {
  Feature f;
  f.kind = FeatureKind::polygon;
  f.count = n;
  for (int q = 0; q < n; ++q) {
    const double a = turn - 2.0 * kPi * q / n;
    f.v[q] = Vec3(r * std::cos(a), r * std::sin(a), z);
    f.label[q] = static_cast<std::uint8_t>(q);
  }
  f.normal = -Vec3::UnitZ();
  f.centre = Vec3(0, 0, z);
  f.id = 7;
  return f;
}

std::uint32_t point_id(const ContactPoint& p) { return p.feature & 1023u; }
std::uint32_t inc_id(const ContactPoint& p) { return (p.feature >> 10) & 1023u; }
std::uint32_t ref_id(const ContactPoint& p) { return (p.feature >> 20) & 1023u; }

// The incident shape's geometry (for curvatures only): a large box.
const Geometry kBox = Box{Vec3::Constant(2.0)};

TEST(ContactManifold, PolygonClippedByTheReferenceFace) {
  // A square of circumradius 1.2 turned 45° (a diamond), 0.01 into the face: the octagon where
  // each diamond edge crosses two side planes of the square.
  Manifold m;
  ASSERT_TRUE(clip_to_face(square(), false, ngon_down(4, 1.2, -0.01), kBox, Pose{}, 0.0, m));
  ASSERT_EQ(m.count, 8);
  EXPECT_NEAR(m.min_gap, -0.01, 1e-16);
  for (int i = 0; i < m.count; ++i) {
    const ContactPoint& p = m.point[i];
    check_invariants(p);
    EXPECT_EQ(p.n_W, Vec3::UnitZ());
    EXPECT_NEAR(p.gap, -0.01, 1e-16);
    EXPECT_NEAR(p.p1_W.z(), 0.0, 1e-16);  // on the reference face
    EXPECT_NEAR(std::max(std::abs(p.p2_W.x()), std::abs(p.p2_W.y())), 1.0, 1e-15);
    EXPECT_NEAR(std::abs(p.p2_W.x()) + std::abs(p.p2_W.y()), 1.2, 1e-15);
    // Ids: 1<<31 | ref 5 | incident 7 | 16 + 16 e + j (edge e cut by side plane j).
    EXPECT_EQ(p.feature >> 30, 2u);
    EXPECT_EQ(ref_id(p), 5u);
    EXPECT_EQ(inc_id(p), 7u);
    EXPECT_GE(point_id(p), 16u);
    EXPECT_LT(point_id(p), 16u + 16u * 16u);
  }
  std::vector<std::uint32_t> ids;
  for (int i = 0; i < m.count; ++i) ids.push_back(m.point[i].feature);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end());
  // The same face as shape 2's reference: the normal points from shape 1 (incident) to shape 2.
  Manifold r;
  ASSERT_TRUE(clip_to_face(square(), true, ngon_down(4, 1.2, -0.01), kBox, Pose{}, 0.0, r));
  for (int i = 0; i < r.count; ++i) {
    check_invariants(r.point[i]);
    EXPECT_EQ(r.point[i].n_W, -Vec3::UnitZ());
    EXPECT_EQ(r.point[i].p1_W, m.point[i].p2_W);
    EXPECT_EQ(r.point[i].gap, m.point[i].gap);
    EXPECT_EQ(r.point[i].feature, m.point[i].feature | (1u << 30));
  }
}

TEST(ContactManifold, PointsBeyondTheMarginAreDropped) {
  // A small square tilted by 0.1 rad about x: its corners at y = ±0.2 are 0.2 sin 0.1 below and
  // above z = 0.005.
  Feature inc = ngon_down(4, 0.2 * std::sqrt(2.0), 0.0, kPi / 4);
  const Quat q = rot(0.1, Vec3::UnitX());
  for (int i = 0; i < 4; ++i) inc.v[i] = q * inc.v[i] + Vec3(0, 0, 0.005);
  inc.normal = q * inc.normal;
  Manifold m;
  ASSERT_TRUE(clip_to_face(square(), false, inc, kBox, Pose{}, 0.0, m));
  ASSERT_EQ(m.count, 2);  // the two corners at y = −0.2
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(m.point[i].gap, 0.005 - 0.2 * std::sin(0.1), 1e-16);
    EXPECT_LT(point_id(m.point[i]), 16u);      // incident vertices
    EXPECT_EQ(m.point[i].curvature2.r1, 0.0);  // a corner of a tilted face
  }
  EXPECT_FALSE(clip_to_face(square(), false, inc, kBox, Pose{}, -0.1, m));
}

TEST(ContactManifold, SixteenPointsAreReducedToEightSpreadOnes) {
  // A 16-gon of radius 0.9 inside the square, tilted slightly so that one vertex is deepest.
  Feature inc = ngon_down(16, 0.9, 0.0);
  const Quat q = rot(1e-3, Vec3::UnitY());
  for (int i = 0; i < 16; ++i) inc.v[i] = q * inc.v[i];
  Manifold m;
  ASSERT_TRUE(clip_to_face(square(), false, inc, kBox, Pose{}, 0.01, m));
  ASSERT_EQ(m.count, narrow::kMaxManifold);
  // The deepest vertex (at +x, tilted down) is kept; kept vertices are every other one.
  double deepest = 0.0;
  for (int i = 0; i < 16; ++i) deepest = std::min(deepest, inc.v[i].z());
  EXPECT_NEAR(m.min_gap, deepest, 1e-16);
  for (int i = 0; i < m.count; ++i) EXPECT_EQ(point_id(m.point[i]) % 2, 0u) << i;
}

TEST(ContactManifold, SegmentCutBySidePlanes) {
  // A capsule-like core (radius 0.05) from x = −2 to 0.5 at y = 0.5, z = 0.1: the side plane
  // x = −1 (plane 3, from (−1, 1) to (−1, −1)) cuts end 0.
  Feature seg;
  seg.kind = FeatureKind::segment;
  seg.count = 2;
  seg.v[0] = Vec3(-2, 0.5, 0.1);
  seg.v[1] = Vec3(0.5, 0.5, 0.1);
  seg.radius = 0.05;
  seg.line = {seg.v[0], seg.v[1]};
  seg.id = narrow::kFeatureSegment;
  Manifold m;
  ASSERT_TRUE(clip_to_face(square(), false, seg, kBox, Pose{}, 0.1, m));
  ASSERT_EQ(m.count, 2);
  EXPECT_EQ(point_id(m.point[0]), 16u + 3u);  // end 0 moved to side plane 3
  EXPECT_EQ(point_id(m.point[1]), 1u);        // end 1
  EXPECT_NEAR((m.point[0].p2_W - Vec3(-1, 0.5, 0.05)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((m.point[1].p2_W - Vec3(0.5, 0.5, 0.05)).norm(), 0.0, 1e-15);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(m.point[i].gap, 0.05, 1e-16);
  // Wholly outside one side plane: nothing.
  seg.v[1] = Vec3(-1.5, 0.5, 0.1);
  EXPECT_FALSE(clip_to_face(square(), false, seg, kBox, Pose{}, 0.1, m));
}

TEST(ContactManifold, PointInsideOrOutsideTheFace) {
  Feature pt;
  pt.kind = FeatureKind::point;
  pt.count = 1;
  pt.v[0] = Vec3(0.3, -0.2, 0.25);
  pt.radius = 0.3;  // a sphere's centre 0.05 into the face
  pt.id = narrow::kFeaturePoint;
  Manifold m;
  ASSERT_TRUE(clip_to_face(square(), false, pt, Sphere{0.3}, at(pt.v[0]), 0.0, m));
  ASSERT_EQ(m.count, 1);
  EXPECT_NEAR(m.point[0].gap, -0.05, 1e-16);
  EXPECT_NEAR((m.point[0].p2_W - Vec3(0.3, -0.2, -0.05)).norm(), 0.0, 1e-16);
  EXPECT_EQ(m.point[0].curvature2.r1, 0.3);
  pt.v[0].x() = 1.1;  // beyond the face's edge: not a face contact
  EXPECT_FALSE(clip_to_face(square(), false, pt, Sphere{0.3}, at(pt.v[0]), 0.0, m));
}

// Line features of capsules (line = core, radius) placed at X.
Feature capsule_line(const Capsule& c, const Pose& X) {
  Feature f;
  supporting_feature(c, X, Vec3::UnitZ(), f);
  return f;
}

TEST(ContactManifold, ParallelLinesGiveTheirOverlapEnds) {
  // Cores along x: [−0.5, 0.5] at the origin and [0.2, 1.0] at z = 0.3 (radii 0.1 and 0.15).
  const Capsule a{0.1, 0.5}, b{0.15, 0.4};
  const Pose Xa = at(Vec3::Zero(), rot(kPi / 2, Vec3::UnitY()));
  const Pose Xb = at(Vec3(0.6, 0.0, 0.3), rot(kPi / 2, Vec3::UnitY()));
  Manifold m;
  ASSERT_TRUE(line_pair(capsule_line(a, Xa), a, Xa, capsule_line(b, Xb), b, Xb, 0.1, 1e-6, m));
  ASSERT_EQ(m.count, 2);
  EXPECT_NEAR(m.point[0].p1_W.x(), 0.2, 1e-15);
  EXPECT_NEAR(m.point[1].p1_W.x(), 0.5, 1e-15);
  EXPECT_EQ(point_id(m.point[0]), 0u);
  EXPECT_EQ(point_id(m.point[1]), 1u);
  EXPECT_EQ(ref_id(m.point[0]), narrow::kNoFace);
  for (int i = 0; i < 2; ++i) {
    check_invariants(m.point[i]);
    EXPECT_NEAR(m.point[i].gap, 0.05, 1e-15);
    EXPECT_NEAR((m.point[i].n_W - Vec3::UnitZ()).norm(), 0.0, 1e-15);
  }
}

TEST(ContactManifold, CrossingLinesGiveTheCrossingAndNearlyParallelOnesBoth) {
  const Capsule a{0.1, 0.5}, b{0.15, 0.4};
  const Pose Xa = at(Vec3::Zero(), rot(kPi / 2, Vec3::UnitY()));
  // Crossed at 60°, 0.3 above: the common perpendicular at the crossing, gap 0.05.
  Pose Xb = at(Vec3(0.1, 0.0, 0.3), rot(kPi / 3, Vec3::UnitZ()) * rot(kPi / 2, Vec3::UnitY()));
  Manifold m;
  ASSERT_TRUE(line_pair(capsule_line(a, Xa), a, Xa, capsule_line(b, Xb), b, Xb, 0.1, 1e-6, m));
  ASSERT_EQ(m.count, 1);
  EXPECT_EQ(point_id(m.point[0]), 2u);
  EXPECT_NEAR((m.point[0].p1_W - Vec3(0.1, 0.0, 0.1)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(m.point[0].gap, 0.05, 1e-15);
  // Turned by 1° about z (within the 2° of parallel lines) and crossing mid-overlap: both ends and
  // the crossing, which is the deepest (the ends are 0.3 ± 0.4 sin 1° off sideways).
  Xb = at(Vec3(0.1, 0.0, 0.3), rot(kPi / 180, Vec3::UnitZ()) * rot(kPi / 2, Vec3::UnitY()));
  ASSERT_TRUE(line_pair(capsule_line(a, Xa), a, Xa, capsule_line(b, Xb), b, Xb, 0.1, 1e-6, m));
  ASSERT_EQ(m.count, 3);
  EXPECT_EQ(point_id(m.point[1]), 2u);
  EXPECT_NEAR(m.point[1].gap, 0.05, 1e-15);
  EXPECT_NEAR(m.min_gap, 0.05, 1e-15);
  EXPECT_GT(m.point[0].gap, 0.05 + 1e-6);
  EXPECT_GT(m.point[2].gap, 0.05 + 1e-6);
  // Crossing beyond a segment's end at a large angle: no line manifold.
  Xb = at(Vec3(0.9, 0.0, 0.3), rot(kPi / 2, Vec3::UnitX()));
  EXPECT_FALSE(line_pair(capsule_line(a, Xa), a, Xa, capsule_line(b, Xb), b, Xb, 0.1, 1e-6, m));
}

}  // namespace
}  // namespace coulomb
