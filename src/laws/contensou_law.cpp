// Coulomb–Contensou as a compliant law: parameters, the models' curves, the vector form with its
// derivatives, rolling resistance by pressure distortion, the Hertz patch radius.
#include <coulomb/laws/contensou_law.hpp>

#include <coulomb/laws/hertz.hpp>

#include "laws/isotropic.hpp"
#include "laws/params.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace coulomb {

namespace {

using contensou::Pressure;

// Logistic 1/(1 + e^{−z}) without overflow.
double logistic(double z) {
  if (z >= 0.0) return 1.0 / (1.0 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1.0 + e);
}

// Reads a named approximant constant (range: its registry row), defaulting to the pressure's
// value.
double constant(detail::Params& p, const char* key, double fallback) {
  return p.number(key, fallback);
}

// The keys each model accepts besides model, pressure, radius, regularization.
std::vector<std::string> model_keys(ContensouModel m) {
  switch (m) {
    case ContensouModel::pade11:
      return {"b", "m0", "c"};
    case ContensouModel::pade22:
      return {"c1", "c3", "m0", "d", "e"};
    case ContensouModel::generalized:
      return {"b", "n", "m0", "c", "k"};
    case ContensouModel::quadrature:
      return {"n_angle", "n_chord"};
    default:
      return {};
  }
}

// Friction and moment per μN before the regularisation scale, with derivatives on (v, ω, ω_t).
struct Unscaled {
  Vec2 f = Vec2::Zero();
  double mo = 0.0;
  Mat2 f_v = Mat2::Zero();
  Vec2 f_w = Vec2::Zero();
  Mat2 f_r = Mat2::Zero();
  Vec2 m_v = Vec2::Zero();
  double m_w = 0.0;
  Vec2 m_r = Vec2::Zero();
};

// The four zero-load distortion integrals (σ0 x/a and σ0 y/a): force columns and moments per μN
// (signs of the action: −T, −M).
struct DistortionIntegrals {
  Mat2 T = Mat2::Zero();  // columns: x-weight, y-weight
  Vec2 M = Vec2::Zero();
};

DistortionIntegrals distortion_integrals(const contensou::Quadrature& q, Pressure p, const Vec2& v,
                                         double omega, double a) {
  DistortionIntegrals out;
  for (int axis = 0; axis < 2; ++axis) {
    contensou::Integrals I;
    if (p == Pressure::hertz) {
      const contensou::HertzPressure s0{a, a};
      I = q.integrate([&](double x, double y) { return s0(x, y) * (axis == 0 ? x : y) / a; }, v,
                      omega, a, a);
    } else {
      const contensou::UniformPressure s0{a, a};
      I = q.integrate([&](double x, double y) { return s0(x, y) * (axis == 0 ? x : y) / a; }, v,
                      omega, a, a);
    }
    out.T.col(axis) = I.T;
    out.M[axis] = I.M;
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Construction
// ---------------------------------------------------------------------------------------------

ContensouFrictionLaw::ContensouFrictionLaw(const LawSpec& spec, double mu, const Material& m1,
                                           const Material& m2, const LawSpec* rr) {
  detail::Params p(spec, LawSection::contensou);
  if (!(mu >= 0.0) || !std::isfinite(mu)) {
    throw p.error("", fmt::format("needs the contact's friction coefficient μ ≥ 0 and finite "
                                  "(an isotropic coulomb, regularized, stribeck or elastic_stick "
                                  "friction law), got {}",
                                  mu));
  }
  mu_ = mu;
  // Model and pressure.
  const std::string model = p.option("model");
  if (model == "ellipsoid") model_ = ContensouModel::ellipsoid;
  if (model == "exact") model_ = ContensouModel::exact;
  if (model == "pade11") model_ = ContensouModel::pade11;
  if (model == "pade22") model_ = ContensouModel::pade22;
  if (model == "generalized") model_ = ContensouModel::generalized;
  if (model == "quadrature") model_ = ContensouModel::quadrature;
  pressure_ = p.option("pressure") == "hertz" ? Pressure::hertz : Pressure::uniform;
  const bool hertz = pressure_ == Pressure::hertz;
  m0_ = contensou::pure_spin_moment(pressure_);
  // Constants of another model are errors that say which model takes them.
  const std::vector<std::string> own = model_keys(model_);
  for (ContensouModel other : {ContensouModel::pade11, ContensouModel::pade22,
                               ContensouModel::generalized, ContensouModel::quadrature}) {
    for (const std::string& key : model_keys(other)) {
      if ((spec.params.count(key) || spec.options.count(key)) &&
          std::find(own.begin(), own.end(), key) == own.end()) {
        std::string valid;
        for (const std::string& k : own) valid += valid.empty() ? k : ", " + k;
        throw p.error(
            key, fmt::format("not a parameter of model '{}' ({})", model,
                             valid.empty() ? "it has no constants" : "its constants: " + valid));
      }
    }
  }
  // The model's named constants (defaults: the pressure's documented values). n, k ≥ 1 keep the
  // generalised approximant's derivatives finite at ε = 0.
  if (model_ == ContensouModel::pade11) {
    pade11_ = hertz ? contensou::Pade11::hertz() : contensou::Pade11::uniform();
    pade11_.b = constant(p, "b", pade11_.b);
    pade11_.m0 = constant(p, "m0", pade11_.m0);
    pade11_.c = constant(p, "c", pade11_.c);
  } else if (model_ == ContensouModel::pade22) {
    pade22_ = hertz ? contensou::Pade22::hertz() : contensou::Pade22::uniform();
    pade22_.c1 = constant(p, "c1", pade22_.c1);
    pade22_.c3 = constant(p, "c3", pade22_.c3);
    pade22_.m0 = constant(p, "m0", pade22_.m0);
    pade22_.d = constant(p, "d", pade22_.d);
    pade22_.e = constant(p, "e", pade22_.e);
  } else if (model_ == ContensouModel::generalized) {
    generalized_ = hertz ? contensou::Generalized::hertz() : contensou::Generalized::uniform();
    generalized_.b = constant(p, "b", generalized_.b);
    generalized_.n = constant(p, "n", generalized_.n);
    generalized_.m0 = constant(p, "m0", generalized_.m0);
    generalized_.c = constant(p, "c", generalized_.c);
    generalized_.k = constant(p, "k", generalized_.k);
  }
  generalized_eval_ = contensou::GeneralizedEvaluator(generalized_);
  // Quadrature nodes (the quadrature model, and the distortion integrals of any model).
  int n_angle = 12, n_chord = 16;
  if (model_ == ContensouModel::quadrature) {
    n_angle = static_cast<int>(p.number("n_angle"));
    n_chord = static_cast<int>(p.number("n_chord"));
  }
  quadrature_ = contensou::Quadrature(n_angle, n_chord);
  // Patch radius: given, or Hertz's from the materials.
  if (p.has("radius")) {
    radius_ = p.number("radius");
  } else {
    (void)p.number("radius", 0.0);  // marks the key as known
    const bool e_ok = std::isfinite(m1.young_modulus) && std::isfinite(m2.young_modulus);
    const bool nu_ok = std::isfinite(m1.poisson_ratio) && std::isfinite(m2.poisson_ratio);
    if (!e_ok || !nu_ok) {
      throw p.error("radius",
                    "required unless both materials give young_modulus and poisson_ratio (the "
                    "Hertz patch radius a = (3 N R*/(4 E*))^(1/3) needs E*)");
    }
    if (!elastic_material(m1) || !elastic_material(m2)) {
      throw p.error("radius", fmt::format("the materials' young_modulus must be > 0 and "
                                          "poisson_ratio in (-1, 0.5], got ({}, {}) and ({}, {})",
                                          m1.young_modulus, m1.poisson_ratio, m2.young_modulus,
                                          m2.poisson_ratio));
    }
    radius_ = 0.0;
    effective_modulus_ = effective_modulus(m1, m2);
  }
  v_reg_ = p.number("regularization");
  p.finish();
  // Rolling resistance by pressure distortion.
  if (rr != nullptr) {
    detail::Params q(*rr, LawSection::rolling_resistance);
    kappa_ = q.required("kappa");
    omega_reg_ = q.number("regularization");
    q.finish();
  }
}

std::string_view ContensouFrictionLaw::name() const {
  switch (model_) {
    case ContensouModel::ellipsoid:
      return "ellipsoid";
    case ContensouModel::exact:
      return "exact";
    case ContensouModel::pade11:
      return "pade11";
    case ContensouModel::pade22:
      return "pade22";
    case ContensouModel::generalized:
      return "generalized";
    case ContensouModel::quadrature:
      return "quadrature";
  }
  return "exact";
}

double ContensouFrictionLaw::patch_radius(double normal_force, const NormalGeometry& g) const {
  if (radius_ > 0.0) return radius_;
  if (!(normal_force > 0.0) || !std::isfinite(g.radius)) return 0.0;
  if (g.elliptic()) {
    // The circle of the ellipse's area: √(A B).
    const Vec2 ab = patch_semi_axes(normal_force, g);
    return std::sqrt(ab.x() * ab.y());
  }
  return hertz_patch_radius(normal_force, g.radius, effective_modulus_);
}

Vec2 ContensouFrictionLaw::patch_semi_axes(double normal_force, const NormalGeometry& g) const {
  if (radius_ > 0.0 || !g.elliptic()) {
    const double a = radius_ > 0.0 ? radius_ : patch_radius(normal_force, g);
    return {a, a};
  }
  if (!(normal_force > 0.0) || !std::isfinite(g.radius)) return Vec2::Zero();
  // δ from N = (4/3) E* √R* δ^{3/2}; the semi-axes grow like √δ.
  const double delta =
      std::cbrt(std::pow(3.0 * normal_force / (4.0 * effective_modulus_ * std::sqrt(g.radius)), 2));
  const double root = std::sqrt(delta);
  return {g.a_factor * root, g.b_factor * root};
}

// ---------------------------------------------------------------------------------------------
// The models' curves
// ---------------------------------------------------------------------------------------------

ContensouCurve ContensouFrictionLaw::curve(double eps) const {
  ContensouCurve c;
  switch (model_) {
    case ContensouModel::exact:
    case ContensouModel::quadrature: {
      const contensou::ResultantDerivative r = contensou::exact_derivative(eps, pressure_);
      return {r.F, r.m, r.dF, r.dm};
    }
    case ContensouModel::ellipsoid: {
      // F = ε/√(ε² + m0²), m = m0²/√(ε² + m0²): maximal dissipation on the ellipsoid.
      const double b2 = m0_ * m0_;
      const double q = std::sqrt(eps * eps + b2);
      c.F = eps / q;
      c.m = b2 / q;
      c.dF = b2 / (q * q * q);
      c.dm = -eps * c.dF;
      return c;
    }
    case ContensouModel::pade11: {
      // F = ε/(ε + b), m = m0/(1 + cε).
      const contensou::Pade11& P = pade11_;
      const contensou::Resultant r = P(eps);
      const double den = 1.0 + P.c * eps;
      return {r.F, r.m, P.b / ((eps + P.b) * (eps + P.b)), -P.m0 * P.c / (den * den)};
    }
    case ContensouModel::pade22: {
      // F = ε(ε + c1)/D, D = ε² + c1 ε + c3: F' = c3 (2ε + c1)/D².
      // m = m0 (1 + dε)/Dm, Dm = 1 + dε + eε²: m' = −m0 e ε (2 + dε)/Dm².
      const contensou::Pade22& P = pade22_;
      const contensou::Resultant r = P(eps);
      const double D = eps * (eps + P.c1) + P.c3;
      const double Dm = 1.0 + P.d * eps + P.e * eps * eps;
      return {r.F, r.m, P.c3 * (2.0 * eps + P.c1) / (D * D),
              -P.m0 * P.e * eps * (2.0 + P.d * eps) / (Dm * Dm)};
    }
    case ContensouModel::generalized: {
      // F = (1 + (b/ε)^n)^{−1/n}: F' = F σ(n log(b/ε))/ε; m = m0 (1 + (cε)^k)^{−1/k}:
      // m' = −m σ(k log(cε))/ε, σ the logistic function. ε = 0: F' = 1/b, m' = −m0 c [k = 1].
      const contensou::Generalized& P = generalized_;
      const contensou::Resultant r = generalized_eval_(eps);
      c.F = r.F;
      c.m = r.m;
      if (eps == 0.0) {
        c.dF = 1.0 / P.b;
        c.dm = P.k == 1.0 ? -P.m0 * P.c : 0.0;
      } else {
        const double le = std::log(eps);
        c.dF = r.F * logistic(P.n * (generalized_eval_.log_b - le)) / eps;
        c.dm = -r.m * logistic(P.k * (generalized_eval_.log_c + le)) / eps;
      }
      return c;
    }
  }
  return c;
}

double ContensouFrictionLaw::moment_tail() const {
  switch (model_) {
    case ContensouModel::exact:
    case ContensouModel::quadrature:
      return pressure_ == Pressure::hertz ? 0.2 : 0.25;
    case ContensouModel::ellipsoid:
      return m0_ * m0_;
    case ContensouModel::pade11:
      return pade11_.m0 / pade11_.c;
    case ContensouModel::pade22:
      return pade22_.m0 * pade22_.d / pade22_.e;
    case ContensouModel::generalized:
      // m ≈ m0/(cε) when k ≥ 1.
      return generalized_.m0 / generalized_.c;
  }
  return 0.0;
}

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------

PatchResult ContensouFrictionLaw::evaluate(const PatchInput& in, const NormalGeometry& g) const {
  PatchResult r;
  const double N = in.normal_force;
  if (!(N > 0.0)) return r;
  const double a = patch_radius(N, g);
  r.patch_radius = a;
  const double da_dN = radius_ > 0.0 ? 0.0 : a / (3.0 * N);
  const Vec2& v = in.slip;
  // A patch of zero radius (flat contact without a Hertz patch) sees no spin.
  const double omega = a > 0.0 ? in.spin : 0.0;
  const double vn = v.norm();
  const double wa = std::abs(omega);
  const double sg = omega > 0.0 ? 1.0 : (omega < 0.0 ? -1.0 : 0.0);
  const double rho = std::hypot(vn, a * omega);

  // Rolling resistance: M_t = −N κ a c_σ s_r(|ω_t|) ω̂_t, and e = κ_eff d with its Jacobian.
  const double wt = in.rolling.norm();
  const double c_sigma = pressure_ == Pressure::hertz ? 0.2 : 0.25;
  Vec2 e = Vec2::Zero();
  Mat2 de = Mat2::Zero();
  if (kappa_ > 0.0 && a > 0.0) {
    const detail::Saturation s = detail::saturate(wt, omega_reg_, false);
    TangentialResult t;
    const double k = kappa_ * a * c_sigma;
    detail::isotropic_friction(in.rolling, wt,
                               {k * N * s.s, k * N * s.ds, k * N * s.s_over_u, k * s.s}, t);
    r.rolling_moment = t.force;
    r.drolling_drolling = t.d_slip;
    r.drolling_dnormal = t.d_normal + t.force / a * da_dN;
    r.rolling_power = t.power;
    // d = J ω̂_t, J = [[0, 1], [−1, 0]]; κ_eff d = (κ/ω_r) J ω_t below ω_r, κ J ω̂_t above.
    Mat2 J;
    J << 0.0, 1.0, -1.0, 0.0;
    if (wt < omega_reg_) {
      e = kappa_ / omega_reg_ * (J * in.rolling);
      de = kappa_ / omega_reg_ * J;
    } else {
      const Vec2 h = in.rolling / wt;
      e = kappa_ * (J * h);
      de = kappa_ / wt * J * (Mat2::Identity() - h * h.transpose());
    }
  }
  if (rho == 0.0) {
    // At rest: force and moment vanish (regularised law); derivatives depend on the direction of
    // approach and are returned as zero.
    return r;
  }

  // Undistorted part per μN.
  Unscaled u;
  const double tail = moment_tail();
  if (omega == 0.0) {
    const Vec2 vh = v / vn;
    u.f = -vh;
    u.f_v = -(Mat2::Identity() - vh * vh.transpose()) / vn;
    u.m_w = -a * a * tail / vn;
  } else if (vn == 0.0) {
    const ContensouCurve c0 = curve(0.0);
    u.mo = -a * c0.m * sg;
    u.f_v = -c0.dF / (a * wa) * Mat2::Identity();
  } else {
    const double eps = vn / (a * wa);
    const ContensouCurve c = curve(eps);
    const Vec2 vh = v / vn;
    const Mat2 P = vh * vh.transpose();
    u.f = -c.F * vh;
    u.mo = -a * c.m * sg;
    u.f_v = -c.dF / (a * wa) * P - c.F / vn * (Mat2::Identity() - P);
    u.f_w = c.dF * eps / omega * vh;
    u.m_v = -sg * c.dm / wa * vh;
    u.m_w = a * sg * c.dm * eps / omega;
  }
  const bool elliptic = radius_ == 0.0 && g.elliptic() && a > 0.0 &&
                        (model_ == ContensouModel::exact || model_ == ContensouModel::quadrature);
  if (elliptic) {
    // The integral model over the Hertz ellipse, in its frame (x along the major axis): values by
    // the quadrature, derivatives in (v, ω) by its central differences.
    const Vec2 ab = patch_semi_axes(N, g);
    const Vec2 ex = g.major.normalized();
    Mat2 R;  // ellipse frame → (t1, t2)
    R.col(0) = ex;
    R.col(1) = Vec2(-ex.y(), ex.x());
    auto integral = [&](const Vec2& vv, double ww, Vec2& f, double& m) {
      const contensou::Integrals I =
          pressure_ == Pressure::hertz
              ? quadrature_.integrate(contensou::HertzPressure{ab.x(), ab.y()}, R.transpose() * vv,
                                      ww, ab.x(), ab.y())
              : quadrature_.integrate(contensou::UniformPressure{ab.x(), ab.y()},
                                      R.transpose() * vv, ww, ab.x(), ab.y());
      f = -(R * I.T);
      m = -I.M;
    };
    integral(v, omega, u.f, u.mo);
    const double h = 1e-5 * rho;
    for (int j = 0; j < 3; ++j) {
      Vec2 vp = v, vm = v, fp, fm;
      double wp = omega, wm = omega, mp = 0.0, mm = 0.0, step = h;
      if (j < 2) {
        vp[j] += h;
        vm[j] -= h;
      } else {
        step = h / a;
        wp += step;
        wm -= step;
      }
      integral(vp, wp, fp, mp);
      integral(vm, wm, fm, mm);
      if (j < 2) {
        u.f_v.col(j) = (fp - fm) / (2.0 * step);
        u.m_v[j] = (mp - mm) / (2.0 * step);
      } else {
        u.f_w = (fp - fm) / (2.0 * step);
        u.m_w = (mp - mm) / (2.0 * step);
      }
    }
  } else if (model_ == ContensouModel::quadrature && a > 0.0) {
    // Values from the quadrature of the integral model (derivatives: its closed form).
    contensou::Integrals I;
    if (pressure_ == Pressure::hertz) {
      I = quadrature_.integrate(contensou::HertzPressure{a, a}, v, omega, a, a);
    } else {
      I = quadrature_.integrate(contensou::UniformPressure{a, a}, v, omega, a, a);
    }
    u.f = -I.T;
    u.mo = -I.M;
  }

  // Distortion part per μN: −(T e, M·e), derivatives in (v, ω) by central differences.
  if (e.squaredNorm() > 0.0 || de.squaredNorm() > 0.0) {
    const DistortionIntegrals D = distortion_integrals(quadrature_, pressure_, v, omega, a);
    u.f -= D.T * e;
    u.mo -= D.M.dot(e);
    u.f_r -= D.T * de;
    u.m_r -= de.transpose() * D.M;
    const double h = 1e-5 * rho;
    for (int j = 0; j < 3; ++j) {
      Vec2 vp = v, vm = v;
      double wp = omega, wm = omega, step = h;
      if (j < 2) {
        vp[j] += h;
        vm[j] -= h;
      } else {
        step = h / a;
        wp += step;
        wm -= step;
      }
      const DistortionIntegrals Dp = distortion_integrals(quadrature_, pressure_, vp, wp, a);
      const DistortionIntegrals Dm = distortion_integrals(quadrature_, pressure_, vm, wm, a);
      const Vec2 df = -((Dp.T - Dm.T) * e) / (2.0 * step);
      const double dm = -(Dp.M - Dm.M).dot(e) / (2.0 * step);
      if (j < 2) {
        u.f_v.col(j) += df;
        u.m_v[j] += dm;
      } else {
        u.f_w += df;
        u.m_w += dm;
      }
    }
  }

  // Regularisation scale s = min(1, ρ/v_r): d(sG) = s dG + G ds.
  double s = 1.0;
  Vec2 ds_dv = Vec2::Zero();
  double ds_dw = 0.0;
  if (rho < v_reg_) {
    s = rho / v_reg_;
    ds_dv = v / (rho * v_reg_);
    ds_dw = a * a * omega / (rho * v_reg_);
  }
  const double muN = mu_ * N;
  r.force = muN * s * u.f;
  r.moment = muN * s * u.mo;
  r.dforce_dslip = muN * (s * u.f_v + u.f * ds_dv.transpose());
  r.dforce_dspin = muN * (s * u.f_w + u.f * ds_dw);
  r.dforce_drolling = muN * s * u.f_r;
  r.dmoment_dslip = muN * (s * u.m_v + u.mo * ds_dv);
  r.dmoment_dspin = muN * (s * u.m_w + u.mo * ds_dw);
  r.dmoment_drolling = muN * s * u.m_r;
  // ∂/∂N: the value/N plus the patch radius' change; F/(μN) depends on (v, aω), M/(μN a) too.
  r.dforce_dnormal = r.force / N;
  if (a > 0.0) {
    r.dforce_dnormal += (omega / a) * r.dforce_dspin * da_dN;
    r.dmoment_dnormal = r.moment / N + (r.moment / a + (omega / a) * r.dmoment_dspin) * da_dN;
  }
  r.friction_power = -r.force.dot(v);
  r.pivoting_power = -r.moment * in.spin;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Set-valued counterparts
// ---------------------------------------------------------------------------------------------

ContensouEllipsoid ContensouFrictionLaw::ellipsoid(double N, const NormalGeometry& g) const {
  ContensouEllipsoid e;
  e.radius = mu_ * std::max(0.0, N);
  e.moment_length = contensou_moment_length(pressure_) * patch_radius(N, g);
  return e;
}

ContensouLimitSet ContensouFrictionLaw::limit_set(double N, const NormalGeometry& g) const {
  ContensouLimitSet s;
  s.radius = mu_ * std::max(0.0, N);
  s.patch_radius = patch_radius(N, g);
  s.pressure = pressure_;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Factory
// ---------------------------------------------------------------------------------------------

std::unique_ptr<ContensouLaw> make_contensou_law(const LawSpec& spec, double mu, const Material& m1,
                                                 const Material& m2,
                                                 const LawSpec* rolling_resistance) {
  return std::make_unique<ContensouFrictionLaw>(spec, mu, m1, m2, rolling_resistance);
}

}  // namespace coulomb
