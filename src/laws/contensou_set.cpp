#include <coulomb/laws/contensou_set.hpp>

#include <cmath>

namespace coulomb {

double contensou_moment_length(contensou::Pressure pressure) {
  return contensou::pure_spin_moment(pressure);
}

ForceMoment ContensouEllipsoid::project(const ForceMoment& x) const {
  if (contains(x)) return x;
  // In y = (F, M/ℓ) the set is the axis-aligned ellipsoid of semi-axes (ρ, ρ, ρ ā/ℓ). KKT:
  // y_i' = y_i s_i²/(s_i² + λ), λ > 0 the root of φ(λ) = Σ y_i² s_i²/(s_i² + λ)² − 1 (convex,
  // decreasing): Newton from λ = 0 increases monotonically to it.
  const double ell = metric_length > 0.0 ? metric_length : moment_length;
  if (radius <= 0.0) return {};
  const double sf = radius, sm = radius * moment_length / ell;
  const double f2 = x.force.squaredNorm(), m = x.moment / ell;
  double lam = 0.0;
  for (int it = 0; it < 200; ++it) {
    const double df = sf * sf + lam, dm = sm * sm + lam;
    const double phi = f2 * sf * sf / (df * df) + m * m * sm * sm / (dm * dm) - 1.0;
    const double dphi = -2.0 * (f2 * sf * sf / (df * df * df) + m * m * sm * sm / (dm * dm * dm));
    const double step = -phi / dphi;
    lam += step;
    if (!(std::abs(step) > 1e-16 * lam)) break;
  }
  ForceMoment p;
  p.force = x.force * (sf * sf / (sf * sf + lam));
  p.moment = ell * m * (sm * sm / (sm * sm + lam));
  return p;
}

bool ContensouEllipsoid::contains(const ForceMoment& x, double tol) const {
  const double m = x.moment / moment_length;
  return std::sqrt(x.force.squaredNorm() + m * m) <= radius + tol;
}

ForceMoment ContensouLimitSet::project(const ForceMoment& x) const {
  if (radius <= 0.0) return {};
  // Scale to (F/ρ, M/(ρ a)), project on the unit limit set, scale back.
  const contensou::Vec3c z(x.force[0] / radius, x.force[1] / radius,
                           x.moment / (radius * patch_radius));
  const contensou::Vec3c p = contensou::project_limit_surface(z, pressure);
  return {radius * Vec2(p[0], p[1]), radius * patch_radius * p[2]};
}

bool ContensouLimitSet::contains(const ForceMoment& x, double tol) const {
  const ForceMoment p = project(x);
  const double dm = (p.moment - x.moment) / patch_radius;
  return std::sqrt((p.force - x.force).squaredNorm() + dm * dm) <= tol * std::max(radius, 1.0);
}

ForceMoment ContensouLimitSet::max_dissipation(const Vec2& v_s, double omega) const {
  // The boundary point with outward normal −(v_s, a ω): opposes slip and spin.
  const contensou::Vec3c y(-v_s[0], -v_s[1], -patch_radius * omega);
  const contensou::Vec3c p = contensou::limit_surface_point(y, pressure);
  return {radius * Vec2(p[0], p[1]), radius * patch_radius * p[2]};
}

}  // namespace coulomb
