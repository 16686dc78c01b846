// The general convex pairs (convex_pair.cpp) against closed forms: line and face contacts give
// their manifold (two points, the clipped polygon) with exact gaps and normals and ids that stay
// put under small motions; deep oblique overlaps get the minimum-translation normal; the normal is
// the gradient of the gap with respect to a translation of shape 2 (finite differences).

#include "collision/checks.hpp"
#include "collision/mpr.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace coulomb {
namespace {

using testing::at;
using testing::box_hull;
using testing::features;
using testing::rot;
using testing::run;

// A slab whose top face is z = 0.5, centred at the origin.
const Box kSlab{Vec3(1.0, 1.0, 0.5)};
const Quat kAlongX = rot(kPi / 2, Vec3::UnitY());  // shape z axis → world +x
const Quat kAlongY = rot(kPi / 2, Vec3::UnitX());  // shape z axis → world −y

// A prism over a regular hexagon of circumradius r (a vertex on +x), from z = −hz to +hz.
ConvexHull hexagonal_prism(double r, double hz) {
  std::vector<Vec3> pts;
  for (int k = 0; k < 6; ++k) {
    const double a = kPi / 3.0 * k;
    pts.emplace_back(r * std::cos(a), r * std::sin(a), -hz);
    pts.emplace_back(r * std::cos(a), r * std::sin(a), hz);
  }
  return make_convex_hull(pts);
}

// The point of `pts` whose p2 is nearest x (for order-free comparisons).
const ContactPoint& nearest_p2(const std::vector<ContactPoint>& pts, const Vec3& x) {
  return *std::min_element(pts.begin(), pts.end(), [&](const auto& a, const auto& b) {
    return (a.p2_W - x).norm() < (b.p2_W - x).norm();
  });
}

// Same ids, in the same order, for a configuration moved by 1e-4 m and turned by 1e-3 rad about
// each world axis (the "small motion"), with the margin `margin`.
void expect_stable_ids(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                       double margin) {
  const auto f0 = features(run(g1, X1, g2, X2, margin));
  ASSERT_FALSE(f0.empty());
  for (int axis = 0; axis < 3; ++axis) {
    Pose moved = X2;
    moved.p += 1e-4 * Vec3(1.0, -1.0, -0.5);
    moved.q = rot(1e-3, Vec3::Unit(axis)) * X2.q;
    EXPECT_EQ(features(run(g1, X1, g2, moved, margin)), f0) << "turned about axis " << axis;
  }
}

// --- Line contacts on a face. -------------------------------------------------------------------

TEST(ConvexPair, CapsuleLyingOnBoxTouchesAtBothSegmentEnds) {
  const Capsule cap{0.1, 0.4};
  const Pose X = at(Vec3(0.2, -0.3, 0.6), kAlongX);  // core x ∈ [−0.2, 0.6] at z = 0.6
  const auto pts = run(kSlab, Pose{}, cap, X, 0.01);
  ASSERT_EQ(pts.size(), 2u);
  for (const Vec3& end : {Vec3(-0.2, -0.3, 0.5), Vec3(0.6, -0.3, 0.5)}) {
    const ContactPoint& p = nearest_p2(pts, end);
    EXPECT_NEAR((p.p2_W - end).norm(), 0.0, 1e-12);  // the end sphere's lowest point
    EXPECT_NEAR(p.gap, 0.0, 1e-12);  // round-off of the quarter turn (cos(π/2) ≈ 6e-17) on 0.4 m
    EXPECT_EQ(p.n_W, Vec3::UnitZ());  // the box face's normal, exact
    EXPECT_NEAR(p.p1_W.z(), 0.5, 1e-15);
    EXPECT_EQ(p.curvature1.r1, kInf);  // box face
    EXPECT_EQ(p.curvature2.r1, 0.1);   // capsule side, around the axis
    EXPECT_EQ(p.curvature2.r2, kInf);  // straight along it
  }
  EXPECT_NE(pts[0].feature, pts[1].feature);
  expect_stable_ids(kSlab, Pose{}, cap, X, 0.01);
  // Below the margin: nothing; one end beyond the slab's edge (x = 1): the segment is cut there.
  EXPECT_TRUE(run(kSlab, Pose{}, cap, at(Vec3(0.2, -0.3, 0.62), kAlongX), 0.01).empty());
  const auto cut = run(kSlab, Pose{}, cap, at(Vec3(0.8, 0.0, 0.59), kAlongX), 0.01);
  ASSERT_EQ(cut.size(), 2u);
  EXPECT_NEAR(std::max(cut[0].p2_W.x(), cut[1].p2_W.x()), 1.0, 1e-12);
  EXPECT_NEAR(std::min(cut[0].p2_W.x(), cut[1].p2_W.x()), 0.4, 1e-12);
  for (const auto& p : cut) EXPECT_NEAR(p.gap, -0.01, 1e-12);
}

TEST(ConvexPair, CapsuleTiltedHalfADegreeKeepsBothEndsWithinMargin) {
  // The axis rises by θ = 0.5° towards +x; the lower end sphere touches the face.
  const double th = 0.5 * kPi / 180.0, hl = 0.4, r = 0.1;
  const Capsule cap{r, hl};
  const Vec3 a(std::cos(th), 0.0, std::sin(th));
  const Vec3 c(0.0, 0.0, 0.5 + r + hl * std::sin(th));
  const Pose X = at(c, rot(kPi / 2 - th, Vec3::UnitY()));
  const double rise = 2.0 * hl * std::sin(th);  // the upper end's gap: 6.98e-3 m
  auto pts = run(kSlab, Pose{}, cap, X, 0.01);
  ASSERT_EQ(pts.size(), 2u);
  const ContactPoint& low = nearest_p2(pts, c - hl * a - r * Vec3::UnitZ());
  const ContactPoint& high = nearest_p2(pts, c + hl * a - r * Vec3::UnitZ());
  EXPECT_NEAR(low.gap, 0.0, 1e-15);
  EXPECT_NEAR(high.gap, rise, 1e-15);
  EXPECT_NEAR((low.p2_W - (c - hl * a - r * Vec3::UnitZ())).norm(), 0.0, 1e-15);
  EXPECT_NEAR((high.p2_W - (c + hl * a - r * Vec3::UnitZ())).norm(), 0.0, 1e-15);
  for (const auto& p : pts) {
    EXPECT_EQ(p.n_W, Vec3::UnitZ());
    EXPECT_EQ(p.curvature2.r2, r);  // tilted: each end is its end sphere
  }
  // With a margin below the rise only the touching end remains.
  pts = run(kSlab, Pose{}, cap, X, 0.5 * rise);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].gap, 0.0, 1e-15);
}

