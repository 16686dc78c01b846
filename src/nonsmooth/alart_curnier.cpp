/// @file
/// Alart–Curnier function and generalised Jacobian (equations in alart_curnier.hpp).

#include <coulomb/laws/admissible_set.hpp>
#include <coulomb/nonsmooth/alart_curnier.hpp>
#include <coulomb/nonsmooth/no_slip.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <algorithm>
#include <cmath>

namespace coulomb {

AlartCurnierRho alart_curnier_rho(const Block3& w) {
  // Fallback scale when the diagonal is not positive (degenerate W).
  double wmax = std::max({std::abs(w(0, 0)), std::abs(w(1, 1)), std::abs(w(2, 2))});
  const double fallback = wmax > 0.0 && std::isfinite(wmax) ? 1.0 / wmax : 1.0;
  AlartCurnierRho rho;
  rho.n = w(0, 0) > 0.0 ? 1.0 / w(0, 0) : fallback;
  const double wt = w(1, 1) + w(2, 2);
  rho.t = wt > 0.0 ? 2.0 / wt : fallback;
  return rho;
}

void alart_curnier_function(const Vec3& r, const Vec3& u, double mu, const AlartCurnierRho& rho,
                            Vec3& phi, Mat3* dphi_dr, Mat3* dphi_du) {
  // μ = +∞: the no-slip law's limit of this function (no_slip.hpp).
  if (is_no_slip(mu)) {
    no_slip_alart_curnier(r, u, rho, phi, dphi_dr, dphi_du);
    return;
  }
  // Normal part: φ_N = r_N − max(0, r_N − ρ_N u_N); at a = 0 the branch "a > 0" is not taken.
  const double a = r[0] - rho.n * u[0];
  const bool pressed = a > 0.0;
  phi[0] = pressed ? rho.n * u[0] : r[0];
  // Tangential part: φ_T = r_T − P_D(R)(z), z = r_T − ρ_T u_T, R = μ max(0, a).
  const double radius = pressed ? mu * a : 0.0;
  const double z1 = r[1] - rho.t * u[1];
  const double z2 = r[2] - rho.t * u[2];
  const double zn = norm2d(z1, z2);
  const bool inside = zn <= radius;  // includes z = 0 with R = 0
  if (inside) {
    phi[1] = r[1] - z1;
    phi[2] = r[2] - z2;
  } else {
    const double s = radius / zn;
    phi[1] = r[1] - s * z1;
    phi[2] = r[2] - s * z2;
  }
  if (dphi_dr == nullptr && dphi_du == nullptr) return;

  // Derivatives of a (and so of R = μ a on the pressed branch) with respect to r and u.
  Mat3 jr = Mat3::Zero();
  Mat3 ju = Mat3::Zero();
  if (pressed) {
    ju(0, 0) = rho.n;
  } else {
    jr(0, 0) = 1.0;
  }
  // Tangential rows: dφ_T = dr_T − dP, with dz/dr_T = I, dz/du_T = −ρ_T I.
  if (inside) {
    // P = z: dφ_T/dr_T = 0, dφ_T/du_T = ρ_T I.
    ju(1, 1) = rho.t;
    ju(2, 2) = rho.t;
  } else {
    // P = R ẑ: dP = (R/‖z‖)(I − ẑẑᵀ) dz + ẑ dR.
    const double h1 = z1 / zn;
    const double h2 = z2 / zn;
    const double s = radius / zn;
    Eigen::Matrix2d g;
    g << s * (1.0 - h1 * h1), -s * h1 * h2, -s * h1 * h2, s * (1.0 - h2 * h2);
    // dP/dr_T = g, dP/du_T = −ρ_T g.
    jr(1, 1) = 1.0 - g(0, 0);
    jr(1, 2) = -g(0, 1);
    jr(2, 1) = -g(1, 0);
    jr(2, 2) = 1.0 - g(1, 1);
    ju(1, 1) = rho.t * g(0, 0);
    ju(1, 2) = rho.t * g(0, 1);
    ju(2, 1) = rho.t * g(1, 0);
    ju(2, 2) = rho.t * g(1, 1);
    // dR = μ (dr_N − ρ_N du_N) on the pressed branch.
    if (pressed) {
      jr(1, 0) -= h1 * mu;
      jr(2, 0) -= h2 * mu;
      ju(1, 0) += h1 * mu * rho.n;
      ju(2, 0) += h2 * mu * rho.n;
    }
  }
  if (dphi_dr != nullptr) *dphi_dr = jr;
  if (dphi_du != nullptr) *dphi_du = ju;
}

double single_contact_residual(const Block3& w, const Vec3& q, double mu, const Vec3& r) {
  return single_contact_residual_at(mu, r, w * r + q);
}

double single_contact_residual_at(double mu, const Vec3& r, const Vec3& u) {
  // û = u + [μ‖u_T‖, 0, 0] with u = W r + q; residual of the natural map.
  if (is_no_slip(mu)) return std::sqrt(no_slip_residual2(r, u));
  const Vec3 x(r[0] - u[0] - mu * norm2d(u[1], u[2]), r[1] - u[1], r[2] - u[2]);
  return (r - CircularCone{mu}.project(x)).norm();
}

}  // namespace coulomb
