#pragma once
// The stages of one step (internal), in pipeline order; only `wake`, `integrate`, `correct` and
// `sleep` write the state.

#include <coulomb/world/world.hpp>

namespace coulomb::stages {

/// Slip speed below which a contact counts as sticking [m/s] (status, μ_s/μ_k rule).
inline constexpr double kStickVelocity = 1e-9;

/// Midpoint scheme: the speed (slip [m/s], spin or rolling [rad/s]) above which a contact counts
/// as moving, so that its friction takes the direction of the step's mean velocity, and above
/// which a reversal of that motion in a step is solved again with the end-of-step law (solve.cpp).
/// Below it the end-of-step law is used: the friction direction of a slip under 1e-6 m/s moves a
/// body by less than 1e-6 h a step, while the mean-velocity law at the edge of the cone lets such
/// a slip ring with the step (a cone rolling on its side: 7e-6 m/s at its apex instead of 1e-8).
inline constexpr double kMovingSpeed = 1e-6;

// Every stage reads the model and what its const& arguments name, and writes only its non-const
// arguments: the workspace part it owns (workspace.hpp), the state (integrate, correct), and its
// fields of the StepReport. docs/architecture.md's stage table lists the same reads and writes;
// scripts/check-stage-table.py (the ctest architecture.stages) compares it with these signatures.

/// The contact configuration, velocities before the impulses, free velocities.
void free_motion(const Model& model, const State& state, FreeMotion& out, StepReport& report);
/// Shape world poses at the contact configuration, AABBs (grown by the margin and the sweep),
/// candidate pairs.
void broadphase(const Model& model, const State& state, const FreeMotion& motion, ShapeFrames& out,
                StepReport& report);
/// Sleeping islands (SolverSettings::sleep): wakes whole the islands that a moving body reaches
/// with a candidate pair, or one of whose bodies was given a velocity (State::asleep cleared); adds
/// their bodies to StepReport::woken (world.cpp then runs free_motion and broadphase again).
void wake(const Model& model, const FreeMotion& motion, const ShapeFrames& frames, State& state,
          Islands& islands, StepReport& report);
/// Contact points (out.points) of each candidate pair with gap ≤ margin plus the sweeps.
void narrowphase(const Model& model, const ShapeFrames& frames, ContactPoints& out,
                 StepReport& report);
/// Memory, tangents (carried over from the memory), Jacobians, relative velocities before the
/// impulses and at the start of every point; the active set and its contacts per body.
void kinematics(const Model& model, const State& state, const FreeMotion& motion,
                ContactPoints& points, ActiveSet& out, StepReport& report);
// The stages below work on the contact problem with N unknowns per contact (Workspace::contact,
// sized by prepare() for CompiledModel::unknowns); each is defined for kForce and kWrench in its
// file.

/// Jacobians, the local problem (W, q, laws) of the active contacts, and the warm start (the
/// impulses of the contact memory).
template <int N>
void assemble(const Model& model, const State& state, const FreeMotion& motion,
              const ContactPoints& points, const ActiveSet& active, ContactBuffers<N>& out);
/// The frictional contact solve from the warm start set by `assemble`; a stopping contact of the
/// midpoint scheme is solved again with the end-of-step law (its `moving` flag cleared). A
/// `provisional` solve, whose answer only tells `activate` which points the impulses close, stops
/// at the looser of kProvisionalTolerance and the model's tolerance or after
/// kProvisionalIterations, and leaves the stopping contacts to the final solve. Its sweeps and
/// Newton iterations are at most `iterations_left` (SolverSettings::max_step_iterations, budget
/// mode), of each solve model.solver.max_iterations.
template <int N>
void solve(const Model& model, const State& state, const ActiveSet& active, ContactPoints& points,
           ContactBuffers<N>& contact, StepReport& report, bool provisional, int iterations_left);
/// Points the solve's impulses close (their end gap predicted again with the velocities after
/// the impulses is ≤ 0) join the active set; StepReport::activated counts them (the caller
/// assembles and solves again when it grew). With `last` (no pass is left to take them in: the
/// SolverSettings::activation_passes are spent, or the step's iteration budget) the points stay
/// out and are added to StepReport::left_out and left_out_overlap (how many, how deep), which the
/// caller zeroes at every step.
template <int N>
void activate(const Model& model, const ContactPoints& points, const ContactBuffers<N>& contact,
              ActiveSet& active, StepReport& report, bool last);
/// New velocities and poses, contact memory, dissipated energy, time; per-point results.
template <int N>
void integrate(const Model& model, const FreeMotion& motion, const ContactPoints& points,
               const ActiveSet& active, const ContactBuffers<N>& contact, State& state,
               StepResults& out, StepReport& report);
/// Position stage: closes predicted penetrations by a displacement that keeps the velocities.
template <int N>
void correct(const Model& model, const ShapeFrames& frames, const ActiveSet& active,
             const ContactPoints& points, const ContactBuffers<N>& contact,
             const StepResults& results, State& state, PositionStage& out, StepReport& report);

/// Sleeping islands (SolverSettings::sleep): still times, the step's islands, and the islands
/// still for SleepSettings::time put to sleep (velocities zero, State::slept, State::asleep).
void sleep(const Model& model, const FreeMotion& motion, const ContactPoints& points, State& state,
           Islands& islands, StepReport& report);

/// Error at which a provisional solve (one whose answer may still gain points) stops [-]. Its
/// answer serves only the activation test ĝ + c J_N Δν ≤ 0 and the next solve's warm start; the
/// step applies the answer of the final solve, at the model's tolerance. Measured on 1000
/// spheres dropped into a box (docs/benchmarks.md): each step solved its growing problem five
/// times to 1e-10, each time followed by the stopping contacts' second solve, ~1060 sweeps a step.
inline constexpr double kProvisionalTolerance = 1e-4;

/// Sweeps (NSGS) at most of a provisional solve, and Newton iterations of PROX where `auto` hands
/// over to it (only when Newton is preferred, solve.cpp; the two are bounded each, not their sum,
/// as for max_iterations); what it
/// leaves above kProvisionalTolerance goes to the next solve as its warm start. Why: the next
/// pass adds points and the answer changes with them. On a dropped pile the passes add a layer
/// of points each (drop_pile(8000) of bench/scenes.hpp, step 379: 2588 → 4736 → 6373 → 7466
/// contacts before a final problem of 8073), and solving each layer to kProvisionalTolerance took
/// 21–58 sweeps there; a heap of 10³ spheres took 30–250 a layer, some with a hand-over to PROX.
/// Measured (scratch driver around `step`, drop_pile(n), two threads, docs/benchmarks.md,
/// seventeenth wave): sweeps a step 156 → 135 (8000 spheres, 400 steps), 291 → 244 (10³, 600
/// steps), 289 → 237 (1200, 600 steps); the points left out, the penetrations and the steps above
/// the tolerance within the trajectories' chaotic spread. With 8 the 8000 spheres took 123 sweeps a
/// step in the same time; with 30, 150. Not in budget mode (solver.max_step_iterations): there a
/// provisional solve may take the step's whole budget, as its answer is the one applied when the
/// budget is spent (capped, a tower of ten boxes on a budget of 20 sweeps applied 5-sweep answers
/// of grown problems and never came to rest).
inline constexpr int kProvisionalIterations = 15;

/// u_c − (I − E) u_0 of point k: what the law's velocity ξ adds to J ν⁺ (assemble.cpp).
[[nodiscard]] Vec6 law_shift(const ContactPoints& points, std::size_t k, const NonsmoothLaws& laws);

}  // namespace coulomb::stages
