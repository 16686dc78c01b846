/// @file
/// Driven motions and applied loads: the closed forms of coulomb/model/actuation.hpp.

#include <coulomb/model/actuation.hpp>

#include <algorithm>
#include <cmath>

namespace coulomb {

Quat rotation_exp(const Vec3& theta) {
  const double angle = theta.norm();
  if (angle < 1e-300) return Quat::Identity();
  return Quat(Eigen::AngleAxisd(angle, theta / angle));
}

Vec3 rotation_log(const Quat& q) {
  Quat u = q.normalized();
  if (u.w() < 0.0) u.coeffs() = -u.coeffs();
  const double s = u.vec().norm();
  if (s < 1e-300) return Vec3::Zero();
  const double angle = 2.0 * std::atan2(s, u.w());
  return (angle / s) * u.vec();
}

namespace {

// The segment of a table holding t: index i with t[i] <= t < t[i+1], or -1 before the first row,
// n - 1 at or after the last.
template <class Times>
std::ptrdiff_t segment(const Times& times, double t) {
  if (t < times.front()) return -1;
  const auto it = std::upper_bound(times.begin(), times.end(), t);
  return (it - times.begin()) - 1;
}

}  // namespace

DrivenPose driven_pose(const BodyMotion& m, double t) {
  DrivenPose out;
  switch (m.kind) {
    case BodyMotion::Kind::none:
      out.p_WB = m.p0;
      out.q_WB = m.q0;
      break;
    case BodyMotion::Kind::twist:
    case BodyMotion::Kind::sinusoid: {
      // p = p0 + v t + A s(t), rotation vector ω t + Θ s(t) about a fixed axis (ω ∥ Θ).
      double s = 0.0, ds = 0.0;
      if (m.kind == BodyMotion::Kind::sinusoid) {
        const double omega = 2.0 * kPi * m.frequency;
        s = std::sin(omega * t + m.phase);
        ds = omega * std::cos(omega * t + m.phase);
      }
      out.p_WB = m.p0 + t * m.velocity + s * m.amplitude;
      out.v_WB = m.velocity + ds * m.amplitude;
      out.q_WB = rotation_exp(t * m.angular_velocity + s * m.angular_amplitude) * m.q0;
      out.w_W = m.angular_velocity + ds * m.angular_amplitude;
      break;
    }
    case BodyMotion::Kind::table: {
      const MotionTable& tab = *m.table;
      const std::ptrdiff_t i = segment(tab.t, t);
      const auto n = static_cast<std::ptrdiff_t>(tab.t.size());
      if (tab.velocities) {
        // Twist linear over the segment (held after the last row, zero before the first); the
        // pose its exact integral from the row.
        const auto k = static_cast<std::size_t>(std::max<std::ptrdiff_t>(i, 0));
        const bool last = i >= n - 1;
        const double tau = i < 0 ? 0.0 : t - tab.t[k];
        const double dt = last ? 1.0 : tab.t[k + 1] - tab.t[k];
        const Vec3 dv = last ? Vec3::Zero() : Vec3((tab.v[k + 1] - tab.v[k]) / dt);
        const Vec3 dw = last ? Vec3::Zero() : Vec3((tab.w[k + 1] - tab.w[k]) / dt);
        out.p_WB = m.p0 + tab.d[k] + tau * tab.v[k] + (0.5 * tau * tau) * dv;
        out.q_WB =
            (rotation_exp(tau * tab.w[k] + (0.5 * tau * tau) * dw) * tab.q[k]).normalized() * m.q0;
        out.v_WB = i < 0 ? Vec3::Zero() : Vec3(tab.v[k] + tau * dv);
        out.w_W = i < 0 ? Vec3::Zero() : Vec3(tab.w[k] + tau * dw);
        break;
      }
      if (i < 0 || i >= n - 1) {
        const auto k = static_cast<std::size_t>(i < 0 ? 0 : n - 1);
        out.p_WB = m.p0 + tab.d[k];
        out.q_WB = tab.q[k] * m.q0;
        break;
      }
      const auto k = static_cast<std::size_t>(i);
      const double dt = tab.t[k + 1] - tab.t[k];
      const double a = (t - tab.t[k]) / dt;
      const Vec3 v = (tab.d[k + 1] - tab.d[k]) / dt;
      // Q(t) = exp(a log(Q_{k+1} Q_kᵀ)) Q_k: constant world angular velocity over the segment.
      const Vec3 turn = rotation_log(tab.q[k + 1] * tab.q[k].conjugate());
      out.p_WB = m.p0 + tab.d[k] + (t - tab.t[k]) * v;
      out.v_WB = v;
      out.q_WB = (rotation_exp(a * turn) * tab.q[k]).normalized() * m.q0;
      out.w_W = turn / dt;
      break;
    }
  }
  return out;
}

int MotionTable::integrate_velocities() {
  const std::size_t n = t.size();
  d.assign(n, Vec3::Zero());
  q.assign(n, Quat::Identity());
  for (std::size_t k = 0; k + 1 < n; ++k) {
    // ω_k and ω_{k+1} on one axis (or one of them zero): the rotation is exp of the integral.
    if (w[k].cross(w[k + 1]).norm() > 1e-12 * w[k].norm() * w[k + 1].norm() ||
        (w[k].dot(w[k + 1]) < 0.0))
      return static_cast<int>(k + 1);
    const double dt = t[k + 1] - t[k];
    d[k + 1] = d[k] + (0.5 * dt) * (v[k] + v[k + 1]);
    q[k + 1] = (rotation_exp((0.5 * dt) * (w[k] + w[k + 1])) * q[k]).normalized();
  }
  return -1;
}

double max_speed(const BodyMotion& m) {
  switch (m.kind) {
    case BodyMotion::Kind::none:
      return 0.0;
    case BodyMotion::Kind::twist:
      return m.velocity.norm();
    case BodyMotion::Kind::sinusoid:
      return m.velocity.norm() + 2.0 * kPi * m.frequency * m.amplitude.norm();
    case BodyMotion::Kind::table: {
      double v = 0.0;
      const MotionTable& tab = *m.table;
      if (tab.velocities) {
        for (const Vec3& x : tab.v) v = std::max(v, x.norm());
        return v;
      }
      for (std::size_t k = 0; k + 1 < tab.t.size(); ++k)
        v = std::max(v, (tab.d[k + 1] - tab.d[k]).norm() / (tab.t[k + 1] - tab.t[k]));
      return v;
    }
  }
  return 0.0;
}

double max_angular_speed(const BodyMotion& m) {
  switch (m.kind) {
    case BodyMotion::Kind::none:
      return 0.0;
    case BodyMotion::Kind::twist:
      return m.angular_velocity.norm();
    case BodyMotion::Kind::sinusoid:
      return m.angular_velocity.norm() + 2.0 * kPi * m.frequency * m.angular_amplitude.norm();
    case BodyMotion::Kind::table: {
      double w = 0.0;
      const MotionTable& tab = *m.table;
      if (tab.velocities) {
        for (const Vec3& x : tab.w) w = std::max(w, x.norm());
        return w;
      }
      for (std::size_t k = 0; k + 1 < tab.t.size(); ++k)
        w = std::max(w, rotation_log(tab.q[k + 1] * tab.q[k].conjugate()).norm() /
                            (tab.t[k + 1] - tab.t[k]));
      return w;
    }
  }
  return 0.0;
}

Wrench load_wrench(const BodyLoad& load, double t, const Quat& q_WB, const Vec3& com_B) {
  Vec3 f = load.force, tau = load.torque;
  if (load.table) {
    // Piecewise-linear in time, held constant outside the rows.
    const LoadTable& tab = *load.table;
    const std::ptrdiff_t i = segment(tab.t, t);
    const auto n = static_cast<std::ptrdiff_t>(tab.t.size());
    if (i < 0 || i >= n - 1) {
      const auto k = static_cast<std::size_t>(i < 0 ? 0 : n - 1);
      f += tab.force[k];
      tau += tab.torque[k];
    } else {
      const auto k = static_cast<std::size_t>(i);
      const double a = (t - tab.t[k]) / (tab.t[k + 1] - tab.t[k]);
      f += (1.0 - a) * tab.force[k] + a * tab.force[k + 1];
      tau += (1.0 - a) * tab.torque[k] + a * tab.torque[k + 1];
    }
  }
  Wrench w;
  w.force = load.body_frame ? Vec3(q_WB * f) : f;
  w.torque = load.body_frame ? Vec3(q_WB * tau) : tau;
  if (load.at_point) w.torque += (q_WB * (load.point_B - com_B)).cross(w.force);
  return w;
}

}  // namespace coulomb
