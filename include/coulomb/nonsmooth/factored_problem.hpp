#pragma once
/// @file
/// The local frictional contact problem of one step in factored form, W = J M⁻¹ Jᵀ never formed:
/// the form the time stepping solves (the block-sparse ContactProblem<N> of problem.hpp is the
/// value FCLIB files hold; `assembled()` turns one into the other).
///
///   find r, u in R^{N nc}:  u = J M⁻¹ Jᵀ r + q,  K_α* ∋ û_α ⊥ r_α ∈ K_α  (problem.hpp)
///
/// Contact α acts on at most two dynamic bodies, b1(α) and b2(α) (−1: a fixed body, which takes no
/// impulse): its rows of J are J1_α (N×6, on (v, ω) of b1) and J2_α (N×6, on b2), so that
///   u_α = J1_α ν_b1 + J2_α ν_b2 + q_α   with   ν_b = Σ_{β touching b} G_β,b r_β,
/// G_β,b = M_b⁻¹ Jb_βᵀ the body's velocity change per unit impulse, M_b⁻¹ = diag(I/m, I_W⁻¹).
///
/// Why this form (docs/nonsmooth-solvers.md, "Factored problem"): the assembled W stores for each
/// contact a block for every contact that shares a body with it — up to ~30 blocks a row on box
/// stacks, and its assembly was 38 % of a resting step of an 8000-sphere pile — while a
/// Gauss–Seidel sweep over body velocities (Δν of each body kept up to date) costs a constant per
/// contact: two products J ν and two updates ν += G δr. The same form gives the Newton solver its
/// body-space system M + Jᵀ D J (6 nb unknowns, the sparsity of the body contact graph) instead of
/// the 3 nc × 3 nc contact-space one. Units as in problem.hpp: r [N s], u, q [m/s] (moments
/// [N m s], [rad/s]); J [1] on (v [m/s], ω [rad/s]) rows, G [1/kg] and [1/(kg m)].
///
/// Visiting order: for nc ≥ kColorThreshold the contacts are coloured (contacts of one colour share
/// no dynamic body, greedy in contact order) and the sweep visits them colour by colour, which
/// lets one colour be relaxed in parallel with results that do not depend on the number of
/// threads (each body's velocity is written by one contact of a colour). Below the threshold the
/// order is the contact order. Both are deterministic functions of the problem.

#include <coulomb/nonsmooth/problem.hpp>

#include <cstdint>
#include <vector>

namespace coulomb {

/// Below this many contacts the sweep visits contacts in order, one thread; from it on, colour by
/// colour (colour_contacts), with the body and contact loops of the problem on every core. Why
/// 1024 rather than 2048: the dropped pile of 1000 spheres (800–1700 contacts from its 300th step)
/// ran 600 steps at 36.6–37.1 steps/s against 31.0–31.2 (two threads, alternated; 291 sweeps a
/// step against 286: the coloured order converges about as fast), where the 20-row box pyramid
/// (~1700 contacts) lost 4.5 % (738–741 steps/s against 771–776; 3.1 sweeps a step against 2.9)
/// (docs/benchmarks.md, sixteenth wave). Colouring from 256 contacts (eleventh wave) also slowed
/// problems of a few hundred contacts, whose colours are below kParallelColourMin.
inline constexpr int kColorThreshold = 1024;
/// A colour is relaxed by several threads only when it holds at least this many contacts
/// (SolverOptions::parallel_colour_min): below, one thread (the order, hence the result, is the
/// same). Why a bound at all: every colour ends at a barrier, and on a loaded machine (more
/// runnable threads than cores) a barrier waits for a descheduled thread — measured on 1000
/// spheres in a touching heap (4951 contacts, ~20 colours down to 1–2 contacts, 2 threads on a
/// loaded 2-core machine): 54 ms a sweep with every colour parallel against 1.2 ms on one thread.
/// Why 64 (256 from the eleventh wave to the seventeenth): greedy colours fall off in size (477,
/// 322, 263, 195, 83, 29 and 4 contacts on a step of the moving pile of 10³ spheres; 3062, 2191,
/// 1694, 994, 359, 55 and 3 at 8000 spheres), and with 256 a quarter of the 10³ pile's contacts
/// were relaxed by one thread while the other waited. One NSGS solve of that step's problem
/// (1171 contacts, Anderson(5), in one process, configurations taking turns, seven runs each,
/// 2-core machine, docs/benchmarks.md, eighteenth wave): 1 thread 255 µs a sweep (fastest run),
/// two threads from 256 contacts 212, from 128 188, from 64 149, from 32 147, from 16 166; with
/// two busy processes on the two cores the two-thread runs were no slower than one thread (from
/// 64: median 663 µs a sweep against 739 on one thread).
inline constexpr int kParallelColourMin = 64;

/// The problem's body and contact loops (body_velocity, contact_velocity, the error's terms, the
/// blocks' products in finish()) run on every core from this many bodies or contacts; each index
/// writes its own slot, so the result does not depend on it. Why 256 and not kColorThreshold: on
/// the moving pile of 10³ spheres the velocities ν = M⁻¹Jᵀr recomputed after each of Anderson's
/// extrapolations ran on one thread while the other waited (docs/benchmarks.md, eighteenth wave).
inline constexpr int kProblemLoopMin = 256;

using Vec6d = Eigen::Matrix<double, 6, 1>;

template <int N>
struct FactoredProblem {
  static_assert(N == kForce || N == kWrench, "a contact has 3 (force) or 6 (wrench) unknowns");
  using Vec = VecN<N>;
  using Block = BlockN<N>;
  using Law = ContactLaw<N>;
  /// Rows of one side of a contact on (v, ω) of its body.
  using Jacobian = Eigen::Matrix<double, N, 6, Eigen::RowMajor>;
  /// M⁻¹ Jᵀ of one side.
  using InvMassJt = Eigen::Matrix<double, 6, N>;
  static constexpr int kUnknowns = N;

