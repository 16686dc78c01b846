#pragma once
/// @file
/// The contact-law interface of coulomb: what every constitutive law of the `laws` module offers to
/// the two formulations, and the factories that build a law from a scene-file LawSpec.
///
/// Design
/// ------
/// - A law is a pure function of contact kinematics and parameters. It is constructed and validated
///   once from a LawSpec (coulomb/laws/law_spec.hpp); construction throws LawError (a
///   std::invalid_argument) whose message names the key and the valid range, e.g.
///   "friction.mu: must be ≥ 0, got -0.2", and which carries the key and its SourceMark so that the
///   scene loader can point at file:line:col. Evaluation never throws and never allocates.
/// - Compliant interface (the ODE formulation): a normal law gives N(δ, δ̇, geometry) with ∂N/∂δ and
///   ∂N/∂δ̇; a friction law gives F_t(v_t, N, x_t, memory) with ∂F/∂v_t (2×2), ∂F/∂N and ∂F/∂x_t;
///   moment laws give M(ω, N) with their derivatives. Each result carries the power the law
///   dissipates (≥ 0). Per-contact memory (elastic-stick anchor, stick flag, previous slip) is the
///   small value FrictionMemory, passed in and returned updated: it lives in the simulation State,
///   never in the law.
/// - Nonsmooth interface: a set-valued law gives the numbers of its admissible set (restitution,
///   the cone's μ_s/μ_k, the moment lengths h, k, the Contensou model); compiling the model
///   resolves them once per material pair (model/contact_laws.hpp), the step turns those into the
///   contact problem's per-contact law (ContactLaw6, μ), and the solvers project on that set
///   (nonsmooth/). The sets of coulomb/laws/admissible_set.hpp and contensou_set.hpp are the same
///   sets as stand-alone values for tests and the Python module; the step does not call them.
/// - Which laws exist, their keys, ranges, defaults and formulations: the registry
///   (coulomb/laws/registry.hpp). The factories below build through it.
///
/// Sign conventions (DESIGN.md §1)
/// --------------------------------
/// The normal n points from body 1 to body 2; gap g > 0 separated; penetration δ = −g and its rate
/// δ̇ = −v_n. Contact frame (t1, t2, n) right-handed; all 2-D vectors here are components on (t1,
/// t2). Slip v = v_{I∈2} − v_{I∈1}, sliding v_t its tangential part; ω = ω_2 − ω_1, spin ω_n = ω·n,
/// rolling ω_t = n × (ω × n). Forces and moments are the action of body 1 on body 2: R = N n + F_t,
/// M = M_n n + M_t; N ≥ 0; friction opposes v_t, the pivoting moment opposes ω_n, the rolling
/// moment opposes ω_t.
///
/// Energy
/// ------
/// Four kinds of dissipated power, each ≥ 0 (EnergyKind): normal (the damping part of the normal
/// force, (N − N_elastic) δ̇), friction (−F_t·v_t minus the power stored in an elastic-stick
/// spring), rolling (−M_t·ω_t), pivoting (−M_n ω_n). Elastic parts report their stored energy
/// instead.

#include <coulomb/collision/contact_point.hpp>
#include <coulomb/laws/law_spec.hpp>
#include <coulomb/math/types.hpp>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace coulomb {

using Vec2 = Eigen::Vector2d;  ///< components on (t1, t2)
using Mat2 = Eigen::Matrix2d;

/// A bad law parameter, found at construction. `what()` reads "KEY: must be ..., got VALUE".
class LawError : public std::invalid_argument {
 public:
  LawError(std::string key, const std::string& message, SourceMark mark = {})
      : std::invalid_argument(message), key_(std::move(key)), mark_(mark) {}
  /// The offending key with its section, e.g. "friction.mu" (the section alone for the law name).
  [[nodiscard]] const std::string& key() const { return key_; }
  /// Where the key was written in the scene file (0:0 when not from a file).
  [[nodiscard]] SourceMark mark() const { return mark_; }

 private:
  std::string key_;
  SourceMark mark_;
};

/// The kind of a law's dissipation: EnergyKind (model/state.hpp; energy.csv has one column per
/// kind): normal, friction, rolling or pivoting (a law never reports `correction`, which is the
/// position stage's). Its name, e.g. "normal".
[[nodiscard]] std::string_view energy_kind_name(EnergyKind kind);

// ---------------------------------------------------------------------------------------------
// Normal laws
// ---------------------------------------------------------------------------------------------

