// Joint blocks (coulomb/nonsmooth/joint_rows.hpp): the exact local solve satisfies the box law
// (KKT) on random blocks and boxes, the natural map and Alart–Curnier function vanish at its
// answer, and a problem mixing contacts and joint blocks is solved by NSGS, PROX and auto to the
// same answer.

#include <coulomb/nonsmooth/factored_problem.hpp>
#include <coulomb/nonsmooth/joint_rows.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <gtest/gtest.h>

#include <random>

namespace coulomb {
namespace {

template <int N>
Eigen::Matrix<double, N, N, Eigen::RowMajor> random_spd(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::Matrix<double, N, N> a;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) a(i, j) = u(rng);
  return a * a.transpose() + 0.1 * Eigen::Matrix<double, N, N>::Identity();
}

// A random box: each row equality, free, friction [−b, b] or unilateral [0, ∞).
template <int N>
JointRows<N> random_box(std::mt19937& rng) {
  JointRows<N> law;
  std::uniform_int_distribution<int> kind(0, 3);
  for (int i = 0; i < N; ++i) {
    switch (kind(rng)) {
      case 0:
        law.lo[i] = -kInf;
        law.hi[i] = kInf;
        break;
      case 1:
        break;
      case 2:
        law.lo[i] = -0.3;
        law.hi[i] = 0.3;
        break;
      default:
        law.hi[i] = kInf;
    }
  }
  return law;
}

template <int N>
void check_random_blocks() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int trial = 0; trial < 500; ++trial) {
    const auto w = random_spd<N>(rng);
    Eigen::Matrix<double, N, 1> q;
    for (int i = 0; i < N; ++i) q[i] = u(rng);
    const JointRows<N> law = random_box<N>(rng);
    Eigen::Matrix<double, N, 1> r = Eigen::Matrix<double, N, 1>::Zero();
    ASSERT_TRUE(solve_joint_block<N>(w, q, law, r)) << trial;
    const Eigen::Matrix<double, N, 1> v = w * r + q;
    // The natural map is zero at the answer: round-off of a solve with W of condition <= ~1e3.
    EXPECT_LT(std::sqrt(joint_residual2<N>(law, r, v)), 1e-11) << trial;
    // The same answer minimises ½ rᵀWr + qᵀr over the box: no feasible random point does better
    // (a convex QP's KKT point is its minimum).
    const double f = 0.5 * r.dot(w * r) + q.dot(r);
    for (int k = 0; k < 50; ++k) {
      Eigen::Matrix<double, N, 1> x;
      for (int i = 0; i < N; ++i) x[i] = r[i] + 0.5 * u(rng);
      x = project_on_box(law, x);
      EXPECT_GE(0.5 * x.dot(w * x) + q.dot(x), f - 1e-12) << trial;
    }
  }
}

TEST(JointRows, LocalSolveSatisfiesTheBoxLaw3) { check_random_blocks<3>(); }
TEST(JointRows, LocalSolveSatisfiesTheBoxLaw6) { check_random_blocks<6>(); }

TEST(JointRows, AlartCurnierVanishesAtTheAnswerAndItsJacobianMatches) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int trial = 0; trial < 200; ++trial) {
    const auto w = random_spd<3>(rng);
    const Vec3 q(u(rng), u(rng), u(rng));
    const JointRows<3> law = random_box<3>(rng);
    Vec3 r = Vec3::Zero();
    ASSERT_TRUE(solve_joint_block<3>(w, q, law, r));
    Vec3 phi;
    joint_alart_curnier(r, w * r + q, law, 0.7, phi, nullptr, nullptr);
    EXPECT_LT(phi.norm(), 1e-11);
    // Jacobian at a generic point (away from kinks) against finite differences: φ is piecewise
    // linear, so the difference is exact up to round-off (1e-9 for a step of 1e-6).
    const Vec3 x(u(rng), u(rng), u(rng)), y(u(rng), u(rng), u(rng));
    Mat3 jr, ju;
    joint_alart_curnier(x, y, law, 0.7, phi, &jr, &ju);
    for (int k = 0; k < 3; ++k) {
      const double h = 1e-6;
      Vec3 fp, fm;
      joint_alart_curnier(x + h * Vec3::Unit(k), y, law, 0.7, fp, nullptr, nullptr);
      joint_alart_curnier(x - h * Vec3::Unit(k), y, law, 0.7, fm, nullptr, nullptr);
      EXPECT_LT(((fp - fm) / (2 * h) - jr.col(k)).norm(), 1e-8);
      joint_alart_curnier(x, y + h * Vec3::Unit(k), law, 0.7, fp, nullptr, nullptr);
      joint_alart_curnier(x, y - h * Vec3::Unit(k), law, 0.7, fm, nullptr, nullptr);
      EXPECT_LT(((fp - fm) / (2 * h) - ju.col(k)).norm(), 1e-8);
    }
  }
}

