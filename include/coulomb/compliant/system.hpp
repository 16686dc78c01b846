#pragma once
/// @file
/// The state ODE of the compliant formulation: rigid bodies under gravity and the compliant
/// contact laws, with its right-hand side, its Jacobian and the root functions of contact
/// events (docs/compliant.md).
///
/// State vector y (SI units), free bodies in model order, then the contacts' internal states,
/// then the dissipated energies:
///
///     body j:  x (3)  centre of mass, world [m]
///              q (4)  orientation body → world (w, x, y, z), integrated unnormalised
///              v (3)  centre-of-mass velocity, world [m/s]
///              L (3)  angular momentum about the centre of mass, world [kg m²/s]
///     stick k: s (3)  tangential slip of a sticking elastic-stick contact since its anchor,
///                     world [m]
///     last 4:  energy dissipated by kind (normal, friction, rolling, pivoting) [J]
///
/// Equations (R = R(q/|q|), I_W⁻¹ = R I_B⁻¹ Rᵀ, ω = I_W⁻¹ L):
///
///     ẋ = v,   q̇ = ½ (0, ω) ⊗ q,   m v̇ = m g + Σ F,   L̇ = Σ (r × F + M),
///     ṡ = v_t (the contact's sliding velocity),   Ė_kind = P_kind (the laws' dissipated powers).
///
/// Poses live on the Lie group R³ × S³ (unit quaternions, the double cover of SO(3)): the field
/// ½ (0, ω) ⊗ q is tangent to the sphere |q| = const, so |q| drifts only by the integrator's
/// error, and R is always read through q/|q|; the state is renormalised at every restart. The
/// angular momentum is world-frame, so torque-free rotation keeps L exactly (a linear invariant
/// every Runge–Kutta and BDF method conserves) and the kinetic energy to the error tolerance.
///
/// Contacts, at every evaluation: broadphase (AABBs grown by solver.contact_margin),
/// narrowphase, the contact frame (t1, t2, n), penetration δ = −gap, the relative velocity
/// u = (v_n, v_t1, v_t2, ω_n, ω_t1, ω_t2) of body 2 with respect to body 1 at the contact point I
/// (the midpoint of the two surface points; a fixed body's surface moves at its
/// `surface_velocity`), and, where δ > 0, the wrench w = (N, F_t1, F_t2, M_n, M_t1, M_t2) of the
/// laws (compliant/contact_laws.hpp), applied at I to body 2 and its opposite to body 1. The
/// normal force is the current one (the Hertz patch radius of a Contensou law included).
///
/// Jacobian ∂f/∂y (implicit integrators): with B_k = [H_k; A] (6×6; rows of H_k: [dᵀ, (r_k × d)ᵀ]
/// for d = n, t1, t2; rows of A: [0, dᵀ]) so that u = B2 ν2 − B1 ν1 and the generalised force on
/// body k is σ_k B_kᵀ w (σ1 = −1, σ2 = +1):
///
///     ∂Q_a/∂ν_b = σ_a σ_b B_aᵀ (∂w/∂u) B_b,     ∂Q_a/∂p_b = −σ_a σ_b B_aᵀ (∂w/∂δ) H_b,N,
///     ∂Q_a/∂s = σ_a B_aᵀ (∂w/∂s),               ∂ṡ/∂ν_b = σ_b [t1 t2] (rows t1, t2 of B_b),
///
/// with ∂w/∂u, ∂w/∂δ, ∂w/∂s from the laws' derivatives (∂N/∂δ, ∂N/∂δ̇, ∂F_t/∂v_t, ∂F_t/∂N,
/// ∂F_t/∂x_t, and the Contensou law's ∂/∂(v_t, ω_n, ω_t, N)), the gap's first variation
/// δgap = H_2,N δp_2 − H_1,N δp_1 (exact for smooth convex shapes, docs/kinematics.md), ν = (v, ω)
/// mapped to (v, L, q) through ω = I_W⁻¹(q) L, and the rotation δθ = (2/|q|²) vec(δq ⊗ q*) for
/// configuration columns. The body rows are exact: ∂q̇/∂q = ½ Ω(ω) + ½ E(q) ∂ω/∂q,
/// ∂ω/∂q = (−[ω]× + I_W⁻¹ [L]×) ∂θ/∂q, ∂q̇/∂L = ½ E(q) I_W⁻¹. Neglected (documented, tested to be
/// absent where they vanish): the change of the contact point, lever arms and frame with the
/// configuration (the geometric stiffness), which is O(|w| / size) against the laws' stiffness;
/// and the rows of the energies (they feed nothing back: Newton converges on them with the
/// rest).
///
/// Root functions (one segment between restarts; the caller restarts at every root), for the nl
/// contact points present at the start of the segment (listed), then the others:
///   [0, nl)       onset:   gap − ε, decreasing   (the margin when the point is gone)
///   [nl, 2nl)     release: gap + ε, increasing   (the margin when the point is gone)
///   2nl           a new point: the least gap − ε of the points not listed, decreasing
///   (2nl, 3nl]    the switching function of a hybrid friction law of a closed point (elastic
///                 stick: the cap for a sticking contact, the threshold for a slipping one),
///                 decreasing; 1 otherwise.
/// Contact onset and release stop the integration, so that no step straddles a kink of the laws
/// at δ = 0. The hysteresis ε = 1e-12 m per metre of the scene's extent (at least 1 m) keeps the
/// roots off the gap's round-off (a gap of 1e-18 m is noise around a crossing: its zero is a
/// plateau of values of both signs, on which a secant root finder wanders); the kink lies within
/// ε of where the integration restarts.

