/// @file
/// The laws of the wrench problem (ContactLaw6), their admissible sets in the scaled variables,
/// the projection onto their cones and the error measure (coulomb/nonsmooth/problem.hpp, six
/// unknowns).
///
/// Projection onto the cone K = {(N, y): N ≥ 0, y ∈ N C} (C convex, compact, 0 ∈ C): for fixed N
/// the best y is P_{NC}(x_y), so P_K(x) = (N*, P_{N*C}(x_y)) with N* ≥ 0 the minimiser of the
/// convex function g(N) = ½(N − x_N)² + ½ dist²(x_y, N C) (convex: partial minimisation of a
/// convex function over the convex set K). By the envelope theorem, with n = x_y − P_{NC}(x_y)
/// (a normal of N C at P, so n·P = N σ_C(n)), g'(N) = N − x_N − σ_C(n): non-decreasing, so N* = 0
/// when g'(0) = −x_N − σ_C(x_y) ≥ 0 (x in the polar cone), else the root of g' in
/// (0, max(x_N, 0) + R_C ‖x_y‖] (σ_C(n) ≤ R_C ‖n‖ ≤ R_C ‖x_y‖), found by the Illinois variant of
/// regula falsi (exact in a few steps where g' is piecewise linear: disc, interval and ball).

#include <coulomb/math/parallel.hpp>
#include <coulomb/nonsmooth/no_slip.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include "nonsmooth/set6.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace coulomb {

// ---------------------------------------------------------------------------------------------
// Laws
// ---------------------------------------------------------------------------------------------

double ContactLaw6::ellipsoid_length() const {
  return abar > 0.0 ? abar : contensou::pure_spin_moment(pressure) * a;
}

double ContactLaw6::moment_scale() const {
  switch (coupling) {
    case Coupling::exact:
      return a > 0.0 ? a : 1.0;
    case Coupling::ellipsoid: {
      const double l = ellipsoid_length();
      return l > 0.0 ? l : 1.0;
    }
    case Coupling::none:
      break;
  }
  return 1.0;
}

void ContactLaw6::validate() const {
  const auto bad = [](double x) { return !std::isfinite(x) || x < 0.0; };
  // μ = +∞ (no slip, no_slip.hpp) only on a contact without moment laws.
  const bool no_slip = is_no_slip(mu) && coupling == Coupling::none && h == 0.0 && k == 0.0;
  if (bad(mu) && !no_slip)
    throw std::invalid_argument(
        "ContactLaw6: mu must be finite and >= 0 (+inf, no slip, only without moment laws)");
  if (bad(h)) throw std::invalid_argument("ContactLaw6: h must be finite and >= 0 [m]");
  if (bad(k)) throw std::invalid_argument("ContactLaw6: k must be finite and >= 0 [m]");
  if (bad(abar)) throw std::invalid_argument("ContactLaw6: abar must be finite and >= 0 [m]");
  if (bad(a)) throw std::invalid_argument("ContactLaw6: a must be finite and >= 0 [m]");
  if (coupling == Coupling::exact && mu > 0.0 && !(a > 0.0)) {
    throw std::invalid_argument("ContactLaw6: exact Contensou coupling needs a patch radius a > 0");
  }
  if (coupling == Coupling::ellipsoid && mu > 0.0 && !(ellipsoid_length() > 0.0)) {
    throw std::invalid_argument("ContactLaw6: Contensou ellipsoid needs abar > 0 or a > 0");
  }
}

// ---------------------------------------------------------------------------------------------
// Admissible sets in the scaled variables
// ---------------------------------------------------------------------------------------------

