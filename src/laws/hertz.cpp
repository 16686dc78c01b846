#include <coulomb/laws/hertz.hpp>

#include "laws/params.hpp"

#include <fmt/format.h>

#include <cmath>

namespace coulomb {

double effective_modulus(double e1, double nu1, double e2, double nu2) {
  return 1.0 / ((1.0 - nu1 * nu1) / e1 + (1.0 - nu2 * nu2) / e2);
}

double effective_modulus(const Material& m1, const Material& m2) {
  return effective_modulus(m1.young_modulus, m1.poisson_ratio, m2.young_modulus, m2.poisson_ratio);
}

bool valid_young_modulus(double e) { return e > 0.0 && std::isfinite(e); }

bool valid_poisson_ratio(double nu) { return nu > -1.0 && nu <= 0.5; }

bool elastic_material(const Material& m) {
  return valid_young_modulus(m.young_modulus) && valid_poisson_ratio(m.poisson_ratio);
}

double hertz_patch_radius(double normal_force, double radius, double modulus) {
  if (!(normal_force > 0.0) || !std::isfinite(radius)) return 0.0;
  return std::cbrt(3.0 * normal_force * radius / (4.0 * modulus));
}

double mean_curvature_radius(const Curvature& c1, const Curvature& c2) {
  auto mean_curvature = [](const Curvature& k) {
    const double a = std::isfinite(k.r1) && k.r1 > 0.0 ? 1.0 / k.r1 : 0.0;
    const double b = std::isfinite(k.r2) && k.r2 > 0.0 ? 1.0 / k.r2 : 0.0;
    return 0.5 * (a + b);
  };
  const double inverse = mean_curvature(c1) + mean_curvature(c2);
  return inverse > 0.0 ? 1.0 / inverse : kInf;
}

double hertz_eccentricity(double ratio) {
  if (!(ratio > 1.0)) return 0.0;
  // g(k') = [(a/b)² E − K]/(K − E), k' = b/a the axis ratio, decreases from ∞ (k' → 0) to 1
  // (k' = 1): solve g(k') = B/A for k', so that e = √(1 − k'²) keeps full precision. log g is
  // nearly linear in log k' (Hamrock & Brewe's fit a/b ≈ 1.0339 (B/A)^{0.636}): a secant in
  // (log k', log g) from that estimate converges in a few steps; it stays inside a bisection
  // bracket, so it cannot leave (0, 1]. (The compliant formulation evaluates it at every contact
  // of every right-hand side: 5–8 pairs of elliptic integrals instead of a 60-step bisection.)
  auto g = [](double kp) {
    const double e = std::sqrt((1.0 - kp) * (1.0 + kp));
    const double kk = std::comp_ellint_1(e);
    const double ee = std::comp_ellint_2(e);
    return (ee / (kp * kp) - kk) / (kk - ee);
  };
  const double target = std::log(ratio);
  double lo = 0.0, hi = 1.0;  // g(lo) = ∞ > ratio, g(hi) = 1 < ratio
  double x = std::min(1.0, std::pow(ratio, -0.636) / 1.0339);
  double x_prev = 0.0, f_prev = 0.0;
  for (int i = 0; i < 200; ++i) {
    const double gx = g(x);
    if (gx > ratio)
      lo = x;
    else
      hi = x;
    const double f = std::log(gx) - target;
    if (f == 0.0 || hi - lo <= 1e-16 * hi) break;
    // Secant on (log x, f) (the first step with the fit's slope −1/0.636), else bisection.
    const double slope = i == 0 ? -1.0 / 0.636 : (f - f_prev) / (std::log(x) - std::log(x_prev));
    double next = std::exp(std::log(x) - f / slope);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - x) <= 1e-16 * x) break;
    x_prev = x;
    f_prev = f;
    x = next;
  }
  return std::sqrt((1.0 - x) * (1.0 + x));
}

