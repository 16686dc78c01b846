/// @file
/// Exact solution of one 6-unknown contact (method: coulomb/nonsmooth/solver.hpp). All work is
/// in the scaled variables of problem.hpp; fixed-size Eigen types only, nothing allocates.

#include <coulomb/nonsmooth/solver.hpp>

#include "nonsmooth/set6.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace coulomb {
namespace {

using detail::Mat5;
using detail::Set6;
using detail::Vec5;
using Mat6 = Eigen::Matrix<double, 6, 6>;

constexpr int kNewtonIterations = 60;
constexpr int kNestedIterations = 200;
constexpr int kGradientIterations = 4000;

struct Local {
  Mat6 w;  // W̃
  Vec6 q;  // q̃
  Set6 set;
  double qn;  // ‖q̃‖
  double wmax;
};

double rel_residual(const Local& p, const Vec6& r) {
  const Vec6 u = p.w * r + p.q;
  return detail::residual(p.set, r, u) / p.qn;
}

// Round-off level of the relative error at r (as single_contact.cpp, with 6 columns).
double error_floor(const Local& p, const Vec6& r) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  return 8.0 * kEps * (r.norm() * (1.0 + 6.0 * p.wmax) + p.qn) / p.qn;
}

// Penalty parameters: ρ_N = 1/W_NN; one ρ per factor of the set (a coupled factor shares one).
struct Rho {
  double n = 1.0;
  Vec5 t = Vec5::Ones();
};

Rho make_rho(const Local& p, double scale) {
  Rho rho;
  const Mat6& w = p.w;
  rho.n = w(0, 0) > 0.0 ? 1.0 / w(0, 0) : 1.0;
  const auto inv_mean = [&](int first, int count) {
    double s = 0.0;
    for (int i = first; i < first + count; ++i) s += w(i, i);
    return s > 0.0 ? count / s : rho.n;
  };
  if (p.set.kind == Set6::Kind::product) {
    rho.t.head<2>().setConstant(inv_mean(1, 2));
    rho.t[2] = inv_mean(3, 1);
  } else {
    rho.t.head<3>().setConstant(inv_mean(1, 3));
  }
  rho.t.tail<2>().setConstant(inv_mean(4, 2));
  rho.n *= scale;
  rho.t *= scale;
  return rho;
}

// Alart–Curnier function φ(r) and, when jac is not null, its generalised Jacobian dφ/dr (u = W r +
// q).
void alart_curnier6(const Local& p, const Rho& rho, const Vec6& r, Vec6& phi, Mat6* jac) {
  const Vec6 u = p.w * r + p.q;
  const double a = r[0] - rho.n * u[0];
  const bool active = a > 0.0;
  const double R = active ? a : 0.0;
  const Vec5 y = r.tail<5>();
  const Vec5 z = y - rho.t.cwiseProduct(u.tail<5>());
  Mat5 J;
  Vec5 dR;
  const Vec5 proj = p.set.project(z, R, jac ? &J : nullptr, jac ? &dR : nullptr);
  phi[0] = r[0] - R;
  phi.tail<5>() = y - proj;
  if (!jac) return;
  // dR/dr = [a > 0] (e_N − ρ_N W_N).
  Eigen::Matrix<double, 1, 6> da = -rho.n * p.w.row(0);
  da[0] += 1.0;
  if (!active) da.setZero();
  Mat6& j = *jac;
  j.setZero();
  j.row(0) = -da;
  j(0, 0) += 1.0;
  // dz/dr = E_y − diag(ρ_T) W_y.
  Eigen::Matrix<double, 5, 6> dz = -(rho.t.asDiagonal() * p.w.bottomRows<5>());
  dz.rightCols<5>() += Mat5::Identity();
  j.bottomRows<5>() = -J * dz - dR * da;
  j.bottomRightCorner<5, 5>() += Mat5::Identity();
}

// Damped semismooth Newton from r; returns the final relative residual (r updated).
double newton(const Local& p, const Rho& rho, Vec6& r, double tolerance) {
  Vec6 phi;
  Mat6 jac;
  alart_curnier6(p, rho, r, phi, &jac);
  double merit = 0.5 * phi.squaredNorm();
  double err = rel_residual(p, r);
  for (int it = 0; it < kNewtonIterations && err > std::max(tolerance, error_floor(p, r)); ++it) {
    const Vec6 step = jac.colPivHouseholderQr().solve(-phi);
    if (!step.allFinite()) break;
    // Armijo backtracking on ½‖φ‖².
    double t = 1.0;
    bool accepted = false;
    Vec6 r_try;
    Vec6 phi_try;
    while (t > 1e-12) {
      r_try = r + t * step;
      alart_curnier6(p, rho, r_try, phi_try, nullptr);
      if (0.5 * phi_try.squaredNorm() <= (1.0 - 2e-4 * t) * merit) {
        accepted = true;
        break;
      }
      t *= 0.5;
    }
    if (!accepted) break;
    r = r_try;
    alart_curnier6(p, rho, r, phi, &jac);
    merit = 0.5 * phi.squaredNorm();
    err = rel_residual(p, r);
  }
  return err;
}

