// Running a model to its end time: stepping, output times, statistics, summary.json.
#include <coulomb/io/output.hpp>
#include <coulomb/io/replay.hpp>
#include <coulomb/io/run.hpp>
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/fclib_io6.hpp>
#include <coulomb/world/world.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string_view>

#ifndef COULOMB_VERSION
#define COULOMB_VERSION "unknown"
#endif

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

namespace {

// Overlaps at the start deeper than this are reported (shallower ones are the round-off of bodies
// placed in contact) [m].
constexpr double kOverlapWarningDepth = 1e-6;

// Decides the output times: every K steps, or the step nearest each multiple of S seconds.
class OutputClock {
 public:
  OutputClock(const Model& model, double t0)
      : every_(model.output.every), interval_(model.output.interval), h_(model.time_step) {
    if (every_ <= 0 && interval_ <= 0.0) every_ = 1;
    next_ = t0 + interval_;
  }
  bool due(const State& state) {
    if (every_ > 0) return state.step % every_ == 0;
    if (state.time + 0.5 * h_ < next_) return false;
    while (next_ <= state.time + 0.5 * h_) next_ += interval_;
    return true;
  }

 private:
  std::int64_t every_;
  double interval_;
  double h_;
  double next_ = 0.0;
};

// Writes the step's contact problem and its solution (FCLIB layout) into `directory`.
void dump_problem(const std::string& directory, const State& state, const Workspace& ws) {
  const std::string path = fmt::format("{}/step-{:08d}.hdf5", directory, state.step);
  if (ws.use_moments) {
    ContactSolution6 solution{ws.r6, ws.u6};
    write_problem6(path, ws.problem6, solution);
  } else {
    ContactSolution solution{ws.r, ws.u};
    write_fclib_local(path, ws.problem, solution);
  }
}

// One replay frame: body-frame poses, contacts (world force of 1 on 2), energies.
void fill_replay_frame(const Model& model, const State& state, const Workspace& ws,
                       bool with_contacts, ReplayFrame& frame) {
  frame.time = state.time;
  frame.poses.clear();
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Pose X = body_pose(model, state, static_cast<int>(b));
    for (double v : {X.p.x(), X.p.y(), X.p.z(), X.q.w(), X.q.x(), X.q.y(), X.q.z()})
      frame.poses.push_back(static_cast<float>(v));
  }
  frame.contacts.clear();
  if (with_contacts) {
    for (std::size_t k = 0; k < contact_row_count(ws); ++k) {
      const ContactRow row = contact_row(model, ws, k);
      const ContactPoint& c = ws.points[k];
      const Vec3 f = row.force.x() * c.n_W + row.force.y() * c.t1_W + row.force.z() * c.t2_W;
      const double values[kReplayContactStride] = {row.point.x(),
                                                   row.point.y(),
                                                   row.point.z(),
                                                   row.normal.x(),
                                                   row.normal.y(),
                                                   row.normal.z(),
                                                   f.x(),
                                                   f.y(),
                                                   f.z(),
                                                   static_cast<double>(row.body1),
                                                   static_cast<double>(row.body2),
                                                   std::hypot(row.velocity.y(), row.velocity.z()),
                                                   row.rates.x()};
      for (double v : values) frame.contacts.push_back(static_cast<float>(v));
    }
  }
  const Energy e = energy(model, state);
  frame.kinetic = e.kinetic;
  frame.potential = e.potential;
  frame.dissipated = state.dissipated;
}

nlohmann::json vec_json(const Vec3& v) { return nlohmann::json::array({v.x(), v.y(), v.z()}); }

