// Stage 6: the frictional contact solve, from the warm start assemble set (the contact memory of
// the last step).
//
// Midpoint scheme, stopping contacts: a contact that kept moving (sliding, spinning, rolling) has
// its tangential and angular rows at the middle of the step (ξ = u⁺ + u_c, assemble.cpp). In the
// step where such a motion stops, the mean velocity of the step would carry it through zero and
// leave the end velocity reversed (the one-step overshoot of the midpoint rule at a
// discontinuity of the friction force). So, after a converged solve, every moving contact whose
// end velocity points against its start velocity in a row group (slip; spin; rolling), with a
// start speed above kMovingSpeed (stages.hpp), takes Moreau's law at the end of the step for that
// step (ξ = u⁺ + shift: a stop is exact, as in Moreau–Jean). The test is made on the answer at
// kProvisionalTolerance, and the problem is then solved to the model's tolerance from it, with
// the law switched (not in a provisional solve, whose answer only decides which points join the
// problem: world.cpp). One pass only: a contact that the final solve makes reverse keeps the
// midpoint law, and its overshoot (smaller than its start speed) ends in the next step, where it
// no longer counts as moving.
#include <coulomb/nonsmooth/solver.hpp>

#include <algorithm>
#include <cassert>

#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

// The row groups of the law's velocity whose reversal means a stop: slip (T1, T2), spin (ωn),
// rolling (ωt1, ωt2). `start` is u_0, `end` the end-of-step velocity ξ − u_0 (rows with E = 1).
bool reverses(const Vec6& start, const Vec6& end, int rows) {
  auto group = [&](int first, int count) {
    if (first + count > rows) return false;
    const double s = start.segment(first, count).norm();
    return s > kMovingSpeed && start.segment(first, count).dot(end.segment(first, count)) < 0.0;
  };
  return group(1, 2) || group(3, 1) || group(4, 2);
}

template <int D>
SolverResult solve_stopping(const Model& model, const ActiveSet& active, ContactPoints& points,
                            ContactBuffers<D>& contact, const SolverOptions& options,
                            SolverKind kind, bool provisional, int iterations_left) {
  FactoredProblem<D>& problem = contact.problem;
  const std::vector<VecN<D>>& u = contact.u;
  auto run = [&](const SolverOptions& o) {
    return coulomb::solve(problem, contact.r, contact.u, o, contact.solver, kind);
  };
  const std::size_t nactive = active.active.size();
  const bool stop_test = !provisional && model.solver.scheme == TimeScheme::midpoint &&
                         std::any_of(active.active.begin(), active.active.end(),
                                     [&](int k) { return points.moving[k] != 0; });
  if (!stop_test) return run(options);
  // The moving contacts that stop: their end velocity against their start velocity.
  auto switch_stopping = [&] {
    bool changed = false;
    for (std::size_t i = 0; i < nactive; ++i) {
      const int k = active.active[i];
      if (!points.moving[k]) continue;
      Vec6 xi = Vec6::Zero();
      xi.template head<D>() = u[i];
      const Vec6& u0 = points.u_zero[k];
      if (!reverses(u0, xi - u0, D)) continue;
      // Rows 1.. from the middle of the step to its end: ξ loses u_0 there.
      points.moving[k] = 0;
      problem.q[i].template tail<D - 1>() -= u0.template segment<D - 1>(1);
      changed = true;
    }
    return changed;
  };
  // The next solve of the same problem from the answer found, within the step's budget (budget
  // mode): spent, the answer found is the one, its status judged at the model's tolerance.
  auto go_on = [&](SolverResult first) {
    const int left = iterations_left - first.iterations;
    if (left <= 0) {
      first.status =
          first.error <= options.tolerance ? SolverStatus::converged : SolverStatus::max_iterations;
      return first;
    }
    SolverOptions next = options;
    next.max_iterations = std::min(model.solver.max_iterations, left);
    SolverResult result = run(next);
    result.iterations += first.iterations;
    result.drift_jumps += first.drift_jumps;
    return result;
  };
  // The test is made on an answer at kProvisionalTolerance, and the step's answer is the one
  // solve to the model's tolerance that follows, with the stopping contacts switched (or not).
  // Why: tested on the answer at the model's tolerance, a switch made the whole problem be solved
  // to it twice, the second time from an error of ~1e-2 (a switched contact's rows change by its
  // start velocity) — on moving piles, where some contact stops in every step, ~110 of ~430 sweeps
  // a step (1000 spheres dropped into a box, docs/benchmarks.md). A contact whose end velocity is
  // within the provisional error of zero may be switched, or not, where the tighter answer would
  // decide the other way: both laws then give a velocity within that error of a stop.
  if (options.tolerance < kProvisionalTolerance) {
    SolverOptions loose = options;
    loose.tolerance = kProvisionalTolerance;
    const SolverResult first = run(loose);
    if (first.status == SolverStatus::converged) {
      // Already at the model's tolerance (a warm start that holds the answer) and nothing
      // switched: that is the answer.
      if (!switch_stopping() && first.error <= options.tolerance) return first;
      return go_on(first);
    }
    // Not even the provisional error: the test waits for the answer at the model's tolerance.
    SolverResult result = go_on(first);
    if (result.status == SolverStatus::converged && switch_stopping()) return go_on(result);
    return result;
  }
  SolverResult result = run(options);
  if (result.status == SolverStatus::converged && switch_stopping()) return go_on(result);
  return result;
}

}  // namespace

