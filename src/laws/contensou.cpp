// Coulomb–Contensou friction: exact closed forms, approximants, quadrature, limit surface.
// Derivations: docs/contensou.md and the header.
#include <coulomb/laws/contensou.hpp>

#include <array>
#include <cassert>
#include <limits>
#include <stdexcept>
#include <string>

namespace coulomb::contensou {
namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;
constexpr double kHalfPi = 0.5 * kPi;

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

// softplus(z) = log(1 + e^z) without overflow.
inline double softplus(double z) { return z > 30.0 ? z + std::exp(-z) : std::log1p(std::exp(z)); }

// Setup-time check of one constant: finite and above its bound.
void require(const char* what, double value, double lower, bool strict) {
  const bool ok = std::isfinite(value) && (strict ? value > lower : value >= lower);
  if (!ok)
    throw std::invalid_argument(std::string(what) + ": must be " + (strict ? "> " : ">= ") +
                                std::to_string(lower) + " and finite, got " +
                                std::to_string(value));
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
// Approximants
// ---------------------------------------------------------------------------------------------

Pade11 Pade11::hertz() { return Pade11{}; }
Pade11 Pade11::uniform() { return Pade11{1.0, 2.0 / 3.0, 8.0 / 3.0}; }
void Pade11::validate() const {
  require("contensou pade11 b", b, 0.0, true);
  require("contensou pade11 m0", m0, 0.0, true);
  require("contensou pade11 c", c, 0.0, true);
}
Resultant Pade11::operator()(double eps) const {
  if (std::isinf(eps)) return {1.0, 0.0};
  return {eps / (eps + b), m0 / (1.0 + c * eps)};
}

Pade22 Pade22::hertz() { return Pade22{}; }
Pade22 Pade22::uniform() { return Pade22{0.125, 0.125, 2.0 / 3.0, 9.0 / 32.0, 0.75}; }
void Pade22::validate() const {
  require("contensou pade22 c1", c1, 0.0, false);
  require("contensou pade22 c3", c3, 0.0, true);
  require("contensou pade22 m0", m0, 0.0, true);
  require("contensou pade22 d", d, 0.0, false);
  require("contensou pade22 e", e, 0.0, true);
}
Resultant Pade22::operator()(double eps) const {
  if (std::isinf(eps)) return {1.0, 0.0};
  const double num = eps * (eps + c1);
  const double dmn = 1.0 + d * eps;
  return {num / (num + c3), m0 * dmn / (dmn + e * eps * eps)};
}

Generalized Generalized::hertz() { return Generalized{}; }
Generalized Generalized::uniform() { return Generalized{1.0, 3.83, 2.0 / 3.0, 2.22, 4.85}; }
void Generalized::validate() const {
  require("contensou generalized b", b, 0.0, true);
  require("contensou generalized n", n, 0.0, true);
  require("contensou generalized m0", m0, 0.0, true);
  require("contensou generalized c", c, 0.0, true);
  require("contensou generalized k", k, 0.0, true);
}
Resultant Generalized::operator()(double eps) const { return GeneralizedEvaluator(*this)(eps); }

GeneralizedEvaluator::GeneralizedEvaluator(const Generalized& g)
    : n(g.n),
      k(g.k),
      m0(g.m0),
      log_b(std::log(g.b)),
      log_c(std::log(g.c)),
      inv_n(1.0 / g.n),
      inv_k(1.0 / g.k) {}

Resultant GeneralizedEvaluator::operator()(double eps) const {
  // F = (1 + (b/ε)^n)^{−1/n}, m = m0 (1 + (cε)^k)^{−1/k}, as exp(−softplus(n log(b/ε))/n):
  // log ε = −∞ at ε = 0 and +∞ at ε = ∞, so both limits come out exact without branches. The
  // divisions and log b, log c do not depend on ε and are precomputed: the latency chain is
  // log → exp → log1p → exp.
  const double le = std::log(eps);
  const double F = std::exp(-softplus(n * (log_b - le)) * inv_n);
  const double m = m0 * std::exp(-softplus(k * (log_c + le)) * inv_k);
  return {F, m};
}

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

// ---------------------------------------------------------------------------------------------
// Quadrature
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Exact limit surface
// ---------------------------------------------------------------------------------------------

Vec3c limit_surface_point(const Vec3c& y, Pressure p) {
  const double vn = std::hypot(y.x(), y.y());
  const double w = y.z();
  if (vn == 0.0 && w == 0.0) return Vec3c::Zero();
  const double eps = w == 0.0 ? std::numeric_limits<double>::infinity() : vn / std::abs(w);
  const Resultant r = exact(eps, p);
  Vec3c out;
  out.x() = vn > 0.0 ? r.F * y.x() / vn : 0.0;
  out.y() = vn > 0.0 ? r.F * y.y() / vn : 0.0;
  out.z() = w > 0.0 ? r.m : (w < 0.0 ? -r.m : 0.0);
  return out;
}

namespace {

// Projection of (ρ, ζ) (ρ, ζ ≥ 0) onto the profile of the limit set.
struct ProfileProjection {
  bool inside = true;
  double theta = 0.0;  // normal angle of the projection, ε = tan θ
  double F = 0.0, m = 0.0;
  double d = 0.0;   // distance to the set (outside)
  double R1 = 0.0;  // radius of curvature of the profile at the projection
};

ProfileProjection project_profile(double rho, double zeta, Pressure p) {
  const double m0 = pure_spin_moment(p);
  const double c_inf = p == Pressure::hertz ? 0.2 : 0.25;  // lim F' ε³ = ⟨r²⟩/2
  // Profile curve c(θ) = (F(tan θ), m(tan θ)), outward normal n = (sin θ, cos θ).
  // f(θ) = (y − c)·n is the support-function excess; y ∉ K iff max f > 0, and the maximiser is
  // the normal angle of the projection; h = f' = (y − c)·t, t = (cos θ, −sin θ).
  struct Eval {
    double f, h, dh, F, m, R1;
  };
  auto eval = [&](double th) {
    const double c = std::cos(th), s = std::sin(th);
    const double eps = th >= kHalfPi ? std::numeric_limits<double>::infinity() : s / c;
    const ResultantDerivative r = exact_derivative(eps, p);
    Eval e;
    e.F = r.F;
    e.m = r.m;
    e.f = (rho - r.F) * s + (zeta - r.m) * c;
    e.h = (rho - r.F) * c - (zeta - r.m) * s;
    // h' = −c'·t − f with c'·t = F'(1 + ε²)^{3/2} = R1, the profile's radius of curvature
    // (finite at θ = π/2).
    if (std::isinf(eps)) {
      e.R1 = c_inf;
    } else {
      const double g = 1.0 + eps * eps;
      e.R1 = r.dF * g * std::sqrt(g);
    }
    e.dh = -e.R1 - e.f;
    return e;
  };
  ProfileProjection out;
  // On the axis: the projection is the pole (0, m0) if outside (the pole is umbilic).
  if (rho == 0.0) {
    out.theta = 0.0;
    out.F = 0.0;
    out.m = m0;
    out.R1 = exact_derivative(0.0, p).dF;
    out.d = zeta - m0;
    out.inside = zeta <= m0;
    return out;
  }
  // Coarse scan for the maximiser of f.
  constexpr int kScan = 16;
  int best = 0;
  double fbest = -std::numeric_limits<double>::infinity();
  for (int i = 0; i <= kScan; ++i) {
    const double f = eval(kHalfPi * i / kScan).f;
    if (f > fbest) {
      fbest = f;
      best = i;
    }
  }
  double lo = kHalfPi * std::max(0, best - 1) / kScan;
  double hi = kHalfPi * std::min(kScan, best + 1) / kScan;
  // Safeguarded Newton on h (h > 0 left of the maximiser, < 0 right of it).
  const Eval elo = eval(lo), ehi = eval(hi);
  double th;
  Eval e;
  if (elo.h <= 0.0) {
    th = lo;
    e = elo;
  } else if (ehi.h >= 0.0) {
    th = hi;
    e = ehi;
  } else {
    th = 0.5 * (lo + hi);
    e = eval(th);
    for (int it = 0; it < 100; ++it) {
      if (e.h > 0.0)
        lo = th;
      else
        hi = th;
      double next = e.dh < 0.0 ? th - e.h / e.dh : 0.5 * (lo + hi);
      if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
      const double step = std::abs(next - th);
      th = next;
      e = eval(th);
      if (step < 1e-15 || std::abs(e.h) < 1e-15 || hi - lo < 1e-15) break;
    }
  }
  out.inside = e.f <= 0.0;
  out.theta = th;
  out.F = e.F;
  out.m = e.m;
  out.d = e.f;
  out.R1 = e.R1;
  return out;
}

}  // namespace

Vec3c project_limit_surface(const Vec3c& z, Pressure p) {
  const double rho = std::hypot(z.x(), z.y());
  const ProfileProjection q = project_profile(rho, std::abs(z.z()), p);
  if (q.inside) return z;
  const double sx = rho > 0.0 ? z.x() / rho : 0.0, sy = rho > 0.0 ? z.y() / rho : 0.0;
  return Vec3c(q.F * sx, q.F * sy, z.z() >= 0.0 ? q.m : -q.m);
}

LimitProjection project_limit_surface_jacobian(const Vec3c& z, Pressure p) {
  LimitProjection out;
  const double rho = std::hypot(z.x(), z.y());
  const ProfileProjection q = project_profile(rho, std::abs(z.z()), p);
  if (q.inside) {
    out.point = z;
    out.jacobian = Eigen::Matrix3d::Identity();
    out.inside = true;
    return out;
  }
  out.inside = false;
  const double s3 = z.z() >= 0.0 ? 1.0 : -1.0;
  // Radial and azimuthal unit vectors (any orthonormal pair on the axis: the pole is umbilic).
  const Vec3c er = rho > 0.0 ? Vec3c(z.x() / rho, z.y() / rho, 0.0) : Vec3c(1.0, 0.0, 0.0);
  const Vec3c ephi(-er.y(), er.x(), 0.0);
  const double c = std::cos(q.theta), s = std::sin(q.theta);
  out.point = q.F * er + Vec3c(0.0, 0.0, s3 * q.m);
  // Principal directions: meridian t1 and parallel t2; radii R1 (profile curvature) and
  // R2 = F / sin θ (distance to the axis along the normal), R2 = R1 at the pole.
  const Vec3c t1 = c * er - s * s3 * Vec3c::UnitZ();
  const double R2 = s > 0.0 ? q.F / s : q.R1;
  out.jacobian =
      (q.R1 / (q.R1 + q.d)) * t1 * t1.transpose() + (R2 / (R2 + q.d)) * ephi * ephi.transpose();
  return out;
}

}  // namespace coulomb::contensou
