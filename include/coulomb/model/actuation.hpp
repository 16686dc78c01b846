#pragma once
/// @file
/// Actuation of bodies (issue 11): prescribed (driven) motions, applied forces and torques,
/// viscous damping. Plain data kept in the Model, and the closed forms the step reads.
///
/// Driven bodies. A body with a motion (scene key `motion`) is kinematic: it has infinite mass for
/// the contacts (it is a fixed body of the model, Body::fixed) but its pose and twist are the
/// given functions of time. The motion moves the body frame B; its origin is the point whose
/// velocity `velocity` gives, and it turns about that origin:
///   twist:     p_WB(t) = p0 + v t,                     R_WB(t) = exp([ω t]) R0;
///   sinusoid:  p_WB(t) = p0 + v t + A ⊙ sin(2π f t + φ), R_WB(t) = exp([ω t + Θ sin(2π f t + φ)])
///   R0
///              (A the displacement amplitudes per axis [m], Θ a rotation vector [rad], parallel
///              to ω when both are given, so that the axis of the rotation is fixed);
///   table:     piecewise-linear displacement d(t) [m] and piecewise-geodesic rotation Q(t) (a
///              constant angular velocity per segment) from a CSV file:
///              p_WB(t) = p0 + d(t), R_WB(t) = Q(t) R0; before the first row and after the last
///              the pose of the nearest row, at rest.
///              A velocity table instead: piecewise-linear twist (ω on a fixed axis over each
///              segment), the pose its exact integral from (p0, R0) at t = 0, the last twist held
///              after the last row.
/// (p0, R0) is the scene's `position` and `orientation`. The twist is the exact derivative of the
/// pose: v_WB = p0' and ω_W with Ṙ = [ω] R, so a contact sees the body's true velocity.
///
/// Loads. A force F [N] (world or body frame) at a point of the body (body frame, default the
/// centre of mass), a torque τ [N m] (world or body frame), both constant plus an optional
/// piecewise-linear time table; viscous damping of the body: −c_v v_C [N] and −c_ω ω [N m].
/// Units SI; angular velocities in the world frame.

#include <coulomb/math/types.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace coulomb {

/// A motion table (scene key `motion.table`): rows in increasing time. A pose table
/// (`velocities` false) is piecewise linear in displacement and piecewise geodesic in rotation;
/// a velocity table (`velocities` true) is piecewise linear in the twist (v, ω), with ω keeping
/// its axis over each segment, and its poses d, q at the rows are the exact integrals of the
/// twist from the first row (t = 0, the scene's pose); after the last row the last twist holds.
struct MotionTable {
  std::vector<double> t;    ///< (n) [s], strictly increasing
  std::vector<Vec3> d;      ///< (n) displacement of the body origin from its scene position [m]
  std::vector<Quat> q;      ///< (n) rotation applied to the scene orientation (world), unit
  bool velocities = false;  ///< a velocity table: v, w hold the rows' twists
  std::vector<Vec3> v;      ///< (n) velocity of the origin [m/s] (velocity tables)
  std::vector<Vec3> w;      ///< (n) angular velocity, world [rad/s] (velocity tables)

  /// Velocity tables: fills d and q from v and w (exact: v linear, ω linear on a fixed axis per
  /// segment). Returns the first row k whose segment [k−1, k] turns its axis, or -1.
  int integrate_velocities();
};

/// A prescribed motion of a body (see the file comment for the equations).
struct BodyMotion {
  enum class Kind : std::uint8_t { none, twist, sinusoid, table };
  Kind kind = Kind::none;
  Vec3 p0 = Vec3::Zero();                    ///< body origin at the centre of the motion [m]
  Quat q0 = Quat::Identity();                ///< orientation at the centre of the motion
  Vec3 velocity = Vec3::Zero();              ///< v: drift of the origin [m/s]
  Vec3 angular_velocity = Vec3::Zero();      ///< ω: constant rotation rate, world [rad/s]
  Vec3 amplitude = Vec3::Zero();             ///< A: displacement amplitudes, world axes [m]
  Vec3 angular_amplitude = Vec3::Zero();     ///< Θ: rotation amplitude, rotation vector [rad]
  double frequency = 0.0;                    ///< f [Hz]
  double phase = 0.0;                        ///< φ [rad]
  std::shared_ptr<const MotionTable> table;  ///< kind table

  [[nodiscard]] bool driven() const { return kind != Kind::none; }
};

/// The pose and twist of a driven body's frame at a time.
struct DrivenPose {
  Vec3 p_WB = Vec3::Zero();  ///< origin of the body frame [m]
  Quat q_WB = Quat::Identity();
  Vec3 v_WB = Vec3::Zero();  ///< velocity of the origin [m/s]
  Vec3 w_W = Vec3::Zero();   ///< angular velocity, world [rad/s]
};

/// The pose and twist of `motion` at time t [s] (exact).
[[nodiscard]] DrivenPose driven_pose(const BodyMotion& motion, double t);

/// Bounds on the speed of the origin [m/s] and on the angular speed [rad/s] over all times (the
/// broadphase's sweep of a driven body).
[[nodiscard]] double max_speed(const BodyMotion& motion);
[[nodiscard]] double max_angular_speed(const BodyMotion& motion);

/// A piecewise-linear table of force and torque against time (scene key `load.table`); held
/// constant outside its rows.
struct LoadTable {
  std::vector<double> t;     ///< (n) [s], strictly increasing
  std::vector<Vec3> force;   ///< (n) [N]
  std::vector<Vec3> torque;  ///< (n) [N m]
};

/// Forces, torques and damping applied to a free body (scene keys `force`, `torque`,
/// `force_frame`, `force_point`, `force_table`, `damping`).
struct BodyLoad {
  Vec3 force = Vec3::Zero();    ///< constant force [N]
  Vec3 torque = Vec3::Zero();   ///< constant torque [N m]
  bool body_frame = false;      ///< force and torque (and the table's) in the body frame
  bool at_point = false;        ///< the force acts at point_B (else at the centre of mass)
  Vec3 point_B = Vec3::Zero();  ///< application point, body frame [m]
  std::shared_ptr<const LoadTable> table;  ///< added to the constants
  double linear_damping = 0.0;             ///< c_v [N s/m]
  double angular_damping = 0.0;            ///< c_ω [N m s/rad]

  [[nodiscard]] bool applies_force() const { return table || !force.isZero() || !torque.isZero(); }
  [[nodiscard]] bool damps() const { return linear_damping > 0.0 || angular_damping > 0.0; }
};

/// The force and torque (about the centre of mass) of a load at time t on a body of orientation q
/// whose centre of mass is com_B in the body frame, world frame. Damping not included.
struct Wrench {
  Vec3 force = Vec3::Zero();   ///< [N]
  Vec3 torque = Vec3::Zero();  ///< [N m]
};
[[nodiscard]] Wrench load_wrench(const BodyLoad& load, double t, const Quat& q_WB,
                                 const Vec3& com_B);

/// Rotation vector → unit quaternion (exp), and its inverse (log, angle in [0, π]).
[[nodiscard]] Quat rotation_exp(const Vec3& theta);
[[nodiscard]] Vec3 rotation_log(const Quat& q);

}  // namespace coulomb
