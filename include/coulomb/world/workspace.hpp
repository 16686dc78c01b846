#pragma once
/// @file
/// Workspace: per-step scratch of the step pipeline, grouped by the stage that writes it
/// (FreeMotion, ShapeFrames, ContactPoints, ActiveSet, ContactBuffers, StepResults,
/// PositionStage). It can be rebuilt at any time from (Model, State); nothing in it is needed to
/// restart a run. Buffers keep their capacity across steps, so a warm workspace makes the step
/// loop allocation-free.
///
/// Memory layout (why): the Gauss–Seidel sweep reads the problem row by row (block-sparse W in
/// ContactProblem<N>); per-contact data are kept in compact parallel arrays, indexed by point
/// number (ContactPoints, per-point StepResults) or by active-contact number (ActiveSet::active,
/// ContactBuffers).

#include <coulomb/collision/broadphase.hpp>
#include <coulomb/collision/contact_point.hpp>
#include <coulomb/compliant/integrator.hpp>
#include <coulomb/model/state.hpp>
#include <coulomb/nonsmooth/factored_problem.hpp>
#include <coulomb/nonsmooth/problem.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <array>
#include <cstdint>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace coulomb {

/// The named stages of one step, in pipeline order.
enum class Stage : std::uint8_t {
  free_motion,
  broadphase,
  wake,
  narrowphase,
  kinematics,
  assemble,
  solve,
  activate,
  integrate,
  correct,
  sleep,
  count
};
inline constexpr std::size_t kStageCount = static_cast<std::size_t>(Stage::count);
[[nodiscard]] std::string_view stage_name(Stage s);

/// Accumulated wall time per stage [s].
struct Profile {
  std::array<double, kStageCount> seconds{};
  std::int64_t steps = 0;
};

/// What a non-finite state was found in (StepReport::non_finite_quantity).
enum class StateQuantity : std::uint8_t { none, position, orientation, velocity, angular_velocity };
[[nodiscard]] const char* to_string(StateQuantity q);

/// What one step reports.
struct StepReport {
  int candidate_pairs = 0;   ///< broadphase pairs
  int contact_points = 0;    ///< narrowphase points within the margin
  int active_contacts = 0;   ///< contacts in the contact problem
  SolverResult solver;       ///< of this step's solve (iterations 0 if no active contact)
  bool finite = true;        ///< false if the state became non-finite
  int non_finite_body = -1;  ///< the first body whose state is not finite (-1: none)
  StateQuantity non_finite_quantity = StateQuantity::none;  ///< and which of its quantities
  /// Position stage: deepest predicted end-of-step penetration before the correction [m] (0 if
  /// none), the largest one left after it [m], and the Gauss–Seidel sweeps it took with the
  /// iterations of the projected conjugate gradients that follow them where they leave a row
  /// open (correct.cpp; 0: no correction was needed).
  double penetration = 0.0;
  double penetration_left = 0.0;
  int correction_sweeps = 0;
  /// Position stage: the largest overlap its projections left above `position_tolerance` after
  /// their sweeps [m]; 0 when they closed every overlap they took on to the tolerance (or did not
  /// run). The penetration of a contact rebounding with restitution is not the stage's to close
  /// and does not count.
  double unclosed = 0.0;
  /// Joints: the largest position error of a joint row after the position stage (|C| of an
  /// equality row, max(0, −C) of a string) [m or -] (docs/joints.md)
  double joint_violation = 0.0;
  /// Joint blocks in the step's problem (docs/joints.md)
  int joint_blocks = 0;
  /// True when the step solved a problem (active contacts or joint blocks).
  [[nodiscard]] bool solved() const { return active_contacts > 0 || joint_blocks > 0; }
  /// Bodies whose torque-free rotation (rotate_free: Newton on Euler's equations) did not reach
  /// round-off in this step (h ‖Ω‖ too large for the body's inertia: docs/dynamics.md).
  int rotation_failures = 0;
  /// The compliant formulation's integrator statistics, cumulative since the simulation began
  /// (zero in the nonsmooth formulation): solver.csv and summary.json report them.
  IntegratorStatistics integrator;
  /// Points that the impulses closed although their free motion did not: added to the active set
  /// after a solve, which was then repeated (stage activate).
  int activated = 0;
  /// Provisional solves of the step (made while points could still join its problem; their
  /// answers only decide which points join, world.cpp) and their sweeps and Newton iterations,
  /// which solver.iterations includes. Each solve's NSGS sweeps are at most
  /// kProvisionalIterations (stages.hpp), and so are PROX's Newton iterations where `auto` hands
  /// over to it (when Newton is preferred): their sum can exceed the cap.
  int provisional_solves = 0;
  int provisional_iterations = 0;
  /// Points that the step's applied answer closes (the same test) but that stayed out of its
  /// problem because no pass was left: the activation passes were spent, or the budget
  /// (solver.max_step_iterations). They end the step overlapping, by up to left_out_overlap
  /// (their predicted end gap, activation distance excluded) [m], until the next step's
  /// kinematics takes them in. Zero under Siconos' active-set rule, which has no activation.
  int left_out = 0;
  double left_out_overlap = 0.0;
  /// Sleeping islands (SolverSettings::sleep): bodies woken in this step, bodies asleep at its end.
  int woken = 0;
  int sleeping = 0;
};