TEST(ConvexPair, CylinderLyingOnBoxTouchesAlongAGenerator) {
  const Cylinder cyl{0.1, 0.3};
  const Pose X = at(Vec3(0.1, 0.2, 0.6), kAlongY);  // axis along y, y ∈ [−0.1, 0.5]
  const auto pts = run(kSlab, Pose{}, cyl, X, 0.01);
  ASSERT_EQ(pts.size(), 2u);
  for (const Vec3& end : {Vec3(0.1, -0.1, 0.5), Vec3(0.1, 0.5, 0.5)}) {
    const ContactPoint& p = nearest_p2(pts, end);
    EXPECT_NEAR((p.p2_W - end).norm(), 0.0, 1e-12);
    EXPECT_NEAR(p.gap, 0.0, 1e-12);  // round-off of the quarter turn
    EXPECT_EQ(p.n_W, Vec3::UnitZ());
    EXPECT_EQ(p.curvature2.r1, 0.1);  // the side: R around the axis, straight along
    EXPECT_EQ(p.curvature2.r2, kInf);
  }
  expect_stable_ids(kSlab, Pose{}, cyl, X, 0.01);
  // Rocking by 1e-3 rad about x: one rim rises by 2 hl sin(1e-3); both stay within margin.
  const auto rocked =
      run(kSlab, Pose{}, cyl, at(Vec3(0.1, 0.2, 0.6), rot(1e-3, Vec3::UnitX()) * kAlongY), 0.01);
  ASSERT_EQ(rocked.size(), 2u);
  const double lo = std::min(rocked[0].gap, rocked[1].gap);
  const double hi = std::max(rocked[0].gap, rocked[1].gap);
  // Each rim's lowest point: z = 0.6 ∓ hl sin(1e-3) − R cos(1e-3).
  EXPECT_NEAR(lo, 0.1 - 0.3 * std::sin(1e-3) - 0.1 * std::cos(1e-3), 1e-15);
  EXPECT_NEAR(hi, 0.1 + 0.3 * std::sin(1e-3) - 0.1 * std::cos(1e-3), 1e-15);
}

