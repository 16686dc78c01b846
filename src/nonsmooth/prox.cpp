/// @file
/// Proximal point with an inner semismooth Newton, sparse (equations in
/// coulomb/nonsmooth/prox.hpp).
///
/// Data layout: the Newton matrix J = ∂Φ/∂r + ∂Φ/∂u (W + η I) has the block pattern of W (the
/// per-contact derivatives are block diagonal), so its compressed-column pattern is built once
/// per solve, every 3×3 block keeps the positions of its 9 entries in the value array, and each
/// Newton iteration only rewrites values and refactorises with the analysed pattern
/// (Eigen::SparseLU, COLAMD ordering). This solver allocates (once per call).

#include <coulomb/nonsmooth/alart_curnier.hpp>
#include <coulomb/nonsmooth/prox.hpp>

#include "nsgs_loop.hpp"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace coulomb {
namespace {

// σ of the proximal parameter rule η = σ · error · scale (scale: mean diagonal of W).
constexpr double kEtaSigma = 5.0;
// Bounds of η relative to the scale: at least 1e-10 keeps W + ηI invertible on redundant contact
// sets, at most 1e4 (an outer step that made no progress multiplies η by 10).
constexpr double kEtaMin = 1e-10;
constexpr double kEtaMax = 1e4;
// Newton iterations per proximal step.
constexpr int kInnerIterations = 25;
// A Newton step shorter than this (after the line search) is followed by a Gauss–Seidel sweep.
constexpr double kShortStep = 0.1;

using SpMat = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

// The sparse Newton matrix with the positions of every block entry in its value array.
struct NewtonMatrix {
  SpMat jac;
  std::vector<int> pos;  // (9 nnzb) value index of entry (r, c) of block k at 9k + 3r + c
};

NewtonMatrix build_pattern(const ForceProblem& p) {
  const int nc = p.contact_count;
  std::vector<Eigen::Triplet<double, int>> trip;
  trip.reserve(p.blocks.size() * 9);
  for (int i = 0; i < nc; ++i) {
    for (std::int32_t k = p.row_start[i]; k < p.row_start[i + 1]; ++k) {
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) trip.emplace_back(3 * i + a, 3 * p.col[k] + b, 1.0);
      }
    }
  }
  NewtonMatrix m;
  m.jac.resize(3 * nc, 3 * nc);
  m.jac.setFromTriplets(trip.begin(), trip.end());
  m.jac.makeCompressed();
  // Locate each entry in its column (rows are sorted within a column).
  m.pos.resize(p.blocks.size() * 9);
  const int* outer = m.jac.outerIndexPtr();
  const int* inner = m.jac.innerIndexPtr();
  for (int i = 0; i < nc; ++i) {
    for (std::int32_t k = p.row_start[i]; k < p.row_start[i + 1]; ++k) {
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
          const int c = 3 * p.col[k] + b;
          const int* it = std::lower_bound(inner + outer[c], inner + outer[c + 1], 3 * i + a);
          m.pos[9 * static_cast<std::size_t>(k) + 3 * a + b] = static_cast<int>(it - inner);
        }
      }
    }
  }
  return m;
}

// The regularised problem FC(W + ηI, q − η r_k): its velocity ũ = W x + q + η (x − r_k).
void regularised_velocity(const ForceProblem& p, double eta, const std::vector<Vec3>& rk,
                          const std::vector<Vec3>& x, std::vector<Vec3>& u) {
  p.velocity(x, u);
  for (int a = 0; a < p.contact_count; ++a) u[a] += eta * (x[a] - rk[a]);
}

// Stacked Alart–Curnier function Φ(x) of the regularised problem; ½‖Φ‖² is returned.
double stacked_function(const ForceProblem& p, const std::vector<AlartCurnierRho>& rho,
                        const std::vector<Vec3>& x, const std::vector<Vec3>& u,
                        Eigen::VectorXd& phi) {
  for (int a = 0; a < p.contact_count; ++a) {
    Vec3 f;
    alart_curnier_function(x[a], u[a], p.laws[a], rho[a], f, nullptr, nullptr);
    phi.segment<3>(3 * a) = f;
  }
  return 0.5 * phi.squaredNorm();
}

// Newton matrix J = ∂Φ/∂r + ∂Φ/∂u (W + ηI), written block by block into the fixed pattern.
void assemble_jacobian(const ForceProblem& p, const std::vector<AlartCurnierRho>& rho, double eta,
                       const std::vector<Vec3>& x, const std::vector<Vec3>& u, NewtonMatrix& m) {
  double* values = m.jac.valuePtr();
  for (int a = 0; a < p.contact_count; ++a) {
    Vec3 f;
    Mat3 jr;
    Mat3 ju;
    alart_curnier_function(x[a], u[a], p.laws[a], rho[a], f, &jr, &ju);
    for (std::int32_t k = p.row_start[a]; k < p.row_start[a + 1]; ++k) {
      Mat3 block = ju * p.blocks[k];
      if (k == p.diag[a]) block += jr + eta * ju;
      const int* pos = &m.pos[9 * static_cast<std::size_t>(k)];
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) values[pos[3 * i + j]] = block(i, j);
      }
    }
  }
}

