// The SUNDIALS integrators behind OdeIntegrator (coulomb/compliant/integrator.hpp): each method
// against closed-form solutions, root finding (location, direction), restarts of another size,
// the analytic Jacobian's use, failures, and the statistics.
#include <coulomb/compliant/integrator.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

namespace coulomb {
namespace {

// A system from lambdas.
struct Lambda final : OdeSystem {
  std::function<void(double, std::span<const double>, std::span<double>)> f;
  std::function<void(double, std::span<const double>, std::span<double>)> jac;
  std::function<void(double, std::span<const double>, std::span<double>)> g;
  int jacobians = 0;
  int fail_after = -1;  // rhs fails (−1) after this many calls
  int calls = 0;
  int rhs(double t, std::span<const double> y, std::span<double> d) override {
    if (fail_after >= 0 && ++calls > fail_after) return -1;
    f(t, y, d);
    return 0;
  }
  int jacobian(double t, std::span<const double> y, std::span<double> j) override {
    ++jacobians;
    jac(t, y, j);
    return 0;
  }
  int roots(double t, std::span<const double> y, std::span<double> out) override {
    g(t, y, out);
    return 0;
  }
};

// The harmonic oscillator ÿ = −ω² y, y(0) = 1, ẏ(0) = 0: y = cos ωt.
Lambda oscillator(double w) {
  Lambda s;
  s.f = [w](double, std::span<const double> y, std::span<double> d) {
    d[0] = y[1];
    d[1] = -w * w * y[0];
  };
  s.jac = [w](double, std::span<const double>, std::span<double> j) {
    j[2] = 1.0;     // (0, 1)
    j[1] = -w * w;  // (1, 0)
  };
  s.g = [](double, std::span<const double>, std::span<double>) {};
  return s;
}

class EveryMethod : public ::testing::TestWithParam<Integrator> {};

TEST_P(EveryMethod, OscillatorAgainstItsClosedForm) {
  Lambda s = oscillator(3.0);
  OdeIntegrator integrator(s);
  std::vector<double> y = {1.0, 0.0};
  integrator.start({GetParam(), 1e-10, 1e-12, 0.0, true}, 0.0, y, {}, 0.0);
  // Dense output at many times: each within the global error of the tolerance (a few hundred
  // steps, each with a local error ≤ rtol: 1e-7 with margin).
  double t = 0.0;
  for (int k = 1; k <= 20; ++k) {
    const double t_out = 0.1 * k;
    ASSERT_EQ(integrator.advance(t_out, y, t), OdeIntegrator::Outcome::reached);
    EXPECT_EQ(t, t_out);
    EXPECT_NEAR(y[0], std::cos(3.0 * t_out), 1e-7) << t_out;
    EXPECT_NEAR(y[1], -3.0 * std::sin(3.0 * t_out), 3e-7) << t_out;
  }
  const IntegratorStatistics st = integrator.statistics();
  EXPECT_GT(st.steps, 10);
  EXPECT_GE(st.rhs_evaluations, st.steps);
  EXPECT_EQ(st.restarts, 1);
  EXPECT_GT(st.last_step, 0.0);
  if (GetParam() == Integrator::erk) {
    EXPECT_EQ(st.jacobian_evaluations, 0);
    EXPECT_EQ(s.jacobians, 0);
  } else {
    // The analytic Jacobian is the one Newton uses.
    EXPECT_GT(st.jacobian_evaluations, 0);
    EXPECT_EQ(s.jacobians, st.jacobian_evaluations);
    EXPECT_GT(st.newton_iterations, 0);
  }
}

TEST_P(EveryMethod, DifferenceQuotientJacobianWhenAsked) {
  Lambda s = oscillator(2.0);
  OdeIntegrator integrator(s);
  std::vector<double> y = {1.0, 0.0};
  integrator.start({GetParam(), 1e-9, 1e-12, 0.0, false}, 0.0, y, {}, 0.0);
  double t = 0.0;
  ASSERT_EQ(integrator.advance(1.0, y, t), OdeIntegrator::Outcome::reached);
  EXPECT_NEAR(y[0], std::cos(2.0), 1e-6);
  EXPECT_EQ(s.jacobians, 0);
}

TEST_P(EveryMethod, RootOfAFallLocatedAndRestartable) {
  // Free fall from 1 m: the height reaches 0 at √(2/g).
  const double g = 9.81;
  Lambda s;
  s.f = [g](double, std::span<const double> y, std::span<double> d) {
    d[0] = y[1];
    d[1] = -g;
  };
  s.jac = [](double, std::span<const double>, std::span<double> j) { j[2] = 1.0; };
  s.g = [](double, std::span<const double> y, std::span<double> out) { out[0] = y[0]; };
  OdeIntegrator integrator(s);
  std::vector<double> y = {1.0, 0.0};
  const std::vector<int> directions = {0};
  integrator.start({GetParam(), 1e-10, 1e-12, 0.0, true}, 0.0, y, directions, 0.0);
  double t = 0.0;
  ASSERT_EQ(integrator.advance(2.0, y, t), OdeIntegrator::Outcome::root);
  // Located to the root finder's time tolerance (100 ε (|t| + |h|)) plus the solution's error.
  EXPECT_NEAR(t, std::sqrt(2.0 / g), 1e-9);
  EXPECT_NEAR(y[0], 0.0, 1e-9);
  EXPECT_EQ(integrator.roots_found()[0], -1);  // decreasing
  // Restart there with the velocity reversed (a perfect bounce) and a third component: the
  // apex comes back at 2 √(2/g).
  std::vector<double> y3 = {0.0, -y[1], 5.0};
  s.f = [g](double, std::span<const double> z, std::span<double> d) {
    d[0] = z[1];
    d[1] = -g;
    d[2] = 0.0;
  };
  s.jac = [](double, std::span<const double>, std::span<double> j) { j[3] = 1.0; };
  s.g = [](double, std::span<const double> z, std::span<double> out) { out[0] = z[1]; };
  const std::vector<int> down = {-1};
  const double t_bounce = t;
  integrator.start({GetParam(), 1e-10, 1e-12, 0.0, true}, t, y3, down, 0.0);
  ASSERT_EQ(integrator.advance(2.0, y3, t), OdeIntegrator::Outcome::root);
  EXPECT_NEAR(t - t_bounce, std::sqrt(2.0 / g), 1e-9);
  EXPECT_NEAR(y3[0], 1.0, 1e-8);
  EXPECT_EQ(y3[2], 5.0);
  EXPECT_EQ(integrator.statistics().restarts, 2);
  EXPECT_EQ(integrator.statistics().root_stops, 2);
}

INSTANTIATE_TEST_SUITE_P(Integrators, EveryMethod,
                         ::testing::Values(Integrator::erk, Integrator::dirk, Integrator::bdf),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(OdeIntegrator, RootDirectionSelectsTheCrossing) {
  // y = sin t crosses 0 upwards at 2π and downwards at π: asking for increasing crossings only
  // skips π.
  Lambda s;
  s.f = [](double t, std::span<const double>, std::span<double> d) { d[0] = std::cos(t); };
  s.jac = [](double, std::span<const double>, std::span<double>) {};
  s.g = [](double, std::span<const double> y, std::span<double> out) { out[0] = y[0]; };
  OdeIntegrator integrator(s);
  std::vector<double> y = {0.0};
  const std::vector<int> up = {1};
  integrator.start({Integrator::erk, 1e-11, 1e-13, 0.0, true}, 0.5,
                   std::vector<double>{std::sin(0.5)}, up, 0.0);
  double t = 0.0;
  ASSERT_EQ(integrator.advance(10.0, y, t), OdeIntegrator::Outcome::root);
  EXPECT_NEAR(t, 2.0 * kPi, 1e-9);
  EXPECT_EQ(integrator.roots_found()[0], 1);
}

TEST(OdeIntegrator, StiffDecayTakesFewBdfSteps) {
  // ẏ = −λ (y − cos t), λ = 1e5: y follows cos t after a fast transient. BDF's steps are set by
  // the slow solution; the explicit method's by stability (h ≲ 3.3/λ): counts, not times.
  const double lambda = 1e5;
  auto make = [lambda] {
    Lambda s;
    s.f = [lambda](double t, std::span<const double> y, std::span<double> d) {
      d[0] = -lambda * (y[0] - std::cos(t));
    };
    s.jac = [lambda](double, std::span<const double>, std::span<double> j) { j[0] = -lambda; };
    s.g = [](double, std::span<const double>, std::span<double>) {};
    return s;
  };
  std::int64_t steps[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    Lambda s = make();
    OdeIntegrator integrator(s);
    std::vector<double> y = {0.0};
    integrator.start({k == 0 ? Integrator::erk : Integrator::bdf, 1e-8, 1e-10, 0.0, true}, 0.0, y,
                     {}, 0.0);
    double t = 0.0;
    ASSERT_EQ(integrator.advance(1.0, y, t), OdeIntegrator::Outcome::reached);
    // After the transient, y = (λ² cos t + λ sin t)/(1 + λ²): 1e-6 covers the tolerances.
    const double l2 = lambda * lambda;
    EXPECT_NEAR(y[0], (l2 * std::cos(1.0) + lambda * std::sin(1.0)) / (1.0 + l2), 1e-6);
    steps[k] = integrator.statistics().steps;
  }
  EXPECT_LT(10 * steps[1], steps[0]);
}

TEST(OdeIntegrator, FailureIsReportedWithSundialsMessage) {
  Lambda s = oscillator(1.0);
  s.fail_after = 20;
  OdeIntegrator integrator(s);
  std::vector<double> y = {1.0, 0.0};
  integrator.start({Integrator::erk, 1e-8, 1e-10, 0.0, true}, 0.0, y, {}, 0.0);
  double t = 0.0;
  EXPECT_EQ(integrator.advance(10.0, y, t), OdeIntegrator::Outcome::failure);
  EXPECT_FALSE(integrator.error().empty());
}

TEST(OdeIntegrator, MaxStepBoundsTheSteps) {
  Lambda s;
  s.f = [](double, std::span<const double>, std::span<double> d) { d[0] = 1.0; };
  s.jac = [](double, std::span<const double>, std::span<double>) {};
  s.g = [](double, std::span<const double>, std::span<double>) {};
  OdeIntegrator integrator(s);
  std::vector<double> y = {0.0};
  integrator.start({Integrator::erk, 1e-8, 1e-10, 0.01, true}, 0.0, y, {}, 0.0);
  double t = 0.0;
  ASSERT_EQ(integrator.advance(1.0, y, t), OdeIntegrator::Outcome::reached);
  EXPECT_GE(integrator.statistics().steps, 100);
  EXPECT_LE(integrator.statistics().last_step, 0.01);
  EXPECT_NEAR(y[0], 1.0, 1e-12);
}

}  // namespace
}  // namespace coulomb
