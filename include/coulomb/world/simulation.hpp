#pragma once
/// @file
/// The one driver of the step loop: a model, its state, the step's workspace and the statistics
/// of the steps taken. `coulomb run` (coulomb/io/run.hpp), the Python module, the validation cases
/// and the tests step through it, so the non-finite stop, the solver statistics and the warnings
/// are the same everywhere.

#include <coulomb/compliant/engine.hpp>
#include <coulomb/compliant/shock_statistics.hpp>
#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>
#include <coulomb/world/workspace.hpp>
#include <coulomb/world/world.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace coulomb {

/// Solver statistics over the steps with at least one active contact.
struct SolverStatistics {
  std::int64_t solves = 0;         ///< steps with at least one active contact
  std::int64_t not_converged = 0;  ///< solves whose status is not `converged`
  double worst_error = 0.0;
  double worst_error_time = -1.0;  ///< time of the step with the worst error [s], −1 if none
  double mean_error = 0.0;
  std::int64_t max_iterations = 0;
  double mean_iterations = 0.0;
  double first_not_converged_time = -1.0;  ///< [s], −1 if none
  /// Solves per method that produced the answer ("nsgs", "prox", "nsgs+prox", "nsgs+prox+nsgs",
  /// "nsgs6").
  std::map<std::string, std::int64_t, std::less<>> methods;
  std::int64_t auto_switches = 0;   ///< `auto` handed over to PROX ("nsgs+prox", "nsgs+prox+nsgs")
  std::int64_t fell_back = 0;       ///< the solver's last iterate was replaced (SolverResult)
  std::int64_t cold_starts = 0;     ///< the warm start was worse than r = 0
  std::int64_t local_failures = 0;  ///< Σ over solves of the local failures of the last sweep
  std::int64_t solves_with_local_failures = 0;  ///< solves with at least one of those
  void add(const SolverResult& r, double time);
};

/// What the steps reported besides the solve: the position stage and the free rotation.
struct StepStatistics {
  std::int64_t corrected_steps = 0;        ///< steps where the position stage moved bodies
  double deepest_penetration = 0.0;        ///< deepest predicted penetration it met [m]
  double deepest_penetration_time = -1.0;  ///< [s], −1 if none
  double largest_left = 0.0;               ///< largest penetration left after it [m]
  /// Steps whose position stage left an overlap above its tolerance after its sweeps
  /// (StepReport::unclosed); the largest such overlap [m] and its time [s] (−1 if none).
  std::int64_t unclosed_steps = 0;
  double largest_unclosed = 0.0;
  double largest_unclosed_time = -1.0;
  std::int64_t rotation_failures = 0;         ///< body-steps whose free rotation did not converge
  double first_rotation_failure_time = -1.0;  ///< [s], −1 if none
  std::int64_t activated = 0;  ///< points the impulses closed (stage activate), Σ over steps
  std::int64_t activation_steps = 0;  ///< steps where the stage activate added points
  /// Points the applied answer closes left out of the problem (StepReport::left_out), Σ over
  /// steps; the steps with any; the deepest predicted overlap among them [m] and its time [s]
  /// (−1 if none).
  std::int64_t left_out = 0;
  std::int64_t left_out_steps = 0;
  double deepest_left_out = 0.0;
  double deepest_left_out_time = -1.0;
  void add(const StepReport& r, double time);
};

/// The one-line warning of steps whose free rotation failed to converge; empty when none did.
[[nodiscard]] std::string rotation_warning(const StepStatistics& stats);

/// The one-line warning of steps whose activation passes ran out with points the impulses close
/// still outside the problem (StepStatistics::left_out); empty when there were none.
[[nodiscard]] std::string activation_warning(const StepStatistics& stats, std::int64_t steps);

/// The one-line warning of steps whose position stage left an overlap above its tolerance
/// `tolerance` (the scene's solver.position_tolerance [m]) after its sweeps
/// (StepStatistics::unclosed_steps); empty when there were none.
[[nodiscard]] std::string position_warning(const StepStatistics& stats, std::int64_t steps,
                                           double tolerance);

/// What a run's warnings are about, in the order `coulomb run` prints them.
enum class RunWarningKind : std::uint8_t { rotation, position, activation, convergence };

/// "rotation", "position", "activation" or "convergence".
[[nodiscard]] const char* to_string(RunWarningKind kind);

/// One warning line's text (without the CLI's "coulomb: warning: " prefix).
struct RunWarning {
  RunWarningKind kind;
  std::string text;
};

/// Every warning of some steps, in the order `coulomb run` prints them (rotation_warning,
/// position_warning, activation_warning, convergence_warning), those that did not occur left out:
/// the one list the CLI, the sweep runner and the Python module read.
[[nodiscard]] std::vector<RunWarning> run_warnings(const SolverStatistics& solver,
                                                   const StepStatistics& stages, std::int64_t steps,
                                                   double position_tolerance);

/// The one-line warning of steps that did not converge, e.g. "12 of 5000 steps did not converge
/// (worst error 3.2e-4 at t = 1.234 s)"; empty when every solve converged.
[[nodiscard]] std::string convergence_warning(const SolverStatistics& stats, std::int64_t steps);

