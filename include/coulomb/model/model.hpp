#pragma once
/// @file
/// The Model: everything that stays constant during a run. Two parts:
/// - the spec: bodies, shapes, materials, contact-law assignment (law names and parameters), the
///   settings (enums), with the names and source marks that error messages use. Built from a scene
///   file (coulomb/scene) or from code;
/// - the compiled part (`CompiledModel`, numbers only): the set-valued laws per material pair,
///   inverse inertias, shape reach, the size of the contact problem. `finalize()` checks the spec
///   and computes it (`compile`); the step only reads it.
/// Change the spec after finalize() and call finalize() again (Simulation does when it is built).

#include <coulomb/geometry/shape.hpp>
#include <coulomb/laws/law_spec.hpp>
#include <coulomb/model/actuation.hpp>
#include <coulomb/model/contact_laws.hpp>
#include <coulomb/model/joint.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace coulomb {

/// The contact laws between two materials (a `contacts:` entry of a scene).
struct ContactSpec {
  int material1 = -1;  ///< material indices; the pair is unordered
  int material2 = -1;
  LawSpec normal{"signorini", {{"restitution", 0.0}}, {}, {}};
  LawSpec friction{"coulomb", {{"mu", 0.0}}, {}, {}};
  std::optional<LawSpec> rolling;             ///< rolling friction {k}
  std::optional<LawSpec> pivoting;            ///< pivoting friction {h}
  std::optional<LawSpec> soft_finger;         ///< {radius}
  std::optional<LawSpec> contensou;           ///< coupled sliding-spinning
  std::optional<LawSpec> rolling_resistance;  ///< pressure distortion {kappa, regularization}
  SourceMark mark;

  /// The first law section with a moment part given here ("rolling", "pivoting", "soft_finger" or
  /// "contensou"), or null: such a contact has six unknowns in the nonsmooth problem.
  [[nodiscard]] const char* moment_law() const;
  /// The law of a section, or null when the section is not given.
  [[nodiscard]] const LawSpec* law(LawSection section) const;
  /// Sets the law of a section.
  void set_law(LawSection section, LawSpec spec);
};

/// A rigid body. The body frame B is the frame the scene places; the dynamics use the centre of
/// mass C (origin shifted by `com_B`, same axes).
struct Body {
  std::string name;
  bool fixed = false;
  int material = -1;              ///< index into Model::materials (-1: the default material)
  double mass = 0.0;              ///< [kg] (0 for fixed bodies)
  Vec3 com_B = Vec3::Zero();      ///< centre of mass in B [m]
  Mat3 inertia_B = Mat3::Zero();  ///< inertia about the centre of mass, axes of B [kg m²]
  int first_shape = 0;  ///< shapes [first_shape, first_shape + shape_count) of Model::shapes
  int shape_count = 0;
  /// Fixed bodies only: the velocity of the material of the body's surface, world [m/s] (a
  /// conveyor belt: contacts see it move while its shapes stay in place). Compliant formulation.
  Vec3 surface_velocity = Vec3::Zero();
  /// A prescribed motion (scene key `motion`; coulomb/model/actuation.hpp): the body is then
  /// fixed (infinite mass for the contacts) but moves; State holds its exact pose and twist.
  BodyMotion motion;
  /// Applied force, torque and viscous damping (free bodies; coulomb/model/actuation.hpp).
  BodyLoad load;
  SourceMark mark;

  [[nodiscard]] double inv_mass() const { return fixed ? 0.0 : 1.0 / mass; }
  /// A fixed body with a prescribed motion.
  [[nodiscard]] bool driven() const { return motion.driven(); }
};

