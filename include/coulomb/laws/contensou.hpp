#pragma once
/// @file
/// Coulomb–Contensou friction of a circular (or elliptic) contact patch that slides and spins:
/// the exact closed forms, cheap approximants, a quadrature of the integral model for any pressure,
/// rolling resistance by pressure distortion, and the exact limit surface for the set-valued law.
/// Pure functions (and one quadrature object holding its nodes); nothing allocates or throws once
/// constructed. The law interface (coulomb/laws/law.hpp) wraps these.
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

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <vector>

namespace coulomb::contensou {

using Vec2 = Eigen::Vector2d;   ///< components on (t1, t2)
using Vec3c = Eigen::Vector3d;  ///< (F_t1, F_t2, M_n/a) in the limit-surface helpers

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
// Approximants (reference/contensou.md §2). Constants are named parameters with the documented
// defaults; `hertz()` / `uniform()` give them.
// ---------------------------------------------------------------------------------------------

/// Padé (1,1), Zhuravlev's form: T = v_s/(|v_s| + b a|ω|), M = m0 a ω/(|ω| + c|v_s|/a), i.e.
/// F = ε/(ε + b), m = m0/(1 + cε). Constants match both ends (slope at 0 and 1/ε tail):
/// Hertz b = 8/(3π), m0 = 3π/16, c = 15π/16; uniform b = 1, m0 = 2/3, c = 8/3.
struct Pade11 {
  double b = 8.0 / (3.0 * 3.141592653589793);
  double m0 = 3.0 * 3.141592653589793 / 16.0;
  double c = 15.0 * 3.141592653589793 / 16.0;
  [[nodiscard]] static Pade11 hertz();
  [[nodiscard]] static Pade11 uniform();
  /// Throws std::invalid_argument naming the first bad constant (all must be finite; see below).
  void validate() const;
  [[nodiscard]] Resultant operator()(double eps) const;
};

/// Padé (2,2), homogeneous in (|v_s|, a|ω|):
///   F = ε(ε + c1)/(ε² + c1 ε + c3)   (reference §2: Hertz c3 = 1/10, c1 = 3π/80; uniform 1/8,
///   1/8), m = m0 (1 + d ε)/(1 + d ε + e ε²) (derived here, see docs/contensou.md: m(0) = m0, m'(0)
///   = 0, m''(0)/2 = −m0 e, m → m0 d/(e ε); Hertz e = 1, d = 16/(15π); uniform e = 3/4, d = 9/32).
struct Pade22 {
  double c1 = 3.0 * 3.141592653589793 / 80.0;
  double c3 = 0.1;
  double m0 = 3.0 * 3.141592653589793 / 16.0;
  double d = 16.0 / (15.0 * 3.141592653589793);
  double e = 1.0;
  [[nodiscard]] static Pade22 hertz();
  [[nodiscard]] static Pade22 uniform();
  /// Throws std::invalid_argument naming the first bad constant (all must be finite; see below).
  void validate() const;
  [[nodiscard]] Resultant operator()(double eps) const;
};

/// Exponent-generalised approximants: F = ε/(εⁿ + bⁿ)^{1/n}, m = m0/(1 + (cε)^k)^{1/k}.
/// Hertz (reference §2): b = 8/(3π), n = 3.37, c = 2.415, k = 3.60. Uniform (fitted here by
/// minimising max|ΔF| and max|Δm|/m0 on ε ∈ [0, 100], see docs/contensou.md): b = 1, n = 3.83,
/// c = 2.22, k = 4.85.
struct Generalized {
  double b = 8.0 / (3.0 * 3.141592653589793);
  double n = 3.37;
  double m0 = 3.0 * 3.141592653589793 / 16.0;
  double c = 2.415;
  double k = 3.60;
  [[nodiscard]] static Generalized hertz();
  [[nodiscard]] static Generalized uniform();
  /// Throws std::invalid_argument naming the first bad constant (all must be finite; see below).
  void validate() const;
  [[nodiscard]] Resultant operator()(double eps) const;
};

/// The generalised approximant with its ε-independent constants precomputed (log b, log c, 1/n,
/// 1/k): the form to evaluate per contact and per step. Build it after setting the constants;
/// it gives the same values as Generalized::operator() to the last bit.
struct GeneralizedEvaluator {
  explicit GeneralizedEvaluator(const Generalized& g);
  [[nodiscard]] Resultant operator()(double eps) const;
  double n, k, m0, log_b, log_c, inv_n, inv_k;
};
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

// ---------------------------------------------------------------------------------------------
// Quadrature of the integral model, any pressure, circular or elliptic patch
// ---------------------------------------------------------------------------------------------

/// Raw integrals of the integral model over an elliptic patch x²/A² + y²/B² ≤ 1 (patch frame axes).
struct Integrals {
  Vec2 T = Vec2::Zero();  ///< ∬ σ u/|u| dA [σ-units · m²]
  double M = 0.0;         ///< ∬ σ (x u_y − y u_x)/|u| dA [σ-units · m³]
};

/// Quadrature of the Kudra et al. integrals for a pressure σ(x, y) (callable double(double,
/// double), x, y in m) on an ellipse with semi-axes (A, B) [m] centred at the pole.
///
/// Method: scaled coordinates (ξ, η) = (x/A, y/B) map the ellipse to the unit disk and lines to
/// lines. Every line through the scaled instantaneous centre P' is integrated along its chord
/// [ρ−, ρ+] with a signed abscissa ρ: in these coordinates the polar Jacobian |ρ| cancels 1/|u|
/// exactly, so the integrand σ·(smooth)·ρ is bounded and smooth (the singularity at P is removed).
/// The chord is mapped by ρ = ρ_mid + h sin χ, which also regularises a pressure vanishing like a
/// square root at the boundary (Hertz). P' inside (|P'| < 1): line angles ψ ∈ [0, π) in two panels
/// with a sinh grading at ψ = π/2 of width √(1−p²)/p (the chord length varies quickly there as
/// |P'| → 1), each cut into ⌈asinh(π/(2 width))/2⌉ Gauss panels. P' on or outside:
/// ψ = α sin θ, α = arcsin(1/|P'|), in two panels, which regularises the square-root behaviour of
/// the chord length at the tangent lines. ω = 0: pure sliding, T = (∬σ) v̂.
/// Gauss–Legendre in every variable. Accuracy for the circular Hertz and uniform cases (see
/// docs/contensou.md): ≤ 2e-11 relative on ε ∈ [0, 100] with the defaults (12, 16); ≤ 1e-8 with
/// (10, 10). Cost ≈ 2 × n_angle × n_chord pressure evaluations (more for 0.9 < |P'| < 1).
class Quadrature {
 public:
  /// n_angle: Gauss nodes per angular panel (≥ 2); n_chord: nodes along each chord (≥ 2).
  /// Throws std::invalid_argument otherwise. Allocates the node tables here only.
  explicit Quadrature(int n_angle = 12, int n_chord = 16);