/// What a normal law needs to know of the contact's geometry.
struct NormalGeometry {
  /// Equivalent radius R* [m] such that a Hertz contact gives N = (4/3) E* √R* δ^{3/2}; for two
  /// spheres 1/R* = 1/R1 + 1/R2; for unequal principal curvatures see hertz_ellipse(). +inf: flat.
  double radius = kInf;
  /// The elliptic Hertz contact (hertz_ellipse), when the principal curvatures differ: semi-axes
  /// a ≥ b of the contact ellipse per √δ [√m] (0: a circle of radius √(R* δ)) and the direction
  /// of the major axis on (t1, t2). The Contensou law integrates over that ellipse.
  double a_factor = 0.0;
  double b_factor = 0.0;
  Vec2 major = Vec2::UnitX();
  /// True when the contact is an ellipse (b < a).
  [[nodiscard]] bool elliptic() const { return b_factor > 0.0 && b_factor < a_factor; }
};

/// Normal force of a compliant law and its derivatives.
struct NormalResult {
  double force = 0.0;    ///< N ≥ 0 [N]
  double d_delta = 0.0;  ///< ∂N/∂δ [N/m]
  double d_rate = 0.0;   ///< ∂N/∂δ̇ [N s/m]
  double power = 0.0;    ///< dissipated power (N − N_elastic) δ̇ ≥ 0 [W]
};

/// A normal contact law.
class NormalLaw {
 public:
  virtual ~NormalLaw() = default;
  /// The scene-file name: signorini, linear, hertz, hunt_crossley, dis_choc.
  [[nodiscard]] virtual std::string_view name() const = 0;
  /// True for Signorini (nonsmooth formulation only); evaluate() then returns zeros.
  [[nodiscard]] virtual bool set_valued() const { return false; }
  /// Newton restitution coefficient e_n in [0, 1] used by the nonsmooth formulation at impacts
  /// (compliant laws: 0, their restitution comes from their damping).
  [[nodiscard]] virtual double restitution() const { return 0.0; }
  /// N(δ, δ̇) for penetration δ = −gap [m] and its rate δ̇ [m/s]. N = 0 for δ ≤ 0.
  [[nodiscard]] virtual NormalResult evaluate(double delta, double delta_rate,
                                              const NormalGeometry& geometry) const = 0;
  /// Elastic energy stored at penetration δ [J] (0 for δ ≤ 0 and for Signorini).
  [[nodiscard]] virtual double potential(double delta, const NormalGeometry& geometry) const = 0;
};

// ---------------------------------------------------------------------------------------------
// Friction (tangential) laws
// ---------------------------------------------------------------------------------------------

/// Per-contact friction memory; lives in the simulation State. Default: slipping, no anchor.
struct FrictionMemory {
  bool sticking = false;              ///< previous state: stick (true) or slip (false)
  Vec2 anchor_force = Vec2::Zero();   ///< F0: tangential force when the anchor was set [N]
  Vec2 anchor = Vec2::Zero();         ///< x0: tangential displacement where slip stopped [m]
  Vec2 previous_slip = Vec2::Zero();  ///< v_t at the previous evaluation that was committed [m/s]
};

/// Kinematic input of a friction law.
struct TangentialInput {
  Vec2 slip = Vec2::Zero();          ///< v_t [m/s]
  double normal_force = 0.0;         ///< N ≥ 0 [N]
  Vec2 displacement = Vec2::Zero();  ///< x_t: accumulated tangential relative displacement [m]
                                     ///< (used by elastic stick only)
  /// Keep the branch `memory.sticking` says whatever the cap and the threshold say (laws with a
  /// stick branch only): the compliant formulation holds a branch between two events and switches
  /// where switching_function() changes sign, located by root finding (docs/compliant.md).
  bool hold_branch = false;
};

/// Friction force of a compliant law, its derivatives and the updated memory.
struct TangentialResult {
  Vec2 force = Vec2::Zero();           ///< F_t [N]
  Mat2 d_slip = Mat2::Zero();          ///< ∂F_t/∂v_t [N s/m]
  Vec2 d_normal = Vec2::Zero();        ///< ∂F_t/∂N [-]
  Mat2 d_displacement = Mat2::Zero();  ///< ∂F_t/∂x_t [N/m] (elastic stick; 0 otherwise)
  double power = 0.0;                  ///< dissipated power ≥ 0 [W]
  double stored = 0.0;                 ///< elastic energy in a stick spring [J]
  FrictionMemory memory;               ///< memory to commit if this evaluation ends the step
};

