// State sizing and the body-frame pose.

#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

#include <gtest/gtest.h>

namespace coulomb {
namespace {

TEST(State, ResizeGivesBodyFramesAtTheOrigin) {
  Model m;
  Body b;
  b.mass = 1;
  b.inertia_B = Mat3::Identity();
  b.com_B = Vec3(0.1, 0.2, 0.3);
  m.bodies = {b, b};
  State s;
  s.time = 3.0;
  s.step = 7;
  s.dissipated = 1.0;
  s.contacts.resize(4);
  s.resize(m);
  EXPECT_EQ(s.body_count(), 2u);
  EXPECT_EQ(s.x_WC[1], Vec3(0.1, 0.2, 0.3));
  EXPECT_EQ(s.q_WB[1].coeffs(), Quat::Identity().coeffs());
  EXPECT_EQ(s.v_WC[0], Vec3::Zero());
  EXPECT_EQ(s.w_W[0], Vec3::Zero());
  EXPECT_EQ(s.time, 0.0);
  EXPECT_EQ(s.step, 0);
  EXPECT_EQ(s.dissipated, 0.0);
  EXPECT_TRUE(s.contacts.empty());
}

// x_WC = p_WB + R_WB com_B, so the body frame is p_WB = x_WC − R_WB com_B.
TEST(State, BodyFramePose) {
  Model m;
  Body b;
  b.com_B = Vec3(1, 0, 0);
  m.bodies = {b};
  State s;
  s.resize(m);
  s.q_WB[0] = Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()));
  s.x_WC[0] = Vec3(5, 5, 5);
  const Pose X = body_frame_pose(m, s, 0);
  EXPECT_LE((X.p - Vec3(5, 4, 5)).norm(), 1e-15);
  EXPECT_LE((X.apply(b.com_B) - s.x_WC[0]).norm(), 1e-15);
}

}  // namespace
}  // namespace coulomb
