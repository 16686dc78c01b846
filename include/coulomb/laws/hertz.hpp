#pragma once
/// @file
/// Hertz normal law (compliant) and the Hertz contact geometry, circular and elliptic.
///
///   N = K δ^{3/2},   K = (4/3) E* √R*,   1/E* = (1 − ν1²)/E1 + (1 − ν2²)/E2,
///   circular contact: 1/R* = 1/R1 + 1/R2, contact radius a = √(R* δ).
///
/// Elliptic contact (unequal principal curvatures; Johnson, "Contact Mechanics" (1985) §4.2,
/// eqs. (4.39)–(4.41)): the initial separation is h = A x² + B y² with 0 ≤ A ≤ B,
///   A + B = ½ (1/R1' + 1/R1'' + 1/R2' + 1/R2''),
///   B − A = ½ [ (1/R1' − 1/R1'')² + (1/R2' − 1/R2'')² + 2 (1/R1' − 1/R1'')(1/R2' − 1/R2'') cos 2ψ
///   ]^{1/2},
/// ψ the angle between the first principal directions of the two surfaces. The contact ellipse has
/// semi-axes a ≥ b, eccentricity e = √(1 − b²/a²), found from
///   B/A = [ (a/b)² E(e) − K(e) ] / [ K(e) − E(e) ]                                  (Johnson 4.39)
/// with K, E the complete elliptic integrals of modulus e (std::comp_ellint_1/2). Then, with
/// p0 = 3N/(2π a b):  A + B = p0 E(e)/(E* b),  δ = p0 b K(e)/E*, so that
///   b = √(δ E(e) / ((A + B) K(e))),  a = b/√(1 − e²),
///   N = (2π/3) E* √(E(e)) / (K(e)^{3/2} √(A + B) √(1 − e²)) δ^{3/2} = (4/3) E* √R* δ^{3/2},
/// which defines the equivalent radius R* of an elliptic contact (R* = R for A = B = 1/(2R)).
///
/// | symbol | meaning                                            | unit      | range          |
/// |--------|----------------------------------------------------|-----------|----------------|
/// | δ      | penetration −g                                     | m         |                |
/// | K      | Hertz stiffness                                    | N/m^{3/2} | ≥ 0            |
/// | E1, E2 | Young's moduli of the two materials                | Pa        | > 0            |
/// | ν1, ν2 | Poisson's ratios                                   | -         | (−1, 0.5]      |
/// | R', R''| principal radii of curvature (convex > 0, flat ∞)  | m         | A + B > 0      |
///
/// Valid range: small strain, frictionless, elastic half-spaces (a ≪ R). Stored energy
/// (2/5) K δ^{5/2}; the law dissipates nothing. Geometry: NormalGeometry::radius = R*.
/// Scene keys: `normal: {law: hertz, stiffness}` (explicit K, the geometry is then ignored) or
/// `normal: {law: hertz}` with `young_modulus`/`poisson_ratio` taken from the two materials
/// (`young_modulus`, `poisson_ratio` in the law map override both materials).
/// References: Hertz (1882); Johnson (1985) §4.2; Hamrock & Brewe, J. Lubr. Technol. 105 (1983)
/// 171 (approximations used as an independent check in the tests).

#include <coulomb/laws/law.hpp>

#include <cmath>
#include <limits>

