// Supporting features (supporting_feature.cpp): which face, line or point each kind shows along a
// direction, its vertices in the world, their order (counter-clockwise about the face normal) and
// labels, and the rim point inserted in a tilted cap.

#include "collision/supporting_feature.hpp"
#include "collision/checks.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace coulomb {
namespace {

using narrow::Feature;
using narrow::FeatureKind;
using narrow::kFeaturePoint;
using narrow::kFeatureSegment;
using narrow::supporting_feature;
using testing::at;
using testing::box_hull;
using testing::rot;

Feature feature_of(const Geometry& g, const Pose& X, const Vec3& d) {
  Feature f;
  supporting_feature(g, X, d.normalized(), f);
  return f;
}

// A polygon is convex and counter-clockwise about its normal, with its vertices in its plane.
void expect_ccw_polygon(const Feature& f) {
  ASSERT_EQ(f.kind, FeatureKind::polygon);
  ASSERT_GE(f.count, 3);
  for (int q = 0; q < f.count; ++q) {
    const Vec3& a = f.v[q];
    const Vec3& b = f.v[(q + 1) % f.count];
    const Vec3& c = f.v[(q + 2) % f.count];
    EXPECT_GT((b - a).cross(c - b).dot(f.normal), 0.0) << q;
    EXPECT_NEAR(f.normal.dot(a - f.centre), 0.0, 1e-15) << q;
  }
}

TEST(SupportingFeature, BoxShowsItsMostAlignedFaceAtAnyAngle) {
  const Box b{Vec3(0.3, 0.2, 0.1)};
  const Pose X = at(Vec3(1, 2, 3), rot(0.4, Vec3(1, 1, 0)));
  // Local direction mostly −y, tilted by about 25° (no angle limit).
  const Feature f = feature_of(b, X, X.rotate(Vec3(0.3, -0.9, 0.2)));
  expect_ccw_polygon(f);
  EXPECT_EQ(f.count, 4);
  EXPECT_EQ(f.id, 2u);  // 2k + (side +) with k = 1, side −
  EXPECT_NEAR((f.normal - X.rotate(-Vec3::UnitY())).norm(), 0.0, 1e-15);
  for (int q = 0; q < 4; ++q) {
    EXPECT_EQ(f.label[q], q);
    const Vec3 x_L = X.apply_inverse(f.v[q]);
    EXPECT_NEAR(x_L.y(), -0.2, 1e-15);
    EXPECT_NEAR(std::abs(x_L.x()), 0.3, 1e-15);
    EXPECT_NEAR(std::abs(x_L.z()), 0.1, 1e-15);
  }
}

TEST(SupportingFeature, HullShowsAFaceThroughItsSupportVertex) {
  const ConvexHull cube = box_hull(Vec3(0.5, 0.4, 0.3));
  // Straight down: the bottom face, 4 coplanar vertices of 2 triangles.
  Feature f = feature_of(cube, Pose{}, -Vec3::UnitZ());
  expect_ccw_polygon(f);
  EXPECT_EQ(f.count, 4);
  EXPECT_NEAR((f.normal + Vec3::UnitZ()).norm(), 0.0, 1e-15);
  // The id is the lowest index of the triangles in that plane.
  std::uint32_t lowest = 1000;
  for (std::size_t i = 0; i < cube.faces.size(); ++i) {
    if (cube.face_normals[i].z() < -0.5) lowest = std::min<std::uint32_t>(lowest, i);
  }
  EXPECT_EQ(f.id, lowest);
  // Towards a corner (1, 1, −1) but closest to −z: a face through that corner.
  f = feature_of(cube, Pose{}, Vec3(0.3, 0.3, -1.0));
  expect_ccw_polygon(f);
  bool has_corner = false;
  for (int q = 0; q < f.count; ++q) has_corner |= (f.v[q] - Vec3(0.5, 0.4, -0.3)).norm() < 1e-15;
  EXPECT_TRUE(has_corner);
  EXPECT_NEAR((f.normal + Vec3::UnitZ()).norm(), 0.0, 1e-15);
}

TEST(SupportingFeature, CylinderShowsACapOrASideGenerator) {
  const Cylinder c{0.3, 0.5};
  // Along the axis: the top cap's 8 rim samples, labels 0..7.
  Feature f = feature_of(c, Pose{}, Vec3::UnitZ());
  expect_ccw_polygon(f);
  ASSERT_EQ(f.count, 8);
  EXPECT_EQ(f.id, 1u);
  EXPECT_EQ(f.rim_radius, 0.3);
  for (int q = 0; q < 8; ++q) {
    EXPECT_EQ(f.label[q], q);
    EXPECT_NEAR(
        (f.v[q] - Vec3(0.3 * std::cos(kPi / 4 * q), 0.3 * std::sin(kPi / 4 * q), 0.5)).norm(), 0.0,
        1e-15);
  }
  // Tilted by ~13°: the rim point along the direction (azimuth 63.4°) between samples 1 and 2.
  const double phi = std::atan2(0.2, 0.1);
  f = feature_of(c, Pose{}, Vec3(0.1, 0.2, 1.0));
  expect_ccw_polygon(f);
  ASSERT_EQ(f.count, 9);
  EXPECT_EQ(f.label[2], 8);
  EXPECT_NEAR((f.v[2] - Vec3(0.3 * std::cos(phi), 0.3 * std::sin(phi), 0.5)).norm(), 0.0, 1e-15);
  EXPECT_EQ(f.label[1], 1);
  EXPECT_EQ(f.label[3], 2);
  // The bottom cap, counter-clockwise about −z: sample k at position (8 − k) mod 8; the rim point
  // goes between samples 2 and 1 (positions 6 and 7).
  f = feature_of(c, Pose{}, Vec3(0.1, 0.2, -1.0));
  expect_ccw_polygon(f);
  ASSERT_EQ(f.count, 9);
  EXPECT_EQ(f.id, 0u);
  EXPECT_EQ(f.label[7], 8);
  EXPECT_NEAR((f.v[7] - Vec3(0.3 * std::cos(phi), 0.3 * std::sin(phi), -0.5)).norm(), 0.0, 1e-15);
  // Beyond 45° from the axis: the generator at the direction's azimuth, both rims' points.
  const Pose X = at(Vec3(0, 0, 1), rot(0.3, Vec3::UnitX()));
  f = feature_of(c, X, X.rotate(Vec3(1.0, 0.0, 0.9)));
  ASSERT_EQ(f.kind, FeatureKind::segment);
  EXPECT_EQ(f.id, kFeatureSegment + 1);
  EXPECT_NEAR((f.v[0] - X.apply(Vec3(0.3, 0, -0.5))).norm(), 0.0, 1e-15);
  EXPECT_NEAR((f.v[1] - X.apply(Vec3(0.3, 0, 0.5))).norm(), 0.0, 1e-15);
  EXPECT_EQ(f.line_radius, 0.3);  // its line is the axis
  EXPECT_NEAR((f.line[1] - f.line[0] - X.rotate(Vec3(0, 0, 1.0))).norm(), 0.0, 1e-15);
}

TEST(SupportingFeature, ConeShowsItsBaseOrASideGenerator) {
  const double R = 0.2, h = 0.6, a = std::atan2(R, h);
  const Cone c{R, h};
  Feature f = feature_of(c, Pose{}, Vec3(0.05, 0.02, -1.0));
  expect_ccw_polygon(f);
  EXPECT_EQ(f.id, 0u);
  EXPECT_EQ(f.count, 9);  // tilted by 3.1° > kFlatAngle: the rim point inserted
  // Tilted towards azimuth 0 exactly: the rim point is sample 0, nothing inserted.
  EXPECT_EQ(feature_of(c, Pose{}, Vec3(0.05, 0.0, -1.0)).count, 8);
  // Along the side normal at azimuth 90°: the generator from the rim point to the apex.
  f = feature_of(c, Pose{}, Vec3(0.0, std::cos(a), std::sin(a)));
  ASSERT_EQ(f.kind, FeatureKind::segment);
  EXPECT_EQ(f.id, kFeatureSegment + 2);
  EXPECT_NEAR((f.v[0] - Vec3(0, R, -0.5 * h)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((f.v[1] - Vec3(0, 0, 0.5 * h)).norm(), 0.0, 1e-15);
  EXPECT_EQ(f.line_radius, 0.0);  // a sharp line: its own line, no radius
}

TEST(SupportingFeature, RoundShapesShowTheirCore) {
  const Pose X = at(Vec3(1, 0, 0), rot(0.5, Vec3::UnitY()));
  // Capsule: the core segment with its radius, whatever the direction.
  for (const Vec3& d : {Vec3(1, 0, 0), Vec3(0, 0, 1)}) {
    const Feature f = feature_of(Capsule{0.1, 0.4}, X, d);
    ASSERT_EQ(f.kind, FeatureKind::segment);
    EXPECT_EQ(f.id, kFeatureSegment);
    EXPECT_EQ(f.radius, 0.1);
    EXPECT_EQ(f.line_radius, 0.1);
    EXPECT_NEAR((f.v[0] - X.apply(Vec3(0, 0, -0.4))).norm(), 0.0, 1e-15);
    EXPECT_NEAR((f.v[1] - X.apply(Vec3(0, 0, 0.4))).norm(), 0.0, 1e-15);
  }
  // Sphere: its centre and radius; ellipsoid: its support point.
  Feature f = feature_of(Sphere{0.3}, X, Vec3::UnitZ());
  ASSERT_EQ(f.kind, FeatureKind::point);
  EXPECT_EQ(f.id, kFeaturePoint);
  EXPECT_EQ(f.radius, 0.3);
  EXPECT_EQ(f.v[0], X.p);
  const Ellipsoid e{Vec3(0.3, 0.2, 0.1)};
  f = feature_of(e, X, Vec3::UnitZ());
  ASSERT_EQ(f.kind, FeatureKind::point);
  EXPECT_EQ(f.id, kFeaturePoint + 1);
  EXPECT_NEAR((f.v[0] - X.apply(support_point(e, X.q.conjugate() * Vec3::UnitZ()))).norm(), 0.0,
              1e-15);
}

}  // namespace
}  // namespace coulomb