template <int D>
void solve(const Model& model, const State& state, const ActiveSet& active, ContactPoints& points,
           ContactBuffers<D>& contact, StepReport& report, bool provisional, int iterations_left) {
  // The active contacts, then the joint blocks (assemble).
  const auto nblocks = static_cast<std::size_t>(contact.problem.contact_count);
  report.joint_blocks = static_cast<int>(contact.joint_of_block.size());
  contact.r.resize(nblocks);
  contact.u.resize(nblocks);
  if (nblocks == 0) {
    report.solver = SolverResult{};
    contact.prefer_newton_next = state.prefer_newton;
    contact.nu.clear();
    return;
  }
  // contact.r holds the warm start set by the assembly (the contact memory of the last step).
  SolverOptions options;
  // A provisional solve (world.cpp: points may still join the problem) stops early; its answer
  // only tells `activate` which points close.
  options.tolerance = provisional ? std::max(model.solver.tolerance, kProvisionalTolerance)
                                  : model.solver.tolerance;
  options.finish_with_nsgs = !provisional;
  options.max_iterations = std::min(model.solver.max_iterations, iterations_left);
  // A provisional solve stops at kProvisionalIterations, to leave the work to the final solve;
  // in budget mode the step's budget rules instead (the budget spent, the step applies the answer
  // it has, which may be a provisional one: it gets the whole budget, as before the cap).
  if (provisional && model.solver.max_step_iterations <= 0)
    options.max_iterations = std::min(options.max_iterations, kProvisionalIterations);
  // The error costs a pass over W: check it every 20 sweeps at most (the reported error is
  // always the true one at exit), which saves about 30 % of the sweep time.
  options.error_check_interval = 20;
  // At least one sweep: a warm start within the tolerance still gets one exact local solve per
  // contact, so a small impulse left on a contact that has opened is not re-applied every step.
  options.min_iterations = 1;
  // Anderson acceleration of the sweeps (scene key solver.anderson), and the solver memory of
  // `auto` (State::prefer_newton).
  options.anderson_depth = model.solver.anderson_depth;
  options.drift_jump = model.solver.drift_jump;
  options.parallel_colour_min = model.solver.parallel_colour_min;
  options.prefer_newton = state.prefer_newton;
  // A provisional solve under `auto` stays with NSGS unless Newton is preferred (box stacks, where
  // PROX answers in a few iterations): its answer only decides which points join and starts the
  // next solve, so its cap of kProvisionalIterations sweeps is all it needs. Why: at that cap NSGS
  // has not converged, and `auto` went on to PROX after every provisional solve. On a 3-D heap
  // PROX refused the contact graph — after analysing it again, the problem having grown by a
  // layer (an ordering of the body graph and its symbolic factorisation, on one thread while the
  // other waited) — or, on a problem whose fill was just below the limit, took 15 Newton
  // iterations for an answer the next pass replaced (moving pile of 10³ spheres, its heap:
  // 3–4 provisional solves a step, every one handed over; docs/benchmarks.md, eighteenth wave).
  // Where PROX refuses, NSGS's answer was the one kept, so those steps are unchanged.
  const SolverKind kind =
      provisional && model.solver.kind == SolverKind::automatic && !state.prefer_newton
          ? SolverKind::nsgs
          : model.solver.kind;
  // Six unknowns per contact (moment laws): Gauss–Seidel with the exact local solve, the only
  // solver of that problem (`prox` with a moment law is rejected by Model::finalize and the scene
  // loader, never switched here; `solve` would throw; `method` records what ran). The solvers
  // return their best iterate, never worse than their start and never non-finite from a finite
  // start: what the integration applies.
  assert(solver_supports(kind, D));
  report.solver = solve_stopping<D>(model, active, points, contact, options, kind, provisional,
                                    iterations_left);
  contact.prefer_newton_next = prefer_newton_next(report.solver, options.prefer_newton);
  // The bodies' velocity change of the answer, for the activation check (which reads it only
  // for the points left out of the problem).
  if (points.points.size() > active.active.size())
    contact.problem.body_velocity(contact.r, contact.nu);
}

template void solve<kForce>(const Model&, const State&, const ActiveSet&, ContactPoints&,
                            ContactBuffers<kForce>&, StepReport&, bool, int);
template void solve<kWrench>(const Model&, const State&, const ActiveSet&, ContactPoints&,
                             ContactBuffers<kWrench>&, StepReport&, bool, int);

}  // namespace coulomb::stages
