#pragma once
/// @file
/// Stribeck friction (compliant) with an optional viscous term.
///
///   μ(u) = μ_k + (μ_s − μ_k) exp(−(u/v_s)^δ),   u = ‖v_t‖
///   F_t = −[ μ(u) N s(u) + c_v u ] v_t/u,   s(u) = tanh(u/v_r) or min(u/v_r, 1)
///
/// s(u) is the explicit regularisation of sign(v_t) at v_t = 0 (as for regularized.hpp).
///
/// | symbol | meaning                         | unit  | range | default   |
/// |--------|---------------------------------|-------|-------|-----------|
/// | μ_s    | static (breakaway) coefficient  | -     | ≥ 0   | required  |
/// | μ_k    | kinetic (Coulomb) coefficient   | -     | ≥ 0   | required  |
/// | v_s    | Stribeck velocity               | m/s   | > 0   | required  |
/// | δ      | Stribeck exponent               | -     | > 0   | 2         |
/// | c_v    | viscous coefficient             | N s/m | ≥ 0   | 0         |
/// | v_r    | regularisation velocity         | m/s   | > 0   | 1e-4      |
///
/// Dissipated power [μ(u) N s(u) + c_v u] u ≥ 0.
/// Scene keys: `friction: {law: stribeck, mu_s, mu_k, stribeck_velocity, exponent, viscous,
/// regularization, form: tanh|linear}`.
/// References: Stribeck (1902); Armstrong-Hélouvry, Dupont, Canudas de Wit, Automatica 30 (1994)
/// 1083, eq. (3) (the exponential form with exponent δ); Olsson et al. (1998) §2.

#include <coulomb/laws/law.hpp>

namespace coulomb {

/// The Stribeck curve μ(u) for u = ‖v_t‖ ≥ 0 [m/s].
[[nodiscard]] double stribeck_mu(double u, double mu_s, double mu_k, double v_s, double exponent);

class StribeckLaw final : public FrictionLaw {
 public:
  explicit StribeckLaw(const LawSpec& spec);

  [[nodiscard]] std::string_view name() const override { return "stribeck"; }
  [[nodiscard]] Vec2 cone_coefficients(const FrictionMemory&) const override {
    const double mu = std::max(mu_s_, mu_k_);
    return {mu, mu};
  }
  [[nodiscard]] TangentialResult evaluate(const TangentialInput& input,
                                          const FrictionMemory& memory) const override;
  /// μ(u) of this law.
  [[nodiscard]] double mu(double u) const { return stribeck_mu(u, mu_s_, mu_k_, v_s_, exponent_); }

 private:
  double mu_s_ = 0.0, mu_k_ = 0.0;
  double v_s_ = 1.0;       ///< [m/s]
  double exponent_ = 2.0;  ///< δ
  double viscous_ = 0.0;   ///< c_v [N s/m]
  double v_r_ = 1e-4;      ///< [m/s]
  bool tanh_ = true;
};

}  // namespace coulomb