std::string summary(const Model& model, const State& state, const Workspace& ws,
                    const RunOptions& options, const RunResult& result, double initial_total) {
  using nlohmann::json;
  json j;
  j["scene"] = model.name;
  j["source"] = options.scene_source;
  j["version"] = COULOMB_VERSION;
  j["formulation"] = model.solver.formulation;
  j["time_step"] = model.time_step;
  j["end_time"] = state.time;
  j["steps"] = result.steps;
  j["wall_time_s"] = result.wall_time_s;
  j["finite"] = result.finite;
  if (!result.finite) j["non_finite"] = result.non_finite;
  json stages = json::object();
  for (std::size_t s = 0; s < kStageCount; ++s)
    stages[std::string(stage_name(static_cast<Stage>(s)))] = ws.profile.seconds[s];
  j["stage_times_s"] = stages;
  const SolverStatistics& st = result.solver;
  json methods = json::object();
  for (const auto& [name, count] : st.methods) methods[name] = count;
  j["solver"] = {{"name", model.solver.name},
                 {"tolerance", model.solver.tolerance},
                 {"max_iterations_setting", model.solver.max_iterations},
                 {"solves", st.solves},
                 {"not_converged", st.not_converged},
                 {"first_not_converged_time", st.first_not_converged_time},
                 {"worst_error", st.worst_error},
                 {"worst_error_time", st.worst_error_time},
                 {"mean_error", st.mean_error},
                 {"max_iterations", st.max_iterations},
                 {"mean_iterations", st.mean_iterations},
                 {"methods", methods},
                 {"auto_switches", st.auto_switches},
                 {"fell_back", st.fell_back},
                 {"cold_starts", st.cold_starts},
                 {"local_failures", st.local_failures},
                 {"solves_with_local_failures", st.solves_with_local_failures}};
  const StepStatistics& ss = result.stages;
  j["position_stage"] = {{"enabled", model.solver.position_correction},
                         {"tolerance", model.solver.position_tolerance},
                         {"corrected_steps", ss.corrected_steps},
                         {"deepest_penetration", ss.deepest_penetration},
                         {"deepest_penetration_time", ss.deepest_penetration_time},
                         {"largest_left", ss.largest_left}};
  j["rotation_failures"] = ss.rotation_failures;
  const Energy e = energy(model, state);
  const double total = e.kinetic + e.potential + state.dissipated;
  json by_kind = json::object();
  for (std::size_t k = 0; k < kEnergyKindCount; ++k)
    by_kind[kEnergyKindNames[k]] = state.dissipated_by_kind[k];
  j["energy"] = {
      {"kinetic", e.kinetic},          {"potential", e.potential}, {"dissipated", state.dissipated},
      {"dissipated_by_kind", by_kind}, {"total", total},           {"initial_total", initial_total},
      {"drift", total - initial_total}};
  json bodies = json::array();
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Quat& q = state.q_WB[b];
    bodies.push_back({{"name", model.bodies[b].name},
                      {"position", vec_json(state.x_WC[b])},
                      {"orientation", json::array({q.w(), q.x(), q.y(), q.z()})},
                      {"velocity", vec_json(state.v_WC[b])},
                      {"angular_velocity", vec_json(state.w_W[b])}});
  }
  j["final_state"] = {{"time", state.time}, {"bodies", bodies}};
  return j.dump(2);
}

}  // namespace

RunResult run(const Model& model, State& state, const RunOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  RunResult result;
  Workspace ws;
  prepare(model, ws);
  result.initial_overlaps = find_overlaps(model, state, kOverlapWarningDepth);

  if (!options.dump_problems_directory.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.dump_problems_directory, ec);
    if (ec)
      throw std::runtime_error(fmt::format("{}: cannot create the folder: {}",
                                           options.dump_problems_directory, ec.message()));
  }
  std::unique_ptr<OutputWriter> writer;
  if (!options.output_directory.empty()) {
    writer = std::make_unique<OutputWriter>(model, options.output_directory);
    result.output_directory = writer->directory();
  }
  const Energy e0 = energy(model, state);
  const double initial_total = e0.kinetic + e0.potential + state.dissipated;
  OutputClock clock_out(model, state.time);
  std::unique_ptr<ReplayRecorder> replay;
  ReplayFrame frame;
  if (writer && options.write_replay) replay = std::make_unique<ReplayRecorder>(model);
  auto output = [&](bool with_contacts) {
    writer->write_frame(model, state, ws, with_contacts);
    if (replay) {
      fill_replay_frame(model, state, ws, with_contacts, frame);
      replay->add_frame(frame);
    }
  };
  if (writer) output(false);

  // Step to the end time (the last step may end up to h/2 past it: steps are whole).
  const double h = model.time_step;
  const double t0 = state.time;
  const auto total_steps = static_cast<std::int64_t>(std::llround((model.end_time - t0) / h));
  for (std::int64_t n = 0; n < total_steps; ++n) {
    const StepReport& report = step(model, state, ws);
    ++result.steps;
    if (report.active_contacts > 0) result.solver.add(report.solver, state.time);
    result.stages.add(report, state.time);
    if (writer) writer->write_solver_row(state, report);
    if (!options.dump_problems_directory.empty() && report.active_contacts > 0)
      dump_problem(options.dump_problems_directory, state, ws);
    if (!report.finite) {
      result.finite = false;
      result.non_finite = non_finite_message(model, state, report);
      if (writer) output(true);
      break;
    }
    if (writer && (clock_out.due(state) || n + 1 == total_steps)) output(true);
    if (options.progress && (n & 255) == 0)
      options.progress(static_cast<double>(n + 1) / static_cast<double>(total_steps));
  }
  if (options.progress) options.progress(1.0);
  result.wall_time_s = std::chrono::duration<double>(clock::now() - start).count();
  result.summary_json = summary(model, state, ws, options, result, initial_total);
  if (replay) replay->write(writer->temporary_path("replay.html"));
  if (writer) writer->commit(result.summary_json);
  return result;
}

}  // namespace coulomb