/// A friction law. Set-valued laws (Coulomb) also give their cone for the nonsmooth formulation.
class FrictionLaw {
 public:
  virtual ~FrictionLaw() = default;
  /// The scene-file name: coulomb, viscous, regularized, stribeck, elastic_stick.
  [[nodiscard]] virtual std::string_view name() const = 0;
  /// True for Coulomb: the nonsmooth formulation uses cone(); evaluate() gives the slip branch.
  [[nodiscard]] virtual bool set_valued() const { return false; }
  /// Friction coefficients (μ along t1, μ along t2) of the admissible cone given the previous
  /// stick/slip state (μ_s after a stick, μ_k after a slip). Compliant laws: their saturation.
  [[nodiscard]] virtual Vec2 cone_coefficients(const FrictionMemory& memory) const = 0;
  /// F_t as a function of slip, normal force and memory.
  [[nodiscard]] virtual TangentialResult evaluate(const TangentialInput& input,
                                                  const FrictionMemory& memory) const = 0;
  /// True for a law with a stick branch and an anchor in its memory (elastic stick): its force
  /// depends on `memory.sticking`, which the compliant formulation switches at events.
  [[nodiscard]] virtual bool has_stick_branch() const { return false; }
  /// The switching function of the branch in `memory.sticking`, > 0 while the branch holds and
  /// changing sign where it ends: sticking, (μ_s N)² − ‖F_stick‖² [N²] (the cap); slipping,
  /// ‖v_t‖² − ε² [m²/s²] (the contact slows down below the stick threshold). 1 for laws without
  /// a stick branch.
  [[nodiscard]] virtual double switching_function(const TangentialInput& input,
                                                  const FrictionMemory& memory) const {
    (void)input;
    (void)memory;
    return 1.0;
  }
  /// The single kinetic coefficient μ of an isotropic law with a finite one (the cone after a
  /// slip: coulomb μ_k, regularized μ, stribeck μ_k, elastic_stick μ_k), else NaN (viscous,
  /// anisotropic Coulomb). The soft finger (h = μ r_t) and the Contensou laws take it.
  [[nodiscard]] double isotropic_coefficient() const;
};

// ---------------------------------------------------------------------------------------------
// Moment laws (rolling, pivoting, soft finger)
// ---------------------------------------------------------------------------------------------

/// Rolling moment M_t (2-D, on (t1, t2)) and its derivatives.
struct RollingResult {
  Vec2 moment = Vec2::Zero();    ///< M_t [N m]
  Mat2 d_omega = Mat2::Zero();   ///< ∂M_t/∂ω_t [N m s]
  Vec2 d_normal = Vec2::Zero();  ///< ∂M_t/∂N [m]
  double power = 0.0;            ///< −M_t·ω_t ≥ 0 [W]
};

/// Pivoting moment M_n and its derivatives.
struct PivotingResult {
  double moment = 0.0;    ///< M_n [N m]
  double d_omega = 0.0;   ///< ∂M_n/∂ω_n [N m s]
  double d_normal = 0.0;  ///< ∂M_n/∂N [m]
  double power = 0.0;     ///< −M_n ω_n ≥ 0 [W]
};

class RollingLaw {
 public:
  virtual ~RollingLaw() = default;
  /// Rolling-friction length k [m]: ‖M_t‖ ≤ k N.
  [[nodiscard]] virtual double coefficient() const = 0;
  [[nodiscard]] virtual RollingResult evaluate(const Vec2& omega_t, double normal_force) const = 0;
};

class PivotingLaw {
 public:
  virtual ~PivotingLaw() = default;
  /// Pivoting length h [m]: |M_n| ≤ h N (soft finger: h = r_t μ).
  [[nodiscard]] virtual double coefficient() const = 0;
  [[nodiscard]] virtual PivotingResult evaluate(double omega_n, double normal_force) const = 0;
};

// ---------------------------------------------------------------------------------------------
// Coupled sliding and spinning (Coulomb–Contensou), compliant form
// ---------------------------------------------------------------------------------------------

/// Kinematic input of a coupled sliding–spinning law.
struct PatchInput {
  Vec2 slip = Vec2::Zero();     ///< v_t at the patch centre [m/s]
  double spin = 0.0;            ///< ω_n [rad/s]
  Vec2 rolling = Vec2::Zero();  ///< ω_t [rad/s] (used by rolling resistance only)
  double normal_force = 0.0;    ///< N ≥ 0 [N]
};

