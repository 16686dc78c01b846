#pragma once
/// @file
/// Workspace: per-step scratch of the step pipeline. It can be rebuilt at any time from (Model,
/// State); nothing in it is needed to restart a run. Buffers keep their capacity across steps, so
/// a warm workspace makes the step loop allocation-free.
///
/// Memory layout (why): the Gauss–Seidel sweep reads the problem row by row (block-sparse W in
/// ContactProblem); per-contact data used by assembly and integration (Jacobians, body indices)
/// are kept in compact parallel arrays indexed by active-contact number.

#include <coulomb/collision/broadphase.hpp>
#include <coulomb/collision/contact_point.hpp>
#include <coulomb/nonsmooth/problem.hpp>
#include <coulomb/nonsmooth/solver.hpp>
#include <coulomb/nonsmooth/solver6.hpp>
#include <coulomb/world/contact_laws.hpp>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace coulomb {

/// The named stages of one step, in pipeline order.
enum class Stage : std::uint8_t {
  broadphase,
  narrowphase,
  kinematics,
  assemble,
  solve,
  integrate,
  count
};
inline constexpr std::size_t kStageCount = static_cast<std::size_t>(Stage::count);
[[nodiscard]] std::string_view stage_name(Stage s);

/// Accumulated wall time per stage [s].
struct Profile {
  std::array<double, kStageCount> seconds{};
  std::int64_t steps = 0;
};

/// What one step reports.
struct StepReport {
  int candidate_pairs = 0;  ///< broadphase pairs
  int contact_points = 0;   ///< narrowphase points within the margin
  int active_contacts = 0;  ///< contacts in the contact problem
  SolverResult solver;      ///< of this step's solve (iterations 0 if no active contact)
  bool finite = true;       ///< false if the state became non-finite
};

using Jacobian36 = Eigen::Matrix<double, 3, 6>;

struct Workspace {
  // Shapes in the world (nshapes).
  std::vector<Pose> X_WS;                 ///< (nshapes) shape poses
  std::vector<Aabb> aabbs;                ///< (nshapes)
  std::vector<std::uint8_t> shape_fixed;  ///< (nshapes)
  std::vector<double> shape_reach;  ///< (nshapes) farthest distance of the shape from its body's
                                    ///< centre of mass [m] (inf: unbounded)
  std::vector<double>
      shape_sweep;  ///< (nshapes) bound on how far the shape's surface moves in one step [m]
  Broadphase broadphase;
  std::vector<ShapePair> pairs;  ///< (npairs) broadphase output

  // Narrowphase output and per-point kinematics (npoints).
  std::vector<ContactPoint> points;  ///< (npoints)
  std::vector<Jacobian36> H1, H2;  ///< (npoints) u = H2 [v2; w2] − H1 [v1; w1], rows (N, T1, T2)
  std::vector<Vec3> u_start;       ///< (npoints) relative velocity (N, T1, T2) at the start [m/s]
  std::vector<std::int32_t> active_of_point;  ///< (npoints) index in the active list or -1
  std::vector<Vec3> u_end;      ///< (npoints) relative velocity at the end of the step [m/s]
  std::vector<Vec3> w_rel_end;  ///< (npoints) ω2 − ω1 at the end of the step, world [rad/s]
  std::vector<Vec3> impulse;    ///< (npoints) impulse of 1 on 2 (N, T1, T2) [N s], 0 if inactive
  std::vector<ContactStatus> status;  ///< (npoints) after the step

  // Free motion (nbodies): velocities after gravity and gyroscopic terms, before contact.
  std::vector<Vec3> v_free;         ///< (nbodies) [m/s]
  std::vector<Vec3> omega_free_B;   ///< (nbodies) body frame [rad/s]
  std::vector<Vec3> w_free;         ///< (nbodies) R_n * omega_free_B [rad/s]
  std::vector<Mat3> inv_inertia_W;  ///< (nbodies) R_n I_B⁻¹ R_nᵀ [1/(kg m²)]
  std::vector<Mat3> inv_inertia_B;  ///< (nbodies) I_B⁻¹, constant (filled once)

  // Active contacts (nactive).
  std::vector<std::int32_t> active;  ///< (nactive) point index
  std::vector<Eigen::Matrix<double, 6, 3>> G1,
      G2;  ///< (nactive) M⁻¹ Jᵀ of each side (J1 = −H1, J2 = H2)
  std::vector<std::int32_t> body_contacts_start;  ///< (nbodies+1) CSR of active contacts per body
  std::vector<std::int32_t> body_contacts;        ///< (2 nactive)
  std::vector<std::int32_t> scratch;              ///< assembly scratch
  ContactProblem problem;
  std::vector<Vec3> r;  ///< (nactive) impulses (N, T1, T2) [N s]
  std::vector<Vec3> u;  ///< (nactive) velocities after the solve [m/s]
  SolverWorkspace solver;

  // With moment laws (pivoting, rolling, Contensou): six unknowns per contact instead.
  bool use_moments = false;  ///< set by prepare() from the model's contact laws
  double time_step = 0.0;    ///< h of the model, set by prepare() [s]
  std::vector<Eigen::Matrix<double, 6, 6>, Eigen::aligned_allocator<Eigen::Matrix<double, 6, 6>>>
      G1_6, G2_6;
  ContactProblem6 problem6;
  std::vector<Vec6> r6;  ///< (nactive) (N, T1, T2, Mn, Mt1, Mt2) [N s, N m s]
  std::vector<Vec6> u6;  ///< (nactive) (vN, vT1, vT2, ωn, ωt1, ωt2) [m/s, rad/s]
  SolverWorkspace6 solver6;
  std::vector<Vec3>
      moment;  ///< (npoints) moment impulse (Mn, Mt1, Mt2) of 1 on 2 [N m s], 0 if inactive

  // Per-body contact impulse of the step (nbodies), world frame.
  std::vector<Vec3> impulse_force;   ///< [N s]
  std::vector<Vec3> impulse_torque;  ///< about the centre of mass [N m s]
  std::vector<Vec3>
      v_mean;  ///< (nbodies) (v_k + v_{k+1})/2, the velocity the impulses work on [m/s]
  std::vector<Vec3> w_mean;  ///< (nbodies) R_k (Ω_free + Ω_{k+1})/2 [rad/s]

  // Derived from the model once by prepare(): contact spec index per material pair, and the
  // resolved set-valued laws of each spec (index spec + 1; 0 is the model's default contact).
  std::vector<std::int32_t> spec_of_materials;  ///< (nmat+1)² , material -1 mapped to nmat
  std::vector<NonsmoothLaws> laws;              ///< (nspecs + 1)
  std::vector<std::int32_t> laws_of_active;     ///< (nactive) index into `laws`
  int material_count = 0;
  bool prepared = false;

  Profile profile;
  StepReport report;
};

}  // namespace coulomb