HertzEllipse hertz_ellipse(const Curvature& c1, const Curvature& c2) {
  // Relative curvatures A ≤ B (Johnson 4.2): sum and difference of the principal curvatures.
  const double k1a = 1.0 / c1.r1, k1b = 1.0 / c1.r2, k2a = 1.0 / c2.r1, k2b = 1.0 / c2.r2;
  const double d1 = k1a - k1b, d2 = k2a - k2b;
  const double cos_psi = c1.d1.normalized().dot(c2.d1.normalized());
  const double cos_2psi = 2.0 * cos_psi * cos_psi - 1.0;
  const double sum = 0.5 * (k1a + k1b + k2a + k2b);
  const double diff = 0.5 * std::sqrt(std::max(0.0, d1 * d1 + d2 * d2 + 2.0 * d1 * d2 * cos_2psi));
  HertzEllipse h;
  h.a_curv = 0.5 * (sum - diff);
  h.b_curv = 0.5 * (sum + diff);
  if (!(sum > 0.0) || !(h.a_curv > 0.0)) {
    // Flat in at least one direction: no point contact (line or plane contact).
    h.radius = kInf;
    return h;
  }
  // Eccentricity, then the semi-axes per √δ and the equivalent radius.
  h.eccentricity = hertz_eccentricity(h.b_curv / h.a_curv);
  const double e = h.eccentricity;
  const double kk = std::comp_ellint_1(e), ee = std::comp_ellint_2(e);
  h.axis_ratio = std::sqrt((1.0 - e) * (1.0 + e));
  h.b_factor = std::sqrt(ee / (sum * kk));
  h.a_factor = h.b_factor / h.axis_ratio;
  const double sqrt_r =
      0.5 * kPi * std::sqrt(ee) / (std::pow(kk, 1.5) * std::sqrt(sum) * h.axis_ratio);
  h.radius = sqrt_r * sqrt_r;
  return h;
}

NormalGeometry normal_geometry(const Curvature& c1, const Curvature& c2) {
  return {hertz_ellipse(c1, c2).radius};
}

namespace detail {
double read_effective_modulus(Params& p, const Material& m1, const Material& m2) {
  // Young's moduli and Poisson's ratios: the law map overrides both materials.
  const double e_law = p.number("young_modulus");
  const double nu_law = p.number("poisson_ratio");
  double e1 = std::isnan(e_law) ? m1.young_modulus : e_law;
  double e2 = std::isnan(e_law) ? m2.young_modulus : e_law;
  double nu1 = std::isnan(nu_law) ? m1.poisson_ratio : nu_law;
  double nu2 = std::isnan(nu_law) ? m2.poisson_ratio : nu_law;
  if (std::isnan(e1) || std::isnan(e2)) {
    throw p.error("stiffness", "required unless both materials (or this law) give young_modulus");
  }
  if (std::isnan(nu1) || std::isnan(nu2)) {
    throw p.error("stiffness", "required unless both materials (or this law) give poisson_ratio");
  }
  if (!(e1 > 0.0) || !(e2 > 0.0)) {
    throw p.error("young_modulus", fmt::format("must be > 0, got {} and {}", e1, e2));
  }
  if (!valid_poisson_ratio(nu1) || !valid_poisson_ratio(nu2)) {
    throw p.error("poisson_ratio", fmt::format("must be in (-1, 0.5], got {} and {}", nu1, nu2));
  }
  return effective_modulus(e1, nu1, e2, nu2);
}

HertzStiffness read_hertz_stiffness(Params& p, const Material& m1, const Material& m2) {
  if (p.has("stiffness")) return {p.required("stiffness"), 0.0};
  return {std::numeric_limits<double>::quiet_NaN(), read_effective_modulus(p, m1, m2)};
}
}  // namespace detail

HertzNormalLaw::HertzNormalLaw(const LawSpec& spec, const Material& m1, const Material& m2) {
  detail::Params p(spec, LawSection::normal);
  stiffness_ = detail::read_hertz_stiffness(p, m1, m2);
  p.finish();
}

HertzNormalLaw HertzNormalLaw::with_stiffness(double stiffness) {
  return HertzNormalLaw(LawSpec{"hertz", {{"stiffness", stiffness}}, {}, {}}, {}, {});
}

HertzNormalLaw HertzNormalLaw::with_modulus(double effective_modulus) {
  if (!(effective_modulus > 0.0) || !std::isfinite(effective_modulus)) {
    throw LawError("normal.young_modulus",
                   fmt::format("normal.young_modulus: effective modulus must be > 0, got {}",
                               effective_modulus));
  }
  HertzNormalLaw law;
  law.stiffness_.modulus = effective_modulus;
  return law;
}

double HertzNormalLaw::stiffness(const NormalGeometry& geometry) const {
  return stiffness_.at(geometry);
}

NormalResult HertzNormalLaw::evaluate(double delta, double /*delta_rate*/,
                                      const NormalGeometry& geometry) const {
  NormalResult r;
  if (delta <= 0.0) return r;
  // N = K δ^{3/2}, ∂N/∂δ = (3/2) K δ^{1/2}; purely elastic.
  const double k = stiffness(geometry);
  const double root = std::sqrt(delta);
  r.force = k * delta * root;
  r.d_delta = 1.5 * k * root;
  return r;
}

double HertzNormalLaw::potential(double delta, const NormalGeometry& geometry) const {
  if (delta <= 0.0) return 0.0;
  return 0.4 * stiffness(geometry) * delta * delta * std::sqrt(delta);
}

}  // namespace coulomb
