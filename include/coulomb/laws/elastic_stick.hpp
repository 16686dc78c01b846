#pragma once
/// @file
/// Elastic stick with a Coulomb cap: the tangential part of code_aster's DIS_CHOC law (compliant,
/// with per-contact memory).
///
/// Per evaluation, with x_t the tangential relative displacement, v_t the slip, and the memory
/// (stick flag, anchor force F0, anchor position x0, previous slip v_prev):
///   - free contact (N ≤ 0): F_t = 0; memory := slipping, F0 := 0, x0 := x_t.
///   - slipping branch, if the contact was slipping, v_t·v_prev ≥ 0 and ‖v_t‖ > ε:
///       F_t = −μ_k N v_t/‖v_t‖;  F0 := F_t;  x0 := x_t.
///   - otherwise sticking: F_t = F0 − K_t (x_t − x0) − C_t v_t; if ‖F_t‖ > μ_s N the contact slips:
///       F_t = −μ_k N v_t/‖v_t‖ (0 if v_t = 0), F0 := F_t, x0 := x_t; else it sticks (anchor kept).
/// The returned memory is the state to commit at the end of the step (code_aster's explicit
/// update).
///
/// Continuous time (the compliant formulation, docs/compliant.md): with `input.hold_branch` the
/// branch of `memory.sticking` is kept whatever the cap and the threshold say, and the
/// integrator switches it where switching_function() crosses zero: stick → slip where
/// ‖F_stick‖ reaches μ_s N, slip → stick where ‖v_t‖ falls to ε. At a stick entry the anchor
/// force is the slip force plus C_t v_t, so that the force is continuous (code_aster's explicit
/// step sets F0 = F_slip: the two differ by C_t ε).
///
/// | symbol | meaning                                    | unit  | range | default | code_aster   |
/// |--------|--------------------------------------------|-------|-------|---------|--------------|
/// | K_t    | tangential stiffness                       | N/m   | ≥ 0   | 0       | RIGI_TAN     |
/// | C_t    | tangential damping                         | N s/m | ≥ 0   | 0       | AMOR_TAN     |
/// | μ_s    | static coefficient                         | -     | ≥ 0   | μ       | COULOMB_STAT |
/// | μ_k    | kinetic coefficient (code_aster's μ_d)     | -     | ≥ 0   | μ       | COULOMB_DYNA |
/// | ε      | slip-speed threshold                       | m/s   | > 0   | 1e-6    |              |
///
/// Powers: slipping μ_k N ‖v_t‖; sticking C_t ‖v_t‖² (the spring part stores
/// ½ ‖F0 − K_t (x_t − x0)‖²/K_t, reported as `stored`).
/// code_aster's default C_t when K_t > 0 is tangential_damping_default() (heaviest mode m, k, ξ).
/// Scene keys: `friction: {law: elastic_stick, stiffness: K_t, damping: C_t, mu | mu_s + mu_k,
/// threshold: ε}`.
/// References: code_aster R5.06.02 (DIS_CHOC), via the project's reference notes.

#include <coulomb/laws/law.hpp>

namespace coulomb {

/// code_aster's default tangential damping C_t = 2√(m (k + K_t)) − 2ξ√(k m) [N s/m] for the
/// heaviest mode (mass m [kg], stiffness k [N/m], damping ratio ξ) and K_t [N/m].
[[nodiscard]] double tangential_damping_default(double mass, double stiffness, double damping_ratio,
                                                double tangential_stiffness);

class ElasticStickLaw final : public FrictionLaw {
 public:
  explicit ElasticStickLaw(const LawSpec& spec);

  [[nodiscard]] std::string_view name() const override { return "elastic_stick"; }
  [[nodiscard]] Vec2 cone_coefficients(const FrictionMemory& memory) const override {
    const double mu = memory.sticking ? mu_s_ : mu_k_;
    return {mu, mu};
  }
  [[nodiscard]] TangentialResult evaluate(const TangentialInput& input,
                                          const FrictionMemory& memory) const override;
  [[nodiscard]] bool has_stick_branch() const override { return true; }
  [[nodiscard]] double switching_function(const TangentialInput& input,
                                          const FrictionMemory& memory) const override;
  /// The stick force F0 − K_t (x_t − x0) − C_t v_t [N] and its spring part F0 − K_t (x_t − x0).
  [[nodiscard]] Vec2 stick_force(const TangentialInput& input, const FrictionMemory& memory) const;
  [[nodiscard]] double stiffness() const { return k_t_; }  ///< K_t [N/m]
  [[nodiscard]] double damping() const { return c_t_; }    ///< C_t [N s/m]
  [[nodiscard]] double mu_s() const { return mu_s_; }
  [[nodiscard]] double mu_k() const { return mu_k_; }
  [[nodiscard]] double threshold() const { return threshold_; }  ///< ε [m/s]

 private:
  double k_t_ = 0.0, c_t_ = 0.0;
  double mu_s_ = 0.0, mu_k_ = 0.0;
  double threshold_ = 1e-6;  ///< ε [m/s]
};

}  // namespace coulomb
