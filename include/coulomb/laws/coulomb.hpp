#pragma once
/// @file
/// Coulomb friction, set-valued, on the exact circular cone, with static and kinetic coefficients;
/// optionally anisotropic (elliptic cone).
///
///   ‖F_t‖ ≤ μ N,   and  v_t ≠ 0  ⇒  F_t = −μ N v_t/‖v_t‖            (isotropic)
///   ‖D⁻¹ F_t‖ ≤ N, D = diag(μ1, μ2), and v_t ≠ 0 ⇒ F_t = −N D² v_t/‖D v_t‖  (anisotropic: maximal
///   dissipation on the elliptic cone; μ1 along t1, μ2 along t2)
///
/// | symbol  | meaning                                       | unit | range |
/// |---------|-----------------------------------------------|------|-------|
/// | μ_s     | static coefficient (contact stuck before)     | -    | ≥ 0   |
/// | μ_k     | kinetic coefficient (contact slid before)     | -    | ≥ 0   |
/// | μ1, μ2  | anisotropic coefficients along t1, t2         | -    | ≥ 0   |
///
/// Static/kinetic rule at transitions (cone_coefficients): the cone of a step uses μ_k when the
/// contact slid at the previous step (memory.sticking == false and previous_slip ≠ 0), and μ_s
/// otherwise (it stuck, or it is new). So a block at rest on an incline stays iff tan α ≤ μ_s, and
/// once sliding it decelerates with μ_k until it sticks.
/// Compliant use (the compliant formulation): evaluate() gives the slip branch scaled by the
/// explicit regularisation s = min(1, ‖v_t‖/v_r) (key `regularization`, compliant only, default
/// 1e-4 m/s, the same form as the Contensou law's): F_t = −s μ_k N v̂, or −s N D²v/‖Dv‖
/// anisotropic; below v_r it is a viscous law. It has no stick branch, so the compliant
/// formulation rejects μ_s ≠ μ_k (static_coefficient_differs(); stribeck or elastic_stick model a
/// static coefficient there).
/// Dissipated power −F_t·v_t = μ N ‖v_t‖ (isotropic), N ‖D v_t‖ (anisotropic).
/// Scene keys: `friction: {law: coulomb, mu}` (both coefficients) or `{mu_s, mu_k}`, or
/// `{mu_t1, mu_t2}` (anisotropic; no static/kinetic distinction).
/// References: Coulomb (1785); Moreau (1988); Acary & Brogliato (2008) §3.9; anisotropic cone:
/// Walker & Leine, "Set-valued anisotropic dry friction laws", Acta Mech. 230 (2019) 2189.

#include <coulomb/laws/law.hpp>

namespace coulomb {

class CoulombLaw final : public FrictionLaw {
 public:
  explicit CoulombLaw(const LawSpec& spec);
  CoulombLaw(double mu_s, double mu_k);

  [[nodiscard]] std::string_view name() const override { return "coulomb"; }
  [[nodiscard]] bool set_valued() const override { return true; }
  [[nodiscard]] Vec2 cone_coefficients(const FrictionMemory& memory) const override;
  [[nodiscard]] TangentialResult evaluate(const TangentialInput& input,
                                          const FrictionMemory& memory) const override;
  [[nodiscard]] double mu_s() const { return mu_s_; }
  [[nodiscard]] double mu_k() const { return mu_k_; }
  [[nodiscard]] bool anisotropic() const { return anisotropic_; }
  /// μ_s ≠ μ_k: a static coefficient, which the compliant form cannot honour.
  [[nodiscard]] bool static_coefficient_differs() const { return mu_s_ != mu_k_; }
  [[nodiscard]] double regularization() const { return v_r_; }  ///< v_r [m/s]

 private:
  double mu_s_ = 0.0, mu_k_ = 0.0;
  double v_r_ = 1e-4;  ///< [m/s]
  Vec2 mu_aniso_ = Vec2::Zero();
  bool anisotropic_ = false;
};

}  // namespace coulomb