/// A linear spring–damper from a point of a body to a point of another body or of the world
/// (scene key `springs`; both formulations): with d = p − p2 (p the point on `body`, p2 the other
/// end), ℓ = |d|, u = d/ℓ, the force on `body`'s point is
///   F = −[k (ℓ − ℓ0) + c u·(ṗ − ṗ2)] u,
/// and −F on the other end; it stores ½ k (ℓ − ℓ0)² and the damper removes c (u·(ṗ − ṗ2))² per
/// second (docs/scene-format.md "Springs", docs/nonsmooth.md "Applied forces").
struct Spring {
  int body = -1;                 ///< the body it pulls (a free body)
  Vec3 point_B = Vec3::Zero();   ///< its point on the body, body frame [m]
  Vec3 anchor_W = Vec3::Zero();  ///< the other end when body2 < 0: a point of the world [m]
  int body2 = -1;                ///< the other end's body (-1: the world)
  Vec3 point2_B = Vec3::Zero();  ///< the other end on body2, its body frame [m]
  double stiffness = 0.0;        ///< k [N/m]
  double damping = 0.0;          ///< c [N s/m]
  double rest_length = 0.0;      ///< ℓ0 [m]
  SourceMark mark;
};

/// Time-stepping scheme of the nonsmooth formulation (scene key `solver.scheme`; equations in
/// docs/nonsmooth.md).
enum class TimeScheme : std::uint8_t {
  /// Moreau's midpoint scheme: contacts at the midpoint configuration, impulses between two
  /// half-step drifts, the contact law on the symmetric velocity: second order in smooth phases
  /// (free flight, rolling, sticking, frictionless sliding), exact Newton impacts (default).
  midpoint,
  /// The θ-method Moreau–Jean scheme: contacts at the start of the step, the law on the end
  /// velocity; first order with contacts. Reproduces Siconos' MoreauJeanOSI.
  moreau_jean,
};

/// "midpoint" or "moreau_jean" (the scene's names).
[[nodiscard]] const char* to_string(TimeScheme scheme);

/// How the contacts are integrated (scene key `solver.formulation`).
enum class Formulation : std::uint8_t {
  nonsmooth,  ///< time stepping with set-valued laws (the step pipeline, docs/nonsmooth.md)
  compliant,  ///< ODE integration of force laws with error control (docs/compliant.md)
};
/// "nonsmooth" or "compliant" (the registry's names, coulomb::formulation_name).
[[nodiscard]] const char* to_string(Formulation formulation);

/// Which contacts join the step's contact problem (scene key `solver.active_set`; equations in
/// docs/nonsmooth.md).
enum class ActiveSetRule : std::uint8_t {
  /// The end-of-step gap predicted with the free velocity is ≤ activation_distance (default).
  predicted,
  /// Siconos' γ = 1/2 rule g + (h/2) ġ_k ≤ 0 (Moreau–Jean scheme only).
  siconos,
};
/// "predicted" or "siconos".
[[nodiscard]] const char* to_string(ActiveSetRule rule);

/// Integrator of the compliant formulation (scene key `solver.integrator`; docs/compliant.md).
enum class Integrator : std::uint8_t {
  /// ARKODE ERKStep: explicit adaptive Runge–Kutta (Dormand–Prince 5(4)); non-stiff scenes
  /// (impacts, free flight, friction with a wide regularisation). Default.
  erk,
  /// ARKODE ARKStep: diagonally implicit Runge–Kutta (ARKODE's default 4th-order DIRK),
  /// Newton with the dense Jacobian.
  dirk,
  /// CVODE: variable-order BDF (orders 1–5), Newton with the dense Jacobian; stiff contact
  /// (resting contacts, sticking regularised friction).
  bdf,
};
/// "erk", "dirk" or "bdf" (the scene's names).
[[nodiscard]] const char* to_string(Integrator integrator);

/// Settings of the compliant formulation (scene keys `solver.integrator`, `rtol`, `atol`,
/// `max_step`, `jacobian`; docs/compliant.md).
struct CompliantSettings {
  Integrator integrator = Integrator::erk;
  double rtol = 1e-8;     ///< relative tolerance of the local error [-]
  double atol = 1e-10;    ///< absolute tolerance of every state component (SI units)
  double max_step = 0.0;  ///< largest integrator step [s]; 0: no bound
  /// Newton's Jacobian (implicit integrators): the analytic one of the laws' derivatives (true),
  /// or SUNDIALS' difference quotients (false; `jacobian: difference`).
  bool analytic_jacobian = true;
};

