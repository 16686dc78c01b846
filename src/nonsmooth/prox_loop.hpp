#pragma once
// The PROX algorithm (coulomb/nonsmooth/prox.hpp), written once for both forms of the force
// problem: the proximal outer loop, the inner damped semismooth Newton on the stacked
// Alart–Curnier function, the rules for η, the short-step Gauss–Seidel sweep and the stops. What
// differs between the forms is the Newton system, given by a `System` (prox.cpp: contact space,
// the block pattern of W; prox_body.cpp: body space, M + Jᵀ D J):
//
//   system.sweep()                         the AssembledSweep/FactoredSweep of the problem (u = W r
//                                           + q, the diagonal blocks, one sweep with exact local
//                                           solves on FC(W + ηI, q − η r_k))
//   system.prepare()                       pattern and ordering, once per call
//   system.direction(η, ρ, x, ũ, Φ, Δx, Δu) → false when singular: the Newton direction of
//                                           Φ(x, ũ(x)) = 0 with ũ = W x + q + η (x − r_k), i.e.
//                                           (∂Φ/∂r + ∂Φ/∂u (W + ηI)) Δx = −Φ, and Δu = W Δx

#include <coulomb/nonsmooth/alart_curnier.hpp>
#include <coulomb/nonsmooth/prox.hpp>

#include "nsgs_loop.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace coulomb::detail {

// σ of the proximal parameter rule η = σ · error · scale (scale: mean diagonal of W).
inline constexpr double kEtaSigma = 5.0;
// Bounds of η relative to the scale: at least 1e-10 keeps W + ηI invertible on redundant contact
// sets, at most 1e4 (an outer step that made no progress multiplies η by 10).
inline constexpr double kEtaMin = 1e-10;
inline constexpr double kEtaMax = 1e4;
// Newton iterations per proximal step.
inline constexpr int kInnerIterations = 25;
// A Newton step shorter than this (after the line search) is followed by a Gauss–Seidel sweep.
inline constexpr double kShortStep = 0.1;

// Stacked Alart–Curnier function Φ(x) of the regularised problem; ½‖Φ‖² is returned.
template <class Problem>
double stacked_function(const Problem& p, const std::vector<AlartCurnierRho>& rho,
                        const std::vector<Vec3>& x, const std::vector<Vec3>& u,
                        Eigen::VectorXd& phi) {
  for (int a = 0; a < p.contact_count; ++a) {
    Vec3 f;
    if (const auto* joint = joint_of(p, a))
      joint_alart_curnier(x[a], u[a], *joint, rho[a].n, f, nullptr, nullptr);
    else
      alart_curnier_function(x[a], u[a], p.laws[a], rho[a], f, nullptr, nullptr);
    phi.segment<3>(3 * a) = f;
  }
  return 0.5 * phi.squaredNorm();
}

