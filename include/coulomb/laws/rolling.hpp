#pragma once
/// @file
/// Rolling friction (seed textbook, definition 10.3.14): a moment about the tangent plane that
/// opposes rolling, bounded by k N.
///
///   set-valued:  ‖M_t‖ ≤ k N,  and  ω_t ≠ 0  ⇒  M_t = −k N ω_t/‖ω_t‖
///   compliant:   M_t = −k N s(‖ω_t‖) ω_t/‖ω_t‖,  s(w) = min(w/ω_r, 1) (linear) or tanh(w/ω_r)
///
/// | symbol | meaning                                  | unit  | range | default |
/// |--------|------------------------------------------|-------|-------|---------|
/// | k      | rolling-friction length                  | m     | ≥ 0   | required|
/// | ω_r    | regularisation angular speed (compliant) | rad/s | > 0   | 1e-3    |
///
/// ω_t = n × (ω × n), ω = ω_2 − ω_1; M_t is the moment of body 1 on body 2 (DESIGN.md §1).
/// Dissipated power −M_t·ω_t = k N s ‖ω_t‖ ≥ 0 (EnergyKind::rolling). The nonsmooth admissible set
/// in (N, M_t1, M_t2) is the circular cone of aperture k (admissible_set.hpp: CircularCone{k}).
/// Closed-form check: a sphere (radius R) rolling on a plane decelerates at (5/7) g k/R.
/// Scene keys: `rolling: {k, regularization, form: linear|tanh}`.
/// References: the seed textbook, def. 10.3.14; Leine & Glocker, Eur. J. Mech. A 22 (2003) 193.

#include <coulomb/laws/law.hpp>

namespace coulomb {

class RollingFrictionLaw final : public RollingLaw {
 public:
  explicit RollingFrictionLaw(const LawSpec& spec);
  RollingFrictionLaw(double k, double regularization);

  [[nodiscard]] double coefficient() const override { return k_; }
  [[nodiscard]] RollingResult evaluate(const Vec2& omega_t, double normal_force) const override;

 private:
  double k_ = 0.0;     ///< [m]
  double w_r_ = 1e-3;  ///< [rad/s]
  bool tanh_ = false;
};

}  // namespace coulomb