  /// The integrals for sliding v_s [m/s] and spin ω [rad/s] of a patch with semi-axes A, B [m].
  template <class Sigma>
  [[nodiscard]] Integrals integrate(const Sigma& sigma, const Vec2& v_s, double omega, double A,
                                    double B) const;

  /// Dimensionless (F, m) of a unit circular patch for the built-in pressures, ε ≥ 0 (for tests
  /// and the benchmark).
  [[nodiscard]] Resultant circular(double eps, Pressure p) const;

  int n_angle() const { return static_cast<int>(xa_.size()); }
  int n_chord() const { return static_cast<int>(xc_.size()); }

 private:
  template <class Sigma>
  void add_line(const Sigma& sigma, double psi_dir, double weight, double px, double py, double A,
                double B, Integrals& out) const;
  std::vector<double> xa_, wa_;      // (n_angle) Gauss–Legendre on [−1, 1]
  std::vector<double> xc_g_, wc_g_;  // (n_chord) Gauss–Legendre on [−1, 1]
  std::vector<double> xc_, wc_;      // (n_chord) sine map: sin(πx/2), (π/2) w cos(πx/2)
};

/// Gauss–Legendre nodes and weights on [−1, 1] (Newton on P_n; |error| ≈ 1e-15).
void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w);

/// Built-in normalised pressures for a patch of semi-axes (A, B) (unit load).
struct HertzPressure {
  double A = 1.0, B = 1.0;                      ///< semi-axes [m]
  double operator()(double x, double y) const;  ///< 3/(2πAB) √(1 − x²/A² − y²/B²)
};
struct UniformPressure {
  double A = 1.0, B = 1.0;
  double operator()(double x, double y) const;  ///< 1/(πAB) inside
};

// ---------------------------------------------------------------------------------------------
// Rolling resistance by pressure distortion (reference §2; Kireenkov; Kudra)
// ---------------------------------------------------------------------------------------------

/// σ = σ0(r) (1 + κ_eff x'/a), x' along the rolling direction d = ω̂_t × n (on (t1, t2): d =
/// (ω_t2, −ω_t1)/|ω_t|), κ_eff = κ min(1, |ω_t|/ω_reg): the explicit regularisation makes the
/// distortion vanish continuously at zero rolling speed.
struct Distortion {
  double kappa = 0.0;      ///< κ [-], 0 ≤ κ ≤ 1
  double omega_reg = 1.0;  ///< regularisation rolling speed [rad/s], > 0
  /// Throws std::invalid_argument unless 0 ≤ κ ≤ 1 and ω_reg > 0.
  void validate() const;
};

