/// @file
/// Nonsmooth block Gauss–Seidel (NSGS; Jean 1999, Acary & Brogliato 2008 §13.4), for both sizes
/// of the contact problem (3 unknowns per contact, or 6 with moment laws):
///
///   for each sweep, for α in the visiting order (1..nc, or a seeded shuffle):
///     q̃_α = q_α + Σ_{β≠α} W_αβ r_β            (block row α of W, latest r_β)
///     r_α ← exact solution of  u_α = W_αα r_α + q̃_α,  K* ∋ û_α ⊥ r_α ∈ K
///           (solve_single_contact of the size: single_contact.cpp, single_contact6.cpp)
///     r_α ← ω r_α + (1 − ω) r_α^old            (optional over-relaxation)
///   then, at the sweeps chosen by the error schedule, u = W r + q and the error of Acary,
///   Brémond & Huber (2018) on the problem's cone (contact_error) decide convergence.
///
/// Error schedule: the true error costs one block product W r (about as much as the sweep's
/// off-diagonal products). With `error_check_interval` = k > 1 it is evaluated at the sweep where
/// the linear rate observed between the last two evaluations predicts the tolerance, at most k
/// sweeps later (k sweeps later when the error did not decrease since the last evaluation). At exit
/// the error of the returned r is always evaluated, so the reported error is the true one.
/// Drift jump (SolverOptions::drift_jump, on by default; scene key solver.drift_jump). On a pile of
/// spheres the sweeps can stand still for hundreds of sweeps — the error constant while r moves by
/// the same step f = G(x) − x sweep after sweep (relative change of f ~1e-4), along directions W
/// barely sees (impulses shifted around loops of contacts) — until one contact reaches its cone's
/// surface or opens; only that event lets the error fall again. Measured on the last problem of
/// step 452 of 1000 dropped spheres (1203 contacts, from r = 0, plain sweeps): the error stands at
/// 7.03e-6 from sweep ~375 to 1058, a sticking contact reaches its cone at sweep 1059, and the
/// sweeps converge at 1240. The jump does in one step what those sweeps do: once f has repeated
/// for kDriftSweeps sweeps in a row (‖f_k − f_{k−1}‖ ≤ kDriftFlatness ‖f_k‖, watched from sweep
/// kDriftFirstSweep on), r ← P_K(r + s* f) with s* the first event of that motion — the least over
/// the contacts of the first s > 0 at which r_α + s f_α leaves the interior of its cone (a root of
/// a quadratic) or r_N reaches 0; contacts on the surface slide along it and are projected back.
/// (With the flatness 1e-3 it jumped at sweep 413 with s* = 643.9: the event predicted at sweep
/// 1057, where the sweeps met it at 1059.) That problem then takes 711 sweeps, 157 with Anderson
/// (962 without the jump). Under Anderson acceleration the steps of the extrapolated iterates
/// scatter about the drift (by up to a fifth of it): each is compared with the mean of the steps
/// (weight kDriftMeanWeight for the new one, within kDriftMeanFlatness of it), and the jump goes
/// along that mean (on the last problem of step 416 of the same pile, 1044 contacts: 5000 sweeps
/// without a jump at 5.46e-8 when compared with the last step, 222 with the mean; plain sweeps
/// keep the last step). The jump replaces a sweep's iterate (Anderson's history restarts); a
/// jump after which the best error has not halved doubles the sweeps the next one waits for (on
/// Capsules-i100-1090 of FCLIB repeated jumps of s* ≈ 21 kept Anderson from converging). The error
/// is evaluated on iterates as before: the answer is the best evaluated iterate, its error the true
/// one. Not watched while a stall test is (stall_window > 0: the first NSGS of `auto`, whose stall
/// hands over to PROX): `auto` jumps in the NSGS that goes on after PROX, and where it runs NSGS
/// alone (above kAutoNewtonMaxBodies). A joint block, a moment law or a no-slip contact that
/// drifts stops the jump (no event is computed for their sets). Serial passes over the contacts:
/// the result does not depend on the threads. Measured: docs/nonsmooth-solvers.md, "Drift jump".
/// Data layout: the sweep reads W block row by block row (compressed rows), which is the order
/// the blocks are stored in (coulomb/nonsmooth/problem.hpp). Deterministic (fixed order or a
/// seeded splitmix64 shuffle); no allocation once r, u and the workspace have size nc. A force
/// problem's local solves keep W_αα⁻¹ (the stick branch's r = −W_αα⁻¹ q̃) for the sweeps of the
/// solve (SolverWorkspace::w_inverse, computed at a contact's first stick test, stamped with the
/// solve): the same bits as computing it at every sweep, which was a tenth of a moving pile's.

#include <coulomb/nonsmooth/solver.hpp>

#include "nsgs_loop.hpp"

#include <cmath>
#include <limits>

