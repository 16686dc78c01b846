#pragma once
/// @file
/// Coulomb–Contensou friction as a compliant law (issue items 14–16 and 18 behind the law
/// interface): the friction force F_t and the pivoting moment M_n of a circular patch of radius a
/// that slides at v_t and spins at ω_n, computed together, with the rolling-resistance moment M_t
/// of a distorted pressure, all derivatives, and the dissipated powers.
///
/// Equations (the mathematics is in coulomb/laws/contensou.hpp and docs/contensou.md)
/// ----------------------------------------------------------------------------------
///     ε = |v_t| / (a |ω_n|),   ρ = √(|v_t|² + (a ω_n)²),   s = min(1, ρ / v_r)
///     F_t = −μ N s [ F(ε) v̂_t + κ_eff (T_x d_x + T_y d_y) ]
///     M_n = −μ N s [ a m(ε) sign(ω_n) + κ_eff (M_x d_x + M_y d_y) ]
///     M_t = −N κ_eff a c_σ ω̂_t,   κ_eff = κ min(1, |ω_t| / ω_r),   d = ω̂_t × n
/// F, m by the chosen model:
///  - exact: the closed forms (Hertz: elementary; uniform: complete elliptic integrals by AGM);
///  - pade11, pade22, generalized: the approximants with their named constants (defaults for the
///    pressure, each overridable by a key of the same name);
///  - quadrature: the integral model (Kudra et al. 2016 eq. 1) integrated numerically around the
///    instantaneous centre (contensou::Quadrature, n_angle × n_chord nodes; ≤ 2e-11 relative with
///    the defaults): force and moment from the vector integrals; derivatives from the closed form
///    of the same integral model (they agree with the quadrature to its accuracy);
///  - ellipsoid: maximal dissipation on the Contensou ellipsoid ‖F_t‖² + (M_n/ā)² ≤ (μN)², ā = m0
///  a:
///    F = ε/√(ε² + m0²), m = m0²/√(ε² + m0²) (the compliant counterpart of the nonsmooth set).
/// The rolling-resistance part (rolling_resistance given): σ = σ0 (1 + κ_eff x'/a), x' along d;
/// (T_x, M_x), (T_y, M_y) are the integrals of the integral model with the zero-load pressure
/// σ0 x/a, σ0 y/a (by the quadrature, whatever the model), c_σ = ⟨x²⟩/a² = 1/5 (Hertz), 1/4
/// (uniform) is the shift of the pressure centre.
///
/// Patch radius: `radius` given, or Hertz theory with the current normal force,
///     a = (3 N R* / (4 E*))^{1/3},  da/dN = a/(3N),
/// R* from the contact's curvature (NormalGeometry::radius), E* from the two materials'
/// young_modulus and poisson_ratio. A flat contact (R* = ∞) has no Hertz patch: the law then takes
/// the point-contact limit a → 0 (plain Coulomb force, M_n = 0).
///
/// Elliptic patch (NormalGeometry::elliptic(): the two surfaces' principal curvatures differ; Hertz
/// radius only): the contact ellipse of Hertz theory, semi-axes A = a_factor √δ ≥ B = b_factor √δ
/// with δ = (3 N/(4 E* √R*))^{2/3}, major axis along NormalGeometry::major, Hertz pressure
/// 3/(2π A B) √(1 − x²/A² − y²/B²). `exact` and `quadrature` integrate the integral model over the
/// ellipse (contensou::Quadrature on semi-axes (A, B) in the ellipse's frame; derivatives in
/// (v_t, ω_n) by central differences of the quadrature, step 1e-5 ρ, ~1e-7 relative); the
/// approximants (their constants are those of a circle) and the rolling resistance take the circle
/// of the same area, a = √(A B). The ellipse keeps its shape as N changes (both axes ∝ N^{1/3}), so
/// the homogeneity argument of ∂/∂N holds with a = √(A B); the regularisation uses ρ with that a.
/// (The nonsmooth formulation's set takes the circle of the same area: docs/nonsmooth.md.)
///
/// Regularisation (explicit, documented): the Coulomb–Contensou law is set-valued at v_t = ω_n = 0.
/// The compliant law scales force and moment by s = min(1, ρ/v_r) (linear-saturated, as the
/// regularised Coulomb law): exact for ρ ≥ v_r, zero at rest, Lipschitz. The rolling part uses
/// the same saturation on |ω_t| with ω_r, so the distortion vanishes continuously at zero rolling.
///
/// Derivatives: analytic (contensou::friction_jacobian's formulas with each model's F', m') for the
/// undistorted part; ∂/∂ω_t of the distortion analytic (κ_eff d is linear in ω_t below ω_r);
/// ∂/∂(v_t, ω_n) of the distortion integrals by central differences of the quadrature (relative
/// step 1e-5 of ρ: ~1e-7 relative accuracy); ∂/∂N from the homogeneity of the patch integrals:
/// F_t/(μN) depends on (v_t, a ω_n) only, so ∂/∂a = (ω_n/a) ∂/∂ω_n (and M_n/a likewise). Kinks
/// where the derivative does not exist (Padé (1,1)'s |ω| and |v| terms at ω = 0 and v = 0, the
/// saturation corners) return the mean of the one-sided derivatives.
///
/// Power: friction −F_t·v_t, pivoting −M_n ω_n, rolling −M_t·ω_t ≥ 0. Their sum over friction and
/// pivoting is μN s ∬σ|u| dA ≥ 0; without distortion each is ≥ 0. With distortion a spinning
/// patch pushes sideways (force ⟂ d at pure spin), so power can pass from the spin to the sliding:
/// then one of the two may be negative while the sum stays ≥ 0.
///
/// | symbol | meaning                                  | unit  | range     | default  |
/// |--------|------------------------------------------|-------|-----------|----------|
/// | μ      | friction coefficient (contact's, kinetic)| -     | ≥ 0       |          |
/// | a      | patch radius (`radius`)                  | m     | > 0       | Hertz    |
/// | v_r    | regularisation speed (`regularization`)  | m/s   | > 0       | 1e-4     |
/// | κ      | pressure distortion (`kappa`)            | -     | [0, 1]    | required |
/// | ω_r    | rolling regularisation (`regularization`)| rad/s | > 0       | 1e-3     |
///
/// Sign conventions (DESIGN.md §1): n from body 1 to body 2, (t1, t2, n) right-handed, 2-D vectors
/// on (t1, t2); v_t, ω_n = ω·n, ω_t of body 2 relative to body 1; results are the action of body
/// 1 on body 2: F_t opposes v_t, M_n opposes ω_n, M_t opposes ω_t.
/// Valid range: rigid patch kinematics, isotropic friction, a ≪ curvature radii; κ ≤ 1 keeps the
/// pressure ≥ 0. Scene keys: `contensou: {model, pressure, radius, regularization, <constants>,
/// n_angle, n_chord}`, `rolling_resistance: {kappa, regularization}` (docs/laws.md).
/// References: Contensou (1963); Zhuravlev, Mech. Solids 33 (1998); Leine & Glocker, Eur. J. Mech.
/// A 22 (2003); Kireenkov, Mech. Solids 43 (2008); Kudra, Szewc, Wojtunik, Awrejcewicz, MSSP 2016.

