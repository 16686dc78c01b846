// The one driver of the step loop (coulomb/world/simulation.hpp) and the statistics it keeps.
#include <coulomb/world/simulation.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace coulomb {

void SolverStatistics::add(const SolverResult& r, double time) {
  ++solves;
  if (r.status != SolverStatus::converged) {
    ++not_converged;
    if (first_not_converged_time < 0.0) first_not_converged_time = time;
  }
  // A non-finite error is the worst of all.
  if (!(r.error <= worst_error)) {
    worst_error = std::isnan(r.error) ? std::numeric_limits<double>::infinity() : r.error;
    worst_error_time = time;
  }
  mean_error += (r.error - mean_error) / static_cast<double>(solves);
  max_iterations = std::max<std::int64_t>(max_iterations, r.iterations);
  mean_iterations += (r.iterations - mean_iterations) / static_cast<double>(solves);
  // What produced the answer (a new name allocates once per run).
  const std::string_view method = r.method;
  auto it = methods.find(method);
  if (it == methods.end()) it = methods.emplace(std::string(method), 0).first;
  ++it->second;
  if (method == "nsgs+prox") ++auto_switches;
  if (r.fell_back) ++fell_back;
  if (r.cold_start) ++cold_starts;
  local_failures += r.local_failures;
  if (r.local_failures > 0) ++solves_with_local_failures;
}

void StepStatistics::add(const StepReport& r, double time) {
  if (r.correction_sweeps > 0) ++corrected_steps;
  if (r.penetration > deepest_penetration) {
    deepest_penetration = r.penetration;
    deepest_penetration_time = time;
  }
  largest_left = std::max(largest_left, r.penetration_left);
  if (r.rotation_failures > 0 && rotation_failures == 0) first_rotation_failure_time = time;
  rotation_failures += r.rotation_failures;
  activated += r.activated;
  if (r.activated > 0) ++activation_steps;
}

std::string rotation_warning(const StepStatistics& stats) {
  if (stats.rotation_failures == 0) return {};
  return fmt::format(
      "the free rotation of {} body-steps did not converge (first at t = {} s): the step is too "
      "long for the bodies' spin (h |w| well below 1, docs/dynamics.md)",
      stats.rotation_failures, stats.first_rotation_failure_time);
}

std::string convergence_warning(const SolverStatistics& stats, std::int64_t steps) {
  if (stats.not_converged == 0) return {};
  return fmt::format("{} of {} steps did not converge (worst error {:.3g} at t = {} s)",
                     stats.not_converged, steps, stats.worst_error, stats.worst_error_time);
}

Simulation::Simulation(Model model, State state)
    : model_(std::move(model)), state_(std::move(state)) {
  model_.finalize();
  prepare(model_, ws_);
}

const StepReport& Simulation::step() {
  const StepReport& r = coulomb::step(model_, state_, ws_);
  ++steps_;
  if (r.active_contacts > 0) solver_.add(r.solver, state_.time);
  stages_.add(r, state_.time);
  if (!r.finite && finite_) {
    finite_ = false;
    non_finite_ = non_finite_message(model_, state_, r);
  }
  return r;
}

std::int64_t steps_between(double start, double end, double h) {
  const double n = std::round((end - start) / h);
  return n > 0.0 ? static_cast<std::int64_t>(n) : 0;
}

std::int64_t Simulation::steps_to(double end) const {
  return steps_between(state_.time, end, model_.time_step);
}

void Simulation::reset_statistics() {
  steps_ = 0;
  solver_ = SolverStatistics{};
  stages_ = StepStatistics{};
}

void Simulation::restore_statistics(std::int64_t steps, const SolverStatistics& solver,
                                    const StepStatistics& stages) {
  steps_ = steps;
  solver_ = solver;
  stages_ = stages;
}

}  // namespace coulomb
