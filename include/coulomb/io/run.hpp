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
  /// Simulated time between checkpoints [s] (0: none): a checkpoint (coulomb/io/checkpoint.hpp)
  /// is written into the output folder as `checkpoint.bin` after every step whose step count is a
  /// multiple of round(checkpoint_every / time_step) (at least 1), when a stop request ends the
  /// run, and at its end. Needs `output_directory`; must be finite and >= 0
  /// (std::invalid_argument otherwise). The nonsmooth formulation only: in the compliant
  /// formulation a checkpoint_every > 0 or a restart throws std::invalid_argument before anything
  /// is read or written (a checkpoint does not hold its stick anchors and integrator history).
  double checkpoint_every = 0.0;
  /// A checkpoint file to continue from (empty: start from the simulation's state). The run takes
  /// the checkpoint's state, statistics and bookkeeping, and starts its files with those of the
  /// run that wrote it, found beside the checkpoint, up to the checkpoint (docs/reliability.md,
  /// "Checkpoint and restart"). Without `checkpoint_every` it checkpoints as that run did.
  /// Throws std::invalid_argument, before the first step and with the output folder untouched,
  /// when the file is not a valid checkpoint, is of another scene (`scene_hash`) or model, its
  /// time is at or past the end time, or the files beside it are not those it was written with.
  std::string restart;
  /// Called with each warning line (without a prefix) as soon as it is known: the bodies
  /// overlapping at the start (overlap_warnings) before the first step, so that a run whose
  /// bodies are piled at one spot says what it will cost before it pays it.
  std::function<void(const std::string& line)> warning;
  /// scene_hash() of the scene and settings being run: written into every checkpoint, and a
  /// restart's checkpoint must hold the same.
  std::uint64_t scene_hash = 0;
};

struct RunResult {
  std::int64_t steps = 0;  ///< steps taken since the start (of the first run, for a restart)
  /// steps from the start to the end time (from the first run's start, for a restart)
  std::int64_t total_steps = 0;
  double wall_time_s = 0.0;
  SolverStatistics solver;
  StepStatistics stages;   ///< the position stage and the free rotation over the run
  bool finite = true;      ///< false: the run stopped on a non-finite state
  std::string non_finite;  ///< then where: non_finite_message (body, quantity, time, step)
  /// Bodies overlapping by more than 1e-6 m at the start (the position stage moves them apart
  /// when solver.position_correction is on), for a warning.
  std::vector<Overlap> initial_overlaps;
  std::string interrupted;  ///< the answer of RunOptions::stop that stopped the run, else empty
  /// For a restart: the time and step count of the checkpoint it started from.
  bool restarted = false;
  double restart_time = 0.0;  ///< [s]
  std::int64_t restart_step = 0;
  std::int64_t checkpoints = 0;        ///< checkpoints this run wrote
  std::uint64_t checkpoint_bytes = 0;  ///< size of the last one [bytes]
  double checkpoint_seconds = 0.0;     ///< wall time this run spent writing them [s]
  std::string checkpoint_file;         ///< where the last one is (in the output folder)
  std::string output_directory;
  std::string summary_json;
};

/// The warnings about bodies overlapping at the start (RunResult::initial_overlaps), each one line
/// without the "coulomb: warning: " prefix, at most two whatever the count:
/// - the overlaps: one pair named with its depth ("bodies 'a' and 'b' overlap by 0.005 m at the
///   start; ..."), or the count of pairs with the deepest and the first three;
/// - bodies piled at one spot: a group of bodies overlapping one another (a connected group of the
///   overlap graph) with more than 6 overlapping pairs per body, i.e. each overlapping more than
///   the 12 neighbours equal spheres can touch (bodies placed at the same position): how many, the
///   first three, and what it costs (every step finds and solves each of those pairs: a cost
///   that grows as the square of the pile).
/// `position_correction` says whether the position stage moves them apart. Empty when none.
[[nodiscard]] std::vector<std::string> overlap_warnings(const Model& model,
                                                        const std::vector<Overlap>& overlaps,
                                                        bool position_correction);

/// Steps the simulation from its time to model().end_time, writing outputs at the times set by
/// model().output; the statistics in the result (and the simulation's, reset at the start) are
/// those of this run. Throws std::invalid_argument when the output folder may not be replaced and
/// std::runtime_error on I/O errors (a write error names the file and the reason; the output
/// folder is then left as it was and no working folder remains, unless the run wrote a
/// checkpoint: the working folder is then kept and the message names it); a non-finite state
/// stops the run (result.finite = false), with the files committed up to that point. With
/// `options.restart`, also std::invalid_argument as RunOptions::restart says.
RunResult run(Simulation& sim, const RunOptions& options);

/// The same for a model and a state (copied into a Simulation; `state` receives the end state).
RunResult run(const Model& model, State& state, const RunOptions& options);

}  // namespace coulomb
