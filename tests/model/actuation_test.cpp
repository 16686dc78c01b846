// Driven motions and loads (coulomb/model/actuation.hpp): the twist is the exact derivative of the
// pose (finite differences), the tables interpolate their rows, the loads' torques.

#include <coulomb/model/actuation.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace coulomb {
namespace {

// The twist of a motion at t against central differences of its pose: v = dp/dt, and ω from
// Ṙ Rᵀ = [ω]. Central differences with step δ = 1e-7 s have error (δ²/6) |p'''| ≲ 3e-10 for
// the motions below (|θ'''| ≲ (2π f)³ |Θ| ~ 2e5 rad/s³ at 25 Hz), and round-off
// ~1e-16/1e-7 = 1e-9: a tolerance of 1e-8.
void expect_twist_is_derivative(const BodyMotion& m, double t) {
  const double d = 1e-7;
  const DrivenPose a = driven_pose(m, t - d), b = driven_pose(m, t + d), c = driven_pose(m, t);
  const Vec3 v = (b.p_WB - a.p_WB) / (2 * d);
  const Vec3 w = rotation_log(b.q_WB * a.q_WB.conjugate()) / (2 * d);
  EXPECT_LT((v - c.v_WB).norm(), 1e-8) << "t = " << t;
  EXPECT_LT((w - c.w_W).norm(), 1e-8) << "t = " << t;
}

TEST(Actuation, ConstantTwistIsAScrewAboutTheOrigin) {
  BodyMotion m;
  m.kind = BodyMotion::Kind::twist;
  m.p0 = Vec3(0.1, -0.2, 0.3);
  m.q0 = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
  m.velocity = Vec3(0.5, -0.3, 0.2);
  m.angular_velocity = Vec3(0.3, 1.2, -0.7);
  for (double t : {0.0, 0.37, 2.5}) expect_twist_is_derivative(m, t);
  const DrivenPose p = driven_pose(m, 2.0);
  EXPECT_LT((p.p_WB - (m.p0 + 2.0 * m.velocity)).norm(), 1e-15);
  // R(t) = exp(ω t) R0: the rotation since t = 0 is ω t.
  EXPECT_LT((rotation_log(p.q_WB * m.q0.conjugate()) - 2.0 * m.angular_velocity).norm(), 1e-12);
  EXPECT_EQ(max_speed(m), m.velocity.norm());
}

TEST(Actuation, SinusoidWithDriftAndRotationAboutAFixedAxis) {
  BodyMotion m;
  m.kind = BodyMotion::Kind::sinusoid;
  m.p0 = Vec3(0, 0, 1);
  m.q0 = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
  m.velocity = Vec3(0.1, 0, 0);
  m.amplitude = Vec3(0.002, -0.001, 0.003);
  m.angular_velocity = Vec3(0, 0.6, 0.8);
  m.angular_amplitude = Vec3(0, 0.03, 0.04);
  m.frequency = 25.0;
  m.phase = 0.7;
  for (double t : {0.0, 0.011, 0.2345}) expect_twist_is_derivative(m, t);
  // The displacement's closed form.
  const double t = 0.013;
  const DrivenPose p = driven_pose(m, t);
  const Vec3 expected = m.p0 + t * m.velocity + std::sin(2 * kPi * 25.0 * t + 0.7) * m.amplitude;
  EXPECT_LT((p.p_WB - expected).norm(), 1e-15);
  // |v| ≤ |v_drift| + 2π f |A|.
  EXPECT_NEAR(max_speed(m), 0.1 + 2 * kPi * 25.0 * m.amplitude.norm(), 1e-15);
}

TEST(Actuation, TableInterpolatesPosesWithAConstantTwistPerSegment) {
  auto table = std::make_shared<MotionTable>();
  table->t = {0.0, 0.5, 1.5};
  table->d = {Vec3::Zero(), Vec3(0.1, 0.2, 0.0), Vec3(0.1, 0.2, 0.5)};
  table->q = {Quat::Identity(), Quat(Eigen::AngleAxisd(0.5, Vec3::UnitZ())),
              Quat(Eigen::AngleAxisd(0.9, Vec3(1, 1, 0).normalized())) *
                  Quat(Eigen::AngleAxisd(0.5, Vec3::UnitZ()))};
  BodyMotion m;
  m.kind = BodyMotion::Kind::table;
  m.p0 = Vec3(1, 2, 3);
  m.table = table;
  // Rows are met exactly; velocities are the segments' slopes.
  const DrivenPose row = driven_pose(m, 0.5);
  EXPECT_LT((row.p_WB - Vec3(1.1, 2.2, 3.0)).norm(), 1e-15);
  EXPECT_LT(std::abs(row.q_WB.angularDistance(table->q[1])), 1e-12);
  const DrivenPose mid = driven_pose(m, 0.25);
  EXPECT_LT((mid.v_WB - Vec3(0.2, 0.4, 0.0)).norm(), 1e-15);
  EXPECT_LT((mid.w_W - Vec3(0, 0, 1.0)).norm(), 1e-12);  // 0.5 rad in 0.5 s about z
  for (double t : {0.1, 0.3, 0.9, 1.4}) expect_twist_is_derivative(m, t);
  // Outside the rows: the nearest row's pose, at rest.
  const DrivenPose after = driven_pose(m, 3.0);
  EXPECT_LT((after.p_WB - Vec3(1.1, 2.2, 3.5)).norm(), 1e-15);
  EXPECT_EQ(after.v_WB, Vec3::Zero());
  EXPECT_EQ(after.w_W, Vec3::Zero());
  EXPECT_NEAR(max_speed(m), 0.5, 1e-15);
  EXPECT_NEAR(max_angular_speed(m), 1.0, 1e-12);  // 0.5 rad in 0.5 s, then 0.9 rad in 1 s
}

TEST(Actuation, VelocityTableIntegratesTheTwistExactly) {
  auto table = std::make_shared<MotionTable>();
  table->velocities = true;
  table->t = {0.0, 1.0, 3.0};
  table->v = {Vec3(0, 0, 0), Vec3(1, 2, 0), Vec3(1, 2, -2)};
  table->w = {Vec3(0, 0, 0), Vec3(0.6, 0, 0.8), Vec3(1.2, 0, 1.6)};  // one axis
  ASSERT_EQ(table->integrate_velocities(), -1);
  BodyMotion m;
  m.kind = BodyMotion::Kind::table;
  m.p0 = Vec3(1, 0, 0);
  m.table = table;
  // d(1) = ∫0^1 t (1, 2, 0) dt = (0.5, 1, 0); rotation angle ∫0^1 t dt = 0.5 about (0.6, 0, 0.8).
  const DrivenPose p1 = driven_pose(m, 1.0);
  EXPECT_LT((p1.p_WB - Vec3(1.5, 1, 0)).norm(), 1e-15);
  EXPECT_LT((rotation_log(p1.q_WB) - 0.5 * Vec3(0.6, 0, 0.8)).norm(), 1e-15);
  for (double t : {0.3, 1.7, 2.9, 4.0}) expect_twist_is_derivative(m, t);
  // After the last row the last twist holds.
  EXPECT_LT((driven_pose(m, 5.0).v_WB - Vec3(1, 2, -2)).norm(), 1e-15);
  // An axis that turns is refused at its row.
  table->w[2] = Vec3(0, 1, 0);
  EXPECT_EQ(table->integrate_velocities(), 2);
}

TEST(Actuation, LoadAtAPointInTheBodyFrame) {
  BodyLoad load;
  load.force = Vec3(1, 0, 0);
  load.torque = Vec3(0, 0, 0.5);
  load.body_frame = true;
  load.at_point = true;
  load.point_B = Vec3(0, 1, 0);
  const Quat q(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()));  // body x -> world y
  const Vec3 com_B(0, 0.5, 0);
  const Wrench w = load_wrench(load, 0.0, q, com_B);
  EXPECT_LT((w.force - Vec3(0, 1, 0)).norm(), 1e-15);
  // Arm R (point − com) = R (0, 0.5, 0) = (−0.5, 0, 0); arm × F = (0, 0, −0.5); plus τ (world z).
  EXPECT_LT((w.torque - Vec3(0, 0, 0.5 - 0.5)).norm(), 1e-15);
  // A table adds its linear interpolation.
  auto table = std::make_shared<LoadTable>();
  table->t = {0.0, 2.0};
  table->force = {Vec3::Zero(), Vec3(0, 0, 4)};
  table->torque = {Vec3::Zero(), Vec3::Zero()};
  BodyLoad tab;
  tab.table = table;
  EXPECT_LT((load_wrench(tab, 0.5, Quat::Identity(), Vec3::Zero()).force - Vec3(0, 0, 1)).norm(),
            1e-15);
  EXPECT_LT((load_wrench(tab, 5.0, Quat::Identity(), Vec3::Zero()).force - Vec3(0, 0, 4)).norm(),
            1e-15);
}

}  // namespace
}  // namespace coulomb
