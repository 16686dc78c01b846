/// Tests of the free rigid-body step: θ-method for Euler's equations and the Cayley orientation
/// update, against the closed-form torque-free asymmetric top (Jacobi elliptic functions, Landau &
/// Lifshitz §37), the symmetric top, the discrete invariants and finite differences.

#include <coulomb/dynamics/rigid_body.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace coulomb {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Measured numbers go into the test report (--gtest_output=xml) in scientific notation.
std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", x);
  return buf;
}

// ---------------------------------------------------------------------------------------------
// Reference: complete elliptic integral K(k) and Jacobi sn, cn, dn by the arithmetic-geometric
// mean (Abramowitz & Stegun 17.6 and 16.4). m = k² is the parameter; m1 = 1 − m is passed
// separately so that m close to 1 keeps its accuracy.
// ---------------------------------------------------------------------------------------------

double complete_k(double m1) {
  double a = 1.0, b = std::sqrt(m1);
  for (int i = 0; i < 40 && std::abs(a - b) > 4 * kEps * a; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return kPi / (a + b);  // π / (2 AGM)
}

struct Jacobi {
  double sn, cn, dn;
};

Jacobi jacobi(double u, double m) {
  // Descending AGM: a_n, c_n, then φ_N = 2^N a_N u and back-substitution.
  double a[32], c[32];
  a[0] = 1.0;
  double b = std::sqrt(1.0 - m);
  c[0] = std::sqrt(m);
  int n = 0;
  while (std::abs(c[n]) > kEps && n < 30) {
    a[n + 1] = 0.5 * (a[n] + b);
    c[n + 1] = 0.5 * (a[n] - b);
    b = std::sqrt(a[n] * b);
    ++n;
  }
  double phi = std::ldexp(a[n] * u, n);
  double phi_prev = phi;
  for (int i = n; i > 0; --i) {
    phi_prev = phi;
    phi = 0.5 * (phi + std::asin(c[i] / a[i] * std::sin(phi)));
  }
  // phi = φ0, phi_prev = φ1: dn = cos φ0 / cos(φ1 − φ0).
  const double dn = n > 0 ? std::cos(phi) / std::cos(phi_prev - phi) : 1.0;
  return {std::sin(phi), std::cos(phi), dn};
}

// Torque-free asymmetric top, principal moments I1 < I2 < I3, with Ω(0) = (A1, 0, A3), A1, A3 > 0
// and L² > 2 E I2 (rotation about the major axis 3). Landau & Lifshitz eq. (37.10):
//   Ω1 = A1 cn τ, Ω2 = A2 sn τ, Ω3 = A3 dn τ,  τ = ω_p t,
//   A1² = (2E I3 − L²)/(I1 (I3 − I1)), A2² = (2E I3 − L²)/(I2 (I3 − I2)),
//   A3² = (L² − 2E I1)/(I3 (I3 − I1)), ω_p² = (I3 − I2)(L² − 2E I1)/(I1 I2 I3),
//   m = k² = (I2 − I1)(2E I3 − L²)/((I3 − I2)(L² − 2E I1)).
// With Ω(0) = (A1, 0, A3) the signs follow from Euler's equations: I2 Ω̇2 = (I3 − I1) Ω3 Ω1 > 0.
struct EllipticTop {
  Vec3 I;
  double A1, A2, A3, wp, m;
  EllipticTop(const Vec3& inertia, double a1, double a3) : I(inertia), A1(a1), A3(a3) {
    const double I1 = I.x(), I2 = I.y(), I3 = I.z();
    const double E2 = I1 * a1 * a1 + I3 * a3 * a3;            // 2E
    const double L2 = I1 * I1 * a1 * a1 + I3 * I3 * a3 * a3;  // L²
    A2 = std::sqrt((E2 * I3 - L2) / (I2 * (I3 - I2)));
    wp = std::sqrt((I3 - I2) * (L2 - E2 * I1) / (I1 * I2 * I3));
    m = (I2 - I1) * (E2 * I3 - L2) / ((I3 - I2) * (L2 - E2 * I1));
  }
  Vec3 omega(double t) const {
    const Jacobi j = jacobi(wp * t, m);
    return {A1 * j.cn, A2 * j.sn, A3 * j.dn};
  }
};

// Period of the middle-axis component of a torque-free asymmetric top, T = 4 K(k) / ω_p, in both
// cases L² > 2E I2 and L² < 2E I2 (the second is the first with axes 1 and 3 exchanged).
double middle_axis_period(const Vec3& I, const Vec3& w) {
  const double I1 = I.x(), I2 = I.y(), I3 = I.z();
  const double E2 = I.dot(w.cwiseProduct(w));
  const double L2 = I.cwiseProduct(I).dot(w.cwiseProduct(w));
  double num, den, wp2;
  if (L2 > E2 * I2) {
    num = (I2 - I1) * (E2 * I3 - L2);
    den = (I3 - I2) * (L2 - E2 * I1);
    wp2 = (I3 - I2) * (L2 - E2 * I1) / (I1 * I2 * I3);
  } else {
    num = (I3 - I2) * (L2 - E2 * I1);
    den = (I2 - I1) * (E2 * I3 - L2);
    wp2 = (I2 - I1) * (E2 * I3 - L2) / (I1 * I2 * I3);
  }
  return 4.0 * complete_k((den - num) / den) / std::sqrt(wp2);
}

// Deterministic uniform numbers in [lo, hi) from a fixed-seed 64-bit Mersenne twister (the bit
// manipulation is written out so that the sequence does not depend on the standard library).
struct Rng {
  std::mt19937_64 g{20240611u};
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(g() >> 11) * 0x1.0p-53;
  }
  Vec3 vec(double lo, double hi) { return {uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)}; }
};

