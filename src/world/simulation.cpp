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
  if (method == "nsgs+prox" || method == "nsgs+prox+nsgs") ++auto_switches;
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
  if (r.unclosed > 0.0) {
    ++unclosed_steps;
    if (r.unclosed > largest_unclosed) {
      largest_unclosed = r.unclosed;
      largest_unclosed_time = time;
    }
  }
  if (r.rotation_failures > 0 && rotation_failures == 0) first_rotation_failure_time = time;
  rotation_failures += r.rotation_failures;
  activated += r.activated;
  if (r.activated > 0) ++activation_steps;
  if (r.left_out > 0) {
    left_out += r.left_out;
    ++left_out_steps;
    // The first such step sets the time even at no overlap (points within the activation
    // distance, gap in (0, activation_distance]): a warning never says "at t = -1 s".
    if (deepest_left_out_time < 0.0 || r.left_out_overlap > deepest_left_out) {
      deepest_left_out = r.left_out_overlap;
      deepest_left_out_time = time;
    }
  }
}

std::string rotation_warning(const StepStatistics& stats) {
  if (stats.rotation_failures == 0) return {};
  return fmt::format(
      "the free rotation of {} body-steps did not converge (first at t = {} s): the step is too "
      "long for the bodies' spin (h |w| well below 1, docs/dynamics.md)",
      stats.rotation_failures, stats.first_rotation_failure_time);
}

std::string activation_warning(const StepStatistics& stats, std::int64_t steps) {
  if (stats.left_out_steps == 0) return {};
  return fmt::format(
      "in {} of {} steps the activation passes ran out with {} {} that the impulses close "
      "left out of the problem (deepest predicted overlap {:.3g} m at t = {} s); they overlap at "
      "the end of their step until the next one takes them in (more passes take them in: "
      "solver.activation_passes, docs/nonsmooth.md)",
      stats.left_out_steps, steps, stats.left_out, stats.left_out == 1 ? "point" : "points",
      stats.deepest_left_out, stats.deepest_left_out_time);
}

std::string position_warning(const StepStatistics& stats, std::int64_t steps, double tolerance) {
  if (stats.unclosed_steps == 0) return {};
  return fmt::format(
      "in {} of {} steps the position stage left overlaps above its tolerance of {:.3g} m after "
      "its sweeps (largest {:.3g} m at t = {} s); the next steps' contacts keep them from growing "
      "(docs/nonsmooth.md, position stage)",
      stats.unclosed_steps, steps, tolerance, stats.largest_unclosed, stats.largest_unclosed_time);
}

std::string convergence_warning(const SolverStatistics& stats, std::int64_t steps) {
  if (stats.not_converged == 0) return {};
  return fmt::format("{} of {} steps did not converge (worst error {:.3g} at t = {} s)",
                     stats.not_converged, steps, stats.worst_error, stats.worst_error_time);
}

const char* to_string(RunWarningKind kind) {
  switch (kind) {
    case RunWarningKind::rotation:
      return "rotation";
    case RunWarningKind::position:
      return "position";
    case RunWarningKind::activation:
      return "activation";
    case RunWarningKind::convergence:
      return "convergence";
  }
  return "unknown";
}

std::vector<RunWarning> run_warnings(const SolverStatistics& solver, const StepStatistics& stages,
                                     std::int64_t steps, double position_tolerance) {
  std::vector<RunWarning> out;
  const auto add = [&out](RunWarningKind kind, std::string text) {
    if (!text.empty()) out.push_back({kind, std::move(text)});
  };
  add(RunWarningKind::rotation, rotation_warning(stages));
  add(RunWarningKind::position, position_warning(stages, steps, position_tolerance));
  add(RunWarningKind::activation, activation_warning(stages, steps));
  add(RunWarningKind::convergence, convergence_warning(solver, steps));
  return out;
}

Simulation::Simulation(Model model, State state)
    : model_(std::move(model)), state_(std::move(state)) {
  model_.finalize();
  prepare(model_, ws_);
  if (model_.solver.formulation == Formulation::compliant) {
    compliant_ = std::make_unique<CompliantEngine>(model_);
    compliant_->sample(state_);
    compliant_results();
    if (has_shock_points(model_)) {
      shocks_ = std::make_unique<ShockStatistics>(model_.time_step);
      shocks_->add(state_.time, compliant_->contacts());
    }
  }
}

