#pragma once
/// @file
/// Tsuji's nonlinear spring–dashpot normal law (compliant), the damping of many DEM codes:
///
///   N = K δ^{3/2} + η δ^{1/4} δ̇   for δ > 0, clamped at N ≥ 0 (no pull);   N = 0 for δ ≤ 0,
///   K = (4/3) E* √R* (Hertz, from the materials) unless `stiffness` is given.
///
/// The damping grows with the contact radius (δ^{1/4} ∝ √a): with η = α √(m* K) the coefficient
/// of restitution depends on α only, not on the impact speed (Tsuji, Tanaka & Ishida 1992, with
/// their table of α(e)).
///
/// | symbol | meaning                                | unit          | range |
/// |--------|----------------------------------------|---------------|-------|
/// | δ, δ̇   | penetration −g and its rate            | m, m/s        |       |
/// | K      | Hertz stiffness                        | N/m^{3/2}     | ≥ 0   |
/// | η      | damping                                | N s/m^{5/4}   | ≥ 0   |
///
/// Stored energy (2/5) K δ^{5/2}; dissipated power (N − K δ^{3/2}) δ̇ ≥ 0 (η δ^{1/4} δ̇² when not
/// clamped; −K δ^{3/2} δ̇ when the clamp holds N at 0 during separation).
/// Scene keys: `normal: {law: tsuji, stiffness: K, damping: η}`, or without `stiffness` with
/// `young_modulus`/`poisson_ratio` from the two materials (or in the map, overriding both).
/// Formulations: compliant. Reference: Y. Tsuji, T. Tanaka, T. Ishida, "Lagrangian numerical
/// simulation of plug flow of cohesionless particles in a horizontal pipe", Powder Technol. 71
/// (1992) 239–250, eq. (8).

#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/law.hpp>

namespace coulomb {

class TsujiLaw final : public NormalLaw {
 public:
  /// Explicit `stiffness`, or E* from `young_modulus`/`poisson_ratio` (law map, else materials).
  TsujiLaw(const LawSpec& spec, const Material& material1, const Material& material2);

  [[nodiscard]] std::string_view name() const override { return "tsuji"; }
  [[nodiscard]] NormalResult evaluate(double delta, double delta_rate,
                                      const NormalGeometry& geometry) const override;
  [[nodiscard]] double potential(double delta, const NormalGeometry& geometry) const override;
  /// K [N/m^{3/2}] for this geometry.
  [[nodiscard]] double stiffness(const NormalGeometry& geometry) const;

 private:
  HertzStiffness stiffness_;  ///< K [N/m^{3/2}], or E* and R*
  double damping_ = 0.0;      ///< η [N s/m^{5/4}]
};

}  // namespace coulomb
