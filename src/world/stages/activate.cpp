// Stage 7 (after the solve, before the integration): contacts that the impulses close.
//
// The active set is chosen by kinematics before the solve, with the gap at the end of the step
// predicted from the free velocities (ĝ = g + (h/2) u_N,free + … for the midpoint scheme). A
// point that is not closing freely can be closed by the impulses of the other contacts — a sphere
// in a pile struck from above pushed into its neighbour — and, left out of the problem, it goes
// through: measured on 1000 spheres dropped into a box, pairs 2–3 mm deep (r = 5 cm) approaching
// at 0.2–0.8 m/s, entering and leaving the active set every step, penetrations of 7.8 mm in all,
// none of it seen by the position stage (which closes active contacts only).
//
// So, after the solve, each inactive point's end gap is predicted again with the velocities after
// the impulses,
//
//   ĝ⁺ = ĝ_free + c J_N Δν,   Δν = M⁻¹ Jᵀ r,   c = h/2 (midpoint) or θ h (Moreau–Jean),
//
// (the same linear prediction, the free velocity replaced by the velocity after the impulses; ĝ
// includes the activation distance), and the points with ĝ⁺ ≤ 0 join the active set; the problem
// is then assembled and solved again, from the answer found (world.cpp, at most
// SolverSettings::activation_passes times, 4 by default). Siconos' rule (scheme moreau_jean,
// active_set siconos) is left as Siconos runs it.
//
// When no pass is left (`last`: the passes are spent, or the step's iteration budget), the answer
// applied is tested all the same and the points it closes are counted, not taken in
// (StepReport::left_out, and the deepest predicted overlap −(ĝ⁺ + activation distance)): they end
// the step overlapping until the next step's kinematics takes them in (the gap is then closing or
// negative), and the run says so (summary.json, the warning of `coulomb run`). Measured on 1000
// spheres dropped into a box (docs/benchmarks.md, eleventh wave): the passes ran out in 426 of the
// first 600 steps, with 32 points left out a step on average.
#include <algorithm>

#include "stages/body_contacts.hpp"
#include "stages/stages.hpp"

namespace coulomb::stages {

template <int N>
void activate(const Model& model, const ContactPoints& points, const ContactBuffers<N>& contact,
              ActiveSet& active, StepReport& report, bool last) {
  const bool midpoint = model.solver.scheme == TimeScheme::midpoint;
  if (!midpoint && model.solver.active_set == ActiveSetRule::siconos) return;
  const double c = midpoint ? 0.5 * model.time_step : model.solver.theta * model.time_step;
  // ĝ includes the activation distance (kinematics.cpp); the overlap is the gap's own.
  const double distance = model.solver.activation_distance;
  const std::vector<Vec6d>& nu = contact.nu;  // Δν = M⁻¹ Jᵀ r of the answer
  const std::size_t npoints = points.points.size();
  int added = 0;
  for (std::size_t k = 0; k < npoints; ++k) {
    if (active.active_of_point[k] >= 0) continue;
    const ContactPoint& cp = points.points[k];
    // J_N Δν of the point: the normal rows (first row of H) of each side on its body's Δν.
    double un = 0.0;
    const std::int32_t b1 = contact.body_index[static_cast<std::size_t>(cp.body1)];
    const std::int32_t b2 = contact.body_index[static_cast<std::size_t>(cp.body2)];
    if (b1 >= 0) un -= points.H1[k].row(0).dot(nu[static_cast<std::size_t>(b1)]);
    if (b2 >= 0) un += points.H2[k].row(0).dot(nu[static_cast<std::size_t>(b2)]);
    const double gap = points.predicted_gap[k] + c * un;
    if (gap > 0.0) continue;
    if (last) {
      ++report.left_out;
      report.left_out_overlap = std::max(report.left_out_overlap, -(gap + distance));
      continue;
    }
    active.active_of_point[k] = static_cast<std::int32_t>(active.active.size());
    active.active.push_back(static_cast<std::int32_t>(k));
    ++added;
  }
  if (added > 0) {
    body_contacts(model, points, active);
    report.active_contacts = static_cast<int>(active.active.size());
    report.activated += added;
  }
}

template void activate<kForce>(const Model&, const ContactPoints&, const ContactBuffers<kForce>&,
                               ActiveSet&, StepReport&, bool);
template void activate<kWrench>(const Model&, const ContactPoints&, const ContactBuffers<kWrench>&,
                                ActiveSet&, StepReport&, bool);

}  // namespace coulomb::stages
