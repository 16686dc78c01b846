// Narrowphase against closed-form configurations: distances, points, normals, counts, features
// and curvature radii; both argument orders; libccd pairs against exact answers.

#include <coulomb/collision/narrowphase.hpp>
#include <coulomb/world/world.hpp>

#include "world/builders.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace coulomb {
namespace {

Pose at(const Vec3& p, const Quat& q = Quat::Identity()) { return Pose{p, q}; }
Quat rot(double angle, const Vec3& axis) {
  return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
}

// Invariants every point satisfies: unit n, right-handed frame, gap = (p2 − p1)·n, p1 − p2 ∥ n.
void check_invariants(const ContactPoint& c) {
  EXPECT_NEAR(c.n_W.norm(), 1.0, 1e-14);
  EXPECT_NEAR(c.t1_W.cross(c.t2_W).dot(c.n_W), 1.0, 1e-14);
  EXPECT_NEAR(c.t1_W.dot(c.n_W), 0.0, 1e-14);
  EXPECT_NEAR((c.p2_W - c.p1_W).dot(c.n_W), c.gap, 1e-12);
  EXPECT_NEAR((c.p2_W - c.p1_W).cross(c.n_W).norm(), 0.0, 1e-12);
}

std::vector<ContactPoint> run(const Geometry& g1, const Pose& X1, const Geometry& g2,
                              const Pose& X2, double margin = 0.0) {
  std::vector<ContactPoint> out;
  const int n = collide(g1, X1, g2, X2, margin, out);
  EXPECT_EQ(n, static_cast<int>(out.size()));
  for (const auto& c : out) check_invariants(c);
  // The other order gives the same points flipped (for two shapes of one kind the roles may
  // differ, e.g. the reference face of box–box, so only the count is compared there).
  std::vector<ContactPoint> back;
  EXPECT_EQ(collide(g2, X2, g1, X1, margin, back), n);
  if (g1.index() == g2.index()) return out;
  for (std::size_t i = 0; i < back.size() && i < out.size(); ++i) {
    EXPECT_EQ(back[i].gap, out[i].gap);
    EXPECT_EQ(back[i].feature, out[i].feature);
    EXPECT_NEAR((back[i].n_W + out[i].n_W).norm(), 0.0, 1e-15);
    EXPECT_NEAR((back[i].p1_W - out[i].p2_W).norm(), 0.0, 1e-15);
    EXPECT_EQ(back[i].curvature1.r1, out[i].curvature2.r1);
  }
  return out;
}

// --- Exact resting contacts (the dynamics rely on gap == 0 exactly). ---------------------------

TEST(Narrowphase, UnitBoxRestingOnFloorHasExactZeroGaps) {
  const auto pts = run(Plane{}, Pose{}, Box{Vec3::Constant(0.5)}, at(Vec3(0, 0, 0.5)), 0.01);
  ASSERT_EQ(pts.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(pts[i].gap, 0.0);
    EXPECT_EQ(pts[i].feature, i);  // bottom corners 0..3 (bit 2 = +z clear)
    EXPECT_EQ(pts[i].n_W, Vec3::UnitZ());
    EXPECT_EQ(pts[i].p2_W.z(), 0.0);
    EXPECT_EQ(pts[i].curvature2.r1, kInf);  // a face lying flat
  }
  // Other order: normal from box to plane.
  std::vector<ContactPoint> out;
  collide(Box{Vec3::Constant(0.5)}, at(Vec3(0, 0, 0.5)), Plane{}, Pose{}, 0.0, out);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].n_W, -Vec3::UnitZ());
  EXPECT_EQ(out[0].gap, 0.0);
}

// A patch law's point: a box tilted about x by θ = 4e-6 rad, 1e-6 m above a plane at its lower
// edge, after one earlier point that must stay as it is. The merged point is the mean of the four
// corners — the centre of the box's bottom face, c + R (0, 0, −1/2) — and its gap their mean,
// 1e-6 + sin(θ)/2 m.
TEST(Narrowphase, MergeIntoCentroidKeepsEarlierPointsAndAveragesThePair) {
  std::vector<ContactPoint> pts(1);
  pts[0].gap = 42.0;
  const double theta = 4e-6;
  const Quat tilt(Eigen::AngleAxisd(theta, Vec3::UnitX()));
  const Vec3 centre(0.3, -0.2, 0.5 * std::cos(theta) + 0.5 * std::sin(theta) + 1e-6);
  collide(Plane{}, Pose{}, Box{Vec3::Constant(0.5)}, Pose{centre, tilt}, 0.01, pts);
  ASSERT_EQ(pts.size(), 5u);
  merge_into_centroid(pts, 1);
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_EQ(pts[0].gap, 42.0);
  EXPECT_EQ(pts[1].feature, 0u);
  // Round-off of positions of order 1 m: 1e-15; of the gaps' sums: 1e-16.
  EXPECT_NEAR(pts[1].gap, 1e-6 + 0.5 * std::sin(theta), 1e-15);
  EXPECT_LT((pts[1].p2_W - (centre + tilt * Vec3(0, 0, -0.5))).norm(), 1e-12);
  merge_into_centroid(pts, 1);  // one point: nothing to merge
  EXPECT_EQ(pts.size(), 2u);
}

TEST(Narrowphase, StackedBoxesHaveExactZeroGaps) {
  const Box b{Vec3::Constant(0.5)};
  const auto pts = run(b, at(Vec3(0, 0, 0.5)), b, at(Vec3(0, 0, 1.5)), 0.01);
  ASSERT_EQ(pts.size(), 4u);
  for (const auto& c : pts) {
    EXPECT_EQ(c.gap, 0.0);
    EXPECT_EQ(c.n_W, Vec3::UnitZ());
    EXPECT_EQ(c.p1_W.z(), 1.0);
    EXPECT_EQ(std::abs(c.p1_W.x()), 0.5);
    EXPECT_EQ(std::abs(c.p1_W.y()), 0.5);
    EXPECT_EQ(c.curvature1.r1, kInf);
    EXPECT_EQ(c.curvature2.r1, kInf);
  }
}

