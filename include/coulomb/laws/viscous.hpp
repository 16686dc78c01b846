#pragma once
/// @file
/// Viscous friction (compliant):  F_t = −c v_t.
///
/// | symbol | meaning             | unit   | range |
/// |--------|---------------------|--------|-------|
/// | c      | viscous coefficient | N s/m  | ≥ 0   |
///
/// Independent of N. Dissipated power c ‖v_t‖² ≥ 0. The cone coefficients are +∞ (no cap).
/// Scene keys: `friction: {law: viscous, damping: c}` (required).
/// References: e.g. Olsson, Åström et al., "Friction models and friction compensation",
/// Eur. J. Control 4 (1998) 176, §2.

#include <coulomb/laws/law.hpp>

namespace coulomb {

class ViscousLaw final : public FrictionLaw {
 public:
  explicit ViscousLaw(const LawSpec& spec);
  explicit ViscousLaw(double damping);

  [[nodiscard]] std::string_view name() const override { return "viscous"; }
  [[nodiscard]] Vec2 cone_coefficients(const FrictionMemory&) const override {
    return {kInf, kInf};
  }
  [[nodiscard]] TangentialResult evaluate(const TangentialInput& input,
                                          const FrictionMemory& memory) const override;

 private:
  double damping_ = 0.0;  ///< c [N s/m]
};

}  // namespace coulomb