// Convex problem min ½ yᵀ A y + b·y over y ∈ R C, by accelerated projected gradient (FISTA with
// adaptive restart, O'Donoghue & Candès 2015), step 1/L with L = ‖A‖_F ≥ λ_max(A).
void tangential_qp(const Local& p, const Mat5& A, const Vec5& b, double R, Vec5& y) {
  const double L = A.norm();
  if (!(L > 0.0)) {
    y = p.set.project(-b * 1e300, R, nullptr, nullptr);
    return;
  }
  Vec5 x = p.set.project(y, R, nullptr, nullptr);
  Vec5 v = x;
  double t = 1.0;
  for (int it = 0; it < kGradientIterations; ++it) {
    const Vec5 g = A * v + b;
    const Vec5 x_new = p.set.project(v - g / L, R, nullptr, nullptr);
    const double t_new = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
    // Restart when the momentum points uphill.
    if (g.dot(x_new - x) > 0.0) {
      v = x;
      t = 1.0;
      continue;
    }
    const double change = (x_new - x).norm();
    v = x_new + ((t - 1.0) / t_new) * (x_new - x);
    x = x_new;
    t = t_new;
    if (change <= 1e-17 * (x.norm() + 1e-300)) break;
  }
  y = x;
}

// Nested fixed point (N | y), then returns the relative residual (r updated).
double nested(const Local& p, Vec6& r, double tolerance) {
  const Mat5 A = p.w.bottomRightCorner<5, 5>();
  const double wnn = p.w(0, 0);
  if (!(wnn > 0.0)) return std::numeric_limits<double>::infinity();
  Vec5 y = r.tail<5>();
  double n = std::max(0.0, r[0]);
  double err = std::numeric_limits<double>::infinity();
  for (int it = 0; it < kNestedIterations; ++it) {
    n = std::max(0.0, -(p.q[0] + p.w.row(0).tail<5>().dot(y)) / wnn);
    const Vec5 b = p.q.tail<5>() + p.w.col(0).tail<5>() * n;
    tangential_qp(p, A, b, n, y);
    r[0] = n;
    r.tail<5>() = y;
    err = rel_residual(p, r);
    if (err <= std::max(tolerance, error_floor(p, r))) break;
  }
  return err;
}

}  // namespace

bool solve_single_contact(const Block6& w_raw, const Vec6& q_raw, const ContactLaw6& law,
                          Vec6& r_raw, double tolerance) {
  // Non-finite input: no answer.
  if (!w_raw.allFinite() || !q_raw.allFinite()) {
    r_raw.setConstant(std::numeric_limits<double>::quiet_NaN());
    return false;
  }
  // (i) Take-off.
  if (q_raw[0] >= 0.0) {
    r_raw.setZero();
    return true;
  }
  // Plain Coulomb (h = k = 0, no coupling): moments are 0 and the (N, T) rows are the
  // 3-unknown problem; its exact solve is the fast path.
  if (law.coupling == ContactLaw6::Coupling::none && law.h == 0.0 && law.k == 0.0) {
    Vec3 r3 = r_raw.head<3>();
    const bool ok =
        solve_single_contact(w_raw.topLeftCorner<3, 3>(), q_raw.head<3>(), law.mu, r3, tolerance);
    r_raw.head<3>() = r3;
    r_raw.tail<3>().setZero();
    return ok;
  }
  // Scaled local problem: W̃ = S⁻¹ W S⁻¹ (row and column 3 times ℓ), q̃ = S⁻¹ q.
  Local p;
  p.set = Set6::from(law);
  const double ell = p.set.ell;
  p.w = w_raw;
  p.w.row(3) *= ell;
  p.w.col(3) *= ell;
  p.q = detail::scale_u(q_raw, ell);
  p.qn = p.q.norm();
  p.wmax = p.w.cwiseAbs().maxCoeff();
  Vec6 r_warm = detail::scale_r(r_raw, ell);
  const auto finish = [&](const Vec6& r, double err) {
    r_raw = r;
    r_raw[3] *= ell;
    return err <= std::max(tolerance, error_floor(p, r));
  };

  // (ii) Stick on the free components.
  {
    Mat6 a = p.w;
    Vec6 b = -p.q;
    for (int i = 1; i < 6; ++i) {
      if (!p.set.fixed(i - 1)) continue;
      a.row(i).setZero();
      a.col(i).setZero();
      a(i, i) = 1.0;
      b[i] = 0.0;
    }
    const Eigen::LDLT<Mat6> ldlt(a);
    if (ldlt.info() == Eigen::Success && ldlt.isPositive()) {
      const Vec6 rs = ldlt.solve(b);
      if (rs.allFinite() && rs[0] > 0.0) {
        const double e = rel_residual(p, rs);
        if (e <= std::max(tolerance, error_floor(p, rs))) return finish(rs, e);
      }
    }
  }

  // (iii) Newton: warm start, then the normal-only guess with three penalty scales.
  Vec6 best = Vec6::Zero();
  double best_err = std::numeric_limits<double>::infinity();
  const auto consider = [&](const Vec6& r, double e) {
    if (e < best_err) {
      best_err = e;
      best = r;
    }
    return e <= std::max(tolerance, error_floor(p, r));
  };
  Vec6 guess = Vec6::Zero();
  guess[0] = p.w(0, 0) > 0.0 ? -p.q[0] / p.w(0, 0) : 0.0;
  if (r_warm.allFinite() && r_warm[0] > 0.0) {
    Vec6 r = r_warm;
    if (consider(r, newton(p, make_rho(p, 1.0), r, tolerance))) return finish(best, best_err);
  }
  for (const double scale : {1.0, 0.1, 10.0}) {
    Vec6 r = guess;
    if (consider(r, newton(p, make_rho(p, scale), r, tolerance))) return finish(best, best_err);
  }

  // (iv) Nested fixed point, polished by Newton.
  {
    Vec6 r = best_err < std::numeric_limits<double>::infinity() ? best : guess;
    const double e = nested(p, r, tolerance);
    if (consider(r, e)) return finish(best, best_err);
    if (std::isfinite(e)) {
      Vec6 rp = r;
      if (consider(rp, newton(p, make_rho(p, 1.0), rp, tolerance))) return finish(best, best_err);
    }
  }
  return finish(best, best_err);
}

}  // namespace coulomb