/// Sleeping islands (scene key `solver.sleep`; docs/nonsmooth.md, "Sleeping islands"): off by
/// default. An island (bodies linked by contact points within the margin) whose every body has
/// moved slower than both thresholds for `time` seconds is put to sleep: its velocities are set to
/// zero (their kinetic energy is booked in State::slept) and its bodies are held still, as fixed
/// bodies, until a moving body comes within the contact margin plus its sweep of one of them or its
/// state is given a velocity; the whole island then wakes, with its contact memory.
struct SleepSettings {
  bool enabled = false;
  double linear_velocity = 0.01;   ///< |v| of the centre of mass below which a body is still [m/s]
  double angular_velocity = 0.05;  ///< |ω| below which a body is still [rad/s]
  double time = 0.5;               ///< how long an island stays still before it sleeps [s]
};

/// The most activation passes a scene may ask for (SolverSettings::activation_passes).
inline constexpr int kMaxActivationPasses = 100;

/// Solver settings (scene key `solver`): the formulation, the nonsmooth formulation's scheme and
/// contact solver, and the compliant formulation's integrator (`compliant`).
struct SolverSettings {
  TimeScheme scheme = TimeScheme::midpoint;          ///< time-stepping scheme
  Formulation formulation = Formulation::nonsmooth;  ///< how contacts are integrated
  /// Contact solver (scene key `solver.name`, written by to_string(SolverKind)): nsgs
  /// (Gauss–Seidel), prox (proximal point + semismooth Newton), or automatic ("auto": NSGS,
  /// handing over to PROX when it stalls; default). prox cannot solve contacts with moment laws
  /// (ContactSpec::moment_law): finalize() rejects the combination.
  SolverKind kind = SolverKind::automatic;
  double tolerance = 1e-10;  ///< error ‖r − P_K(...)‖/‖q‖ to reach [-]
  /// NSGS sweeps (or PROX Newton iterations) of one solve; a step solves up to
  /// 2 + activation_passes times (docs/nonsmooth.md)
  int max_iterations = 500;
  /// Budget mode: at most this many sweeps and Newton iterations over all the solves of a step
  /// (0: no budget). When it runs out the step applies the answer it has and reports its error and
  /// status `max_iterations` in solver.csv (docs/nonsmooth-solvers.md, "Budget mode").
  int max_step_iterations = 0;
  /// Depth of the Anderson acceleration of the NSGS sweeps (nsgs and auto; 0: plain Gauss–Seidel;
  /// SolverOptions::anderson_depth).
  int anderson_depth = 5;
  /// NSGS's drift jump (nsgs and auto on contacts with Coulomb cones; SolverOptions::drift_jump,
  /// docs/nonsmooth-solvers.md "Drift jump").
  bool drift_jump = true;
  /// Contacts a colour needs to be relaxed in parallel (SolverOptions::parallel_colour_min,
  /// default kParallelColourMin = 64). Not a scene key: it changes speed, never results (the
  /// threads test lowers it to run the parallel path on a small scene).
  int parallel_colour_min = 64;
  /// Items (bodies, shapes, pairs, points, contacts) a loop of the step's stages needs to run on
  /// every core (OpenMP; 2048 by default). Not a scene key: each item is computed by
  /// one thread into its own slot and every sum keeps its order, so it changes speed, never
  /// results (the threads test lowers it).
  int parallel_loop_min = 2048;
  double theta = 0.5;                                   ///< θ of the θ-method [-], in [0.5, 1]
  ActiveSetRule active_set = ActiveSetRule::predicted;  ///< see ActiveSetRule
  double contact_margin = 1e-3;  ///< narrowphase reports points with gap ≤ margin [m]
  /// Predicted gaps up to this distance count as closed under the "predicted" rule [m]: gaps of
  /// resting contacts are round-off (1e-16 m) above or below zero, and two bodies in free fall
  /// together see no closing velocity, so an exact ≤ 0 test would drop a resting contact at random.
  double activation_distance = 1e-9;
  /// Times a step's problem may grow by the points its answer closes (stage activate, scene key
  /// solver.activation_passes, 0 … kMaxActivationPasses): each pass adds the points the last
  /// answer closes and solves again; what the last pass's answer still closes stays out of the
  /// step and is counted (StepReport::left_out). Four passes take in four "layers" of a pile
  /// whose contacts fall together; more cost sweeps (docs/nonsmooth.md, "When the passes run
  /// out").
  int activation_passes = 4;
  /// Position stage: after the velocity update, contacts whose predicted end-of-step gap is
  /// below −position_tolerance are closed at position level by a mass-weighted displacement that
  /// does not change the velocities (docs/nonsmooth.md, "position correction").
  bool position_correction = true;
  double position_tolerance = 1e-8;  ///< penetration that triggers the position stage [m]
  /// Radius given to sharp features (box edges and corners, hull vertices, cylinder and cone rims,
  /// a cone's apex), where the narrowphase reports a curvature radius of 0, for the Hertz-type
  /// laws and the Hertz patch of both formulations; in the compliant formulation also to the
  /// points of a face lying on a face (docs/compliant.md) [m].
  double sharp_radius = 1e-3;
  CompliantSettings compliant;  ///< the compliant formulation's integrator (formulation compliant)
  SleepSettings sleep;          ///< sleeping islands (nonsmooth formulation; off by default)
};

