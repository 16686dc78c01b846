/// @file
/// The one entry point `solve` (coulomb/nonsmooth/solver.hpp): which solver runs on which
/// problem, and SolverKind::automatic (NSGS with a stall test, then PROX) on the force problem.

#include <coulomb/nonsmooth/prox.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>

namespace coulomb {

const char* to_string(SolverKind kind) {
  switch (kind) {
    case SolverKind::nsgs:
      return "nsgs";
    case SolverKind::prox:
      return "prox";
    case SolverKind::automatic:
      return "auto";
  }
  return "unknown";
}

bool parse_solver_kind(const std::string& name, SolverKind& kind) {
  if (name == "nsgs") {
    kind = SolverKind::nsgs;
  } else if (name == "prox") {
    kind = SolverKind::prox;
  } else if (name == "auto" || name == "automatic") {
    kind = SolverKind::automatic;
  } else {
    return false;
  }
  return true;
}

namespace {

// u = W r + q for either form of the problem.
template <int N>
void velocity(const ContactProblem<N>& p, const std::vector<VecN<N>>& r, std::vector<VecN<N>>& u,
              SolverWorkspace<N>&) {
  p.velocity(r, u);
}
template <int N>
void velocity(const FactoredProblem<N>& p, const std::vector<VecN<N>>& r, std::vector<VecN<N>>& u,
              SolverWorkspace<N>& ws) {
  p.velocity(r, u, ws.nu);
}

// PROX on either form (the factored one keeps its Newton analysis in the workspace).
SolverResult prox(const ForceProblem& p, std::vector<Vec3>& r, std::vector<Vec3>& u,
                  const SolverOptions& options, SolverWorkspace<kForce>&) {
  return solve_prox(p, r, u, options);
}
SolverResult prox(const FactoredForceProblem& p, std::vector<Vec3>& r, std::vector<Vec3>& u,
                  const SolverOptions& options, SolverWorkspace<kForce>& ws) {
  return solve_prox(p, r, u, options, &ws.newton);
}

// The force problem (either form): NSGS, PROX, or NSGS then PROX.
template <class Problem>
SolverResult solve_force(const Problem& problem, std::vector<Vec3>& r, std::vector<Vec3>& u,
                         const SolverOptions& options, SolverWorkspace<kForce>& workspace,
                         SolverKind kind) {
  switch (kind) {
    case SolverKind::nsgs:
      return solve_nsgs(problem, r, u, options, workspace);
    case SolverKind::prox:
      return prox(problem, r, u, options, workspace);
    case SolverKind::automatic:
      break;
  }
  // NSGS with the stall test. If it does not converge, PROX restarts from the caller's warm
  // start (kept in the workspace), not from NSGS's last iterate: measured on the FCLIB files, the
  // semismooth Newton started from a stalled Gauss–Seidel iterate with its small η stagnates at
  // kinks of Φ (Capsules-i122-1617: 1.5e-8 after 3000 iterations) where from the warm start it
  // converges in tens of iterations (docs/nonsmooth-solvers.md).
  // A factored problem of more than kAutoNewtonMaxBodies bodies: NSGS alone, to its cap (the
  // body-space LU's memory grows faster than the bodies on a 3-D contact graph).
  if constexpr (requires { problem.body_count; }) {
    if (problem.body_count > kAutoNewtonMaxBodies)
      return solve_nsgs(problem, r, u, options, workspace);
  }
  // A problem with joint blocks: NSGS alone, to its cap. PROX's proximal parameter η follows the
  // mean diagonal of W, which the rotational rows of a small inertia on a long lever dominate (a
  // 1 kg sphere of 5 cm on a 1 m pendulum: W_ii from 1 to 1000); the proximal steps then move by
  // λ_min/η ~ 1e-3 of the way and PROX stalls, where NSGS with the exact block solves converges in
  // ~20 sweeps (docs/joints.md, "Solvers").
  if (!problem.joint_rows.empty()) return solve_nsgs(problem, r, u, options, workspace);
  const auto start = std::chrono::steady_clock::now();
  const auto n = static_cast<std::size_t>(problem.contact_count);
  workspace.r_start.assign(r.begin(), r.end());
  if (workspace.r_start.size() != n) workspace.r_start.assign(n, Vec3::Zero());
  SolverOptions first_options = options;
  if (first_options.stall_window <= 0) first_options.stall_window = kAutoStallWindow;
  // Newton preferred (it answered the last step in a few iterations): NSGS only checks whether
  // the warm start, after its sweeps, is already the answer.
  if (options.prefer_newton)
    first_options.max_iterations = std::min(options.max_iterations, kNewtonProbeSweeps);
  const SolverResult first = solve_nsgs(problem, r, u, first_options, workspace);
  if (first.status == SolverStatus::converged || first.status == SolverStatus::max_time) {
    return first;
  }
  // PROX from the caller's warm start (it chooses between it and zero as NSGS did).
  workspace.r_first.assign(r.begin(), r.end());
  r.assign(workspace.r_start.begin(), workspace.r_start.end());
  SolverOptions second_options = options;
  second_options.max_time_s = options.max_time_s - first.time_s;
  second_options.max_work = std::min(options.max_work, kAutoNewtonWork * options.max_iterations);
  second_options.max_iteration_work =
      std::min(options.max_iteration_work, kAutoNewtonMaxIterationWork);
  SolverResult result = prox(problem, r, u, second_options, workspace);
  // PROX from r = 0 when it did not converge from the warm start: on box stacks the semismooth
  // Newton can stagnate from the last step's impulses where from zero it converges (a ten-box
  // stack step: 5.9e-8 after 500 iterations from the warm start, 1e-14 in 203 from zero).
  const bool warm = std::any_of(workspace.r_start.begin(), workspace.r_start.end(),
                                [](const Vec3& x) { return !x.isZero(0.0); });
  // Too dear: an iteration above the limit (a refusal before the factorisation is one: its
  // iteration is counted at the figure that refused it).
  const bool too_dear =
      result.iterations > 0 && result.work / result.iterations > second_options.max_iteration_work;
  if (result.status != SolverStatus::converged && result.status != SolverStatus::max_time && warm &&
      !result.cold_start && result.work < second_options.max_work && !too_dear) {
    workspace.r_second.assign(r.begin(), r.end());
    const double second_error = result.error;
    std::fill(r.begin(), r.end(), Vec3::Zero());
    SolverOptions third_options = options;
    third_options.max_time_s = second_options.max_time_s - result.time_s;
    third_options.max_work = second_options.max_work - result.work;
    const SolverResult third = prox(problem, r, u, third_options, workspace);
    if (third.error < second_error) {
      const int iterations = result.iterations;
      result = third;
      result.iterations += iterations;
    } else {
      result.iterations += third.iterations;
      r.assign(workspace.r_second.begin(), workspace.r_second.end());
      velocity(problem, r, u, workspace);
    }
  }
  // The answer is the better of the two (PROX's unless NSGS's error is lower).
  if (!(result.error <= first.error)) {
    r.assign(workspace.r_first.begin(), workspace.r_first.end());
    velocity(problem, r, u, workspace);
    result.error = contact_error(problem, r, u);
    if (result.error <= options.tolerance) result.status = SolverStatus::converged;
  }
  result.newton_iterations = result.iterations;
  result.iterations += first.iterations;
  result.drift_jumps = first.drift_jumps;
  result.method = "nsgs+prox";
  result.start_error = first.start_error;
  result.cold_start = first.cold_start;
  result.fell_back = result.fell_back || first.fell_back;
  result.local_failures = first.local_failures;
  result.local_failures_total = first.local_failures_total;
  // PROX did not converge, or stopped after its first factorisation as too dear for the contact
  // graph (a 3-D heap): NSGS goes on from the better answer for the sweeps the stall test left,
  // without the test. Why: the stall test reads a plateau of the error as the end of NSGS's
  // progress, and on the moving piles of docs/benchmarks.md most plateaus end — measured on the
  // last problem of a step of 1000 dropped spheres (987 contacts): `auto` stopped at 7.7e-6
  // (NSGS stalled, PROX too dear), where NSGS without the test reached 1e-10 in 201 sweeps.
  const int sweeps_left = options.max_iterations - first.iterations;
  const double time_left =
      options.max_time_s -
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (options.finish_with_nsgs && result.status != SolverStatus::converged &&
      result.status != SolverStatus::max_time && sweeps_left > 0 && time_left > 0.0) {
    SolverOptions rest = options;
    rest.stall_window = 0;
    rest.max_iterations = sweeps_left;
    rest.max_time_s = time_left;
    rest.prefer_newton = false;
    const SolverResult more = solve_nsgs(problem, r, u, rest, workspace);
    // NSGS returns its best iterate, never worse than its start (the answer above).
    result.status = more.status;
    result.error = more.error;
    result.iterations += more.iterations;
    result.drift_jumps += more.drift_jumps;
    result.fell_back = result.fell_back || more.fell_back;
    result.local_failures += more.local_failures;
    result.local_failures_total += more.local_failures_total;
    result.method = "nsgs+prox+nsgs";
  }
  result.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace

bool prefer_newton_next(const SolverResult& result, bool prefer_newton) {
  // NSGS finished what PROX did not: not preferred.
  if (std::string_view(result.method) == "nsgs+prox+nsgs") return false;
  // PROX answered (it ran after NSGS): preferred when it converged in a few iterations.
  if (result.newton_iterations > 0 || std::string_view(result.method) == "nsgs+prox")
    return result.status == SolverStatus::converged &&
           result.newton_iterations <= kNewtonPreferredIterations;
  // NSGS answered: the preference stands (a resting stack meets the tolerance in the probe).
  return prefer_newton && result.status == SolverStatus::converged;
}

namespace {

// The solver table of solve() for either form.
template <template <int> class Problem, int N>
SolverResult solve_any(const Problem<N>& problem, std::vector<VecN<N>>& r, std::vector<VecN<N>>& u,
                       const SolverOptions& options, SolverWorkspace<N>& workspace,
                       SolverKind kind) {
  if (!solver_supports(kind, N)) {
    throw std::invalid_argument(std::string("solver '") + to_string(kind) +
                                "' solves problems with 3 unknowns per contact only (no moment "
                                "laws); use 'nsgs' or 'auto'");
  }
  if constexpr (N == kForce) {
    return solve_force(problem, r, u, options, workspace, kind);
  } else {
    // Six unknowns: Gauss–Seidel with the exact local solve, the only solver of that problem
    // (`automatic` takes it as it is, without the stall test: there is nothing to hand over to).
    return solve_nsgs(problem, r, u, options, workspace);
  }
}

}  // namespace

template <int N>
SolverResult solve(const ContactProblem<N>& problem, std::vector<VecN<N>>& r,
                   std::vector<VecN<N>>& u, const SolverOptions& options,
                   SolverWorkspace<N>& workspace, SolverKind kind) {
  return solve_any(problem, r, u, options, workspace, kind);
}

template <int N>
SolverResult solve(const FactoredProblem<N>& problem, std::vector<VecN<N>>& r,
                   std::vector<VecN<N>>& u, const SolverOptions& options,
                   SolverWorkspace<N>& workspace, SolverKind kind) {
  return solve_any(problem, r, u, options, workspace, kind);
}

template SolverResult solve<kForce>(const ForceProblem&, std::vector<Vec3>&, std::vector<Vec3>&,
                                    const SolverOptions&, SolverWorkspace<kForce>&, SolverKind);
template SolverResult solve<kWrench>(const WrenchProblem&, std::vector<Vec6>&, std::vector<Vec6>&,
                                     const SolverOptions&, SolverWorkspace<kWrench>&, SolverKind);
template SolverResult solve<kForce>(const FactoredForceProblem&, std::vector<Vec3>&,
                                    std::vector<Vec3>&, const SolverOptions&,
                                    SolverWorkspace<kForce>&, SolverKind);
template SolverResult solve<kWrench>(const FactoredWrenchProblem&, std::vector<Vec6>&,
                                     std::vector<Vec6>&, const SolverOptions&,
                                     SolverWorkspace<kWrench>&, SolverKind);

}  // namespace coulomb
