#pragma once
/// @file
/// Isotropic friction F = −φ(u) v̂, u = ‖v‖ (private helper of the laws module): its Jacobian
///   ∂F/∂v = −[ φ'(u) v̂ v̂ᵀ + (φ(u)/u) (I − v̂ v̂ᵀ) ],
/// finite at u = 0 when φ(0) = 0 (φ/u → φ'(0)), and its dissipated power φ(u) u.

#include <coulomb/laws/law.hpp>

#include <cmath>

namespace coulomb::detail {

/// φ(u), φ'(u), φ(u)/u (its limit at u = 0) and ∂φ/∂N.
struct Magnitude {
  double phi = 0.0;
  double dphi = 0.0;
  double phi_over_u = 0.0;
  double dphi_dn = 0.0;
};

/// Fills force, d_slip, d_normal and power of `r` for slip v of norm u.
inline void isotropic_friction(const Vec2& v, double u, const Magnitude& m, TangentialResult& r) {
  if (u > 0.0) {
    const Vec2 dir = v / u;
    const Mat2 along = dir * dir.transpose();
    r.force = -m.phi * dir;
    r.d_slip = -(m.dphi * along + m.phi_over_u * (Mat2::Identity() - along));
    r.d_normal = -m.dphi_dn * dir;
    r.power = m.phi * u;
  } else {
    // At v = 0 the force vanishes (φ(0) = 0) and the Jacobian is −φ'(0) I.
    r.force.setZero();
    r.d_slip = -m.phi_over_u * Mat2::Identity();
    r.d_normal.setZero();
    r.power = 0.0;
  }
}

}  // namespace coulomb::detail

namespace coulomb::detail {

/// Smoothing of sign(u) near u = 0 over a regularisation velocity v_r: s(u), s'(u) and s(u)/u.
///   linear (linear-saturated): s = min(u/v_r, 1);   tanh: s = tanh(u/v_r).
struct Saturation {
  double s = 0.0;
  double ds = 0.0;
  double s_over_u = 0.0;
};

inline Saturation saturate(double u, double v_r, bool tanh_form) {
  Saturation out;
  const double x = u / v_r;
  if (tanh_form) {
    out.s = std::tanh(x);
    out.ds = (1.0 - out.s * out.s) / v_r;
    // tanh(x)/x, with its series below x = 1e-4 (error < 1e-17).
    out.s_over_u = (x < 1e-4 ? 1.0 - x * x / 3.0 : out.s / x) / v_r;
  } else if (x < 1.0) {
    out.s = x;
    out.ds = 1.0 / v_r;
    out.s_over_u = 1.0 / v_r;
  } else {
    out.s = 1.0;
    out.ds = 0.0;
    out.s_over_u = 1.0 / u;
  }
  return out;
}

}  // namespace coulomb::detail
