/// @file
/// Exact solution of the one-contact problem u = W r + q, K* ∋ û ⊥ r ∈ K (W 3×3 SPD).
///
/// Case analysis (De Saxcé & Feng 1991; Acary & Brogliato 2008, §13.3):
///  (0)   μ = +∞ (no slip, no_slip.hpp): closed r = −W⁻¹q when r_N > 0, else open r = 0 when
///        q_N >= 0, else no answer (reported);
///  (i)   take-off r = 0 whenever q_N >= 0: then û = q + [μ‖q_T‖, 0, 0] has û_N >= μ‖q_T‖, so
///        û ∈ K* and r·û = 0;
///  (ii)  μ = 0: r = (−q_N / W_NN, 0, 0) (frictionless, u_N = 0);
///  (iii) stick r = −W⁻¹ q when it lies in K (then u = 0, û = 0);
///  (iv)  slide: ‖r_T‖ = μ r_N, u_N = 0, r_T = −μ r_N u_T / ‖u_T‖. Solved by a damped Newton
///        method on the Alart–Curnier function (Armijo line search on ½‖φ‖²); when it does not
///        reach the tolerance, by a scan and bisection on the slip angle θ with
///        r = r_N (1, μ cos θ, μ sin θ), r_N = −q_N / (W_N · (1, μ cos θ, μ sin θ)) and the
///        condition u_T(θ) ∥ −(cos θ, sin θ). The better of the two answers is kept.
/// The tolerance applies to ‖r − P_K(r − û)‖ / ‖q‖ (contact_error of the one-contact problem),
/// floored at the round-off level of that quantity, 8 ε (‖r‖ (1 + 3 max|W_ij|) + ‖q‖) / ‖q‖: the
/// measure mixes impulses and velocities, so with W ~ 1e-12 (r ~ 1e12 q) no solver gets below
/// ~1e-4 although r is exact to 1e-16 relative.
/// Nothing here allocates: all arrays are fixed-size.

#include <coulomb/nonsmooth/alart_curnier.hpp>
#include <coulomb/nonsmooth/no_slip.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace coulomb {
namespace {

constexpr int kNewtonIterations = 40;
constexpr int kAngleSamples = 96;
constexpr int kBisections = 80;

// Round-off level of the relative error at r: the error compares impulses with velocities, so
// its evaluation carries ~ε (‖r‖ + ‖W‖ ‖r‖ + ‖q‖) / ‖q‖ whatever the solver does.
double error_floor(double wn, const Vec3& r, double qn) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  return 8.0 * kEps * (r.norm() * (1.0 + 3.0 * wn) + qn) / qn;
}
double error_floor(const Block3& w, const Vec3& r, double qn) {
  return error_floor(w.cwiseAbs().maxCoeff(), r, qn);
}

// Damped Newton on the Alart–Curnier function from the start r; returns the final residual.
double newton_alart_curnier(const Block3& w, const Vec3& q, double mu, Vec3& r, double qn,
                            double tolerance) {
  // Whether r meets the tolerance (or its round-off floor): tested once per iterate. A start that
  // already does (the last sweep's answer of a sliding contact: 13 % of the slides on a moving
  // pile's final problems) returns before any work on φ.
  const double wn = w.cwiseAbs().maxCoeff();
  const auto met = [&](double e) { return !(e > std::max(tolerance, error_floor(wn, r, qn))); };
  double err = single_contact_residual(w, q, mu, r) / qn;
  if (met(err)) return err;
  const AlartCurnierRho rho = alart_curnier_rho(w);
  const Mat3 wm = w;
  Vec3 phi;
  Mat3 jr;
  Mat3 ju;
  Vec3 u = wm * r + q;
  alart_curnier_function(r, u, mu, rho, phi, &jr, &ju);
  double merit = 0.5 * phi.squaredNorm();
  for (int it = 0; it < kNewtonIterations; ++it) {
    // Newton direction from the generalised Jacobian J = dφ/dr + dφ/du W.
    // A 3×3 system: the cofactor inverse is exact enough (checked) and far cheaper than a
    // pivoted QR; a singular generalised Jacobian falls back to QR's least-squares step.
    const Mat3 jac = jr + ju * wm;
    Mat3 jac_inv;
    bool invertible = false;
    double det = 0.0;
    jac.computeInverseAndDetWithCheck(
        jac_inv, det, invertible,
        1e-14 * jac.cwiseAbs().maxCoeff() * jac.cwiseAbs().maxCoeff() * jac.cwiseAbs().maxCoeff());
    const Vec3 step =
        invertible ? Vec3(-(jac_inv * phi)) : Vec3(jac.colPivHouseholderQr().solve(-phi));
    if (!step.allFinite()) break;
    // The full step is taken without the line search's evaluation when it meets the tolerance
    // (the answer is then r + step either way but where the search would shorten a step that
    // already meets it): the one iteration almost every slide of a sweep takes.
    {
      const Vec3 r_full = r + step;
      const double e_full = single_contact_residual(w, q, mu, r_full) / qn;
      if (!(e_full > std::max(tolerance, error_floor(wn, r_full, qn)))) {
        r = r_full;
        err = e_full;
        break;
      }
    }
    // Armijo backtracking on ½‖φ‖² (sufficient decrease 1e-4 of the Gauss–Newton model).
    double t = 1.0;
    bool accepted = false;
    Vec3 r_try;
    Vec3 phi_try;
    while (t > 1e-12) {
      r_try = r + t * step;
      u = wm * r_try + q;
      alart_curnier_function(r_try, u, mu, rho, phi_try, nullptr, nullptr);
      const double m_try = 0.5 * phi_try.squaredNorm();
      if (m_try <= (1.0 - 2e-4 * t) * merit) {
        accepted = true;
        break;
      }
      t *= 0.5;
    }
    if (!accepted) break;
    r = r_try;
    err = single_contact_residual(w, q, mu, r) / qn;
    // φ's Jacobians only for a next iteration.
    if (met(err)) break;
    alart_curnier_function(r, u, mu, rho, phi, &jr, &ju);
    merit = 0.5 * phi.squaredNorm();
  }
  return err;
}