  int contact_count = 0;  ///< nc
  int body_count = 0;     ///< nb: dynamic bodies touched by a contact
  std::vector<Law> laws;  ///< (nc) μ [-] (kForce), ContactLaw6 (kWrench)
  std::vector<Vec> q;     ///< (nc) free velocity [m/s] (and [rad/s])
  /// (nc) body of each side in [0, nb), −1 for a fixed body
  std::vector<std::int32_t> body1, body2;
  std::vector<Jacobian, Eigen::aligned_allocator<Jacobian>> J1, J2;  ///< (nc) rows of each side
  std::vector<InvMassJt, Eigen::aligned_allocator<InvMassJt>> G1, G2;  ///< (nc) M⁻¹ Jᵀ of each side
  std::vector<Block, Eigen::aligned_allocator<Block>> w_diag;          ///< (nc) W_αα
  std::vector<double> inv_mass;                                        ///< (nb) 1/m [1/kg]
  std::vector<Mat3> inv_inertia;  ///< (nb) world inverse inertia I_W⁻¹ [1/(kg m²)]
  /// (nj) the box laws of the joint blocks, the last nj of the nc blocks (their `laws` entries
  /// are unused; coulomb/nonsmooth/joint_rows.hpp); empty without joints
  std::vector<JointRows<N>> joint_rows;
  /// (nb+1) CSR of the contacts of each body (increasing contact index), and (2 nc at most) the
  /// contact indices; built by finish().
  std::vector<std::int32_t> body_contacts_start, body_contacts;
  /// Visiting order of the sweep (nc) and the start of each colour in it (ncolours + 1; one colour
  /// [0, nc) below kColorThreshold); built by finish().
  std::vector<std::int32_t> order, color_start;
  /// The contact graph (body1, body2, nb) that body_contacts and order were built for: finish()
  /// keeps them when the graph is the same (a settled scene, step after step).
  std::vector<std::int32_t> graph_body1, graph_body2;
  int graph_body_count = -1;
  /// Scratch of finish(), kept for its capacity (no allocation once warm).
  std::vector<std::int32_t> scratch_next, scratch_color;
  std::vector<std::uint8_t> scratch_used;

  /// Empties the problem, keeping capacity.
  void clear();
  /// After the per-contact arrays and the bodies are filled: W_αα, the contacts of each body and
  /// the visiting order (coloured when nc ≥ kColorThreshold; both kept from the last finish()
  /// when body1, body2 and nb are the same).
  void finish();
  /// ν = M⁻¹ Jᵀ r per body (nb), gathered body by body in contact order (deterministic).
  void body_velocity(const std::vector<Vec>& r, std::vector<Vec6d>& nu) const;
  /// u_α = J1_α ν_b1 + J2_α ν_b2 + q_α for a given ν (body_velocity of r).
  void contact_velocity(const std::vector<Vec6d>& nu, std::vector<Vec>& u) const;
  /// u = W r + q through ν (scratch of size nb).
  void velocity(const std::vector<Vec>& r, std::vector<Vec>& u, std::vector<Vec6d>& nu) const;
  /// The same problem assembled: W = J M⁻¹ Jᵀ in block compressed rows (the blocks of every pair of
  /// contacts sharing a dynamic body), for FCLIB files and tests.
  [[nodiscard]] ContactProblem<N> assembled() const;
  /// Checks sizes, indices, finiteness and the laws; throws std::invalid_argument saying what is
  /// wrong.
  void validate() const;
};

using FactoredForceProblem = FactoredProblem<kForce>;
using FactoredWrenchProblem = FactoredProblem<kWrench>;

}  // namespace coulomb