// Two bodies: body 0 rests on the ground by two frictional contacts and is joined to body 1 by a
// ball joint block (3 equalities) and a hinge-like block (one friction row, two equalities).
FactoredForceProblem mixed_problem(bool free_axis = false) {
  FactoredForceProblem p;
  p.body_count = 2;
  p.inv_mass = {1.0, 0.5};
  p.inv_inertia = {Mat3::Identity() * 3.0, Mat3(Vec3(2.0, 4.0, 1.5).asDiagonal())};
  const auto point_rows = [](const Vec3& arm, const Mat3& frame) {
    FactoredForceProblem::Jacobian J;
    for (int i = 0; i < 3; ++i)
      J.row(i) << frame.col(i).transpose(), arm.cross(frame.col(i)).transpose();
    return J;
  };
  const Mat3 contact_frame = (Mat3() << 0, 1, 0, 0, 0, 1, 1, 0, 0).finished();  // (n, t1, t2)
  for (const Vec3& arm : {Vec3(0.2, 0.1, -0.3), Vec3(-0.25, 0.05, -0.3)}) {
    p.laws.push_back(0.3);
    p.q.push_back(Vec3(-0.8, 0.4, -0.1));
    p.body1.push_back(-1);
    p.body2.push_back(0);
    p.J1.push_back(FactoredForceProblem::Jacobian::Zero());
    p.J2.push_back(point_rows(arm, contact_frame.transpose()));
  }
  // Ball rows: a2 − a1 in world axes.
  p.laws.push_back(0.0);
  p.q.push_back(Vec3(0.3, -0.2, 0.5));
  p.body1.push_back(0);
  p.body2.push_back(1);
  p.J1.push_back(-point_rows(Vec3(0.1, 0.3, 0.2), Mat3::Identity()));
  p.J2.push_back(point_rows(Vec3(-0.2, -0.1, 0.4), Mat3::Identity()));
  JointRows<3> ball;
  ball.lo.setConstant(-kInf);
  ball.hi.setConstant(kInf);
  // Rotational rows: friction about x, equalities about y and z.
  p.laws.push_back(0.0);
  p.q.push_back(Vec3(1.5, -0.4, 0.2));
  p.body1.push_back(0);
  p.body2.push_back(1);
  FactoredForceProblem::Jacobian R = FactoredForceProblem::Jacobian::Zero();
  R.rightCols<3>() = Mat3(Eigen::AngleAxisd(0.4, Vec3(1, 1, 1).normalized()));
  p.J1.push_back(-R);
  p.J2.push_back(R);
  JointRows<3> hinge;
  hinge.lo = Vec3(-0.05, -kInf, -kInf);
  hinge.hi = Vec3(0.05, kInf, kInf);
  if (free_axis) hinge.lo[0] = hinge.hi[0] = 0.0;
  p.joint_rows = {ball, hinge};
  p.contact_count = 4;
  p.finish();
  p.validate();
  return p;
}

class MixedProblem : public ::testing::TestWithParam<bool> {};

TEST_P(MixedProblem, NsgsProxAndAutoSolveItAlike) {
  const FactoredForceProblem p = mixed_problem(GetParam());
  SolverOptions options;
  options.tolerance = 1e-12;
  options.max_iterations = 2000;
  std::vector<Vec3> reference;
  for (SolverKind kind : {SolverKind::nsgs, SolverKind::prox, SolverKind::automatic}) {
    std::vector<Vec3> r(4, Vec3::Zero()), u;
    SolverWorkspace<kForce> ws;
    const SolverResult res = solve(p, r, u, options, ws, kind);
    EXPECT_EQ(res.status, SolverStatus::converged) << to_string(kind);
    EXPECT_LE(res.error, 1e-12) << to_string(kind);
    // The joint rows hold: equalities have zero velocity, the friction row is inside its box or
    // opposes its rate (error 1e-12 relative to ‖q‖ ~ 2 m/s).
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(u[2][i], 0.0, 1e-11);
    EXPECT_NEAR(u[3][1], 0.0, 1e-11);
    EXPECT_NEAR(u[3][2], 0.0, 1e-11);
    EXPECT_LE(std::abs(r[3][0]), GetParam() ? 0.0 : 0.05 + 1e-15);
    // The problem has a unique answer here (W positive definite on the joint rows and the
    // contacts' normal rows, strictly monotone): every solver finds it to the tolerance's scale.
    if (reference.empty()) {
      reference = r;
    } else {
      for (int a = 0; a < 4; ++a)
        EXPECT_LT((r[a] - reference[a]).norm(), 1e-9) << to_string(kind) << " block " << a;
    }
  }
  // The assembled form gives the same error for the same answer.
  const ContactProblem<kForce> a = p.assembled();
  std::vector<Vec3> u;
  a.velocity(reference, u);
  EXPECT_LE(contact_error(a, reference, u), 1e-12);
}

// The hinge's axis row with friction, and free (r = 0).
INSTANTIATE_TEST_SUITE_P(JointRows, MixedProblem, ::testing::Values(false, true));

}  // namespace
}  // namespace coulomb