// Slip-angle parametrisation of the sliding case, d(θ) = (1, μ cos θ, μ sin θ), r = r_N d with
// r_N = −q_N / (W_N · d). The root function is g̃(θ) = (W_N · d) · ((cos θ, sin θ) × u_T(θ)):
// the cross product scaled by W_N · d so that it stays finite where r_N → ∞ (W_N · d → 0+),
// which is where strongly coupled blocks with large μ have their solution.
struct AngleEval {
  bool valid = false;  // W_N · d(θ) > 0, so that r_N > 0
  double g = 0.0;      // g̃(θ), zero when u_T is parallel to the slip direction
  Vec3 r = Vec3::Zero();
};

AngleEval eval_angle(const Block3& w, const Vec3& q, double mu, double theta) {
  AngleEval e;
  const double c = std::cos(theta);
  const double s = std::sin(theta);
  const Vec3 d(1.0, mu * c, mu * s);
  const double a = w.row(0).dot(d);
  // den · u_T = −q_N W_T d + den q_T (finite for every θ).
  const double v1 = -q[0] * w.row(1).dot(d) + a * q[1];
  const double v2 = -q[0] * w.row(2).dot(d) + a * q[2];
  e.g = c * v2 - s * v1;
  e.valid = a > 0.0;
  if (e.valid) e.r = (-q[0] / a) * d;
  return e;
}

// Scan of θ ∈ [0, 2π) and bisection on each sign change of g̃; keeps the lowest residual among
// the roots with r_N > 0 (the residual rejects roots where u_T points along the friction).
double angle_search(const Block3& w, const Vec3& q, double mu, Vec3& best_r, double qn) {
  double best = std::numeric_limits<double>::infinity();
  const double h = 2.0 * kPi / kAngleSamples;
  AngleEval prev = eval_angle(w, q, mu, 0.0);
  for (int k = 1; k <= kAngleSamples; ++k) {
    const double th1 = k * h;
    const AngleEval cur = eval_angle(w, q, mu, th1);
    if (prev.g == 0.0 || (prev.g < 0.0) != (cur.g < 0.0)) {
      // Bisection down to round-off on [θ0, θ1].
      double lo = th1 - h;
      double hi = th1;
      const bool lo_negative = prev.g < 0.0;
      for (int b = 0; b < kBisections; ++b) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        const AngleEval m = eval_angle(w, q, mu, mid);
        if (m.g != 0.0 && (m.g < 0.0) == lo_negative) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      // Both ends of the final bracket are candidates.
      for (const double th : {lo, hi}) {
        const AngleEval m = eval_angle(w, q, mu, th);
        if (!m.valid) continue;
        const double e = single_contact_residual(w, q, mu, m.r) / qn;
        if (e < best) {
          best = e;
          best_r = m.r;
        }
      }
    }
    prev = cur;
  }
  return best;
}

