// The compliant formulation's force laws per pair of materials
// (coulomb/compliant/contact_laws.hpp): every section built, the default contact for pairs without
// an entry, and the laws it refuses.
#include <coulomb/compliant/contact_laws.hpp>
#include <coulomb/laws/coulomb.hpp>
#include <coulomb/scene/scene.hpp>

#include <gtest/gtest.h>

#include <string>

namespace coulomb {
namespace {

const char* kScene = R"(
solver: {formulation: compliant}
materials:
  - {name: steel, young_modulus: 2.0e11, poisson_ratio: 0.3}
  - {name: rubber, young_modulus: 1.0e7, poisson_ratio: 0.45}
contacts:
  - between: [steel, rubber]
    normal: {law: hunt_crossley, restitution: 0.5, impact_velocity: 1}
    friction: {law: coulomb, mu: 0.8}
    contensou: {model: pade11}
    rolling_resistance: {kappa: 0.1}
default_contact:
  normal: {law: hertz}
  friction: {law: elastic_stick, mu_s: 0.6, mu_k: 0.4, stiffness: 1.0e5}
  rolling: {k: 0.001}
  pivoting: {h: 0.002}
bodies:
  - {name: a, material: steel, mass: 1, shapes: [{type: sphere, radius: 0.1}]}
  - {name: b, material: rubber, mass: 1, shapes: [{type: sphere, radius: 0.1}], position: [1, 0, 0]}
  - {name: c, material: steel, fixed: true, shapes: [{type: plane}], position: [0, 0, -1]}
)";

TEST(CompliantLaws, EverySectionPerMaterialPair) {
  const Scene scene = load_scene_text(kScene, "laws.yaml");
  const CompliantLawTable table(scene.model);
  const CompliantLaws& mixed = table.of(0, 1);
  EXPECT_EQ(&mixed, &table.of(1, 0));  // unordered
  EXPECT_EQ(mixed.normal->name(), "hunt_crossley");
  ASSERT_TRUE(mixed.contensou);
  EXPECT_EQ(mixed.contensou->name(), "pade11");
  EXPECT_DOUBLE_EQ(mixed.contensou->friction_coefficient(), 0.8);
  EXPECT_TRUE(mixed.patch());
  EXPECT_FALSE(mixed.rolling);
  // Pairs without an entry take default_contact (steel meets steel: a and c; rubber meets no
  // rubber, so that pair is not built).
  const CompliantLaws& same = table.of(0, 0);
  EXPECT_EQ(same.normal->name(), "hertz");
  EXPECT_TRUE(same.friction->has_stick_branch());
  ASSERT_TRUE(same.rolling);
  EXPECT_DOUBLE_EQ(same.rolling->coefficient(), 0.001);
  ASSERT_TRUE(same.pivoting);
  EXPECT_DOUBLE_EQ(same.pivoting->coefficient(), 0.002);
  EXPECT_FALSE(same.patch());
}

TEST(CompliantLaws, RefusesWhatItCannotRun) {
  ContactSpec spec;  // the defaults: Signorini, Coulomb μ = 0
  try {
    (void)build_compliant_laws(spec, {}, {});
    FAIL() << "Signorini accepted";
  } catch (const LawError& e) {
    EXPECT_EQ(e.key(), "normal.law");
    EXPECT_NE(std::string(e.what()).find("compliant formulation takes"), std::string::npos)
        << e.what();
  }
  // Coulomb's compliant form has no stick branch: μ_s ≠ μ_k is refused at mu_s.
  spec.normal = LawSpec{"linear", {{"stiffness", 1e6}}, {}, {}};
  spec.friction = LawSpec{"coulomb", {{"mu_s", 0.5}, {"mu_k", 0.3}}, {}, {{"mu_s", {7, 5}}}};
  try {
    (void)build_compliant_laws(spec, {}, {});
    FAIL() << "mu_s != mu_k accepted";
  } catch (const LawError& e) {
    EXPECT_EQ(e.key(), "friction.mu_s");
    EXPECT_EQ(e.mark().line, 7);
  }
  spec.friction = LawSpec{"coulomb", {{"mu", 0.3}}, {}, {}};
  EXPECT_NO_THROW((void)build_compliant_laws(spec, {}, {}));
}

TEST(CompliantLaws, CoulombsRegularisedSlipLaw) {
  // F = −μ N min(1, |v|/v_r) v̂ (v_r = 1e-4 m/s by default), smooth through 0.
  const CoulombLaw law(LawSpec{"coulomb", {{"mu", 0.4}}, {}, {}});
  EXPECT_EQ(law.regularization(), 1e-4);
  const TangentialResult slow = law.evaluate({Vec2(5e-5, 0.0), 10.0, {}}, {});
  EXPECT_NEAR(slow.force.x(), -0.4 * 10.0 * 0.5, 1e-15);
  EXPECT_NEAR(slow.d_slip(0, 0), -0.4 * 10.0 / 1e-4, 1e-9);
  const TangentialResult fast = law.evaluate({Vec2(0.0, -2.0), 10.0, {}}, {});
  EXPECT_NEAR(fast.force.y(), 4.0, 1e-15);
}

}  // namespace
}  // namespace coulomb
