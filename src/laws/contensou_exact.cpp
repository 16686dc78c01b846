// Coulomb–Contensou friction, exact: closed forms with their large-ε series, the AGM elliptic
// integrals, the vector form. Derivations: docs/contensou.md and coulomb/laws/contensou_exact.hpp.
#include <coulomb/laws/contensou_exact.hpp>

#include "laws/contensou_detail.hpp"

#include <array>
#include <cassert>
#include <limits>

namespace coulomb::contensou {

using detail::kHalfPi;
using detail::kPi;

namespace {

// Above this ε the closed forms lose up to ε⁴ relative digits: use the 1/ε series instead.
constexpr double kSeriesEps = 2.5;
constexpr int kSeriesTerms = 19;  // k = 0..18: truncation < 1e-19 at ε = 2.5

// Coefficients of Φ(ε) = Σ c_k ε^{1−2k}, c_k = binom(1/2, k)² ⟨r^{2k}⟩ (a = 1).
struct Series {
  std::array<double, kSeriesTerms> f{};   // F  = Σ_k f_k x^k,            x = 1/ε²
  std::array<double, kSeriesTerms> m{};   // m  = (1/ε) Σ_k m_k x^k
  std::array<double, kSeriesTerms> dm{};  // dm/dε = Σ_k dm_k x^k (dF/dε = −dm/ε)
};

constexpr Series make_series(bool hertz) {
  Series s;
  double beta = 1.0;    // binom(1/2, k)
  double moment = 1.0;  // ⟨r^{2k}⟩
  for (int k = 0; k < kSeriesTerms; ++k) {
    const double ck = beta * beta * moment;
    s.f[k] = (1.0 - 2.0 * k) * ck;
    // m = Σ_{k≥1} 2k c_k ε^{1−2k} = (1/ε) Σ_{k≥1} 2k c_k x^{k−1}
    if (k >= 1) s.m[k - 1] = 2.0 * k * ck;
    // dm/dε = −ε dF/dε = −Σ_{k≥1} 2k(2k−1) c_k x^k
    s.dm[k] = -2.0 * k * (2.0 * k - 1.0) * ck;
    beta *= (0.5 - k) / (k + 1.0);
    moment *= hertz ? (k + 1.0) / (k + 2.5) : (k + 1.0) / (k + 2.0);
  }
  return s;
}

constexpr Series kHertzSeries = make_series(true);
constexpr Series kUniformSeries = make_series(false);

// Horner evaluation of Σ c_k x^k.
inline double horner(const std::array<double, kSeriesTerms>& c, double x) {
  double r = c[kSeriesTerms - 1];
  for (int k = kSeriesTerms - 2; k >= 0; --k) r = r * x + c[k];
  return r;
}

// Large-ε series (ε ≥ kSeriesEps or ε = ∞).
inline ResultantDerivative series(double eps, const Series& s, bool want_derivative) {
  ResultantDerivative r;
  const double inv = 1.0 / eps;
  const double x = inv * inv;
  r.F = horner(s.f, x);
  r.m = inv * horner(s.m, x);
  if (want_derivative) {
    r.dm = horner(s.dm, x);
    r.dF = -r.dm * inv;
  }
  return r;
}

// Hertz pressure, closed forms.
inline ResultantDerivative hertz(double eps, bool want_derivative) {
  ResultantDerivative r;
  if (eps <= 1.0) {
    const double e2 = eps * eps;
    r.F = (3.0 * kPi / 32.0) * eps * (4.0 - e2);
    r.m = (3.0 * kPi / 128.0) * (8.0 - 8.0 * e2 + 3.0 * e2 * e2);
    if (want_derivative) {
      r.dF = (3.0 * kPi / 32.0) * (4.0 - 3.0 * e2);
      r.dm = -eps * r.dF;
    }
    return r;
  }
  if (eps >= kSeriesEps) return series(eps, kHertzSeries, want_derivative);
  const double e2 = eps * eps;
  const double s = std::sqrt((eps - 1.0) * (eps + 1.0));
  const double A = std::asin(1.0 / eps);
  r.F = 3.0 / (16.0 * eps) * ((2.0 + e2) * s + (4.0 * e2 - e2 * e2) * A);
  r.m = 3.0 / 64.0 * ((6.0 - 3.0 * e2) * s + (8.0 - 8.0 * e2 + 3.0 * e2 * e2) * A);
  if (want_derivative) {
    r.dF = 3.0 / (16.0 * e2) * ((3.0 * e2 - 2.0) * s + (4.0 * e2 - 3.0 * e2 * e2) * A);
    r.dm = -eps * r.dF;
  }
  return r;
}

// Uniform pressure, closed forms with the AGM elliptic integrals.
inline ResultantDerivative uniform(double eps, bool want_derivative) {
  ResultantDerivative r;
  if (eps == 0.0) {
    r.F = 0.0;
    r.m = 2.0 / 3.0;
    r.dF = 1.0;
    r.dm = 0.0;
    return r;
  }
  if (eps == 1.0) {
    // Limits: (1 − ε²) K(ε) → 0, E(1) = 1.
    r.F = 8.0 / (3.0 * kPi);
    r.m = 8.0 / (9.0 * kPi);
    r.dF = 4.0 / (3.0 * kPi);
    r.dm = -r.dF;
    return r;
  }
  if (eps >= kSeriesEps) return series(eps, kUniformSeries, want_derivative);
  if (eps < 1.0) {
    const EllipticKE ke = elliptic_ke(eps);
    const double e2 = eps * eps;
    const double q = (1.0 - eps) * (1.0 + eps);  // 1 − ε²
    r.m = 4.0 * ke.K / (9.0 * kPi) * ((4.0 - 2.0 * e2) * (1.0 - ke.S) - q);
    if (eps < 0.5) {
      // Cancellation-free small-ε forms with Ŝ = S/ε² (S = (K − E)/K ≈ ε²/2).
      const double sh = ke.S / e2;
      r.F = 4.0 * eps * ke.K / (3.0 * kPi) * (2.0 - sh * (1.0 + e2));
      if (want_derivative) r.dF = 4.0 * ke.K / (3.0 * kPi) * (1.0 - 2.0 * ke.S + sh);
    } else {
      r.F = 4.0 / (3.0 * kPi * eps) * ((1.0 + e2) * ke.E - q * ke.K);
      if (want_derivative) r.dF = 4.0 / (3.0 * kPi * e2) * ((2.0 * e2 - 1.0) * ke.E + q * ke.K);
    }
    r.dm = -eps * r.dF;
    return r;
  }
  // 1 < ε < kSeriesEps: modulus k = 1/ε.
  const double k = 1.0 / eps;
  const EllipticKE ke = elliptic_ke(k);
  const double e2 = eps * eps;
  const double q = (eps - 1.0) * (eps + 1.0);  // ε² − 1
  r.F = 4.0 / (3.0 * kPi) * ((1.0 + e2) * ke.E - q * ke.K);
  r.m = 4.0 / (9.0 * kPi * eps) * (2.0 * e2 * (2.0 - e2) * ke.E + q * (2.0 * e2 - 3.0) * ke.K);
  if (want_derivative) {
    const double kp2 = (1.0 - k) * (1.0 + k);
    r.dF = 4.0 * eps / (3.0 * kPi) * ((2.0 - k * k) * ke.E - 2.0 * kp2 * ke.K);
    r.dm = -eps * r.dF;
  }
  return r;
}

inline ResultantDerivative evaluate(double eps, Pressure p, bool want_derivative) {
  assert(eps >= 0.0 && "contensou: eps must be >= 0 (not NaN)");
  if (std::isinf(eps)) {
    ResultantDerivative r;
    r.F = 1.0;
    return r;
  }
  return p == Pressure::hertz ? hertz(eps, want_derivative) : uniform(eps, want_derivative);
}

}  // namespace

double pure_spin_moment(Pressure p) { return p == Pressure::hertz ? 3.0 * kPi / 16.0 : 2.0 / 3.0; }

// ---------------------------------------------------------------------------------------------
// Elliptic integrals by the AGM
// ---------------------------------------------------------------------------------------------

EllipticKE elliptic_ke(double k) {
  // a0 = 1, b0 = k' (computed as √((1−k)(1+k)) to keep it accurate near k = 1), c0 = k.
  double a = 1.0;
  double b = std::sqrt((1.0 - k) * (1.0 + k));
  double c = k;
  double sum = 0.5 * c * c;  // Σ 2^{n−1} c_n², n = 0 term
  double pow2 = 1.0;         // 2^{n−1} for n = 1
  // Quadratic convergence: stop when c_n/a_n ≤ 1e-9 (then c_{n+1}/a ≤ 3e-19).
  for (int it = 0; it < 40 && c > 1e-9 * a; ++it) {
    const double an = 0.5 * (a + b);
    const double bn = std::sqrt(a * b);
    c = c * c / (4.0 * an);
    a = an;
    b = bn;
    sum += pow2 * c * c;
    pow2 *= 2.0;
  }
  EllipticKE r;
  r.K = kHalfPi / a;
  r.S = sum;
  r.E = r.K * (1.0 - sum);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Exact closed forms
// ---------------------------------------------------------------------------------------------

Resultant exact(double eps, Pressure p) {
  const ResultantDerivative r = evaluate(eps, p, false);
  return {r.F, r.m};
}

ResultantDerivative exact_derivative(double eps, Pressure p) { return evaluate(eps, p, true); }

// ---------------------------------------------------------------------------------------------
// Vector form
// ---------------------------------------------------------------------------------------------

PatchFriction friction_exact(const Vec2& v_s, double omega, double a, Pressure p) {
  PatchFriction out;
  const double vn = v_s.norm();
  if (vn == 0.0 && omega == 0.0) {
    out.set_valued = true;
    return out;
  }
  const double eps =
      omega == 0.0 ? std::numeric_limits<double>::infinity() : vn / (a * std::abs(omega));
  const Resultant r = exact(eps, p);
  if (vn > 0.0) out.force = -r.F / vn * v_s;
  out.moment = omega > 0.0 ? -a * r.m : (omega < 0.0 ? a * r.m : 0.0);
  out.power = r.F * vn + a * r.m * std::abs(omega);
  return out;
}

PatchFriction friction_regularized(const Vec2& v_s, double omega, double a, Pressure p,
                                   double v_reg) {
  const double rho = std::hypot(v_s.norm(), a * omega);
  if (rho == 0.0) return {};
  PatchFriction out = friction_exact(v_s, omega, a, p);
  const double scale = rho < v_reg ? rho / v_reg : 1.0;
  out.force *= scale;
  out.moment *= scale;
  out.power *= scale;
  return out;
}

PatchFrictionJacobian friction_jacobian(const Vec2& v_s, double omega, double a, Pressure p,
                                        double v_reg) {
  PatchFrictionJacobian J;
  const double vn = v_s.norm();
  const double wa = std::abs(omega);
  if (vn == 0.0 && omega == 0.0) {
    J.value.set_valued = v_reg <= 0.0;
    return J;
  }
  J.value = friction_exact(v_s, omega, a, p);
  const double sg = omega > 0.0 ? 1.0 : (omega < 0.0 ? -1.0 : 0.0);
  const double c2 = p == Pressure::hertz ? 0.2 : 0.25;  // m ≈ c2/ε for ε → ∞
  if (omega == 0.0) {
    // Pure sliding: force = −v̂, moment = 0; ∂moment/∂ω from m ≈ c2 a|ω|/|v|.
    const Vec2 vh = v_s / vn;
    J.dforce_dv = -(Eigen::Matrix2d::Identity() - vh * vh.transpose()) / vn;
    J.dmoment_domega = -a * a * c2 / vn;
  } else if (vn == 0.0) {
    // Pure spin: F ≈ F'(0) ε, isotropic; m'(0) = 0.
    const ResultantDerivative r = exact_derivative(0.0, p);
    J.dforce_dv = -r.dF / (a * wa) * Eigen::Matrix2d::Identity();
  } else {
    const double eps = vn / (a * wa);
    const ResultantDerivative r = exact_derivative(eps, p);
    const Vec2 vh = v_s / vn;
    const Eigen::Matrix2d P = vh * vh.transpose();
    J.dforce_dv = -r.dF / (a * wa) * P - r.F / vn * (Eigen::Matrix2d::Identity() - P);
    J.dforce_domega = r.dF * eps / omega * vh;
    J.dmoment_dv = -sg * r.dm / wa * vh;
    J.dmoment_domega = a * sg * r.dm * eps / omega;
  }
  if (v_reg > 0.0) {
    const double rho = std::hypot(vn, a * omega);
    if (rho < v_reg) {
      const double scale = rho / v_reg;
      const Vec2 ds_dv = v_s / (rho * v_reg);
      const double ds_dw = a * a * omega / (rho * v_reg);
      J.dforce_dv = scale * J.dforce_dv + J.value.force * ds_dv.transpose();
      J.dforce_domega = scale * J.dforce_domega + J.value.force * ds_dw;
      J.dmoment_dv = scale * J.dmoment_dv + J.value.moment * ds_dv;
      J.dmoment_domega = scale * J.dmoment_domega + J.value.moment * ds_dw;
      J.value.force *= scale;
      J.value.moment *= scale;
      J.value.power *= scale;
    }
  }
  return J;
}

}  // namespace coulomb::contensou