// The solve, with the stick branch's r = −W⁻¹q from `stick_impulse(rs)` (false: W singular or
// rs not finite).
template <class StickImpulse>
bool solve(const Block3& w, const Vec3& q, double mu, Vec3& r, double tolerance,
           const StickImpulse& stick_impulse) {
  // Non-finite input: no answer.
  if (!w.allFinite() || !q.allFinite() || std::isnan(mu) || mu < 0.0) {
    r.setConstant(std::numeric_limits<double>::quiet_NaN());
    return false;
  }
  // μ = +∞: no slip, closed or open in closed form (no_slip.hpp), checked like every answer.
  if (is_no_slip(mu)) {
    const double qn = q.norm();
    if (!(qn > 0.0)) {
      r.setZero();
      return true;
    }
    const bool solved = solve_no_slip_block(w, q, r);
    return solved &&
           single_contact_residual(w, q, mu, r) / qn <= std::max(tolerance, error_floor(w, r, qn));
  }
  // (i) Take-off.
  if (q[0] >= 0.0) {
    r.setZero();
    return true;
  }
  const double qn = q.norm();
  // (ii) Frictionless: only the normal equation u_N = 0.
  if (mu == 0.0) {
    r = Vec3(w(0, 0) > 0.0 ? -q[0] / w(0, 0) : 0.0, 0.0, 0.0);
    return w(0, 0) > 0.0 &&
           single_contact_residual(w, q, mu, r) / qn <= std::max(tolerance, error_floor(w, r, qn));
  }
  // (iii) Stick, when W is invertible and −W⁻¹q lies in the cone.
  Vec3 rs;
  if (stick_impulse(rs) && norm2d(rs[1], rs[2]) <= mu * rs[0]) {
    r = rs;
    // u = W r + q is round-off here, and with r in K the error ‖r − P_K(r − û)‖ =
    // ‖P_K(r) − P_K(r − û)‖ is at most ‖û‖ <= (1 + μ)‖u‖ (P_K is non-expansive): when that bound
    // meets the tolerance (compared squared: no root) the error itself is not needed (59 % of the
    // local solves on a moving pile stick).
    const Vec3 u = w * r + q;
    const double bound = (1.0 + mu) * (1.0 + mu) * u.squaredNorm();
    const double limit = tolerance * qn;
    if (bound <= limit * limit) return true;
    if (single_contact_residual_at(mu, r, u) / qn <= tolerance) return true;
  }
  // (iv) Slide: Newton from the warm start if it is pressed, else from the normal-only guess.
  Vec3 r_newton = r;
  if (!r_newton.allFinite() || !(r_newton[0] > 0.0)) {
    r_newton = Vec3(w(0, 0) > 0.0 ? -q[0] / w(0, 0) : 0.0, 0.0, 0.0);
  }
  const double e_newton = newton_alart_curnier(w, q, mu, r_newton, qn, tolerance);
  if (e_newton <= std::max(tolerance, error_floor(w, r_newton, qn))) {
    r = r_newton;
    return true;
  }
  // Fallback: slip-angle search polished by Newton; keep the better of the two answers.
  Vec3 r_angle = Vec3::Zero();
  double e_angle = angle_search(w, q, mu, r_angle, qn);
  if (std::isfinite(e_angle)) {
    Vec3 r_polish = r_angle;
    const double e_polish = newton_alart_curnier(w, q, mu, r_polish, qn, tolerance);
    if (e_polish < e_angle) {
      r_angle = r_polish;
      e_angle = e_polish;
    }
  }
  const bool angle_better = e_angle < e_newton || !std::isfinite(e_newton);
  r = angle_better ? r_angle : r_newton;
  const double e = angle_better ? e_angle : e_newton;
  return e <= std::max(tolerance, error_floor(w, r, qn));
}

}  // namespace

bool solve_single_contact(const Block3& w, const Vec3& q, double mu, Vec3& r, double tolerance) {
  return solve(w, q, mu, r, tolerance, [&](Vec3& rs) { return stopping_impulse(w, q, rs); });
}

bool solve_single_contact(const Block3& w, const Vec3& q, double mu, Vec3& r, double tolerance,
                          BlockInverse& cache, std::uint32_t stamp) {
  return solve(w, q, mu, r, tolerance, [&](Vec3& rs) {
    // stopping_impulse's inverse, computed once per solve (the same bits).
    if (cache.stamp != stamp) {
      cache.invertible = invert_block(w, cache.inverse);
      cache.stamp = stamp;
    }
    if (!cache.invertible) return false;
    rs = -cache.inverse * q;
    return rs.allFinite();
  });
}

}  // namespace coulomb
