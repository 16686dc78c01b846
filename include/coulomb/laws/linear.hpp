#pragma once
/// @file
/// Linear spring–dashpot normal law (compliant).
///
///   N = max(0, k δ + c δ̇)  for δ > 0,   N = 0 for δ ≤ 0      (the dashpot never pulls)
///
/// | symbol | meaning                                   | unit   | range |
/// |--------|-------------------------------------------|--------|-------|
/// | δ      | penetration −g                            | m      |       |
/// | δ̇      | penetration rate −v_n                     | m/s    |       |
/// | k      | stiffness                                 | N/m    | ≥ 0   |
/// | c      | damping                                   | N s/m  | ≥ 0   |
/// | f      | undamped natural frequency √(k/m)/(2π)    | Hz     | > 0   |
/// | ζ      | damping ratio c/(2√(k m))                 | -      | ≥ 0   |
/// | m      | mass the spring acts on                   | kg     | > 0   |
///
/// Softness in physical terms: (f, ζ, m) ↦ k = m (2π f)², c = 2 ζ m (2π f) by
/// spring_damper_from_frequency(), the one conversion function.
/// Dissipated power (N − k δ) δ̇ ≥ 0; stored energy ½ k δ².
/// Scene keys: `normal: {law: linear, stiffness, damping}` or
/// `normal: {law: linear, frequency, damping_ratio, mass}` (not both).
/// References: Box2D `b2MakeSoft` (same parametrisation); Johnson, "Contact Mechanics" (1985).

#include <coulomb/laws/law.hpp>

namespace coulomb {

/// A spring–dashpot pair.
struct SpringDamper {
  double stiffness = 0.0;  ///< k [N/m]
  double damping = 0.0;    ///< c [N s/m]
};

/// k = m (2π f)², c = 2 ζ m (2π f). Preconditions (checked by callers that read files):
/// f > 0 [Hz], ζ ≥ 0, m > 0 [kg].
[[nodiscard]] SpringDamper spring_damper_from_frequency(double frequency, double damping_ratio,
                                                        double mass);

class LinearNormalLaw final : public NormalLaw {
 public:
  explicit LinearNormalLaw(const LawSpec& spec);
  LinearNormalLaw(double stiffness, double damping);

  [[nodiscard]] std::string_view name() const override { return "linear"; }
  [[nodiscard]] NormalResult evaluate(double delta, double delta_rate,
                                      const NormalGeometry& geometry) const override;
  [[nodiscard]] double potential(double delta, const NormalGeometry& geometry) const override;
  [[nodiscard]] const SpringDamper& parameters() const { return sd_; }

 private:
  SpringDamper sd_;
};

}  // namespace coulomb
