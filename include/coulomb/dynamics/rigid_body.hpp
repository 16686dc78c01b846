#pragma once
/// @file
/// Free motion of a rigid body: the rotational part of a time step (Euler's equations in the body
/// frame by the θ-method, solved by Newton) and the matching orientation update (Cayley map).
/// The translational part (x1 = x0 + h v_θ) is trivial and left to the engine.
///
/// ## Equations
///
/// Body frame B attached to the body, origin at the centre of mass. Constant inertia tensor I_B
/// about the centre of mass (full symmetric positive definite 3×3, need not be diagonal),
/// angular velocity Ω (= omega_B) [rad/s], angular momentum Π = I_B Ω [kg m² / s], applied torque
/// about the centre of mass in body axes τ_B [N m]. Euler's equations:
///
///     Π̇ = Π × Ω + τ_B                                                   (E)
///
/// (from d(R Π)/dt = R τ_B with Ṙ = R Ω̂, where Ω̂ = skew(Ω)). The θ-method with step h [s]:
///
///     Π1 − Π0 = h [ Π_θ × Ω_θ + τ_B ],  Π_θ = θ Π1 + (1−θ) Π0,  Ω_θ = I_B⁻¹ Π_θ = θ Ω1 + (1−θ) Ω0
///
/// is a nonlinear (quadratic) equation for Ω1, solved by Newton on the residual
///
///     r(Ω1) = I_B (Ω1 − Ω0) − h [ (I_B Ω_θ) × Ω_θ + τ_B ]                 [N m s]
///     ∂r/∂Ω1 = I_B − h θ ( skew(I_B Ω_θ) − skew(Ω_θ) I_B )
///
/// (d[(I Ω) × Ω] = (I dΩ) × Ω + (I Ω) × dΩ = (skew(I Ω) − skew(Ω) I) dΩ), started from the explicit
/// Euler predictor, until the Newton update is at round-off level (typically 3–4 iterations).
///
/// ## Invariants of the midpoint rule (θ = 1/2, τ_B = 0)
///
/// With Π_m = (Π0 + Π1)/2 and Ω_m = I_B⁻¹ Π_m, the step reads Π1 − Π0 = h Π_m × Ω_m. Dot with Π_m:
/// (|Π1|² − |Π0|²)/2 = 0. Dot with Ω_m = I_B⁻¹ Π_m (I_B⁻¹ symmetric):
/// (Π1ᵀ I_B⁻¹ Π1 − Π0ᵀ I_B⁻¹ Π0)/2 = 0. So |Π| and the kinetic energy T = ½ Πᵀ I_B⁻¹ Π are
/// conserved exactly (up to round-off and the Newton tolerance); the discrete motion stays on the
/// exact polhode and only its phase carries the O(h²) error.
///
/// ## Orientation update
///
///     q1 = q0 ⊗ cay(h Ω_θ),  cay(w) ↔ unit quaternion (1, w/2) / √(1 + |w|²/4)
///
/// i.e. the rotation of angle φ about w/|w| with tan(φ/2) = |w|/2, whose matrix is the Cayley
/// transform C(w) = (I − ŵ/2)⁻¹ (I + ŵ/2). For θ = 1/2 the midpoint equation can be written
/// (I + h Ω̂_m/2) Π1 = (I − h Ω̂_m/2) Π0 (expand: Π1 − Π0 = −(h/2) Ω_m × (Π0 + Π1) = h Π_m × Ω_m),
/// that is C(h Ω_m) Π1 = Π0, so the world angular momentum R1 Π1 = R0 C(h Ω_m) Π1 = R0 Π0 is
/// conserved exactly. For θ ≠ 1/2 the update is first-order consistent with Ṙ = R Ω̂ but the world
/// momentum is not conserved exactly.
///
/// ## Valid range
///
/// I_B symmetric positive definite; θ ∈ [0, 1] (θ = 0 explicit Euler, θ = 1/2 implicit midpoint,
/// θ = 1 implicit Euler); h > 0 with h‖Ω‖ well below 1 for accuracy. Since
/// ‖skew(I Ω) − skew(Ω) I‖ ≤ 2 ‖I‖ ‖Ω‖, the Newton Jacobian is invertible (and the step has a
/// unique solution near Ω0) when 2 h θ κ(I_B) ‖Ω_θ‖ < 1, κ the condition number of I_B; beyond
/// that the step may have no or several solutions and `converged` reports failure.
///
/// ## References
///
/// - L. D. Landau, E. M. Lifshitz, Mechanics, 3rd ed., §35–37 (Euler's equations, torque-free
///   asymmetric top in Jacobi elliptic functions, eq. 37.10–37.12).
/// - E. Hairer, C. Lubich, G. Wanner, Geometric Numerical Integration, 2nd ed., §IV.1–IV.2
///   (quadratic invariants of the implicit midpoint rule, Thm IV.2.1), §IV.8 (Cayley transform),
///   §VII.5 (rigid body).
/// Derivations in docs/dynamics.md.

#include <coulomb/math/types.hpp>

