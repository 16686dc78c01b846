#pragma once
/// @file
/// Joints: bilateral (and unilateral) constraints between two bodies, solved in the same
/// nonsmooth problem as the frictional contacts (docs/joints.md).
///
/// A joint joins body 1 and body 2 (−1: the world, the fixed frame) at an anchor, with a joint
/// frame (x = the axis, y, z completing it) given in the world at t = 0 and carried by each body
/// (attach_joints stores it in each body's frame). Its constraints are grouped in blocks of three
/// rows (JointGroup), each row with a position function C, its Jacobian (dC/dt = J1 ν1 + J2 ν2,
/// ν = (v, ω) of each body, world, about the centre of mass) and a box law on its impulse
/// (coulomb/nonsmooth/joint_rows.hpp). Notation: a_i = x_i + R_i r_i the anchor carried by body i,
/// d = a2 − a1, (x_i, y_i, z_i) = R_i F_i the joint frame carried by body i.
///
///   ball       T:  C = d (world axes), 3 equalities
///   hinge      T, and R_h: row 0 the axis x1 on ω2 − ω1 (free, or the friction moment
///              |M| ≤ M_f: the box [−M_f h, M_f h] on the impulse), C1 = x2·y1, C2 = x2·z1;
///              C0 = θ = atan2(y2·z1, y2·y1), the angle about the axis (its rate is row 0 while
///              the axes are parallel), for the angle limits
///   prismatic  T_p: row 0 along x1 (free; C0 = d·x1 for the limits), C1 = d·y1, C2 = d·z1;
///              and R_f
///   fixed      T and R_f: C = (y2·z1, z2·x1, x2·y1), 3 rotational equalities
///   distance   D: C0 = L − |d| ≥ 0, unilateral (a string: it pulls, never pushes), rows 1, 2
///              unused; active when the end-of-step C is predicted ≤ 0; Newton restitution e
///
/// Jacobians: a point row e on a_i: [eᵀ, ((a_i − x_i) × e)ᵀ] on (v_i, ω_i); a dot row a2·b1:
/// (a2 × b1)ᵀ on ω2 − ω1; a row d·b1 adds (b1 × d)ᵀ on ω1. Signs: the impulse r of a block acts
/// on body 2 as J2ᵀ r and on body 1 as J1ᵀ r (the action of 1 on 2 and its reaction); for the
/// ball rows r is the force impulse on body 2 in world axes [N s]; rotational rows are moment
/// impulses [N m s]; the string's r ≥ 0 is its tension impulse.
/// Units: lengths [m], C [m] for point rows and [-] (a sine) for dot rows, J [1] or [m].

#include <coulomb/laws/law_spec.hpp>
#include <coulomb/math/types.hpp>
#include <coulomb/nonsmooth/joint_rows.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace coulomb {

enum class JointType : std::uint8_t { ball, hinge, prismatic, fixed, distance };

[[nodiscard]] const char* to_string(JointType type);
/// false when `name` is not a joint type.
[[nodiscard]] bool parse_joint_type(const std::string& name, JointType& type);

struct Joint {
  std::string name;  ///< for messages and joints.csv ("joint<i>" when not given)
  JointType type = JointType::ball;
  int body1 = -1;  ///< index into Model::bodies, −1: the world
  int body2 = -1;  ///< index into Model::bodies (never −1)
  /// The anchor, world, at t = 0 [m] (distance: the end on body 1).
  Vec3 anchor_W = Vec3::Zero();
  /// Distance: the end on body 2, world, at t = 0 [m].
  Vec3 anchor2_W = Vec3::Zero();
  /// The axis (hinge: rotation; prismatic: translation), world, at t = 0, unit.
  Vec3 axis_W = Vec3::UnitX();
  /// Hinge: friction moment bound M_f [N m] (0: frictionless).
  double friction_moment = 0.0;
  /// Hinge: limits of the angle about the axis from its value at t = 0 [rad]; prismatic: of the
  /// slide along the axis from t = 0 [m]; −∞/+∞: none. Unilateral rows (docs/joints.md).
  double lower = -kInf, upper = kInf;
  /// Distance: the string's length L [m] (≤ 0 when set from the anchors by attach_joints).
  double length = 0.0;
  /// Distance: Newton restitution of the string when it becomes taut [-], in [0, 1].
  double restitution = 0.0;
  SourceMark mark;

  // Filled by attach_joints from the poses at t = 0:
  Vec3 r1_B = Vec3::Zero();      ///< anchor on body 1 from its centre of mass, body axes [m]
  Vec3 r2_B = Vec3::Zero();      ///< anchor on body 2 from its centre of mass, body axes [m]
  Mat3 F1_B = Mat3::Identity();  ///< joint frame (columns x, y, z) in body 1's axes
  Mat3 F2_B = Mat3::Identity();  ///< joint frame in body 2's axes
};

/// Blocks of three rows of a joint (see the file comment).
[[nodiscard]] int joint_group_count(JointType type);

/// The world pose of a joint side: centre of mass and rotation (the world: 0, I).
struct JointSidePose {
  Vec3 x = Vec3::Zero();
  Mat3 R = Mat3::Identity();
};

/// One block of three rows of a joint at given poses.
struct JointGroup {
  Eigen::Matrix<double, 3, 6> J1 = Eigen::Matrix<double, 3, 6>::Zero();  ///< on (v1, ω1)
  Eigen::Matrix<double, 3, 6> J2 = Eigen::Matrix<double, 3, 6>::Zero();  ///< on (v2, ω2)
  Vec3 C = Vec3::Zero();  ///< position function of each row (0 for rows without one)
  /// Per row: 0 free (no constraint), 1 equality, 2 friction box, 3 unilateral (C ≥ 0).
  std::array<std::uint8_t, 3> kind{};
};

/// Block `group` (< joint_group_count) of `joint` at the poses of its two sides.
[[nodiscard]] JointGroup joint_group(const Joint& joint, int group, const JointSidePose& side1,
                                     const JointSidePose& side2);

}  // namespace coulomb

namespace coulomb {

struct Model;
struct State;

/// Fills the body-frame data of every joint (r1_B, r2_B, F1_B, F2_B) from its world data and the
/// poses of `state` (the poses at t = 0), and a distance joint's length when it is ≤ 0 (the
/// distance of its anchors). Call after the initial state is set and before the first step.
void attach_joints(Model& model, const State& state);

}  // namespace coulomb
