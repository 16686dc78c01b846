#include <coulomb/laws/admissible_set.hpp>

#include <algorithm>
#include <cmath>

namespace coulomb {

bool CircularCone::contains(const Vec3& x, double tol) const {
  return x.tail<2>().norm() <= mu * x[0] + tol;
}

Vec3 EllipticCone::project(const Vec3& x) const {
  if (contains(x)) return x;
  const double n = x[0];
  // A zero coefficient forces that component to 0: a 2-D cone in the other one (or a half-line).
  if (mu1 == 0.0 || mu2 == 0.0) {
    const int i = mu1 == 0.0 ? 2 : 1;
    const Vec2 p = IntervalCone{mu1 == 0.0 ? mu2 : mu1}.project(Vec2(n, x[i]));
    Vec3 out(p[0], 0.0, 0.0);
    out[i] = p[1];
    return out;
  }
  const double a1 = mu1 * mu1, a2 = mu2 * mu2;
  // Polar cone {‖D t‖ ≤ −n}: the projection is the apex.
  if (std::hypot(mu1 * x[1], mu2 * x[2]) <= -n) return Vec3::Zero();
  // KKT: t_i = x_ti μi²/(μi² + 2λ), n = x_n/(1 − 2λ) ≥ 0, with λ ≥ 0 the root of
  // g(λ) = (1 − 2λ) ‖D⁻¹ t(λ)‖ − x_n, decreasing from g(0) > 0 (x outside) to −‖D x_t‖ − x_n < 0
  // (x not in the polar cone); λ < ½ when x_n > 0, λ > ½ when x_n < 0.
  auto tangential = [&](double lam) {
    return Vec2(a1 > 0.0 ? x[1] * a1 / (a1 + 2.0 * lam) : 0.0,
                a2 > 0.0 ? x[2] * a2 / (a2 + 2.0 * lam) : 0.0);
  };
  auto bound = [&](const Vec2& t) {  // ‖D⁻¹ t‖ (0/0 = 0 for μ = 0)
    const double u = a1 > 0.0 ? t[0] / mu1 : 0.0, v = a2 > 0.0 ? t[1] / mu2 : 0.0;
    return std::hypot(u, v);
  };
  auto g = [&](double lam) { return (1.0 - 2.0 * lam) * bound(tangential(lam)) - n; };
  double lo = 0.0, hi = 1.0;
  while (g(hi) > 0.0 && hi < 1e300) hi *= 2.0;
  for (int i = 0; i < 2000 && hi - lo > 1e-16 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (g(mid) > 0.0) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  // Take n on the boundary from t (exact at the root, robust as λ → ½).
  const Vec2 t = tangential(0.5 * (lo + hi));
  return {bound(t), t[0], t[1]};
}

bool EllipticCone::contains(const Vec3& x, double tol) const {
  const double n = x[0];
  if (n < -tol) return false;
  // (t1/μ1)² + (t2/μ2)² ≤ n², written without dividing by μ: ‖(μ2 t1, μ1 t2)‖ ≤ μ1 μ2 n.
  if (mu1 == 0.0 && std::abs(x[1]) > tol) return false;
  if (mu2 == 0.0 && std::abs(x[2]) > tol) return false;
  const double u = mu1 > 0.0 ? x[1] / mu1 : 0.0, v = mu2 > 0.0 ? x[2] / mu2 : 0.0;
  return std::hypot(u, v) <= n + tol;
}

Vec2 IntervalCone::project(const Vec2& x) const {
  const double n = x[0], m = std::abs(x[1]);
  // h = 0: the half-line {m = 0, n >= 0} (as CircularCone with μ = 0).
  if (h == 0.0) return {std::max(n, 0.0), 0.0};
  if (m <= h * n) return x;
  if (h * m <= -n) return Vec2::Zero();
  const double np = (n + h * m) / (1.0 + h * h);
  return {np, std::copysign(h * np, x[1])};
}

bool IntervalCone::contains(const Vec2& x, double tol) const {
  return std::abs(x[1]) <= h * x[0] + tol;
}

EllipticCone friction_cone(const FrictionLaw& law, const FrictionMemory& memory) {
  const Vec2 mu = law.cone_coefficients(memory);
  return {mu[0], mu[1]};
}

}  // namespace coulomb