/// Rows of solver.csv (scene key `output.solver`): one per output time holding aggregates over
/// the steps since the last row (`per_output`, the default), or one per step (`every_step`).
enum class SolverRows { per_output, every_step };
[[nodiscard]] const char* to_string(SolverRows rows);

/// Output settings (scene key `output`).
struct OutputSettings {
  int every = 0;                               ///< write every K steps (0 = use interval)
  double interval = 0.0;                       ///< write every S seconds (0 = use every)
  SolverRows solver = SolverRows::per_output;  ///< rows of solver.csv
};

/// The numbers the step reads that follow from a model's spec, computed once by compile(): what
/// used to be looked up or rebuilt from names, maps and matrices at run time.
struct CompiledModel {
  /// Number of materials nm; material -1 (the default material) is mapped to index nm below.
  int material_count = 0;
  /// (nm+1)² index into `laws` of each ordered material pair (a, b), at a (nm + 1) + b.
  std::vector<std::int32_t> law_of_materials;
  /// (ncontacts + 1) the set-valued laws of each contact spec: [0] Model::default_contact, [i + 1]
  /// Model::contacts[i].
  std::vector<NonsmoothLaws> laws;
  /// Unknowns per contact of the step's contact problem: kWrench (N, T1, T2, Mn, Mt1, Mt2) when
  /// a law of `laws` has moments (pivoting, rolling, Contensou), else kForce (N, T1, T2).
  int unknowns = kForce;
  std::vector<Mat3> inv_inertia_B;  ///< (nbodies) I_B⁻¹ about the centre of mass (fixed: 0)
  /// (nshapes) farthest distance of the shape from its body's centre of mass [m] (inf: unbounded)
  std::vector<double> shape_reach;
  std::vector<std::uint8_t> shape_fixed;    ///< (nshapes) 1 when the shape's body is fixed
  std::vector<ShapeKind> shape_kind;        ///< (nshapes) Shape::kind()
  std::vector<std::int32_t> body_material;  ///< (nbodies) Body::material
  /// (nbodies) 1 when a joint holds the (free) body: it is in every step's problem
  std::vector<std::uint8_t> body_jointed;

  /// Index into `laws` of the pair of materials (-1: the default material).
  [[nodiscard]] int law_index(int material1, int material2) const {
    const int nm = material_count;
    return law_of_materials[static_cast<std::size_t>((material1 < 0 ? nm : material1) * (nm + 1) +
                                                     (material2 < 0 ? nm : material2))];
  }
};

