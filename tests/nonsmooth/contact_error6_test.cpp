// Tests of the laws of the wrench problem and its error measure (src/nonsmooth/contact_error6.cpp):
// the ellipsoid length, embedding of the 3-unknown problem (the error must equal that of the force
// problem), the cone projection (idempotent, variational inequality, against a brute-force
// minimisation) and the support functions (against sampled maxima).
#include <coulomb/laws/admissible_set.hpp>
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/problem.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "nonsmooth/fclib_data.hpp"

namespace coulomb {
namespace {

using Law = ContactLaw6;
using Vec5 = Eigen::Matrix<double, 5, 1>;

std::vector<Law> sample_laws() {
  std::vector<Law> laws(6);
  laws[0].mu = 0.4;  // plain Coulomb
  laws[1].mu = 0.3;
  laws[1].h = 0.02;
  laws[1].k = 0.01;
  laws[2].mu = 0.5;
  laws[2].coupling = Law::Coupling::ellipsoid;
  laws[2].a = 0.03;
  laws[2].k = 0.004;
  laws[3].mu = 0.6;
  laws[3].coupling = Law::Coupling::exact;
  laws[3].a = 0.05;
  laws[4] = laws[3];
  laws[4].pressure = contensou::Pressure::uniform;
  laws[4].k = 0.02;
  laws[5].mu = 0.0;  // frictionless, pivoting only
  laws[5].h = 0.1;
  return laws;
}

// A point of N C for the law (scaled variables are not needed: raw y, checked by the definition).
bool in_set(const Law& law, double n, const Vec5& y, double tol) {
  const double f = y.head<2>().norm(), m = std::abs(y[2]), mt = y.tail<2>().norm();
  if (mt > law.k * n + tol) return false;
  switch (law.coupling) {
    case Law::Coupling::none:
      return f <= law.mu * n + tol && m <= law.h * n + tol;
    case Law::Coupling::ellipsoid: {
      const double ab = law.ellipsoid_length();
      return std::hypot(f, m / ab) <= law.mu * n + tol;
    }
    case Law::Coupling::exact: {
      if (law.mu * n == 0.0) return f <= tol && m <= tol;
      const contensou::Vec3c z(y[0] / (law.mu * n), y[1] / (law.mu * n),
                               y[2] / (law.mu * n * law.a));
      return (contensou::project_limit_surface(z, law.pressure) - z).norm() * law.mu * n <= tol;
    }
  }
  return false;
}

TEST(WrenchError, EllipsoidLengthDefaultsToM0TimesA) {
  Law law;
  law.coupling = Law::Coupling::ellipsoid;
  law.a = 0.01;
  EXPECT_DOUBLE_EQ(law.ellipsoid_length(), 3.0 * kPi / 16.0 * 0.01);
  law.pressure = contensou::Pressure::uniform;
  EXPECT_DOUBLE_EQ(law.ellipsoid_length(), 2.0 / 3.0 * 0.01);
  law.abar = 0.5;
  EXPECT_EQ(law.ellipsoid_length(), 0.5);
  EXPECT_EQ(law.moment_scale(), 0.5);
}

TEST(WrenchError, EmbeddedFclibProblemHasTheSameErrorAndVelocity) {
  // Zero-padded W with h = k = 0: the error of any r (moments zero) is contact_error exactly.
  const ForceProblem p3 = read_problem<kForce>(testing::fclib_dir() + "/Capsules-i100-889.hdf5");
  const WrenchProblem p6 = embed_problem(p3);
  p6.validate_structure();
  std::mt19937_64 rng(7);
  std::normal_distribution<double> g;
  std::vector<Vec3> r3(p3.contact_count), u3;
  std::vector<Vec6> r6(p3.contact_count), u6;
  for (int i = 0; i < p3.contact_count; ++i) {
    r3[i] = Vec3(std::abs(g(rng)), g(rng), g(rng)) * 1e-3;
    r6[i].setZero();
    r6[i].head<3>() = r3[i];
  }
  p3.velocity(r3, u3);
  p6.velocity(r6, u6);
  // Products of different sizes may sum in another order: round-off only.
  for (int i = 0; i < p3.contact_count; ++i) {
    EXPECT_LE((u6[i].head<3>() - u3[i]).norm(), 1e-14 * (1.0 + u3[i].norm()));
  }
  const double e3 = contact_error(p3, r3, u3);
  const double e6 = contact_error(p6, r6, u6);
  // Same sums in the same order except the projection's root search: 1e-13 relative.
  EXPECT_NEAR(e6, e3, 1e-13 * e3);
  // Round trip of the restriction.
  const ForceProblem back = restrict_problem(p6);
  EXPECT_EQ(back.dense_w(), p3.dense_w());
  EXPECT_EQ(back.laws, p3.laws);
}

// Maximum of w·c over a fine grid of the boundary of each factor of C (the factors are independent,
// so the support is the sum of the factor maxima). The exact limit set is sampled through the
// closed forms (F(ε), m(ε)) and the slip direction, not through the projection code.
double sampled_support(const Law& law, const Vec5& w) {
  constexpr int kn = 2000;
  double roll = 0.0;
  double slide = 0.0;
  for (int i = 0; i < kn; ++i) {
    const double t = 2.0 * kPi * i / kn;
    roll = std::max(roll, law.k * (w[3] * std::cos(t) + w[4] * std::sin(t)));
  }
  switch (law.coupling) {
    case Law::Coupling::none:
      for (int i = 0; i < kn; ++i) {
        const double t = 2.0 * kPi * i / kn;
        slide = std::max(slide, law.mu * (w[0] * std::cos(t) + w[1] * std::sin(t)));
      }
      return slide + law.h * std::abs(w[2]) + roll;
    case Law::Coupling::ellipsoid:
    case Law::Coupling::exact:
      for (int i = 0; i < kn; ++i) {
        const double t = 2.0 * kPi * i / kn;
        for (int j = 0; j <= 400; ++j) {
          double f = 0.0, m = 0.0;
          if (law.coupling == Law::Coupling::ellipsoid) {
            const double phi = kPi * j / 400;
            f = std::sin(phi);
            m = std::cos(phi) * law.ellipsoid_length();
          } else {
            const double th = 0.5 * kPi * j / 400;  // ε = tan θ
            const contensou::Resultant res =
                contensou::exact(j == 400 ? kInf : std::tan(th), law.pressure);
            f = res.F;
            m = res.m * law.a;
          }
          const double wf = w[0] * std::cos(t) + w[1] * std::sin(t);
          slide = std::max(slide, law.mu * (f * wf + std::abs(m * w[2])));
        }
      }
      return slide + roll;
  }
  return 0.0;
}

TEST(WrenchError, SupportFunctionIsTheMaximumOverTheSet) {
  // σ_C(w) against the sampled maximum: σ ≥ sample (to round-off) and within the grid's
  // resolution above it (angles 2π/2000, profile steps π/800: second order, 1e-5 relative).
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g;
  for (const Law& law : sample_laws()) {
    for (int trial = 0; trial < 5; ++trial) {
      Vec5 w;
      for (int i = 0; i < 5; ++i) w[i] = g(rng);
      if (trial == 0) w[2] *= 30.0;  // spin-dominated (ε small)
      const double s = support6(law, w);
      const double sampled = sampled_support(law, w);
      EXPECT_GE(s, sampled - 1e-12 * s);
      EXPECT_LE(s, sampled * (1.0 + 1e-5) + 1e-14);
    }
  }
}

TEST(WrenchError, ConeProjectionIsTheNearestPointOfTheCone) {
  // Scaled variables: K̃ = {(N, ỹ): ỹ ∈ N C̃}. Properties: P(x) ∈ K̃, P(P(x)) = P(x), and
  // (x − P)·(z − P) ≤ 0 for sampled z ∈ K̃ (variational inequality, to round-off 1e-12).
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  for (const Law& law : sample_laws()) {
    const double ell = law.moment_scale();
    for (int trial = 0; trial < 40; ++trial) {
      Vec6 x;
      for (int i = 0; i < 6; ++i) x[i] = g(rng);
      const Vec6 p = project_on_cone6(law, x);
      Vec5 y_raw = p.tail<5>();
      y_raw[2] *= ell;
      ASSERT_GE(p[0], 0.0);
      EXPECT_TRUE(in_set(law, p[0], y_raw, 1e-12));
      EXPECT_LE((project_on_cone6(law, p) - p).norm(), 1e-12);
      for (int k = 0; k < 200; ++k) {
        Vec6 z;
        z[0] = std::abs(g(rng)) * 2.0;
        Vec5 c;
        for (int i = 0; i < 5; ++i) c[i] = g(rng);
        double lo = 0.0, hi = 10.0;
        for (int b = 0; b < 50; ++b) {
          const double mid = 0.5 * (lo + hi);
          (in_set(law, z[0], mid * c, 0.0) ? lo : hi) = mid;
        }
        z.tail<5>() = lo * c;
        z[3] /= ell;
        EXPECT_LE((x - p).dot(z - p), 1e-12 * (1.0 + x.squaredNorm()));
      }
    }
  }
}

// Zero bounds and x_N < 0: the corner where the 3-unknown projection's 0 <= 0 test went wrong
// (contact_error_test.cpp). Here N* comes from g'(0) = −x_N − σ_C(x_y) >= 0 (apex) or the root of
// g', exact for C = {0}: with every bound zero the cone is the half-line, P(x) = (max(x_N, 0), 0).
// One source of truth: where the product set of a contact reduces to one set of
// coulomb/laws/admissible_set.hpp (the other bounds zero, so their components vanish and N is not
// shared), the solver's projection is that set's. Friction alone: the circular cone of μ; rolling
// alone: the circular cone of k in (N, Mt1, Mt2); pivoting alone (ℓ_n = 1 without coupling): the
// interval cone of h. Tolerance 1e-13 relative: closed forms on both sides, a few roundings apart.
TEST(WrenchError, ProjectionAgreesWithTheLawsAdmissibleSets) {
  std::mt19937 rng(7);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    Vec6 x;
    for (int i = 0; i < 6; ++i) x[i] = g(rng);
    const double tol = 1e-13 * (1.0 + x.norm());
    Law friction;
    friction.mu = 0.35;
    Vec6 xf = x;
    xf.tail<3>().setZero();
    const Vec3 pf = CircularCone{friction.mu}.project(xf.head<3>());
    const Vec6 pf6 = project_on_cone6(friction, xf);
    EXPECT_LE((pf6.head<3>() - pf).norm(), tol);
    EXPECT_LE(pf6.tail<3>().norm(), tol);
    EXPECT_EQ(project_on_cone(xf.head<3>(), friction.mu), pf);
    Law rolling;
    rolling.k = 0.02;
    Vec6 xr = x;
    xr.segment<3>(1).setZero();
    const Vec3 pr = CircularCone{rolling.k}.project(Vec3(xr[0], xr[4], xr[5]));
    const Vec6 pr6 = project_on_cone6(rolling, xr);
    EXPECT_LE((Vec3(pr6[0], pr6[4], pr6[5]) - pr).norm(), tol);
    EXPECT_LE(pr6.segment<3>(1).norm(), tol);
    Law pivoting;
    pivoting.h = 0.05;
    ASSERT_EQ(pivoting.moment_scale(), 1.0);
    Vec6 xp = Vec6::Zero();
    xp[0] = x[0];
    xp[3] = x[3];
    const Vec2 pp = IntervalCone{pivoting.h}.project(Vec2(xp[0], xp[3]));
    const Vec6 pp6 = project_on_cone6(pivoting, xp);
    EXPECT_LE((Vec2(pp6[0], pp6[3]) - pp).norm(), tol);
  }
}

TEST(WrenchError, ZeroBoundsGiveTheHalfLineAtEveryCorner) {
  std::vector<Law> laws(4);  // μ = h = k = 0 in every coupling, and a rolling-only law
  laws[1].coupling = Law::Coupling::ellipsoid;
  laws[1].abar = 0.01;
  laws[2].coupling = Law::Coupling::exact;
  laws[2].a = 0.01;
  laws[3].k = 0.02;  // only rolling: the (T, Mn) components are forced to zero
  for (std::size_t i = 0; i < laws.size(); ++i) {
    SCOPED_TRACE(i);
    const Law& law = laws[i];
    Vec6 x = Vec6::Zero();
    x[0] = -2.0;  // x_T = 0, x_N < 0
    EXPECT_EQ(project_on_cone6(law, x), Vec6::Zero());
    x << -2.0, 1.0, -1.0, 0.5, 0.0, 0.0;
    EXPECT_EQ(project_on_cone6(law, x), Vec6::Zero());
    x << 3.0, 1.0, -1.0, 0.5, 0.0, 0.0;
    const Vec6 p = project_on_cone6(law, x);
    EXPECT_NEAR(p[0], 3.0, 4e-15);  // regula falsi on a linear g': exact to a few ulps
    EXPECT_EQ(p.segment<3>(1), Vec3::Zero());
    // A frictionless contact that separates: r = 0, u = (u_N > 0, 0...): residual 0.
    Vec6 u = Vec6::Zero();
    u[0] = 0.5;
    EXPECT_EQ(contact_residual6(law, Vec6::Zero(), u), 0.0);
  }
}

TEST(WrenchError, ResidualVanishesOnlyOnSolutions) {
  // Sliding with maximal dissipation on the product set: r = (1, −0.3, 0, −0.02, 0, 0.01) with
  // u = (0, 2, 0, 5, 0, −1) satisfies the law (friction, pivoting, rolling on their bounds and
  // opposite to their velocities): residual 0. Flipping one moment's sign breaks it.
  Law law;
  law.mu = 0.3;
  law.h = 0.02;
  law.k = 0.01;
  Vec6 r;
  r << 1.0, -0.3, 0.0, -0.02, 0.0, 0.01;
  Vec6 u;
  u << 0.0, 2.0, 0.0, 5.0, 0.0, -1.0;
  EXPECT_LE(contact_residual6(law, r, u), 1e-15);
  Vec6 bad = r;
  bad[3] = 0.02;
  EXPECT_GT(contact_residual6(law, bad, u), 1e-3);
  // Separation with a positive normal velocity and r = 0 is a solution; pressing is not.
  Vec6 u_sep = u;
  u_sep[0] = 0.5;
  EXPECT_EQ(contact_residual6(law, Vec6::Zero(), u_sep), 0.0);
  EXPECT_GT(contact_residual6(law, r, u_sep), 0.1);
}

}  // namespace
}  // namespace coulomb
