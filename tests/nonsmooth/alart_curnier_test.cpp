// Tests of the Alart–Curnier function and its generalised Jacobian
// (src/nonsmooth/alart_curnier.cpp): zeros at solutions and finite differences on each branch.
#include <coulomb/nonsmooth/alart_curnier.hpp>

#include <gtest/gtest.h>

namespace coulomb {
namespace {

// Central differences of φ with respect to r (wrt_u false) or u (true).
Mat3 fd_jacobian(const Vec3& r, const Vec3& u, double mu, const AlartCurnierRho& rho, bool wrt_u) {
  const double h = 1e-6;
  Mat3 j;
  for (int c = 0; c < 3; ++c) {
    Vec3 rp = r, rm = r, up = u, um = u;
    if (wrt_u) {
      up[c] += h;
      um[c] -= h;
    } else {
      rp[c] += h;
      rm[c] -= h;
    }
    Vec3 fp, fm;
    alart_curnier_function(rp, up, mu, rho, fp, nullptr, nullptr);
    alart_curnier_function(rm, um, mu, rho, fm, nullptr, nullptr);
    j.col(c) = (fp - fm) / (2.0 * h);
  }
  return j;
}

struct Case {
  const char* branch;
  Vec3 r, u;
};

TEST(AlartCurnier, JacobianMatchesFiniteDifferences) {
  const double mu = 0.6;
  const AlartCurnierRho rho{0.8, 1.3};
  // Points well inside each smooth piece (distance to every kink >> h).
  const Case cases[] = {
      {"pressed, disk interior", Vec3(1.0, 0.1, -0.2), Vec3(-0.3, 0.05, 0.02)},
      {"pressed, disk boundary", Vec3(1.0, 0.4, 0.5), Vec3(0.2, -1.0, 2.0)},
      {"not pressed, z outside", Vec3(-0.5, 0.4, -0.3), Vec3(1.0, 0.7, 0.9)},
      {"pressed, boundary, skew", Vec3(2.0, -1.5, 0.5), Vec3(-0.1, 3.0, -0.4)},
  };
  for (const Case& c : cases) {
    Vec3 phi;
    Mat3 jr, ju;
    alart_curnier_function(c.r, c.u, mu, rho, phi, &jr, &ju);
    // Central differences with h = 1e-6 on O(1) data: truncation ~h² plus round-off ~ε/h ~ 1e-10.
    EXPECT_LT((jr - fd_jacobian(c.r, c.u, mu, rho, false)).cwiseAbs().maxCoeff(), 1e-8) << c.branch;
    EXPECT_LT((ju - fd_jacobian(c.r, c.u, mu, rho, true)).cwiseAbs().maxCoeff(), 1e-8) << c.branch;
  }
}

TEST(AlartCurnier, ZeroExactlyAtSolutions) {
  const double mu = 0.5;
  const AlartCurnierRho rho{1.0, 1.0};
  Vec3 phi;
  // Take-off: r = 0, u_N > 0.
  alart_curnier_function(Vec3::Zero(), Vec3(1.0, 2.0, 3.0), mu, rho, phi, nullptr, nullptr);
  EXPECT_EQ(phi.norm(), 0.0);
  // Stick: u = 0, r inside the cone.
  alart_curnier_function(Vec3(1.0, 0.2, 0.1), Vec3::Zero(), mu, rho, phi, nullptr, nullptr);
  EXPECT_EQ(phi.norm(), 0.0);
  // Slide: u_N = 0, r_T = −μ r_N u_T/‖u_T‖.
  alart_curnier_function(Vec3(2.0, -0.6, -0.8), Vec3(0.0, 3.0, 4.0), mu, rho, phi, nullptr,
                         nullptr);
  EXPECT_NEAR(phi.norm(), 0.0, 1e-15);
  // Not a solution: wrong friction direction.
  alart_curnier_function(Vec3(2.0, 0.6, 0.8), Vec3(0.0, 3.0, 4.0), mu, rho, phi, nullptr, nullptr);
  EXPECT_GT(phi.norm(), 1.0);
}

TEST(AlartCurnier, RhoFromDiagonal) {
  Block3 w;
  w << 2.0, 0.1, 0.0, 0.1, 3.0, 0.0, 0.0, 0.0, 5.0;
  const AlartCurnierRho rho = alart_curnier_rho(w);
  EXPECT_DOUBLE_EQ(rho.n, 0.5);
  EXPECT_DOUBLE_EQ(rho.t, 0.25);
  const AlartCurnierRho zero = alart_curnier_rho(Block3::Zero());
  EXPECT_DOUBLE_EQ(zero.n, 1.0);
  EXPECT_DOUBLE_EQ(zero.t, 1.0);
}

}  // namespace
}  // namespace coulomb