/// The immutable description of a simulation.
struct Model {
  std::string name = "scene";
  Vec3 gravity = Vec3(0, 0, -9.81);  ///< [m/s²]
  double end_time = 1.0;             ///< [s]
  double time_step = 1e-3;           ///< h [s]
  SolverSettings solver;
  OutputSettings output;
  std::vector<Material> materials;
  std::vector<ContactSpec> contacts;
  std::vector<Body> bodies;
  std::vector<Shape> shapes;    ///< all shapes, body by body; pose_BS relative to the body frame
  std::vector<int> shape_body;  ///< (nshapes) owning body of each shape
  ContactSpec default_contact;  ///< used for material pairs with no `contacts` entry
  std::vector<Spring> springs;  ///< spring–dampers (scene key `springs`)
  /// Joints (docs/joints.md): constraints in the nonsmooth problem; body-frame data filled by
  /// attach_joints from the initial state.
  std::vector<Joint> joints;
  /// The numbers the step reads, computed from the fields above by finalize() (compile()).
  CompiledModel compiled;

  /// Index of the contact spec between two materials (or -1 for the default).
  [[nodiscard]] int contact_spec_index(int material1, int material2) const;
  /// The contact spec between two bodies' materials.
  [[nodiscard]] const ContactSpec& contact_spec(int body1, int body2) const;
  /// Index of a body by name, -1 if none.
  [[nodiscard]] int body_index(const std::string& name) const;
  /// Index of a material by name, -1 if none.
  [[nodiscard]] int material_index(const std::string& name) const;

  /// Checks the invariants of the spec and fills `shape_body` from the bodies' shape ranges.
  /// Throws std::invalid_argument ("Model::finalize: ...") saying what is wrong: shape ranges not
  /// contiguous in body order, a free body with mass <= 0 or an inertia that is not symmetric
  /// positive definite, a plane on a free body, material or contact indices out of range,
  /// h <= 0, end time <= 0, non-finite values, or solver prox with a moment law in a contact spec
  /// (the 6-unknown problem has only NSGS). Leaves `compiled` as it is.
  void validate();
  /// validate(), then `compiled = compile(*this)`: what makes a model steppable. Throws as
  /// validate() does, and as compile() does for a contact law the nonsmooth formulation cannot
  /// run. The scene loader calls it last for a scene whose laws the nonsmooth formulation runs
  /// (only validate() otherwise); Simulation calls it on the model it is given.
  void finalize();
  /// True when `compiled` was computed for this model's sizes (bodies, shapes, materials,
  /// contacts): what step() checks. Values changed since finalize() are not detected.
  [[nodiscard]] bool compiled_for_sizes() const;
  /// True when a body is driven or loaded (force, torque, damping) or a spring has a damper or
  /// joins two bodies: energy.csv and summary.json then carry the work columns (docs/outputs.md).
  [[nodiscard]] bool has_actuation() const;
};

/// The first body (index b) or spring (index nbodies + i) whose forces have no term in the
/// compliant formulation's analytic Jacobian (damping, a body-frame or off-centre load, a spring
/// between bodies or with a damper), or -1.
[[nodiscard]] int actuation_without_jacobian(const Model& model);

/// The compiled part of a model whose spec is valid (finalize() checks it first): the laws of
/// every contact spec (resolve_nonsmooth_laws, which throws std::invalid_argument naming the
/// material pair for a law the nonsmooth formulation cannot run), the law index of every
/// material pair, inverse inertias, shape reach and fixed flags, and the unknowns per contact.
[[nodiscard]] CompiledModel compile(const Model& model);

/// True if the symmetric matrix `inertia` [kg m²] is a physical inertia tensor: symmetric (to a
/// relative 1e-9), positive definite, and its principal moments satisfy the triangle inequality
/// I_a + I_b >= I_c (to a relative 1e-9 of the trace, so that thin plates and rods pass).
/// When false, `why` (if non-null) receives a phrase saying which condition fails, e.g.
/// "its principal moments (1, 1, 2.5) violate the triangle inequality I1 + I2 >= I3".
[[nodiscard]] bool is_physical_inertia(const Mat3& inertia, std::string* why = nullptr);

}  // namespace coulomb
