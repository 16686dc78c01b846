#pragma once
/// @file
/// The Coulomb–Contensou integral model (coulomb/laws/contensou_exact.hpp) by quadrature, for any
/// pressure on a circular or elliptic patch, and rolling resistance by pressure distortion built
/// on it. Sources: Gauss–Legendre nodes by Newton's method on the Legendre recurrence with the
/// asymptotic initial guess (Abramowitz & Stegun 22.7.10, 25.4.29; Press et al., Numerical
/// Recipes, 3rd ed. (2007) §4.6); the sinh grading of the angular variable near the branch points
/// of the chord length (the sinh transformation of Johnston & Elliott, Int. J. Numer. Meth. Eng.
/// 62 (2005) 564); pressure distortion for rolling resistance (reference/contensou.md §2, after
/// Kireenkov, Mech. Solids 43 (2008), and Kudra & Awrejcewicz). The line-by-line scheme that
/// cancels the 1/|u| singularity is derived in docs/contensou.md §4.

#include <coulomb/laws/contensou_exact.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <vector>

namespace coulomb::contensou {

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
