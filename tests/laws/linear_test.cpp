#include <coulomb/laws/linear.hpp>

#include "laws/fd.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace coulomb;

TEST(Linear, FrequencyConversionMatchesDefinitions) {
  // k = m (2πf)², c = 2ζ m (2πf): check by the inverse relations f = √(k/m)/(2π), ζ = c/(2√(km)).
  const SpringDamper sd = spring_damper_from_frequency(30.0, 0.2, 2.5);
  EXPECT_NEAR(std::sqrt(sd.stiffness / 2.5) / (2 * kPi), 30.0, 1e-12);
  EXPECT_NEAR(sd.damping / (2 * std::sqrt(sd.stiffness * 2.5)), 0.2, 1e-14);
  const LinearNormalLaw law(
      LawSpec{"linear", {{"frequency", 30.0}, {"damping_ratio", 0.2}, {"mass", 2.5}}, {}, {}});
  EXPECT_DOUBLE_EQ(law.parameters().stiffness, sd.stiffness);
  EXPECT_THROW(LinearNormalLaw(LawSpec{
                   "linear", {{"frequency", 30.0}, {"stiffness", 1.0}, {"mass", 1}}, {}, {}}),
               LawError);
  EXPECT_THROW(LinearNormalLaw(LawSpec{"linear", {{"frequency", 30.0}}, {}, {}}), LawError);
}

TEST(Linear, ForceDerivativesAndTheDashpotNeverPulls) {
  const LinearNormalLaw law(1e4, 50.0);
  EXPECT_EQ(law.evaluate(-1e-3, 1.0, {}).force, 0.0);
  EXPECT_DOUBLE_EQ(law.evaluate(2e-3, 0.1, {}).force, 1e4 * 2e-3 + 50.0 * 0.1);
  test::expect_normal_derivatives(law, 2e-3, 0.1, {});
  test::expect_normal_derivatives(law, 2e-3, -0.1, {});
  // k δ + c δ̇ = 20 − 50 < 0: no pull, zero force and zero derivatives.
  const NormalResult r = law.evaluate(2e-3, -1.0, {});
  EXPECT_EQ(r.force, 0.0);
  EXPECT_EQ(r.d_delta, 0.0);
  EXPECT_GT(r.power, 0.0);
}

TEST(Linear, PowerIsTheDampingPartAndEnergyIsConserved) {
  const LinearNormalLaw law(1e4, 50.0);
  EXPECT_DOUBLE_EQ(law.evaluate(1e-3, -0.2, {}).power, 50.0 * 0.04);
  EXPECT_DOUBLE_EQ(law.potential(1e-3, {}), 0.5 * 1e4 * 1e-6);
  // Undamped oscillator, one period with RK4: energy returns to its initial value.
  const LinearNormalLaw spring(1e4, 0.0);
  const double m = 1.0, w = std::sqrt(1e4 / m);
  double d = 0.0, v = 1.0;
  const int n = 20000;
  const double h = (kPi / w) / n;  // half a period in contact
  auto acc = [&](double dd, double vv) { return -spring.evaluate(dd, vv, {}).force / m; };
  for (int i = 0; i < n; ++i) {
    const double k1d = v, k1v = acc(d, v);
    const double k2d = v + 0.5 * h * k1v, k2v = acc(d + 0.5 * h * k1d, v + 0.5 * h * k1v);
    const double k3d = v + 0.5 * h * k2v, k3v = acc(d + 0.5 * h * k2d, v + 0.5 * h * k2v);
    const double k4d = v + h * k3v, k4v = acc(d + h * k3d, v + h * k3v);
    d += h / 6 * (k1d + 2 * k2d + 2 * k3d + k4d);
    v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  // After half a period: δ back to 0 and δ̇ = −1 (RK4 error O(h⁴) ≈ 1e-15 here; 1e-9 margin).
  EXPECT_NEAR(d, 0.0, 1e-9);
  EXPECT_NEAR(v, -1.0, 1e-9);
}