/// Friction force, pivoting moment and rolling-resistance moment of a patch, with derivatives.
/// Row vectors (∂scalar/∂vector) are stored as Vec2.
struct PatchResult {
  Vec2 force = Vec2::Zero();              ///< F_t [N]
  double moment = 0.0;                    ///< M_n [N m]
  Vec2 rolling_moment = Vec2::Zero();     ///< M_t [N m] (rolling resistance; 0 without it)
  double patch_radius = 0.0;              ///< a used [m]
  Mat2 dforce_dslip = Mat2::Zero();       ///< ∂F_t/∂v_t [N s/m]
  Vec2 dforce_dspin = Vec2::Zero();       ///< ∂F_t/∂ω_n [N s]
  Mat2 dforce_drolling = Mat2::Zero();    ///< ∂F_t/∂ω_t [N s]
  Vec2 dforce_dnormal = Vec2::Zero();     ///< ∂F_t/∂N [-]
  Vec2 dmoment_dslip = Vec2::Zero();      ///< ∂M_n/∂v_t [N s]
  double dmoment_dspin = 0.0;             ///< ∂M_n/∂ω_n [N m s]
  Vec2 dmoment_drolling = Vec2::Zero();   ///< ∂M_n/∂ω_t [N m s]
  double dmoment_dnormal = 0.0;           ///< ∂M_n/∂N [m]
  Mat2 drolling_drolling = Mat2::Zero();  ///< ∂M_t/∂ω_t [N m s]
  Vec2 drolling_dnormal = Vec2::Zero();   ///< ∂M_t/∂N [m]
  double friction_power = 0.0;            ///< −F_t·v_t [W]
  double pivoting_power = 0.0;            ///< −M_n ω_n [W]
  double rolling_power = 0.0;             ///< −M_t·ω_t ≥ 0 [W]
  bool set_valued = false;                ///< v_t = ω_n = 0 without regularisation: zeros returned
};

/// A coupled sliding–spinning law: F_t and M_n together from (v_t, ω_n, N, patch radius), and the
/// rolling-resistance moment M_t when the patch pressure is distorted
/// (coulomb/laws/contensou_law.hpp). Power: friction_power + pivoting_power ≥ 0 always; each is ≥ 0
/// without rolling resistance.
class ContensouLaw {
 public:
  virtual ~ContensouLaw() = default;
  /// The model's scene-file name: ellipsoid, exact, pade11, pade22, generalized, quadrature.
  [[nodiscard]] virtual std::string_view name() const = 0;
  /// μ used over the patch [-].
  [[nodiscard]] virtual double friction_coefficient() const = 0;
  /// Patch radius a [m] for normal force N [N]: given, or Hertz's (3 N R*/(4 E*))^{1/3}.
  [[nodiscard]] virtual double patch_radius(double normal_force,
                                            const NormalGeometry& geometry) const = 0;
  /// F_t, M_n, M_t and their derivatives. N ≤ 0 gives zeros.
  [[nodiscard]] virtual PatchResult evaluate(const PatchInput& input,
                                             const NormalGeometry& geometry) const = 0;
};

// ---------------------------------------------------------------------------------------------
// Factories (throw LawError on bad parameters)
// ---------------------------------------------------------------------------------------------

/// Normal law from `normal: {law: signorini|linear|hertz|hunt_crossley|dis_choc, ...}`. Hertz and
/// Hunt–Crossley without an explicit `stiffness` take E, ν from the two materials.
[[nodiscard]] std::unique_ptr<NormalLaw> make_normal_law(const LawSpec& spec,
                                                         const Material& material1 = {},
                                                         const Material& material2 = {});
/// Friction law from `friction: {law: coulomb|viscous|regularized|stribeck|elastic_stick, ...}`.
[[nodiscard]] std::unique_ptr<FrictionLaw> make_friction_law(const LawSpec& spec);
/// Rolling friction from `rolling: {k, regularization}`.
[[nodiscard]] std::unique_ptr<RollingLaw> make_rolling_law(const LawSpec& spec);
/// Pivoting friction from `pivoting: {h, regularization}`.
[[nodiscard]] std::unique_ptr<PivotingLaw> make_pivoting_law(const LawSpec& spec);
/// Soft finger from `soft_finger: {radius, regularization}` and the friction coefficient μ of the
/// contact's friction law (h = r_t μ).
[[nodiscard]] std::unique_ptr<PivotingLaw> make_soft_finger_law(const LawSpec& spec, double mu);

/// Coulomb–Contensou from `contensou: {model, pressure, radius, regularization, ...}` with the
/// contact's friction coefficient μ (kinetic), the two materials (E, ν for the Hertz patch radius
/// when `radius` is omitted) and, if given, `rolling_resistance: {kappa, regularization}`.
[[nodiscard]] std::unique_ptr<ContensouLaw> make_contensou_law(
    const LawSpec& spec, double mu, const Material& material1 = {}, const Material& material2 = {},
    const LawSpec* rolling_resistance = nullptr);

}  // namespace coulomb
