#pragma once
/// @file
/// Hunt–Crossley normal law (compliant, nonlinear damping).
///
///   N = max(0, K δ^n (1 + χ δ̇))  for δ > 0,  N = 0 for δ ≤ 0      (the dashpot never pulls)
///
/// In the notation N = K δ^n (1 + (3/2) α δ̇), i.e. χ = (3/2) α. χ is given directly
/// (`damping`) or from a target restitution e at an impact velocity v_in by one of two relations:
///   - hunt_crossley (Hunt & Crossley 1975; first order in 1 − e):  χ = 3 (1 − e)/(2 v_in)
///     (α = (1 − e)/v_in). Accurate for e → 1; the achieved e drifts as (1 − e)² grows.
///   - flores (Flores, Machado, Silva, Martins 2011):
///     χ = 8 (1 − e)/(5 e v_in). Derived for the whole range 0 < e ≤ 1 (default).
/// Dissipated power K δ^n χ δ̇² (unclamped) ≥ 0; stored energy K δ^{n+1}/(n + 1).
///
/// | symbol | meaning                                         | unit      | range        |
/// |--------|-------------------------------------------------|-----------|--------------|
/// | δ, δ̇   | penetration −g and its rate −v_n                | m, m/s    |              |
/// | K      | stiffness (Hertz K when n = 3/2 and not given)  | N/m^n     | ≥ 0          |
/// | n      | exponent                                        | -         | > 0 (1.5)    |
/// | χ      | damping factor                                  | s/m       | ≥ 0          |
/// | e      | target coefficient of restitution               | -         | [0,1] / (0,1]|
/// | v_in   | impact velocity the relation is tuned for       | m/s       | > 0          |
///
/// Scene keys: `normal: {law: hunt_crossley, stiffness, exponent, damping}` or
/// `{..., restitution, impact_velocity, relation: hunt_crossley|flores}`; without `stiffness`,
/// K = (4/3) E* √R* from the materials (exponent must then be 1.5).
/// References: Hunt & Crossley, J. Appl. Mech. 42 (1975) 440; Flores, Machado, Silva, Martins,
/// "On the continuous contact force models for soft materials in multibody dynamics", Multibody
/// Syst. Dyn. 25 (2011) 357; Gilardi & Sharf, Mech. Mach. Theory 37 (2002) 1213.

#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/law.hpp>

namespace coulomb {

/// Which α–restitution relation turns (e, v_in) into χ.
enum class RestitutionRelation : std::uint8_t { hunt_crossley, flores };

/// χ [s/m] for restitution e and impact velocity v_in [m/s] by `relation`
/// (hunt_crossley: 3(1 − e)/(2 v_in); flores: 8(1 − e)/(5 e v_in)).
[[nodiscard]] double hunt_crossley_damping(double restitution, double impact_velocity,
                                           RestitutionRelation relation);

class HuntCrossleyLaw final : public NormalLaw {
 public:
  HuntCrossleyLaw(const LawSpec& spec, const Material& material1, const Material& material2);
  /// Explicit K [N/m^n], n, χ [s/m].
  HuntCrossleyLaw(double stiffness, double exponent, double damping);

  [[nodiscard]] std::string_view name() const override { return "hunt_crossley"; }
  [[nodiscard]] NormalResult evaluate(double delta, double delta_rate,
                                      const NormalGeometry& geometry) const override;
  [[nodiscard]] double potential(double delta, const NormalGeometry& geometry) const override;
  [[nodiscard]] double damping() const { return damping_; }
  [[nodiscard]] double exponent() const { return exponent_; }

 private:
  [[nodiscard]] double stiffness(const NormalGeometry& geometry) const;
  HertzStiffness stiffness_;  ///< K, or E* and the geometry
  double exponent_ = 1.5;
  double damping_ = 0.0;  ///< χ [s/m]
};

}  // namespace coulomb