// One midpoint step of the whole free rotation (angular velocity and orientation).
void midpoint_step(const Mat3& I, const Mat3& Iinv, Vec3& omega, Quat& q, double h) {
  const Vec3 omega1 = free_angular_velocity_B(I, Iinv, omega, Vec3::Zero(), h, 0.5);
  q = integrate_orientation(q, 0.5 * (omega + omega1), h);
  omega = omega1;
}

// ---------------------------------------------------------------------------------------------

TEST(EllipticReference, SelfConsistent) {
  // K(0) = π/2; K(1/2) = 1.854074677301372 (A&S table 17.1, m = 0.5); std::comp_ellint_1 agrees.
  EXPECT_NEAR(complete_k(1.0), kPi / 2, 1e-15);
  EXPECT_NEAR(complete_k(0.5), 1.854074677301372, 1e-14);
  EXPECT_NEAR(complete_k(1.0 - 0.99), std::comp_ellint_1(std::sqrt(0.99)), 1e-13);
  // sn² + cn² = 1, dn² + m sn² = 1, sn(K) = 1.
  const double m = 0.7;
  for (double u : {0.1, 0.9, 2.3}) {
    const Jacobi j = jacobi(u, m);
    EXPECT_NEAR(j.sn * j.sn + j.cn * j.cn, 1.0, 1e-15);
    EXPECT_NEAR(j.dn * j.dn + m * j.sn * j.sn, 1.0, 1e-15);
  }
  EXPECT_NEAR(jacobi(complete_k(1.0 - m), m).sn, 1.0, 1e-15);
}

