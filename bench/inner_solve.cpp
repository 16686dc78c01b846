// PROX with a matrix-free Krylov Newton direction, measured against the solvers the step uses
// (issue 12: "a Newton/PROX path that scales: ... or an iterative inner solve — measured on
// 10³–10⁵ contacts"; docs/benchmarks.md, sixteenth wave, has the figures and the commands).
//
// Steps a scene of bench/scenes.hpp to a given step, takes that step's final contact problem
// (what the step solved last; W assembled from its factored form) and solves it from r = 0 with
//   nsgs     NSGS with the step's options: Anderson depth 5, the drift jump, the error every
//            20 sweeps at most (src/nonsmooth/nsgs.cpp);
//   prox     PROX on the factored problem, its Newton systems by the body-space block LU
//            (src/nonsmooth/prox_body.cpp), with no limit on an iteration's cost;
//   krylov   the same PROX loop (src/nonsmooth/prox_loop.hpp: proximal steps, damped semismooth
//            Newton on the stacked Alart–Curnier function, Armijo search, Gauss–Seidel sweep after
//            a short step) with the direction of (∂Φ/∂r + ∂Φ/∂u (W + ηI)) Δx = −Φ by restarted
//            GMRES(m) (Saad & Schultz 1986), right-preconditioned by the inverses of the 3×3
//            diagonal blocks of that matrix, W applied block by block (never factorised): the
//            memory of the problem itself, where a factorisation's fill grows faster than the
//            contacts on a 3-D contact graph.
//   apgd     accelerated projected gradient on the natural map with De Saxcé's correction (as
//            Chrono's APGD, Mazhar et al. 2015, on the exact cone; for μ = 0 FISTA on the convex
//            QP), one product a step, --max-sweeps steps at most.
// `--mu` solves the same problem again with every contact's μ replaced (what makes a heap hard);
// `--statuses N` traces plain sweeps instead (status changes, the statuses' counts, the step).
// One row per solve: solver, μ, status, error, iterations (sweeps; Newton iterations), products
// of W with a vector (a sweep counts one), seconds. Timings are this machine's; the figures to
// compare are the iterations and products.
#include <coulomb/nonsmooth/alart_curnier.hpp>
#include <coulomb/nonsmooth/prox.hpp>
#include <coulomb/nonsmooth/solver.hpp>
#include <coulomb/world/world.hpp>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <Eigen/Core>
#include <Eigen/LU>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "nonsmooth/prox_loop.hpp"
#include "scenes.hpp"

namespace {

using namespace coulomb;

struct Gmres {
  int restart = 30;       // Krylov vectors before a restart
  int max_products = 60;  // products of the Newton matrix a direction, at most
  double tolerance = 1e-2;  // relative residual ‖b − A s‖ ≤ tolerance ‖b‖ (an inexact Newton)
};

// The Newton system of PROX (prox_loop.hpp's System) solved by GMRES, matrix-free.
class KrylovSystem {
 public:
  KrylovSystem(const ForceProblem& p, const Gmres& gmres) : p_(p), sweep_(p), gmres_(gmres) {}
  [[nodiscard]] const detail::AssembledSweep<kForce>& sweep() const { return sweep_; }
  void prepare() {
    const auto nc = static_cast<std::size_t>(p_.contact_count);
    const auto n = static_cast<Eigen::Index>(3 * nc);
    jr_.resize(nc);
    ju_.resize(nc);
    block_inverse_.resize(nc);
    v_.resize(n, gmres_.restart + 1);
    z_.resize(n, gmres_.restart);
  }
  // No cost limit applies (SolverOptions::max_iteration_work is infinite here).
  [[nodiscard]] static double iteration_work() { return 0.0; }
  [[nodiscard]] static double estimated_work() { return 0.0; }
  [[nodiscard]] long products() const { return products_; }

  bool direction(double eta, const std::vector<AlartCurnierRho>& rho, const std::vector<Vec3>& x,
                 const std::vector<Vec3>& u, const Eigen::VectorXd& phi, std::vector<Vec3>& dx,
                 std::vector<Vec3>& du) {
    const int nc = p_.contact_count;
    for (int a = 0; a < nc; ++a) {
      Vec3 f;
      alart_curnier_function(x[a], u[a], p_.laws[a], rho[a], f, &jr_[a], &ju_[a]);
      Mat3 diag = p_.blocks[p_.diag[a]];
      diag.diagonal().array() += eta;
      const Eigen::FullPivLU<Mat3> lu(Mat3(jr_[a] + ju_[a] * diag));
      block_inverse_[a] = lu.isInvertible() ? Mat3(lu.inverse()) : Mat3::Identity();
    }
    const Eigen::VectorXd b = -phi;
    Eigen::VectorXd s = Eigen::VectorXd::Zero(b.size());
    if (!solve(eta, b, s)) return false;
    for (int a = 0; a < nc; ++a) dx[a] = s.segment<3>(3 * a);
    for (int a = 0; a < nc; ++a) {
      Vec3 d = Vec3::Zero();
      for (std::int32_t k = p_.row_start[a]; k < p_.row_start[a + 1]; ++k)
        d.noalias() += p_.blocks[k] * dx[p_.col[k]];
      du[a] = d;
    }
    ++products_;
    return true;
  }

