#pragma once
/// @file
/// Rolling without slipping: a non-holonomic contact constraint (set-valued; nonsmooth
/// formulation only).
///
/// The law is the limit μ → ∞ of Signorini–Coulomb contact on the circular cone. With the
/// impulse r = (r_N, r_T) of body 1 on body 2 and the relative velocity u = (u_N, u_T) of 2 with
/// respect to 1 in the contact frame (t1, t2, n) (docs/conventions.md):
///
///   open:    r = 0,                     u_N ≥ 0   (u_T free)
///   closed:  u_N = 0, u_T = 0,           r_N ≥ 0   (r_T ∈ R², unbounded)
///
/// i.e. Signorini in the normal direction (0 ≤ u_N ⊥ r_N ≥ 0, Newton restitution folded into u_N
/// as for every contact) and, while the contact is closed, the two velocity constraints
/// v_{I∈2} − v_{I∈1} = 0 along t1 and t2: a constraint on velocities that is not the derivative of
/// one on positions (non-holonomic). The admissible set of r is the limit of the cones
/// K_μ = {‖r_T‖ ≤ μ r_N}: K_∞ = {r_N > 0} ∪ {0}, a convex cone that is not closed (r_N = 0 forces
/// r_T = 0: a contact that opens transmits nothing). Its dual cone is K_∞* = {u_N ≥ 0, u_T = 0},
/// and De Saxcé's modified velocity û = u + [μ‖u_T‖, 0, 0] has no limit, so the law is written by
/// its graph, the union of two convex cones in (r, u):
///
///   G_open = {r = 0, u_N ≥ 0},   G_closed = {u = 0, r_N ≥ 0}     (complementarity form:
///   r_N ≥ 0, u_N ≥ 0, r_N u_N = 0, and r_N > 0 ⇒ u_T = 0, r_N = 0 ⇒ r_T = 0).
///
/// Its natural-map residual (coulomb/nonsmooth/no_slip.hpp) is the smaller of the two branches'
/// residuals; the Alart–Curnier function is the μ → ∞ limit of the Coulomb one.
///
/// Pivoting and rolling are free: the constraint is on the relative velocity of the contact
/// point only, so the relative spin about the normal (pivoting) and the rolling rate are not
/// constrained (the classical rolling ball: Routh, Neimark & Fufaev). A contact with `no_slip`
/// takes no moment law (rolling, pivoting, soft_finger, contensou are refused at their key): the
/// law is the 3-unknown problem's, and a pivoting resistance would need its 6-unknown limit, which
/// is not built.
///
/// | symbol | meaning                                            | unit  | range        |
/// |--------|----------------------------------------------------|-------|--------------|
/// | r_N    | normal impulse of body 1 on body 2 over the step   | N s   | ≥ 0          |
/// | r_T    | tangential impulse (t1, t2)                        | N s   | unbounded    |
/// | u_N    | normal relative velocity (> 0 opening)             | m/s   |              |
/// | u_T    | slip velocity v_{I∈2} − v_{I∈1} on (t1, t2)         | m/s   | 0 if closed  |
///
/// No parameters. Scene keys: `friction: {law: no_slip}` (why a friction law and not a contact
/// key: it replaces the tangential law of the pair, exactly as the Coulomb law it is the limit of,
/// and the registry then says which formulation runs it: the compliant formulation, which has no
/// constraint impulses, refuses it at `friction.law`). It is carried through the solvers as μ = +∞
/// in the 3-unknown problem (problem.hpp), so every solver and the error measure dispatch on
/// `is_no_slip(μ)`.
///
/// The local problem of one contact, u = W r + q (W 3×3 symmetric positive definite), has the
/// closed-form answer r = −W⁻¹q when its normal part is > 0, else r = 0 when q_N ≥ 0. When W
/// couples normal and tangential directions (W_NT ≠ 0: not for a sphere, whose normal passes
/// through its centre) both can fail: the local problem then has no solution (the limit of the
/// Coulomb solutions for μ → ∞ slides with r_N → 0 and a finite r_T, Painlevé's paradox), and the
/// solver reports the contact as not converged rather than answer it.
///
/// References: E. J. Routh, Advanced Rigid Dynamics (1905) §§ 239–244 (the sphere on a rotating
/// plane); J. I. Neimark, N. A. Fufaev, Dynamics of Nonholonomic Systems (1972) ch. 1; J. J.
/// Moreau, "Unilateral contact and dry friction in finite freedom dynamics" (1988); G. De Saxcé,
/// Z.-Q. Feng (1991); V. Acary, B. Brogliato, Numerical Methods for Nonsmooth Dynamical Systems
/// (2008) ch. 13.

#include <coulomb/laws/law.hpp>

namespace coulomb {

class NoSlipLaw final : public FrictionLaw {
 public:
  /// No parameters: throws LawError at any key.
  explicit NoSlipLaw(const LawSpec& spec);

  [[nodiscard]] std::string_view name() const override { return "no_slip"; }
  [[nodiscard]] bool set_valued() const override { return true; }
  /// μ = +∞ in both directions (the limit of the cone).
  [[nodiscard]] Vec2 cone_coefficients(const FrictionMemory&) const override {
    return {kInf, kInf};
  }
  /// Not defined pointwise (a constraint): zero force; the nonsmooth solver computes r_T.
  [[nodiscard]] TangentialResult evaluate(const TangentialInput& input,
                                          const FrictionMemory& memory) const override;
};

}  // namespace coulomb
