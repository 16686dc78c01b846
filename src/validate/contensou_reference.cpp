// An independent reference for the Kudra et al. cases (contensou_reference.hpp): the integral
// model by our own quadrature, an ellipsoid on a plane by our own Runge–Kutta.
#include "validate/contensou_reference.hpp"

#include <coulomb/laws/hertz.hpp>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace coulomb::validate::reference {

namespace {

constexpr double kPi = std::numbers::pi;

// Gauss–Legendre nodes and weights on [−1, 1] (Newton on P_n from the Chebyshev guesses).
struct GaussLegendre {
  std::vector<double> x, w;
  explicit GaussLegendre(int n) : x(static_cast<std::size_t>(n)), w(static_cast<std::size_t>(n)) {
    for (int i = 0; i < n; ++i) {
      double z = std::cos(kPi * (i + 0.75) / (n + 0.5));
      double dp = 0.0;
      for (int it = 0; it < 100; ++it) {
        double p0 = 1.0, p1 = z;
        for (int k = 2; k <= n; ++k) {
          const double p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        dp = n * (z * p1 - p0) / (z * z - 1.0);
        const double dz = p1 / dp;
        z -= dz;
        if (std::abs(dz) < 1e-16) break;
      }
      x[static_cast<std::size_t>(i)] = z;
      w[static_cast<std::size_t>(i)] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
  }
};

const GaussLegendre& gauss(int n) {
  static const GaussLegendre g64(64), g512(512);
  return n <= 64 ? g64 : g512;
}

// Antiderivatives of cos²θ, sin θ cos²θ, sin²θ cos²θ.
double c0(double t) { return 0.5 * t + 0.25 * std::sin(2.0 * t); }
double c1(double t) { return -std::pow(std::cos(t), 3) / 3.0; }
double c2(double t) { return t / 8.0 - std::sin(4.0 * t) / 32.0; }

// The radial integrals along the ray from P in direction e: ∫ σ ρ dρ and ∫ σ ρ² dρ over the part
// of the chord with ρ ≥ 0 (σ = k √((ρ₊ − ρ)(ρ − ρ₋)), ρ = m + h sin θ).
void radial(double px, double py, double ex, double ey, double a, double k, double& i0,
            double& i1) {
  i0 = i1 = 0.0;
  const double s = px * ey - py * ex;  // P × e
  const double h2 = a * a - s * s;
  if (!(h2 > 0.0)) return;
  const double h = std::sqrt(h2);
  const double m = -(px * ex + py * ey);
  if (m + h <= 0.0) return;
  const double lo = m - h < 0.0 ? std::asin(std::clamp(-m / h, -1.0, 1.0)) : -0.5 * kPi;
  const double hi = 0.5 * kPi;
  const double C0 = c0(hi) - c0(lo), C1 = c1(hi) - c1(lo), C2 = c2(hi) - c2(lo);
  i0 = k * h2 * (m * C0 + h * C1);
  i1 = k * h2 * (m * m * C0 + 2.0 * m * h * C1 + h2 * C2);
}

}  // namespace

PatchResultants hertz_patch(const std::array<double, 2>& v, double omega, double a) {
  return hertz_patch(v, omega, a, a);
}

PatchResultants hertz_patch(const std::array<double, 2>& v, double omega, double A, double B) {
  PatchResultants r;
  const double speed = std::hypot(v[0], v[1]);
  if (omega == 0.0 || speed > 1e12 * std::min(A, B) * std::abs(omega)) {
    // Pure sliding: the direction is uniform over the patch.
    if (speed > 0.0) r.t = {v[0] / speed, v[1] / speed};
    return r;
  }
  const double sign = omega > 0.0 ? 1.0 : -1.0;
  // The instantaneous centre P = ẑ × v/ω, in the coordinates (x/A, y/B) that make the patch the
  // unit disk: there the pressure is (3/2π) √(1 − ρ²) per unit load (the measure AB dξ dη takes
  // the 1/(AB)), the slip direction along a ray ξ = P' + ρ e' is ẑ × De'/|De'| (D = diag(A, B)),
  // and x × that direction is (D P')·(De')/|De'| + ρ |De'|.
  const double px = -v[1] / omega / A, py = v[0] / omega / B;
  const double dist = std::hypot(px, py);
  const double k = 3.0 / (2.0 * kPi);
  double tx = 0.0, ty = 0.0, m = 0.0;
  auto add = [&](double phi, double weight) {
    const double ex = std::cos(phi), ey = std::sin(phi);
    double i0 = 0.0, i1 = 0.0;
    radial(px, py, ex, ey, 1.0, k, i0, i1);
    const double ax = A * ex, ay = B * ey, an = std::hypot(ax, ay);
    tx += weight * (-ay / an) * i0;
    ty += weight * (ax / an) * i0;
    m += weight * ((A * px * ax + B * py * ay) / an * i0 + an * i1);
  };
  if (dist < 1.0) {
    // P inside: every ray meets the edge once; periodic trapezoidal rule. The integrand is
    // analytic in a strip of half-width β = asinh(√(1/|P'|² − 1)) (where h² = 0 in the complex
    // plane) shrunk by the aspect ratio (|De'| varies with φ), so the error falls like exp(−β n):
    // n = 40 (A/B)/β nodes give round-off.
    const double beta = std::asinh(std::sqrt(std::max(1.0 / (dist * dist) - 1.0, 0.0)));
    const double aspect = std::max(A, B) / std::min(A, B);
    const int n =
        std::clamp(static_cast<int>(std::ceil(40.0 * aspect / std::max(beta, 1e-12))), 32, 32768);
    const double w = 2.0 * kPi / n;
    for (int j = 0; j < n; ++j) add(w * j, w);
  } else {
    // P outside (or on the edge): the rays within α of the direction to the centre.
    const double phi0 = std::atan2(-py, -px);
    const double alpha = std::asin(std::min(1.0, 1.0 / dist));
    const GaussLegendre& g = gauss(dist < 1.05 ? 512 : 64);
    for (std::size_t j = 0; j < g.x.size(); ++j) {
      const double psi = 0.5 * kPi * g.x[j];
      add(phi0 + alpha * std::sin(psi), 0.5 * kPi * g.w[j] * alpha * std::cos(psi));
    }
  }
  r.t = {sign * tx, sign * ty};
  r.m = sign * m;
  return r;
}

std::array<double, 2> hertz_table(double eps) {
  const PatchResultants r = hertz_patch({eps, 0.0}, 1.0, 1.0);
  return {r.t[0], r.m};
}

Derivative rhs(const EllipsoidOnPlane& p, const Vec3& x, const Quat& q, const Vec3& v,
               const Vec3& Omega) {
  const Quat qn = q.normalized();
  const Mat3 R = qn.toRotationMatrix();
  const Vec3& D = p.semi_axes;
  Vec3 force = p.mass * p.gravity;
  Vec3 torque = Vec3::Zero();  // world, about the centre of mass
  // The lowest point of the ellipsoid (support point in direction −ẑ).
  const Vec3 n_B = R.transpose() * Vec3::UnitZ();
  const Vec3 Dn = D.cwiseProduct(n_B);
  const Vec3 p_B = -D.cwiseProduct(Dn) / Dn.norm();
  const Vec3 point = x + R * p_B;
  const double delta = -point.z();
  if (delta > 0.0) {
    const Vec3 w = R * Omega;
    const Vec3 I = point + 0.5 * delta * Vec3::UnitZ();
    const Vec3 r = I - x;
    const Vec3 vI = v + w.cross(r);
    const double rate = -(v + w.cross(point - x)).z();
    const double n =
        std::max(0.0, p.stiffness * delta * std::sqrt(delta) * (1.0 + p.damping * rate));
    // Principal curvatures at p_B: the shape operator P D⁻² P / |D⁻² p| on the tangent plane.
    const Vec3 g = p_B.cwiseQuotient(D.cwiseProduct(D));
    const Vec3 nrm = g / g.norm();
    const Mat3 P = Mat3::Identity() - nrm * nrm.transpose();
    const Mat3 S =
        P * Vec3(1.0 / (D.x() * D.x()), 1.0 / (D.y() * D.y()), 1.0 / (D.z() * D.z())).asDiagonal() *
        P / g.norm();
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(S);
    // Two largest eigenvalues are the principal curvatures (the third, along the normal, is 0).
    const double k1 = eig.eigenvalues()(1), k2 = eig.eigenvalues()(2);
    const Vec3 d1 = R * eig.eigenvectors().col(1);  // the smaller curvature: the major axis
    const Curvature body{1.0 / k1, 1.0 / k2, d1};
    const HertzEllipse h = hertz_ellipse(body, Curvature{});
    // The Hertz contact: an ellipse of semi-axes a_f √δ_H, b_f √δ_H (δ_H from N), its major axis
    // along d1; a circle when b/a is within 1e-6 of 1.
    const double delta_h = std::cbrt(std::pow(3.0 * n / (4.0 * p.e_star * std::sqrt(h.radius)), 2));
    const bool ellipse = h.axis_ratio < 1.0 - 1e-6;
    const double A = ellipse ? h.a_factor * std::sqrt(delta_h)
                             : std::cbrt(3.0 * n * h.radius / (4.0 * p.e_star));
    const double B = ellipse ? h.b_factor * std::sqrt(delta_h) : A;
    Vec3 f = n * Vec3::UnitZ();
    double mn = 0.0;
    if (A > 0.0) {
      // The slip in the ellipse's frame (major, ẑ × major, ẑ).
      Vec3 major = ellipse ? Vec3(d1.x(), d1.y(), 0.0).normalized() : Vec3::UnitX();
      const Vec3 minor = Vec3::UnitZ().cross(major);
      const std::array<double, 2> slip = {vI.dot(major), vI.dot(minor)};
      const PatchResultants t = hertz_patch(slip, w.z(), A, B);
      const double a = std::sqrt(A * B);
      const double rho = std::sqrt(slip[0] * slip[0] + slip[1] * slip[1] + std::pow(a * w.z(), 2));
      const double s = std::min(1.0, rho / p.regularization);
      f += -p.mu * n * s * (t.t[0] * major + t.t[1] * minor);
      mn = -p.mu * n * s * t.m;
    }
    force += f;
    torque += r.cross(f) + mn * Vec3::UnitZ();
  }
  Derivative d;
  d.dx = v;
  d.dv = force / p.mass;
  const Vec3 tau_B = R.transpose() * torque;
  const Vec3 I_Omega = p.inertia.cwiseProduct(Omega);
  d.dOmega = (tau_B - Omega.cross(I_Omega)).cwiseQuotient(p.inertia);
  const Quat dq = qn * Quat(0.0, 0.5 * Omega.x(), 0.5 * Omega.y(), 0.5 * Omega.z());
  d.dq = dq;
  return d;
}

}  // namespace coulomb::validate::reference