#include <coulomb/collision/broadphase.hpp>
#include <coulomb/compliant/contact_laws.hpp>
#include <coulomb/compliant/integrator.hpp>
#include <coulomb/laws/law.hpp>
#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace coulomb {

using Mat6 = Eigen::Matrix<double, 6, 6>;

/// A contact point evaluated at one state: geometry, kinematics and the laws' answers.
struct CompliantContactResult {
  ContactPoint point;  ///< narrowphase point (bodies, shapes, frame, gap, curvatures)
  const CompliantLaws* laws = nullptr;
  std::int32_t stick = -1;     ///< index of its sticking entry (State::compliant.contacts)
  Vec3 r1 = Vec3::Zero();      ///< I − x1 [m]
  Vec3 r2 = Vec3::Zero();      ///< I − x2 [m]
  Vec6 u = Vec6::Zero();       ///< (v_n, v_t1, v_t2, ω_n, ω_t1, ω_t2) [m/s, rad/s]
  Vec6 w = Vec6::Zero();       ///< (N, F_t1, F_t2, M_n, M_t1, M_t2) of 1 on 2 [N, N m]
  double radius = kInf;        ///< equivalent radius R* of the normal laws [m]
  double patch_radius = 0.0;   ///< Contensou patch radius used [m]
  double elastic = 0.0;        ///< energy stored in its springs [J] (normal and stick)
  double stick_elastic = 0.0;  ///< the stick spring's part, relative to its anchor [J]
  std::array<double, 4>
      power{};             ///< dissipated power by kind (normal, friction, rolling, pivoting) [W]
  double switching = 1.0;  ///< switching function of a hybrid friction law (1: none)
  bool hybrid = false;     ///< its friction law has a stick branch
  ContactStatus status = ContactStatus::separated;
  // Derivatives (filled when asked for).
  Mat6 dw_du = Mat6::Zero();                                                ///< ∂w/∂u
  Vec6 dw_ddelta = Vec6::Zero();                                            ///< ∂w/∂δ
  Eigen::Matrix<double, 6, 3> dw_ds = Eigen::Matrix<double, 6, 3>::Zero();  ///< ∂w/∂s (world s)
};

/// The ODE of a model in the compliant formulation (see the file comment).
class CompliantSystem final : public OdeSystem {
 public:
  /// Per free body: x, q, v, L.
  static constexpr int kBodySize = 13;
  /// The energies at the end of y.
  static constexpr int kEnergies = 4;
  /// With actuation (Model::has_actuation), after them: the driven bodies' work, the loads' work,
  /// the energy removed by damping (State::driven_work, force_work, damping).
  static constexpr int kActuationEnergies = 3;

  /// `laws` must outlive the system.
  CompliantSystem(const Model& model, const CompliantLawTable& laws);

  /// Starts a segment at `state` (its time, bodies, sticking contacts): lays out y, fills it
  /// (quaternions normalised, L from ω), lists the contact points for the root functions and
  /// keeps the root functions' values at the start.
  void begin_segment(const State& state, std::vector<double>& y);
  /// The root directions of the segment (one per root function; layout in the file comment).
  [[nodiscard]] std::span<const int> root_directions() const { return directions_; }
  /// True when root function i crossed zero in its direction since the start of the segment:
  /// SUNDIALS reports it in `found`, or its value `now` (at the root) has the other sign.
  [[nodiscard]] bool crossed(std::size_t i, std::span<const int> found,
                             std::span<const double> now) const;
  /// Index of the onset, release and switching roots of listed point i, and of the new-point
  /// root.
  [[nodiscard]] std::size_t onset_root(std::size_t i) const { return i; }
  [[nodiscard]] std::size_t release_root(std::size_t i) const { return listed_.size() + i; }
  [[nodiscard]] std::size_t new_point_root() const { return 2 * listed_.size(); }
  [[nodiscard]] std::size_t switching_root(std::size_t i) const {
    return 2 * listed_.size() + 1 + i;
  }
  /// ε of the onset and release roots [m].
  [[nodiscard]] double hysteresis() const { return hysteresis_; }
  /// The root functions' values at the start of the segment.
  [[nodiscard]] std::span<const double> roots_at_start() const { return start_; }
  /// Writes y into the state's bodies (unit quaternions, ω = I_W⁻¹ L), its sticking contacts'
  /// slips and its dissipated energies (the correction kind untouched). Time is the caller's.
  void unpack(std::span<const double> y, State& state) const;