using Jacobian36 = Eigen::Matrix<double, 3, 6>;

/// Bits of FreeMotion::body_flags: Body::fixed, Body::driven(), BodyLoad::applies_force(),
/// BodyLoad::damps(), and an isotropic inertia (I_B = c·Id: no gyroscopic term, rotate_free).
/// A sleeping body (State::asleep) is kBodyFixed | kBodyAsleep for the step: held where it is.
enum BodyFlag : std::uint8_t {
  kBodyFixed = 1,
  kBodyDriven = 2,
  kBodyLoaded = 4,
  kBodyDamped = 8,
  kBodyIsotropic = 16,
  kBodyAsleep = 32,
  /// Asleep in the last step too, at the same pose: its shapes' frames and boxes are the last
  /// step's (the broadphase does not compute them again).
  kBodyUnmoved = 64,
};

/// Stage free_motion's output (nbodies). The contact configuration is where the step evaluates
/// its contacts: the midpoint x_k + (h/2) v_k (after a torque-free half-step rotation) for the
/// midpoint scheme, the start of the step for Moreau–Jean.
struct FreeMotion {
  std::vector<Vec3> x_c;            ///< (nbodies) centre of mass at the contact configuration [m]
  std::vector<Quat> q_c;            ///< (nbodies) orientation at the contact configuration
  std::vector<Vec3> L_start;        ///< (nbodies) world angular momentum at the start [kg m²/s]
  std::vector<Vec3> w_pre;          ///< (nbodies) I_c⁻¹ L_start: ω before the impulses [rad/s]
  std::vector<Vec3> v_free;         ///< (nbodies) velocity with gravity, without contact [m/s]
  std::vector<Vec3> w_free;         ///< (nbodies) angular velocity without contact [rad/s]
  std::vector<Mat3> inv_inertia_W;  ///< (nbodies) I_c⁻¹ = R_c I_B⁻¹ R_cᵀ [1/(kg m²)]
  /// (nbodies) world angular momentum without contact at the end: L_start + the applied angular
  /// impulses [kg m²/s]
  std::vector<Vec3> L_free;
  /// (nbodies) impulses of the applied forces over the step, force [N s] and moment about the
  /// centre of mass [N m s], by origin: loads (Body::load), springs, dampers (bodies' damping and
  /// the springs' dampers); on a driven or fixed body, the springs' and dampers' reactions
  std::vector<Vec3> load_force, load_torque;
  std::vector<Vec3> spring_force, spring_torque;
  std::vector<Vec3> damping_force, damping_torque;
  /// (nbodies) what the later stages ask of each body (BodyFlag bits) and Body::inv_mass(), read
  /// from the Body once a step here: its fields lie over its ~500 bytes, and reading them again
  /// body by body in the integration missed the cache on four lines a body (a third of the
  /// integration of a carpet of 10⁴ spheres).
  std::vector<std::uint8_t> body_flags;
  std::vector<double> inv_mass;
};

