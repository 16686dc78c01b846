// Quadrature of the Coulomb–Contensou integral model (Gauss–Legendre nodes, the built-in pressures)
// and rolling resistance by pressure distortion. Method: docs/contensou.md §4 and
// coulomb/laws/contensou_quadrature.hpp (the integration itself is a template there).
#include <coulomb/laws/contensou_quadrature.hpp>

#include "laws/contensou_detail.hpp"

#include <stdexcept>
#include <string>

namespace coulomb::contensou {

using detail::kHalfPi;
using detail::kPi;
using detail::require;

void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w) {
  x.assign(n, 0.0);
  w.assign(n, 0.0);
  // Newton on P_n from the Tricomi initial guess; roots symmetric about 0.
  for (int i = 0; i < (n + 1) / 2; ++i) {
    double z = std::cos(kPi * (i + 0.75) / (n + 0.5));
    double dp = 1.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = z;
      for (int j = 2; j <= n; ++j) {
        const double p2 = ((2.0 * j - 1.0) * z * p1 - (j - 1.0) * p0) / j;
        p0 = p1;
        p1 = p2;
      }
      if (n == 1) p0 = 1.0;
      // P_n = p1, P_{n−1} = p0; P_n' = n (z P_n − P_{n−1})/(z² − 1).
      dp = n * (z * p1 - p0) / (z * z - 1.0);
      const double dz = p1 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-16) break;
    }
    x[i] = -z;
    x[n - 1 - i] = z;
    w[i] = w[n - 1 - i] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

Quadrature::Quadrature(int n_angle, int n_chord) {
  if (n_angle < 2 || n_chord < 2 || n_angle > 1000 || n_chord > 1000)
    throw std::invalid_argument(
        "contensou::Quadrature: n_angle and n_chord must be in [2, 1000], got " +
        std::to_string(n_angle) + ", " + std::to_string(n_chord));
  gauss_legendre(n_angle, xa_, wa_);
  gauss_legendre(n_chord, xc_g_, wc_g_);
  xc_.resize(n_chord);
  wc_.resize(n_chord);
  for (int j = 0; j < n_chord; ++j) {
    xc_[j] = std::sin(kHalfPi * xc_g_[j]);
    wc_[j] = kHalfPi * wc_g_[j] * std::cos(kHalfPi * xc_g_[j]);
  }
}

double HertzPressure::operator()(double x, double y) const {
  const double q = 1.0 - (x * x) / (A * A) - (y * y) / (B * B);
  return q > 0.0 ? 3.0 / (2.0 * kPi * A * B) * std::sqrt(q) : 0.0;
}

double UniformPressure::operator()(double x, double y) const {
  const double q = 1.0 - (x * x) / (A * A) - (y * y) / (B * B);
  return q >= 0.0 ? 1.0 / (kPi * A * B) : 0.0;
}

Resultant Quadrature::circular(double eps, Pressure p) const {
  const Vec2 v(eps, 0.0);
  const Integrals r = p == Pressure::hertz ? integrate(HertzPressure{}, v, 1.0, 1.0, 1.0)
                                           : integrate(UniformPressure{}, v, 1.0, 1.0, 1.0);
  return {r.T.x(), r.M};
}

// ---------------------------------------------------------------------------------------------
// Rolling resistance by pressure distortion
// ---------------------------------------------------------------------------------------------

void Distortion::validate() const {
  require("rolling_resistance kappa", kappa, 0.0, false);
  if (kappa > 1.0)
    throw std::invalid_argument("rolling_resistance kappa: must be <= 1, got " +
                                std::to_string(kappa));
  require("rolling_resistance regularization", omega_reg, 0.0, true);
}

DistortedFriction friction_distorted(const Vec2& v_s, double omega, const Vec2& omega_t, double a,
                                     Pressure p, const Distortion& dist, const Quadrature& q) {
  DistortedFriction out;
  const PatchFriction base = friction_exact(v_s, omega, a, p);
  out.force = base.force;
  out.moment = base.moment;
  const double wt = omega_t.norm();
  if (wt == 0.0 || dist.kappa == 0.0) return out;
  out.kappa_eff = dist.kappa * std::min(1.0, wt / dist.omega_reg);
  // Rolling direction d = ω̂_t × n on (t1, t2).
  const Vec2 d(omega_t.y() / wt, -omega_t.x() / wt);
  const double shift = p == Pressure::hertz ? 0.2 : 0.25;  // pressure-centre shift / (κ a)
  out.rolling_moment = -out.kappa_eff * a * shift * omega_t / wt;
  if (base.set_valued) return out;
  // κ part, linear in κ: σ1 = σ0 x'/a.
  Integrals I;
  if (p == Pressure::hertz) {
    const HertzPressure s0{a, a};
    I = q.integrate([&](double x, double y) { return s0(x, y) * (x * d.x() + y * d.y()) / a; }, v_s,
                    omega, a, a);
  } else {
    const UniformPressure s0{a, a};
    I = q.integrate([&](double x, double y) { return s0(x, y) * (x * d.x() + y * d.y()) / a; }, v_s,
                    omega, a, a);
  }
  out.force -= out.kappa_eff * I.T;
  out.moment -= out.kappa_eff * I.M;
  return out;
}

}  // namespace coulomb::contensou
