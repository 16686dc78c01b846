// The engine-independent measures of the peer benchmark (see metrics.hpp).
#include "peers/metrics.hpp"

#include <coulomb/world/world.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace coulomb::bench {

double RunMetrics::time_of_first(long m) const {
  const long n = std::min<long>(m, steps());
  return std::accumulate(step_time_s.begin(), step_time_s.begin() + n, 0.0) +
         (m > steps() ? unfinished_step_s : 0.0);
}

Monitor::Monitor(const Model& model, const State& start, long drift_from, long late_from)
    : model_(model), drift_from_(drift_from), late_from_(late_from) {
  // The start: energy, and the drift reference when it is the start.
  const Energy e = energy(model, start);
  energy_ = e.kinetic + e.potential;
  if (drift_from_ == 0) reference_ = start.x_WC;
}

void Monitor::after_step(long step, const State& state, RunMetrics& out) {
  // Energy: its rise over this step, and the end values (overwritten each step).
  const Energy e = energy(model_, state);
  const double total = e.kinetic + e.potential;
  out.max_energy_rise = std::max(out.max_energy_rise, total - energy_);
  energy_ = total;
  out.kinetic_end = e.kinetic;
  double speed = 0.0;
  for (std::size_t b = 0; b < state.x_WC.size(); ++b)
    if (!model_.bodies[b].fixed) speed = std::max(speed, state.v_WC[b].norm());
  out.max_speed_end = speed;

  // Drift: the references are taken at steps drift_from and late_from, each measured from the
  // step after it.
  if (step == drift_from_) reference_ = state.x_WC;
  if (step == late_from_) late_reference_ = state.x_WC;
  if (step > drift_from_ && !reference_.empty())
    out.drift = largest_move(state, reference_, out.drift);
  if (step > late_from_ && !late_reference_.empty())
    out.late_drift = largest_move(state, late_reference_, out.late_drift);
}

double Monitor::largest_move(const State& state, const std::vector<Vec3>& reference,
                             double so_far) {
  double d = std::isnan(so_far) ? 0.0 : so_far;
  for (std::size_t b = 0; b < state.x_WC.size(); ++b)
    d = std::max(d, (state.x_WC[b] - reference[b]).norm());
  return d;
}

void Monitor::sample_penetration(const State& state, RunMetrics& out) const {
  // Every overlap deeper than 0, by coulomb's narrowphase on these positions.
  for (const Overlap& o : find_overlaps(model_, state, 0.0))
    out.max_penetration = std::max(out.max_penetration, o.depth);
  ++out.penetration_samples;
}

}  // namespace coulomb::bench