Simulation::~Simulation() = default;

// The engine refers to the model: a moved simulation builds its own from its (moved) model; the
// integrator then restarts from the state, as after set_state.
Simulation::Simulation(Simulation&& o) noexcept
    : model_(std::move(o.model_)),
      state_(std::move(o.state_)),
      ws_(std::move(o.ws_)),
      steps_(o.steps_),
      solver_(std::move(o.solver_)),
      stages_(o.stages_),
      finite_(o.finite_),
      non_finite_(std::move(o.non_finite_)),
      shocks_(std::move(o.shocks_)) {
  if (o.compliant_) compliant_ = std::make_unique<CompliantEngine>(model_);
  o.compliant_.reset();
}

Simulation& Simulation::operator=(Simulation&& o) noexcept {
  if (this == &o) return *this;
  model_ = std::move(o.model_);
  state_ = std::move(o.state_);
  ws_ = std::move(o.ws_);
  steps_ = o.steps_;
  solver_ = std::move(o.solver_);
  stages_ = o.stages_;
  finite_ = o.finite_;
  non_finite_ = std::move(o.non_finite_);
  shocks_ = std::move(o.shocks_);
  compliant_.reset();
  if (o.compliant_) compliant_ = std::make_unique<CompliantEngine>(model_);
  o.compliant_.reset();
  return *this;
}

// The contacts of the compliant engine's last state as the workspace's outputs (contacts.csv,
// the replay, Python): points, forces and moments of 1 on 2, end velocities, statuses.
void Simulation::compliant_results() {
  const std::vector<CompliantContactResult>& contacts = compliant_->contacts();
  const std::size_t n = contacts.size();
  ContactPoints& points = ws_.contact_points;
  StepResults& out = ws_.step_results;
  points.points.resize(n);
  out.impulse.resize(n);
  out.moment.resize(n);
  out.u_end.resize(n);
  out.w_rel_end.resize(n);
  out.status.resize(n);
  out.forces = true;
  int active = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const CompliantContactResult& c = contacts[k];
    points.points[k] = c.point;
    out.impulse[k] = c.w.head<3>();
    out.moment[k] = c.w.tail<3>();
    out.u_end[k] = c.u.head<3>();
    out.w_rel_end[k] = c.u(3) * c.point.n_W + c.u(4) * c.point.t1_W + c.u(5) * c.point.t2_W;
    out.status[k] = c.status;
    if (c.w(0) > 0.0) ++active;
  }
  ws_.report.contact_points = static_cast<int>(n);
  ws_.report.active_contacts = active;
  ws_.report.integrator = compliant_->statistics();
}

const StepReport& Simulation::step_compliant() {
  if (&compliant_->model() != &model_) compliant_ = std::make_unique<CompliantEngine>(model_);
  // The end of the step by the compensated sum of the steps (as the nonsmooth integrate stage).
  const double increment = model_.time_step - state_.time_carry;
  const double t_end = state_.time + increment;
  const double carry = (t_end - state_.time) - increment;
  const bool ok = compliant_->advance(state_, t_end);
  state_.time_carry = ok ? carry : 0.0;
  ++state_.step;
  ++ws_.profile.steps;
  compliant_results();
  if (shocks_ && ok) shocks_->add(state_.time, compliant_->contacts());
  StepReport& r = ws_.report;
  r.solver = SolverResult{};
  r.activated = 0;  // the stage activate is the nonsmooth step's
  r.left_out = 0;
  r.left_out_overlap = 0.0;
  r.finite = ok;
  r.non_finite_body = -1;
  r.non_finite_quantity = StateQuantity::none;
  for (std::size_t b = 0; b < state_.x_WC.size() && r.finite; ++b) {
    const StateQuantity bad = !state_.x_WC[b].allFinite()            ? StateQuantity::position
                              : !state_.q_WB[b].coeffs().allFinite() ? StateQuantity::orientation
                              : !state_.v_WC[b].allFinite()          ? StateQuantity::velocity
                              : !state_.w_W[b].allFinite() ? StateQuantity::angular_velocity
                                                           : StateQuantity::none;
    if (bad != StateQuantity::none) {
      r.finite = false;
      r.non_finite_body = static_cast<int>(b);
      r.non_finite_quantity = bad;
    }
  }
  ++steps_;
  stages_.add(r, state_.time);
  if (!r.finite && finite_) {
    finite_ = false;
    non_finite_ = !ok ? compliant_->error() : non_finite_message(model_, state_, r);
  }
  return r;
}

