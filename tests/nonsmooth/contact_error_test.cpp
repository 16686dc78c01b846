// Tests of the cone projection and of the error of Acary, Brémond & Huber (2018)
// (src/nonsmooth/contact_error.cpp).
#include <coulomb/nonsmooth/solver.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace coulomb {
namespace {

ForceProblem single(const Block3& w, const Vec3& q, double mu) {
  ForceProblem p;
  p.contact_count = 1;
  p.laws = {mu};
  p.q = {q};
  p.row_start = {0, 1};
  p.col = {0};
  p.diag = {0};
  p.blocks = {w};
  return p;
}

TEST(ProjectOnCone, InsidePolarAndBoundary) {
  const double mu = 0.5;
  // Inside K: unchanged.
  const Vec3 in(2.0, 0.3, -0.4);  // ‖x_T‖ = 0.5 <= μ x_N = 1
  EXPECT_EQ(project_on_cone(in, mu), in);
  // In the polar cone μ‖x_T‖ <= −x_N: apex.
  EXPECT_EQ(project_on_cone(Vec3(-1.0, 0.6, 0.8), mu), Vec3::Zero());
  // Boundary case in closed form: x = (0, 3, 4), ‖x_T‖ = 5:
  // p_N = (0 + 0.5·5)/(1 + 0.25) = 2, p_T = μ p_N x_T/‖x_T‖ = (0.6, 0.8).
  const Vec3 p = project_on_cone(Vec3(0.0, 3.0, 4.0), mu);
  EXPECT_NEAR(p[0], 2.0, 1e-15);
  EXPECT_NEAR(p[1], 0.6, 1e-15);
  EXPECT_NEAR(p[2], 0.8, 1e-15);
}

TEST(ProjectOnCone, MoreauDecomposition) {
  // x = P_K(x) + P_K°(x) with the two parts orthogonal: checked on a grid of points, μ = 0.7.
  const double mu = 0.7;
  for (int i = -3; i <= 3; ++i) {
    for (int j = -3; j <= 3; ++j) {
      const Vec3 x(0.7 * i, 0.9 * j - 0.1, 0.4 * i - 0.3 * j);
      const Vec3 p = project_on_cone(x, mu);
      const Vec3 d = x - p;
      // p ∈ K, d ∈ K° = {μ‖d_T‖ <= −d_N}, p·d = 0 (to round-off of O(1) numbers).
      EXPECT_LE(std::hypot(p[1], p[2]), mu * p[0] + 1e-14);
      EXPECT_LE(mu * std::hypot(d[1], d[2]), -d[0] + 1e-14);
      EXPECT_NEAR(p.dot(d), 0.0, 1e-14);
    }
  }
}

TEST(ProjectOnCone, Frictionless) {
  // μ = 0: K is the half-line r_T = 0, r_N >= 0, and P_K(x) = (max(x_N, 0), 0, 0) exactly.
  EXPECT_EQ(project_on_cone(Vec3(2.0, 1.0, -1.0), 0.0), Vec3(2.0, 0.0, 0.0));
  EXPECT_EQ(project_on_cone(Vec3(-2.0, 1.0, -1.0), 0.0), Vec3::Zero());
  EXPECT_EQ(project_on_cone(Vec3(3.0, 0.0, 0.0), 0.0), Vec3(3.0, 0.0, 0.0));
  // The corner the general test ‖x_T‖ <= μ x_N gets wrong (0 <= 0): x_T = 0, x_N < 0 is in the
  // polar half-line, its projection is the apex (it used to come back unchanged, outside K).
  EXPECT_EQ(project_on_cone(Vec3(-2.0, 0.0, 0.0), 0.0), Vec3::Zero());
  EXPECT_EQ(project_on_cone(Vec3(-1e-17, 0.0, 0.0), 0.0), Vec3::Zero());
  EXPECT_EQ(project_on_cone(Vec3(0.0, 0.0, 0.0), 0.0), Vec3::Zero());
  EXPECT_EQ(project_on_cone(Vec3(0.0, 0.0, 5.0), 0.0), Vec3::Zero());
  // The same point with μ > 0 is in the polar cone too: apex.
  EXPECT_EQ(project_on_cone(Vec3(-2.0, 0.0, 0.0), 0.3), Vec3::Zero());
}

TEST(ContactError, SeparatedFrictionlessContactHasZeroError) {
  // A frictionless contact that separates (q_N > 0, q_T = 0: two balls of a row moving apart
  // along their line of centres) is solved by r = 0, u = q: x = r − u = (−q_N, 0, 0),
  // P_K(x) = 0, error 0. With the 0 <= 0 corner of the projection it read ‖q_N‖/‖q‖ = 1.
  const ForceProblem p = single(Block3::Identity(), Vec3(0.5, 0.0, 0.0), 0.0);
  EXPECT_EQ(contact_error(p, {Vec3::Zero()}, {p.q[0]}), 0.0);
  // And a pressed one: q = (−0.5, 0, 0), r = (0.5, 0, 0), u = 0: error 0; r = 0 gives 1.
  const ForceProblem pressed = single(Block3::Identity(), Vec3(-0.5, 0.0, 0.0), 0.0);
  EXPECT_EQ(contact_error(pressed, {Vec3(0.5, 0.0, 0.0)}, {Vec3::Zero()}), 0.0);
  EXPECT_DOUBLE_EQ(contact_error(pressed, {Vec3::Zero()}, {pressed.q[0]}), 1.0);
}

TEST(ContactError, ZeroAtKnownSolutions) {
  const Block3 w = Block3::Identity();
  // Take-off: q_N > 0, r = 0.
  {
    const ForceProblem p = single(w, Vec3(1.0, 2.0, 0.0), 0.5);
    EXPECT_EQ(contact_error(p, {Vec3::Zero()}, {p.q[0]}), 0.0);
  }
  // Stick: r = −q inside the cone, u = 0.
  {
    const ForceProblem p = single(w, Vec3(-1.0, 0.1, 0.0), 0.5);
    EXPECT_EQ(contact_error(p, {-p.q[0]}, {Vec3::Zero()}), 0.0);
  }
  // Slide with W = I, q = (−1, 2, 0), μ = 0.5: r = (1, −0.5, 0), u = (0, 1.5, 0).
  {
    const ForceProblem p = single(w, Vec3(-1.0, 2.0, 0.0), 0.5);
    EXPECT_NEAR(contact_error(p, {Vec3(1.0, -0.5, 0.0)}, {Vec3(0.0, 1.5, 0.0)}), 0.0, 1e-16);
  }
}

TEST(ContactError, ValuesAndNormalisation) {
  const Block3 w = Block3::Identity();
  // r = 0, q = (−2, 0, 0): x = (2, 0, 0) ∈ K, e = ‖0 − x‖ = 2, divided by ‖q‖ = 2 → 1.
  {
    const ForceProblem p = single(w, Vec3(-2.0, 0.0, 0.0), 0.3);
    EXPECT_DOUBLE_EQ(contact_error(p, {Vec3::Zero()}, {p.q[0]}), 1.0);
  }
  // q = 0 (‖q‖ <= DBL_EPSILON): absolute value. r = (1, 0, 0), u = r, x = 0, e = 1.
  {
    const ForceProblem p = single(w, Vec3::Zero(), 0.3);
    EXPECT_DOUBLE_EQ(contact_error(p, {Vec3(1.0, 0.0, 0.0)}, {Vec3(1.0, 0.0, 0.0)}), 1.0);
  }
  // Wrong friction direction: r = (1, 0.5, 0) while u = (0, 1.5, 0), μ = 0.5:
  // x = r − u − [μ‖u_T‖,0,0] = (0.25, −1, 0); P_K(x) = ((0.25 + 0.5)/1.25)(1, −0.5, 0)
  // = (0.6, −0.3, 0); e = ‖(0.4, 0.8, 0)‖ = √0.8; ‖q‖ = √5 (q = (−1, 2, 0)).
  {
    const ForceProblem p = single(w, Vec3(-1.0, 2.0, 0.0), 0.5);
    EXPECT_NEAR(contact_error(p, {Vec3(1.0, 0.5, 0.0)}, {Vec3(0.0, 1.5, 0.0)}),
                std::sqrt(0.8) / std::sqrt(5.0), 1e-15);
  }
}

TEST(SolverStatus, Names) {
  EXPECT_STREQ(to_string(SolverStatus::converged), "converged");
  EXPECT_STREQ(to_string(SolverStatus::max_iterations), "max_iterations");
  EXPECT_STREQ(to_string(SolverStatus::non_finite), "non_finite");
  EXPECT_STREQ(to_string(SolverStatus::stalled), "stalled");
  EXPECT_STREQ(to_string(SolverStatus::diverged), "diverged");
}

}  // namespace
}  // namespace coulomb