namespace coulomb {

namespace {

// The drift jump's events and projection (nsgs_loop.hpp) on Coulomb cones: a force contact, or a
// contact of a wrench problem whose law has no moment part (h = k = 0, no coupling: its moments
// are 0, it is the force contact embedded). Anything else that drifts is not extrapolated — a
// joint block, a moment law, a no-slip contact (μ = +∞: its law is not monotone, two cones) —
// and gives an event at once, which stops the jump; where it does not move it takes no part.
template <int N, class Problem>
struct DriftEvents {
  const Problem& problem;
  static constexpr double kNow = 0.0;
  static constexpr double kNever = std::numeric_limits<double>::infinity();
  // μ of contact a when it is a Coulomb cone, else a negative number.
  [[nodiscard]] double cone(int a) const {
    if (joint_of(problem, a) != nullptr) return -1.0;
    const auto& law = problem.laws[a];
    if constexpr (N == kForce) {
      return std::isfinite(law) ? law : -1.0;
    } else {
      const bool force_only =
          law.h == 0.0 && law.k == 0.0 && law.coupling == ContactLaw6::Coupling::none;
      return force_only && std::isfinite(law.mu) ? law.mu : -1.0;
    }
  }
  [[nodiscard]] double event(int a, const VecN<N>& r, const VecN<N>& f) const {
    const double mu = cone(a);
    if (mu < 0.0) return f.isZero(0.0) ? kNever : kNow;
    return detail::cone_event(r.template head<3>(), f.template head<3>(), mu);
  }
  [[nodiscard]] VecN<N> project(int a, const VecN<N>& x) const {
    const double mu = cone(a);
    if (mu < 0.0) return x;
    VecN<N> y = x;
    y.template head<3>() = project_on_cone(x.template head<3>(), mu);
    return y;
  }
};

// The Gauss–Seidel loop of either form with its sweep: the exact local solve and the error
// measure of the problem's size (solver.hpp).
template <int N, class Problem, class Sweep>
SolverResult run_nsgs(const Problem& problem, const Sweep& sweep, std::vector<VecN<N>>& r,
                      std::vector<VecN<N>>& u, const SolverOptions& options,
                      SolverWorkspace<N>& workspace) {
  // A force problem's local solves keep W_αα⁻¹ for the solve (stamped, so that nothing is
  // cleared between solves; the stamps restart when the counter wraps).
  std::uint32_t stamp = 0;
  if constexpr (N == kForce) {
    workspace.w_inverse.resize(static_cast<std::size_t>(problem.contact_count));
    if (++workspace.solve_stamp == 0) {
      for (BlockInverse& b : workspace.w_inverse) b.stamp = 0;
      workspace.solve_stamp = 1;
    }
    stamp = workspace.solve_stamp;
  }
  const auto local_solve = [&](const BlockN<N>& w, const VecN<N>& q, int a, VecN<N>& ra) {
    // A joint block: its box law (joint_rows.hpp); a contact: its cone.
    if (const auto* joint = joint_of(problem, a)) return solve_joint_block<N>(w, q, *joint, ra);
    if constexpr (N == kForce) {
      return solve_single_contact(w, q, problem.laws[a], ra, options.local_tolerance,
                                  workspace.w_inverse[static_cast<std::size_t>(a)], stamp);
    } else {
      return solve_single_contact(w, q, problem.laws[a], ra, options.local_tolerance);
    }
  };
  const auto error = [&](const std::vector<VecN<N>>& rr, const std::vector<VecN<N>>& uu) {
    return contact_error(problem, rr, uu);
  };
  return detail::nsgs(sweep, r, u, options, workspace.order, workspace.r_best, workspace.r_before,
                      workspace.drift_step, workspace.anderson, N == kForce ? "nsgs" : "nsgs6",
                      local_solve, error, DriftEvents<N, Problem>{problem});
}

}  // namespace

template <int N>
SolverResult solve_nsgs(const ContactProblem<N>& problem, std::vector<VecN<N>>& r,
                        std::vector<VecN<N>>& u, const SolverOptions& options,
                        SolverWorkspace<N>& workspace) {
  return run_nsgs<N>(problem, detail::AssembledSweep<N>(problem), r, u, options, workspace);
}

template <int N>
SolverResult solve_nsgs(const FactoredProblem<N>& problem, std::vector<VecN<N>>& r,
                        std::vector<VecN<N>>& u, const SolverOptions& options,
                        SolverWorkspace<N>& workspace) {
  return run_nsgs<N>(problem,
                     detail::FactoredSweep<N>(problem, workspace.nu, options.parallel_colour_min),
                     r, u, options, workspace);
}

template SolverResult solve_nsgs<kForce>(const ForceProblem&, std::vector<Vec3>&,
                                         std::vector<Vec3>&, const SolverOptions&,
                                         SolverWorkspace<kForce>&);
template SolverResult solve_nsgs<kWrench>(const WrenchProblem&, std::vector<Vec6>&,
                                          std::vector<Vec6>&, const SolverOptions&,
                                          SolverWorkspace<kWrench>&);
template SolverResult solve_nsgs<kForce>(const FactoredForceProblem&, std::vector<Vec3>&,
                                         std::vector<Vec3>&, const SolverOptions&,
                                         SolverWorkspace<kForce>&);
template SolverResult solve_nsgs<kWrench>(const FactoredWrenchProblem&, std::vector<Vec6>&,
                                          std::vector<Vec6>&, const SolverOptions&,
                                          SolverWorkspace<kWrench>&);

}  // namespace coulomb