// One block Gauss–Seidel sweep with exact local solves on FC(W + ηI, q − η r_k).
void gauss_seidel_sweep(const ForceProblem& p, double eta, const std::vector<Vec3>& rk,
                        std::vector<Vec3>& x, double local_tolerance) {
  for (int a = 0; a < p.contact_count; ++a) {
    Vec3 qt = p.q[a] - eta * rk[a];
    const std::int32_t d = p.diag[a];
    for (std::int32_t k = p.row_start[a]; k < p.row_start[a + 1]; ++k) {
      if (k != d) qt.noalias() += p.blocks[k] * x[p.col[k]];
    }
    Block3 wd = p.blocks[d];
    wd.diagonal().array() += eta;
    solve_single_contact(wd, qt, p.laws[a], x[a], local_tolerance);
  }
}

}  // namespace

SolverResult solve_prox(const ForceProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                        const SolverOptions& options) {
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

  // Start: the warm start, or r = 0 when the warm start's error is above kWarmStartFactor times
  // that of r = 0 (detail::choose_start). This is what keeps PROX
  // out of the trap measured on a touching row of balls with restitution 1: the step after the
  // impact kept the impact impulses as warm start for contacts whose q is round-off (~1e-14), a
  // start of relative error ~1e14; η = σ e_k s then sat at its cap 1e4 s, each proximal step moved
  // r by ~1e-4 of the way, and the cap ended PROX next to the warm start: the step applied the
  // impact impulses twice (kinetic energy ×3.4). From r = 0 (error <= 1 + μ) it converges.
  std::vector<Vec3> zero;
  const auto error_fn = [](const ForceProblem& p, const std::vector<Vec3>& rr,
                           const std::vector<Vec3>& uu) { return contact_error(p, rr, uu); };
  detail::choose_start(problem, r, u, zero, error_fn, result);
  if (!std::isfinite(result.error)) return finish(SolverStatus::non_finite);
  if (result.error <= options.tolerance) return finish(SolverStatus::converged);

  // Scale of η: the mean |diagonal| of W.
  double scale = 0.0;
  for (int a = 0; a < nc; ++a) scale += problem.blocks[problem.diag[a]].diagonal().cwiseAbs().sum();
  scale = scale > 0.0 ? scale / (3.0 * nc) : 1.0;

  // Sparse Newton matrix: pattern and ordering analysed once.
  NewtonMatrix m = build_pattern(problem);
  Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu;
  lu.analyzePattern(m.jac);

  std::vector<AlartCurnierRho> rho(n);
  std::vector<Vec3> rk = r, x = r, x_try(n), u_reg(n), u_try(n), best_r = r;
  Eigen::VectorXd phi(3 * nc), phi_try(3 * nc), step(3 * nc);
  double best_err = result.error;
  double err = result.error;
  double last_err = result.error;  // error of the last outer iterate (before any restart)
  double eta = std::clamp(kEtaSigma * err, kEtaMin, kEtaMax) * scale;
  SolverStatus status = SolverStatus::max_iterations;
  int newton = 0;
  while (newton < options.max_iterations && status == SolverStatus::max_iterations) {
    // Regularised problem FC(W + ηI, q − η r_k): ρ from its diagonal blocks.
    for (int a = 0; a < nc; ++a) {
      Block3 wd = problem.blocks[problem.diag[a]];
      wd.diagonal().array() += eta;
      rho[a] = alart_curnier_rho(wd);
    }
    // Inner semismooth Newton from r_k, until the regularised error is a tenth of the outer one
    // (or the tolerance), the line search fails, or the iteration budget is spent.
    const double inner_target = std::max(0.1 * err * std::min(1.0, err), 0.1 * options.tolerance);
    x = rk;
    regularised_velocity(problem, eta, rk, x, u_reg);
    double merit = stacked_function(problem, rho, x, u_reg, phi);
    for (int it = 0; it < kInnerIterations && newton < options.max_iterations; ++it) {
      if (contact_error(problem, x, u_reg) <= inner_target) break;
      if (elapsed() > options.max_time_s) {
        status = SolverStatus::max_time;
        break;
      }
      ++newton;
      // Newton direction: J step = −Φ.
      assemble_jacobian(problem, rho, eta, x, u_reg, m);
      lu.factorize(m.jac);
      if (lu.info() != Eigen::Success) break;  // singular: η grows below
      step = lu.solve(-phi);
      if (!step.allFinite()) break;
      // Armijo backtracking on ½‖Φ‖².
      double t = 1.0;
      bool accepted = false;
      while (t > 1e-10) {
        for (int a = 0; a < nc; ++a) x_try[a] = x[a] + t * step.segment<3>(3 * a);
        regularised_velocity(problem, eta, rk, x_try, u_try);
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
        std::swap(u_reg, u_try);
        std::swap(phi, phi_try);
      }
      // A short or failed step means Newton sits at a kink of Φ (a contact between two
      // branches): one Gauss–Seidel sweep with the exact local solves moves the iterate to the
      // right branches, then Newton resumes.
      if (t < kShortStep) {
        gauss_seidel_sweep(problem, eta, rk, x, options.local_tolerance);
        regularised_velocity(problem, eta, rk, x, u_reg);
        merit = stacked_function(problem, rho, x, u_reg, phi);
      }
    }
    // Outer step: the proximal iterate, its true error; η follows the error (or grows by 10
    // after a step that did not improve on the best iterate).
    problem.velocity(x, u);
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
  problem.velocity(r, u);
  result.iterations = newton;
  result.error = contact_error(problem, r, u);
  if (status != SolverStatus::non_finite && status != SolverStatus::diverged) {
    status = result.error <= options.tolerance   ? SolverStatus::converged
             : status == SolverStatus::converged ? SolverStatus::max_iterations
                                                 : status;
  }
  return finish(status);
}

}  // namespace coulomb