 private:
  // y = (∂Φ/∂r + ∂Φ/∂u (W + ηI)) x, block row by block row.
  void apply(double eta, const Eigen::VectorXd& x, Eigen::VectorXd& y) {
    ++products_;
    for (int a = 0; a < p_.contact_count; ++a) {
      Vec3 w = eta * x.segment<3>(3 * a);
      for (std::int32_t k = p_.row_start[a]; k < p_.row_start[a + 1]; ++k)
        w.noalias() += p_.blocks[k] * x.segment<3>(3 * p_.col[k]);
      y.segment<3>(3 * a) = jr_[a] * x.segment<3>(3 * a) + ju_[a] * w;
    }
  }
  void precondition(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
    for (int a = 0; a < p_.contact_count; ++a)
      y.segment<3>(3 * a) = block_inverse_[a] * x.segment<3>(3 * a);
  }
  // Restarted, right-preconditioned GMRES from s (Givens rotations on the Hessenberg matrix).
  bool solve(double eta, const Eigen::VectorXd& b, Eigen::VectorXd& s) {
    const double bn = b.norm();
    if (!(bn > 0.0)) return true;
    const int m = gmres_.restart;
    Eigen::VectorXd r = b, w(b.size()), z(b.size());
    int used = 0;
    while (used < gmres_.max_products) {
      const double beta = r.norm();
      if (beta <= gmres_.tolerance * bn) break;
      Eigen::MatrixXd h = Eigen::MatrixXd::Zero(m + 1, m);
      Eigen::VectorXd g = Eigen::VectorXd::Zero(m + 1);
      Eigen::VectorXd cs(m), sn(m);
      g(0) = beta;
      v_.col(0) = r / beta;
      int j = 0;
      while (j < m && used < gmres_.max_products) {
        precondition(v_.col(j), z);
        z_.col(j) = z;
        apply(eta, z, w);
        ++used;
        for (int i = 0; i <= j; ++i) {
          h(i, j) = v_.col(i).dot(w);
          w -= h(i, j) * v_.col(i);
        }
        h(j + 1, j) = w.norm();
        if (h(j + 1, j) > 0.0) v_.col(j + 1) = w / h(j + 1, j);
        for (int i = 0; i < j; ++i) {
          const double t = cs(i) * h(i, j) + sn(i) * h(i + 1, j);
          h(i + 1, j) = -sn(i) * h(i, j) + cs(i) * h(i + 1, j);
          h(i, j) = t;
        }
        const double den = std::hypot(h(j, j), h(j + 1, j));
        cs(j) = den > 0.0 ? h(j, j) / den : 1.0;
        sn(j) = den > 0.0 ? h(j + 1, j) / den : 0.0;
        h(j, j) = den;
        h(j + 1, j) = 0.0;
        g(j + 1) = -sn(j) * g(j);
        g(j) = cs(j) * g(j);
        ++j;
        if (std::abs(g(j)) <= gmres_.tolerance * bn) break;
      }
      const Eigen::VectorXd y =
          h.topLeftCorner(j, j).triangularView<Eigen::Upper>().solve(g.head(j));
      s += z_.leftCols(j) * y;
      apply(eta, s, w);
      r = b - w;
    }
    return s.allFinite();
  }

