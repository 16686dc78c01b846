// Tests of shape kinds, support points and the convex hull.

#include <coulomb/geometry/shape.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace coulomb {
namespace {

TEST(ShapeKindName, MatchesVariantOrder) {
  EXPECT_EQ(shape_kind_name(ShapeKind::plane), "plane");
  EXPECT_EQ(shape_kind_name(ShapeKind::sphere), "sphere");
  EXPECT_EQ(shape_kind_name(ShapeKind::box), "box");
  EXPECT_EQ(shape_kind_name(ShapeKind::capsule), "capsule");
  EXPECT_EQ(shape_kind_name(ShapeKind::cylinder), "cylinder");
  EXPECT_EQ(shape_kind_name(ShapeKind::ellipsoid), "ellipsoid");
  EXPECT_EQ(shape_kind_name(ShapeKind::cone), "cone");
  EXPECT_EQ(shape_kind_name(ShapeKind::convex), "convex");
  Shape s{Cone{1.0, 2.0}, Pose{}};
  EXPECT_EQ(s.kind(), ShapeKind::cone);
}

// Support points against the closed-form maximiser of d·x.
TEST(SupportPoint, ClosedForms) {
  const Vec3 d = Vec3(1.0, -2.0, 0.5);
  EXPECT_TRUE(support_point(Sphere{2.0}, d).isApprox(2.0 * d.normalized(), 1e-15));
  EXPECT_EQ(support_point(Box{Vec3(1, 2, 3)}, d), Vec3(1, -2, 3));
  EXPECT_TRUE(
      support_point(Capsule{0.5, 1.0}, d).isApprox(Vec3(0, 0, 1) + 0.5 * d.normalized(), 1e-15));
  const Vec3 cyl = support_point(Cylinder{2.0, 1.0}, d);
  EXPECT_NEAR(cyl.x(), 2.0 / std::sqrt(5.0), 1e-15);
  EXPECT_NEAR(cyl.y(), -4.0 / std::sqrt(5.0), 1e-15);
  EXPECT_EQ(cyl.z(), 1.0);
  // Ellipsoid: the support point has outward normal D^-2 x parallel to d.
  const Vec3 ax(1.0, 2.0, 3.0);
  const Vec3 e = support_point(Ellipsoid{ax}, d);
  EXPECT_NEAR(e.cwiseQuotient(ax).squaredNorm(), 1.0, 1e-14);
  EXPECT_NEAR(e.cwiseQuotient(ax.cwiseAbs2()).normalized().dot(d.normalized()), 1.0, 1e-14);
  // Cone: apex up, base rim down.
  EXPECT_EQ(support_point(Cone{1.0, 2.0}, Vec3(0, 0, 1)), Vec3(0, 0, 1));
  EXPECT_TRUE(support_point(Cone{1.0, 2.0}, Vec3(1, 0, -0.1)).isApprox(Vec3(1, 0, -1), 1e-15));
}

TEST(ConvexHull, CubeCornersAndInteriorPoints) {
  std::vector<Vec3> pts;
  for (int i = 0; i < 8; ++i)
    pts.emplace_back(i & 1 ? 1.0 : -1.0, i & 2 ? 1.0 : -1.0, i & 4 ? 1.0 : -1.0);
  pts.emplace_back(0.1, 0.2, -0.3);  // interior
  pts.emplace_back(1.0, 0.0, 0.0);   // on a face
  const ConvexHull h = make_convex_hull(pts);
  ASSERT_EQ(h.vertices.size(), 8u);
  // Euler: a triangulated closed polyhedron with 8 vertices has 2·8 − 4 = 12 triangles.
  ASSERT_EQ(h.faces.size(), 12u);
  for (std::size_t f = 0; f < h.faces.size(); ++f) {
    const Vec3& n = h.face_normals[f];
    // Every face normal is an axis, and every vertex lies below every face plane.
    EXPECT_NEAR(n.cwiseAbs().maxCoeff(), 1.0, 1e-15);
    const double off = n.dot(h.vertices[static_cast<std::size_t>(h.faces[f][0])]);
    EXPECT_NEAR(off, 1.0, 1e-15);
    for (const Vec3& v : h.vertices) EXPECT_LE(n.dot(v), off + 1e-12);
  }
  // Vertices kept in the order of the input points.
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(h.vertices[i], pts[i]);
}

TEST(ConvexHull, RejectsDegenerateSets) {
  std::vector<Vec3> flat = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)};
  EXPECT_THROW((void)make_convex_hull(flat), std::invalid_argument);
  std::vector<Vec3> three = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  EXPECT_THROW((void)make_convex_hull(three), std::invalid_argument);
}

// Points on a sphere (a deterministic Fibonacci lattice): all are extreme, so all are vertices,
// and the triangulation satisfies Euler's F = 2V − 4.
TEST(ConvexHull, SpherePointsAllVertices) {
  std::vector<Vec3> pts;
  const int n = 200;
  const double golden = kPi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / n;
    const double r = std::sqrt(1.0 - z * z);
    pts.emplace_back(r * std::cos(golden * i), r * std::sin(golden * i), z);
  }
  const ConvexHull h = make_convex_hull(pts);
  EXPECT_EQ(h.vertices.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(h.faces.size(), static_cast<std::size_t>(2 * n - 4));
  for (std::size_t f = 0; f < h.faces.size(); ++f) {
    const double off = h.face_normals[f].dot(h.vertices[static_cast<std::size_t>(h.faces[f][0])]);
    for (const Vec3& v : h.vertices) EXPECT_LE(h.face_normals[f].dot(v), off + 1e-12);
  }
}

TEST(ConvexHull, SupportUsesVertices) {
  std::vector<Vec3> pts = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  const ConvexHull h = make_convex_hull(pts);
  EXPECT_EQ(support_point(h, Vec3(1, 1, 1.5)), Vec3(0, 0, 1));
  EXPECT_EQ(support_point(h, Vec3(-1, -1, -1)), Vec3(0, 0, 0));
}

}  // namespace
}  // namespace coulomb
