#pragma once
/// @file
/// Running a model to its end time with outputs and a summary: what `coulomb run` does.

#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>
#include <coulomb/world/simulation.hpp>
#include <coulomb/world/workspace.hpp>
#include <coulomb/world/world.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace coulomb {

struct RunOptions {
  /// Empty: no files. Else the run writes into `OUT.partial-PID` beside it and puts that in place
  /// of OUT at the end (coulomb/io/output_folder.hpp); OUT must be absent, empty, or a folder of
  /// an earlier coulomb run, else run() throws std::invalid_argument before the first step.
  std::string output_directory;
  std::function<void(double fraction)> progress;  ///< called now and then with t/t_end
  std::string scene_source;                       ///< the scene file ("builtin:NAME" for built-ins)
  bool write_replay = true;
  /// If not empty: every step's contact problem and its solution are written there as an HDF5
  /// file `step-NNNNNNNN.hdf5` (FCLIB local layout, or `/fclib_local6` with moment laws), so a
  /// hard step becomes a file that `coulomb fclib` and the tests can replay.
  std::string dump_problems_directory;
  /// Asked before every step: a non-empty answer (e.g. "SIGINT") stops the run there. The files
  /// then hold the run up to the last step taken (its frame is written), summary.json says
  /// `"status": "interrupted"` and `"interrupted": ANSWER`, and run() returns normally with
  /// RunResult::interrupted set. The library installs no signal handler: the caller wires this to
  /// its own (the `coulomb` program to SIGINT and SIGTERM).
  std::function<std::string()> stop;
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
  std::string interrupted;  ///< the answer of RunOptions::stop that stopped the run, else empty
  std::string output_directory;
  std::string summary_json;
};

/// Steps the simulation from its time to model().end_time, writing outputs at the times set by
/// model().output; the statistics in the result (and the simulation's, reset at the start) are
/// those of this run. Throws std::invalid_argument when the output folder may not be replaced and
/// std::runtime_error on I/O errors (a write error names the file and the reason; the output
/// folder is then left as it was and no working folder remains); a non-finite state stops the
/// run (result.finite = false), with the files committed up to that point.
RunResult run(Simulation& sim, const RunOptions& options);

/// The same for a model and a state (copied into a Simulation; `state` receives the end state).
RunResult run(const Model& model, State& state, const RunOptions& options);

}  // namespace coulomb