TEST(ConvexPair, ConeLyingOnBoxTouchesAlongAGenerator) {
  // The generator makes α = atan(R/h) with the axis: turning the axis by π/2 + α about x lays the
  // generator through the apex flat and lowest.
  const double R = 0.1, h = 0.3;
  const Quat q = rot(kPi / 2 + std::atan2(R, h), Vec3::UnitX());
  const Vec3 apex_L(0, 0, 0.5 * h);
  const Pose X = at(Vec3(0.1, 0.0, 0.5 - (q * apex_L).z()), q);
  const auto pts = run(kSlab, Pose{}, Cone{R, h}, X, 0.01);
  ASSERT_EQ(pts.size(), 2u);
  const Vec3 apex = X.apply(apex_L);
  EXPECT_NEAR((nearest_p2(pts, apex).p2_W - apex).norm(), 0.0, 1e-15);
  EXPECT_NEAR((pts[0].p2_W - pts[1].p2_W).norm(), std::hypot(R, h), 1e-14);  // the generator
  for (const auto& p : pts) {
    EXPECT_NEAR(p.gap, 0.0, 1e-15);
    EXPECT_NEAR(p.p2_W.z(), 0.5, 1e-15);
    EXPECT_EQ(p.n_W, Vec3::UnitZ());
  }
  expect_stable_ids(kSlab, Pose{}, Cone{R, h}, X, 0.01);
}

// --- Face contacts. -----------------------------------------------------------------------------

TEST(ConvexPair, HullsAndBoxesFaceDownGiveTheirFacePolygon) {
  const ConvexHull prism = hexagonal_prism(0.15, 0.1);
  const ConvexHull slab_hull = box_hull(Vec3(1.0, 1.0, 0.5));
  const Box box{Vec3(0.2, 0.15, 0.1)};
  const Pose X = at(Vec3(0.05, -0.02, 0.6), rot(0.3, Vec3::UnitZ()));
  struct Case {
    const Geometry* support;
    const Geometry* body;
    std::size_t points;
  };
  const Geometry slab_g = kSlab, slab_hull_g = slab_hull, prism_g = prism, box_g = box;
  for (const Case& c : {Case{&slab_g, &prism_g, 6}, Case{&slab_hull_g, &box_g, 4},
                        Case{&slab_hull_g, &prism_g, 6}}) {
    const auto pts = run(*c.support, Pose{}, *c.body, X, 0.01);
    ASSERT_EQ(pts.size(), c.points);
    for (const auto& p : pts) {
      EXPECT_NEAR(p.gap, 0.0, 1e-15);  // round-off of the turn about z in x, y only
      EXPECT_EQ(p.n_W, Vec3::UnitZ());
      EXPECT_NEAR(p.p2_W.z(), 0.5, 1e-15);
      EXPECT_EQ(p.curvature1.r1, kInf);
      EXPECT_EQ(p.curvature2.r1, kInf);  // faces lying flat on each other
    }
    expect_stable_ids(*c.support, Pose{}, *c.body, X, 0.01);
  }
}