// The Dzhanibekov effect: spin near the middle axis of (1, 2, 2.8) flips periodically.
TEST(FreeRotation, DzhanibekovFlipPeriodAndInvariants) {
  const Vec3 Ip(1.0, 2.0, 2.8);
  const Mat3 I = Ip.asDiagonal();
  const Mat3 Iinv = Ip.cwiseInverse().asDiagonal();
  const Vec3 omega0(0.1, 10.0, 0.1);  // [rad/s]; near the separatrix, k² ≈ 0.99986
  const double h = 1e-3;
  const int steps = 10000;  // 10 s

  Vec3 omega = omega0;
  Quat q = Quat::Identity();
  const double T0 = rotational_kinetic_energy(I, omega);
  const Vec3 L0 = angular_momentum_W(q, I, omega);
  double max_dT = 0.0, max_dL = 0.0;
  std::vector<double> crossings;  // times where Ω2 changes sign [s]
  for (int i = 0; i < steps; ++i) {
    const double w2 = omega.y();
    midpoint_step(I, Iinv, omega, q, h);
    if ((w2 > 0) != (omega.y() > 0)) {
      // Linear interpolation of the zero crossing inside the step.
      crossings.push_back(h * (i + w2 / (w2 - omega.y())));
    }
    max_dT = std::max(max_dT, std::abs(rotational_kinetic_energy(I, omega) - T0) / T0);
    max_dL = std::max(max_dL, (angular_momentum_W(q, I, omega) - L0).norm() / L0.norm());
  }

  // Several flips in 10 s; the spacing of consecutive crossings is half a period T = 4K(k)/ω_p.
  const double T = middle_axis_period(Ip, omega0);
  ASSERT_GE(crossings.size(), 4u);
  EXPECT_NEAR(T, 4.3587148503665745, 1e-9);  // same formula evaluated with scipy.special.ellipk
  const double T_num =
      2.0 * (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  // The midpoint rule keeps the motion on the exact polhode; only its phase carries an O(h²)
  // error, bounded by (h ω)²/12 ≈ 8e-6 relative at ω = 10 rad/s (the local phase error of the
  // midpoint rule on a rotation at rate ω); the crossing interpolation adds less (Ω2 is nearly
  // linear through its zeros, where sn has an inflection point).
  const double tol = std::pow(h * omega0.norm(), 2) / 12.0;
  EXPECT_NEAR(T_num / T, 1.0, tol) << "T_num = " << T_num << ", T = " << T;
  for (std::size_t i = 1; i < crossings.size(); ++i) {
    EXPECT_NEAR(crossings[i] - crossings[i - 1], 0.5 * T, tol * T);
  }
  // Quadratic invariants: exact up to round-off accumulating over 10⁴ steps (expected ~1e-13).
  EXPECT_LT(max_dT, 1e-12);
  EXPECT_LT(max_dL, 1e-12);
  RecordProperty("flips", sci(static_cast<double>(crossings.size())));
  RecordProperty("period_rel_error", sci(T_num / T - 1.0));
  RecordProperty("energy_rel_drift", sci(max_dT));
  RecordProperty("momentum_rel_drift", sci(max_dL));
}

// Measured period of the middle-axis component over 10 s at step h (crossing spacing × 2).
double dzhanibekov_period(double h) {
  const Vec3 Ip(1.0, 2.0, 2.8);
  const Mat3 I = Ip.asDiagonal();
  Vec3 omega(0.1, 10.0, 0.1);
  Quat q = Quat::Identity();
  std::vector<double> crossings;
  const int steps = static_cast<int>(std::lround(10.0 / h));
  for (int i = 0; i < steps; ++i) {
    const double w2 = omega.y();
    midpoint_step(I, I.inverse(), omega, q, h);
    if ((w2 > 0) != (omega.y() > 0)) crossings.push_back(h * (i + w2 / (w2 - omega.y())));
  }
  return 2.0 * (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

// The period error itself is O(h²): it falls by 4 when h halves.
TEST(FreeRotation, DzhanibekovPeriodErrorIsSecondOrder) {
  const double T = middle_axis_period(Vec3(1.0, 2.0, 2.8), Vec3(0.1, 10.0, 0.1));
  const double e1 = dzhanibekov_period(4e-3) - T, e2 = dzhanibekov_period(2e-3) - T,
               e3 = dzhanibekov_period(1e-3) - T;
  // Ratio 4 up to the O(h⁴) term and the crossing interpolation (both < 5% here).
  EXPECT_NEAR(e1 / e2, 4.0, 0.2);
  EXPECT_NEAR(e2 / e3, 4.0, 0.2);
  RecordProperty("period_errors", sci(e1) + " " + sci(e2) + " " + sci(e3));
}

// A non-diagonal inertia (the principal one rotated by a fixed rotation) gives the same motion.
TEST(FreeRotation, RotatedInertiaGivesSameMotion) {
  const Vec3 Ip(1.0, 2.0, 2.8);
  const Mat3 I_P = Ip.asDiagonal();
  const Mat3 R_BP = Eigen::AngleAxisd(0.7, Vec3(1.0, 2.0, 3.0).normalized()).toRotationMatrix();
  const Mat3 I_B = R_BP * I_P * R_BP.transpose();
  ASSERT_GT((I_B - Mat3(I_B.diagonal().asDiagonal())).norm(), 0.3);  // really non-diagonal

  // Same physical state: Ω_B = R_BP Ω_P, R_WB = R_WP R_BPᵀ.
  Vec3 omega_P(0.1, 10.0, 0.1), omega_B = R_BP * omega_P;
  Quat q_WP(Eigen::AngleAxisd(0.3, Vec3(0.0, 1.0, 1.0).normalized()));
  Quat q_WB = q_WP * Quat(R_BP.transpose());
  const double h = 1e-3;
  double max_dw = 0.0, max_dR = 0.0;
  for (int i = 0; i < 10000; ++i) {
    midpoint_step(I_P, I_P.inverse(), omega_P, q_WP, h);
    midpoint_step(I_B, I_B.inverse(), omega_B, q_WB, h);
    max_dw = std::max(max_dw, (q_WB * omega_B - q_WP * omega_P).norm() / omega_P.norm());
    max_dR = std::max(max_dR, (q_WB.toRotationMatrix() * R_BP - q_WP.toRotationMatrix()).norm());
  }
  // Both runs are the same discrete map in different coordinates; they differ by round-off only,
  // amplified by the passages near the unstable middle axis (growth rate ≈ 5.3 /s over ~0.7 s
  // each, i.e. up to ~1e3 in relative perturbation): 1e-10 allows that and fails for any real
  // frame error (which would show at 1e-3 or more).
  EXPECT_LT(max_dw, 1e-10);
  EXPECT_LT(max_dR, 1e-10);
  RecordProperty("max_world_omega_diff", sci(max_dw));
}

// Symmetric top spinning fast about its axis with a small tilt: the free step stays bounded,
// conserves energy, and reproduces the closed-form discrete precession exactly.
TEST(FreeRotation, FastSymmetricTopIsStableAndPrecessesAsPredicted) {
  const double I1 = 2e-3, I3 = 4e-3;  // [kg m²]
  const Mat3 I = Vec3(I1, I1, I3).asDiagonal();
  const Mat3 Iinv = I.inverse();
  const double spin = 200.0, tilt = 0.05;  // [rad/s], [rad]
  Vec3 omega(spin * std::sin(tilt), 0.0, spin * std::cos(tilt));
  const Vec3 omega0 = omega;
  Quat q = Quat::Identity();
  const double h = 1e-3;
  const int steps = 10000;
  const double T0 = rotational_kinetic_energy(I, omega);
  const Vec3 L0 = angular_momentum_W(q, I, omega);
  double max_dT = 0.0, max_dL = 0.0, max_norm = 0.0;
  for (int i = 0; i < steps; ++i) {
    midpoint_step(I, Iinv, omega, q, h);
    max_dT = std::max(max_dT, std::abs(rotational_kinetic_energy(I, omega) - T0) / T0);
    max_dL = std::max(max_dL, (angular_momentum_W(q, I, omega) - L0).norm() / L0.norm());
    max_norm = std::max(max_norm, omega.norm());
  }
  EXPECT_LE(max_norm, omega0.norm() * (1 + 1e-12));
  EXPECT_LT(max_dT, 1e-12);  // round-off over 10⁴ steps
  EXPECT_LT(max_dL, 1e-12);

  // Ω3 is constant and (Ω1, Ω2) turns at λ = (I3 − I1) Ω3 / I1 (Euler). The midpoint rule applied
  // to this linear rotation is the Cayley map: a turn of 2 atan(h λ / 2) per step, exactly.
  const double lambda = (I3 - I1) * omega0.z() / I1;
  const double angle = steps * 2.0 * std::atan(0.5 * h * lambda);
  const Vec3 expected(omega0.x() * std::cos(angle), omega0.x() * std::sin(angle), omega0.z());
  EXPECT_LT((omega - expected).norm() / omega0.norm(), 1e-11);  // round-off over 10⁴ steps
  // ... which differs from the exact turn λ t by the O(h²) phase error (hλ)²/12 per unit angle.
  EXPECT_NEAR(angle / (lambda * steps * h) - 1.0, -std::pow(h * lambda, 2) / 12.0,
              std::pow(h * lambda, 4) / 60.0);
}

// Order of accuracy: the error at t = 1 against the elliptic closed form falls as h².
TEST(FreeRotation, SecondOrderAgainstEllipticSolution) {
  const Vec3 Ip(1.0, 2.0, 2.8);
  const Mat3 I = Ip.asDiagonal();
  const EllipticTop top(Ip, 1.5, 2.0);  // k² ≈ 0.39, moderate
  ASSERT_GT(top.m, 0.1);
  ASSERT_LT(top.m, 0.9);
  const Vec3 exact = top.omega(1.0);
  // Closed form check of the reference: satisfies Euler's equations (central difference, 1e-8).
  {
    const double d = 1e-5;
    const Vec3 w = top.omega(0.4);
    const Vec3 wdot = (top.omega(0.4 + d) - top.omega(0.4 - d)) / (2 * d);
    const Vec3 rhs = Ip.cwiseInverse().cwiseProduct((I * w).cross(w));
    EXPECT_LT((wdot - rhs).norm(), 1e-8 * rhs.norm());
  }
  std::vector<double> err;
  for (int n : {25, 50, 100, 200, 400}) {
    const double h = 1.0 / n;
    Vec3 omega(top.A1, 0.0, top.A3);
    Quat q = Quat::Identity();
    for (int i = 0; i < n; ++i) midpoint_step(I, I.inverse(), omega, q, h);
    err.push_back((omega - exact).norm());
  }
  for (std::size_t i = 1; i < err.size(); ++i) {
    // Asymptotic ratio 4; the O(h⁴) term shifts it by < 2% at h = 1/25.
    EXPECT_NEAR(err[i - 1] / err[i], 4.0, 0.08) << "h = 1/" << (25 << (i - 1));
    RecordProperty("ratio_" + std::to_string(i), sci(err[i - 1] / err[i]));
  }
  RecordProperty("error_h_1_25", sci(err[0]));
}

// Orientation: second order as well, against a run with a 64 times smaller step.
TEST(FreeRotation, OrientationSecondOrder) {
  const Vec3 Ip(1.0, 2.0, 2.8);
  const Mat3 I = Ip.asDiagonal();
  auto run = [&](int n) {
    Vec3 omega(1.5, 0.3, 2.0);
    Quat q = Quat::Identity();
    for (int i = 0; i < n; ++i) midpoint_step(I, I.inverse(), omega, q, 1.0 / n);
    return q.toRotationMatrix();
  };
  const Mat3 R_ref = run(100 * 64);
  const double e1 = (run(100) - R_ref).norm(), e2 = (run(200) - R_ref).norm(),
               e3 = (run(400) - R_ref).norm();
  // The reference error is 1/4096 of e(h = 1/100) (shifts the ratio by < 0.5%).
  EXPECT_NEAR(e1 / e2, 4.0, 0.1);
  EXPECT_NEAR(e2 / e3, 4.0, 0.1);
  RecordProperty("ratios", sci(e1 / e2) + " " + sci(e2 / e3));
}

// Newton: residual at round-off level, few iterations, and the Jacobian matches finite differences.
TEST(FreeRotation, NewtonResidualAndJacobian) {
  Rng rng;
  int max_iterations = 0;
  for (int trial = 0; trial < 50; ++trial) {
    // Random SPD inertia (A Aᵀ + c I) and state.
    Mat3 A;
    A << rng.vec(-1, 1), rng.vec(-1, 1), rng.vec(-1, 1);
    const Mat3 I = A * A.transpose() + 0.5 * Mat3::Identity();
    const Vec3 omega0 = rng.vec(-5, 5), tau = rng.vec(-1, 1);
    const double h = rng.uniform(1e-4, 2e-2), theta = rng.uniform(0.0, 1.0);

    const FreeRotationStep s = solve_free_rotation(I, I.inverse(), omega0, tau, h, theta);
    EXPECT_TRUE(s.converged);
    EXPECT_LE(s.iterations, 6);
    max_iterations = std::max(max_iterations, s.iterations);
    // Residual relative to the size of its terms I Ω: a few ulps.
    const double scale = I.norm() * (omega0.norm() + s.omega1_B.norm());
    EXPECT_LT(s.residual, 8 * kEps * scale) << "trial " << trial;

    // The residual is quadratic in Ω1, so central differences are exact up to round-off.
    const Vec3 w = s.omega1_B + rng.vec(-1, 1);
    const Mat3 J = theta_rotation_jacobian(I, omega0, w, h, theta);
    const double d = 1e-4;
    Mat3 J_fd;
    for (int k = 0; k < 3; ++k) {
      const Vec3 e = d * Vec3::Unit(k);
      J_fd.col(k) = (theta_rotation_residual(I, omega0, w + e, tau, h, theta) -
                     theta_rotation_residual(I, omega0, w - e, tau, h, theta)) /
                    (2 * d);
    }
    EXPECT_LT((J - J_fd).norm(), 1e-9 * J.norm()) << "trial " << trial;
  }
  RecordProperty("max_iterations", max_iterations);
}

// θ = 0 is explicit Euler: the predictor is the answer, one iteration confirms it.
TEST(FreeRotation, ThetaZeroIsExplicitEuler) {
  const Mat3 I = Vec3(1.0, 2.0, 3.0).asDiagonal();
  const Vec3 w0(0.3, -1.0, 2.0), tau(0.1, 0.2, -0.3);
  const double h = 0.01;
  const FreeRotationStep s = solve_free_rotation(I, I.inverse(), w0, tau, h, 0.0);
  const Vec3 expected = w0 + h * I.inverse() * ((I * w0).cross(w0) + tau);
  EXPECT_LT((s.omega1_B - expected).norm(), 4 * kEps * expected.norm());
  EXPECT_EQ(s.iterations, 1);
}

// Torque: for a spherical body Ω1 = Ω0 + h τ / I for every θ; for any body the midpoint rule gives
// the discrete power balance T1 − T0 = h τ·Ω_m exactly.
TEST(FreeRotation, TorqueTerm) {
  const Mat3 Is = 2.5 * Mat3::Identity();
  const Vec3 w0(1.0, -2.0, 0.5), tau(0.3, 0.1, -0.2);
  for (double theta : {0.0, 0.5, 1.0}) {
    const Vec3 w1 = free_angular_velocity_B(Is, Is.inverse(), w0, tau, 0.01, theta);
    EXPECT_LT((w1 - (w0 + 0.01 * tau / 2.5)).norm(), 1e-15);
  }
  const Mat3 I = Vec3(1.0, 2.0, 2.8).asDiagonal();
  const Vec3 w1 = free_angular_velocity_B(I, I.inverse(), w0, tau, 0.01, 0.5);
  const double dT = rotational_kinetic_energy(I, w1) - rotational_kinetic_energy(I, w0);
  EXPECT_NEAR(dT, 0.01 * tau.dot(0.5 * (w0 + w1)), 1e-15);
}

// Cayley update: unit norm, world momentum conserved exactly per midpoint step, angle law.
TEST(Orientation, CayleyStepConservesWorldMomentum) {
  Rng rng;
  for (int trial = 0; trial < 50; ++trial) {
    Mat3 A;
    A << rng.vec(-1, 1), rng.vec(-1, 1), rng.vec(-1, 1);
    const Mat3 I = A * A.transpose() + 0.5 * Mat3::Identity();
    const Vec3 w0 = rng.vec(-5, 5);
    const double h = rng.uniform(1e-3, 5e-2);
    const Quat q0 =
        Quat(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
            .normalized();
    const Vec3 w1 = free_angular_velocity_B(I, I.inverse(), w0, Vec3::Zero(), h, 0.5);
    const Quat q1 = integrate_orientation(q0, 0.5 * (w0 + w1), h);
    EXPECT_NEAR(q1.norm(), 1.0, 2 * kEps);
    const Vec3 L0 = angular_momentum_W(q0, I, w0), L1 = angular_momentum_W(q1, I, w1);
    EXPECT_LT((L1 - L0).norm(), 16 * kEps * L0.norm()) << "trial " << trial;
  }
  // cay(w) is the rotation of angle 2 atan(|w|/2) about w, and its matrix the Cayley transform.
  const Vec3 w(0.3, -0.8, 1.1);
  const Quat c = cayley_quaternion(w);
  const Eigen::AngleAxisd aa(c);
  EXPECT_NEAR(aa.angle(), 2 * std::atan(0.5 * w.norm()), 1e-15);
  EXPECT_LT((aa.axis() - w.normalized()).norm(), 1e-15);
  const Mat3 C = (Mat3::Identity() - 0.5 * skew(w)).inverse() * (Mat3::Identity() + 0.5 * skew(w));
  EXPECT_LT((C - c.toRotationMatrix()).norm(), 1e-15);
}

// No turn (h ω exactly zero, a body at rest): integrate_orientation skips the product with the
// unit quaternion cay(0) = (1, 0, 0, 0), and its answer has the bits of that product followed by
// the same renormalisation, for unit quaternions and for ones off unit norm by round-off or more
// (the sign of a zero component aside: none here, every component is drawn nonzero).
TEST(Orientation, NoTurnKeepsTheOrientationWithTheBitsOfTheProduct) {
  Rng rng;
  for (int trial = 0; trial < 200; ++trial) {
    Quat q0(rng.uniform(0.1, 1), rng.uniform(0.1, 1), rng.uniform(-1, -0.1), rng.uniform(0.1, 1));
    if (trial % 2 == 0) q0.normalize();                           // unit to round-off
    if (trial % 3 == 0) q0.coeffs() *= 1.0 + 1e-9 * (trial + 1);  // off unit norm
    Quat expected = q0 * cayley_quaternion(Vec3::Zero());
    if (expected.coeffs().squaredNorm() != 1.0) expected.normalize();
    for (const Vec3& w : {Vec3(0.0, 0.0, 0.0), Vec3(3.0, -1.0, 2.0)}) {
      const double h = w.isZero(0.0) ? 1e-3 : 0.0;  // h ω = 0 either way
      const Quat q1 = integrate_orientation(q0, w, h);
      EXPECT_EQ(q1.coeffs(), expected.coeffs()) << "trial " << trial;
    }
  }
  // A small nonzero turn takes the product (and turns).
  const Quat q0 = Quat(0.5, 0.5, -0.5, 0.5);
  const Vec3 w(1e-6, 0.0, 0.0);
  Quat turned = q0 * cayley_quaternion(w);
  if (turned.coeffs().squaredNorm() != 1.0) turned.normalize();
  EXPECT_EQ(integrate_orientation(q0, w, 1.0).coeffs(), turned.coeffs());
  EXPECT_NE(turned.coeffs(), q0.coeffs());
}

// rotate_free: the engine's drift. θ = 1/2 keeps the world angular momentum and the energy; two
// half steps compose to a full one up to O(h³) (the splitting is symmetric); an isotropic body
// keeps Ω bit for bit and turns about it.
TEST(Orientation, RotateFreeIsTheConservingDrift) {
  Rng rng;
  for (int trial = 0; trial < 50; ++trial) {
    Mat3 A;
    A << rng.vec(-1, 1), rng.vec(-1, 1), rng.vec(-1, 1);
    const Mat3 I = A * A.transpose() + 0.5 * Mat3::Identity();
    const Vec3 w0 = rng.vec(-5, 5);
    const double h = rng.uniform(1e-3, 5e-2);
    const Quat q0 =
        Quat(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
            .normalized();
    const FreeRotation r = rotate_free(q0, I, I.inverse(), w0, h, 0.5);
    EXPECT_TRUE(r.converged);
    const Vec3 L0 = angular_momentum_W(q0, I, w0), L1 = angular_momentum_W(r.q_WB, I, r.omega_B);
    EXPECT_LT((L1 - L0).norm(), 16 * kEps * L0.norm()) << "trial " << trial;
    EXPECT_NEAR(rotational_kinetic_energy(I, r.omega_B), rotational_kinetic_energy(I, w0),
                16 * kEps * rotational_kinetic_energy(I, w0));
  }
  // Two half steps against one step: the difference is O(h³) (both are second order; the
  // half steps are the more accurate), so it drops by 8 when h halves.
  const Mat3 I = Vec3(1.0, 2.0, 2.8).asDiagonal();
  const Vec3 w0(0.1, 10.0, 0.1);
  double diff[2];
  for (int i = 0; i < 2; ++i) {
    const double h = i == 0 ? 1e-2 : 5e-3;
    const FreeRotation full = rotate_free(Quat::Identity(), I, I.inverse(), w0, h, 0.5);
    const FreeRotation half1 = rotate_free(Quat::Identity(), I, I.inverse(), w0, 0.5 * h, 0.5);
    const FreeRotation half2 = rotate_free(half1.q_WB, I, I.inverse(), half1.omega_B, 0.5 * h, 0.5);
    diff[i] = full.q_WB.angularDistance(half2.q_WB);
  }
  EXPECT_NEAR(diff[0] / diff[1], 8.0, 1.0) << diff[0] << " " << diff[1];
  // Isotropic: Ω unchanged exactly, q turned by the Cayley rotation of h Ω.
  const Mat3 Is = 0.3 * Mat3::Identity();
  const Vec3 ws(2.0, -1.0, 7.0);
  const Quat q0(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
  const FreeRotation s = rotate_free(q0, Is, Is.inverse(), ws, 0.01, 0.5);
  EXPECT_EQ(s.omega_B, ws);
  EXPECT_LT(s.q_WB.angularDistance(q0 * cayley_quaternion(0.01 * ws)), 1e-15);
}

TEST(Helpers, WorldInertiaAndMomentum) {
  const Mat3 I = Vec3(1.0, 2.0, 3.0).asDiagonal();
  const Quat q(Eigen::AngleAxisd(0.9, Vec3(1, -1, 2).normalized()));
  const Vec3 w_B(0.4, 0.5, -0.6);
  const Vec3 w_W = q * w_B;
  EXPECT_LT((world_inertia(q, I) * w_W - angular_momentum_W(q, I, w_B)).norm(), 1e-15);
  // T = ½ ω_Wᵀ I_W ω_W = ½ Ω_Bᵀ I_B Ω_B = ½(0.16 + 0.5 + 1.08).
  EXPECT_NEAR(rotational_kinetic_energy(I, w_B), 0.87, 1e-15);
  EXPECT_NEAR(0.5 * w_W.dot(world_inertia(q, I) * w_W), 0.87, 1e-15);
}

}  // namespace
}  // namespace coulomb