/// The number of whole steps of length `h` [s] from time `start` to time `end` [s] (the last may
/// end up to h/2 past it); 0 when end is not after start. What Simulation::steps_to counts, and
/// what a restarted run counts from the start of the run that wrote its checkpoint.
[[nodiscard]] std::int64_t steps_between(double start, double end, double h);

/// A model being simulated.
class Simulation {
 public:
  /// Takes the model and its initial state, finalizes the model (checks and compiles it: a model
  /// edited after the scene loader's finalize() is compiled again here; throws
  /// std::invalid_argument as Model::finalize does) and sizes the workspace. In the compliant
  /// formulation it also builds the force laws (throws std::invalid_argument naming the material
  /// pair) and evaluates the contacts of the initial state (their stored energy).
  Simulation(Model model, State state);
  ~Simulation();
  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;

  [[nodiscard]] const Model& model() const { return model_; }
  [[nodiscard]] const State& state() const { return state_; }
  /// The state, to set between steps (positions, velocities, time). The workspace is scratch and
  /// needs nothing; clear `contacts` when the new state is unrelated to the last one.
  [[nodiscard]] State& state() { return state_; }
  /// The last step's scratch: contact points, impulses, the contact problem.
  [[nodiscard]] const Workspace& workspace() const { return ws_; }

  /// Replaces a free body's load (force, torque, damping: coulomb/model/actuation.hpp) from the
  /// next step on. Throws std::invalid_argument for a fixed or driven body, a non-finite or
  /// negative value, or, in the compliant formulation, a model that had no actuation at its start
  /// (its state then has no work components: give the scene one, e.g. damping: {linear: 0}... of
  /// a body, a load, a driven body) or a load the analytic Jacobian cannot take. A sleeping body's
  /// island wakes (solver.sleep).
  void set_load(int body, const BodyLoad& load);
  /// A driven body moves from now on with the constant twist (v [m/s] of its frame's origin, ω
  /// [rad/s], world) from its present pose. Throws std::invalid_argument for a body that is not
  /// driven.
  void set_driven_twist(int body, const Vec3& velocity, const Vec3& angular_velocity);

  /// One step of length model().time_step. A non-finite state does not throw: finite() turns
  /// false and non_finite() says where; stepping on is the caller's choice (run_to stops).
  /// Compliant formulation: the ODE is integrated to the end of the step with error control (its
  /// own steps; the state at the end is its dense output) and the workspace holds the contacts
  /// there (forces, not impulses: StepResults::forces); a failing integrator stops like a
  /// non-finite state, non_finite() then giving the integrator's message.
  const StepReport& step();
  /// The number of whole steps from the current time to `end` [s] (the last may end up to h/2
  /// past it); 0 when end is not after the current time.
  [[nodiscard]] std::int64_t steps_to(double end) const;
  /// Steps to time `end` [s] (steps_to(end) steps), calling after(report) after every step; stops
  /// after a step whose state is not finite. Returns the steps taken.
  template <class After>
  std::int64_t run_to(double end, After&& after) {
    const std::int64_t n = steps_to(end);
    std::int64_t taken = 0;
    while (taken < n && finite_) {
      const StepReport& r = step();
      ++taken;
      after(r);
    }
    return taken;
  }
  std::int64_t run_to(double end) {
    return run_to(end, [](const StepReport&) {});
  }

  /// False once a step produced a non-finite state; non_finite() then locates it (body,
  /// quantity, time, step).
  [[nodiscard]] bool finite() const { return finite_; }
  [[nodiscard]] const std::string& non_finite() const { return non_finite_; }

  /// Statistics of the steps taken since construction or reset_statistics().
  [[nodiscard]] std::int64_t steps() const { return steps_; }
  [[nodiscard]] const SolverStatistics& solver_statistics() const { return solver_; }
  [[nodiscard]] const StepStatistics& step_statistics() const { return stages_; }
  void reset_statistics();
  /// The compliant formulation's engine (null in the nonsmooth formulation): its integrator
  /// statistics and times.
  [[nodiscard]] const CompliantEngine* compliant() const { return compliant_.get(); }
  /// code_aster's shock statistics and wear power per shock point (shock_statistics.hpp), sampled
  /// at the initial state (or the state at reset_statistics()) and at the end of every step;
  /// null unless has_shock_points(model()).
  [[nodiscard]] const ShockStatistics* shock_statistics() const { return shocks_.get(); }
  /// Sets the statistics to those of steps taken elsewhere: a run restarted from a checkpoint
  /// continues the counts of the run that wrote it.
  void restore_statistics(std::int64_t steps, const SolverStatistics& solver,
                          const StepStatistics& stages);

 private:
  const StepReport& step_compliant();
  void compliant_results();

  Model model_;
  State state_;
  Workspace ws_;
  std::int64_t steps_ = 0;
  SolverStatistics solver_;
  StepStatistics stages_;
  bool finite_ = true;
  std::string non_finite_;
  std::unique_ptr<CompliantEngine> compliant_;  ///< the compliant formulation's driver
  std::unique_ptr<ShockStatistics> shocks_;     ///< dis_choc contacts' statistics, or null
};

}  // namespace coulomb
