/// @file
/// Joint rows: position functions and Jacobians (coulomb/model/joint.hpp, docs/joints.md).
#include <coulomb/model/joint.hpp>

#include <cmath>

namespace coulomb {

const char* to_string(JointType type) {
  switch (type) {
    case JointType::ball:
      return "ball";
    case JointType::hinge:
      return "hinge";
    case JointType::prismatic:
      return "prismatic";
    case JointType::fixed:
      return "fixed";
    case JointType::distance:
      return "distance";
  }
  return "?";
}

bool parse_joint_type(const std::string& name, JointType& type) {
  for (JointType t : {JointType::ball, JointType::hinge, JointType::prismatic, JointType::fixed,
                      JointType::distance}) {
    if (name == to_string(t)) {
      type = t;
      return true;
    }
  }
  return false;
}

int joint_group_count(JointType type) {
  switch (type) {
    case JointType::ball:
    case JointType::distance:
      return 1;
    case JointType::hinge:
    case JointType::prismatic:
    case JointType::fixed:
      return 2;
  }
  return 0;
}

namespace {

using Row6 = Eigen::Matrix<double, 1, 6>;

// A point row e on anchor a of a side with centre x: [eᵀ, ((a − x) × e)ᵀ].
Row6 point_row(const Vec3& e, const Vec3& a, const Vec3& x) {
  Row6 row;
  row << e.transpose(), (a - x).cross(e).transpose();
  return row;
}
// An angular row w on ω.
Row6 angular_row(const Vec3& w) {
  Row6 row;
  row << 0.0, 0.0, 0.0, w.transpose();
  return row;
}

// Row i of a group: the point rows of d·e (e carried by body 1 when `carried`, world otherwise).
void set_point_row(JointGroup& g, int i, const Vec3& e, const Vec3& a1, const Vec3& a2,
                   const JointSidePose& s1, const JointSidePose& s2, bool carried) {
  const Vec3 d = a2 - a1;
  g.J2.row(i) = point_row(e, a2, s2.x);
  g.J1.row(i) = -point_row(e, a1, s1.x);
  // d/dt (d·e) with e = R1 e_B: + d·(ω1 × e) = ω1·(e × d).
  if (carried) g.J1.row(i) += angular_row(e.cross(d));
  g.C[i] = d.dot(e);
}
// Row i: the dot constraint a2·b1 (a2 carried by body 2, b1 by body 1), rate (a2 × b1)·(ω2 − ω1).
void set_dot_row(JointGroup& g, int i, const Vec3& a2, const Vec3& b1) {
  const Vec3 w = a2.cross(b1);
  g.J2.row(i) = angular_row(w);
  g.J1.row(i) = -angular_row(w);
  g.C[i] = a2.dot(b1);
}

}  // namespace

JointGroup joint_group(const Joint& joint, int group, const JointSidePose& s1,
                       const JointSidePose& s2) {
  JointGroup g;
  const Vec3 a1 = s1.x + s1.R * joint.r1_B;
  const Vec3 a2 = s2.x + s2.R * joint.r2_B;
  const Mat3 F1 = s1.R * joint.F1_B;
  const Mat3 F2 = s2.R * joint.F2_B;
  const Vec3 x1 = F1.col(0), y1 = F1.col(1), z1 = F1.col(2);
  const Vec3 x2 = F2.col(0), y2 = F2.col(1), z2 = F2.col(2);
  constexpr std::uint8_t kFree = 0, kEquality = 1, kFriction = 2, kUnilateral = 3;
  const bool translational = group == 0;
  switch (joint.type) {
    case JointType::ball:
    case JointType::hinge:
    case JointType::fixed:
      if (translational) {
        for (int i = 0; i < 3; ++i) set_point_row(g, i, Vec3::Unit(i), a1, a2, s1, s2, false);
        g.kind = {kEquality, kEquality, kEquality};
        return g;
      }
      if (joint.type == JointType::hinge) {
        // Axis row: the relative rotation rate about x1 (no position function).
        g.J2.row(0) = angular_row(x1);
        g.J1.row(0) = -angular_row(x1);
        set_dot_row(g, 1, x2, y1);
        set_dot_row(g, 2, x2, z1);
        g.C[0] = std::atan2(y2.dot(z1), y2.dot(y1));
        g.kind = {joint.friction_moment > 0.0 ? kFriction : kFree, kEquality, kEquality};
        return g;
      }
      break;
    case JointType::prismatic:
      if (translational) {
        set_point_row(g, 0, x1, a1, a2, s1, s2, true);
        set_point_row(g, 1, y1, a1, a2, s1, s2, true);
        set_point_row(g, 2, z1, a1, a2, s1, s2, true);
        g.kind = {kFree, kEquality, kEquality};
        return g;
      }
      break;
    case JointType::distance: {
      // C = L − |d| ≥ 0; the row −n on a2, +n on a1 (n = d/|d|).
      const Vec3 d = a2 - a1;
      const double l = d.norm();
      const Vec3 n = l > 0.0 ? Vec3(d / l) : Vec3(Vec3::UnitZ());
      g.J2.row(0) = -point_row(n, a2, s2.x);
      g.J1.row(0) = point_row(n, a1, s1.x);
      g.C[0] = joint.length - l;
      g.kind = {kUnilateral, kFree, kFree};
      return g;
    }
  }
  // The three rotational equalities of a fixed or prismatic joint.
  set_dot_row(g, 0, y2, z1);
  set_dot_row(g, 1, z2, x1);
  set_dot_row(g, 2, x2, y1);
  g.kind = {kEquality, kEquality, kEquality};
  return g;
}

}  // namespace coulomb

#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

namespace coulomb {

void attach_joints(Model& model, const State& state) {
  for (Joint& j : model.joints) {
    // The joint frame in the world: x the axis, (y, z) completing it.
    Mat3 F_W;
    Vec3 y, z;
    complete_frame(j.axis_W, y, z);
    F_W << j.axis_W, y, z;
    const auto side = [&](int b) {
      JointSidePose s;
      if (b >= 0) {
        s.x = state.x_WC[static_cast<std::size_t>(b)];
        s.R = state.q_WB[static_cast<std::size_t>(b)].toRotationMatrix();
      }
      return s;
    };
    const JointSidePose s1 = side(j.body1), s2 = side(j.body2);
    const Vec3 end2 = j.type == JointType::distance ? j.anchor2_W : j.anchor_W;
    j.r1_B = s1.R.transpose() * (j.anchor_W - s1.x);
    j.r2_B = s2.R.transpose() * (end2 - s2.x);
    j.F1_B = s1.R.transpose() * F_W;
    j.F2_B = s2.R.transpose() * F_W;
    if (j.type == JointType::distance && !(j.length > 0.0)) j.length = (end2 - j.anchor_W).norm();
  }
}

}  // namespace coulomb
