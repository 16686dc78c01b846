// Running a model to its end time: stepping, output times, statistics, summary.json.
#include <coulomb/io/output.hpp>
#include <coulomb/io/output_folder.hpp>
#include <coulomb/io/replay.hpp>
#include <coulomb/io/run.hpp>
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/world/world.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string_view>
#include <type_traits>
#include <variant>

#ifndef COULOMB_VERSION
#define COULOMB_VERSION "unknown"
#endif

namespace coulomb {

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
  std::visit(
      [&](const auto& contact) {
        constexpr int n = std::decay_t<decltype(contact.problem)>::kUnknowns;
        write_problem(path, contact.problem, ContactSolution<n>{contact.r, contact.u});
      },
      ws.contact);
}

// One replay frame: body-frame poses, contacts (world force of 1 on 2), energies.
void fill_replay_frame(const Model& model, const State& state, const Workspace& ws,
                       bool with_contacts, ReplayFrame& frame) {
  frame.time = state.time;
  frame.poses.clear();
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Pose X = body_frame_pose(model, state, static_cast<int>(b));
    for (double v : {X.p.x(), X.p.y(), X.p.z(), X.q.w(), X.q.x(), X.q.y(), X.q.z()})
      frame.poses.push_back(static_cast<float>(v));
  }
  frame.contacts.clear();
  if (with_contacts) {
    for (std::size_t k = 0; k < contact_row_count(ws); ++k) {
      const ContactRow row = contact_row(model, ws, k);
      const ContactPoint& c = ws.contact_points.points[k];
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
  frame.potential = e.potential + e.elastic;  // the replay's potential holds the stored energy too
  frame.dissipated = state.dissipated;
}

nlohmann::json vec_json(const Vec3& v) { return nlohmann::json::array({v.x(), v.y(), v.z()}); }

// The compliant formulation's integrator: settings, counts, events, wall times.
nlohmann::json integrator_json(const Model& model, const Workspace& ws,
                               const CompliantEngine& engine) {
  const CompliantSettings& c = model.solver.compliant;
  const IntegratorStatistics& st = ws.report.integrator;
  const CompliantTimes t = engine.times();
  const auto& events = engine.event_counts();
  return {
      {"name", to_string(c.integrator)},
      {"rtol", c.rtol},
      {"atol", c.atol},
      {"max_step", c.max_step},
      {"jacobian", c.analytic_jacobian ? "analytic" : "difference"},
      {"steps", st.steps},
      {"rejected_steps", st.rejected_steps},
      {"rhs_evaluations", st.rhs_evaluations},
      {"jacobian_evaluations", st.jacobian_evaluations},
      {"newton_iterations", st.newton_iterations},
      {"newton_failures", st.newton_failures},
      {"root_stops", st.root_stops},
      {"restarts", st.restarts},
      {"last_step", st.last_step},
      {"events",
       {{"onset", events[0]}, {"release", events[1]}, {"stick", events[2]}, {"slip", events[3]}}},
      {"times_s",
       {{"rhs", t.rhs}, {"jacobian", t.jacobian}, {"roots", t.roots}, {"total", t.total}}}};
}

std::string summary(const Model& model, const State& state, const Workspace& ws,
                    const RunOptions& options, const RunResult& result, double initial_total,
                    const CompliantEngine* compliant) {
  using nlohmann::json;
  json j;
  j["generator"] = "coulomb";  // marks a folder coulomb wrote (io/output_folder.hpp)
  j["scene"] = model.name;
  j["source"] = options.scene_source;
  j["version"] = COULOMB_VERSION;
  j["formulation"] = to_string(model.solver.formulation);
  j["time_step"] = model.time_step;
  j["end_time"] = state.time;  // reached
  j["requested_end_time"] = model.end_time;
  j["status"] = !result.finite                ? "non_finite"
                : !result.interrupted.empty() ? "interrupted"
                                              : "completed";
  if (!result.interrupted.empty()) j["interrupted"] = result.interrupted;
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
  j["solver"] = {{"name", to_string(model.solver.kind)},
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
  if (compliant != nullptr) j["integrator"] = integrator_json(model, ws, *compliant);
  const Energy e = energy(model, state);
  const double total = e.mechanical() + state.dissipated;
  json by_kind = json::object();
  for (std::size_t k = 0; k < kEnergyKindCount; ++k)
    by_kind[kEnergyKindNames[k]] = state.dissipated_by_kind[k];
  j["energy"] = {{"kinetic", e.kinetic},           {"potential", e.potential},
                 {"elastic", e.elastic},           {"dissipated", state.dissipated},
                 {"dissipated_by_kind", by_kind},  {"total", total},
                 {"initial_total", initial_total}, {"drift", total - initial_total}};
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

RunResult run(Simulation& sim, const RunOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  RunResult result;
  sim.reset_statistics();
  const Model& model = sim.model();
  const State& state = sim.state();
  const Workspace& ws = sim.workspace();
  result.initial_overlaps = find_overlaps(model, state, kOverlapWarningDepth);

  if (!options.dump_problems_directory.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.dump_problems_directory, ec);
    if (ec)
      throw std::runtime_error(fmt::format("{}: cannot create the folder: {}",
                                           options.dump_problems_directory, ec.message()));
  }
  std::unique_ptr<OutputFolder> folder;
  std::unique_ptr<OutputWriter> writer;
  if (!options.output_directory.empty()) {
    folder = std::make_unique<OutputFolder>(options.output_directory);
    writer = std::make_unique<OutputWriter>(model, folder->working(), folder->target());
    result.output_directory = folder->target();
  }
  const Energy e0 = energy(model, state);
  const double initial_total = e0.mechanical() + state.dissipated;
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
  if (writer) {
    output(false);
    writer->flush();  // the headers and the initial state are on disk from the start
  }

  // Step to the end time (the last step may end up to h/2 past it: steps are whole); a
  // non-finite state ends the run after its step is written, a stop request before the next step.
  const std::int64_t total_steps = sim.steps_to(model.end_time);
  std::int64_t n = 0;
  bool written = true;  // the last state taken is in the files
  while (n < total_steps && sim.finite()) {
    if (options.stop) {
      result.interrupted = options.stop();
      if (!result.interrupted.empty()) break;
    }
    const StepReport& report = sim.step();
    if (writer) writer->add_step(state, report);
    if (!options.dump_problems_directory.empty() && report.active_contacts > 0)
      dump_problem(options.dump_problems_directory, state, ws);
    written = false;
    if (writer && (!report.finite || clock_out.due(state) || n + 1 == total_steps)) {
      output(true);
      written = true;
    }
    if (writer) writer->flush_if_due();
    if (options.progress && (n & 255) == 0)
      options.progress(static_cast<double>(n + 1) / static_cast<double>(total_steps));
    ++n;
  }
  // Interrupted between output times: the state reached is the last frame.
  if (writer && !written) output(true);
  if (options.progress && result.interrupted.empty()) options.progress(1.0);
  result.steps = sim.steps();
  result.solver = sim.solver_statistics();
  result.stages = sim.step_statistics();
  result.finite = sim.finite();
  result.non_finite = sim.non_finite();
  result.wall_time_s = std::chrono::duration<double>(clock::now() - start).count();
  result.summary_json = summary(model, state, ws, options, result, initial_total, sim.compliant());
  if (writer) {
    writer->finish(result.summary_json);
    if (replay)
      replay->write((std::filesystem::path(folder->working()) / "replay.html").string(),
                    (std::filesystem::path(folder->target()) / "replay.html").string());
    folder->commit();
  }
  return result;
}

RunResult run(const Model& model, State& state, const RunOptions& options) {
  Simulation sim(model, state);
  RunResult result = run(sim, options);
  state = sim.state();
  return result;
}

}  // namespace coulomb
