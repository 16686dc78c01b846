#include <coulomb/laws/coulomb.hpp>

#include "laws/fd.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace coulomb;

TEST(Coulomb, StaticKineticSelectionFromThePreviousState) {
  const CoulombLaw law(0.5, 0.3);
  FrictionMemory fresh;  // new contact: no previous slip
  EXPECT_EQ(law.cone_coefficients(fresh)[0], 0.5);
  FrictionMemory slid;
  slid.previous_slip = Vec2(0.1, 0.0);
  EXPECT_EQ(law.cone_coefficients(slid)[0], 0.3);
  FrictionMemory stuck;
  stuck.sticking = true;
  stuck.previous_slip = Vec2(1e-9, 0);
  EXPECT_EQ(law.cone_coefficients(stuck)[0], 0.5);
  // evaluate() commits the slip state: sliding → μ_k next, at rest → μ_s next.
  const TangentialResult r = law.evaluate({Vec2(0.2, 0.0), 10.0, {}}, fresh);
  EXPECT_EQ(law.cone_coefficients(r.memory)[0], 0.3);
  EXPECT_EQ(law.cone_coefficients(law.evaluate({Vec2::Zero(), 10.0, {}}, r.memory).memory)[0], 0.5);
}

TEST(Coulomb, InclineThresholdBothSides) {
  // A block at rest on an incline of angle α: the tangential load needed is m g sin α, the cap
  // μ_s m g cos α. It stays iff tan α ≤ μ_s (checked just inside and just outside).
  const CoulombLaw law(0.5, 0.3);
  const double mu = law.cone_coefficients(FrictionMemory{})[0];
  const double g = 9.81, m = 2.0;
  for (double alpha : {std::atan(0.5) - 1e-6, std::atan(0.5) + 1e-6}) {
    const bool holds = m * g * std::sin(alpha) <= mu * m * g * std::cos(alpha);
    EXPECT_EQ(holds, std::tan(alpha) <= 0.5);
  }
  // Sliding: the friction is μ_k N opposing the slip, deceleration g (sin α − μ_k cos α).
  const double alpha = 0.6;
  const TangentialResult r = law.evaluate({Vec2(-1.0, 0.0), m * g * std::cos(alpha), {}}, {});
  EXPECT_NEAR((m * g * std::sin(alpha) - r.force.norm()) / m,
              g * (std::sin(alpha) - 0.3 * std::cos(alpha)), 1e-12);
}

TEST(Coulomb, SlipBranchOpposesSlipAndDissipates) {
  const CoulombLaw law(0.4, 0.4);
  const TangentialResult r = law.evaluate({Vec2(0.3, -0.4), 5.0, {}}, {});
  EXPECT_NEAR(r.force.norm(), 2.0, 1e-14);
  EXPECT_NEAR(r.force.dot(Vec2(0.3, -0.4)), -2.0 * 0.5, 1e-14);
  EXPECT_NEAR(r.power, 2.0 * 0.5, 1e-14);
  test::expect_friction_jacobian(law, {Vec2(0.3, -0.4), 5.0, {}}, {}, 1e-7);
}

TEST(Coulomb, AnisotropicMaximalDissipation) {
  const CoulombLaw law(LawSpec{"coulomb", {{"mu_t1", 0.6}, {"mu_t2", 0.2}}, {}, {}});
  EXPECT_TRUE(law.anisotropic());
  const TangentialInput in{Vec2(0.1, 0.25), 3.0, {}};
  const TangentialResult r = law.evaluate(in, {});
  // On the ellipse boundary (F1/μ1)² + (F2/μ2)² = N² ...
  EXPECT_NEAR(std::hypot(r.force[0] / 0.6, r.force[1] / 0.2), 3.0, 1e-13);
  // ... and maximal dissipation: −F·v ≥ −F'·v for every F' on that ellipse (sampled).
  for (int i = 0; i < 360; ++i) {
    const double t = i * kPi / 180;
    const Vec2 f(3.0 * 0.6 * std::cos(t), 3.0 * 0.2 * std::sin(t));
    EXPECT_GE(-r.force.dot(in.slip), -f.dot(in.slip) - 1e-13);
  }
  EXPECT_NEAR(r.power, -r.force.dot(in.slip), 1e-14);
  test::expect_friction_jacobian(law, in, {}, 1e-7);
  EXPECT_THROW(CoulombLaw(LawSpec{"coulomb", {{"mu_t1", 0.6}, {"mu", 0.2}}, {}, {}}), LawError);
  EXPECT_THROW(CoulombLaw(LawSpec{"coulomb", {{"mu_s", 0.6}}, {}, {}}), LawError);
}
