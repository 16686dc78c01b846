#pragma once
/// @file
/// The compliant formulation's driver: advances a State to a requested time by integrating the
/// state ODE (compliant/system.hpp) with error control (compliant/integrator.hpp), stopping at
/// every root of a contact event, switching the hybrid laws there and restarting the
/// integrator. `Simulation` (world/simulation.hpp) calls it once per `time.step`, the sampling
/// interval of the compliant formulation: the integrator chooses its own steps and the state at
/// each sample time is its dense output.
///
/// Events (docs/compliant.md, "Events"):
///   - contact onset and release (a gap crosses zero): the integrator restarts there, so that no
///     step straddles the kink of a law at δ = 0;
///   - elastic stick (code_aster's DIS_CHOC tangential law), in continuous time: a sticking
///     contact slips where ‖F_stick‖ reaches μ_s N (its spring's stored energy is then booked as
///     friction dissipation); a slipping contact with N > 0 sticks where its slip speed falls to ε,
///     or at any event or start where it is at most ε (a new contact among them) and it did not
///     just slip; the anchor force is then F0 = F_slip + C_t v_t (the force is continuous), the
///     slip since the anchor s = 0. A contact that opens forgets its anchor.
/// At every restart the quaternions are renormalised; the integrator's last step is the first
/// step it tries.
///
/// The engine keeps a copy of the state it last produced: a state changed in between (Python's
/// set_state, a validation case's edit) restarts the integrator from it.

#include <coulomb/compliant/contact_laws.hpp>
#include <coulomb/compliant/integrator.hpp>
#include <coulomb/compliant/system.hpp>
#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace coulomb {

/// A contact event the integration stopped at (or found at a start).
struct CompliantEvent {
  enum class Kind : std::uint8_t {
    onset,    ///< a contact point closed (its gap fell through 0)
    release,  ///< it opened again
    stick,    ///< a hybrid friction law (elastic stick) went to its stick branch
    slip,     ///< it left it
  };
  double time = 0.0;  ///< [s]
  ContactKey key;     ///< the point (shape pair and feature)
  Kind kind = Kind::onset;
};
/// "onset", "release", "stick", "slip".
[[nodiscard]] const char* to_string(CompliantEvent::Kind kind);

/// Wall times of the compliant formulation [s] (summary.json `integrator.times_s`).
struct CompliantTimes {
  double rhs = 0.0;       ///< right-hand side evaluations (collision, laws, forces)
  double jacobian = 0.0;  ///< analytic Jacobians
  double roots = 0.0;     ///< root functions
  double total = 0.0;     ///< advance() overall (the integrator's own work included)
};

class CompliantEngine {
 public:
  /// Builds the laws of every material pair (throws std::invalid_argument as CompliantLawTable)
  /// and the system; the model must outlive the engine (Simulation owns both).
  explicit CompliantEngine(const Model& model);
  ~CompliantEngine();
  CompliantEngine(const CompliantEngine&) = delete;
  CompliantEngine& operator=(const CompliantEngine&) = delete;

  /// Evaluates the contacts at `state` (for the initial outputs) and sets its elastic energy.
  void sample(State& state);
  /// Integrates `state` to time t_end [s] (> state.time). Returns false when the integrator
  /// failed (error() says why; the state is then the last one reached).
  bool advance(State& state, double t_end);

  /// The model it integrates.
  [[nodiscard]] const Model& model() const { return model_; }
  /// The contacts of the last sample (or of the last state reached).
  [[nodiscard]] const std::vector<CompliantContactResult>& contacts() const;
  [[nodiscard]] IntegratorStatistics statistics() const;
  [[nodiscard]] CompliantTimes times() const;
  [[nodiscard]] const std::string& error() const { return error_; }
  /// Switches of the hybrid laws so far: stick → slip and slip → stick.
  [[nodiscard]] std::int64_t stick_slip_switches() const { return switches_; }
  /// The events so far, in time order (at most kMaxEvents; counts() keeps counting).
  [[nodiscard]] const std::vector<CompliantEvent>& events() const { return events_; }
  void clear_events() { events_.clear(); }
  /// Events kept by events() (a long run keeps its first ones).
  static constexpr std::size_t kMaxEvents = 1000000;
  /// Events so far by kind (onset, release, stick, slip).
  [[nodiscard]] const std::array<std::int64_t, 4>& event_counts() const { return event_counts_; }

 private:
  void restart(State& state, std::span<const int> found);
  [[nodiscard]] bool same_as_last(const State& state) const;
  void remember(const State& state);

  const Model& model_;
  CompliantLawTable laws_;
  std::unique_ptr<CompliantSystem> system_;
  std::unique_ptr<OdeIntegrator> integrator_;
  IntegratorOptions options_;
  std::vector<double> y_;
  State last_;  ///< the state advance() last produced
  bool started_ = false;
  std::string error_;
  std::int64_t switches_ = 0;
  double total_seconds_ = 0.0;
  std::vector<CompliantEvent> events_;
  std::array<std::int64_t, 4> event_counts_{};
  void record(double time, const ContactKey& key, CompliantEvent::Kind kind);
};

}  // namespace coulomb
