#pragma once
/// @file
/// Private: the admissible set of one 6-unknown contact in the scaled variables of
/// coulomb/nonsmooth/problem.hpp (six unknowns), ỹ = (T1, T2, Mn/ℓ_n, Mt1, Mt2), w̃ = (vT1, vT2, ℓ_n
/// ωn, ωt1, ωt2). In these variables: none = disc(μ) × interval(h/ℓ_n) × disc(k) (ℓ_n = 1 m),
/// ellipsoid = ball(μ) in R³ × disc(k), exact = μ L (L the unit limit set in (F, M/a)) × disc(k).
/// Projection onto R C (R ≥ 0) with its Jacobians ∂P/∂z and ∂P/∂R, for the Alart–Curnier Newton.
/// Nothing allocates.

#include <coulomb/laws/contensou.hpp>
#include <coulomb/nonsmooth/problem.hpp>

namespace coulomb::detail {

using Vec5 = Eigen::Matrix<double, 5, 1>;
using Mat5 = Eigen::Matrix<double, 5, 5>;

struct Set6 {
  enum class Kind : std::uint8_t { product, ball, exact } kind = Kind::product;
  double mu = 0.0;   ///< friction (ball and exact: the radius of the (F, M̃n) part)
  double h = 0.0;    ///< pivoting h/ℓ_n (product only) [-]
  double k = 0.0;    ///< rolling [m] (ℓ_t = 1 m)
  double ell = 1.0;  ///< ℓ_n [m]
  contensou::Pressure pressure = contensou::Pressure::hertz;

  /// From a law (validated).
  static Set6 from(const ContactLaw6& law);
  /// σ_C(w̃) (scaled).
  [[nodiscard]] double support(const Vec5& w) const;
  /// Largest ‖c‖ over c ∈ C.
  [[nodiscard]] double max_radius() const;
  /// P_{R C}(z) for R ≥ 0; J = ∂P/∂z and dR = ∂P/∂R when not null.
  [[nodiscard]] Vec5 project(const Vec5& z, double R, Mat5* J, Vec5* dR) const;
  /// Whether component i of y is forced to zero (its bound coefficient is 0).
  [[nodiscard]] bool fixed(int i) const;
};

/// Scales raw (r, u) of one contact into (r̃, ũ).
inline Vec6 scale_r(const Vec6& r, double ell) {
  Vec6 s = r;
  s[3] /= ell;
  return s;
}
inline Vec6 scale_u(const Vec6& u, double ell) {
  Vec6 s = u;
  s[3] *= ell;
  return s;
}

/// Euclidean projection onto the cone K̃ = {(N, y): N ≥ 0, y ∈ N C} (scaled).
[[nodiscard]] Vec6 project_cone(const Set6& set, const Vec6& x);
/// ‖r̃ − P_K̃(r̃ − û~)‖ (scaled arguments).
[[nodiscard]] double residual(const Set6& set, const Vec6& r, const Vec6& u);

}  // namespace coulomb::detail
