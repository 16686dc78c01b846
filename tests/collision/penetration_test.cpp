// GJK + EPA (penetration.cpp) against closed-form minimum translations: boxes (exact faces of
// the Minkowski difference), spheres and capsules (curved: the normal to within the tolerance's
// square root), a sphere in a cylinder's side; apart shapes give no penetration but GJK's
// closest-points direction and distance.

#include "collision/penetration.hpp"
#include "collision/checks.hpp"
#include "collision/support.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace coulomb {
namespace {

using narrow::Penetration;
using narrow::penetration;
using narrow::separation;
using testing::at;
using testing::rot;

// Runs EPA with the convex pair's tolerance (1e-12 of the sizes) from a hint direction.
Penetration epa(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                const Vec3& hint) {
  Penetration pen;
  const double tol = 1e-12 * (narrow::shape_size(g1) + narrow::shape_size(g2));
  EXPECT_TRUE(penetration(g1, X1, g2, X2, hint, tol, pen));
  EXPECT_TRUE(pen.converged);
  EXPECT_LT(pen.iterations, narrow::kMaxEpaVertices - 4);
  // The result is the separation along its own normal (support.hpp).
  EXPECT_NEAR(-pen.depth, separation(g1, X1, g2, X2, pen.n), 1e-15);
  return pen;
}

TEST(Penetration, BoxesSeparateAlongTheFaceOfLeastOverlap) {
  // Box half (1, 0.3, 0.5) and a cube of half 0.5 at (1.2, 0.6, 0): overlaps 0.3 along x and 0.2
  // along y (the least), 1 along z; the whole configuration turned by R.
  const Quat R = rot(0.7, Vec3(1, -2, 0.5));
  const Box a{Vec3(1.0, 0.3, 0.5)}, b{Vec3::Constant(0.5)};
  const Pose Xa = at(Vec3(0.1, 0.2, 0.3), R);
  const Pose Xb = at(Xa.apply(Vec3(1.2, 0.6, 0.0)), R);
  // From a poor hint (the centre-to-centre direction, which leaves through the x face).
  const Penetration pen = epa(a, Xa, b, Xb, (Xb.p - Xa.p).normalized());
  // A face of the Minkowski difference: exact up to round-off.
  EXPECT_NEAR((pen.n - R * Vec3::UnitY()).norm(), 0.0, 1e-14);
  EXPECT_NEAR(pen.depth, 0.2, 1e-14);
  // Witness points: on a's +y face and b's −y face, the origin's foot between them.
  EXPECT_NEAR((Xa.apply_inverse(pen.p1)).y(), 0.3, 1e-12);
  EXPECT_NEAR((Xa.apply_inverse(pen.p2)).y(), 0.1, 1e-12);
}

TEST(Penetration, SpheresSeparateAlongTheLineOfCentres) {
  const Vec3 c2(0.1, 0.2, 0.3);
  const Penetration pen = epa(Sphere{0.3}, Pose{}, Sphere{0.2}, at(c2), Vec3(1, 0, 0));
  // A curved Minkowski difference (a sphere of radius 0.5): EPA stops when the depth bounds are
  // within tol = 1e-12 × 0.5, so the normal is within ≈ sqrt(2 tol / 0.5) = 2e-6.
  EXPECT_NEAR((pen.n - c2.normalized()).norm(), 0.0, 2e-6);
  EXPECT_NEAR(pen.depth, 0.5 - c2.norm(), 1e-12);
}

TEST(Penetration, CrossedCapsulesSeparateAlongTheCommonPerpendicular) {
  // Cores along x (radius 0.2) and along y at height 0.3 (radius 0.15): distance 0.3, depth 0.05.
  const Pose Xa = at(Vec3::Zero(), rot(kPi / 2, Vec3::UnitY()));
  const Pose Xb = at(Vec3(0.1, 0.05, 0.3), rot(kPi / 2, Vec3::UnitX()));
  const Penetration pen = epa(Capsule{0.2, 0.5}, Xa, Capsule{0.15, 0.4}, Xb, Vec3(1, 1, 1));
  // The crossed cores' Minkowski difference is a flat parallelogram, swept by a ball: the
  // nearest part is flat and EPA lands on it exactly.
  EXPECT_NEAR((pen.n - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  EXPECT_NEAR(pen.depth, 0.05, 1e-14);
}

TEST(Penetration, SphereNearACylinderRimSeparatesRadially) {
  // Centre 0.3 from the axis, 0.05 below the top cap (radius 0.2): radial depth 0.2, through the
  // cap 0.25. The Minkowski difference is flat along the axis there, curved around it.
  const Vec3 u(std::cos(0.4), std::sin(0.4), 0.0);
  const Penetration pen =
      epa(Sphere{0.2}, at(0.3 * u + Vec3(0, 0, 0.45)), Cylinder{0.3, 0.5}, Pose{}, Vec3::UnitZ());
  EXPECT_NEAR((pen.n + u).norm(), 0.0, 2e-6);
  EXPECT_NEAR(pen.depth, 0.2, 1e-12);
}

TEST(Penetration, ApartShapesGiveTheirClosestPointsDirection) {
  using narrow::closest_direction;
  // A cube's corner (1, 1, 1)/2 towards a sphere's centre: distance |c − corner| − r.
  const Vec3 corner = Vec3::Constant(0.5), c = corner + Vec3(0.1, 0.2, 0.3);
  Penetration pen;
  ASSERT_TRUE(closest_direction(Box{Vec3::Constant(0.5)}, Pose{}, Sphere{0.2}, at(c), Vec3::UnitZ(),
                                1e-12, pen));
  EXPECT_TRUE(pen.converged);
  const Vec3 u = (c - corner).normalized();
  EXPECT_NEAR((pen.n - u).norm(), 0.0, 1e-6);  // the sphere is curved: as for EPA
  EXPECT_NEAR(-pen.depth, (c - corner).norm() - 0.2, 1e-12);
  EXPECT_NEAR((pen.p1 - corner).norm(), 0.0, 1e-12);
  // Two boxes with parallel faces 0.01 apart, turned together: exact (faces of M).
  const Quat R = rot(0.4, Vec3(1, 2, 3));
  const Pose Xa = at(Vec3(0.3, 0.1, 0.0), R);
  const Pose Xb = at(Xa.apply(Vec3(0.2, 0.1, 0.61)), R);
  ASSERT_TRUE(closest_direction(Box{Vec3(0.5, 0.4, 0.3)}, Xa, Box{Vec3::Constant(0.3)}, Xb,
                                R * Vec3(0.3, 0.1, 1.0).normalized(), 1e-12, pen));
  EXPECT_NEAR((pen.n - R * Vec3::UnitZ()).norm(), 0.0, 1e-14);
  EXPECT_NEAR(-pen.depth, 0.01, 1e-14);
  // Overlapping shapes: no closest points.
  EXPECT_FALSE(closest_direction(Sphere{0.3}, Pose{}, Sphere{0.2}, at(Vec3(0.1, 0.2, 0.3)),
                                 Vec3::UnitX(), 1e-12, pen));
}

TEST(Penetration, ShapesThatTouchOrAreApartGetEpaOnTheGrownShape) {
  // Spheres touching (and 0.004 apart) with shape 1 grown by 0.01: the direction of centres and
  // the signed distance grow − depth.
  const Vec3 u = Vec3(1, -2, 2) / 3.0;
  for (double gap : {0.0, 0.004}) {
    Penetration pen;
    ASSERT_TRUE(penetration(Sphere{0.3}, Pose{}, Sphere{0.2}, at((0.5 + gap) * u), Vec3::UnitZ(),
                            1e-12, pen, 0.01));
    EXPECT_NEAR((pen.n - u).norm(), 0.0, 2e-6);  // curved (spheres): as above
    EXPECT_NEAR(0.01 - pen.depth, gap, 1e-12);
  }
}

TEST(Penetration, ApartShapesGiveNoDirection) {
  Penetration pen;
  EXPECT_FALSE(penetration(Box{Vec3::Constant(0.5)}, Pose{}, Sphere{0.2}, at(Vec3(0, 0, 0.8)),
                           Vec3::UnitZ(), 1e-12, pen));
  EXPECT_FALSE(penetration(Cylinder{0.3, 0.5}, Pose{}, Cone{0.2, 0.4}, at(Vec3(1, 0.2, 0.1)),
                           Vec3::UnitX(), 1e-12, pen));
}

}  // namespace
}  // namespace coulomb
