#pragma once
/// @file
/// Signorini unilateral contact with Newton restitution (set-valued; nonsmooth formulation).
///
///   0 ≤ g ⊥ N ≥ 0   (position level),   at an impact:  v_n⁺ = −e_n v_n⁻ when the contact is
///   active, i.e. 0 ≤ v_n⁺ + e_n v_n⁻ ⊥ N ≥ 0  (velocity level, Moreau's inclusion).
///
/// | symbol | meaning                                   | unit | range   |
/// |--------|-------------------------------------------|------|---------|
/// | g      | signed gap (> 0 separated)                | m    |         |
/// | N      | normal reaction of body 1 on body 2       | N    | ≥ 0     |
/// | v_n    | normal relative velocity v·n (> 0 opening)| m/s  |         |
/// | e_n    | Newton restitution coefficient            | -    | [0, 1]  |
/// | e_t    | tangential Newton restitution (optional)  | -    | [-1, 1] |
///
/// Scene keys: `normal: {law: signorini, restitution: e_n, tangential_restitution: e_t}`
/// (defaults 0). Newton's law per component: u_{k+1} + e u_k in the cone's complementarity, e_n on
/// the normal velocity, e_t on the sliding velocity (e_t = 0: no tangential restitution; negative
/// e_t keeps part of the slip, positive e_t reverses it, as for a superball).
/// The admissible set of N is the half-line [0, ∞) (admissible_set.hpp: project_normal()).
/// References: Moreau, "Unilateral contact and dry friction in finite freedom dynamics" (1988);
/// Acary & Brogliato, "Numerical Methods for Nonsmooth Dynamical Systems" (2008) §3.2, eq. (3.36).

#include <coulomb/laws/law.hpp>

namespace coulomb {

class SignoriniLaw final : public NormalLaw {
 public:
  /// Throws LawError unless 0 ≤ restitution ≤ 1.
  explicit SignoriniLaw(const LawSpec& spec);
  explicit SignoriniLaw(double restitution);

  [[nodiscard]] std::string_view name() const override { return "signorini"; }
  [[nodiscard]] bool set_valued() const override { return true; }
  [[nodiscard]] double restitution() const override { return restitution_; }
  [[nodiscard]] double tangential_restitution() const { return tangential_restitution_; }
  /// Not defined pointwise: returns zeros (the nonsmooth solver computes N).
  [[nodiscard]] NormalResult evaluate(double, double, const NormalGeometry&) const override {
    return {};
  }
  [[nodiscard]] double potential(double, const NormalGeometry&) const override { return 0.0; }

 private:
  double restitution_ = 0.0;
  double tangential_restitution_ = 0.0;
};

}  // namespace coulomb