/// Friction and rolling resistance of a distorted circular patch of radius a.
struct DistortedFriction {
  Vec2 force = Vec2::Zero();  ///< friction force per μN [-]
  double moment = 0.0;        ///< pivoting moment per μN [m]
  Vec2 rolling_moment =
      Vec2::Zero();        ///< M_t per N [m]: −κ_eff a c ω̂_t, c = 1/5 Hertz, 1/4 uniform
  double kappa_eff = 0.0;  ///< κ after regularisation
};

/// Sliding v_s, spin ω, rolling ω_t: the undistorted part from the closed forms, the κ part (linear
/// in κ) by the quadrature q. Pure spin gives the sideways force −κ_eff (m0/2) sign(ω) (n × d) per
/// μN (on (t1, t2): n × d = (−d_y, d_x)). Not for the per-step hot path (≈ quadrature cost).
[[nodiscard]] DistortedFriction friction_distorted(const Vec2& v_s, double omega,
                                                   const Vec2& omega_t, double a, Pressure p,
                                                   const Distortion& dist, const Quadrature& q);

// ---------------------------------------------------------------------------------------------
// Exact limit surface (set-valued law for the nonsmooth formulation)
// ---------------------------------------------------------------------------------------------

/// The limit set K of (F_t1, F_t2, M_n/a) per μN: the convex body of revolution whose support
/// function is the dissipation Φ; its boundary is swept by (F(ε) v̂, ±m(ε)). For a "velocity"
/// y = (v_t1, v_t2, aω) ≠ 0 returns the boundary point whose outward normal is y (the maximal
/// dissipation point): (F(ε) v̂, m(ε) sign ω), ε = |v|/(a|ω|).
[[nodiscard]] Vec3c limit_surface_point(const Vec3c& y, Pressure p);

/// Euclidean projection of z = (F_t1, F_t2, M_n/a) onto K (per μN). Inside: z itself. Outside: the
/// nearest boundary point, found by a coarse scan then a safeguarded Newton iteration on the
/// normal angle θ (ε = tan θ): (z − c(θ)) ∥ n(θ). Converges to |residual| ≤ 1e-14.
[[nodiscard]] Vec3c project_limit_surface(const Vec3c& z, Pressure p);

/// Projection with its Jacobian ∂P/∂z (for semismooth Newton solvers).
struct LimitProjection {
  Vec3c point = Vec3c::Zero();
  Eigen::Matrix3d jacobian = Eigen::Matrix3d::Identity();
  bool inside = true;  ///< z ∈ K: point = z, jacobian = I
};

/// As project_limit_surface, with ∂P/∂z. Outside, z = P + d n and, for a smooth convex surface,
/// ∂P/∂z = Σ_i R_i/(R_i + d) t_i t_iᵀ over the principal directions: the meridian t1 with the
/// profile's radius of curvature R1 = F'(ε)(1 + ε²)^{3/2}, and the parallel t2 with
/// R2 = F/sin θ (R2 = R1 at the pole). On the boundary (d = 0) this is the tangent projector (the
/// one-sided derivative from outside).
[[nodiscard]] LimitProjection project_limit_surface_jacobian(const Vec3c& z, Pressure p);

// ---------------------------------------------------------------------------------------------
// Quadrature: template implementation
// ---------------------------------------------------------------------------------------------

// One line through the scaled instantaneous centre (px, py) at scaled angle psi_dir, integrated
// over its chord with the sine map; `weight` is the angular quadrature weight.
template <class Sigma>
void Quadrature::add_line(const Sigma& sigma, double psi_dir, double weight, double px, double py,
                          double A, double B, Integrals& out) const {
  const double c = std::cos(psi_dir), s = std::sin(psi_dir);
  // Chord of the unit disk: rho^2 + 2 rho (P'.e) + |P'|^2 - 1 = 0, discriminant 1 - (P' x e)^2.
  const double pe = px * c + py * s;
  const double cr = px * s - py * c;
  const double disc = (1.0 - cr) * (1.0 + cr);
  if (disc <= 0.0) return;
  const double half = std::sqrt(disc);
  const double mid = -pe;
  // Physical direction (A c, B s) and its length w; |u| = |omega| |rho| w.
  const double ex = A * c, ey = B * s;
  const double w = std::sqrt(ex * ex + ey * ey);
  const double scale = weight * half * A * B / w;
  double tx = 0.0, m = 0.0;
  const std::size_t n = xc_.size();
  for (std::size_t j = 0; j < n; ++j) {
    // rho = mid + half sin(chi), d rho = half cos(chi) d chi (half folded into scale).
    const double rho = mid + half * xc_[j];
    const double x = A * (px + rho * c), y = B * (py + rho * s);
    const double f = sigma(x, y) * rho * wc_[j];
    tx += f;
    m += f * (x * ex + y * ey);
  }
  out.T.x() += -ey * tx * scale;
  out.T.y() += ex * tx * scale;
  out.M += m * scale;
}