TEST(ConvexPair, HullTiltedOntoAnEdgeGivesTheEdgeEnds) {
  // The prism turned by θ about x rests on its bottom edge at y = −r sin 60°: both ends of that
  // edge touch; the rest of the face is higher than the margin.
  const double r = 0.15, hz = 0.1, th = 0.02;
  const double y_edge = -r * std::sin(kPi / 3);
  const double z = 0.5 - (y_edge * std::sin(th) - hz * std::cos(th));
  const auto pts =
      run(kSlab, Pose{}, hexagonal_prism(r, hz), at(Vec3(0, 0, z), rot(th, Vec3::UnitX())), 1e-3);
  ASSERT_EQ(pts.size(), 2u);
  for (const auto& p : pts) {
    EXPECT_NEAR(p.gap, 0.0, 1e-15);
    EXPECT_EQ(p.n_W, Vec3::UnitZ());
    EXPECT_NEAR(std::abs(p.p2_W.x()), 0.5 * r, 1e-15);  // the edge's ends at x = ±r/2
    EXPECT_EQ(p.curvature2.r1, 0.0);                    // a corner of the tilted face
  }
}

TEST(ConvexPair, EveryBodyRestsOnEverySupportWithItsManifold) {
  // Supports with their top face at z = 0.5: a box, a hull (a box's corners), a standing cylinder
  // (its cap, an octagon of circumradius 1, holds every body below). Bodies lying or face down,
  // each with the points of its line or face: capsule, cylinder, cone (2), box (4), hexagonal
  // prism (6).
  const double R = 0.1, h = 0.3;
  const Quat cone_q = rot(kPi / 2 + std::atan2(R, h), Vec3::UnitX());
  const double cone_z = 0.5 - (cone_q * Vec3(0, 0, 0.5 * h)).z();
  struct Body {
    const char* name;
    Geometry g;
    Pose X;
    std::size_t points;
  };
  const std::vector<Body> bodies = {
      {"capsule", Capsule{0.1, 0.3}, at(Vec3(0.1, 0.05, 0.6), kAlongX), 2},
      {"cylinder", Cylinder{0.1, 0.3}, at(Vec3(0.05, 0.1, 0.6), kAlongY), 2},
      {"cone", Cone{R, h}, at(Vec3(0.05, 0.0, cone_z), cone_q), 2},
      {"box", Box{Vec3(0.2, 0.15, 0.1)}, at(Vec3(0.05, -0.02, 0.6), rot(0.3, Vec3::UnitZ())), 4},
      {"prism", hexagonal_prism(0.15, 0.1), at(Vec3(0.05, -0.02, 0.6), rot(0.2, Vec3::UnitZ())), 6},
  };
  const std::vector<std::pair<const char*, Geometry>> supports = {
      {"box", kSlab}, {"hull", box_hull(Vec3(1.0, 1.0, 0.5))}, {"cylinder", Cylinder{1.0, 0.5}}};
  for (const auto& [support_name, support] : supports) {
    for (const Body& b : bodies) {
      SCOPED_TRACE(std::string(b.name) + " on " + support_name);
      const auto pts = run(support, Pose{}, b.g, b.X, 0.01);
      ASSERT_EQ(pts.size(), b.points);
      for (const auto& p : pts) {
        EXPECT_NEAR(p.gap, 0.0, 1e-15);  // round-off of the turns that lay the bodies down
        EXPECT_NEAR((p.n_W - Vec3::UnitZ()).norm(), 0.0, 1e-15);
        EXPECT_NEAR(p.p2_W.z(), 0.5, 1e-15);
      }
      expect_stable_ids(support, Pose{}, b.g, b.X, 0.01);
    }
  }
}

// --- Two lines. ---------------------------------------------------------------------------------

