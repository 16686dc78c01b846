// Joint rows (coulomb/model/joint.hpp): every Jacobian against a central finite difference of its
// position function along a general 3-D motion of both bodies, and the frame attachment.

#include <coulomb/model/joint.hpp>
#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>

namespace coulomb {
namespace {

// The pose after time t of a body moving with constant (v, ω) from (x, R): x + t v, exp(t ω) R.
JointSidePose moved(const JointSidePose& s, const Vec3& v, const Vec3& w, double t) {
  JointSidePose out;
  out.x = s.x + t * v;
  const double angle = w.norm() * t;
  out.R = (angle != 0.0 ? Mat3(Eigen::AngleAxisd(angle, w.normalized())) : Mat3::Identity()) * s.R;
  return out;
}

Joint make_joint(JointType type, bool world) {
  Joint j;
  j.type = type;
  j.body1 = world ? -1 : 0;
  j.body2 = 1;
  // Anchors off the centres of mass, frames neither aligned with the world nor with each other;
  // a string a little slack or taut does not matter for the derivative.
  j.r1_B = Vec3(0.3, -0.2, 0.5);
  j.r2_B = Vec3(-0.1, 0.4, 0.25);
  j.F1_B = Mat3(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  j.F2_B = Mat3(Eigen::AngleAxisd(-0.4, Vec3(-2, 1, 0.5).normalized()));
  j.length = 1.3;
  return j;
}

TEST(JointRows, EveryJacobianMatchesFiniteDifferences) {
  // General 3-D poses and twists (no symmetry): the position functions of every row with one
  // (all but the hinge's axis row) differentiated along the motion, h = 1e-6 central.
  const JointSidePose s1{Vec3(0.1, 0.2, -0.3),
                         Mat3(Eigen::AngleAxisd(0.9, Vec3(1, -1, 2).normalized()))};
  const JointSidePose s2{Vec3(0.7, -0.4, 0.6),
                         Mat3(Eigen::AngleAxisd(2.1, Vec3(0.3, 1, -0.2).normalized()))};
  const Vec3 v1(0.3, -0.8, 0.5), w1(1.1, 0.4, -0.7), v2(-0.6, 0.2, 0.9), w2(-0.5, 1.3, 0.8);
  for (bool world : {false, true}) {
    for (JointType type : {JointType::ball, JointType::hinge, JointType::prismatic,
                           JointType::fixed, JointType::distance}) {
      const Joint j = make_joint(type, world);
      const JointSidePose a = world ? JointSidePose{} : s1;
      const Vec3 va = world ? Vec3::Zero() : v1, wa = world ? Vec3::Zero() : w1;
      for (int group = 0; group < joint_group_count(type); ++group) {
        const JointGroup g = joint_group(j, group, a, s2);
        Eigen::Matrix<double, 6, 1> n1, n2;
        n1 << va, wa;
        n2 << v2, w2;
        const Vec3 rate = g.J1 * n1 + g.J2 * n2;
        const double h = 1e-6;
        const JointGroup gp = joint_group(j, group, moved(a, va, wa, h), moved(s2, v2, w2, h));
        const JointGroup gm = joint_group(j, group, moved(a, va, wa, -h), moved(s2, v2, w2, -h));
        for (int i = 0; i < 3; ++i) {
          const bool has_position = g.kind[i] != 0 && g.kind[i] != 2;
          if (!has_position) continue;
          const double fd = (gp.C[i] - gm.C[i]) / (2 * h);
          // Central difference: error O(h² |C'''|) ~ 1e-12 plus round-off |C|/h ~ 1e-10 for
          // O(1) data; 1e-8 leaves margin and still catches any wrong term (all are O(1)).
          EXPECT_NEAR(rate[i], fd, 1e-8)
              << to_string(type) << " group " << group << " row " << i << (world ? " (world)" : "");
        }
      }
    }
  }
}

TEST(JointRows, LimitRowsMatchFiniteDifferences) {
  // The limit rows: the prismatic slide d·x1 (row 0 of its translational group) anywhere, and the
  // hinge angle atan2(y2·z1, y2·y1) where the axes are parallel (which the hinge's other rows
  // keep): its rate is row 0, x1·(ω2 − ω1). Bodies turned by 0.9 rad about the axis from the
  // start, general twists.
  const Vec3 v1(0.3, -0.8, 0.5), w1(1.1, 0.4, -0.7), v2(-0.6, 0.2, 0.9), w2(-0.5, 1.3, 0.8);
  for (JointType type : {JointType::hinge, JointType::prismatic}) {
    Joint j = make_joint(type, false);
    const Mat3 R1(Eigen::AngleAxisd(0.9, Vec3(1, -1, 2).normalized()));
    const Vec3 x1 = R1 * j.F1_B.col(0);
    // Body 2 turned so that its joint frame is body 1's turned by 0.9 rad about x1.
    const Mat3 R2 = Mat3(Eigen::AngleAxisd(0.9, x1)) * R1 * j.F1_B * j.F2_B.transpose();
    const JointSidePose s1{Vec3(0.1, 0.2, -0.3), R1}, s2{Vec3(0.7, -0.4, 0.6), R2};
    const int group = type == JointType::hinge ? 1 : 0;
    const JointGroup g = joint_group(j, group, s1, s2);
    if (type == JointType::hinge) {
      EXPECT_NEAR(g.C[0], 0.9, 1e-14);  // round-off of atan2
    }
    Eigen::Matrix<double, 6, 1> n1, n2;
    n1 << v1, w1;
    n2 << v2, w2;
    const double h = 1e-6;
    const double fd = (joint_group(j, group, moved(s1, v1, w1, h), moved(s2, v2, w2, h)).C[0] -
                       joint_group(j, group, moved(s1, v1, w1, -h), moved(s2, v2, w2, -h)).C[0]) /
                      (2 * h);
    // Central difference of O(1) data: 1e-8 as above.
    EXPECT_NEAR((g.J1 * n1 + g.J2 * n2)[0], fd, 1e-8) << to_string(type);
  }
}

TEST(JointRows, HingeAxisRowIsTheRelativeRotationRateAboutTheAxis) {
  // Row 0 of a hinge's rotational group: x1·(ω2 − ω1), so that its impulse is the moment about
  // the axis (the friction moment's row).
  const Joint j = make_joint(JointType::hinge, false);
  const JointSidePose s1{Vec3::Zero(), Mat3(Eigen::AngleAxisd(0.3, Vec3::UnitZ()))};
  const JointSidePose s2{Vec3(1, 0, 0), Mat3::Identity()};
  const JointGroup g = joint_group(j, 1, s1, s2);
  const Vec3 x1 = s1.R * j.F1_B.col(0);
  const Vec3 w1(0.2, -0.5, 0.1), w2(1.0, 0.3, -0.4);
  Eigen::Matrix<double, 6, 1> n1, n2;
  n1 << Vec3::Zero(), w1;
  n2 << Vec3::Zero(), w2;
  // Exact algebra: the row is x1ᵀ on each ω; round-off only.
  EXPECT_NEAR((g.J1 * n1 + g.J2 * n2)[0], x1.dot(w2 - w1), 1e-15);
}

TEST(JointRows, AttachedJointsAreClosedAtTheStart) {
  // attach_joints stores anchors and frames in the body frames: every position function is zero
  // (to round-off) at t = 0 for every type, bodies turned arbitrarily; a string's length defaults
  // to the distance of its ends.
  Model m;
  for (int b = 0; b < 2; ++b) {
    Body body;
    body.name = b == 0 ? std::string("a") : std::string("b");
    body.mass = 1.0;
    body.inertia_B = Mat3::Identity();
    m.bodies.push_back(body);
  }
  State s;
  s.x_WC = {Vec3(0.2, 0.1, 0.3), Vec3(-0.5, 0.7, 1.1)};
  s.q_WB = {Quat(Eigen::AngleAxisd(0.8, Vec3(1, 1, 0).normalized())),
            Quat(Eigen::AngleAxisd(-1.3, Vec3(0, 1, 2).normalized()))};
  s.v_WC.assign(2, Vec3::Zero());
  s.w_W.assign(2, Vec3::Zero());
  for (JointType type : {JointType::ball, JointType::hinge, JointType::prismatic, JointType::fixed,
                         JointType::distance}) {
    Joint j;
    j.type = type;
    j.body1 = 0;
    j.body2 = 1;
    j.anchor_W = Vec3(0.1, 0.4, 0.8);
    j.anchor2_W = Vec3(-0.3, 0.6, 0.2);
    j.axis_W = Vec3(1, -2, 0.5).normalized();
    m.joints = {j};
    attach_joints(m, s);
    const Joint& a = m.joints[0];
    if (type == JointType::distance) {
      EXPECT_DOUBLE_EQ(a.length, (j.anchor2_W - j.anchor_W).norm());
    }
    const auto side = [&](int b) { return JointSidePose{s.x_WC[b], s.q_WB[b].toRotationMatrix()}; };
    for (int group = 0; group < joint_group_count(type); ++group) {
      const JointGroup g = joint_group(a, group, side(0), side(1));
      for (int i = 0; i < 3; ++i) {
        if (g.kind[i] == 1 || g.kind[i] == 3) {
          EXPECT_NEAR(g.C[i], 0.0, 1e-15) << to_string(type) << " " << group << " " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace coulomb
