// Stage 5: the frictional contact solve, warm-started from the contact memory of the last step.
#include <coulomb/nonsmooth/prox.hpp>

#include <algorithm>
#include <cassert>

#include "stages/stages.hpp"

namespace coulomb::stages {

void solve(const Model& model, const State& /*state*/, Workspace& ws) {
  const std::size_t nactive = ws.active.size();
  if (ws.use_moments) {
    ws.r6.resize(nactive);
    ws.u6.resize(nactive);
  } else {
    ws.r.resize(nactive);
    ws.u.resize(nactive);
  }
  if (nactive == 0) {
    ws.report.solver = SolverResult{};
    return;
  }
  // ws.r holds the warm start set by the assembly (the contact memory of the last step).
  SolverOptions options;
  options.tolerance = model.solver.tolerance;
  options.max_iterations = model.solver.max_iterations;
  // The error costs a pass over W: check it every 20 sweeps at most (the reported error is
  // always the true one at exit), which saves about 30 % of the sweep time.
  options.error_check_interval = 20;
  // The solver the model names (Model::finalize accepts only names parse_solver_kind knows).
  SolverKind kind = SolverKind::automatic;
  [[maybe_unused]] const bool known = parse_solver_kind(model.solver.name, kind);
  assert(known);
  if (ws.use_moments) {
    // Six unknowns per contact (moment laws): Gauss–Seidel with the exact local solve, the only
    // solver of that problem. `prox` with a moment law is rejected by Model::finalize (and the
    // scene loader), never switched here; `method` ("nsgs6") records what ran.
    assert(kind != SolverKind::prox);
    ws.report.solver = solve6(ws.problem6, ws.r6, ws.u6, options, ws.solver6);
    return;
  }
  // The solvers return their best iterate, never worse than their start (the warm start, or r = 0
  // when the warm start is far worse) and never non-finite from a finite start: what the
  // integration applies.
  ws.report.solver = coulomb::solve(ws.problem, ws.r, ws.u, options, ws.solver, kind);
}

}  // namespace coulomb::stages