TEST(ConvexPair, ParallelCylindersTouchAtTheEndsOfTheirOverlap) {
  // A along x (x ∈ [−0.5, 0.5]) at the origin, B along x (x ∈ [0.1, 0.7]) beside it in y.
  const Cylinder a{0.2, 0.5}, b{0.1, 0.3};
  for (double dy : {0.0, -0.01}) {
    const auto pts =
        run(a, at(Vec3::Zero(), kAlongX), b, at(Vec3(0.4, 0.3 + dy, 0.0), kAlongX), 0.01);
    ASSERT_EQ(pts.size(), 2u) << dy;
    for (const Vec3& end : {Vec3(0.1, 0.2, 0.0), Vec3(0.5, 0.2, 0.0)}) {
      const ContactPoint& p = *std::min_element(pts.begin(), pts.end(), [&](auto& u, auto& v) {
        return (u.p1_W - end).norm() < (v.p1_W - end).norm();
      });
      EXPECT_NEAR((p.p1_W - end).norm(), 0.0, 1e-12);
      EXPECT_NEAR(p.gap, dy, 1e-12);
      EXPECT_NEAR((p.n_W - Vec3::UnitY()).norm(), 0.0, 1e-15);
      EXPECT_EQ(p.curvature1.r1, 0.2);
      EXPECT_EQ(p.curvature2.r1, 0.1);
    }
  }
  expect_stable_ids(a, at(Vec3::Zero(), kAlongX), b, at(Vec3(0.4, 0.3, 0.0), kAlongX), 0.01);
}

TEST(ConvexPair, CapsuleOnCylinderSideAlongItTouchesAtBothEnds) {
  // A capsule (core x ∈ [−0.1, 0.3]) lying along the top generator of a cylinder along x.
  const Capsule cap{0.05, 0.2};
  const Cylinder cyl{0.2, 0.5};
  const Pose Xc = at(Vec3(0.1, 0.0, 0.25), kAlongX);
  const auto pts = run(cap, Xc, cyl, at(Vec3::Zero(), kAlongX), 0.01);
  ASSERT_EQ(pts.size(), 2u);
  for (const auto& p : pts) {
    EXPECT_NEAR(p.gap, 0.0, 1e-12);
    EXPECT_NEAR((p.n_W + Vec3::UnitZ()).norm(), 0.0, 1e-15);  // from the capsule down
    EXPECT_NEAR(p.p1_W.z(), 0.2, 1e-12);
  }
  EXPECT_NEAR(std::abs(pts[0].p1_W.x() - pts[1].p1_W.x()), 0.4, 1e-12);
  expect_stable_ids(cap, Xc, cyl, at(Vec3::Zero(), kAlongX), 0.01);
}

TEST(ConvexPair, CrossedCylindersTouchAtOnePointWithTheCommonNormal) {
  const Cylinder a{0.2, 0.5}, b{0.1, 0.3};
  for (double turn : {0.0, kPi / 6}) {
    // B's axis along y turned by `turn` about z, crossing above A's axis at x = 0.05, 0.004 into
    // A's top.
    const Pose Xb = at(Vec3(0.05, 0.0, 0.296), rot(turn, Vec3::UnitZ()) * kAlongY);
    const auto pts = run(a, at(Vec3::Zero(), kAlongX), b, Xb, 0.01);
    ASSERT_EQ(pts.size(), 1u) << turn;
    EXPECT_NEAR(pts[0].gap, -0.004, 1e-12);
    EXPECT_NEAR((pts[0].n_W - Vec3::UnitZ()).norm(), 0.0, 1e-14);  // ∥ a × b, exact
    EXPECT_NEAR((pts[0].p1_W - Vec3(0.05, 0.0, 0.2)).norm(), 0.0, 1e-12);
  }
}

// --- Deep, oblique overlaps: the minimum-translation normal.
// --------------------------------------

TEST(ConvexPair, BoxPushedObliquelyIntoAHullSeparatesAlongTheLeastOverlap) {
  // Box half (1, 0.3, 0.5) at the origin, a cube of half 0.5 at (1.2, 0.6, 0): overlaps 0.3 along
  // x and 0.2 along y. The centre-to-centre ray leaves the Minkowski difference through its x
  // face (MPR's normal), but the least translation is along y.
  const Box box{Vec3(1.0, 0.3, 0.5)};
  const Geometry cube = box_hull(Vec3::Constant(0.5));
  const Pose Xc = at(Vec3(1.2, 0.6, 0.0));
  Vec3 n_mpr, pos;
  ASSERT_TRUE(narrow::mpr_direction(box, Pose{}, cube, Xc, 0.0, n_mpr, pos));
  EXPECT_GT(std::abs(n_mpr.x()), 0.9);  // the case is one MPR gets wrong
  const auto pts = run(box, Pose{}, cube, Xc, 0.0);
  ASSERT_EQ(pts.size(), 4u);  // the cube's −y face over the box's +y face: x ∈ [0.7, 1], z = ±0.5
  for (const auto& p : pts) {
    EXPECT_EQ(p.n_W, Vec3::UnitY());  // the box's face normal
    EXPECT_NEAR(p.gap, -0.2, 1e-15);
    EXPECT_TRUE(std::abs(p.p2_W.x() - 0.7) < 1e-15 || std::abs(p.p2_W.x() - 1.0) < 1e-15);
    EXPECT_NEAR(std::abs(p.p2_W.z()), 0.5, 1e-15);
  }
}