TEST(Narrowphase, BoxOnBoxFeaturesAreStableUnderSmallMotion) {
  // A smaller box on a bigger one: its 4 bottom corners are the points, with the same ids after a
  // small slide and sink.
  const Box big{Vec3::Constant(0.5)}, small{Vec3::Constant(0.3)};
  const auto a = run(big, at(Vec3(0, 0, 0.5)), small, at(Vec3(0, 0, 1.3)), 0.0);
  const auto b = run(big, at(Vec3(0, 0, 0.5)), small, at(Vec3(0.05, -0.03, 1.29)), 0.0);
  ASSERT_EQ(a.size(), 4u);
  ASSERT_EQ(b.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(a[i].feature, b[i].feature);
    EXPECT_EQ(a[i].gap, 0.0);
    EXPECT_NEAR(b[i].gap, -0.01, 1e-15);
    EXPECT_NEAR((b[i].p2_W - a[i].p2_W - Vec3(0.05, -0.03, -0.01)).norm(), 0.0, 1e-15);
  }
}

TEST(Narrowphase, EqualBoxesStackedSquareKeepTheirFeaturesUnderRoundOff) {
  // Equal boxes stacked square put every incident corner on a side plane of the reference face;
  // rotations and shifts at round-off level (what a resting stack sees from step to step) must
  // not flip a corner between its own id and a clipped crossing, nor add near-duplicate points:
  // the contact memory (warm start) is keyed by these ids. Measured before the clipping took
  // `tie`: a ten-box tower lost the warm start of three corners in four every few steps and
  // needed 100–600 sweeps a step instead of 1.
  const Box b{Vec3::Constant(0.5)};
  const auto ref = run(b, at(Vec3(0, 0, 0.5)), b, at(Vec3(0, 0, 1.5)), 0.01);
  ASSERT_EQ(ref.size(), 4u);
  for (int k = 0; k < 40; ++k) {
    const double s = (k % 2 ? 1.0 : -1.0) * std::ldexp(1.0, -45 - k % 5);  // 3e-14 … 2e-15
    const Vec3 axis(std::cos(0.7 * k), std::sin(0.7 * k), 0.3 * ((k % 3) - 1.0));
    const auto pts = run(b, at(Vec3(0, 0, 0.5)), b, at(Vec3(s, -s, 1.5 + s), rot(s, axis)), 0.01);
    ASSERT_EQ(pts.size(), 4u) << k;
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(pts[i].feature, ref[i].feature) << k;
      EXPECT_NEAR((pts[i].p1_W - ref[i].p1_W).norm(), 0.0, 1e-12) << k;
    }
  }
}

TEST(Narrowphase, SmallBoxTurned45OnBigBoxGivesOctagon) {
  // A 1×1 top face turned 45° on a 0.8×0.8 bottom face: the clipped polygon is an octagon.
  const auto pts = run(Box{Vec3(0.4, 0.4, 0.5)}, at(Vec3(0, 0, 0)), Box{Vec3::Constant(0.5)},
                       at(Vec3(0, 0, 0.99), rot(kPi / 4, Vec3::UnitZ())));
  ASSERT_EQ(pts.size(), 8u);
  for (const auto& c : pts) {
    EXPECT_NEAR(c.gap, -0.01, 1e-14);
    EXPECT_NEAR(c.n_W.z(), 1.0, 1e-15);
    // Every point is on the boundary of both squares: on an edge of the lower face (|x| or |y| =
    // 0.4) and of the turned face (|x| + |y| = 0.5√2).
    EXPECT_NEAR(std::max(std::abs(c.p1_W.x()), std::abs(c.p1_W.y())), 0.4, 1e-14);
    EXPECT_NEAR(std::abs(c.p1_W.x()) + std::abs(c.p1_W.y()), 0.5 * std::sqrt(2.0), 1e-14);
  }
}

TEST(Narrowphase, BoxBoxSeparatedBeyondMarginGivesNothing) {
  const Box b{Vec3::Constant(0.5)};
  EXPECT_TRUE(run(b, Pose{}, b, at(Vec3(0, 0, 1.02)), 0.01).empty());
  EXPECT_EQ(run(b, Pose{}, b, at(Vec3(0, 0, 1.02)), 0.03).size(), 4u);
}