/// Stage broadphase's output: the shapes in the world at the contact configuration (nshapes) and
/// the candidate pairs.
struct ShapeFrames {
  std::vector<Pose> X_WS;   ///< (nshapes) shape poses
  std::vector<Aabb> aabbs;  ///< (nshapes) grown by the contact margin and the sweep
  /// (nshapes) bound on how far the shape's surface moves in one step [m]
  std::vector<double> shape_sweep;
  /// (nshapes) 1 for a shape that does not move in this step (a fixed body's, or a sleeping
  /// body's): two of them never pair. Filled only with sleeping islands (SolverSettings::sleep);
  /// otherwise the broadphase reads CompiledModel::shape_fixed.
  std::vector<std::uint8_t> still;
  Broadphase broadphase;         ///< the broadphase's own structure (kept across steps)
  std::vector<ShapePair> pairs;  ///< (npairs) candidate pairs
};

/// Stages narrowphase (points) and kinematics (the rest, and the points' tangents): the contact
/// points and their kinematics at the contact configuration (npoints).
struct ContactPoints {
  std::vector<ContactPoint> points;  ///< (npoints)
  /// Scratch of the parallel narrowphase: the points of each chunk of pairs, joined in order.
  std::vector<std::vector<ContactPoint>> chunk_points;
  std::vector<std::size_t> chunk_offset;      ///< (chunks) first point of each chunk in `points`
  std::vector<std::int32_t> memory_of_point;  ///< (npoints) index in State::contacts or -1
  /// (npoints) 1 when the point's memory says it was moving (sliding, spinning, rolling) at the
  /// last step: the midpoint scheme then puts the tangential and angular rows of the law at the
  /// middle of the step (docs/nonsmooth.md). The solve clears it for a contact that stops.
  std::vector<std::uint8_t> moving;
  std::vector<Jacobian36> H1, H2;  ///< (npoints) u = H2 [v2; w2] − H1 [v1; w1], rows (N, T1, T2)
  /// (npoints) u_c: relative velocity (N, T1, T2, ωn, ωt1, ωt2) before the impulses, at the
  /// contact configuration (u^M of docs/nonsmooth.md) [m/s, rad/s]
  std::vector<Vec6> u_pre;
  /// (npoints) u_0: the same at the start of the step (Jacobian at the start of the step,
  /// estimated from the contact memory for the midpoint scheme) [m/s, rad/s]
  std::vector<Vec6> u_zero;
  /// (npoints) the end-of-step gap predicted with the free velocities, less the activation
  /// distance: the point is active when it is ≤ 0 [m] (kinematics; activate re-predicts it with
  /// the velocities after the impulses)
  std::vector<double> predicted_gap;
};

/// Stage kinematics's output: the active contacts (nactive) and, per dynamic body, the active
/// contacts it takes part in.
struct ActiveSet {
  std::vector<std::int32_t> active;               ///< (nactive) point index
  std::vector<std::int32_t> active_of_point;      ///< (npoints) index in `active` or -1
  std::vector<std::int32_t> body_contacts_start;  ///< (nbodies+1) CSR of active contacts per body
  std::vector<std::int32_t> body_contacts;  ///< (2 nactive at most) active indices, body by body
  std::vector<std::int32_t> next;           ///< (nbodies) scratch of the CSR build
  /// (nactive) scratch of the CSR build: each contact's dynamic bodies (body 1, body 2; -1 fixed)
  std::vector<std::array<std::int32_t, 2>> ends;
};

