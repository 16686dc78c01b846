// Contact geometry with the sharp-feature fallback (coulomb/compliant/geometry.hpp): curved
// surfaces keep Hertz's radius, sharp ones are rounded by r_s, flat contacts count as a sphere of
// radius r_s on a plane.
#include <coulomb/compliant/geometry.hpp>

#include <gtest/gtest.h>

namespace coulomb {
namespace {

constexpr double kSharp = 1e-3;

Curvature sphere(double r) { return {r, r, Vec3::UnitX()}; }

TEST(CompliantGeometry, CurvedSurfacesKeepHertzRadius) {
  // Two spheres: 1/R* = 1/R1 + 1/R2 (exactly circular).
  EXPECT_NEAR(equivalent_radius(sphere(0.02), sphere(0.03), kSharp), 0.012, 1e-15);
  // A sphere on a plane: R.
  EXPECT_NEAR(equivalent_radius(sphere(0.05), Curvature{}, kSharp), 0.05, 1e-15);
  // Crossed cylinders of equal radius R (axes at right angles): A = B = 1/(2R), the circular
  // contact of a sphere of radius R on a plane (Johnson 1985 §4.2).
  const Curvature c1{0.04, kInf, Vec3::UnitX()}, c2{0.04, kInf, Vec3::UnitY()};
  const HertzEllipse e = contact_ellipse(c1, c2, kSharp);
  EXPECT_NEAR(e.radius, 0.04, 1e-12);
  EXPECT_NEAR(e.eccentricity, 0.0, 1e-7);
}

TEST(CompliantGeometry, SharpFeaturesAreRoundedBySharpRadius) {
  // A box corner (0, 0) on a plane: a sphere of r_s.
  EXPECT_NEAR(equivalent_radius(Curvature{0.0, 0.0, Vec3::UnitX()}, Curvature{}, kSharp), kSharp,
              1e-15);
  // A box edge (0 across, ∞ along) on a plane: a cylinder of r_s along the edge, flat along it:
  // no point contact, so the flat fallback (a sphere of r_s).
  EXPECT_NEAR(equivalent_radius(Curvature{0.0, kInf, Vec3::UnitX()}, Curvature{}, kSharp), kSharp,
              1e-15);
  // A cylinder rim (0 across, R along) on a plane: an elliptic contact of radii r_s and R.
  const HertzEllipse rim = contact_ellipse(Curvature{0.0, 0.05, Vec3::UnitX()}, Curvature{}, kSharp);
  const HertzEllipse ref = hertz_ellipse(Curvature{kSharp, 0.05, Vec3::UnitX()}, Curvature{});
  EXPECT_EQ(rim.radius, ref.radius);
  EXPECT_GT(rim.eccentricity, 0.9);
  EXPECT_GT(rim.radius, kSharp);
  EXPECT_LT(rim.radius, 0.05);
}

TEST(CompliantGeometry, FlatContactsCountAsASphereOnAPlane) {
  // A face on a face (∞, ∞ both) and a cylinder side along a face (R, ∞ on ∞, ∞).
  // (To round-off: R* comes out of Hertz's elliptic formulas at e = 0.)
  EXPECT_NEAR(equivalent_radius(Curvature{}, Curvature{}, kSharp), kSharp, 1e-17);
  EXPECT_NEAR(equivalent_radius(Curvature{0.05, kInf, Vec3::UnitX()}, Curvature{}, kSharp), kSharp,
              1e-17);
  EXPECT_NEAR(contact_ellipse(Curvature{}, Curvature{}, 2e-3).radius, 2e-3, 1e-17);
}

}  // namespace
}  // namespace coulomb