#include <coulomb/laws/contensou.hpp>
#include <coulomb/laws/contensou_set.hpp>
#include <coulomb/laws/law.hpp>

#include <cstdint>

namespace coulomb {

/// The model of F(ε), m(ε).
enum class ContensouModel : std::uint8_t {
  ellipsoid,
  exact,
  pade11,
  pade22,
  generalized,
  quadrature
};

/// F, m and their ε-derivatives of one model at ε (ε = 0 allowed; ε = ∞ is handled by the caller).
struct ContensouCurve {
  double F = 0.0, m = 0.0, dF = 0.0, dm = 0.0;
};

class ContensouFrictionLaw final : public ContensouLaw {
 public:
  /// From `contensou: {...}`, μ, the materials and an optional `rolling_resistance: {...}`.
  /// Throws LawError naming the key and the valid range.
  ContensouFrictionLaw(const LawSpec& spec, double mu, const Material& material1,
                       const Material& material2, const LawSpec* rolling_resistance);

  [[nodiscard]] std::string_view name() const override;
  [[nodiscard]] double friction_coefficient() const override { return mu_; }
  [[nodiscard]] double patch_radius(double normal_force,
                                    const NormalGeometry& geometry) const override;
  [[nodiscard]] PatchResult evaluate(const PatchInput& input,
                                     const NormalGeometry& geometry) const override;

  [[nodiscard]] ContensouModel model() const { return model_; }
  [[nodiscard]] contensou::Pressure pressure() const { return pressure_; }
  /// F, m, F', m' of the model at ε ≥ 0 (finite).
  [[nodiscard]] ContensouCurve curve(double eps) const;
  /// lim_{ε→∞} ε m(ε) (the moment's 1/ε tail) [-].
  [[nodiscard]] double moment_tail() const;

  /// The set-valued counterparts for the nonsmooth formulation at normal force N [N] (patch radius
  /// from patch_radius(N, geometry)): the Contensou ellipsoid ‖F_t‖² + (M_n/ā)² ≤ (μN)², ā = m0 a,
  /// and the exact limit set of the pressure. Setup-time helpers (they do not allocate).
  [[nodiscard]] ContensouEllipsoid ellipsoid(double normal_force,
                                             const NormalGeometry& geometry) const;
  /// The Hertz contact ellipse's semi-axes (A ≥ B) [m] for normal force N [N] when the patch is
  /// elliptic (geometry.elliptic(), no given radius); (a, a) otherwise (a = patch_radius).
  [[nodiscard]] Vec2 patch_semi_axes(double normal_force, const NormalGeometry& geometry) const;
  [[nodiscard]] ContensouLimitSet limit_set(double normal_force,
                                            const NormalGeometry& geometry) const;

 private:
  ContensouModel model_ = ContensouModel::exact;
  contensou::Pressure pressure_ = contensou::Pressure::hertz;
  double mu_ = 0.0;
  double radius_ = 0.0;             ///< given a [m], or 0 for Hertz
  double effective_modulus_ = 0.0;  ///< E* [Pa] (Hertz radius)
  double v_reg_ = 1e-4;             ///< [m/s]
  double kappa_ = 0.0;              ///< [-]
  double omega_reg_ = 1e-3;         ///< [rad/s]
  double m0_ = 0.0;                 ///< m(0) of the pressure (ellipsoid's ā/a)
  contensou::Pade11 pade11_;
  contensou::Pade22 pade22_;
  contensou::Generalized generalized_;
  contensou::GeneralizedEvaluator generalized_eval_{generalized_};  ///< set after the constants
  contensou::Quadrature quadrature_;
};

}  // namespace coulomb