TEST(ConvexPair, SphereDeepAtACylinderRimSeparatesRadially) {
  // Centre 0.3 from the axis, 0.05 below the top cap: radial depth R + r − 0.3 = 0.2, through
  // the cap 0.05 + r = 0.25. The centre-to-centre ray leaves through the rounded rim.
  const double R = 0.3, hl = 0.5, r = 0.2, phi = 0.4;
  const Vec3 u(std::cos(phi), std::sin(phi), 0.0);
  const Vec3 c = 0.3 * u + Vec3(0, 0, 0.45);
  Vec3 n_mpr, pos;
  ASSERT_TRUE(narrow::mpr_direction(Sphere{r}, at(c), Cylinder{R, hl}, Pose{}, 0.0, n_mpr, pos));
  EXPECT_GT(std::abs(n_mpr.z()), 0.1);  // MPR's normal is tilted
  const auto pts = run(Sphere{r}, at(c), Cylinder{R, hl}, Pose{}, 0.0);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR((pts[0].n_W + u).norm(), 0.0, 1e-14);  // from the sphere into the axis
  EXPECT_NEAR(pts[0].gap, -0.2, 1e-14);
  EXPECT_NEAR((pts[0].p2_W - (R * u + Vec3(0, 0, 0.45))).norm(), 0.0, 1e-14);
  EXPECT_EQ(pts[0].curvature2.r1, R);
}

TEST(ConvexPair, CapsuleDeepUnderAHullCornerSeparatesThroughTheFace) {
  // Capsule core x ∈ [−0.5, 0.5] (radius 0.2) at the origin; a cube of half 0.5 at
  // (0.8, 0, 0.55) spans x ∈ [0.3, 1.3], z ≥ 0.05: depth 0.15 along z, 0.4 along x.
  const Capsule cap{0.2, 0.5};
  const Geometry cube = box_hull(Vec3::Constant(0.5));
  const Pose Xc = at(Vec3(0.8, 0.0, 0.55));
  Vec3 n_mpr, pos;
  ASSERT_TRUE(narrow::mpr_direction(cap, at(Vec3::Zero(), kAlongX), cube, Xc, 0.0, n_mpr, pos));
  EXPECT_LT(n_mpr.z(), 0.9);  // MPR's normal is oblique (separation −0.34 along it)
  const auto pts = run(cap, at(Vec3::Zero(), kAlongX), cube, Xc, 0.0);
  ASSERT_EQ(pts.size(), 2u);  // the core under the cube's bottom face: x ∈ [0.3, 0.5]
  for (const auto& p : pts) {
    EXPECT_EQ(p.n_W, Vec3::UnitZ());
    EXPECT_NEAR(p.gap, -0.15, 1e-15);
    EXPECT_TRUE(std::abs(p.p1_W.x() - 0.3) < 1e-15 || std::abs(p.p1_W.x() - 0.5) < 1e-15);
    EXPECT_NEAR(p.p1_W.z(), 0.2, 1e-15);
    EXPECT_NEAR(p.p2_W.z(), 0.05, 1e-15);
  }
}

