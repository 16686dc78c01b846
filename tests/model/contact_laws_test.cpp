// Resolution of a contact spec into the set-valued laws of the nonsmooth formulation.
#include <coulomb/model/contact_laws.hpp>
#include <coulomb/model/model.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace coulomb {
namespace {

Model two_materials() {
  Model m;
  m.materials = {Material{"steel", 2.1e11, 0.3, 7800}, Material{"glass", 6.3e10, 0.22, 2500}};
  return m;
}

ContactSpec spec_between(int a, int b) {
  ContactSpec c;
  c.material1 = a;
  c.material2 = b;
  return c;
}

TEST(ContactLaws, CoulombSignoriniWithRestitutions) {
  const Model m = two_materials();
  ContactSpec c = spec_between(0, 1);
  c.normal.params = {{"restitution", 0.4}, {"tangential_restitution", -0.2}};
  c.friction.params = {{"mu_s", 0.5}, {"mu_k", 0.3}};
  const NonsmoothLaws l = resolve_nonsmooth_laws(c, m);
  EXPECT_EQ(l.mu_s, 0.5);
  EXPECT_EQ(l.mu_k, 0.3);
  EXPECT_EQ(l.e_n, 0.4);
  EXPECT_EQ(l.e_t, -0.2);
  EXPECT_FALSE(l.has_moments());
}

TEST(ContactLaws, MomentLaws) {
  const Model m = two_materials();
  ContactSpec c = spec_between(0, 1);
  c.friction.params = {{"mu", 0.4}};
  c.rolling = LawSpec{"rolling", {{"k", 2e-3}}, {}, {}};
  c.soft_finger = LawSpec{"soft_finger", {{"radius", 5e-3}}, {}, {}};
  const NonsmoothLaws l = resolve_nonsmooth_laws(c, m);
  EXPECT_EQ(l.k, 2e-3);
  EXPECT_DOUBLE_EQ(l.h, 0.4 * 5e-3);  // soft finger: h = μ r_t
  EXPECT_TRUE(l.has_moments());
}

// No slip is μ_s = μ_k = +∞ (coulomb/laws/no_slip.hpp) with the restitutions kept; a model built in
// code with a moment law beside it is refused, naming the pair.
TEST(ContactLaws, NoSlipIsInfiniteMuWithoutMoments) {
  const Model m = two_materials();
  ContactSpec c = spec_between(0, 1);
  c.normal.params = {{"restitution", 0.4}};
  c.friction = LawSpec{"no_slip", {}, {}, {}};
  const NonsmoothLaws l = resolve_nonsmooth_laws(c, m);
  EXPECT_TRUE(std::isinf(l.mu_s) && l.mu_s > 0.0);
  EXPECT_TRUE(std::isinf(l.mu_k) && l.mu_k > 0.0);
  EXPECT_EQ(l.e_n, 0.4);
  EXPECT_FALSE(l.has_moments());
  c.rolling = LawSpec{"rolling", {{"k", 2e-3}}, {}, {}};
  try {
    (void)resolve_nonsmooth_laws(c, m);
    FAIL() << "no_slip with rolling was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "contact between 'steel' and 'glass': friction law 'no_slip' takes no moment law "
                 "(rolling, pivoting, soft_finger, contensou)");
  }
}

TEST(ContactLaws, ContensouRadiusGivenOrFromHertz) {
  const Model m = two_materials();
  ContactSpec c = spec_between(0, 1);
  c.friction.params = {{"mu", 0.3}};
  c.contensou =
      LawSpec{"contensou", {{"radius", 1e-3}}, {{"model", "exact"}, {"pressure", "uniform"}}, {}};
  NonsmoothLaws l = resolve_nonsmooth_laws(c, m);
  EXPECT_EQ(l.coupling, NonsmoothLaws::Coupling::exact);
  EXPECT_EQ(l.pressure, contensou::Pressure::uniform);
  EXPECT_EQ(l.patch_radius, 1e-3);
  // Without a radius: E* from the materials, 1/E* = (1 − ν1²)/E1 + (1 − ν2²)/E2.
  c.contensou = LawSpec{"contensou", {}, {{"model", "ellipsoid"}}, {}};
  l = resolve_nonsmooth_laws(c, m);
  EXPECT_EQ(l.coupling, NonsmoothLaws::Coupling::ellipsoid);
  EXPECT_EQ(l.patch_radius, 0.0);
  const double e_star = 1.0 / ((1 - 0.09) / 2.1e11 + (1 - 0.0484) / 6.3e10);
  EXPECT_NEAR(l.e_star, e_star, 1e-12 * e_star);
}

TEST(ContactLaws, RejectsWhatTheNonsmoothFormulationCannotTake) {
  Model m = two_materials();
  auto message = [&](const ContactSpec& c) {
    try {
      (void)resolve_nonsmooth_laws(c, m);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  ContactSpec c = spec_between(0, 1);
  c.normal = LawSpec{"hertz", {{"stiffness", 1e9}}, {}, {}};
  EXPECT_NE(
      message(c).find(
          "normal.law: 'hertz' is a compliant law; the nonsmooth formulation takes signorini"),
      std::string::npos)
      << message(c);
  c = spec_between(0, 1);
  c.friction = LawSpec{"viscous", {{"c", 1.0}}, {}, {}};
  EXPECT_NE(message(c).find("friction.law: 'viscous' is a compliant law"), std::string::npos)
      << message(c);
  c = spec_between(0, 1);
  c.friction = LawSpec{"coulomb", {{"mu_t1", 0.2}, {"mu_t2", 0.4}}, {}, {}};
  EXPECT_NE(message(c).find(
                "friction.mu_t1 (anisotropic coefficient along t1, elliptic cone): a compliant "
                "parameter; the nonsmooth formulation does not take it"),
            std::string::npos)
      << message(c);
  c = spec_between(0, 1);
  c.contensou = LawSpec{"contensou", {{"radius", 1e-3}}, {{"model", "pade11"}}, {}};
  EXPECT_NE(message(c).find("contensou.model: 'pade11' is a compliant choice; the nonsmooth "
                            "formulation takes ellipsoid|exact"),
            std::string::npos)
      << message(c);
  // No radius and no elastic data on the materials: the Hertz radius cannot be computed.
  m.materials = {Material{"a"}, Material{"b"}};
  c = spec_between(0, 1);
  c.contensou = LawSpec{"contensou", {}, {{"model", "exact"}}, {}};
  EXPECT_NE(message(c).find("young_modulus and poisson_ratio"), std::string::npos) << message(c);
  // The message names the pair.
  EXPECT_NE(message(c).find("contact between 'a' and 'b'"), std::string::npos) << message(c);
}

}  // namespace
}  // namespace coulomb