template <class Sigma>
Integrals Quadrature::integrate(const Sigma& sigma, const Vec2& v_s, double omega, double A,
                                double B) const {
  constexpr double kHalfPi = 1.57079632679489661923;
  assert(A > 0.0 && B > 0.0 && "contensou quadrature: semi-axes must be > 0");
  Integrals out;
  const std::size_t na = xa_.size();
  if (omega == 0.0) {
    // Pure sliding: u/|u| = v̂ everywhere; T = (∬σ) v̂, M = ∬σ (x v̂_y − y v̂_x).
    const double vn = v_s.norm();
    if (vn == 0.0) return out;
    const Vec2 vh = v_s / vn;
    double load = 0.0, mx = 0.0, my = 0.0;
    // Polar about the centre in scaled coordinates, r = sin(chi) on [0, 1], two angular panels.
    for (int panel = 0; panel < 2; ++panel) {
      for (std::size_t i = 0; i < na; ++i) {
        const double phi = kHalfPi * (2.0 * panel + 1.0 + xa_[i]);
        const double c = std::cos(phi), s = std::sin(phi);
        for (std::size_t j = 0; j < xc_.size(); ++j) {
          // chi in [0, pi/2]: reuse the chord nodes on [-1, 1] mapped affinely.
          const double chi = 0.5 * kHalfPi * (1.0 + xc_g_[j]);
          const double r = std::sin(chi);
          const double wgt =
              wa_[i] * kHalfPi * wc_g_[j] * 0.5 * kHalfPi * std::cos(chi) * r * A * B;
          const double x = A * r * c, y = B * r * s;
          const double sg = sigma(x, y) * wgt;
          load += sg;
          mx += sg * x;
          my += sg * y;
        }
      }
    }
    out.T = load * vh;
    out.M = vh.y() * mx - vh.x() * my;
    return out;
  }
  const double sgn = omega > 0.0 ? 1.0 : -1.0;
  // Instantaneous centre P = (−v_sy, v_sx)/ω and its scaled image P'.
  const double px = -v_s.y() / omega / A, py = v_s.x() / omega / B;
  const double p = std::hypot(px, py);
  if (p < 1.0) {
    // Inside: line angles psi in [0, pi) relative to P', two panels graded at psi = pi/2.
    const double dir = p > 0.0 ? std::atan2(py, px) : 0.0;
    const double sw = p > 0.0 ? std::min(1.0, std::sqrt((1.0 - p) * (1.0 + p)) / p) : 1.0;
    // t = |ψ − π/2| = sw sinh τ puts the branch points of the chord length at Im τ = ±π/2; the
    // τ range is cut into pieces of length ≤ 2 so that each Gauss panel sees them far enough.
    const double tmax = std::asinh(kHalfPi / sw);
    const int pieces = static_cast<int>(std::ceil(tmax / 2.0));
    const double len = tmax / pieces;
    for (int k = 0; k < pieces; ++k) {
      for (std::size_t i = 0; i < na; ++i) {
        const double tau = len * (k + 0.5 * (1.0 + xa_[i]));
        const double t = sw * std::sinh(tau);
        const double wt = wa_[i] * 0.5 * len * sw * std::cosh(tau);
        add_line(sigma, dir + kHalfPi - t, wt, px, py, A, B, out);
        add_line(sigma, dir + kHalfPi + t, wt, px, py, A, B, out);
      }
    }
  } else {
    // On or outside: psi = alpha sin(theta) around the direction to the centre.
    const double dir = std::atan2(-py, -px);
    const double alpha = std::asin(std::min(1.0, 1.0 / p));
    // Two panels θ ∈ [−π/2, 0] and [0, π/2] (the same line count as the inside case).
    for (std::size_t i = 0; i < na; ++i) {
      const double th = 0.5 * kHalfPi * (1.0 + xa_[i]);
      const double wt = wa_[i] * 0.5 * kHalfPi * alpha * std::cos(th);
      add_line(sigma, dir + alpha * std::sin(th), wt, px, py, A, B, out);
      add_line(sigma, dir - alpha * std::sin(th), wt, px, py, A, B, out);
    }
  }
  out.T *= sgn;
  out.M *= sgn;
  return out;
}

}  // namespace coulomb::contensou