namespace detail {
namespace {

// Projection of z onto the ball of radius c R in R^dim, with ∂P/∂z and ∂P/∂R.
template <int dim>
void project_ball(const Eigen::Matrix<double, dim, 1>& z, double c, double R,
                  Eigen::Matrix<double, dim, 1>& p, Eigen::Matrix<double, dim, dim>* J,
                  Eigen::Matrix<double, dim, 1>* dR) {
  const double zn = z.norm();
  const double rad = c * R;
  if (zn <= rad) {
    p = z;
    if (J) J->setIdentity();
    if (dR) dR->setZero();
    return;
  }
  // Outside (zn > 0): onto the sphere along z.
  const Eigen::Matrix<double, dim, 1> e = z / zn;
  p = rad * e;
  if (J) *J = (rad / zn) * (Eigen::Matrix<double, dim, dim>::Identity() - e * e.transpose());
  if (dR) *dR = c * e;
}

}  // namespace

Set6 Set6::from(const ContactLaw6& law) {
  Set6 s;
  s.mu = law.mu;
  s.k = law.k;
  s.ell = law.moment_scale();
  s.pressure = law.pressure;
  switch (law.coupling) {
    case ContactLaw6::Coupling::none:
      s.kind = Kind::product;
      s.h = law.h / s.ell;
      break;
    case ContactLaw6::Coupling::ellipsoid:
      s.kind = Kind::ball;
      break;
    case ContactLaw6::Coupling::exact:
      s.kind = Kind::exact;
      break;
  }
  return s;
}

bool Set6::fixed(int i) const {
  if (i < 2) return mu == 0.0;
  if (i == 2) return kind == Kind::product ? h == 0.0 : mu == 0.0;
  return k == 0.0;
}

double Set6::support(const Vec5& w) const {
  const double roll = k * w.tail<2>().norm();
  switch (kind) {
    case Kind::product:
      return mu * w.head<2>().norm() + h * std::abs(w[2]) + roll;
    case Kind::ball:
      return mu * w.head<3>().norm() + roll;
    case Kind::exact: {
      const contensou::Vec3c y = w.head<3>();
      return mu * y.dot(contensou::limit_surface_point(y, pressure)) + roll;
    }
  }
  return 0.0;
}

double Set6::max_radius() const {
  // The exact limit set lies in the unit ball (F ≤ 1, inside the ellipsoid of semi-axis m0 < 1).
  if (kind == Kind::product) return std::sqrt(mu * mu + h * h + k * k);
  return std::sqrt(mu * mu + k * k);
}

Vec5 Set6::project(const Vec5& z, double R, Mat5* J, Vec5* dR) const {
  Vec5 p;
  if (J) J->setZero();
  if (dR) dR->setZero();
  // Rolling disc, components 3..4.
  {
    Eigen::Vector2d pt;
    Eigen::Matrix2d jt;
    Eigen::Vector2d dt;
    project_ball<2>(z.tail<2>(), k, R, pt, J ? &jt : nullptr, dR ? &dt : nullptr);
    p.tail<2>() = pt;
    if (J) J->bottomRightCorner<2, 2>() = jt;
    if (dR) dR->tail<2>() = dt;
  }
  switch (kind) {
    case Kind::product: {
      // Friction disc and pivoting interval.
      Eigen::Vector2d pf;
      Eigen::Matrix2d jf;
      Eigen::Vector2d df;
      project_ball<2>(z.head<2>(), mu, R, pf, J ? &jf : nullptr, dR ? &df : nullptr);
      p.head<2>() = pf;
      if (J) J->topLeftCorner<2, 2>() = jf;
      if (dR) dR->head<2>() = df;
      const double b = h * R;
      if (std::abs(z[2]) <= b) {
        p[2] = z[2];
        if (J) (*J)(2, 2) = 1.0;
      } else {
        const double s = z[2] > 0.0 ? 1.0 : -1.0;
        p[2] = s * b;
        if (dR) (*dR)[2] = s * h;
      }
      break;
    }
    case Kind::ball: {
      Eigen::Vector3d pb;
      Eigen::Matrix3d jb;
      Eigen::Vector3d db;
      project_ball<3>(z.head<3>(), mu, R, pb, J ? &jb : nullptr, dR ? &db : nullptr);
      p.head<3>() = pb;
      if (J) J->topLeftCorner<3, 3>() = jb;
      if (dR) dR->head<3>() = db;
      break;
    }
    case Kind::exact: {
      // P_{ρL}(z) = ρ P_L(z/ρ), ρ = μR: ∂P/∂z = J_L(z/ρ), ∂P/∂R = μ (P_L(z/ρ) − J_L(z/ρ) z/ρ).
      const double rho = mu * R;
      const contensou::Vec3c z3 = z.head<3>();
      if (rho <= 0.0) {
        p.head<3>().setZero();
        // Right derivative at ρ = 0: the boundary point of L with outward normal z.
        if (dR && mu > 0.0) dR->head<3>() = mu * contensou::limit_surface_point(z3, pressure);
        break;
      }
      const contensou::Vec3c zs = z3 / rho;
      if (J || dR) {
        const contensou::LimitProjection lp =
            contensou::project_limit_surface_jacobian(zs, pressure);
        p.head<3>() = rho * lp.point;
        if (J) J->topLeftCorner<3, 3>() = lp.jacobian;
        if (dR) dR->head<3>() = mu * (lp.point - lp.jacobian * zs);
      } else {
        p.head<3>() = rho * contensou::project_limit_surface(zs, pressure);
      }
      break;
    }
  }
  return p;
}

Vec6 project_cone(const Set6& set, const Vec6& x) {
  const Vec5 xy = x.tail<5>();
  // g'(N) = N − x_N − σ_C(x_y − P_{NC}(x_y)), non-decreasing.
  const auto slope = [&](double n) {
    return n - x[0] - set.support(xy - set.project(xy, n, nullptr, nullptr));
  };
  Vec6 out = Vec6::Zero();
  double lo = 0.0;
  double g_lo = slope(0.0);
  // Polar cone: the apex.
  if (g_lo >= 0.0) return out;
  double hi = std::max(x[0], 0.0) + set.max_radius() * xy.norm();
  double g_hi = slope(hi);
  // Illinois regula falsi on [lo, hi] (g_lo < 0 <= g_hi).
  int side = 0;
  double n = hi;
  for (int it = 0; it < 200 && g_hi > 0.0; ++it) {
    n = (lo * g_hi - hi * g_lo) / (g_hi - g_lo);
    if (!(n > lo && n < hi)) n = 0.5 * (lo + hi);
    if (!(n > lo && n < hi) || hi - lo <= 4.0 * DBL_EPSILON * hi) break;  // round-off
    const double g = slope(n);
    if (g == 0.0) {
      hi = n;
      g_hi = 0.0;
      break;
    }
    if (g < 0.0) {
      lo = n;
      g_lo = g;
      if (side == -1) g_hi *= 0.5;
      side = -1;
    } else {
      hi = n;
      g_hi = g;
      if (side == 1) g_lo *= 0.5;
      side = 1;
    }
  }
  n = hi;
  out[0] = n;
  out.tail<5>() = set.project(xy, n, nullptr, nullptr);
  return out;
}

double residual(const Set6& set, const Vec6& r, const Vec6& u) {
  // Plain Coulomb (no moment bounds): the closed-form cone projection of the 3-unknown problem
  // on (N, T), and the moments' residual r_M − 0.
  if (set.kind == Set6::Kind::product && set.h == 0.0 && set.k == 0.0) {
    if (is_no_slip(set.mu)) {
      // μ = +∞: the no-slip law's residual (no_slip.hpp).
      const Vec3 r3 = r.head<3>();
      const Vec3 u3 = u.head<3>();
      return std::sqrt(no_slip_residual2(r3, u3) + r.tail<3>().squaredNorm());
    }
    const Vec3 x(r[0] - u[0] - set.mu * norm2d(u[1], u[2]), r[1] - u[1], r[2] - u[2]);
    const Vec3 e = r.head<3>() - project_on_cone(x, set.mu);
    return std::sqrt(e.squaredNorm() + r.tail<3>().squaredNorm());
  }
  // x = r − û, û = u + [σ_C(−w), 0, ...].
  const Vec5 w = u.tail<5>();
  Vec6 x = r - u;
  x[0] -= set.support(-w);
  return (r - project_cone(set, x)).norm();
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Public helpers and the error measure
// ---------------------------------------------------------------------------------------------

double support6(const ContactLaw6& law, const Eigen::Matrix<double, 5, 1>& w) {
  const detail::Set6 set = detail::Set6::from(law);
  detail::Vec5 ws = w;
  ws[2] *= set.ell;
  return set.support(ws);
}

Vec6 project_on_cone6(const ContactLaw6& law, const Vec6& x_scaled) {
  return detail::project_cone(detail::Set6::from(law), x_scaled);
}

double contact_residual6(const ContactLaw6& law, const Vec6& r, const Vec6& u) {
  const detail::Set6 set = detail::Set6::from(law);
  return detail::residual(set, detail::scale_r(r, set.ell), detail::scale_u(u, set.ell));
}

namespace {

// The wrench error of any problem form holding laws, q and contact_count. The contacts' terms on
// every core, added in contact order (as force_error, contact_error.cpp).
template <class Problem>
double wrench_error(const Problem& problem, const std::vector<Vec6>& r,
                    const std::vector<Vec6>& u) {
  const int nc = problem.contact_count;
  assert(static_cast<int>(r.size()) >= nc && static_cast<int>(u.size()) >= nc);
  thread_local std::vector<std::array<double, 2>> terms;
  std::array<double, 2> sums{0.0, 0.0};  // Σ residual², Σ ‖q_α‖² (scaled)
  parallel_ordered_sum(nc, kColorThreshold, terms, sums, [&](std::ptrdiff_t ia) {
    const auto a = static_cast<int>(ia);
    // A joint block: the natural map of its box (joint_rows.hpp).
    if (const auto* joint = joint_of(problem, a))
      return std::array<double, 2>{joint_residual2<6>(*joint, r[a], u[a]),
                                   problem.q[a].squaredNorm()};
    const detail::Set6 set = detail::Set6::from(problem.laws[a]);
    const double e =
        detail::residual(set, detail::scale_r(r[a], set.ell), detail::scale_u(u[a], set.ell));
    return std::array<double, 2>{e * e, detail::scale_u(problem.q[a], set.ell).squaredNorm()};
  });
  const double sum = sums[0];
  const double q2 = sums[1];
  const double err = std::sqrt(sum);
  const double qn = std::sqrt(q2);
  return qn > DBL_EPSILON ? err / qn : err;
}

}  // namespace

double contact_error(const WrenchProblem& problem, const std::vector<Vec6>& r,
                     const std::vector<Vec6>& u) {
  return wrench_error(problem, r, u);
}

double contact_error(const FactoredWrenchProblem& problem, const std::vector<Vec6>& r,
                     const std::vector<Vec6>& u) {
  return wrench_error(problem, r, u);
}

}  // namespace coulomb
