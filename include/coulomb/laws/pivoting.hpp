#pragma once
/// @file
/// Pivoting friction (seed textbook, definition 10.3.15) and the soft-finger model.
///
///   set-valued:  |M_n| ≤ h N,  and  ω_n ≠ 0  ⇒  M_n = −h N sign(ω_n)
///   compliant:   M_n = −h N s(|ω_n|) sign(ω_n),  s(w) = min(w/ω_r, 1) (linear) or tanh(w/ω_r)
///   soft finger: the same with h = r_t μ, i.e. |τ_n| ≤ r_t μ N (μ of the contact's friction law).
///
/// | symbol | meaning                                   | unit  | range | default |
/// |--------|-------------------------------------------|-------|-------|---------|
/// | h      | pivoting length                           | m     | ≥ 0   | required|
/// | r_t    | soft-finger torsional radius              | m     | ≥ 0   | required|
/// | μ      | friction coefficient (soft finger)        | -     | ≥ 0   |         |
/// | ω_r    | regularisation angular speed (compliant)  | rad/s | > 0   | 1e-3    |
///
/// ω_n = ω·n, ω = ω_2 − ω_1; M_n the moment of body 1 on body 2 about n. Dissipated power
/// −M_n ω_n = h N s |ω_n| ≥ 0 (EnergyKind::pivoting). Nonsmooth admissible set in (N, M_n): the
/// 2-D cone |M_n| ≤ h N (admissible_set.hpp: IntervalCone{h}).
/// Closed-form check: a sphere spinning on a plane decelerates at dω_n/dt = −h m g/I.
/// Scene keys: `pivoting: {h, regularization, form}`, `soft_finger: {radius, regularization,
/// form}`. References: the seed textbook, def. 10.3.15; soft finger: Kao & Cutkosky, IJRR 11 (1992)
/// 20; Murray, Li, Sastry, "A Mathematical Introduction to Robotic Manipulation" (1994) §5.2.

#include <coulomb/laws/law.hpp>

namespace coulomb {

class PivotingFrictionLaw final : public PivotingLaw {
 public:
  /// From `pivoting: {h, ...}`.
  explicit PivotingFrictionLaw(const LawSpec& spec);
  /// From `soft_finger: {radius, ...}` and μ: h = radius μ.
  PivotingFrictionLaw(const LawSpec& soft_finger, double mu);
  PivotingFrictionLaw(double h, double regularization);

  [[nodiscard]] double coefficient() const override { return h_; }
  [[nodiscard]] PivotingResult evaluate(double omega_n, double normal_force) const override;

 private:
  double h_ = 0.0;     ///< [m]
  double w_r_ = 1e-3;  ///< [rad/s]
  bool tanh_ = false;
};

}  // namespace coulomb
