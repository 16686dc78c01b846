// Tests of ContactProblem<N> (src/nonsmooth/problem.cpp), both sizes: dense view, product,
// validation (structure, symmetry, laws).
#include <coulomb/nonsmooth/problem.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace coulomb {
namespace {

// Two contacts, blocks (0,0), (0,1), (1,0), (1,1); W symmetric by construction.
ForceProblem two_contacts() {
  ForceProblem p;
  p.contact_count = 2;
  p.laws = {0.3, 0.5};
  p.q = {Vec3(-1.0, 0.2, 0.1), Vec3(0.5, -0.3, 0.0)};
  p.row_start = {0, 2, 4};
  p.col = {0, 1, 0, 1};
  p.diag = {0, 3};
  Block3 a;
  a << 2.0, 0.1, 0.2, 0.1, 3.0, 0.3, 0.2, 0.3, 4.0;
  Block3 b;
  b << 0.5, -0.1, 0.2, 0.3, 0.4, -0.2, 0.0, 0.1, 0.6;
  Block3 c;
  c << 5.0, 0.0, 0.1, 0.0, 6.0, 0.2, 0.1, 0.2, 7.0;
  p.blocks = {a, b, Block3(b.transpose()), c};
  return p;
}

TEST(ContactProblem, ForceDenseAndVelocityAgree) {
  const ForceProblem p = two_contacts();
  p.validate();
  const Eigen::MatrixXd w = p.dense_w();
  ASSERT_EQ(w.rows(), 6);
  EXPECT_DOUBLE_EQ(w(0, 3), 0.5);
  EXPECT_DOUBLE_EQ(w(3, 0), 0.5);
  EXPECT_DOUBLE_EQ(w(1, 3), 0.3);
  EXPECT_DOUBLE_EQ(w(3, 1), 0.3);
  const std::vector<Vec3> r = {Vec3(1.0, -2.0, 0.5), Vec3(0.25, 0.0, 3.0)};
  std::vector<Vec3> u;
  p.velocity(r, u);
  Eigen::VectorXd rv(6);
  Eigen::VectorXd qv(6);
  rv << r[0], r[1];
  qv << p.q[0], p.q[1];
  const Eigen::VectorXd uv = w * rv + qv;
  // Same sums in a different order: equal to a few ulps of the largest term (|W r| ~ 30).
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(u[i / 3][i % 3], uv[i], 1e-13);
}

TEST(ContactProblem, ClearKeepsNothing) {
  ForceProblem p = two_contacts();
  p.clear();
  EXPECT_EQ(p.contact_count, 0);
  EXPECT_TRUE(p.blocks.empty());
  EXPECT_TRUE(p.q.empty());
  p.row_start = {0};
  EXPECT_NO_THROW(p.validate());
}

TEST(ContactProblem, ForceValidateRejectsBadInput) {
  {
    ForceProblem p = two_contacts();
    p.laws[1] = -0.1;
    EXPECT_THROW(p.validate(), std::invalid_argument);
  }
  {
    ForceProblem p = two_contacts();
    p.col[1] = 5;
    EXPECT_THROW(p.validate(), std::invalid_argument);
  }
  {
    ForceProblem p = two_contacts();
    p.diag[0] = 1;
    EXPECT_THROW(p.validate(), std::invalid_argument);
  }
  {
    ForceProblem p = two_contacts();
    p.q[0][2] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(p.validate(), std::invalid_argument);
  }
  {
    ForceProblem p = two_contacts();
    p.row_start.pop_back();
    EXPECT_THROW(p.validate(), std::invalid_argument);
  }
  {
    // Non-symmetric: validate() rejects it, validate_structure() accepts it.
    ForceProblem p = two_contacts();
    p.blocks[1](0, 0) += 1e-3;
    EXPECT_THROW(p.validate(), std::invalid_argument);
    EXPECT_NO_THROW(p.validate_structure());
  }
}

TEST(ContactProblem, WrenchValidateRejectsBadData) {
  WrenchProblem p;
  p.contact_count = 1;
  p.laws.resize(1);
  p.q = {Vec6::Zero()};
  p.row_start = {0, 1};
  p.col = {0};
  p.diag = {0};
  p.blocks = {Block6::Identity()};
  EXPECT_NO_THROW(p.validate());
  p.laws[0].h = -1.0;
  EXPECT_THROW(p.validate(), std::invalid_argument);
  p.laws[0].h = 0.0;
  p.laws[0].mu = 0.3;
  p.laws[0].coupling = ContactLaw6::Coupling::exact;  // needs a > 0
  EXPECT_THROW(p.validate(), std::invalid_argument);
  p.laws[0].a = 0.01;
  EXPECT_NO_THROW(p.validate());
  p.blocks[0](1, 4) = 1.0;  // not symmetric
  EXPECT_THROW(p.validate(), std::invalid_argument);
  EXPECT_NO_THROW(p.validate_structure());
  p.q[0][2] = std::nan("");
  EXPECT_THROW(p.validate_structure(), std::invalid_argument);
}

TEST(ContactProblem, WrenchDenseAndVelocity) {
  WrenchProblem p;
  p.contact_count = 2;
  p.laws.resize(2);
  p.q = {Vec6::Constant(1.0), Vec6::Constant(-1.0)};
  p.row_start = {0, 2, 3};
  p.col = {0, 1, 1};
  p.diag = {0, 2};
  Block6 a = Block6::Identity() * 2.0;
  Block6 b = Block6::Zero();
  b(0, 5) = 3.0;
  p.blocks = {a, b, a};
  const Eigen::MatrixXd w = p.dense_w();
  EXPECT_EQ(w(0, 11), 3.0);
  EXPECT_EQ(w(7, 7), 2.0);
  std::vector<Vec6> r = {Vec6::Constant(1.0), Vec6::Constant(2.0)}, u;
  p.velocity(r, u);
  EXPECT_EQ(u[0][0], 1.0 + 2.0 + 6.0);
  EXPECT_EQ(u[1][3], -1.0 + 4.0);
}

}  // namespace
}  // namespace coulomb
