/// @file
/// Proximal point with an inner semismooth Newton (equations in coulomb/nonsmooth/prox.hpp).

#include <coulomb/nonsmooth/alart_curnier.hpp>
#include <coulomb/nonsmooth/prox.hpp>

#include <Eigen/LU>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace coulomb {
namespace {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;

// Stacked Alart–Curnier function of FC(W̃, q̃, μ) and, if wanted, its Jacobian.
double stacked_function(const ContactProblem& p, const Matrix& wt, const Vector& qt,
                        const std::vector<AlartCurnierRho>& rho, const Vector& r, Vector& phi,
                        Matrix* jac) {
  const int nc = p.contact_count;
  const Vector u = wt * r + qt;
  if (jac != nullptr) jac->setZero(3 * nc, 3 * nc);
  for (int a = 0; a < nc; ++a) {
    Vec3 f;
    Mat3 jr, ju;
    alart_curnier_function(r.segment<3>(3 * a), u.segment<3>(3 * a), p.mu[a], rho[a], f,
                           jac != nullptr ? &jr : nullptr, jac != nullptr ? &ju : nullptr);
    phi.segment<3>(3 * a) = f;
    if (jac != nullptr) {
      // Row block a: ∂φ_a/∂r_a + ∂φ_a/∂u_a W̃_a· .
      jac->middleRows(3 * a, 3).noalias() = ju * wt.middleRows(3 * a, 3);
      jac->block<3, 3>(3 * a, 3 * a) += jr;
    }
  }
  return 0.5 * phi.squaredNorm();
}

double true_error(const ContactProblem& p, const Vector& r, std::vector<Vec3>& rv,
                  std::vector<Vec3>& u) {
  for (int a = 0; a < p.contact_count; ++a) rv[a] = r.segment<3>(3 * a);
  p.velocity(rv, u);
  return contact_error(p, rv, u);
}

}  // namespace

SolverResult solve_prox(const ContactProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                        const SolverOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const int nc = problem.contact_count;
  const int n = 3 * nc;
  if (static_cast<int>(r.size()) != nc) r.assign(static_cast<std::size_t>(nc), Vec3::Zero());
  u.resize(static_cast<std::size_t>(nc));
  SolverResult result;
  const auto finish = [&](SolverStatus s) {
    result.status = s;
    result.time_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };

  // Dense W, its mean diagonal (the scale of η), the iterate as one vector.
  const Matrix w = problem.dense_w();
  Vector qv(n), rk(n);
  for (int a = 0; a < nc; ++a) {
    qv.segment<3>(3 * a) = problem.q[a];
    rk.segment<3>(3 * a) = r[a];
  }
  const double scale = n > 0 ? std::max(w.diagonal().cwiseAbs().mean(), 1e-300) : 1.0;
  result.error = true_error(problem, rk, r, u);
  if (!std::isfinite(result.error)) return finish(SolverStatus::non_finite);
  if (result.error <= options.tolerance) return finish(SolverStatus::converged);

  double eta = scale;
  std::vector<AlartCurnierRho> rho(static_cast<std::size_t>(nc));
  Vector phi(n), phi_try(n), step(n), r_try(n);
  Matrix jac(n, n);
  Vector best_r = rk;
  double best_err = result.error;
  int newton = 0;
  while (newton < options.max_iterations) {
    // Regularised problem FC(W + η I, q − η r_k).
    Matrix wt = w;
    wt.diagonal().array() += eta;
    const Vector qt = qv - eta * rk;
    for (int a = 0; a < nc; ++a) rho[a] = alart_curnier_rho(wt.block<3, 3>(3 * a, 3 * a));
    // Inner semismooth Newton from r_k until ‖Φ‖ stops decreasing or is at round-off.
    Vector x = rk;
    double merit = stacked_function(problem, wt, qt, rho, x, phi, &jac);
    for (int it = 0; it < 30 && newton < options.max_iterations; ++it) {
      ++newton;
      step = jac.partialPivLu().solve(-phi);
      if (!step.allFinite()) break;
      double t = 1.0;
      bool accepted = false;
      double m_try = merit;
      while (t > 1e-10) {
        r_try = x + t * step;
        m_try = stacked_function(problem, wt, qt, rho, r_try, phi_try, nullptr);
        if (m_try <= (1.0 - 2e-4 * t) * merit) {
          accepted = true;
          break;
        }
        t *= 0.5;
      }
      if (!accepted) break;
      x = r_try;
      merit = stacked_function(problem, wt, qt, rho, x, phi, &jac);
      if (std::sqrt(2.0 * merit) <= 1e-15 * (1.0 + x.norm())) break;
    }
    // Outer step: accept the proximal iterate, adapt η.
    const double err = true_error(problem, x, r, u);
    if (!std::isfinite(err)) return finish(SolverStatus::non_finite);
    rk = x;
    if (err < best_err) {
      best_err = err;
      best_r = x;
      eta = std::max(eta / 10.0, 1e-10 * scale);
    } else {
      eta = std::min(eta * 10.0, scale);
    }
    if (err <= options.tolerance) break;
  }
  // Exit with the best iterate and its true error.
  result.iterations = newton;
  result.error = true_error(problem, best_r, r, u);
  return finish(result.error <= options.tolerance ? SolverStatus::converged
                                                  : SolverStatus::max_iterations);
}

SolverResult solve(const ContactProblem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                   const SolverOptions& options, SolverWorkspace& workspace, SolverKind kind) {
  switch (kind) {
    case SolverKind::nsgs:
      return solve_nsgs(problem, r, u, options, workspace);
    case SolverKind::prox:
      return solve_prox(problem, r, u, options);
    case SolverKind::automatic:
      break;
  }
  // NSGS first; PROX from its answer when it did not converge (a non-finite r restarts at 0).
  const SolverResult first = solve_nsgs(problem, r, u, options, workspace);
  if (first.status == SolverStatus::converged) return first;
  for (Vec3& x : r) {
    if (!x.allFinite()) x.setZero();
  }
  SolverResult second = solve_prox(problem, r, u, options);
  second.iterations += first.iterations;
  second.time_s += first.time_s;
  return second;
}

}  // namespace coulomb