namespace coulomb {

/// Diagnostics of one θ-method step of Euler's equations.
struct FreeRotationStep {
  Vec3 omega1_B = Vec3::Zero();  ///< body-frame angular velocity at the end of the step [rad/s]
  double residual = 0.0;         ///< ‖r(Ω1)‖ at the returned Ω1 [N m s]
  int iterations = 0;            ///< Newton iterations taken
  bool converged = false;        ///< update reached round-off level within the iteration cap
};

/// Residual r(Ω1) = I_B (Ω1 − Ω0) − h [ (I_B Ω_θ) × Ω_θ + τ_B ], Ω_θ = θ Ω1 + (1−θ) Ω0 [N m s].
[[nodiscard]] Vec3 theta_rotation_residual(const Mat3& I_B, const Vec3& omega0_B,
                                           const Vec3& omega1_B, const Vec3& tau_B, double h,
                                           double theta);

/// Jacobian ∂r/∂Ω1 = I_B − h θ (skew(I_B Ω_θ) − skew(Ω_θ) I_B) [kg m²].
[[nodiscard]] Mat3 theta_rotation_jacobian(const Mat3& I_B, const Vec3& omega0_B,
                                           const Vec3& omega1_B, double h, double theta);

/// One θ-method step of Euler's equations with diagnostics (see the file comment).
/// I_B [kg m²] and its inverse I_B_inv, omega0_B [rad/s], tau_B [N m] in body axes, h [s].
/// Does not allocate or throw.
[[nodiscard]] FreeRotationStep solve_free_rotation(const Mat3& I_B, const Mat3& I_B_inv,
                                                   const Vec3& omega0_B, const Vec3& tau_B,
                                                   double h, double theta);

/// Body-frame angular velocity at the end of a step of the θ-method applied to Euler's equations
///   Π̇ = Π × Ω + τ_B,  Π = I_B Ω  (body frame B, I_B constant, full 3×3 SPD allowed):
///   Π1 − Π0 = h [ (θΠ1 + (1−θ)Π0) × (θΩ1 + (1−θ)Ω0) + τ_B ]
/// solved by Newton to machine precision. θ = 1/2 is the implicit midpoint rule, which conserves
/// both quadratic invariants |Π|² and Πᵀ I⁻¹ Π exactly (up to round-off).
[[nodiscard]] Vec3 free_angular_velocity_B(const Mat3& I_B, const Mat3& I_B_inv,
                                           const Vec3& omega0_B, const Vec3& tau_B, double h,
                                           double theta);

/// Orientation and body-frame angular velocity after a torque-free step.
struct FreeRotation {
  Quat q_WB = Quat::Identity();  ///< orientation at the end of the step
  Vec3 omega_B = Vec3::Zero();   ///< body-frame angular velocity at the end of the step [rad/s]
  bool converged = false;        ///< the Newton solve of Euler's equations converged
};

/// One torque-free step of length h [s] from orientation q0_WB and body-frame angular velocity
/// omega0_B [rad/s]: Ω1 by the θ-method on Euler's equations (solve_free_rotation, τ = 0), then
/// q1 = q0 ⊗ cay(h Ω_θ). For θ = 1/2 the world angular momentum R Π is conserved exactly (see the
/// file comment), and so is the kinetic energy: this is the "drift" of the engine's time step,
/// which applies contact impulses to the world angular momentum between drifts. An isotropic
/// inertia (I_B = c·Id: sphere, cube) has no gyroscopic term: Ω1 = Ω0 without a Newton solve.
/// Does not allocate or throw.
[[nodiscard]] FreeRotation rotate_free(const Quat& q0_WB, const Mat3& I_B, const Mat3& I_B_inv,
                                       const Vec3& omega0_B, double h, double theta);

/// Whether an inertia is isotropic (I_B = c·Id: sphere, cube), the case of rotate_free without a
/// Newton solve.
[[nodiscard]] bool isotropic(const Mat3& I_B);

/// rotate_free for an isotropic inertia (isotropic(I_B)): Ω1 = Ω0, the same bits as rotate_free.
[[nodiscard]] FreeRotation rotate_free_isotropic(const Quat& q0_WB, const Vec3& omega0_B, double h,
                                                 double theta);

/// Unit quaternion of the Cayley rotation cay(w) = (1, w/2)/√(1 + |w|²/4) [w in rad].
[[nodiscard]] Quat cayley_quaternion(const Vec3& w);

/// Orientation update q1 = q0 ⊗ cay(h Ω_θ), with the Cayley rotation cay(w) ↔ unit quaternion
/// ∝ (1, w/2): for θ = 1/2 and Ω_θ = (Ω0+Ω1)/2 this makes the world angular momentum R1 Π1 equal
/// to R0 Π0 exactly (derivation: (I + hΩ̂/2)Π1 = (I − hΩ̂/2)Π0 is the midpoint equation).
/// Returns a normalised quaternion.
[[nodiscard]] Quat integrate_orientation(const Quat& q0_WB, const Vec3& omega_theta_B, double h);

/// World-frame inertia tensor I_W = R_WB I_B R_WBᵀ [kg m²].
[[nodiscard]] Mat3 world_inertia(const Quat& q_WB, const Mat3& I_B);

/// Rotational kinetic energy ½ Ωᵀ I_B Ω [J].
[[nodiscard]] double rotational_kinetic_energy(const Mat3& I_B, const Vec3& omega_B);

/// Angular momentum about the centre of mass in world axes, R_WB I_B Ω [kg m²/s].
[[nodiscard]] Vec3 angular_momentum_W(const Quat& q_WB, const Mat3& I_B, const Vec3& omega_B);

}  // namespace coulomb