const StepReport& Simulation::step() {
  if (compliant_) return step_compliant();
  const StepReport& r = coulomb::step(model_, state_, ws_);
  ++steps_;
  if (r.solved()) solver_.add(r.solver, state_.time);
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

void Simulation::set_load(int body, const BodyLoad& load) {
  if (body < 0 || body >= static_cast<int>(model_.bodies.size()))
    throw std::invalid_argument("set_load: no body " + std::to_string(body));
  Body& b = model_.bodies[static_cast<std::size_t>(body)];
  if (b.fixed)
    throw std::invalid_argument("set_load: body '" + b.name + "' is " +
                                (b.driven() ? "driven" : "fixed") +
                                "; forces and damping act on free bodies only");
  auto finite = [](const Vec3& v) { return v.allFinite(); };
  if (!finite(load.force) || !finite(load.torque) || !finite(load.point_B) ||
      !(load.linear_damping >= 0.0) || !(load.angular_damping >= 0.0) ||
      !std::isfinite(load.linear_damping) || !std::isfinite(load.angular_damping))
    throw std::invalid_argument("set_load: body '" + b.name +
                                "': forces must be finite and damping finite and >= 0");
  const bool compliant = model_.solver.formulation == Formulation::compliant;
  const bool was_actuated = model_.has_actuation();
  const BodyLoad previous = b.load;
  b.load = load;
  // A load wakes the body's island (the step does not read the load of a body asleep).
  state_.wake_island(static_cast<std::size_t>(body));
  if (compliant) {
    std::string why;
    if (!was_actuated && model_.has_actuation())
      why =
          "the model had no actuation at its start, so its compliant state has no work "
          "components; give the scene a load, damping or a driven body";
    else if (model_.solver.compliant.integrator != Integrator::erk &&
             model_.solver.compliant.analytic_jacobian && actuation_without_jacobian(model_) >= 0)
      why =
          "damping and body-frame or off-centre loads need solver.jacobian: difference with the "
          "implicit integrators";
    if (!why.empty()) {
      b.load = previous;
      throw std::invalid_argument("set_load: body '" + b.name + "': " + why);
    }
    // The integrator restarts from the state with the new forces.
    compliant_->sample(state_);
  }
}

void Simulation::set_driven_twist(int body, const Vec3& velocity, const Vec3& angular_velocity) {
  if (body < 0 || body >= static_cast<int>(model_.bodies.size()))
    throw std::invalid_argument("set_motion: no body " + std::to_string(body));
  Body& b = model_.bodies[static_cast<std::size_t>(body)];
  if (!b.driven())
    throw std::invalid_argument("set_motion: body '" + b.name +
                                "' is not driven (give it a motion in the scene)");
  if (!velocity.allFinite() || !angular_velocity.allFinite())
    throw std::invalid_argument("set_motion: body '" + b.name + "': the twist must be finite");
  // The present pose of the body frame, reached at t by p0 + v t, exp(ω t) q0.
  const double t = state_.time;
  const DrivenPose now = driven_pose(b.motion, t);
  BodyMotion m;
  m.kind = BodyMotion::Kind::twist;
  m.velocity = velocity;
  m.angular_velocity = angular_velocity;
  m.p0 = now.p_WB - t * velocity;
  m.q0 = (rotation_exp(-t * angular_velocity) * now.q_WB).normalized();
  b.motion = m;
  // The state's twist is the new one from now on (the pose is unchanged).
  set_driven_state(model_, state_, t);
  if (compliant_) compliant_->sample(state_);
}

void Simulation::reset_statistics() {
  steps_ = 0;
  solver_ = SolverStatistics{};
  stages_ = StepStatistics{};
  // The shock statistics start again from the contacts of the present state.
  if (shocks_) {
    shocks_->clear();
    shocks_->add(state_.time, compliant_->contacts());
  }
}

void Simulation::restore_statistics(std::int64_t steps, const SolverStatistics& solver,
                                    const StepStatistics& stages) {
  steps_ = steps;
  solver_ = solver;
  stages_ = stages;
}

}  // namespace coulomb