/// Stages assemble (problem, the warm start in r, laws_of_active, body_index) and solve (r, u,
/// solver; problem.q of stopping contacts): the contact problem of the active contacts in factored
/// form (W = J M⁻¹ Jᵀ never formed; coulomb/nonsmooth/factored_problem.hpp) and its solve, with N
/// unknowns per contact: kForce (N, T1, T2), or kWrench (N, T1, T2, Mn, Mt1, Mt2) when a contact
/// law of the model has moments (pivoting, rolling, Contensou; a moment with a zero bound is zero).
/// Sized (nactive).
template <int N>
struct ContactBuffers {
  /// Rows J of each side (J1 = −H1, J2 = H2; with moments, the rows (n, t1, t2) on the angular
  /// velocity below them), M⁻¹ Jᵀ, W_αα, q, laws, the problem's bodies
  FactoredProblem<N> problem;
  /// (nactive) impulses (N, T1, T2) [N s] (then (Mn, Mt1, Mt2) [N m s]): the warm start, then
  /// the solve's answer
  std::vector<VecN<N>> r;
  /// (nactive) the law's velocities after the solve (vN, vT1, vT2) [m/s] (then (ωn, ωt1, ωt2)
  /// [rad/s])
  std::vector<VecN<N>> u;
  SolverWorkspace<N> solver;
  /// (nactive) index into CompiledModel::laws of each active contact's material pair
  std::vector<std::int32_t> laws_of_active;
  /// (nbodies) index of each model body among the problem's bodies, −1 when it is fixed or in no
  /// active contact
  std::vector<std::int32_t> body_index;
  /// (nactive before an activation) the answer kept while the problem is assembled again with the
  /// points the impulses close (world.cpp)
  std::vector<VecN<N>> r_kept;
  /// (nb) Δν = M⁻¹ Jᵀ r of the answer, per body of the problem [m/s, rad/s] (solve; read by
  /// activate)
  std::vector<Vec6d> nu;
  /// Written by solve: State::prefer_newton for the next step (integrate stores it).
  bool prefer_newton_next = false;
  /// (nj) the joint and the group of three rows of each joint block of the problem (the last nj
  /// blocks, after the active contacts; docs/joints.md)
  std::vector<std::int32_t> joint_of_block, group_of_block;
};

/// Stage integrate's output: per point (npoints), per active contact (nactive) and per body
/// (nbodies), world frame.
struct StepResults {
  std::vector<Vec3> u_end;      ///< (npoints) relative velocity at the end of the step [m/s]
  std::vector<Vec3> w_rel_end;  ///< (npoints) ω2 − ω1 at the end of the step, world [rad/s]
  std::vector<Vec3> impulse;    ///< (npoints) impulse of 1 on 2 (N, T1, T2) [N s], 0 if inactive
  /// (npoints) moment impulse (Mn, Mt1, Mt2) of 1 on 2 [N m s], 0 if inactive
  std::vector<Vec3> moment;
  std::vector<ContactStatus> status;  ///< (npoints) after the step
  std::vector<double> end_gap;        ///< (nactive) predicted end-of-step gap [m]
  /// (nactive) 1 when the contact, whose law has restitution (e_n > 0), leaves the step with an
  /// outward normal velocity (a rebound): the position stage does not close its penetration
  /// (docs/nonsmooth.md)
  std::vector<std::uint8_t> rebounding;
  std::vector<Vec3> impulse_force;   ///< (nbodies) contact impulse on the body [N s]
  std::vector<Vec3> impulse_torque;  ///< (nbodies) about the centre of mass [N m s]
  /// (njoints) joint reactions on body 2, world, mean over the step: force [N] and moment about
  /// its anchor on body 2 [N m] (docs/joints.md)
  std::vector<Vec3> joint_force, joint_moment;
  /// (nbodies) (v_k + v_{k+1})/2, the velocity the impulses work on [m/s]
  std::vector<Vec3> v_mean;
  std::vector<Vec3> w_mean;  ///< (nbodies) (ω_pre + ω_post)/2 at the contact configuration [rad/s]
  std::vector<Vec3> L_end;   ///< (nbodies) world angular momentum after the impulses [kg m²/s]
  std::vector<double> work;  ///< (nbodies) work of the impulses on the body [J] (fixed: 0)
  /// (nbodies) the step's work of the loads, of the dampers (minus the energy they remove) and,
  /// for a driven body, its contact and spring impulses times its mean twist [J]; set only for
  /// the bodies they apply to (integrate.cpp).
  std::vector<double> load_work, damping_work, driven_work;
  /// (nactive) each contact's work by kind (normal, friction, rolling, pivoting) [J], summed in
  /// contact order into State::dissipated_by_kind (integrate.cpp).
  std::vector<std::array<double, 4>> work_by_kind;
  /// Scratch of the contact memory's update: the entries of the pairs that sleep (no point this
  /// step), kept for the step that wakes them (SolverSettings::sleep).
  std::vector<ContactMemory> kept_memory, merged_memory;
  /// `impulse` and `moment` hold forces [N] and moments [N m] at the end of the step (the
  /// compliant formulation), not impulses over the step.
  bool forces = false;
};