template <class Problem, class System>
SolverResult prox(const Problem& problem, System& system, std::vector<Vec3>& r,
                  std::vector<Vec3>& u, const SolverOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const int nc = problem.contact_count;
  const auto n = static_cast<std::size_t>(nc);
  if (r.size() != n) r.assign(n, Vec3::Zero());
  u.resize(n);
  SolverResult result;
  result.method = "prox";
  const auto finish = [&](SolverStatus s) {
    result.status = s;
    result.time_s = elapsed();
    return result;
  };
  const auto& sweep = system.sweep();

  // Start: the warm start, or r = 0 when the warm start's error is above kWarmStartFactor times
  // that of r = 0 (choose_start). This is what keeps PROX out of the trap measured on a touching
  // row of balls with restitution 1: the step after the impact kept the impact impulses as warm
  // start for contacts whose q is round-off (~1e-14), a start of relative error ~1e14; η = σ e_k s
  // then sat at its cap 1e4 s, each proximal step moved r by ~1e-4 of the way, and the cap ended
  // PROX next to the warm start: the step applied the impact impulses twice (kinetic energy
  // ×3.4). From r = 0 (error <= 1 + μ) it converges.
  std::vector<Vec3> zero;
  const auto error_fn = [&](const std::vector<Vec3>& rr, const std::vector<Vec3>& uu) {
    return contact_error(problem, rr, uu);
  };
  choose_start(sweep, r, u, zero, error_fn, options.tolerance, result);
  if (!std::isfinite(result.error)) return finish(SolverStatus::non_finite);
  if (result.error <= options.tolerance) return finish(SolverStatus::converged);

  // Scale of η: the mean |diagonal| of W.
  double scale = 0.0;
  for (int a = 0; a < nc; ++a) scale += sweep.diagonal_block(a).diagonal().cwiseAbs().sum();
  scale = scale > 0.0 ? scale / (3.0 * nc) : 1.0;

  // Sparse Newton matrix: pattern and ordering analysed once.
  system.prepare();

  const auto local_solve = [&](const Block3& w, const Vec3& q, int a, Vec3& ra) {
    if (const auto* joint = joint_of(problem, a)) return solve_joint_block<3>(w, q, *joint, ra);
    return solve_single_contact(w, q, problem.laws[a], ra, options.local_tolerance);
  };
  std::vector<AlartCurnierRho> rho(n);
  std::vector<Vec3> rk = r, x = r, x_try(n), u_reg(n), u_try(n), dx(n), du(n), best_r = r;
  Eigen::VectorXd phi(3 * nc), phi_try(3 * nc);
  double best_err = result.error;
  double err = result.error;
  double last_err = result.error;  // error of the last outer iterate (before any restart)
  double eta = std::clamp(kEtaSigma * err, kEtaMin, kEtaMax) * scale;
  SolverStatus status = SolverStatus::max_iterations;
  int newton = 0;
  double work = 0.0;      // estimated cost of the Newton iterations, in sweeps (options.max_work)
  bool too_dear = false;  // an iteration costs more than options.max_iteration_work
  // The regularised problem's velocity ũ = W x + q + η (x − r_k).
  const auto regularised_velocity = [&](const std::vector<Vec3>& xx, std::vector<Vec3>& uu) {
    sweep.velocity(xx, uu);
    for (int a = 0; a < nc; ++a) uu[a] += eta * (xx[a] - rk[a]);
  };
  while (newton < options.max_iterations && work < options.max_work && !too_dear &&
         status == SolverStatus::max_iterations) {
    // Regularised problem FC(W + ηI, q − η r_k): ρ from its diagonal blocks.
    for (int a = 0; a < nc; ++a) {
      Block3 wd = sweep.diagonal_block(a);
      wd.diagonal().array() += eta;
      rho[a] = alart_curnier_rho(wd);
    }
    // Inner semismooth Newton from r_k, until the regularised error is a tenth of the outer one
    // (or the tolerance), the line search fails, or the iteration budget is spent.
    const double inner_target = std::max(0.1 * err * std::min(1.0, err), 0.1 * options.tolerance);
    x = rk;
    regularised_velocity(x, u_reg);
    double merit = stacked_function(problem, rho, x, u_reg, phi);
    for (int it = 0;
         it < kInnerIterations && newton < options.max_iterations && work < options.max_work;
         ++it) {
      if (contact_error(problem, x, u_reg) <= inner_target) break;
      if (elapsed() > options.max_time_s) {
        status = SolverStatus::max_time;
        break;
      }
      ++newton;
      // A contact graph whose structure alone puts an iteration above the limit (a 3-D heap):
      // refused as too dear without the factorisation.
      if (system.estimated_work() > options.max_iteration_work) {
        work += system.estimated_work();
        too_dear = true;
        result.refused_by_structure = true;
        break;
      }
      // Newton direction: (∂Φ/∂r + ∂Φ/∂u (W + ηI)) Δx = −Φ, and Δu = W Δx.
      if (!system.direction(eta, rho, x, u_reg, phi, dx, du)) break;  // singular: η grows below
      work += system.iteration_work();
      if (system.iteration_work() > options.max_iteration_work) {
        too_dear = true;  // Newton is too dear on this problem: the best iterate so far stands
        break;
      }
      // Armijo backtracking on ½‖Φ‖² (ũ is linear in x: ũ(x + tΔx) = ũ + t (Δu + η Δx)).
      double t = 1.0;
      bool accepted = false;
      while (t > 1e-10) {
        for (int a = 0; a < nc; ++a) {
          x_try[a] = x[a] + t * dx[a];
          u_try[a] = u_reg[a] + t * (du[a] + eta * dx[a]);
        }
        const double m_try = stacked_function(problem, rho, x_try, u_try, phi_try);
        if (m_try <= (1.0 - 2e-4 * t) * merit) {
          accepted = true;
          merit = m_try;
          break;
        }
        t *= 0.5;
      }
      if (accepted) {
        std::swap(x, x_try);
        std::swap(phi, phi_try);
        // The velocity of the accepted iterate, recomputed (no drift of the linear updates).
        regularised_velocity(x, u_reg);
      }
      // A short or failed step means Newton sits at a kink of Φ (a contact between two
      // branches): one Gauss–Seidel sweep with the exact local solves moves the iterate to the
      // right branches, then Newton resumes.
      if (t < kShortStep) {
        sweep.regularised_sweep(eta, rk, x, local_solve);
        regularised_velocity(x, u_reg);
        merit = stacked_function(problem, rho, x, u_reg, phi);
      }
    }
    // Outer step: the proximal iterate, its true error; η follows the error (or grows by 10
    // after a step that did not improve on the best iterate).
    sweep.velocity(x, u);
    err = contact_error(problem, x, u);
    last_err = err;
    if (!std::isfinite(err)) {
      status = SolverStatus::non_finite;
      break;
    }
    // Divergence: orders of magnitude above the start; stop and keep the best iterate.
    if (err > kDivergenceFactor * result.start_error) {
      status = SolverStatus::diverged;
      break;
    }
    if (err < best_err) {
      best_err = err;
      best_r = x;
      rk = x;
      eta = std::clamp(kEtaSigma * err, kEtaMin, kEtaMax) * scale;
    } else {
      // No progress (or a singular Newton matrix): restart from the best iterate with a
      // stronger regularisation; with η already at its cap the next steps would barely move
      // (by ~s/η = 1e-4 of the way): stalled.
      if (eta >= kEtaMax * scale) {
        status = SolverStatus::stalled;
        break;
      }
      rk = best_r;
      err = best_err;
      eta = std::min(10.0 * eta, kEtaMax * scale);
    }
    if (best_err <= options.tolerance) status = SolverStatus::converged;
    if (status == SolverStatus::max_iterations && elapsed() > options.max_time_s) {
      status = SolverStatus::max_time;
    }
  }
  // Exit with the best iterate and its true error; a last iterate that was non-finite or worse
  // than the start is reported as a fall-back.
  result.fell_back = !std::isfinite(last_err) || last_err > result.start_error;
  r = best_r;
  sweep.velocity(r, u);
  result.iterations = newton;
  result.work = work;
  result.error = contact_error(problem, r, u);
  if (status != SolverStatus::non_finite && status != SolverStatus::diverged) {
    status = result.error <= options.tolerance   ? SolverStatus::converged
             : status == SolverStatus::converged ? SolverStatus::max_iterations
                                                 : status;
  }
  return finish(status);
}

}  // namespace coulomb::detail