TEST(Narrowphase, BoxBoxEdgeEdge) {
  // Box 1 turned 45° about y: top edge along y at z = h√2. Box 2 turned 45° about x: bottom edge
  // along x at z = c − h√2. The edges cross at right angles above the origin.
  const double h = 0.5, s2 = std::sqrt(2.0), c = 1.5;
  const auto pts = run(Box{Vec3::Constant(h)}, at(Vec3::Zero(), rot(kPi / 4, Vec3::UnitY())),
                       Box{Vec3::Constant(h)}, at(Vec3(0, 0, c), rot(kPi / 4, Vec3::UnitX())), 0.2);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, c - 2 * h * s2, 1e-14);
  EXPECT_NEAR((pts[0].n_W - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  EXPECT_NEAR((pts[0].p1_W - Vec3(0, 0, h * s2)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((pts[0].p2_W - Vec3(0, 0, c - h * s2)).norm(), 0.0, 1e-14);
  EXPECT_EQ(pts[0].curvature1.r1, 0.0);  // sharp edge across
  EXPECT_EQ(pts[0].curvature1.r2, kInf);
  EXPECT_NEAR(std::abs(pts[0].curvature1.d1.x()), 1.0, 1e-14);  // across the y edge
}

TEST(Narrowphase, TiltedBoxOnPlaneTouchesWithOneCorner) {
  // Box balanced on a corner: rotate so that the body diagonal (1,1,1) points down.
  const Quat q = Quat::FromTwoVectors(Vec3(1, 1, 1).normalized(), -Vec3::UnitZ());
  const double h = 0.5, depth = 0.001;
  const auto pts = run(Plane{}, Pose{}, Box{Vec3::Constant(h)},
                       at(Vec3(0, 0, h * std::sqrt(3.0) - depth), q), 0.1);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_EQ(pts[0].feature, 7u);  // corner (+,+,+)
  EXPECT_NEAR(pts[0].gap, -depth, 1e-14);
  EXPECT_EQ(pts[0].curvature2.r1, 0.0);  // sharp corner
}

// --- Sphere pairs. -------------------------------------------------------------------------------

TEST(Narrowphase, SpherePlaneTiltedPlane) {
  const Vec3 n = Vec3(1, 0, 1).normalized();
  Pose Xp;
  Xp.p = Vec3(0, 0, 1);
  Xp.q = Quat::FromTwoVectors(Vec3::UnitZ(), n);
  const double R = 0.3, d = 0.25;  // centre 0.25 above the plane: penetration 0.05
  const Vec3 c = Xp.p + Vec3(0, 2, 0) + d * n;
  const auto pts = run(Plane{}, Xp, Sphere{R}, at(c));
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, d - R, 1e-15);
  EXPECT_NEAR((pts[0].n_W - n).norm(), 0.0, 1e-15);
  EXPECT_NEAR((pts[0].p2_W - (c - R * n)).norm(), 0.0, 1e-15);
  EXPECT_EQ(pts[0].curvature2.r1, R);
  EXPECT_EQ(pts[0].curvature1.r1, kInf);
  // Separated by more than the margin: nothing; within: reported.
  EXPECT_TRUE(run(Plane{}, Xp, Sphere{R}, at(c + 0.2 * n), 0.1).empty());
  EXPECT_EQ(run(Plane{}, Xp, Sphere{R}, at(c + 0.2 * n), 0.2).size(), 1u);
}

TEST(Narrowphase, SphereSphereDistanceAndPoints) {
  const auto pts = run(Sphere{0.5}, at(Vec3(1, 1, 1)), Sphere{0.7}, at(Vec3(1, 1.6, 1.8)), 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, -0.2, 1e-15);
  EXPECT_NEAR((pts[0].n_W - Vec3(0, 0.6, 0.8)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((pts[0].p1_W - Vec3(1, 1.3, 1.4)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((pts[0].p2_W - Vec3(1, 1.6 - 0.42, 1.8 - 0.56)).norm(), 0.0, 1e-15);
  EXPECT_EQ(pts[0].curvature1.r1, 0.5);
  EXPECT_EQ(pts[0].curvature2.r2, 0.7);
}

TEST(Narrowphase, SphereBoxFaceEdgeCornerInside) {
  const Box b{Vec3(0.5, 1.0, 1.5)};
  const Pose Xb = at(Vec3(1, 2, 3), rot(0.4, Vec3(0, 0, 1)));
  const double R = 0.2;
  auto sphere_at = [&](const Vec3& c_B) { return at(Xb.apply(c_B)); };
  // Face +x: centre 0.1 off the face.
  auto pts = run(Sphere{R}, sphere_at(Vec3(0.6, 0.3, -0.2)), b, Xb, 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, 0.1 - R, 1e-14);
  EXPECT_NEAR((pts[0].n_W - Xb.rotate(-Vec3::UnitX())).norm(), 0.0, 1e-14);
  EXPECT_EQ(pts[0].curvature2.r1, kInf);
  // Edge (+x, +y): centre offset (0.06, 0.08) from the edge: distance 0.1.
  pts = run(Sphere{R}, sphere_at(Vec3(0.56, 1.08, 0.0)), b, Xb, 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, 0.1 - R, 1e-14);
  EXPECT_EQ(pts[0].curvature2.r1, 0.0);
  EXPECT_EQ(pts[0].curvature2.r2, kInf);
  // Corner (−,−,−): offset (−0.1, −0.1, −0.1): distance 0.1√3.
  pts = run(Sphere{R}, sphere_at(Vec3(-0.6, -1.1, -1.6)), b, Xb, 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, 0.1 * std::sqrt(3.0) - R, 1e-14);
  EXPECT_NEAR((pts[0].p2_W - Xb.apply(Vec3(-0.5, -1.0, -1.5))).norm(), 0.0, 1e-14);
  EXPECT_EQ(pts[0].curvature2.r2, 0.0);
  // Centre inside, 0.05 below the +z face: penetration 0.05 + R, normal pushes the box down.
  pts = run(Sphere{R}, sphere_at(Vec3(0.1, 0.2, 1.45)), b, Xb, 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, -(0.05 + R), 1e-14);
  EXPECT_NEAR((pts[0].n_W - Xb.rotate(-Vec3::UnitZ())).norm(), 0.0, 1e-14);
  // Far away: nothing.
  EXPECT_TRUE(run(Sphere{R}, sphere_at(Vec3(2, 0, 0)), b, Xb, 0.1).empty());
}

TEST(Narrowphase, SphereCapsuleDistances) {
  const Capsule c{0.2, 1.0};
  const Pose Xc = at(Vec3(0, 0, 0), rot(kPi / 2, Vec3::UnitX()));  // core along y
  auto pts = run(Sphere{0.3}, at(Vec3(0, 0.4, 0.45)), c, Xc, 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, 0.45 - 0.5, 1e-14);
  EXPECT_NEAR((pts[0].n_W + Vec3::UnitZ()).norm(), 0.0, 1e-14);
  EXPECT_NEAR(pts[0].curvature2.r1, 0.2, 1e-15);  // side: R around the axis
  EXPECT_EQ(pts[0].curvature2.r2, kInf);
  EXPECT_NEAR(std::abs(pts[0].curvature2.d1.x()), 1.0, 1e-14);
  // Beyond the +y end: cap, distance |(0, 0.3, 0.4)| = 0.5 from the end point (0, 1, 0)... end is
  // local +z → world −y: end at (0, −1, 0).
  pts = run(Sphere{0.3}, at(Vec3(0, -1.3, 0.4)), c, Xc, 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, 0.5 - 0.5, 1e-14);
  EXPECT_EQ(pts[0].curvature2.r2, 0.2);
}

// --- Capsules. -----------------------------------------------------------------------------------

TEST(Narrowphase, CapsulePlaneLyingAndTilted) {
  const Capsule c{0.1, 0.5};
  // A quarter turn is not exact in floating point (cos(π/2) ≈ 6e-17): margin 1e-12 for rounding.
  const Pose lying = at(Vec3(0, 0, 0.1), rot(kPi / 2, Vec3::UnitY()));
  auto pts = run(Plane{}, Pose{}, c, lying, 1e-12);
  ASSERT_EQ(pts.size(), 2u);
  for (const auto& p : pts) {
    EXPECT_NEAR(p.gap, 0.0, 1e-15);  // rounding of the quarter turn on 0.5 m
    EXPECT_NEAR(std::abs(p.p2_W.x()), 0.5, 1e-15);
    EXPECT_EQ(p.curvature2.r2, kInf);  // cylindrical side
  }
  const double th = 0.3;
  const Pose tilted =
      at(Vec3(0, 0, 0.5 * std::sin(th) + 0.1 - 0.02), rot(kPi / 2 - th, Vec3::UnitY()));
  pts = run(Plane{}, Pose{}, c, tilted, 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, -0.02, 1e-15);
  EXPECT_EQ(pts[0].curvature2.r1, 0.1);
  EXPECT_EQ(pts[0].curvature2.r2, 0.1);
}

TEST(Narrowphase, CapsuleCapsuleCrossed) {
  const Capsule c{0.1, 1.0};
  // Core 1 along x at z = 0, core 2 along y at z = 0.25: distance 0.25 − 0.2.
  const auto pts = run(c, at(Vec3::Zero(), rot(kPi / 2, Vec3::UnitY())), c,
                       at(Vec3(0.3, -0.2, 0.25), rot(kPi / 2, Vec3::UnitX())), 0.1);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, 0.05, 1e-14);
  EXPECT_NEAR((pts[0].n_W - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  EXPECT_NEAR((pts[0].p1_W - Vec3(0.3, 0, 0.1)).norm(), 0.0, 1e-14);
}

TEST(Narrowphase, CapsuleCapsuleParallelOverlapGivesTwoPoints) {
  const Capsule c1{0.1, 1.0}, c2{0.2, 0.5};
  const Quat along_x = rot(kPi / 2, Vec3::UnitY());
  // Core 2 spans x ∈ [0.8, 1.8], core 1 x ∈ [−1, 1]: overlap [0.8, 1]. Centres 0.28 apart in z.
  const auto pts = run(c1, at(Vec3::Zero(), along_x), c2, at(Vec3(1.3, 0, 0.28), along_x), 0.0);
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_NEAR(pts[0].p1_W.x(), 0.8, 1e-14);
  EXPECT_NEAR(pts[1].p1_W.x(), 1.0, 1e-14);
  for (const auto& p : pts) {
    EXPECT_NEAR(p.gap, -0.02, 1e-14);
    EXPECT_NEAR((p.n_W - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  }
}

// --- Cylinders, cones, ellipsoids, hulls on a plane. ---------------------------------------------

TEST(Narrowphase, CylinderPlaneFlatTiltedLying) {
  const Cylinder cyl{0.3, 0.05};  // a disk
  auto pts = run(Plane{}, Pose{}, cyl, at(Vec3(1, 2, 0.05)), 0.0);
  ASSERT_EQ(pts.size(), 8u);
  for (std::size_t k = 0; k < 8; ++k) {
    EXPECT_EQ(pts[k].gap, 0.0);
    EXPECT_EQ(pts[k].feature, k);
    EXPECT_NEAR((pts[k].p2_W - Vec3(1, 2, 0)).norm(), 0.3, 1e-15);
    EXPECT_EQ(pts[k].curvature2.r1, kInf);
  }
  // Tilted by θ about x: lowest rim point at z = c − hl cos θ − R sin θ.
  const double th = 0.2, zc = 0.1;
  pts = run(Plane{}, Pose{}, cyl, at(Vec3(0, 0, zc), rot(th, Vec3::UnitX())), 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, zc - 0.05 * std::cos(th) - 0.3 * std::sin(th), 1e-15);
  EXPECT_EQ(pts[0].feature, 8u);
  EXPECT_EQ(pts[0].curvature2.r1, 0.0);
  EXPECT_NEAR(pts[0].curvature2.r2, 0.3, 1e-15);
  // Lying on its side: one point on each rim.
  // (margin 1e-12: a quarter turn is exact only to rounding)
  pts = run(Plane{}, Pose{}, Cylinder{0.3, 1.0}, at(Vec3(0, 0, 0.3), rot(kPi / 2, Vec3::UnitX())),
            1e-12);
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_NEAR(pts[0].gap, 0.0, 1e-15);
  EXPECT_NEAR(pts[1].gap, 0.0, 1e-15);
  EXPECT_NEAR(std::abs(pts[0].p2_W.y() - pts[1].p2_W.y()), 2.0, 1e-15);
}

TEST(Narrowphase, ConePlaneBaseApexSide) {
  const Cone cone{0.4, 1.2};
  auto pts = run(Plane{}, Pose{}, cone, at(Vec3(0, 0, 0.6)), 0.0);
  ASSERT_EQ(pts.size(), 8u);
  for (const auto& p : pts) EXPECT_EQ(p.gap, 0.0);
  pts = run(Plane{}, Pose{}, cone, at(Vec3(0, 0, 0.59), rot(kPi, Vec3::UnitX())), 0.0);
  ASSERT_EQ(pts.size(), 1u);  // apex down
  EXPECT_EQ(pts[0].feature, 0u);
  EXPECT_NEAR(pts[0].gap, -0.01, 1e-15);
  // On its side: the generator from apex to rim lies on the plane. The generator makes angle
  // α = atan(R/h) with the axis; tilt the axis by π/2 − α about x, then both ends are at one
  // height.
  const double a = std::atan2(0.4, 1.2);
  const Quat q = rot(kPi / 2 + a, Vec3::UnitX());
  const Vec3 apex_L(0, 0, 0.6);
  const double z = -(q * apex_L).z();
  pts = run(Plane{}, Pose{}, cone, at(Vec3(0, 0, z), q), 1e-12);
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_NEAR(pts[0].gap, 0.0, 1e-15);
  EXPECT_NEAR(pts[1].gap, 0.0, 1e-15);
  EXPECT_NEAR((pts[0].p2_W - pts[1].p2_W).norm(), std::hypot(0.4, 1.2), 1e-14);
}

TEST(Narrowphase, EllipsoidPlaneGapPointAndCurvature) {
  const Vec3 ax(0.2, 0.5, 0.9);
  // Resting on the c end: radii a²/c and b²/c.
  auto pts = run(Plane{}, Pose{}, Ellipsoid{ax}, at(Vec3(0, 0, 0.9)), 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, 0.0, 1e-16);
  const double r1 = pts[0].curvature2.r1, r2 = pts[0].curvature2.r2;
  EXPECT_NEAR(std::max(r1, r2), 0.25 / 0.9, 1e-14);
  EXPECT_NEAR(std::min(r1, r2), 0.04 / 0.9, 1e-14);
  // Rotated: gap = centre height − sqrt(nᵀ R D² Rᵀ n) (support function of the ellipsoid).
  const Quat q = rot(0.8, Vec3(1, 1, 0.3));
  const Vec3 m = q.conjugate() * Vec3::UnitZ();
  const double ext = std::sqrt((ax.cwiseProduct(m)).squaredNorm());
  pts = run(Plane{}, Pose{}, Ellipsoid{ax}, at(Vec3(0, 0, 0.5), q), 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, 0.5 - ext, 1e-15);
  // The point is on the ellipsoid and its outward normal is −z.
  const Vec3 x_L = q.conjugate() * (pts[0].p2_W - Vec3(0, 0, 0.5));
  EXPECT_NEAR(x_L.cwiseQuotient(ax).squaredNorm(), 1.0, 1e-14);
  EXPECT_NEAR((q * x_L.cwiseQuotient(ax.cwiseAbs2())).normalized().z(), -1.0, 1e-14);
}

// Principal radii against finite differences of the unit normal along the principal directions
// (Rodrigues: dn = −κ dx along a principal direction, here with the outward normal, dn = +κ dx).
TEST(Narrowphase, EllipsoidCurvatureMatchesFiniteDifferences) {
  const Vec3 ax(0.3, 0.6, 1.1);
  const Quat q = rot(0.5, Vec3(0.2, 1, -0.4));
  const Vec3 n_plane = Vec3::UnitZ();
  const auto pts = run(Plane{}, Pose{}, Ellipsoid{ax}, at(Vec3(0, 0, 2.0), q), 10.0);
  ASSERT_EQ(pts.size(), 1u);
  const Curvature& c = pts[0].curvature2;
  const Vec3 x0 = q.conjugate() * (pts[0].p2_W - Vec3(0, 0, 2.0));
  auto normal_at = [&](const Vec3& x) {  // outward normal at x projected radially onto the surface
    const Vec3 s = x / std::sqrt(x.cwiseQuotient(ax).squaredNorm());
    return Vec3(s.cwiseQuotient(ax.cwiseAbs2()).normalized());
  };
  const Vec3 d1 = q.conjugate() * c.d1;
  const Vec3 d2 = normal_at(x0).cross(d1);
  const double h = 1e-6;  // central differences: error O(h²) ~ 1e-12, rounding ~1e-16/h ~ 1e-10
  const Vec3 dn1 = (normal_at(x0 + h * d1) - normal_at(x0 - h * d1)) / (2 * h);
  const Vec3 dn2 = (normal_at(x0 + h * d2) - normal_at(x0 - h * d2)) / (2 * h);
  EXPECT_NEAR(dn1.dot(d1), 1.0 / c.r1, 1e-7);
  EXPECT_NEAR(dn2.dot(d2), 1.0 / c.r2, 1e-7);
  EXPECT_NEAR(dn1.dot(d2), 0.0, 1e-7);  // principal: no twist
  EXPECT_NEAR(c.d1.dot(n_plane), 0.0, 1e-14);
}

TEST(Narrowphase, HullOnPlane) {
  std::vector<Vec3> pts_L;
  for (int i = 0; i < 8; ++i) {
    pts_L.emplace_back(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
  }
  const ConvexHull h = make_convex_hull(pts_L);
  auto pts = run(Plane{}, Pose{}, h, at(Vec3(0, 0, 0.5)), 0.0);
  ASSERT_EQ(pts.size(), 4u);
  for (const auto& p : pts) EXPECT_EQ(p.gap, 0.0);
}

// --- libccd pairs against exact answers. ---------------------------------------------------------

// MPR stops when the portal is within its tolerance (1e-12 here) of the Minkowski boundary; the
// normal then agrees with the exact one to about sqrt(tol/R): 1e-6 is the bound checked.
constexpr double kMprNormalTol = 1e-6;

TEST(Narrowphase, CcdSphericalEllipsoidVsSphere) {
  const Vec3 c2(0.3, -0.2, 0.5);
  const double d = c2.norm();
  for (double margin : {0.0, 0.2}) {
    for (double r2 : {0.2, 0.35}) {  // separated by 0.0165 / penetrating
      const auto pts = run(Ellipsoid{Vec3::Constant(0.4)},
                           at(Vec3::Zero(), rot(0.3, Vec3::UnitX())), Sphere{r2}, at(c2), margin);
      const double gap = d - 0.4 - r2;
      if (gap > margin) {
        EXPECT_TRUE(pts.empty());
        continue;
      }
      ASSERT_EQ(pts.size(), 1u) << margin << " " << r2;
      EXPECT_NEAR((pts[0].n_W - c2 / d).norm(), 0.0, kMprNormalTol);
      EXPECT_NEAR(pts[0].gap, gap, 1e-10);  // gap error is second order in the normal error
      EXPECT_NEAR((pts[0].p1_W - 0.4 * c2 / d).norm(), 0.0, 1e-6);
      EXPECT_NEAR(pts[0].curvature1.r1, 0.4, 1e-12);
      EXPECT_NEAR(pts[0].curvature1.r2, 0.4, 1e-12);
    }
  }
}

TEST(Narrowphase, CcdCoaxialCylinders) {
  const Cylinder a{0.3, 0.2}, b{0.2, 0.4};
  for (double dz : {-0.01, 0.005}) {
    // Cap on cap: the flat manifold, b's 8 bottom rim samples inside a's top cap.
    const auto pts = run(a, Pose{}, b, at(Vec3(0, 0, 0.6 + dz)), 0.01);
    ASSERT_EQ(pts.size(), 8u);
    for (const auto& p : pts) {
      EXPECT_EQ(p.n_W, Vec3::UnitZ());  // a's cap normal, exact
      EXPECT_NEAR(p.gap, dz, 1e-15);    // round-off of 0.6 + dz − 0.4 − 0.2
      EXPECT_NEAR(std::hypot(p.p2_W.x(), p.p2_W.y()), 0.2, 1e-15);
      EXPECT_EQ(p.curvature1.r1, kInf);  // cap faces
      EXPECT_EQ(p.curvature2.r1, kInf);
    }
  }
  EXPECT_TRUE(run(a, Pose{}, b, at(Vec3(0, 0, 0.62)), 0.01).empty());
}

TEST(Narrowphase, CcdSphereOnConeSide) {
  // A sphere touching the cone side: the distance from the centre to the side line is known.
  const double R = 0.4, h = 1.2, r = 0.1;
  const double a = std::atan2(R, h);
  // Side normal in the xz-plane: (cos α, 0, sin α); the point at mid-height has x = R/2.
  const Vec3 foot(R / 2, 0, 0);
  const Vec3 n(std::cos(a), 0, std::sin(a));
  const double gap = 0.01;
  const auto pts = run(Cone{R, h}, Pose{}, Sphere{r}, at(foot + (r + gap) * n), 0.05);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR((pts[0].n_W - n).norm(), 0.0, kMprNormalTol);
  EXPECT_NEAR(pts[0].gap, gap, 1e-10);
  // Cone side radius at x = R/2: (R/2)/cos α around, straight along the generator.
  EXPECT_NEAR(pts[0].curvature1.r1, (R / 2) / std::cos(a), 1e-5);
  EXPECT_EQ(pts[0].curvature1.r2, kInf);
}

TEST(Narrowphase, CcdSphereOffCentreOnCylinderCapAndHullFace) {
  // The MPR ray from centre to centre is oblique here; the exact normal is the cap's +z.
  const auto pts = run(Cylinder{1.0, 0.2}, Pose{}, Sphere{0.1}, at(Vec3(0.5, 0.1, 0.29)), 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR((pts[0].n_W - Vec3::UnitZ()).norm(), 0.0, kMprNormalTol);
  EXPECT_NEAR(pts[0].gap, -0.01, 1e-10);
  EXPECT_NEAR((pts[0].p2_W - Vec3(0.5, 0.1, 0.19)).norm(), 0.0, 1e-6);
  // A sphere resting on the slanted face x + y + z = 1 of the unit-corner tetrahedron.
  const ConvexHull tet = make_convex_hull(
      std::vector<Vec3>{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)});
  const Vec3 n = Vec3::Constant(1.0 / std::sqrt(3.0));
  const Vec3 foot = Vec3::Constant(1.0 / 3.0);
  const auto q = run(tet, Pose{}, Sphere{0.2}, at(foot + 0.19 * n), 0.0);
  ASSERT_EQ(q.size(), 1u);
  EXPECT_NEAR((q[0].n_W - n).norm(), 0.0, kMprNormalTol);
  EXPECT_NEAR(q[0].gap, -0.01, 1e-10);
  EXPECT_EQ(q[0].curvature1.r1, kInf);
  EXPECT_NEAR(q[0].curvature2.r1, 0.2, 1e-15);
}

TEST(Narrowphase, EveryPairBothOrders) {
  // Each kind against each other kind, overlapping a little: at least one point, and the swapped
  // call gives the flipped points (checked in run()).
  std::vector<Geometry> g = {
      Plane{},
      Sphere{0.3},
      Box{Vec3(0.3, 0.2, 0.25)},
      Capsule{0.15, 0.2},
      Cylinder{0.25, 0.2},
      Ellipsoid{Vec3(0.3, 0.2, 0.25)},
      Cone{0.3, 0.5},
      make_convex_hull(std::vector<Vec3>{Vec3(-0.3, -0.3, -0.2), Vec3(0.3, -0.3, -0.2),
                                         Vec3(0, 0.3, -0.2), Vec3(0, 0, 0.3)})};
  for (std::size_t i = 0; i < g.size(); ++i) {
    for (std::size_t j = 0; j < g.size(); ++j) {
      if (i == 0 && j == 0) continue;
      const Pose X1 = at(Vec3(0.01, 0.02, 0.0), rot(0.3, Vec3(1, 2, 3)));
      const Pose X2 = at(Vec3(-0.02, 0.03, 0.35), rot(0.5, Vec3(-1, 0.5, 0.2)));
      // A plane as shape 1 lies at z = 0 under shape 2 at z = 0.1; as shape 2 at z = 0.1 through
      // shape 1 at the origin.
      const Pose P1 = i == 0 ? Pose{} : X1;
      const Pose P2 = j == 0 ? at(Vec3(0, 0, 0.1)) : (i == 0 ? at(Vec3(0, 0, 0.1), X2.q) : X2);
      const auto pts = run(g[i], P1, g[j], P2, 0.0);
      EXPECT_GE(pts.size(), 1u) << i << " " << j;
      for (const auto& p : pts) {
        EXPECT_LE(p.gap, 0.0);
        // The normal points from shape 1 to shape 2: upward when 2 is above 1 or 1 is the plane.
        if (j != 0) {
          EXPECT_GT(p.n_W.z(), 0.0) << i << " " << j;
        } else {
          EXPECT_EQ(p.n_W, -Vec3::UnitZ()) << i;
        }
      }
    }
  }
}

TEST(Narrowphase, NoReallocationWhenOutputHasCapacity) {
  std::vector<ContactPoint> out;
  out.reserve(16);
  const ContactPoint* data = out.data();
  collide(Plane{}, Pose{}, Box{Vec3::Constant(0.5)}, at(Vec3(0, 0, 0.5)), 0.0, out);
  collide(Cylinder{0.3, 0.2}, Pose{}, Sphere{0.2}, at(Vec3(0, 0, 0.35)), 0.0, out);
  EXPECT_EQ(out.size(), 5u);
  EXPECT_EQ(out.data(), data);
}

// --- Flat-on-flat manifolds for the MPR pairs. ---------------------------------------------------

ConvexHull cube_hull(double half) {
  std::vector<Vec3> pts_L;
  for (int i = 0; i < 8; ++i) {
    pts_L.emplace_back(i & 1 ? half : -half, i & 2 ? half : -half, i & 4 ? half : -half);
  }
  return make_convex_hull(pts_L);
}

std::vector<std::uint32_t> features(const std::vector<ContactPoint>& pts) {
  std::vector<std::uint32_t> f;
  for (const auto& p : pts) f.push_back(p.feature);
  return f;
}

TEST(Narrowphase, CylinderStandingOnBoxGivesEightExactPoints) {
  // Cylinder half-length 0.5 at z = 1.0 on a unit box at the origin: the bottom cap lies in the
  // box's top face z = 0.5. Gaps from exactly representable coordinates: 0 up to round-off.
  const Box box{Vec3::Constant(0.5)};
  const Cylinder cyl{0.3, 0.5};
  for (double turn : {0.0, 0.3}) {
    const auto pts = run(box, Pose{}, cyl, at(Vec3(0, 0, 1.0), rot(turn, Vec3::UnitZ())), 0.01);
    ASSERT_EQ(pts.size(), 8u) << turn;
    auto f = features(pts);
    std::sort(f.begin(), f.end());
    EXPECT_EQ(std::unique(f.begin(), f.end()), f.end());  // distinct ids
    for (const auto& p : pts) {
      EXPECT_NEAR(p.gap, 0.0, 1e-15);
      EXPECT_EQ(p.n_W, Vec3::UnitZ());  // the box's top face normal
      EXPECT_NEAR(p.p2_W.z(), 0.5, 1e-15);
      EXPECT_NEAR(std::hypot(p.p2_W.x(), p.p2_W.y()), 0.3, 1e-15);  // rim samples
      EXPECT_EQ(p.curvature1.r1, kInf);
      EXPECT_EQ(p.curvature2.r1, kInf);
    }
  }
  // The cylinder–plane closed form gives the same 8 rim points.
  const auto on_plane = run(Plane{Vec3::UnitZ(), 0.5}, Pose{}, cyl, at(Vec3(0, 0, 1.0)), 0.01);
  const auto on_box = run(box, Pose{}, cyl, at(Vec3(0, 0, 1.0)), 0.01);
  ASSERT_EQ(on_plane.size(), 8u);
  for (const auto& q : on_plane) {
    const bool found = std::any_of(on_box.begin(), on_box.end(), [&](const ContactPoint& p) {
      return (p.p2_W - q.p2_W).norm() <= 1e-15;
    });
    EXPECT_TRUE(found) << q.p2_W.transpose();
  }
  // Penetrating by 0.01: gaps −0.01; separated by 0.02 > margin: nothing.
  for (const auto& p : run(box, Pose{}, cyl, at(Vec3(0, 0, 0.99)), 0.01)) {
    EXPECT_NEAR(p.gap, -0.01, 1e-15);
  }
  EXPECT_TRUE(run(box, Pose{}, cyl, at(Vec3(0, 0, 1.02)), 0.01).empty());
}

TEST(Narrowphase, HullCubeOnBoxGivesFourCornersOrTheClippedOverlap) {
  const ConvexHull cube = cube_hull(0.5);
  const Box slab{Vec3(1.0, 1.0, 0.5)};
  auto pts = run(slab, Pose{}, cube, at(Vec3(0, 0, 1.0)), 0.01);
  ASSERT_EQ(pts.size(), 4u);
  for (const auto& p : pts) {
    EXPECT_NEAR(p.gap, 0.0, 1e-15);
    EXPECT_EQ(p.n_W, Vec3::UnitZ());
    EXPECT_NEAR(std::abs(p.p2_W.x()), 0.5, 1e-15);  // the cube's bottom corners
    EXPECT_NEAR(std::abs(p.p2_W.y()), 0.5, 1e-15);
  }
  // Overhanging the slab's +x edge (x = 1): the overlap x ∈ [0.3, 1.0], y ∈ [−0.5, 0.5].
  pts = run(slab, Pose{}, cube, at(Vec3(0.8, 0, 0.995)), 0.01);
  ASSERT_EQ(pts.size(), 4u);
  for (const auto& p : pts) {
    EXPECT_NEAR(p.gap, -0.005, 1e-15);
    const double x = p.p2_W.x();
    EXPECT_TRUE(std::abs(x - 0.3) <= 1e-15 || std::abs(x - 1.0) <= 1e-15) << x;
    EXPECT_NEAR(std::abs(p.p2_W.y()), 0.5, 1e-15);
    EXPECT_NEAR(p.p1_W.z(), 0.5, 1e-15);  // on the slab's top face
  }
  // The hull below the box: the box's bottom face is the reference (box is shape 1 internally).
  pts = run(cube, Pose{}, slab, at(Vec3(0, 0, 1.0)), 0.01);
  ASSERT_EQ(pts.size(), 4u);
  for (const auto& p : pts) {
    EXPECT_NEAR(p.gap, 0.0, 1e-15);
    EXPECT_EQ(p.n_W, Vec3::UnitZ());  // from the hull (shape 1 here) up to the box
  }
}

TEST(Narrowphase, HullOnHullTurned45GivesOctagon) {
  // Two unit cubes as hulls, the upper one turned 45° about z: the overlap of the faces is the
  // regular octagon with vertices on the lower square's edges at |t| = √2 − 1/2 ... checked as:
  // every point on both squares' boundaries.
  const ConvexHull cube = cube_hull(0.5);
  const Quat q = rot(kPi / 4, Vec3::UnitZ());
  const auto pts = run(cube, Pose{}, cube, at(Vec3(0, 0, 1.002), q), 0.01);
  ASSERT_EQ(pts.size(), 8u);
  for (const auto& p : pts) {
    EXPECT_NEAR(p.gap, 0.002, 1e-15);
    const Vec3 a = p.p2_W, b = q.conjugate() * p.p2_W;  // lower and upper face coordinates
    EXPECT_NEAR(std::max(std::abs(a.x()), std::abs(a.y())), 0.5, 1e-14);
    EXPECT_NEAR(std::max(std::abs(b.x()), std::abs(b.y())), 0.5, 1e-14);
  }
}

TEST(Narrowphase, SixteenClippedPointsAreReducedToEightSpreadOnes) {
  // Equal caps turned by π/8: the two octagons overlap in a 16-gon, reduced to 8 points.
  const Cylinder c{0.3, 0.2};
  const auto pts = run(c, Pose{}, c, at(Vec3(0, 0, 0.4), rot(kPi / 8, Vec3::UnitZ())), 0.01);
  ASSERT_EQ(pts.size(), 8u);
  double closest = kInf;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    EXPECT_NEAR(pts[i].gap, 0.0, 1e-15);
    for (std::size_t j = 0; j < i; ++j)
      closest = std::min(closest, (pts[i].p2_W - pts[j].p2_W).norm());
  }
  // The 16-gon's vertices lie at radius ≈ 0.3 every 22.5°; every other one is kept: neighbours
  // among the kept points are ≥ 45° apart, a chord of 2·0.277·sin(22.5°) ≈ 0.21 at the least
  // radius 0.3 cos(π/8) ≈ 0.277 of the 16-gon.
  EXPECT_GE(closest, 0.2);
}

TEST(Narrowphase, TiltedFacesGiveTheirPointsWithinMargin) {
  // Tilted by θ = 0.05 rad about x at z = 0.91 over the box top z = 0.5: every point of the
  // incident face is reported with its own gap, kept when within the margin (0.01). A local point
  // (x, y, −h) is at z = 0.91 + y sin θ − h cos θ.
  const Box box{Vec3::Constant(0.5)};
  const double th = 0.05;
  const Quat tilt = rot(th, Vec3::UnitX());
  auto gap_of = [&](double y, double h) { return 0.41 + y * std::sin(th) - h * std::cos(th); };
  // Cube of half 0.4: the bottom edge at y = −0.4 (gap −0.0095) touches; the edge at y = +0.4
  // (gap 0.0305) is beyond the margin.
  for (const auto& pts :
       {run(box, Pose{}, cube_hull(0.4), at(Vec3(0, 0, 0.91), tilt), 0.01),
        run(cube_hull(0.5), Pose{}, cube_hull(0.4), at(Vec3(0, 0, 0.91), tilt), 0.01)}) {
    ASSERT_EQ(pts.size(), 2u);
    for (const auto& p : pts) {
      EXPECT_NEAR(p.gap, gap_of(-0.4, 0.4), 1e-15);
      EXPECT_NEAR(std::abs(p.p2_W.x()), 0.4, 1e-15);
      EXPECT_EQ(p.n_W, Vec3::UnitZ());
    }
  }
  // Cylinder (R 0.3, half-length 0.4): the rim samples at θk = 2πk/8 with y = 0.3 sin θk; the
  // lowest is sample 6 (y = −0.3), its neighbours 5 and 7 are within margin, 4 and 0 are not.
  const auto rim = run(box, Pose{}, Cylinder{0.3, 0.4}, at(Vec3(0, 0, 0.91), tilt), 0.01);
  ASSERT_EQ(rim.size(), 3u);
  for (const auto& p : rim) {
    const Vec3 x_L = tilt.conjugate() * (p.p2_W - Vec3(0, 0, 0.91));
    EXPECT_NEAR(std::hypot(x_L.x(), x_L.y()), 0.3, 1e-15);  // on the bottom rim
    EXPECT_NEAR(x_L.z(), -0.4, 1e-15);
    EXPECT_LT(x_L.y(), -0.2);  // samples 5, 6, 7
    EXPECT_NEAR(p.gap, gap_of(x_L.y(), 0.4), 1e-15);
    EXPECT_EQ(p.curvature2.r1, 0.0);  // a sharp rim across
    EXPECT_NEAR(p.curvature2.r2, 0.3, 1e-15);
  }
  // A cone on its apex on a box: the apex, one point; on its base: the 8 base samples.
  EXPECT_EQ(
      run(box, Pose{}, Cone{0.3, 0.6}, at(Vec3(0, 0, 0.79), rot(kPi, Vec3::UnitX())), 0.0).size(),
      1u);
  // (MPR finds exactly touching shapes only with a margin > 0.)
  const auto base = run(box, Pose{}, Cone{0.3, 0.6}, at(Vec3(0, 0, 0.8)), 0.01);
  ASSERT_EQ(base.size(), 8u);
  for (const auto& p : base) EXPECT_NEAR(p.gap, 0.0, 1e-15);
}

TEST(Narrowphase, ManifoldFeaturesAreStableUnderSmallMotion) {
  const Box box{Vec3::Constant(0.5)};
  const Cylinder cyl{0.3, 0.5};
  const ConvexHull cube = cube_hull(0.5);
  const Pose moved = at(Vec3(1e-4, -2e-4, 1.0 - 1e-5), rot(1e-5, Vec3::UnitZ()));
  EXPECT_EQ(features(run(box, Pose{}, cyl, at(Vec3(0, 0, 1.0)), 0.01)),
            features(run(box, Pose{}, cyl, moved, 0.01)));
  const Pose over = at(Vec3(0.8, 0.1, 1.0));
  const Pose over_moved = at(Vec3(0.8 + 1e-4, 0.1 - 1e-4, 1.0 - 1e-5), rot(1e-5, Vec3::UnitZ()));
  const Box slab{Vec3(1.0, 1.0, 0.5)};
  const auto f0 = features(run(slab, Pose{}, cube, over, 0.01));
  EXPECT_EQ(f0.size(), 4u);
  EXPECT_EQ(f0, features(run(slab, Pose{}, cube, over_moved, 0.01)));
  // A smaller cube (half 0.4, resting at z = 0.9) on the cube hull. (Two equal faces with
  // coincident edges are not used: there a small motion really moves corners across the edges.)
  const ConvexHull small = cube_hull(0.4);
  const Pose moved_small = at(Vec3(1e-4, -2e-4, 0.9 - 1e-5), rot(1e-5, Vec3::UnitZ()));
  const auto f1 = features(run(cube, Pose{}, small, at(Vec3(0, 0, 0.9)), 0.01));
  EXPECT_EQ(f1.size(), 4u);
  EXPECT_EQ(f1, features(run(cube, Pose{}, small, moved_small, 0.01)));
}

TEST(Narrowphase, CylinderOnBoxOnGroundStaysAtRest) {
  // Issue requirement: a resting flat-on-flat stack does not drift (≤ 1e-6 m over 2 s,
  // h = 1e-3, μ = 0.5).
  const Vec3 half(0.5, 0.5, 0.5);
  const double r = 0.3, hl = 0.5, m = 1.0;
  Model model = testing::make_model(0.5, 0.0, 1e-3, 2.0);
  State state;
  testing::add_body(model, state, {.name = "ground", .fixed = true}, {testing::plane_shape()});
  const int box = testing::add_body(model, state,
                                    {.name = "box",
                                     .mass = 1.0,
                                     .inertia_B = testing::box_inertia(1.0, half),
                                     .x = Vec3(0, 0, 0.5)},
                                    {testing::box_shape(half)});
  const double ixx = m / 12.0 * (3 * r * r + 4 * hl * hl);
  const int cyl = testing::add_body(model, state,
                                    {.name = "cylinder",
                                     .mass = m,
                                     .inertia_B = Vec3(ixx, ixx, 0.5 * m * r * r).asDiagonal(),
                                     .x = Vec3(0, 0, 1.5)},
                                    {Shape{Cylinder{r, hl}, Pose{}}});
  model.finalize();
  Workspace ws;
  const std::vector<Vec3> x0 = state.x_WC;
  while (state.time < 2.0 - 0.5e-3)
    ASSERT_NE(step(model, state, ws).solver.status, SolverStatus::non_finite);
  EXPECT_LE((state.x_WC[box] - x0[box]).norm(), 1e-6);
  EXPECT_LE((state.x_WC[cyl] - x0[cyl]).norm(), 1e-6);
  EXPECT_LE(state.w_W[cyl].norm(), 1e-6);
}

}  // namespace
}  // namespace coulomb
