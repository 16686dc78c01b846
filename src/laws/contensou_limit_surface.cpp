// The exact Coulomb–Contensou limit surface: its maximal-dissipation point and the projection onto
// it with the Jacobian. Method: coulomb/laws/contensou_limit_surface.hpp.
#include <coulomb/laws/contensou_limit_surface.hpp>

#include "laws/contensou_detail.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace coulomb::contensou {

using detail::kHalfPi;

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