namespace coulomb {

/// The elliptic Hertz contact of two curved surfaces.
struct HertzEllipse {
  double a_curv = 0.0;        ///< A [1/m] (smaller relative curvature)
  double b_curv = 0.0;        ///< B [1/m]
  double eccentricity = 0.0;  ///< e = √(1 − b²/a²) [-]
  double axis_ratio = 1.0;    ///< b/a [-] in (0, 1]
  double radius = kInf;       ///< equivalent radius R* [m] (N = (4/3) E* √R* δ^{3/2})
  double a_factor = 0.0;      ///< semi-major axis a = a_factor √δ [√m]
  double b_factor = 0.0;      ///< semi-minor axis b = b_factor √δ [√m]
};

/// Effective modulus E* [Pa] of two materials (E [Pa], ν [-]): 1/E* = (1 − ν1²)/E1 + (1 − ν2²)/E2.
/// The one definition of E* in the program (the Hertz and Hunt–Crossley laws, the Hertz patch
/// radius of the Contensou laws in both formulations).
[[nodiscard]] double effective_modulus(double e1, double nu1, double e2, double nu2);
/// The same from two materials (both must satisfy elastic_material()).
[[nodiscard]] double effective_modulus(const Material& m1, const Material& m2);

/// The admissible elastic constants: E > 0 finite and ν in (−1, 0.5] (ν = 0.5: incompressible;
/// the scene loader and the laws use these two tests).
[[nodiscard]] bool valid_young_modulus(double e);
[[nodiscard]] bool valid_poisson_ratio(double nu);
/// True when the material gives a valid E and ν.
[[nodiscard]] bool elastic_material(const Material& m);

/// Radius of the Hertz contact patch of a circular contact, a = (3 N R*/(4 E*))^{1/3} [m], for
/// normal force N [N], effective radius R* [m] and modulus E* [Pa]; 0 when N ≤ 0 or R* is not
/// finite (flat on flat: no Hertz patch). Johnson (1985) eq. (4.22). Used by the Contensou laws
/// of both formulations (the nonsmooth one with the last step's normal force).
[[nodiscard]] double hertz_patch_radius(double normal_force, double radius, double modulus);

/// Effective radius from the mean curvatures, 1/R* = ½(1/R1' + 1/R1'') + ½(1/R2' + 1/R2'') [m]
/// (flat directions and non-positive radii count as 0 curvature; +inf when both are flat), i.e.
/// 1/(A + B). Equal to hertz_ellipse().radius for a circular contact (A = B); below it for an
/// elongated one (0.82 × at B/A = 3, see the test), cheap (no elliptic integrals). The nonsmooth
/// formulation's Contensou laws take their Hertz patch radius from it (the exact elliptic patch
/// comes with the compliant formulation, issue 10: changing it changes every stored output).
[[nodiscard]] double mean_curvature_radius(const Curvature& c1, const Curvature& c2);

/// Hertz contact geometry of two surfaces with principal curvatures c1, c2 (Curvature::d1 gives
/// the first principal directions; ψ = angle between c1.d1 and c2.d1). Flat–flat: radius = +inf.
/// Cost: a bisection on e (≈ 60 pairs of elliptic integrals); compute it once per contact.
[[nodiscard]] HertzEllipse hertz_ellipse(const Curvature& c1, const Curvature& c2);

/// The eccentricity e ∈ [0, 1) of Johnson eq. (4.39) for a curvature ratio B/A ≥ 1.
[[nodiscard]] double hertz_eccentricity(double curvature_ratio);

/// NormalGeometry for the normal laws: R* of hertz_ellipse().
[[nodiscard]] NormalGeometry normal_geometry(const Curvature& c1, const Curvature& c2);

/// The stiffness K of a Hertz-type normal law [N/m^{3/2}] (Hertz, Hunt–Crossley, Tsuji): given
/// (`stiffness`), or K = (4/3) E* √R* from the effective modulus and the contact's R*
/// (NormalGeometry::radius), evaluated per contact.
struct HertzStiffness {
  double given = std::numeric_limits<double>::quiet_NaN();  ///< explicit K; NaN: from E*
  double modulus = 0.0;                                     ///< E* [Pa]
  [[nodiscard]] double at(const NormalGeometry& geometry) const {
    return std::isnan(given) ? (4.0 / 3.0) * modulus * std::sqrt(geometry.radius) : given;
  }
};

class HertzNormalLaw final : public NormalLaw {
 public:
  /// Explicit `stiffness`, or E* from `young_modulus`/`poisson_ratio` (law map, else materials).
  HertzNormalLaw(const LawSpec& spec, const Material& material1, const Material& material2);
  /// Explicit stiffness K [N/m^{3/2}] (geometry ignored).
  static HertzNormalLaw with_stiffness(double stiffness);
  /// From the effective modulus E* [Pa] (K from the geometry's R* at each evaluation).
  static HertzNormalLaw with_modulus(double effective_modulus);

  [[nodiscard]] std::string_view name() const override { return "hertz"; }
  [[nodiscard]] NormalResult evaluate(double delta, double delta_rate,
                                      const NormalGeometry& geometry) const override;
  [[nodiscard]] double potential(double delta, const NormalGeometry& geometry) const override;
  /// K [N/m^{3/2}] for this geometry.
  [[nodiscard]] double stiffness(const NormalGeometry& geometry) const;

 private:
  HertzNormalLaw() = default;
  HertzStiffness stiffness_;
};

}  // namespace coulomb
