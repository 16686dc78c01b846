#pragma once
/// @file
/// Coulomb–Contensou friction of a circular contact patch that slides and spins, exactly: the
/// integral model, its closed forms for Hertz and uniform pressure (with the complete elliptic
/// integrals they need) and the vector form of the law with its derivatives. The approximants,
/// the quadrature and the limit surface build on these (coulomb/laws/contensou.hpp lists them).
/// Pure functions; nothing allocates or throws. The law interface (coulomb/laws/law.hpp) wraps
/// these.
///
/// Integral model (Kudra, Szewc, Wojtunik, Awrejcewicz, MSSP 2016, eq. 1)
/// ----------------------------------------------------------------------
/// Plane patch, pressure σ(x, y) normalised to unit load (∬σ dA = 1), pole A = patch centre with
/// sliding velocity v_s, spin ω. Local slip u(x, y) = (v_sx − ω y, v_sy + ω x). Coulomb's law point
/// by point gives the resultants of the action of body 1 on body 2
///
///     force  = −μ N T,   T = ∬ σ u/|u| dA                         (dimensionless)
///     moment = −μ N M,   M = ∬ σ (x u_y − y u_x)/|u| dA           (about A, a length)
///
/// For a circular patch of radius a and radially symmetric σ, with ε = |v_s|/(a|ω|):
///     T = F(ε) v_s/|v_s|,   M = a m(ε) sign(ω).
/// The instantaneous centre of rotation is P = (−v_sy, v_sx)/ω, at distance ε a from A.
/// With Φ(ε) = (1/a) ∬ σ |r − P| dA (the dissipation per μN|ω|a): F = Φ', m = Φ − ε Φ', hence
/// dm/dε = −ε dF/dε, and the dissipated power is μ N |ω| a Φ = μ N (F |v_s| + m a |ω|) ≥ 0.
///
/// | symbol | meaning                                              | unit  | range        |
/// |--------|------------------------------------------------------|-------|--------------|
/// | a      | patch radius                                         | m     | > 0          |
/// | v_s    | sliding velocity of the patch centre (on t1, t2)     | m/s   |              |
/// | ω      | spin ω_n = (ω_2 − ω_1)·n                             | rad/s |              |
/// | ε      | |v_s| / (a |ω|)                                      | -     | [0, ∞]       |
/// | F, m   | dimensionless force and moment (units μN, μN a)      | -     | [0,1], [0,m0]|
/// | m0     | m(0) = ⟨r⟩/a: 3π/16 (Hertz), 2/3 (uniform)            | -     |              |
///
/// Sign conventions (DESIGN.md §1): n from body 1 to body 2, (t1, t2, n) right-handed, slip
/// v = v_{I∈2} − v_{I∈1}, spin ω_n about n; results are the action of 1 on 2: the friction force
/// opposes v_s, the pivoting moment opposes ω_n. 2-D vectors are components on (t1, t2).
///
/// Closed forms (reference/contensou.md §1, derived there and checked here against the quadrature
/// and against std::comp_ellint_1/2):
///  - Hertz σ = 3/(2πa²)√(1 − r²/a²): ε ≤ 1: F = (3π/32) ε (4 − ε²), m = (3π/128)(8 − 8ε² + 3ε⁴);
///    ε ≥ 1, s = √(ε² − 1), A = arcsin(1/ε): F = 3/(16ε)[(2 + ε²)s + (4ε² − ε⁴)A],
///    m = (3/64)[(6 − 3ε²)s + (8 − 8ε² + 3ε⁴)A].
///  - Uniform σ = 1/(πa²), K, E complete elliptic integrals of modulus k:
///    ε ≤ 1: F = 4/(3πε)[(1+ε²)E(ε) − (1−ε²)K(ε)], m = 4/(9π)[(4 − 2ε²)E(ε) − (1−ε²)K(ε)];
///    ε ≥ 1: F = 4/(3π)[(1+ε²)E(1/ε) − (ε²−1)K(1/ε)],
///           m = 4/(9πε)[2ε²(2−ε²)E(1/ε) + (ε²−1)(2ε²−3)K(1/ε)].
///  - Large ε (both, derived here): Φ = Σ_k β_k² ⟨(r/a)^{2k}⟩ ε^{1−2k}, β_k = binom(1/2, k),
///    ⟨r^{2k}⟩ = 1/(k+1) (uniform), (3/2)B(k+1, 3/2) (Hertz); used for ε ≥ 2.5 where the closed
///    forms cancel (relative loss ε⁴ in m). Derivatives: see docs/contensou.md.
///
/// Valid range: rigid-patch kinematics (slip field of a rigid motion), isotropic Coulomb friction
/// with one μ over the patch, patch radius from Hertz theory or given. At v_s = ω = 0 the law is
/// set-valued (any (F_t, M_n) in the limit set); the functions here return 0 there and flag it.
/// References: Contensou (1963); Zhuravlev, Mech. Solids 33 (1998); Leine & Glocker, Eur. J. Mech.
/// A 22 (2003); Kudra & Awrejcewicz, Eur. J. Mech. A 35 (2012) and MSSP 2016; docs/contensou.md.

