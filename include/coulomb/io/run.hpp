#pragma once
/// @file
/// Running a model to its end time with outputs and a summary: what `coulomb run` does.

#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>
#include <coulomb/world/workspace.hpp>
#include <coulomb/world/world.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace coulomb {

/// Solver statistics over a run.
struct SolverStatistics {
  std::int64_t solves = 0;         ///< steps with at least one active contact
  std::int64_t not_converged = 0;  ///< solves whose status is not `converged`
  double worst_error = 0.0;
  double worst_error_time = -1.0;  ///< time of the step with the worst error [s], −1 if none
  double mean_error = 0.0;
  std::int64_t max_iterations = 0;
  double mean_iterations = 0.0;
  double first_not_converged_time = -1.0;  ///< [s], −1 if none
  /// Solves per method that produced the answer ("nsgs", "prox", "nsgs+prox", "nsgs6").
  std::map<std::string, std::int64_t, std::less<>> methods;
  std::int64_t auto_switches = 0;   ///< `auto` handed over to PROX ("nsgs+prox")
  std::int64_t fell_back = 0;       ///< the solver's last iterate was replaced (SolverResult)
  std::int64_t cold_starts = 0;     ///< the warm start was worse than r = 0
  std::int64_t local_failures = 0;  ///< Σ over solves of the local failures of the last sweep
  std::int64_t solves_with_local_failures = 0;  ///< solves with at least one of those
  void add(const SolverResult& r, double time);
};

/// What the steps reported besides the solve, over a run: the position stage and the free
/// rotation.
struct StepStatistics {
  std::int64_t corrected_steps = 0;           ///< steps where the position stage moved bodies
  double deepest_penetration = 0.0;           ///< deepest predicted penetration it met [m]
  double deepest_penetration_time = -1.0;     ///< [s], −1 if none
  double largest_left = 0.0;                  ///< largest penetration left after it [m]
  std::int64_t rotation_failures = 0;         ///< body-steps whose free rotation did not converge
  double first_rotation_failure_time = -1.0;  ///< [s], −1 if none
  void add(const StepReport& r, double time);
};

/// The one-line warning of a run whose free rotation failed to converge in some step; empty when
/// none did.
[[nodiscard]] std::string rotation_warning(const StepStatistics& stats);

/// The one-line warning of a run with non-converged steps, e.g. "12 of 5000 steps did not
/// converge (worst error 3.2e-4 at t = 1.234 s)"; empty when every solve converged.
[[nodiscard]] std::string convergence_warning(const SolverStatistics& stats, std::int64_t steps);

struct RunOptions {
  std::string output_directory;                   ///< empty: no files
  std::function<void(double fraction)> progress;  ///< called now and then with t/t_end
  std::string scene_source;                       ///< the scene file ("builtin:NAME" for built-ins)
  bool write_replay = true;
  /// If not empty: every step's contact problem and its solution are written there as an HDF5
  /// file `step-NNNNNNNN.hdf5` (FCLIB local layout, or `/fclib_local6` with moment laws), so a
  /// hard step becomes a file that `coulomb fclib` and the tests can replay.
  std::string dump_problems_directory;
};

struct RunResult {
  std::int64_t steps = 0;
  double wall_time_s = 0.0;
  SolverStatistics solver;
  StepStatistics stages;   ///< the position stage and the free rotation over the run
  bool finite = true;      ///< false: the run stopped on a non-finite state
  std::string non_finite;  ///< then where: non_finite_message (body, quantity, time, step)
  /// Bodies overlapping by more than 1e-6 m at the start (the position stage moves them apart
  /// when solver.position_correction is on), for a warning.
  std::vector<Overlap> initial_overlaps;
  std::string output_directory;
  std::string summary_json;
};

/// Steps `state` from its time to model.end_time, writing outputs at the times set by
/// model.output. Throws std::runtime_error on I/O errors; a non-finite state stops the run
/// (result.finite = false), with the files committed up to that point.
RunResult run(const Model& model, State& state, const RunOptions& options);

}  // namespace coulomb