  /// Evaluates every contact point at (t, y); with `derivatives`, also ∂w/∂u, ∂w/∂δ, ∂w/∂s.
  const std::vector<CompliantContactResult>& evaluate(double t, std::span<const double> y,
                                                      bool derivatives);
  /// The last evaluation's contacts.
  [[nodiscard]] const std::vector<CompliantContactResult>& contacts() const { return results_; }
  /// Energy stored in the contacts' springs at the last evaluation [J].
  [[nodiscard]] double elastic_energy() const;
  /// The sticking contacts of the segment (keys and anchor forces; their slips are in y).
  [[nodiscard]] const std::vector<CompliantContact>& sticks() const { return sticks_; }
  /// Offset of the energies in y, and its size.
  [[nodiscard]] std::size_t energy_offset() const { return energy_offset_; }
  [[nodiscard]] std::size_t size() const { return size_; }
  /// Index of a body in y (−1: fixed).
  [[nodiscard]] int slot(int body) const { return slot_of_body_[static_cast<std::size_t>(body)]; }
  /// Offset in y of the slip of sticking entry k.
  [[nodiscard]] std::size_t stick_offset(int k) const {
    return sticks_offset_ + 3 * static_cast<std::size_t>(k);
  }
  /// The listed points of the segment: root function i < listed().size() is the gap of key i.
  [[nodiscard]] const std::vector<ContactKey>& listed() const { return listed_; }

  int rhs(double t, std::span<const double> y, std::span<double> ydot) override;
  int jacobian(double t, std::span<const double> y, std::span<double> jacobian) override;
  int roots(double t, std::span<const double> y, std::span<double> g) override;

  /// Wall time spent in rhs, jacobian and roots [s].
  [[nodiscard]] double rhs_seconds() const { return rhs_seconds_; }
  [[nodiscard]] double jacobian_seconds() const { return jacobian_seconds_; }
  [[nodiscard]] double roots_seconds() const { return roots_seconds_; }

 private:
  void bodies(double t, std::span<const double> y);
  /// A spring of the original form (to the world, no damper): its analytic Jacobian.
  static bool world_spring(const Spring& sp) { return sp.body2 < 0 && sp.damping == 0.0; }
  /// Ends of a spring at the last evaluation: d = p1 − p2, its rate, and the arms from the
  /// centres of mass [m, m/s].
  struct SpringEnds {
    Vec3 d = Vec3::Zero(), rate = Vec3::Zero(), arm1 = Vec3::Zero(), arm2 = Vec3::Zero();
  };
  [[nodiscard]] SpringEnds spring_ends(const Spring& sp) const;
  void collide();
  void contact_laws(bool derivatives);
  [[nodiscard]] std::int32_t find_stick(const ContactKey& key) const;
  [[nodiscard]] std::int32_t find_listed(const ContactKey& key) const;

  const Model& model_;
  const CompliantLawTable& laws_;
  /// Model::has_actuation: y ends with the driven bodies' work (State::driven_work).
  bool actuated_ = false;
  std::vector<std::int32_t> slot_of_body_;  ///< (nbodies) index in y / kBodySize, −1 fixed
  std::vector<std::int32_t> body_of_slot_;  ///< (nfree)
  std::size_t sticks_offset_ = 0, energy_offset_ = 0, size_ = 0;
  std::vector<CompliantContact> sticks_;  ///< the segment's sticking contacts (sorted by key)
  std::vector<ContactKey> listed_;        ///< the segment's points (sorted)
  std::vector<int> directions_;           ///< root directions
  std::vector<double> start_;             ///< root functions at the segment start
  double hysteresis_ = 1e-12;             ///< ε of the onset and release roots [m]

  // Bodies at the evaluated state (nbodies).
  std::vector<Vec3> x_, v_, w_, L_;
  std::vector<Quat> q_;          ///< unit
  std::vector<double> q_norm2_;  ///< |q|² of y's quaternion
  std::vector<Mat3> inv_inertia_W_;
  std::vector<Vec3> fixed_x_;  ///< (nbodies) fixed bodies' poses, from the segment's state
  std::vector<Quat> fixed_q_;
  // Collision scratch.
  std::vector<Pose> X_WS_;
  std::vector<Aabb> aabbs_;
  Broadphase broadphase_;
  std::vector<ShapePair> pairs_;
  std::vector<ContactPoint> points_;
  std::vector<CompliantContactResult> results_;
  std::vector<Vec2> stick_displacement_;  ///< (npoints) slip of a sticking point on (t1, t2) [m]
  // Jacobian scratch (nbodies): ∂ω/∂q and the rotation map δθ/δq.
  std::vector<Eigen::Matrix<double, 3, 4>> dw_dq_, dtheta_dq_;
  // Per-body sums (nbodies): force and torque about the centre of mass, world.
  std::vector<Vec3> force_, torque_;
  double rhs_seconds_ = 0.0, jacobian_seconds_ = 0.0, roots_seconds_ = 0.0;
};

}  // namespace coulomb
