#include <coulomb/laws/regularized.hpp>

#include "laws/fd.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace coulomb;

TEST(Regularized, LinearSaturatedForm) {
  const RegularizedCoulombLaw law(0.4, 1e-2, false);
  // Below v_r: viscous with slope μN/v_r; above: exactly Coulomb.
  EXPECT_TRUE(law.evaluate({Vec2(5e-3, 0), 10.0, {}}, {}).force.isApprox(Vec2(-2.0, 0)));
  EXPECT_TRUE(law.evaluate({Vec2(0, 0.5), 10.0, {}}, {}).force.isApprox(Vec2(0, -4.0)));
  for (const Vec2& v : {Vec2(3e-3, -4e-3), Vec2(0.3, 0.4), Vec2(0.0, 0.0)}) {
    test::expect_friction_jacobian(law, {v, 10.0, {}}, {}, 1e-8);
  }
}

TEST(Regularized, TanhForm) {
  const RegularizedCoulombLaw law(0.4, 1e-2, true);
  const Vec2 v(0.006, 0.008);  // ‖v‖ = v_r
  EXPECT_NEAR(law.evaluate({v, 10.0, {}}, {}).force.norm(), 4.0 * std::tanh(1.0), 1e-14);
  for (const Vec2& w : {v, Vec2(1e-9, 2e-9), Vec2(0.2, -0.1), Vec2(0, 0)}) {
    test::expect_friction_jacobian(law, {w, 10.0, {}}, {}, 1e-9);
    EXPECT_GE(law.evaluate({w, 10.0, {}}, {}).power, 0.0);
  }
  // Far above v_r the force is Coulomb's to tanh(100) = 1 − 3e-87.
  EXPECT_NEAR(law.evaluate({Vec2(1.0, 0), 10.0, {}}, {}).force[0], -4.0, 1e-15);
}
