// Mass properties against independent references: slice-by-slice quadrature of solids of
// revolution (and elliptic slices for the ellipsoid), the hull of a box's corners against the box
// formula, the unit tetrahedron's textbook moments, and the parallel-axis theorem on two cubes.

#include <coulomb/geometry/mass_properties.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <vector>

namespace coulomb {
namespace {

// Integrates a solid whose z-slice is an ellipse of semi-axes (ra(z), rb(z)) along x, y, density 1,
// with composite Simpson on [z0, z1] (n even). Returns mass, com z and the diagonal inertia about
// the centre of mass. Slice moments: area A = π ra rb, ∫x² = π ra³ rb / 4, ∫y² = π ra rb³ / 4.
struct SliceResult {
  double mass, com_z;
  Vec3 inertia;
};
SliceResult integrate_slices(const std::function<double(double)>& ra,
                             const std::function<double(double)>& rb, double z0, double z1, int n) {
  double m = 0, mz = 0, mz2 = 0, ix2 = 0, iy2 = 0;
  const double h = (z1 - z0) / n;
  for (int i = 0; i <= n; ++i) {
    const double z = z0 + i * h;
    const double w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    const double a = ra(z), b = rb(z);
    const double area = kPi * a * b;
    m += w * area;
    mz += w * area * z;
    mz2 += w * area * z * z;
    ix2 += w * kPi * a * a * a * b / 4.0;
    iy2 += w * kPi * a * b * b * b / 4.0;
  }
  const double f = h / 3.0;
  m *= f, mz *= f, mz2 *= f, ix2 *= f, iy2 *= f;
  const double cz = mz / m;
  const double z2c = mz2 - m * cz * cz;  // ∫ (z − cz)² dm
  return {m, cz, Vec3(iy2 + z2c, ix2 + z2c, ix2 + iy2)};
}

void expect_matches(const MassProperties& mp, const SliceResult& ref, double tol) {
  EXPECT_NEAR(mp.mass, ref.mass, tol * ref.mass);
  EXPECT_NEAR(mp.com.z(), ref.com_z, tol);
  EXPECT_NEAR(mp.com.x(), 0.0, 1e-15);
  EXPECT_NEAR(mp.com.y(), 0.0, 1e-15);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(mp.inertia(i, i), ref.inertia[i], tol * ref.inertia[i]);
  EXPECT_NEAR((mp.inertia - Mat3(mp.inertia.diagonal().asDiagonal())).norm(), 0.0, 1e-15);
}

// Simpson's rule is exact for cubics; slices of sphere-like ends have sqrt singularities in the
// radius but polynomial areas (π(R² − z²)), so moments of degree <= 3 in z are exact up to
// rounding; the x² moments are quartic in the radius: 4000 intervals give < 1e-12 relative.
constexpr double kSliceTol = 1e-11;

TEST(MassProperties, SphereBySlices) {
  const double R = 0.7;
  const auto r = [R](double z) { return std::sqrt(std::max(0.0, R * R - z * z)); };
  expect_matches(shape_mass_properties(Sphere{R}, 1.0), integrate_slices(r, r, -R, R, 4000),
                 kSliceTol);
}

TEST(MassProperties, CylinderBySlices) {
  const auto r = [](double) { return 0.3; };
  expect_matches(shape_mass_properties(Cylinder{0.3, 0.8}, 1.0),
                 integrate_slices(r, r, -0.8, 0.8, 4000), kSliceTol);
}

TEST(MassProperties, CapsuleBySlices) {
  const double R = 0.4, hl = 0.6;
  const auto r = [=](double z) {
    const double e = std::max(0.0, std::abs(z) - hl);
    return std::sqrt(std::max(0.0, R * R - e * e));
  };
  // Two Simpson panels per part: integrate the three parts separately and add.
  const SliceResult a = integrate_slices(r, r, -hl - R, -hl, 4000);
  const SliceResult b = integrate_slices(r, r, -hl, hl, 4000);
  const SliceResult c = integrate_slices(r, r, hl, hl + R, 4000);
  // Parts share the same z origin; combine raw sums through MassProperties::combine.
  auto mp = [](const SliceResult& s) {
    MassProperties p;
    p.mass = s.mass;
    p.com = Vec3(0, 0, s.com_z);
    p.inertia = s.inertia.asDiagonal();
    return p;
  };
  const MassProperties ref = combine(combine(mp(a), mp(b)), mp(c));
  const MassProperties got = shape_mass_properties(Capsule{R, hl}, 1.0);
  EXPECT_NEAR(got.mass, ref.mass, kSliceTol * ref.mass);
  EXPECT_NEAR(got.com.z(), 0.0, 1e-15);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(got.inertia(i, i), ref.inertia(i, i), kSliceTol * ref.inertia(i, i));
  // A capsule of zero length is a sphere.
  const MassProperties s = shape_mass_properties(Capsule{R, 0.0}, 2.0);
  const MassProperties s_ref = shape_mass_properties(Sphere{R}, 2.0);
  EXPECT_NEAR(s.mass, s_ref.mass, 1e-15);
  EXPECT_NEAR(s.inertia(0, 0), s_ref.inertia(0, 0), 1e-15);
}

TEST(MassProperties, ConeBySlices) {
  const double R = 0.5, h = 1.2;
  const auto r = [=](double z) { return R * (0.5 * h - z) / h; };  // R at base z=-h/2, 0 at apex
  expect_matches(shape_mass_properties(Cone{R, h}, 1.0),
                 integrate_slices(r, r, -0.5 * h, 0.5 * h, 4000), kSliceTol);
}

TEST(MassProperties, EllipsoidByEllipticSlices) {
  const double a = 0.3, b = 0.5, c = 0.9;
  const auto s = [=](double z) { return std::sqrt(std::max(0.0, 1.0 - z * z / (c * c))); };
  expect_matches(shape_mass_properties(Ellipsoid{Vec3(a, b, c)}, 1.0),
                 integrate_slices([&](double z) { return a * s(z); },
                                  [&](double z) { return b * s(z); }, -c, c, 4000),
                 kSliceTol);
}

TEST(MassProperties, DensityScales) {
  const MassProperties a = shape_mass_properties(Box{Vec3(1, 2, 3)}, 1.0);
  const MassProperties b = shape_mass_properties(Box{Vec3(1, 2, 3)}, 2500.0);
  EXPECT_DOUBLE_EQ(b.mass, 2500.0 * a.mass);
  EXPECT_DOUBLE_EQ(b.inertia(2, 2), 2500.0 * a.inertia(2, 2));
}

TEST(MassProperties, HullOfBoxCornersEqualsBox) {
  const Vec3 h(0.3, 0.5, 0.7);
  std::vector<Vec3> pts;
  // Offset corners: the hull's centre of mass must come out at the offset.
  const Vec3 c(1.0, -2.0, 0.5);
  for (int i = 0; i < 8; ++i) {
    pts.push_back(c + Vec3(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(), i & 4 ? h.z() : -h.z()));
  }
  const MassProperties box = shape_mass_properties(Box{h}, 3.0);
  const MassProperties hull = shape_mass_properties(make_convex_hull(pts), 3.0);
  // Rounding only: sums of 12 tetrahedra of O(1) terms.
  EXPECT_NEAR(hull.mass, box.mass, 1e-14);
  EXPECT_NEAR((hull.com - c).norm(), 0.0, 1e-14);
  EXPECT_NEAR((hull.inertia - box.inertia).norm(), 0.0, 1e-14);
  // Unprocessed hull (points only) gives the same.
  ConvexHull raw;
  raw.points = pts;
  EXPECT_NEAR(shape_mass_properties(raw, 3.0).mass, box.mass, 1e-14);
  EXPECT_NEAR(shape_volume(raw), 8.0 * h.prod(), 1e-15);
}

TEST(MassProperties, UnitTetrahedron) {
  // Vertices 0, e1, e2, e3, density 1: V = 1/6, com = (1/4)(1,1,1); about the origin
  // ∫x² dV = 1/60, ∫xy dV = 1/120, so about the com Ixx = 1/30 − (1/6)(2/16) = 1/80 and
  // Ixy = −1/120 + (1/6)(1/16) = 1/480.
  std::vector<Vec3> pts = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  const MassProperties mp = shape_mass_properties(make_convex_hull(pts), 1.0);
  EXPECT_NEAR(mp.mass, 1.0 / 6.0, 1e-16);
  EXPECT_NEAR((mp.com - Vec3::Constant(0.25)).norm(), 0.0, 1e-16);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(mp.inertia(i, j), i == j ? 1.0 / 80.0 : 1.0 / 480.0, 1e-16) << i << j;
    }
  }
}

