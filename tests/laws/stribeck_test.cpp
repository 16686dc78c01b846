#include <coulomb/laws/stribeck.hpp>

#include "laws/fd.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace coulomb;

TEST(Stribeck, CurveEndsAndStribeckVelocity) {
  EXPECT_DOUBLE_EQ(stribeck_mu(0.0, 0.5, 0.3, 0.01, 2.0), 0.5);
  EXPECT_NEAR(stribeck_mu(10.0, 0.5, 0.3, 0.01, 2.0), 0.3, 1e-15);
  // At u = v_s: μ_k + (μ_s − μ_k)/e.
  EXPECT_NEAR(stribeck_mu(0.01, 0.5, 0.3, 0.01, 2.0), 0.3 + 0.2 / std::exp(1.0), 1e-15);
  EXPECT_NEAR(stribeck_mu(-0.01, 0.5, 0.3, 0.01, 1.0), 0.3 + 0.2 / std::exp(1.0), 1e-15);
}

TEST(Stribeck, ForceWithViscousTermAndJacobian) {
  const StribeckLaw law(LawSpec{"stribeck",
                                {{"mu_s", 0.5},
                                 {"mu_k", 0.3},
                                 {"stribeck_velocity", 0.01},
                                 {"viscous", 2.0},
                                 {"regularization", 1e-4}},
                                {},
                                {}});
  // Far above v_r: F = −(μ(u) N + c_v u) v̂.
  const Vec2 v(0.012, -0.005);
  const double u = v.norm();
  const TangentialResult r = law.evaluate({v, 20.0, {}}, {});
  EXPECT_NEAR(r.force.norm(), law.mu(u) * 20.0 + 2.0 * u, 1e-12);
  EXPECT_NEAR(r.force.dot(v), -r.force.norm() * u, 1e-14);
  for (const Vec2& w : {v, Vec2(3e-5, 1e-5), Vec2(0.0, 0.0), Vec2(0.2, 0.1)}) {
    test::expect_friction_jacobian(law, {w, 20.0, {}}, {}, 1e-9);
    EXPECT_GE(law.evaluate({w, 20.0, {}}, {}).power, 0.0);
  }
  // Exponent δ < 1: the slope of μ is infinite at 0 but the regularised force stays smooth.
  const StribeckLaw sharp(
      LawSpec{"stribeck",
              {{"mu_s", 0.5}, {"mu_k", 0.3}, {"stribeck_velocity", 0.01}, {"exponent", 0.5}},
              {},
              {}});
  EXPECT_TRUE(sharp.evaluate({Vec2::Zero(), 1.0, {}}, {}).d_slip.allFinite());
  test::expect_friction_jacobian(sharp, {Vec2(0.004, 0.003), 1.0, {}}, {}, 1e-9);
}
