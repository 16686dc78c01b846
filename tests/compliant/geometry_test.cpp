// Contact geometry with the sharp-feature fallback (coulomb/compliant/geometry.hpp): curved
// surfaces keep Hertz's radius, sharp ones are rounded by r_s, flat contacts count as a sphere of
// radius r_s on a plane.
#include <coulomb/compliant/geometry.hpp>

#include <gtest/gtest.h>

#include <cmath>

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
  const HertzEllipse rim =
      contact_ellipse(Curvature{0.0, 0.05, Vec3::UnitX()}, Curvature{}, kSharp);
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

TEST(CompliantGeometry, ContactEllipseAndItsMajorAxis) {
  // A surface with radii 0.05 m along d1 and 0.01 m across on a plane: the ellipse's major axis
  // lies along the smaller curvature (d1), on the point's (t1, t2), whatever d1 is.
  for (double angle : {0.0, 0.6, 2.0}) {
    ContactPoint c;
    c.n_W = Vec3::UnitZ();
    c.t1_W = Vec3::UnitX();
    c.t2_W = Vec3::UnitY();
    const Vec3 d1(std::cos(angle), std::sin(angle), 0.0);
    c.curvature1 = Curvature{0.05, 0.01, d1};
    const NormalGeometry g = contact_geometry(c, kSharp);
    ASSERT_TRUE(g.elliptic());
    EXPECT_NEAR(std::abs(g.major.dot(Vec2(d1.x(), d1.y()))), 1.0, 1e-12);
    const HertzEllipse h = hertz_ellipse(c.curvature1, Curvature{});
    EXPECT_EQ(g.radius, h.radius);
    EXPECT_EQ(g.a_factor, h.a_factor);
    // The nonsmooth formulation's patch: the circle of the ellipse's area.
    const double r = patch_area_radius(c.curvature1, c.curvature2, kSharp);
    const double n = 20.0, e_star = 1e11;
    const double delta = std::pow(3.0 * n / (4.0 * e_star * std::sqrt(h.radius)), 2.0 / 3.0);
    EXPECT_NEAR(hertz_patch_radius(n, r, e_star), std::sqrt(h.a_factor * h.b_factor * delta),
                1e-12 * std::sqrt(delta));
  }
  // A sphere: a circle, R* itself; a flat contact: no Hertz patch (nonsmooth), r_s (compliant).
  ContactPoint c;
  c.curvature1 = Curvature{0.02, 0.02, Vec3::UnitX()};
  EXPECT_FALSE(contact_geometry(c, kSharp).elliptic());
  EXPECT_NEAR(patch_area_radius(c.curvature1, c.curvature2, kSharp), 0.02, 1e-15);
  EXPECT_TRUE(std::isinf(patch_area_radius(Curvature{}, Curvature{}, kSharp)));
  EXPECT_EQ(contact_geometry(ContactPoint{}, kSharp).radius, kSharp);
}

}  // namespace
}  // namespace coulomb