TEST(MassProperties, RejectsPlaneAndDegenerate) {
  EXPECT_THROW((void)shape_mass_properties(Plane{}, 1.0), std::invalid_argument);
  EXPECT_THROW((void)shape_volume(Plane{}), std::invalid_argument);
  EXPECT_THROW((void)shape_mass_properties(Sphere{0.0}, 1.0), std::invalid_argument);
  EXPECT_THROW((void)shape_mass_properties(Box{Vec3(1, 0, 1)}, 1.0), std::invalid_argument);
  EXPECT_THROW((void)shape_mass_properties(Sphere{1.0}, 0.0), std::invalid_argument);
  EXPECT_THROW((void)shape_mass_properties(Cone{1.0, -1.0}, 1.0), std::invalid_argument);
}

TEST(MassProperties, TransformRotatesAndMoves) {
  const MassProperties box = shape_mass_properties(Box{Vec3(1, 2, 3)}, 1.0);
  Pose X;
  X.p = Vec3(1, 2, 3);
  X.q = Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()));
  const MassProperties t = transform(box, X);
  EXPECT_EQ(t.mass, box.mass);
  EXPECT_NEAR((t.com - X.p).norm(), 0.0, 1e-15);
  // A quarter turn about z swaps the x and y moments.
  EXPECT_NEAR(t.inertia(0, 0), box.inertia(1, 1), 1e-12);
  EXPECT_NEAR(t.inertia(1, 1), box.inertia(0, 0), 1e-12);
  EXPECT_NEAR(t.inertia(2, 2), box.inertia(2, 2), 1e-12);
  EXPECT_NEAR(t.inertia(0, 1), 0.0, 1e-12);
}

TEST(MassProperties, CombineTwoCubesIsABox) {
  // Two unit cubes at x = ±0.5 form a 2×1×1 box centred at the origin.
  const MassProperties cube = shape_mass_properties(Box{Vec3::Constant(0.5)}, 1.0);
  MassProperties a = cube, b = cube;
  a.com = Vec3(-0.5, 0, 0);
  b.com = Vec3(0.5, 0, 0);
  const MassProperties sum = combine(a, b);
  const MassProperties ref = shape_mass_properties(Box{Vec3(1.0, 0.5, 0.5)}, 1.0);
  EXPECT_DOUBLE_EQ(sum.mass, ref.mass);
  EXPECT_NEAR(sum.com.norm(), 0.0, 1e-16);
  EXPECT_NEAR((sum.inertia - ref.inertia).norm(), 0.0, 1e-15);
}

}  // namespace
}  // namespace coulomb
