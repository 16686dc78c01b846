#pragma once
/// @file
/// The State: what evolves during a run and what a checkpoint holds. Struct of arrays, one entry
/// per body in model order; positions are those of the centre of mass.

#include <coulomb/collision/contact_point.hpp>
#include <coulomb/laws/law_spec.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace coulomb {

struct Model;
struct Body;

/// Identifies a contact point across steps: the two shapes and the feature of the pair.
struct ContactKey {
  std::int32_t shape1 = -1;
  std::int32_t shape2 = -1;
  std::uint32_t feature = 0;
  friend auto operator<=>(const ContactKey&, const ContactKey&) = default;
};

/// What a contact remembers from the previous step: the impulses (warm start), the status (static
/// or kinetic friction), and the geometry of the step's contact Jacobian (frame and lever arms, at
/// the configuration where the step evaluated its contacts), from which the next step estimates
/// the Jacobian at its own start (docs/nonsmooth.md, "the midpoint scheme").
struct ContactMemory {
  ContactKey key;
  Vec3 impulse =
      Vec3::Zero();            ///< last impulse (N, T1, T2) in the contact frame [N s] (warm start)
  Vec3 moment = Vec3::Zero();  ///< last moment impulse (Mn, Mt1, Mt2) [N m s] (warm start)
  ContactStatus status = ContactStatus::separated;
  /// The law's velocity of the last step had a tangential or angular part (sliding, spinning
  /// or rolling against a moment law): the midpoint scheme then keeps the friction direction at
  /// the middle of the step (docs/nonsmooth.md).
  bool moving = false;
  Vec3 n_W = Vec3::UnitZ();   ///< contact frame (t1, t2, n) of the last step, world
  Vec3 t1_W = Vec3::UnitX();  ///<
  Vec3 t2_W = Vec3::UnitY();  ///<
  Vec3 r1_W = Vec3::Zero();   ///< contact point − centre of mass of body 1, last step [m]
  Vec3 r2_W = Vec3::Zero();   ///< contact point − centre of mass of body 2, last step [m]
};

/// What a contact of the compliant formulation remembers between events (docs/compliant.md):
/// a contact under an elastic-stick friction law (code_aster's DIS_CHOC tangential law) that
/// sticks, with its anchor. World frame, so that it survives the turning of the contact frame.
/// A contact that slips or is open has no entry.
struct CompliantContact {
  ContactKey key;
  Vec3 anchor_force_W = Vec3::Zero();  ///< F0: tangential force of 1 on 2 at the anchor [N]
  Vec3 elongation_W = Vec3::Zero();    ///< s = x_t − x0: tangential slip since the anchor [m]
};

/// The state of the compliant formulation beyond poses and twists, kept apart from the rest of
/// the State (issue 10) so that a checkpoint can hold it whole (checkpoint format 2 does not: the
/// compliant formulation refuses checkpoints, docs/compliant.md).
struct CompliantState {
  std::vector<CompliantContact> contacts;  ///< the sticking elastic-stick contacts, sorted by key
  /// Energy stored in the contacts' springs at `time` [J] (normal laws and stick springs). A
  /// function of the rest of the state, kept for energy.csv; recomputed when a run restarts.
  double elastic = 0.0;
  /// The integrator's last step [s], a hint for its first step when it starts again (0: none).
  double step_size = 0.0;
};

struct State {
  double time = 0.0;        ///< [s]
  double time_carry = 0.0;  ///< round-off carried by the compensated (Kahan) sum of the steps [s]
  std::int64_t step = 0;    ///< steps taken
  std::vector<Vec3> x_WC;   ///< (nbodies) centre-of-mass position [m]
  std::vector<Quat> q_WB;   ///< (nbodies) orientation of the body frame
  std::vector<Vec3> v_WC;   ///< (nbodies) centre-of-mass velocity [m/s]
  std::vector<Vec3> w_W;    ///< (nbodies) angular velocity in world [rad/s]
  std::vector<ContactMemory> contacts;  ///< sorted by key
  double dissipated = 0.0;              ///< cumulative energy removed by contacts [J]
  /// The same, by kind (EnergyKind): normal (impacts), friction, rolling, pivoting, and the
  /// position correction [J]; they add up to `dissipated`.
  std::array<double, kEnergyKindCount> dissipated_by_kind{};
  /// The solver memory of SolverKind::automatic: Newton (PROX) answered the last step in a few
  /// iterations, so this step's solve tries it after a short NSGS probe (prefer_newton_next in
  /// coulomb/nonsmooth/solver.hpp). State, not workspace: which solver answers changes the
  /// result's last bits, and a restart must take the same path.
  bool prefer_newton = false;
  /// Work done on the other bodies by the driven bodies (contacts and springs) since the start
  /// [J]; with the next two, energy.csv's audit of actuated scenes (docs/outputs.md).
  double driven_work = 0.0;
  /// (nbodies) The same, body by body: the work each driven body has done on the others since
  /// the start [J] (zero for the other bodies); driven.csv and summary.json (docs/outputs.md).
  /// Summed in body order the entries give driven_work to round-off (each is its own running
  /// sum). Nonsmooth formulation only: the compliant formulation leaves them zero.
  std::vector<double> driven_work_by_body;
  /// Work of the applied forces and torques (Body::load, damping excluded) [J].
  double force_work = 0.0;
  /// Energy removed by viscous damping (bodies' damping and the springs' dampers) [J], >= 0.
  double damping = 0.0;
  /// The compliant formulation's internal states (empty in the nonsmooth formulation).
  CompliantState compliant;
  /// Sleeping islands (SolverSettings::sleep; empty or all −1 without it): (nbodies) the island of
  /// a sleeping body, the index of its first body, or −1 for a body awake. An island wakes whole.
  std::vector<std::int32_t> asleep;
  /// (nbodies) how long each awake body has been still (below the sleep thresholds) [s].
  std::vector<double> still_time;
  /// Kinetic energy removed by putting islands to sleep (their velocities set to zero) [J].
  double slept = 0.0;

  /// Resizes for the bodies of `model`: every body frame at the world origin with identity
  /// orientation (so x_WC = com_B), zero twists, every body awake; time, step, contact memory and
  /// dissipated energy are reset.
  void resize(const Model& model);
  [[nodiscard]] std::size_t body_count() const { return x_WC.size(); }
  /// Whether body b sleeps (State::asleep).
  [[nodiscard]] bool sleeping(std::size_t b) const { return b < asleep.size() && asleep[b] >= 0; }
  /// Wakes the island of body b, if it sleeps (Simulation::set_load calls it; a velocity given
  /// to a sleeping body wakes its island by itself at the next step).
  void wake_island(std::size_t b);
  /// Wakes the islands `sorted` (State::asleep values, ascending); returns the bodies woken.
  int wake_islands(std::span<const std::int32_t> sorted);
};

/// Sets the pose and twist of every driven body (Body::motion) to their values at time t [s]:
/// x_WC = p_WB + R com_B, v_WC = v_WB + ω × R com_B.
void set_driven_state(const Model& model, State& state, double t);
/// The same for the driven body `body`, index b of the model.
void set_driven_body_state(const Body& body, std::size_t b, State& state, double t);

/// Pose of the body frame B of body `body` in the world: q = q_WB, p = x_WC − R_WB com_B.
[[nodiscard]] Pose body_frame_pose(const Model& model, const State& state, int body);

}  // namespace coulomb
