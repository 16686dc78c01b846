// Coulomb–Contensou as a compliant law: closed forms and limits of each model, agreement of the
// exact closed form with the quadrature of the integral model, the Hertz patch radius, rolling
// resistance, every derivative against finite differences, dissipated power, and validation.
#include <coulomb/laws/contensou_law.hpp>
#include <coulomb/laws/hertz.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <string>
#include <vector>

namespace coulomb {
namespace {

constexpr double kPiD = std::numbers::pi;

LawSpec spec(const std::string& model, const std::string& pressure,
             std::map<std::string, double> params = {}) {
  LawSpec s{"contensou", std::move(params), {{"model", model}, {"pressure", pressure}}, {}};
  return s;
}

ContensouFrictionLaw law(const std::string& model, const std::string& pressure,
                         std::map<std::string, double> params = {{"radius", 0.01}}, double mu = 0.3,
                         const LawSpec* rr = nullptr) {
  return ContensouFrictionLaw(spec(model, pressure, std::move(params)), mu, {}, {}, rr);
}

const std::vector<std::string> kModels = {"ellipsoid", "exact",       "pade11",
                                          "pade22",    "generalized", "quadrature"};

// The 6 inputs (v1, v2, ω, ωt1, ωt2, N) and 5 outputs (F1, F2, M_n, Mt1, Mt2) as vectors.
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Vec5 = Eigen::Matrix<double, 5, 1>;
using Mat56 = Eigen::Matrix<double, 5, 6>;

PatchInput input_of(const Vec6& x) { return {Vec2(x[0], x[1]), x[2], Vec2(x[3], x[4]), x[5]}; }
Vec5 output_of(const PatchResult& r) {
  Vec5 y;
  y << r.force, r.moment, r.rolling_moment;
  return y;
}
Mat56 jacobian_of(const PatchResult& r) {
  Mat56 J = Mat56::Zero();
  J.block<2, 2>(0, 0) = r.dforce_dslip;
  J.block<2, 1>(0, 2) = r.dforce_dspin;
  J.block<2, 2>(0, 3) = r.dforce_drolling;
  J.block<2, 1>(0, 5) = r.dforce_dnormal;
  J.block<1, 2>(2, 0) = r.dmoment_dslip.transpose();
  J(2, 2) = r.dmoment_dspin;
  J.block<1, 2>(2, 3) = r.dmoment_drolling.transpose();
  J(2, 5) = r.dmoment_dnormal;
  J.block<2, 2>(3, 3) = r.drolling_drolling;
  J.block<2, 1>(3, 5) = r.drolling_dnormal;
  return J;
}

// Central differences with a step of `rel` times each input's scale. The laws are smooth away
// from ρ = v_r, |ω_t| = ω_r and the kinks at v = 0 or ω = 0 (not sampled here): the truncation
// error is O(h²) ≈ 1e-10 relative and round-off ≈ 1e-16/1e-5; `tol` is relative to the largest
// entry of the column's scale (1e-6: the closed forms; 1e-4: the distortion, whose analytic
// Jacobian is itself a central difference of the quadrature).
void expect_jacobian(const ContensouLaw& law, const Vec6& x, const NormalGeometry& g,
                     const Vec6& scale, double tol, const std::string& what) {
  const PatchResult r = law.evaluate(input_of(x), g);
  const Mat56 J = jacobian_of(r);
  for (int j = 0; j < 6; ++j) {
    const double h = 1e-5 * scale[j];
    Vec6 xp = x, xm = x;
    xp[j] += h;
    xm[j] -= h;
    const Vec5 col =
        (output_of(law.evaluate(input_of(xp), g)) - output_of(law.evaluate(input_of(xm), g))) /
        (2 * h);
    const double mag = std::max(col.cwiseAbs().maxCoeff(), J.col(j).cwiseAbs().maxCoeff());
    for (int i = 0; i < 5; ++i) {
      EXPECT_NEAR(J(i, j), col[i], tol * std::max(mag, 1e-12))
          << what << " d out" << i << "/d in" << j << " at " << x.transpose();
    }
  }
}

// Far from the regularisation (ρ ≫ v_r), force and moment are μN(F(ε) v̂, a m(ε)) of the closed
// forms; the quadrature model agrees with the exact model to its accuracy (≤ 2e-11 relative on the
// test table with the default nodes; 1e-9 here leaves a margin of 50).
TEST(ContensouLaw, ExactAndQuadratureAgreeWithTheClosedForm) {
  const double a = 0.01, mu = 0.3, N = 20.0;
  for (const char* p : {"hertz", "uniform"}) {
    const auto pr =
        std::string(p) == "hertz" ? contensou::Pressure::hertz : contensou::Pressure::uniform;
    const ContensouFrictionLaw ex = law("exact", p), qu = law("quadrature", p);
    for (double eps : {0.05, 0.5, 0.99, 1.0, 1.7, 4.0, 30.0}) {
      const double omega = -3.0;
      const Vec2 dir(0.6, -0.8);
      const Vec2 v = eps * a * std::abs(omega) * dir;
      const contensou::Resultant ref = contensou::exact(eps, pr);
      for (const ContensouFrictionLaw* l : {&ex, &qu}) {
        const PatchResult r = l->evaluate({v, omega, Vec2::Zero(), N}, {});
        EXPECT_NEAR((r.force - (-mu * N * ref.F * dir)).norm(), 0.0, 1e-9 * mu * N) << p << eps;
        EXPECT_NEAR(r.moment, mu * N * a * ref.m, 1e-9 * mu * N * a) << p << eps;
      }
    }
  }
}

// Limits of every model: pure spin M_n = −μN a m0 sign ω with m0 = 3π/16 (Hertz), 2/3 (uniform)
// (m0 is a named constant of each approximant, the defaults match); pure sliding F_t = −μN v̂,
// M_n = 0; large ε: F → 1.
TEST(ContensouLaw, PureSpinAndPureSlidingLimits) {
  const double a = 0.02, mu = 0.4, N = 5.0;
  for (const std::string& model : kModels) {
    for (const char* p : {"hertz", "uniform"}) {
      const double m0 = std::string(p) == "hertz" ? 3 * kPiD / 16 : 2.0 / 3.0;
      const ContensouFrictionLaw l = law(model, p, {{"radius", a}}, mu);
      const PatchResult spin = l.evaluate({Vec2::Zero(), 7.0, Vec2::Zero(), N}, {});
      EXPECT_NEAR(spin.moment, -mu * N * a * m0, 1e-12 * mu * N * a) << model << p;
      // Exactly 0 for the closed forms; the quadrature model sums ≈ 1e-17 of round-off.
      EXPECT_NEAR(spin.force.norm(), 0.0, 1e-14 * mu * N);
      const PatchResult slide = l.evaluate({Vec2(0, -2.0), 0.0, Vec2::Zero(), N}, {});
      EXPECT_NEAR((slide.force - Vec2(0, mu * N)).norm(), 0.0, 1e-12 * mu * N) << model << p;
      EXPECT_NEAR(slide.moment, 0.0, 1e-14 * mu * N * a);
      // ε = 1e4: F = 1 − O(ε^-n) for all models (Padé (1,1): 1 − b/ε ≈ 1 − 1e-4).
      const PatchResult far = l.evaluate({Vec2(1e4 * a, 0), 1.0, Vec2::Zero(), N}, {});
      EXPECT_NEAR(-far.force.x() / (mu * N), 1.0, 1.5e-4) << model << p;
    }
  }
}

// The ellipsoid model is maximal dissipation on ‖F‖² + (M/ā)² ≤ (μN)², ā = m0 a: its result lies
// on that boundary with outward normal ∝ −(v, ā²ω) (closed form of the maximiser).
TEST(ContensouLaw, EllipsoidModelIsMaximalDissipationOnTheEllipsoid) {
  const double a = 0.01, mu = 0.5, N = 3.0, abar = 3 * kPiD / 16 * a;
  const ContensouFrictionLaw l = law("ellipsoid", "hertz", {{"radius", a}}, mu);
  for (double omega : {-5.0, 0.3, 40.0}) {
    const Vec2 v(0.02, -0.01);
    const PatchResult r = l.evaluate({v, omega, Vec2::Zero(), N}, {});
    const double q = std::sqrt(v.squaredNorm() + abar * abar * omega * omega);
    EXPECT_NEAR((r.force + mu * N * v / q).norm(), 0.0, 1e-13 * mu * N);
    EXPECT_NEAR(r.moment, -mu * N * abar * abar * omega / q, 1e-13 * mu * N * a);
  }
}

// Hertz patch radius a = (3 N R*/(4 E*))^{1/3}: equal to √(R* δ) at the penetration δ where the
// Hertz normal law gives N (an independent route through N = (4/3)E*√R* δ^{3/2}).
TEST(ContensouLaw, HertzPatchRadiusMatchesHertzTheory) {
  Material steel{"steel", 2.1e11, 0.3, 7800};
  Material glass{"glass", 6.3e10, 0.22, 2500};
  const ContensouFrictionLaw l(spec("exact", "hertz"), 0.2, steel, glass, nullptr);
  const NormalGeometry g{0.0125};
  const HertzNormalLaw hertz(LawSpec{"hertz", {}, {}, {}}, steel, glass);
  for (double delta : {1e-7, 3e-6, 2e-5}) {
    const double N = hertz.evaluate(delta, 0.0, g).force;
    EXPECT_NEAR(l.patch_radius(N, g), std::sqrt(g.radius * delta),
                1e-13 * std::sqrt(g.radius * delta));
  }
  // Given radius: independent of N; flat contact without radius: point-contact limit.
  EXPECT_EQ(law("exact", "hertz", {{"radius", 0.004}}).patch_radius(7.0, {}), 0.004);
  EXPECT_EQ(l.patch_radius(7.0, NormalGeometry{}), 0.0);
  const PatchResult flat = l.evaluate({Vec2(1, 0), 50.0, Vec2::Zero(), 10.0}, NormalGeometry{});
  EXPECT_NEAR(flat.force.x(), -0.2 * 10.0, 1e-15);
  EXPECT_EQ(flat.moment, 0.0);
}

// Rolling resistance: pure rolling gives M_t = −κ a c_σ N ω̂_t (c_σ = ⟨x²⟩/a² = 1/5 Hertz, 1/4
// uniform: the pressure centre moves by κ c_σ a), pure spin adds the sideways force
// −κ (m0/2) sign(ω) (n × d) μN (d = ω̂_t × n), and the whole agrees with contensou::
// friction_distorted (one weighted quadrature instead of two) to 1e-12.
TEST(ContensouLaw, RollingResistanceByPressureDistortion) {
  const double a = 0.01, mu = 0.3, N = 4.0, kappa = 0.4;
  const LawSpec rr{"rolling_resistance", {{"kappa", kappa}, {"regularization", 0.1}}, {}, {}};
  for (const char* p : {"hertz", "uniform"}) {
    const bool hz = std::string(p) == "hertz";
    const double c = hz ? 0.2 : 0.25, m0 = hz ? 3 * kPiD / 16 : 2.0 / 3.0;
    const ContensouFrictionLaw l = law("exact", p, {{"radius", a}}, mu, &rr);
    const Vec2 wt(3.0, 4.0);
    const PatchResult roll = l.evaluate({Vec2::Zero(), 0.0, wt, N}, {});
    EXPECT_NEAR((roll.rolling_moment + kappa * a * c * N * wt / 5.0).norm(), 0.0, 1e-15);
    EXPECT_NEAR(roll.rolling_power, kappa * a * c * N * 5.0, 1e-14);
    const PatchResult spin = l.evaluate({Vec2::Zero(), 2.0, wt, N}, {});
    const Vec2 d(wt.y() / 5.0, -wt.x() / 5.0), nxd(-d.y(), d.x());
    EXPECT_NEAR((spin.force + kappa * m0 / 2 * nxd * mu * N).norm(), 0.0, 1e-10 * mu * N) << p;
    const contensou::Quadrature q;
    const contensou::Distortion dist{kappa, 0.1};
    for (const Vec2& v : {Vec2(0.003, -0.01), Vec2(-0.2, 0.05)}) {
      const contensou::DistortedFriction ref = contensou::friction_distorted(
          v, -6.0, wt, a, hz ? contensou::Pressure::hertz : contensou::Pressure::uniform, dist, q);
      const PatchResult r = l.evaluate({v, -6.0, wt, N}, {});
      EXPECT_NEAR((r.force - mu * N * ref.force).norm(), 0.0, 1e-12 * mu * N) << p;
      EXPECT_NEAR(r.moment, mu * N * ref.moment, 1e-12 * mu * N * a) << p;
      EXPECT_NEAR((r.rolling_moment - N * ref.rolling_moment).norm(), 0.0, 1e-15) << p;
    }
  }
}

// Every derivative of every model against central differences, at points with ε below, near and
// above 1, in the regularisation zone, with the Hertz radius (∂/∂N through a(N)), and with rolling
// resistance (∂/∂ω_t, and the distortion's ∂/∂v, ∂/∂ω).
TEST(ContensouLaw, DerivativesMatchFiniteDifferences) {
  Material steel{"steel", 2.1e11, 0.3, 7800};
  const NormalGeometry g{0.02};
  const double a_hint = 1e-4;  // Hertz radius at N ≈ 2 N for these materials, order of magnitude
  const LawSpec rr{"rolling_resistance", {{"kappa", 0.3}, {"regularization", 5.0}}, {}, {}};
  for (const std::string& model : kModels) {
    for (const char* p : {"hertz", "uniform"}) {
      const ContensouFrictionLaw given =
          law(model, p, {{"radius", 0.01}, {"regularization", 1e-3}});
      const ContensouFrictionLaw hz(spec(model, p, {{"regularization", 1e-6}}), 0.3, steel, steel,
                                    nullptr);
      const ContensouFrictionLaw dist =
          law(model, p, {{"radius", 0.01}, {"regularization", 1e-3}}, 0.3, &rr);
      for (double eps : {0.3, 0.97, 1.05, 2.5, 8.0}) {
        const double w = 2.0;
        Vec6 x;
        x << 0.8 * eps * 0.01 * w, -0.6 * eps * 0.01 * w, w, 0.0, 0.0, 2.0;
        const Vec6 scale(0.01 * w, 0.01 * w, w, 1.0, 1.0, 2.0);
        expect_jacobian(given, x, g, scale, 1e-6, model + " given " + p);
        // In the regularisation zone: ρ = v_r/2.
        Vec6 xs = x;
        const double shrink = 0.5e-3 / std::hypot(std::hypot(x[0], x[1]), 0.01 * w);
        xs.head<3>() *= shrink;
        expect_jacobian(given, xs, g, scale * shrink, 1e-6, model + " regularised " + p);
        // Hertz radius: a ≈ 1e-4 m at N = 2.
        Vec6 xh = x;
        xh[0] *= a_hint / 0.01;
        xh[1] *= a_hint / 0.01;
        expect_jacobian(hz, xh, g, Vec6(a_hint * w, a_hint * w, w, 1, 1, 2), 1e-6,
                        model + " hertz radius " + p);
        // Rolling resistance below and above ω_r.
        for (double roll : {2.0, 9.0}) {
          Vec6 xr = x;
          xr[3] = 0.6 * roll;
          xr[4] = 0.8 * roll;
          expect_jacobian(dist, xr, g, Vec6(0.01 * w, 0.01 * w, w, roll, roll, 2.0), 1e-4,
                          model + " distorted " + p);
        }
      }
    }
  }
}

// Dissipated power: friction + pivoting = μN s (F|v| + a m|ω|) ≥ 0 and each ≥ 0 without
// distortion; with distortion the sum stays ≥ 0 (it is μN s ∬σ|u| with σ ≥ 0) and rolling ≥ 0.
// The elliptic Hertz patch (Hertz radius, NormalGeometry::elliptic()): the integral model over the
// ellipse for exact and quadrature. Rotating the slip and the ellipse together rotates the force
// and keeps the moment; a nearly circular ellipse gives the circle's closed form; the ellipse
// follows Hertz theory (A B = a_f b_f δ, δ from N); the derivatives match central differences
// (they are central differences of the quadrature: 1e-4, as for the distortion).
TEST(ContensouLaw, EllipticHertzPatch) {
  const Material steel{"steel", 2e11, 0.3, 7800};
  const ContensouFrictionLaw exact(spec("exact", "hertz"), 0.3, steel, steel, nullptr);
  const ContensouFrictionLaw pade(spec("pade22", "hertz"), 0.3, steel, steel, nullptr);
  // A surface with principal radii 0.05 and 0.01 m on a plane.
  const HertzEllipse h = hertz_ellipse({0.05, 0.01, Vec3::UnitX()}, {});
  NormalGeometry g{h.radius, h.a_factor, h.b_factor, Vec2(std::cos(0.5), std::sin(0.5))};
  ASSERT_TRUE(g.elliptic());
  const double N = 50.0;
  // Semi-axes from Hertz theory.
  const Vec2 ab = exact.patch_semi_axes(N, g);
  const double e_star = effective_modulus(steel, steel);
  const double delta = std::pow(3.0 * N / (4.0 * e_star * std::sqrt(h.radius)), 2.0 / 3.0);
  EXPECT_NEAR(ab.x(), h.a_factor * std::sqrt(delta), 1e-15);
  EXPECT_NEAR(ab.y(), h.b_factor * std::sqrt(delta), 1e-15);
  EXPECT_NEAR(exact.patch_radius(N, g), std::sqrt(ab.x() * ab.y()), 1e-15);
  // Rotation covariance.
  const Vec2 v(0.02, -0.01);
  const double w = 30.0;
  const PatchResult r = exact.evaluate({v, w, Vec2::Zero(), N}, g);
  const double c = std::cos(0.8), sn = std::sin(0.8);
  Mat2 rot;
  rot << c, -sn, sn, c;
  NormalGeometry turned = g;
  turned.major = rot * g.major;
  const PatchResult q = exact.evaluate({rot * v, w, Vec2::Zero(), N}, turned);
  EXPECT_NEAR((q.force - rot * r.force).norm(), 0.0, 1e-12 * r.force.norm());
  EXPECT_NEAR(q.moment, r.moment, 1e-12 * std::abs(r.moment));
  // Elongation matters: the exact model on the ellipse differs from its equal-area circle, which
  // the approximants take.
  NormalGeometry circle = g;
  circle.a_factor = circle.b_factor = 0.0;
  const double a = std::sqrt(ab.x() * ab.y());
  const ContensouFrictionLaw exact_circle(spec("exact", "hertz", {{"radius", a}}), 0.3, steel,
                                          steel, nullptr);
  const PatchResult rc = exact_circle.evaluate({v, w, Vec2::Zero(), N}, circle);
  EXPECT_GT(std::abs(r.moment - rc.moment), 1e-3 * std::abs(rc.moment));
  const PatchResult rp = pade.evaluate({v, w, Vec2::Zero(), N}, g);
  EXPECT_NEAR(rp.patch_radius, a, 1e-15);
  // Nearly circular: the ellipse's quadrature meets the circle's closed form.
  NormalGeometry round = g;
  round.radius = 0.02;
  round.a_factor = std::sqrt(0.02) * (1.0 + 1e-9);
  round.b_factor = std::sqrt(0.02) * (1.0 - 1e-9);
  ASSERT_TRUE(round.elliptic());
  NormalGeometry round_circle{0.02};
  const PatchResult e1 = exact.evaluate({v, w, Vec2::Zero(), N}, round);
  const PatchResult e2 = exact.evaluate({v, w, Vec2::Zero(), N}, round_circle);
  EXPECT_NEAR((e1.force - e2.force).norm(), 0.0, 1e-8 * e2.force.norm());
  EXPECT_NEAR(e1.moment, e2.moment, 1e-8 * std::abs(e2.moment));
  // Derivatives.
  Vec6 x;
  x << 0.02, -0.01, 30.0, 0.0, 0.0, N;
  Vec6 scale;
  scale << 0.02, 0.02, 30.0, 1.0, 1.0, N;
  expect_jacobian(exact, x, g, scale, 1e-4, "ellipse");
}

TEST(ContensouLaw, DissipatedPowerIsNonNegative) {
  const LawSpec rr{"rolling_resistance", {{"kappa", 1.0}}, {}, {}};
  for (const std::string& model : kModels) {
    const ContensouFrictionLaw plain = law(model, "hertz");
    const ContensouFrictionLaw dist = law(model, "uniform", {{"radius", 0.01}}, 0.3, &rr);
    for (double vx : {-0.05, 0.0, 1e-5, 0.02}) {
      for (double w : {-9.0, 0.0, 0.004, 3.0}) {
        const PatchInput in{Vec2(vx, 0.01), w, Vec2(-2.0, 0.5), 2.0};
        const PatchResult r = plain.evaluate(in, {});
        EXPECT_GE(r.friction_power, 0.0);
        EXPECT_GE(r.pivoting_power, 0.0);
        const PatchResult d = dist.evaluate(in, {});
        EXPECT_GE(d.friction_power + d.pivoting_power, 0.0) << model << vx << w;
        EXPECT_GE(d.rolling_power, 0.0);
      }
    }
  }
  // Zero normal force: nothing.
  const PatchResult none = law("exact", "hertz").evaluate({Vec2(1, 0), 1.0, Vec2::Zero(), 0.0}, {});
  EXPECT_EQ(none.force.norm(), 0.0);
  EXPECT_EQ(none.friction_power, 0.0);
}

// The nonsmooth counterparts: at large speed the compliant exact law gives the maximal-dissipation
// point of the exact limit set, and the ellipsoid model that of the ellipsoid (same μN, a).
TEST(ContensouLaw, SetValuedCounterpartsMatchTheCompliantLaw) {
  const double a = 0.01, mu = 0.3, N = 7.0;
  const Vec2 v(0.03, -0.02);
  const double omega = 4.0;
  for (const char* p : {"hertz", "uniform"}) {
    const ContensouFrictionLaw ex = law("exact", p, {{"radius", a}}, mu);
    const ContensouLimitSet set = ex.limit_set(N, {});
    EXPECT_EQ(set.patch_radius, a);
    EXPECT_EQ(set.radius, mu * N);
    const ForceMoment fm = set.max_dissipation(v, omega);
    const PatchResult r = ex.evaluate({v, omega, Vec2::Zero(), N}, {});
    EXPECT_NEAR((fm.force - r.force).norm(), 0.0, 1e-12 * mu * N) << p;
    EXPECT_NEAR(fm.moment, r.moment, 1e-12 * mu * N * a) << p;
    const ContensouFrictionLaw el = law("ellipsoid", p, {{"radius", a}}, mu);
    const ContensouEllipsoid e = el.ellipsoid(N, {});
    const PatchResult re = el.evaluate({v, omega, Vec2::Zero(), N}, {});
    EXPECT_TRUE(e.contains({re.force, re.moment}, 1e-9));
    const double on = re.force.squaredNorm() + std::pow(re.moment / e.moment_length, 2);
    EXPECT_NEAR(on, (mu * N) * (mu * N), 1e-12 * (mu * N) * (mu * N)) << p;
  }
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const LawError& e) {
    return e.what();
  }
  return "";
}

TEST(ContensouLaw, ValidationMessagesSayWhatIsValid) {
  EXPECT_EQ(message_of([] { (void)law("pade33", "hertz"); }),
            "contensou.model: must be one of ellipsoid|exact|pade11|pade22|generalized|quadrature, "
            "got 'pade33'");
  EXPECT_EQ(message_of([] { (void)law("exact", "parabolic"); }),
            "contensou.pressure: must be one of hertz|uniform, got 'parabolic'");
  EXPECT_EQ(message_of([] {
              (void)law("pade11", "hertz", {{"radius", 0.01}, {"c1", 0.1}});
            }),
            "contensou.c1: not a parameter of model 'pade11' (its constants: b, m0, c)");
  EXPECT_EQ(message_of([] {
              (void)law("exact", "hertz", {{"radius", 0.01}, {"n", 3}});
            }),
            "contensou.n: not a parameter of model 'exact' (it has no constants)");
  EXPECT_EQ(message_of([] {
              (void)law("generalized", "hertz", {{"radius", 0.01}, {"k", 0.5}});
            }),
            "contensou.k: must be ≥ 1, got 0.5");
  EXPECT_EQ(message_of([] {
              (void)law("quadrature", "hertz", {{"radius", 0.01}, {"n_chord", 7.5}});
            }),
            "contensou.n_chord: must be an integer in [2, 1000], got 7.5");
  EXPECT_EQ(message_of([] {
              (void)law("exact", "hertz", {{"radius", 0.0}});
            }),
            "contensou.radius: must be > 0, got 0");
  EXPECT_EQ(message_of([] {
              (void)law("exact", "hertz", {{"radius", 0.01}, {"spin", 1}});
            }),
            "contensou.spin: not a parameter of law 'contensou' (its keys: radius, regularization, "
            "b, c, m0, c1, c3, d, e, n, k, n_angle, n_chord, model, pressure)");
  EXPECT_EQ(message_of([] { (void)law("exact", "hertz", {}); }),
            "contensou.radius: required unless both materials give young_modulus and "
            "poisson_ratio (the Hertz patch radius a = (3 N R*/(4 E*))^(1/3) needs E*)");
  EXPECT_NE(message_of([] {
              (void)law("exact", "hertz", {{"radius", 0.01}}, kInf);
            }).find("contensou: needs the contact's friction coefficient"),
            std::string::npos);
  const LawSpec rr{"rolling_resistance", {{"kappa", 1.5}}, {}, {}};
  EXPECT_EQ(message_of([&] {
              (void)law("exact", "hertz", {{"radius", 0.01}}, 0.3, &rr);
            }),
            "rolling_resistance.kappa: must be in [0, 1], got 1.5");
  const LawSpec rr2{"rolling_resistance", {{"regularization", 1.0}}, {}, {}};
  EXPECT_NE(message_of([&] {
              (void)law("exact", "hertz", {{"radius", 0.01}}, 0.3, &rr2);
            }).find("rolling_resistance.kappa: required"),
            std::string::npos);
  // The factory and the named constants.
  const auto f = make_contensou_law(spec("pade11", "uniform", {{"radius", 0.01}, {"b", 2.0}}), 0.5);
  EXPECT_EQ(f->name(), "pade11");
  EXPECT_EQ(f->friction_coefficient(), 0.5);
  // F = ε/(ε + b) with b = 2: at ε = 2, F = 1/2.
  const PatchResult r = f->evaluate({Vec2(0.02, 0), 1.0, Vec2::Zero(), 1.0}, {});
  EXPECT_NEAR(r.force.x(), -0.5 * 0.5, 1e-15);
}

}  // namespace
}  // namespace coulomb
