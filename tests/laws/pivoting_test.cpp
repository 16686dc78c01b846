#include <coulomb/laws/pivoting.hpp>

#include <gtest/gtest.h>

#include <cmath>

using namespace coulomb;

TEST(Pivoting, OpposesSpinCapsAtHNAndDerivatives) {
  const PivotingFrictionLaw law(3e-3, 1e-2);
  for (double w : {-7.0, -5e-3, 0.0, 4e-3, 9.0}) {
    const PivotingResult r = law.evaluate(w, 20.0);
    EXPECT_LE(std::abs(r.moment), 3e-3 * 20.0 + 1e-15);
    EXPECT_LE(r.moment * w, 0.0);
    EXPECT_NEAR(r.power, -r.moment * w, 1e-15);
    if (w != 0.0) {  // (the linear form has a kink at |ω| = ω_r, not sampled here)
      const double h = 1e-8;
      EXPECT_NEAR(r.d_omega,
                  (law.evaluate(w + h, 20.0).moment - law.evaluate(w - h, 20.0).moment) / (2 * h),
                  1e-6);
    }
    EXPECT_NEAR(r.d_normal,
                (law.evaluate(w, 20.0 + 1e-4).moment - law.evaluate(w, 20.0 - 1e-4).moment) / 2e-4,
                1e-10);
  }
  EXPECT_NEAR(law.evaluate(9.0, 20.0).moment, -0.06, 1e-15);
}

TEST(Pivoting, SpinDecayOfASphereClosedForm) {
  // Sphere spinning on a plane: dω/dt = −h m g/I = −5 h g/(2 R²) (contensou.md §3, case 2).
  const double m = 0.17, R = 0.0286, g = 9.81, h = 5e-4;
  const PivotingFrictionLaw law(h, 1e-9);
  const double I = 0.4 * m * R * R;
  EXPECT_NEAR(law.evaluate(30.0, m * g).moment / I, -2.5 * h * g / (R * R), 1e-10);
}

TEST(Pivoting, SoftFingerIsTheSameSetWithHEqualsRadiusTimesMu) {
  const PivotingFrictionLaw finger(LawSpec{"", {{"radius", 0.02}}, {}, {}}, 0.5);
  EXPECT_DOUBLE_EQ(finger.coefficient(), 0.01);
  EXPECT_NEAR(finger.evaluate(-3.0, 4.0).moment, 0.04, 1e-15);
  EXPECT_THROW(PivotingFrictionLaw(LawSpec{"", {{"radius", 0.02}}, {}, {}}, -0.5), LawError);
  EXPECT_THROW(PivotingFrictionLaw(LawSpec{"", {{"h", 0.02}}, {}, {}}, 0.5), LawError);
}
