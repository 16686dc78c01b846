// Tests of the exact 6-unknown one-contact solve (src/nonsmooth/single_contact6.cpp): closed forms
// for diagonal W (take-off, pivoting, rolling, Coulomb, zero bounds), the Contensou ellipsoid
// against its KKT solution, the exact limit surface against the table of reference contensou.md
// §1, and random coupled W checked on the law itself (Signorini, admissibility, maximal
// dissipation), not on the solver's residual.
#include <coulomb/nonsmooth/solver.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace coulomb {
namespace {

using Law = ContactLaw6;
using Vec5 = Eigen::Matrix<double, 5, 1>;
constexpr double kTol = 1e-14;  // local tolerance of the solves (relative error measure)

Block6 diag6(double n, double t, double p, double r) {
  Block6 w = Block6::Zero();
  w(0, 0) = n;
  w(1, 1) = w(2, 2) = t;
  w(3, 3) = p;
  w(4, 4) = w(5, 5) = r;
  return w;
}

Vec6 vec6(double a, double b, double c, double d, double e, double f) {
  Vec6 v;
  v << a, b, c, d, e, f;
  return v;
}

TEST(SingleContact6, TakeOffGivesZero) {
  Law law;
  law.mu = 0.5;
  law.h = 0.1;
  law.k = 0.1;
  Vec6 r = Vec6::Constant(3.0);
  EXPECT_TRUE(solve_single_contact(diag6(1, 2, 3, 4), vec6(0.2, 1, -1, 5, 2, 2), law, r, kTol));
  EXPECT_EQ(r, Vec6::Zero());
}

TEST(SingleContact6, PurePivotingClosedForm) {
  // W diagonal, q_T = q_Mt = 0: N = −q_N/W_NN, M_n = −sign(q_ωn) min(hN, |q_ωn|/W_nn), F = M_t = 0.
  Law law;
  law.mu = 0.4;
  law.h = 0.01;
  law.k = 0.02;
  const double wn = 2.0, wp = 500.0;
  for (const double qw : {-30.0, -4.0, 3.0, 12.0}) {
    Vec6 r = Vec6::Zero();
    ASSERT_TRUE(
        solve_single_contact(diag6(wn, 3.0, wp, 400.0), vec6(-2.0, 0, 0, qw, 0, 0), law, r, kTol));
    const double n = 1.0;
    const double m = -std::copysign(std::min(law.h * n, std::abs(qw) / wp), qw);
    // Closed forms of two divisions: 2 ulps.
    EXPECT_NEAR(r[0], n, 4e-16);
    EXPECT_NEAR(r[3], m, 4e-16 * law.h);
    EXPECT_EQ(r[1], 0.0);
    EXPECT_EQ(r[2], 0.0);
    EXPECT_NEAR(r.tail<2>().norm(), 0.0, 1e-18);
  }
}

TEST(SingleContact6, RollingDiscAndCoulombDiscClosedForm) {
  // W diagonal: the factors decouple. Each disc: y = −min(cN, ‖q‖/w) q/‖q‖.
  Law law;
  law.mu = 0.3;
  law.h = 0.005;
  law.k = 0.002;
  const Block6 w = diag6(4.0, 5.0, 100.0, 80.0);
  // N = 2; |q_ωn|/w_p = 0.03 > hN, ‖q_r‖/w_r = 0.014 > kN: every factor at its bound.
  const Vec6 q = vec6(-8.0, 3.0, -4.0, 3.0, 1.0, -0.5);
  Vec6 r = Vec6::Zero();
  ASSERT_TRUE(solve_single_contact(w, q, law, r, kTol));
  const double n = 2.0;
  EXPECT_NEAR(r[0], n, 1e-15);
  EXPECT_NEAR(r[1], -law.mu * n * 0.6, 1e-15);
  EXPECT_NEAR(r[2], law.mu * n * 0.8, 1e-15);
  EXPECT_NEAR(r[3], -law.h * n, 1e-17);
  const double qr = std::hypot(1.0, 0.5);
  EXPECT_NEAR(r[4], -law.k * n * 1.0 / qr, 1e-17);
  EXPECT_NEAR(r[5], law.k * n * 0.5 / qr, 1e-17);
  // Rolling sticks when ‖q_r‖/w_r ≤ kN: then ω_t = 0 exactly (M_t = −q_r/w_r).
  const Vec6 q2 = vec6(-8.0, 3.0, -4.0, 3.0, 1e-3, -0.5e-3);
  ASSERT_TRUE(solve_single_contact(w, q2, law, r, kTol));
  EXPECT_NEAR(r[4], -1e-3 / 80.0, 1e-18);
  EXPECT_NEAR(r[5], 0.5e-3 / 80.0, 1e-18);
}

TEST(SingleContact6, ZeroBoundsGiveZeroMomentsAndFreeVelocities) {
  // h = k = 0: moments are 0 whatever q_ω, even with W singular in the moment rows (zero-padded).
  Law law;
  law.mu = 0.3;
  Block6 w = Block6::Zero();
  w(0, 0) = 2.0;
  w(1, 1) = w(2, 2) = 4.0;
  w(0, 1) = w(1, 0) = 0.5;
  Vec6 r = Vec6::Constant(1.0);
  ASSERT_TRUE(solve_single_contact(w, vec6(-2.0, 3.0, -4.0, 7.0, -1.0, 2.0), law, r, kTol));
  EXPECT_EQ(r.tail<3>(), Eigen::Vector3d::Zero());
  EXPECT_GT(r[0], 0.0);
  // The (N, T) part is the 3-unknown solution.
  Vec3 r3 = Vec3::Zero();
  ASSERT_TRUE(solve_single_contact(w.topLeftCorner<3, 3>(), Vec3(-2.0, 3.0, -4.0), 0.3, r3, kTol));
  EXPECT_NEAR((r.head<3>() - r3).norm(), 0.0, 1e-14);
  // μ = 0 with the ellipsoid: F = M_n = 0 (the coupled set is a point), N = −q_N/W_NN.
  law.mu = 0.0;
  law.coupling = Law::Coupling::ellipsoid;
  law.a = 0.01;
  ASSERT_TRUE(
      solve_single_contact(diag6(2, 3, 4, 5), vec6(-2.0, 3.0, -4.0, 7.0, -1.0, 2.0), law, r, kTol));
  EXPECT_EQ(r.tail<5>(), Vec5::Zero());
  EXPECT_NEAR(r[0], 1.0, 1e-16);
}

TEST(SingleContact6, ContensouEllipsoidAgainstKkt) {
  // W diagonal (w_t on the force, w_p on M_n): y minimises ½yᵀDy + q_y·y on the ellipsoid
  // ‖F‖² + (M/ā)² ≤ ρ², ρ = μN. KKT: F = −q_F/(w_t + 2λ), M = −q_M/(w_p + 2λ/ā²), λ ≥ 0 the root
  // of ‖F‖² + (M/ā)² = ρ² (bisection here, independent of the solver's metric).
  Law law;
  law.mu = 0.5;
  law.coupling = Law::Coupling::ellipsoid;
  law.a = 0.02;
  const double ab = law.ellipsoid_length();
  const double wt = 3.0, wp = 2000.0;
  const Vec6 q = vec6(-4.0, 3.0, -1.5, 20.0, 0.0, 0.0);  // N = 2, ρ = 1
  Vec6 r = Vec6::Zero();
  ASSERT_TRUE(solve_single_contact(diag6(2.0, wt, wp, 1.0), q, law, r, kTol));
  double lo = 0.0, hi = 1e6;
  const auto excess = [&](double lam) {
    const double f = std::hypot(3.0, 1.5) / (wt + 2 * lam);
    const double m = 20.0 / (wp + 2 * lam / (ab * ab));
    return f * f + (m / ab) * (m / ab) - 1.0;
  };
  ASSERT_GT(excess(0.0), 0.0);  // the stick point is outside: sliding and spinning
  for (int i = 0; i < 200; ++i) (excess(0.5 * (lo + hi)) > 0.0 ? lo : hi) = 0.5 * (lo + hi);
  const double lam = 0.5 * (lo + hi);
  EXPECT_NEAR(r[0], 2.0, 1e-15);
  EXPECT_NEAR(r[1], -3.0 / (wt + 2 * lam), 1e-13);
  EXPECT_NEAR(r[2], 1.5 / (wt + 2 * lam), 1e-13);
  EXPECT_NEAR(r[3], -20.0 / (wp + 2 * lam / (ab * ab)), 1e-13 * ab);
}

TEST(SingleContact6, ExactLimitSurfaceMatchesTheContensouTable) {
  // Build a sliding + spinning contact whose answer is the boundary point at a given ε: with W
  // diagonal and isotropic in (F, M/a) (W_pp = w_t/a²), y* = μN (F(ε), 0, a m(ε)) and the
  // velocity w = −s (ε, 0, 1/a·...) along the outward normal (ε e1, 1) in (F, M/a), i.e.
  // v_t = −s ε e1, a ω_n = −s. q = u − W r. The solver must return y*; F and m are compared
  // with the 12-digit table of reference contensou.md §1 (a = 1 there).
  struct Row {
    double eps, F, m;
    contensou::Pressure p;
  };
  const Row rows[] = {{0.25, 0.289922368910, 0.553095947832, contensou::Pressure::hertz},
                      {1.0, 0.883572933822, 0.220893233456, contensou::Pressure::hertz},
                      {4.0, 0.993707402084, 0.0502267870948, contensou::Pressure::hertz},
                      {0.5, 0.483843755630, 0.547748354772, contensou::Pressure::uniform},
                      {2.0, 0.967687511260, 0.127809198284, contensou::Pressure::uniform}};
  for (const Row& row : rows) {
    Law law;
    law.mu = 0.4;
    law.coupling = Law::Coupling::exact;
    law.a = 0.01;
    law.pressure = row.p;
    const double n = 3.0, wt = 2.0, s = 0.7;
    const Block6 w = diag6(1.5, wt, wt / (law.a * law.a), 1.0);
    Vec6 r_star = vec6(n, law.mu * n * row.F, 0.0, law.mu * n * law.a * row.m, 0.0, 0.0);
    Vec6 u_star = vec6(0.0, -s * row.eps, 0.0, -s / law.a, 0.0, 0.0);
    const Vec6 q = u_star - Block6(w) * r_star;
    Vec6 r = Vec6::Zero();
    ASSERT_TRUE(solve_single_contact(w, q, law, r, kTol)) << row.eps;
    // Table values to 12 digits: 1e-11 relative.
    EXPECT_NEAR(r[1] / (law.mu * n), row.F, 1e-11) << row.eps;
    EXPECT_NEAR(r[3] / (law.mu * n * law.a), row.m, 1e-11) << row.eps;
    EXPECT_NEAR(r[0], n, 1e-13);
    EXPECT_NEAR(r[2], 0.0, 1e-13);
    // Maximal dissipation: −w·y = N σ_C(−w).
    const Vec6 u = Block6(w) * r + q;
    const Vec5 wv = u.tail<5>();
    EXPECT_NEAR(-wv.dot(r.tail<5>()), r[0] * support6(law, -wv), 1e-12);
  }
}

// The law checked directly: N ≥ 0, u_N ≥ 0, N u_N = 0, y ∈ N C (via the projection), maximal
// dissipation −w·y = N σ_C(−w). Tolerances relative to the data's scale.
void expect_law(const Block6& w, const Vec6& q, const Law& law, const Vec6& r, double tol) {
  const Vec6 u = w * r + q;
  const double scale = q.norm() + r.norm();
  EXPECT_GE(r[0], 0.0);
  EXPECT_GE(u[0], -tol * scale);
  EXPECT_LE(std::abs(r[0] * u[0]), tol * scale * scale);
  const double ell = law.moment_scale();
  Vec6 rs = r;
  rs[3] /= ell;
  EXPECT_LE((project_on_cone6(law, rs) - rs).norm(), tol * scale);
  const Vec5 wv = u.tail<5>();
  EXPECT_NEAR(-wv.dot(r.tail<5>()), r[0] * support6(law, -wv), tol * scale * scale);
}

TEST(SingleContact6, RandomCoupledContactsSatisfyTheLaw) {
  // Random SPD W = J M⁻¹ Jᵀ (a rigid body against the ground at a random contact point, moment
  // rows included), random q with q_N < 0, every coupling; fixed seed.
  std::mt19937_64 rng(2024);
  std::normal_distribution<double> g;
  int solved = 0, total = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Eigen::Matrix<double, 6, 6> j;
    for (int i = 0; i < 36; ++i) j(i / 6, i % 6) = g(rng);
    Eigen::Matrix<double, 6, 6> m_inv = Eigen::Matrix<double, 6, 6>::Zero();
    for (int i = 0; i < 6; ++i) m_inv(i, i) = 0.5 + std::abs(g(rng));
    const Block6 w = j * m_inv * j.transpose() + 1e-3 * Eigen::Matrix<double, 6, 6>::Identity();
    Vec6 q;
    for (int i = 0; i < 6; ++i) q[i] = g(rng);
    q[0] = -std::abs(q[0]);
    Law law;
    law.mu = 0.1 + std::abs(g(rng));
    law.k = trial % 4 == 0 ? 0.0 : 0.2 * std::abs(g(rng));
    switch (trial % 3) {
      case 0:
        law.h = trial % 2 == 0 ? 0.0 : 0.3 * std::abs(g(rng));
        break;
      case 1:
        law.coupling = Law::Coupling::ellipsoid;
        law.a = 0.5 + std::abs(g(rng));
        break;
      default:
        law.coupling = Law::Coupling::exact;
        law.a = 0.5 + std::abs(g(rng));
        law.pressure = trial % 2 == 0 ? contensou::Pressure::hertz : contensou::Pressure::uniform;
    }
    Vec6 r = Vec6::Zero();
    const bool ok = solve_single_contact(w, q, law, r, 1e-12);
    ++total;
    solved += ok ? 1 : 0;
    EXPECT_TRUE(ok) << "trial " << trial;
    if (ok) expect_law(w, q, law, r, 1e-10);
  }
  EXPECT_EQ(solved, total);
}

}  // namespace
}  // namespace coulomb
