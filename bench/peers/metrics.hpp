#pragma once
// The measures of the peer benchmark, computed from the states the engines report (engine.hpp)
// by the same code for every engine, so that no engine grades itself:
//   - penetration: the deepest overlap of two shapes, by coulomb's own broadphase and
//     narrowphase on the reported positions (find_overlaps), sampled every few steps, after
//     every slow step and after the last;
//   - drift: the largest displacement of any body from where it was at a reference step (the
//     start for a scene built at rest), over the steps that follow; and the same from a later
//     step, halfway between the reference and the end of the run ("late drift"), which leaves
//     out how far bodies moved while the contacts took their load (a soft contact's compression)
//     and keeps the creep;
//   - energy: kinetic + gravitational potential (coulomb::energy) after every step; its largest
//     rise from one step to the next (contacts without restitution should only take energy
//     away), and the kinetic energy and largest speed at the end.
#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace coulomb::bench {

/// What the benchmark measured of one engine on one scene.
struct RunMetrics {
  std::string engine;
  std::string settings;             ///< the engine's settings line
  std::string status;               ///< "" (ran every step), or why it did not or stopped early
  std::string notes;                ///< the engine's own remarks (buffers, unconverged solves)
  double setup_s = 0.0;             ///< time to build the engine from the scene [s]
  std::vector<double> step_time_s;  ///< (steps) wall time of each step [s]
  /// Time spent in a step that never ended (the engine killed at its budget) [s]: counted in the
  /// speed, which is then an upper bound.
  double unfinished_step_s = 0.0;
  std::int64_t iterations = 0;   ///< solver iterations (sweeps), summed over the steps
  double max_penetration = 0.0;  ///< deepest overlap over the samples [m]
  int penetration_samples = 0;   ///< states whose overlaps were measured
  /// Largest displacement from the reference step's position over the steps after it [m]
  /// (NaN: the run did not reach the reference step).
  double drift = std::numeric_limits<double>::quiet_NaN();
  double late_drift = std::numeric_limits<double>::quiet_NaN();  ///< the same from the later step
  double kinetic_end = 0.0;      ///< kinetic energy after the last step [J]
  double max_speed_end = 0.0;    ///< largest body speed after the last step [m/s]
  double max_energy_rise = 0.0;  ///< largest increase of kinetic + potential energy in a step [J]

  [[nodiscard]] long steps() const { return static_cast<long>(step_time_s.size()); }
  /// Wall time of the first `m` steps [s], with the unfinished step when m is past the last.
  [[nodiscard]] double time_of_first(long m) const;
};

/// Follows one engine's states step by step and fills the measures of its RunMetrics.
class Monitor {
 public:
  /// `model` finalized; `start` the scene's initial state; drift measured from step
  /// `drift_from` (0: the start), late drift from step `late_from` (> drift_from).
  Monitor(const Model& model, const State& start, long drift_from, long late_from);

  /// The state after step `step` (1-based), as the engine reported it.
  void after_step(long step, const State& state, RunMetrics& out);
  /// Measures the overlaps of `state` into out.max_penetration.
  void sample_penetration(const State& state, RunMetrics& out) const;

 private:
  // The larger of `so_far` (NaN: none yet) and the largest distance of a body from `reference`.
  static double largest_move(const State& state, const std::vector<Vec3>& reference, double so_far);

  const Model& model_;
  long drift_from_;
  long late_from_;
  std::vector<Vec3> reference_;       // (nbodies) positions at the reference step [m]
  std::vector<Vec3> late_reference_;  // (nbodies) positions at step late_from [m]
  double energy_ = 0.0;               // kinetic + potential after the previous step [J]
};

}  // namespace coulomb::bench
