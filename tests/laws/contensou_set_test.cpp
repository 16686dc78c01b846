// The set-valued Contensou laws: projections onto the ellipsoid and the exact limit surface.
#include <coulomb/laws/contensou_set.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace coulomb;

namespace {
Eigen::Vector3d as3(const ForceMoment& f, double ell) {
  return {f.force[0], f.force[1], f.moment / ell};
}
// Idempotence, non-expansiveness and the variational inequality in the metric (F, M/ℓ).
// The exact surface's projection converges to 1e-14 (contensou.hpp); tolerance 1e-10 relative.
template <class Set, class Sample>
void check(const Set& set, double ell, Sample sample, std::mt19937& rng) {
  std::normal_distribution<double> g(0.0, 1.5 * 10.0);
  for (int trial = 0; trial < 200; ++trial) {
    const ForceMoment x{Vec2(g(rng), g(rng)), g(rng) * ell}, y{Vec2(g(rng), g(rng)), g(rng) * ell};
    const ForceMoment px = set.project(x), py = set.project(y);
    const double tol = 1e-10 * (10.0 + as3(x, ell).norm() + as3(y, ell).norm());
    EXPECT_LE((as3(set.project(px), ell) - as3(px, ell)).norm(), tol);
    EXPECT_LE((as3(px, ell) - as3(py, ell)).norm(), (as3(x, ell) - as3(y, ell)).norm() + tol);
    for (int k = 0; k < 10; ++k) {
      const ForceMoment z = sample(rng);
      EXPECT_LE((as3(x, ell) - as3(px, ell)).dot(as3(z, ell) - as3(px, ell)), tol * 10.0);
    }
  }
}
}  // namespace

TEST(ContensouSet, EllipsoidProjectionInSeveralMetrics) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double a = 0.01, abar = contensou_moment_length(contensou::Pressure::hertz) * a;
  EXPECT_NEAR(abar, 3 * kPi / 16 * a, 1e-17);
  for (double ell : {abar, a, 5 * a}) {
    const ContensouEllipsoid e{10.0, abar, ell};
    auto sample = [&](std::mt19937& r) {
      // A point of the ellipsoid: a point of the unit ball scaled.
      Eigen::Vector3d d(u(r) - 0.5, u(r) - 0.5, u(r) - 0.5);
      d *= u(r) / d.norm();
      return ForceMoment{10.0 * Vec2(d[0], d[1]), 10.0 * abar * d[2]};
    };
    check(e, ell, sample, rng);
  }
  // In its own metric (ℓ = ā) the ellipsoid is a ball: radial projection.
  const ContensouEllipsoid ball{2.0, 0.5, 0.0};
  const ForceMoment p = ball.project({Vec2(3.0, 0.0), 0.5 * 4.0});
  EXPECT_NEAR(p.force[0], 2.0 * 0.6, 1e-14);
  EXPECT_NEAR(p.moment, 0.5 * 2.0 * 0.8, 1e-14);
}

TEST(ContensouSet, ExactLimitSurfaceProjection) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (auto pressure : {contensou::Pressure::hertz, contensou::Pressure::uniform}) {
    const double a = 0.02;
    const ContensouLimitSet set{10.0, a, pressure};
    auto sample = [&](std::mt19937& r) {
      // Points of the set: a boundary point (max dissipation of a random direction) scaled by s
      // ≤ 1.
      const double th = 2 * kPi * u(r);
      const ForceMoment b = set.max_dissipation(Vec2(std::cos(th), std::sin(th)) * (4 * u(r) - 2),
                                                (2 * u(r) - 1) * 100.0);
      const double s = u(r);
      return ForceMoment{s * b.force, s * b.moment};
    };
    check(set, a, sample, rng);
  }
}

TEST(ContensouSet, ExactSurfaceLiesInsideTheEllipsoidAndTouchesItAtTheEnds) {
  const double a = 1.0;
  for (auto pressure : {contensou::Pressure::hertz, contensou::Pressure::uniform}) {
    const ContensouLimitSet exact{1.0, a, pressure};
    const ContensouEllipsoid ell{1.0, contensou_moment_length(pressure) * a, 0.0};
    // Pure spin: M = −ā sign ω; pure slide: F = −v̂; and in between strictly inside (contensou.md:
    // F² + (m/m0)² = 0.9213 Hertz, 0.9006 uniform at ε = 1, to the 4 digits printed there).
    const ForceMoment spin = exact.max_dissipation(Vec2::Zero(), 3.0);
    EXPECT_NEAR(spin.moment, -ell.moment_length, 1e-12);
    const ForceMoment slide = exact.max_dissipation(Vec2(0.0, 2.0), 0.0);
    EXPECT_NEAR(slide.force[1], -1.0, 1e-12);
    const ForceMoment mid = exact.max_dissipation(Vec2(1.0, 0.0), 1.0);  // ε = 1
    const double r2 = mid.force.squaredNorm() + std::pow(mid.moment / ell.moment_length, 2);
    EXPECT_NEAR(r2, pressure == contensou::Pressure::hertz ? 0.9213 : 0.9006, 5e-5);
    EXPECT_TRUE(ell.contains(mid));
    EXPECT_TRUE(exact.contains(mid, 1e-10));
  }
}