#include <Eigen/Core>

#include <cmath>

namespace coulomb::contensou {

using Vec2 = Eigen::Vector2d;  ///< components on (t1, t2)

/// Radially symmetric pressure profiles with closed forms.
enum class Pressure { hertz, uniform };

/// Dimensionless force and moment of a circular patch.
struct Resultant {
  double F = 0.0;  ///< |T| [-]
  double m = 0.0;  ///< |M|/a [-]
};

/// Resultant and its derivatives with respect to ε.
struct ResultantDerivative {
  double F = 0.0;
  double m = 0.0;
  double dF = 0.0;  ///< dF/dε [-]
  double dm = 0.0;  ///< dm/dε = −ε dF/dε [-]
};

/// m(0) = ⟨r⟩/a: 3π/16 (Hertz), 2/3 (uniform).
[[nodiscard]] double pure_spin_moment(Pressure p);

// ---------------------------------------------------------------------------------------------
// Complete elliptic integrals
// ---------------------------------------------------------------------------------------------

/// K(k), E(k) and S = 1 − E/K, by the arithmetic–geometric mean (Abramowitz & Stegun 17.6):
/// a0 = 1, b0 = √(1−k²), c0 = k; a_{n+1} = (a+b)/2, b_{n+1} = √(ab), c_{n+1} = c_n²/(4a_{n+1});
/// K = π/(2 a_N), S = Σ 2^{n−1} c_n². All terms of S are positive and c is computed without
/// cancellation, so K, E and K − E = K S keep full relative precision; 4–6 iterations for k ≤ 0.9.
/// Chosen over std::comp_ellint_1/2 (used as the reference in the tests) because one AGM gives
/// both K and E and the cancellation-free S, in about 40 ns. Requires 0 ≤ k < 1 (K(1) = ∞).
struct EllipticKE {
  double K = 0.0;  ///< K(k)
  double E = 0.0;  ///< E(k)
  double S = 0.0;  ///< 1 − E/K = (K − E)/K ≥ 0
};
[[nodiscard]] EllipticKE elliptic_ke(double k);

// ---------------------------------------------------------------------------------------------
// Exact closed forms (circular patch)
// ---------------------------------------------------------------------------------------------

/// Exact F(ε), m(ε) for a circular patch (ε ≥ 0, +∞ allowed: F = 1, m = 0). About 15 ns (Hertz),
/// 50 ns (uniform).
[[nodiscard]] Resultant exact(double eps, Pressure p);
/// Exact F, m and dF/dε, dm/dε. dF/dε is finite everywhere (F'(1) = 3π/32 Hertz, 4/(3π) uniform;
/// for uniform pressure d²F/dε² diverges logarithmically at ε = 1).
[[nodiscard]] ResultantDerivative exact_derivative(double eps, Pressure p);

// ---------------------------------------------------------------------------------------------
// Vector form (a patch sliding at v_s and spinning at ω)
// ---------------------------------------------------------------------------------------------

/// Friction of a patch per unit μN: real force = μN·force, real moment = μN·moment.
struct PatchFriction {
  Vec2 force = Vec2::Zero();  ///< −F(ε) v_s/|v_s| [-]
  double moment = 0.0;        ///< −a m(ε) sign(ω) [m]
  double power = 0.0;         ///< dissipated power per μN: −force·v_s − moment ω ≥ 0 [m/s]
  bool set_valued = false;    ///< v_s = ω = 0: the law is set-valued; force = moment = 0 returned
};

/// The exact law for a patch of radius a [m] (a > 0) sliding at v_s [m/s] and spinning at ω
/// [rad/s]. ω = 0, v_s ≠ 0: F = 1, m = 0; v_s = 0, ω ≠ 0: F = 0, m = m0. v_s = ω = 0 is
/// set-valued: returns zeros with set_valued = true.
[[nodiscard]] PatchFriction friction_exact(const Vec2& v_s, double omega, double a, Pressure p);

/// A single-valued, Lipschitz regularisation for the compliant formulation: with the patch speed
/// ρ = √(|v_s|² + (aω)²) [m/s] and the regularisation velocity v_reg > 0 [m/s], the exact result is
/// scaled by min(1, ρ/v_reg) (linear-saturated, like the regularised Coulomb law). Exact for
/// ρ ≥ v_reg; zero at rest; never flagged set-valued.
[[nodiscard]] PatchFriction friction_regularized(const Vec2& v_s, double omega, double a,
                                                 Pressure p, double v_reg);

/// The vector form with its derivatives, for implicit compliant integrators (per unit μN).
struct PatchFrictionJacobian {
  PatchFriction value;  ///< as friction_exact / friction_regularized
  Eigen::Matrix2d dforce_dv = Eigen::Matrix2d::Zero();  ///< ∂force/∂v_s [s/m]
  Vec2 dforce_domega = Vec2::Zero();                    ///< ∂force/∂ω [s]
  Vec2 dmoment_dv = Vec2::Zero();                       ///< ∂moment/∂v_s [s]
  double dmoment_domega = 0.0;                          ///< ∂moment/∂ω [m s]
};

/// friction_regularized (v_reg > 0) or friction_exact (v_reg = 0) and the derivatives, with
/// ε = |v|/(a|ω|), ∂ε/∂v = v̂/(a|ω|), ∂ε/∂ω = −ε/ω:
///   ∂force/∂v = −F' v̂v̂ᵀ/(a|ω|) − (F/|v|)(I − v̂v̂ᵀ),  ∂force/∂ω = F' ε v̂/ω,
///   ∂moment/∂v = −sign(ω) m' v̂/|ω|,                  ∂moment/∂ω = a sign(ω) m' ε/ω.
/// Limits (all finite): v = 0: ∂force/∂v = −F'(0)/(a|ω|) I; ω = 0: ∂force/∂ω = 0,
/// ∂moment/∂ω = −a² c2/|v| with c2 = ⟨r²⟩/(2a²) = 1/5 (Hertz), 1/4 (uniform).
/// Regularised below v_reg, the scale ρ/v_reg adds value·∂(ρ/v_reg) (∂ρ/∂v = v/ρ, ∂ρ/∂ω = a²ω/ρ).
/// At v = ω = 0 the derivatives are returned as zero (exact: set-valued; regularised: the limit
/// depends on the direction of approach).
[[nodiscard]] PatchFrictionJacobian friction_jacobian(const Vec2& v_s, double omega, double a,
                                                      Pressure p, double v_reg = 0.0);

}  // namespace coulomb::contensou