  const ForceProblem& p_;
  detail::AssembledSweep<kForce> sweep_;
  Gmres gmres_;
  std::vector<Mat3> jr_, ju_, block_inverse_;
  Eigen::MatrixXd v_, z_;
  long products_ = 0;
};

// Accelerated projected gradient on the natural map with De Saxcé's correction (as Chrono's APGD,
// Mazhar et al. 2015, with the exact cone's correction): from y, r⁺ = P_K(y − t (W y + q +
// μ‖(W y + q)_T‖ e_N)), Nesterov's momentum, restarted when the step goes uphill, t = 1/λ_max(W)
// (power iteration). For μ = 0 it is FISTA on the convex QP of the frictionless problem. The error
// every `check` iterations; returns the result with its true error.
SolverResult apgd(const ForceProblem& p, std::vector<Vec3>& r, std::vector<Vec3>& u,
                  double tolerance, int max_iterations, long& products) {
  const auto nc = static_cast<std::size_t>(p.contact_count);
  std::vector<Vec3> y(nc, Vec3::Zero()), next(nc), g(nc), v(nc, Vec3::Ones());
  r.assign(nc, Vec3::Zero());
  u.resize(nc);
  const auto times_w = [&](const std::vector<Vec3>& x, std::vector<Vec3>& out) {
    p.velocity(x, out);
    for (std::size_t a = 0; a < nc; ++a) out[a] -= p.q[a];
    ++products;
  };
  double lambda = 0.0;
  for (int k = 0; k < 50; ++k) {
    times_w(v, g);
    double norm2 = 0.0;
    for (const Vec3& x : g) norm2 += x.squaredNorm();
    lambda = std::sqrt(norm2);
    for (std::size_t a = 0; a < nc; ++a) v[a] = g[a] / lambda;
  }
  const double t = 1.0 / lambda;
  double theta = 1.0;
  SolverResult result;
  result.method = "apgd";
  result.status = SolverStatus::max_iterations;
  constexpr int kCheck = 20;
  for (int k = 1; k <= max_iterations; ++k) {
    times_w(y, g);
    double uphill = 0.0;
    for (std::size_t a = 0; a < nc; ++a) {
      g[a] += p.q[a];
      g[a][0] += p.laws[a] * std::hypot(g[a][1], g[a][2]);
      next[a] = project_on_cone(Vec3(y[a] - t * g[a]), p.laws[a]);
      uphill += g[a].dot(next[a] - r[a]);
    }
    double theta_next = 0.5 * theta * (std::sqrt(theta * theta + 4.0) - theta);
    double beta = theta * (1.0 - theta) / (theta * theta + theta_next);
    if (uphill > 0.0) {  // restart the momentum
      beta = 0.0;
      theta_next = 1.0;
    }
    for (std::size_t a = 0; a < nc; ++a) {
      y[a] = next[a] + beta * (next[a] - r[a]);
      r[a] = next[a];
    }
    theta = theta_next;
    result.iterations = k;
    if (k % kCheck == 0 || k == max_iterations) {
      p.velocity(r, u);
      result.error = contact_error(p, r, u);
      if (result.error <= tolerance) {
        result.status = SolverStatus::converged;
        break;
      }
    }
  }
  return result;
}

// Plain Gauss–Seidel sweeps with the exact local solves from r = 0 (no Anderson, no jump), every
// `every` sweeps a line: the error, the contacts whose status (open, stick, slide) changed in
// that sweep, the counts of each status, and ‖Δr‖/‖r‖ of that sweep.
void trace_statuses(const ForceProblem& p, int sweeps, int every) {
  const auto nc = static_cast<std::size_t>(p.contact_count);
  std::vector<Vec3> r(nc, Vec3::Zero()), u(nc), before(nc);
  std::vector<int> status(nc, -1);
  std::vector<BlockInverse> inverse(nc);
  const detail::AssembledSweep<kForce> sweep(p);
  const auto local_solve = [&](const Block3& w, const Vec3& q, int a, Vec3& ra) {
    return solve_single_contact(w, q, p.laws[a], ra, 1e-14, inverse[static_cast<std::size_t>(a)],
                                1);
  };
  std::printf("%7s %10s %8s %7s %7s %7s %10s\n", "sweep", "error", "changed", "open", "stick",
              "slide", "|dr|/|r|");
  for (int s = 1; s <= sweeps; ++s) {
    before = r;
    sweep.sweep(r, 1.0, nullptr, local_solve);
    int changed = 0;
    int count[3] = {0, 0, 0};
    double dr2 = 0.0, r2 = 0.0;
    for (std::size_t a = 0; a < nc; ++a) {
      const double mu = p.laws[a];
      const int now = r[a][0] == 0.0                                             ? 0
                      : std::hypot(r[a][1], r[a][2]) < mu * r[a][0] * (1 - 1e-9) ? 1
                                                                                 : 2;
      changed += now != status[a] ? 1 : 0;
      status[a] = now;
      ++count[now];
      dr2 += (r[a] - before[a]).squaredNorm();
      r2 += r[a].squaredNorm();
    }
    if (s % every != 0 && s != 1) continue;
    p.velocity(r, u);
    std::printf("%7d %10.3e %8d %7d %7d %7d %10.2e\n", s, contact_error(p, r, u), changed, count[0],
                count[1], count[2], std::sqrt(dr2 / r2));
  }
}

bench::Scene make_scene(const std::string& name, int n) {
  if (name == "drop_pile") return bench::drop_pile(n);
  if (name == "hcp_pile") return bench::hcp_pile(n);
  if (name == "drum") return bench::drum(n);
  if (name == "pyramid") return bench::pyramid(n);
  return bench::tower(n);  // --scene accepts these five only
}

void row(const std::string& solver, double mu, const SolverResult& r, long products,
         double seconds) {
  std::printf("%-7s %8s %-15s %10.3e %8d %9s %9.3f\n", solver.c_str(),
              std::isnan(mu) ? "scene" : fmt::format("{:g}", mu).c_str(), to_string(r.status),
              r.error, r.iterations, products < 0 ? "-" : std::to_string(products).c_str(),
              seconds);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "PROX with a matrix-free GMRES direction against NSGS and PROX on one step's problem"};
  std::string scene_name = "drop_pile";
  int n = 1000;
  int at_step = 451;
  std::vector<std::string> solvers = {"nsgs", "krylov"};
  std::vector<double> mus;
  double tolerance = 1e-10;
  int max_sweeps = 5000;
  int max_newton = 500;
  Gmres gmres;
  app.add_option("--scene", scene_name, "A scene of bench/scenes.hpp")
      ->check(CLI::IsMember({"drop_pile", "hcp_pile", "drum", "pyramid", "tower"}))
      ->capture_default_str();
  app.add_option("--n", n, "The scene's size (bench/scenes.hpp)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--step", at_step, "Take the problem of this step (0: the first)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--solvers", solvers, "nsgs, prox (the scene's μ only), krylov, apgd")
      ->check(CLI::IsMember({"nsgs", "prox", "krylov", "apgd"}))
      ->delimiter(',');
  app.add_option("--mu", mus, "Solve again with every contact's μ set to each value")
      ->delimiter(',');
  int statuses = 0;
  app.add_option("--statuses", statuses,
                 "Trace plain sweeps' statuses every N sweeps (to --max-sweeps), then exit");
  app.add_option("--tolerance", tolerance, "Error to reach")->capture_default_str();
  app.add_option("--max-sweeps", max_sweeps, "NSGS sweeps at most")->capture_default_str();
  app.add_option("--max-newton", max_newton, "PROX Newton iterations at most")
      ->capture_default_str();
  app.add_option("--gmres-restart", gmres.restart, "GMRES vectors before a restart")
      ->capture_default_str();
  app.add_option("--gmres-max", gmres.max_products, "Products of the Newton matrix a direction")
      ->capture_default_str();
  app.add_option("--gmres-tolerance", gmres.tolerance, "GMRES relative residual")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  bench::Scene scene = make_scene(scene_name, n);
  scene.model.finalize();
  Workspace ws;
  prepare(scene.model, ws);
  for (int k = 0; k <= at_step; ++k) step(scene.model, scene.state, ws);
  const auto& buffers = std::get<ContactBuffers<kForce>>(ws.contact);
  ForceProblem problem = buffers.problem.assembled();
  std::printf("%s(%d), step %d: %d contacts, %zu bodies in the problem\n", scene_name.c_str(), n,
              at_step, problem.contact_count, static_cast<std::size_t>(buffers.problem.body_count));
  if (problem.contact_count == 0) {
    std::fprintf(stderr, "no contact in that step's problem\n");
    return 1;
  }
  if (statuses > 0) {
    trace_statuses(problem, max_sweeps, statuses);
    return 0;
  }
  std::printf("%-7s %8s %-15s %10s %8s %9s %9s\n", "solver", "mu", "status", "error", "iter",
              "products", "seconds");
  std::vector<double> mu_runs = {std::nan("")};
  mu_runs.insert(mu_runs.end(), mus.begin(), mus.end());
  const std::vector<double> scene_mu = problem.laws;
  for (const double mu : mu_runs) {
    if (std::isnan(mu)) {
      problem.laws = scene_mu;
    } else {
      std::fill(problem.laws.begin(), problem.laws.end(), mu);
    }
    for (const std::string& solver : solvers) {
      std::vector<Vec3> r;
      std::vector<Vec3> u;
      SolverOptions options;
      options.tolerance = tolerance;
      const auto start = std::chrono::steady_clock::now();
      SolverResult result;
      long products = 0;
      if (solver == "nsgs") {
        options.max_iterations = max_sweeps;
        options.anderson_depth = 5;
        options.error_check_interval = 20;
        SolverWorkspace<kForce> workspace;
        result = solve_nsgs(problem, r, u, options, workspace);
        products = result.iterations;
      } else if (solver == "prox") {
        if (!std::isnan(mu)) continue;  // the factored problem keeps the scene's μ
        options.max_iterations = max_newton;
        result = solve_prox(buffers.problem, r, u, options);
        products = -1;  // factorisations, not products
      } else if (solver == "krylov") {
        options.max_iterations = max_newton;
        KrylovSystem system(problem, gmres);
        result = detail::prox(problem, system, r, u, options);
        products = system.products();
      } else {  // apgd (the option accepts these four only)
        result = apgd(problem, r, u, tolerance, max_sweeps, products);
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      row(solver, mu, result, products, seconds);
    }
  }
  return 0;
}