/// Stage correct's output: the position stage's targets and multipliers (nactive) and the
/// displacement of every body (nbodies).
struct PositionStage {
  std::vector<double> target_gap;  ///< (nactive) the gap the position stage must not go below [m]
  std::vector<double> kappa;       ///< (nactive) position multipliers [kg m]
  /// (nb) displacement (Δx, Δθ) of each of the contact problem's bodies [m, rad]
  std::vector<Vec6d> displacement;
  std::vector<Vec3> dx;      ///< (nbodies) displacement of the centre of mass [m]
  std::vector<Vec3> dtheta;  ///< (nbodies) rotation vector, world [rad]
  /// The projected conjugate gradients that take over from Gauss–Seidel when its sweeps run out
  /// (correct.cpp, mprgp): the gradient (each row's gap), the search direction, W times it, per
  /// row, and the sweeps' answer (kept when the gradients do not close every row); W's product
  /// gathered per body.
  std::vector<double> cg_gradient, cg_direction, cg_product, cg_start;
  std::vector<Vec6d> cg_body;

  /// The end-configuration check (correct.cpp): the shape pairs of turning bodies with edges
  /// collided again at the corrected poses, the points still overlapping, their normal rows
  /// (J on each side's (v, ω), G = M⁻¹ Jᵀ; body −1 when fixed), gaps, multipliers, displacement.
  std::vector<std::pair<std::int32_t, std::int32_t>> end_pairs;
  /// (candidate pairs) 1 when the pair turns with edges at the start of the check
  std::vector<std::uint8_t> end_turns;
  /// the rebounding contacts' features, which the check does not lift
  struct Rebound {
    std::int32_t shape1, shape2;
    std::uint32_t feature;
  };
  std::vector<Rebound> end_rebounds;
  std::vector<ContactPoint> end_points;
  std::vector<std::int32_t> end_body1, end_body2;
  std::vector<Vec6d> end_J1, end_J2, end_G1, end_G2;
  std::vector<double> end_w, end_gap, end_kappa;
  std::vector<Vec6d> end_displacement;  ///< (nbodies)
  std::vector<std::uint8_t> end_moved;  ///< (nbodies) 1 once a pass has moved the body
};

/// The outputs of the stages, each written by the stage its type names (src/world/stages/stages.hpp
/// gives every stage's reads and writes), the timings and the step's report.
/// Stages wake and sleep (SolverSettings::sleep): the islands of the step, by union–find over the
/// bodies (nbodies), and the islands to wake.
struct Islands {
  std::vector<std::int32_t>
      parent;  ///< (nbodies) union–find parent; a root is its island's least body
  /// (nbodies, by root) the least still time of the island's bodies [s], or −1 when the island
  /// holds a body that may not sleep
  std::vector<double> still;
  std::vector<std::int32_t> waking;  ///< islands (State::asleep values) to wake, sorted
};

struct Workspace {
  FreeMotion free_motion;
  ShapeFrames shape_frames;
  ContactPoints contact_points;
  ActiveSet active_set;
  /// The contact problem, its answer and the solver's scratch: three unknowns per contact, or six
  /// with moment laws (CompiledModel::unknowns; prepare() sizes it). The stages that use it are
  /// templates on N, called once per step through std::visit (world.cpp).
  std::variant<ContactBuffers<kForce>, ContactBuffers<kWrench>> contact;
  /// Unknowns per contact of `contact`: kForce or kWrench.
  [[nodiscard]] int unknowns() const {
    return std::holds_alternative<ContactBuffers<kWrench>>(contact) ? kWrench : kForce;
  }
  StepResults step_results;
  PositionStage position;
  Islands islands;

  Profile profile;
  StepReport report;  ///< each stage writes its own fields
};

}  // namespace coulomb