TEST(ConvexPair, NearACylinderRimTheGapIsTheSignedDistance) {
  // A sphere (radius 0.1) whose centre is d from the rim point (0.3, 0, 0.5) of a cylinder, along
  // (0.6, 0, 0.8): apart, touching or overlapping by 5e-4 m within the 1e-3 margin. The centre-to-
  // centre ray leaves the (grown) Minkowski difference elsewhere: MPR's normal is 4° off and its
  // gap off by 4e-4 m. The rim is curved: the direction is exact to about sqrt(2 tol / ρ) (tol =
  // 1e-12 of the sizes, ρ = 0.1): 1e-5; the gap to second order in it.
  const Vec3 n_rim(0.6, 0.0, 0.8);
  for (double d : {0.1005, 0.1, 0.0995}) {
    const Pose Xs = at(Vec3(0.3, 0.0, 0.5) + d * n_rim);
    Vec3 n_mpr, pos;
    ASSERT_TRUE(
        narrow::mpr_direction(Sphere{0.1}, Xs, Cylinder{0.3, 0.5}, Pose{}, 1e-3, n_mpr, pos));
    EXPECT_GT((n_mpr + n_rim).norm(), 0.05) << d;
    const auto pts = run(Sphere{0.1}, Xs, Cylinder{0.3, 0.5}, Pose{}, 1e-3);
    ASSERT_EQ(pts.size(), 1u) << d;
    EXPECT_NEAR((pts[0].n_W + n_rim).norm(), 0.0, 1e-5) << d;  // from the sphere to the rim
    EXPECT_NEAR(pts[0].gap, d - 0.1, 1e-10) << d;
    EXPECT_NEAR((pts[0].p2_W - Vec3(0.3, 0.0, 0.5)).norm(), 0.0, 1e-5) << d;
  }
}

// --- The normal is the gradient of the gap. -----------------------------------------------------

// d gap_i / d x2 = n_i for every point (shape 2 translated by ±h along each axis; the points are
// matched by feature id). Central differences: truncation O(h² κ), round-off 1e-16/h.
void expect_normal_is_gap_gradient(const Geometry& g1, const Pose& X1, const Geometry& g2,
                                   const Pose& X2) {
  const double h = 1e-6;
  const auto base = run(g1, X1, g2, X2, 0.01);
  ASSERT_FALSE(base.empty());
  for (const auto& p : base) {
    Vec3 grad;
    for (int i = 0; i < 3; ++i) {
      double g[2];
      for (int s = 0; s < 2; ++s) {
        Pose X = X2;
        X.p[i] += s == 0 ? h : -h;
        const auto pts = run(g1, X1, g2, X, 0.01);
        const auto it = std::find_if(pts.begin(), pts.end(),
                                     [&](const ContactPoint& q) { return q.feature == p.feature; });
        ASSERT_NE(it, pts.end());
        g[s] = it->gap;
      }
      grad[i] = (g[0] - g[1]) / (2 * h);
    }
    EXPECT_NEAR((grad - p.n_W).norm(), 0.0, 1e-8) << p.feature;
  }
}

TEST(ConvexPair, NormalIsTheGradientOfTheGap) {
  expect_normal_is_gap_gradient(kSlab, Pose{}, Capsule{0.1, 0.4},
                                at(Vec3(0.2, -0.3, 0.599), rot(0.01, Vec3::UnitY()) * kAlongX));
  expect_normal_is_gap_gradient(Cylinder{0.2, 0.5}, at(Vec3::Zero(), kAlongX), Cylinder{0.1, 0.3},
                                at(Vec3(0.05, 0.0, 0.296), rot(0.5, Vec3::UnitZ()) * kAlongY));
  expect_normal_is_gap_gradient(Cylinder{0.2, 0.5}, at(Vec3::Zero(), kAlongX), Cylinder{0.1, 0.3},
                                at(Vec3(0.4, 0.29, 0.01), kAlongX));
  expect_normal_is_gap_gradient(Sphere{0.2}, at(Vec3(0.3, 0.1, 0.45)), Cylinder{0.3, 0.5}, Pose{});
  expect_normal_is_gap_gradient(kSlab, Pose{}, hexagonal_prism(0.15, 0.1),
                                at(Vec3(0, 0, 0.59), rot(0.02, Vec3::UnitX())));
}

}  // namespace
}  // namespace coulomb
