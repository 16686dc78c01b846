#pragma once
// Each engine of the peer benchmark runs in a child process of its own, driven step chunk by step
// chunk by the benchmark, so that a budget holds even for a single step that does not end: one
// step of coulomb's exact solver on a cold pile of touching spheres can last minutes (a sparse LU
// per Newton iteration), and nothing inside a step can be asked to stop. The benchmark kills the
// child when its budget has run out by more than a grace period, and keeps what it had reported.
//
// Only one child works at a time (the others wait for their next turn), so the engines still take
// turns on the machine as they would in one process. The child measures its engine after every
// step (metrics.hpp) and sends the measures with the step's time, one JSON line per step, on a
// pipe; the time is the step's alone.
#include <sys/types.h>

#include <string>

#include "peers/engine.hpp"
#include "peers/metrics.hpp"

namespace coulomb::bench {

/// What the child measures, besides the scene and the engine's settings.
struct MeasurePlan {
  long drift_from = 0;     ///< step the drift is measured from
  long late_from = 0;      ///< step the late drift is measured from
  long sample_every = 50;  ///< steps between two penetration samples (and after the last step)
};

/// One engine in a child process.
class EngineProcess {
 public:
  /// Forks a child that builds the engine for `scene` (its model finalized) and waits for turns.
  EngineProcess(EngineKind kind, const Scene& scene, const PeerSettings& settings,
                const MeasurePlan& plan);
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;
  /// Kills the child if it still runs, and reaps it.
  ~EngineProcess();

  /// Waits up to `timeout_s` for the engine to be built. False when it could not be (the reason
  /// in m.status) or took longer.
  bool wait_ready(double timeout_s, RunMetrics& m);

  /// One turn: up to `steps` steps while the engine's stepping time stays below `budget_left_s`,
  /// the child killed when the turn lasts `grace_s` longer than that. Folds each step's report
  /// into m; false when the engine is done (failed, out of budget, killed).
  bool run(long steps, double budget_left_s, double grace_s, RunMetrics& m);

  /// Asks the child for the engine's notes (m.notes) and lets it exit.
  void finish(RunMetrics& m);

 private:
  // Reads one line from the child, waiting until `deadline_s` (seconds of the steady clock);
  // false on timeout or end of file.
  bool read_line(double deadline_s, std::string& line);
  void send(const std::string& line);
  void kill_child();

  pid_t pid_ = -1;
  int to_child_ = -1;    // write end of the command pipe
  int from_child_ = -1;  // read end of the report pipe
  std::string pending_;  // bytes read past the last full line
};

}  // namespace coulomb::bench
