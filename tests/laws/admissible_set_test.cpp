// Projections onto the admissible sets: idempotent, non-expansive, variational inequality.
#include <coulomb/laws/admissible_set.hpp>
#include <coulomb/laws/coulomb.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace coulomb;

namespace {
// Checks the three defining properties of a Euclidean projection P onto a closed convex set C,
// with `sample()` giving points of C. Tolerance 1e-12 relative: the projections are closed forms
// or bisections to round-off.
template <class V, class Project, class Sample>
void check_projection(Project project, Sample sample, std::mt19937& rng, double spread) {
  std::normal_distribution<double> g(0.0, spread);
  for (int trial = 0; trial < 300; ++trial) {
    V x, y;
    for (int i = 0; i < x.size(); ++i) x[i] = g(rng), y[i] = g(rng);
    const V px = project(x), py = project(y);
    const double tol = 1e-12 * (1.0 + x.norm() + y.norm());
    EXPECT_LE((project(px) - px).norm(), tol);          // idempotent
    EXPECT_LE((px - py).norm(), (x - y).norm() + tol);  // non-expansive
    for (int k = 0; k < 20; ++k) {
      const V z = sample(rng);
      EXPECT_LE((x - px).dot(z - px), tol * (1.0 + z.norm()));  // variational inequality
    }
  }
}
}  // namespace

TEST(AdmissibleSet, CircularCone) {
  std::mt19937 rng(42);
  for (double mu : {0.0, 0.3, 1.0, 2.5}) {
    const CircularCone k{mu};
    std::uniform_real_distribution<double> u(0.0, 1.0);
    auto sample = [&](std::mt19937& r) {
      const double n = 3.0 * u(r), a = 2 * kPi * u(r), s = u(r);
      return Vec3(n, mu * n * s * std::cos(a), mu * n * s * std::sin(a));
    };
    check_projection<Vec3>([&](const Vec3& x) { return k.project(x); }, sample, rng, 2.0);
    EXPECT_TRUE(k.contains(k.project(Vec3(1.0, 5.0, -2.0)), 1e-14));
  }
  // Closed-form case: μ = 1, x = (0, 2, 0) → (1, 1, 0).
  EXPECT_TRUE(CircularCone{1.0}.project(Vec3(0, 2, 0)).isApprox(Vec3(1, 1, 0), 1e-15));
}

TEST(AdmissibleSet, EllipticConeAndReductionToCircular) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (const Vec2& mu : {Vec2(0.6, 0.2), Vec2(1.5, 0.1), Vec2(0.4, 0.0)}) {
    const EllipticCone k{mu[0], mu[1]};
    auto sample = [&](std::mt19937& r) {
      const double n = 3.0 * u(r), a = 2 * kPi * u(r), s = u(r);
      return Vec3(n, mu[0] * n * s * std::cos(a), mu[1] * n * s * std::sin(a));
    };
    check_projection<Vec3>([&](const Vec3& x) { return k.project(x); }, sample, rng, 2.0);
  }
  // Equal coefficients: identical to the circular cone's closed form.
  const EllipticCone e{0.7, 0.7};
  const CircularCone c{0.7};
  std::normal_distribution<double> g(0.0, 1.0);
  for (int i = 0; i < 100; ++i) {
    const Vec3 x(g(rng), g(rng), g(rng));
    EXPECT_LE((e.project(x) - c.project(x)).norm(), 1e-13 * (1 + x.norm()));
  }
}

TEST(AdmissibleSet, IntervalConeForPivotingAndSoftFinger) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (double h : {0.0, 0.01, 0.5}) {
    const IntervalCone k{h};
    auto sample = [&](std::mt19937& r) {
      const double n = 2.0 * u(r);
      return Vec2(n, h * n * (2 * u(r) - 1));
    };
    check_projection<Vec2>([&](const Vec2& x) { return k.project(x); }, sample, rng, 1.0);
  }
  EXPECT_EQ(project_normal(-1.0), 0.0);
  EXPECT_EQ(project_normal(2.0), 2.0);
}

// Zero coefficients: the cones become half-lines {n >= 0, rest 0}, projection (max(n, 0), 0...).
// The corner x_T = 0, x_N < 0 (where ‖x_T‖ <= μ x_N reads 0 <= 0) is not reached by the random
// samples above, so it is checked here: it projects to the apex.
TEST(AdmissibleSet, ZeroCoefficientsGiveTheHalfLine) {
  for (const Vec3& x : {Vec3(-2.0, 0.0, 0.0), Vec3(-2.0, 1.0, -1.0), Vec3(0.0, 0.0, 0.0)}) {
    EXPECT_EQ(CircularCone{0.0}.project(x), Vec3::Zero()) << x.transpose();
    EXPECT_EQ((EllipticCone{0.0, 0.0}.project(x)), Vec3::Zero()) << x.transpose();
  }
  EXPECT_EQ(CircularCone{0.0}.project(Vec3(3.0, 1.0, 2.0)), (Vec3(3.0, 0.0, 0.0)));
  EXPECT_EQ((EllipticCone{0.0, 0.0}.project(Vec3(3.0, 1.0, 2.0))), (Vec3(3.0, 0.0, 0.0)));
  // One zero coefficient: the 2-D cone in the other component, and its corner.
  EXPECT_EQ((EllipticCone{0.4, 0.0}.project(Vec3(-2.0, 0.0, 0.0))), Vec3::Zero());
  EXPECT_EQ((EllipticCone{0.0, 0.4}.project(Vec3(-2.0, 0.0, 0.0))), Vec3::Zero());
  for (const Vec2& x : {Vec2(-2.0, 0.0), Vec2(-2.0, 1.0), Vec2(0.0, 0.0)}) {
    EXPECT_EQ(IntervalCone{0.0}.project(x), Vec2::Zero()) << x.transpose();
  }
  EXPECT_EQ(IntervalCone{0.0}.project(Vec2(3.0, -1.0)), (Vec2(3.0, 0.0)));
  // With h > 0 the same corner is in the polar cone: the apex as well.
  EXPECT_EQ(IntervalCone{0.5}.project(Vec2(-2.0, 0.0)), Vec2::Zero());
}

TEST(AdmissibleSet, FrictionConeSelectsStaticOrKinetic) {
  const CoulombLaw law(0.5, 0.3);
  EXPECT_EQ(friction_cone(law, {}).mu1, 0.5);
  FrictionMemory slid;
  slid.previous_slip = Vec2(1, 0);
  EXPECT_EQ(friction_cone(law, slid).mu2, 0.3);
}
