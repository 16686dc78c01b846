#pragma once
/// @file
/// Regularised Coulomb friction (compliant), with an explicit regularisation velocity v_r.
///
///   F_t = −μ N s(‖v_t‖) v_t/‖v_t‖,   s(u) = min(u/v_r, 1)   (form: linear, "linear-saturated")
///                                    s(u) = tanh(u/v_r)      (form: tanh)
///
/// | symbol | meaning                    | unit | range | default |
/// |--------|----------------------------|------|-------|---------|
/// | μ      | friction coefficient       | -    | ≥ 0   | required|
/// | v_r    | regularisation velocity    | m/s  | > 0   | required|
///
/// The law sticks "softly": below v_r it is a viscous law of coefficient μN/v_r; a body on an
/// incline with tan α < μ creeps at ≈ v_r tan α/μ. Dissipated power μ N s(u) u ≥ 0. Scene keys:
/// `friction: {law: regularized, mu, regularization: v_r, form: linear|tanh}` (form defaults to
/// tanh). References: Oden & Martins, CMAME 52 (1985) 527 (regularised friction); Andersson,
/// Söderberg, Björklund, "The friction process ... regularisation", Tribol. Int. 40 (2007) 580.

#include <coulomb/laws/law.hpp>

namespace coulomb {

class RegularizedCoulombLaw final : public FrictionLaw {
 public:
  explicit RegularizedCoulombLaw(const LawSpec& spec);
  /// μ, v_r [m/s], tanh form (true) or linear-saturated (false).
  RegularizedCoulombLaw(double mu, double regularization, bool tanh_form);

  [[nodiscard]] std::string_view name() const override { return "regularized"; }
  [[nodiscard]] Vec2 cone_coefficients(const FrictionMemory&) const override { return {mu_, mu_}; }
  [[nodiscard]] TangentialResult evaluate(const TangentialInput& input,
                                          const FrictionMemory& memory) const override;

 private:
  double mu_ = 0.0;
  double v_r_ = 1.0;  ///< [m/s]
  bool tanh_ = true;
};

}  // namespace coulomb
