#include <coulomb/laws/rolling.hpp>

#include <gtest/gtest.h>

#include <cmath>

using namespace coulomb;

TEST(Rolling, OpposesRollingAndCapsAtKN) {
  const RollingFrictionLaw law(2e-3, 1e-3);
  const Vec2 w(3.0, -4.0);
  const RollingResult r = law.evaluate(w, 50.0);
  EXPECT_NEAR(r.moment.norm(), 2e-3 * 50.0, 1e-15);
  EXPECT_NEAR(r.moment.dot(w), -0.1 * 5.0, 1e-14);
  EXPECT_NEAR(r.power, 0.5, 1e-14);
  // Finite-difference Jacobians (inside and outside the regularisation band).
  for (const Vec2& om : {w, Vec2(3e-4, 4e-4)}) {
    const RollingResult a = law.evaluate(om, 50.0);
    const double h = 1e-9;
    for (int j = 0; j < 2; ++j) {
      Vec2 p = om, m = om;
      p[j] += h;
      m[j] -= h;
      const Vec2 col = (law.evaluate(p, 50.0).moment - law.evaluate(m, 50.0).moment) / (2 * h);
      for (int i = 0; i < 2; ++i)
        EXPECT_NEAR(a.d_omega(i, j), col[i], 1e-6 * std::max(1.0, a.d_omega.cwiseAbs().maxCoeff()));
    }
    const Vec2 dn =
        (law.evaluate(om, 50.0 + 1e-4).moment - law.evaluate(om, 50.0 - 1e-4).moment) / 2e-4;
    EXPECT_TRUE(a.d_normal.isApprox(dn, 1e-8));
  }
}

TEST(Rolling, SphereDecelerationClosedForm) {
  // A solid sphere (I = 2/5 m R²) rolling without slip on a plane with rolling friction k:
  // dv/dt = −(5/7) g k/R (reference contensou.md §3, case 4). Its equation of motion:
  // (m + I/R²) dv/dt = −M/R with M = k m g, so dv/dt = −k g/(R (1 + 2/5)).
  const double m = 1.3, R = 0.05, g = 9.81, k = 1e-3;
  const RollingFrictionLaw law(k, 1e-6);
  const double moment = law.evaluate(Vec2(10.0, 0.0), m * g).moment.norm();
  const double dvdt = -moment / R / (m + 0.4 * m);
  EXPECT_NEAR(dvdt, -(5.0 / 7.0) * g * k / R, 1e-14);
}
