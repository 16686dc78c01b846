// AABBs against the extreme points of each shape along the world axes (support points, which are
// tested against closed forms in tests/geometry/shape_test.cpp), and the plane's half-bounded box.

#include <coulomb/collision/broadphase.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace coulomb {
namespace {

Pose tilted_pose() {
  Pose X;
  X.p = Vec3(0.3, -1.2, 2.0);
  X.q = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, -0.5).normalized()));
  return X;
}

// The tight box: extreme points along ±e_i of the world.
Aabb support_box(const Geometry& g, const Pose& X) {
  Aabb b;
  for (int i = 0; i < 3; ++i) {
    const Vec3 e = Vec3::Unit(i);
    b.hi[i] = X.apply(support_point(g, X.q.conjugate() * e))[i];
    b.lo[i] = X.apply(support_point(g, X.q.conjugate() * (-e)))[i];
  }
  return b;
}

TEST(Aabb, BoundedShapesAreTight) {
  std::vector<Geometry> shapes = {
      Sphere{0.4},
      Box{Vec3(0.1, 0.2, 0.3)},
      Capsule{0.2, 0.5},
      Cylinder{0.3, 0.6},
      Ellipsoid{Vec3(0.2, 0.5, 0.9)},
      Cone{0.4, 1.0},
      make_convex_hull(std::vector<Vec3>{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1),
                                         Vec3(0.2, 0.2, 0.2)})};
  const Pose X = tilted_pose();
  const double margin = 0.05;
  for (const Geometry& g : shapes) {
    const Aabb a = compute_aabb(g, X, margin);
    const Aabb ref = support_box(g, X);
    // Closed forms vs support points: rounding only.
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(a.hi[i], ref.hi[i] + margin, 1e-12) << g.index() << " axis " << i;
      EXPECT_NEAR(a.lo[i], ref.lo[i] - margin, 1e-12) << g.index() << " axis " << i;
    }
  }
}

TEST(Aabb, AxisAlignedPlaneIsBoundedOnItsOutwardSide) {
  Pose X;
  X.p = Vec3(5, 6, 1.5);
  const Aabb a = compute_aabb(Plane{Vec3::UnitZ(), 0.25}, X, 0.01);
  EXPECT_EQ(a.hi.z(), 1.5 + 0.25 + 0.01);
  EXPECT_EQ(a.lo.z(), -kInf);
  EXPECT_EQ(a.lo.x(), -kInf);
  EXPECT_EQ(a.hi.x(), kInf);
  EXPECT_EQ(a.hi.y(), kInf);
  // Normal −x: the solid is x >= −offset.
  const Aabb b = compute_aabb(Plane{-Vec3::UnitX(), 2.0}, Pose{}, 0.0);
  EXPECT_EQ(b.lo.x(), -2.0);
  EXPECT_EQ(b.hi.x(), kInf);
  // A sphere above the floor does not overlap; one touching it does.
  const Aabb floor = compute_aabb(Plane{}, Pose{}, 0.0);
  Pose up;
  up.p = Vec3(0, 0, 1.0);
  EXPECT_FALSE(floor.overlaps(compute_aabb(Sphere{0.5}, up, 0.0)));
  up.p.z() = 0.5;
  EXPECT_TRUE(floor.overlaps(compute_aabb(Sphere{0.5}, up, 0.0)));
}

TEST(Aabb, TiltedPlaneIsUnbounded) {
  Pose X;
  X.q = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
  const Aabb a = compute_aabb(Plane{}, X, 0.0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(a.lo[i], -kInf);
    EXPECT_EQ(a.hi[i], kInf);
  }
}

}  // namespace
}  // namespace coulomb
