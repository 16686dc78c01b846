// Running a model to its end time: stepping, output times, statistics, summary.json.
#include <coulomb/io/checkpoint.hpp>
#include <coulomb/io/output.hpp>
#include <coulomb/io/output_folder.hpp>
#include <coulomb/io/replay.hpp>
#include <coulomb/io/run.hpp>
#include <coulomb/laws/one_line.hpp>
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/world/world.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
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
  // The next output time of `interval` (a sum of intervals: a checkpoint keeps it, not t0).
  [[nodiscard]] double next() const { return next_; }
  void restore(double next) { next_ = next; }

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
        write_problem(path, contact.problem.assembled(), ContactSolution<n>{contact.r, contact.u});
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
  frame.driven_work = state.driven_work;
  frame.force_work = state.force_work;
  frame.damping = state.damping;
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

// Wall time per stage [s]: the pipeline's profile, plus what a restart's checkpoint carried.
using StageSeconds = std::array<double, kStageCount>;

std::string summary(const Model& model, const State& state, const StageSeconds& stage_seconds,
                    std::int64_t checkpoint_every, const Checkpoint* restart,
                    const RunOptions& options, const RunResult& result, double initial_total,
                    const Workspace& ws, const CompliantEngine* compliant,
                    const ShockStatistics* shocks) {
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
    stages[std::string(stage_name(static_cast<Stage>(s)))] = stage_seconds[s];
  j["stage_times_s"] = stages;
  // Checkpoints: how often, how many (from the first run's start), the last one's size, and the
  // wall time spent writing them; the checkpoint a restart started from.
  if (checkpoint_every > 0)
    j["checkpoints"] = {
        {"every_steps", checkpoint_every},
        {"file", kCheckpointFileName},
        {"written", result.checkpoints + (restart ? restart->checkpoints_written : 0)},
        {"last_bytes", result.checkpoint_bytes},
        {"write_time_s",
         result.checkpoint_seconds + (restart ? restart->checkpoint_seconds : 0.0)}};
  if (restart)
    j["restarted_from"] = {{"checkpoint", options.restart},
                           {"time", result.restart_time},
                           {"step", result.restart_step}};
  const SolverStatistics& st = result.solver;
  json methods = json::object();
  for (const auto& [name, count] : st.methods) methods[name] = count;
  j["solver"] = {{"name", to_string(model.solver.kind)},
                 {"tolerance", model.solver.tolerance},
                 {"max_iterations_setting", model.solver.max_iterations},
                 {"max_step_iterations_setting", model.solver.max_step_iterations},
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
                         {"largest_left", ss.largest_left},
                         {"unclosed_steps", ss.unclosed_steps},
                         {"largest_unclosed", ss.largest_unclosed},
                         {"largest_unclosed_time", ss.largest_unclosed_time}};
  j["activation"] = {{"passes", model.solver.activation_passes},
                     {"points", ss.activated},
                     {"steps", ss.activation_steps},
                     {"left_out_points", ss.left_out},
                     {"left_out_steps", ss.left_out_steps},
                     {"deepest_left_out", ss.deepest_left_out},
                     {"deepest_left_out_time", ss.deepest_left_out_time}};
  j["rotation_failures"] = ss.rotation_failures;
  // Sleeping islands (solver.sleep): the thresholds and the bodies asleep at the end.
  if (model.solver.sleep.enabled) {
    const auto asleep = std::count_if(state.asleep.begin(), state.asleep.end(),
                                      [](std::int32_t a) { return a >= 0; });
    j["sleep"] = {{"linear_velocity", model.solver.sleep.linear_velocity},
                  {"angular_velocity", model.solver.sleep.angular_velocity},
                  {"time", model.solver.sleep.time},
                  {"sleeping_bodies", asleep}};
  }
  if (compliant != nullptr) j["integrator"] = integrator_json(model, ws, *compliant);
  const Energy e = energy(model, state);
  const double total = audited_total(model, e, state);
  json by_kind = json::object();
  for (std::size_t k = 0; k < kEnergyKindCount; ++k)
    by_kind[kEnergyKindNames[k]] = state.dissipated_by_kind[k];
  j["energy"] = {{"kinetic", e.kinetic},           {"potential", e.potential},
                 {"elastic", e.elastic},           {"dissipated", state.dissipated},
                 {"dissipated_by_kind", by_kind},  {"total", total},
                 {"initial_total", initial_total}, {"drift", total - initial_total}};
  if (model.solver.sleep.enabled) j["energy"]["slept"] = state.slept;
  if (model.has_actuation()) {
    j["energy"]["driven_work"] = state.driven_work;
    j["energy"]["force_work"] = state.force_work;
    j["energy"]["damping"] = state.damping;
    // Each driven body's work on the others (driven.csv's last `work`; nonsmooth formulation).
    if (compliant == nullptr) {
      json by_body = json::object();
      for (std::size_t b = 0; b < model.bodies.size(); ++b)
        if (model.bodies[b].driven())
          by_body[model.bodies[b].name] =
              b < state.driven_work_by_body.size() ? state.driven_work_by_body[b] : 0.0;
      if (!by_body.empty()) j["energy"]["driven_work_by_body"] = std::move(by_body);
    }
  }
  // code_aster's statistics per shock point, as in wear.csv (scenes with dis_choc contacts).
  if (shocks != nullptr) {
    json points = json::array();
    for (const ShockPointStatistics& p : shocks->results()) {
      json row = {{"body1", model.bodies[p.body1].name},
                  {"shape1", p.shape1 - model.bodies[p.body1].first_shape},
                  {"body2", model.bodies[p.body2].name},
                  {"shape2", p.shape2 - model.bodies[p.body2].first_shape}};
      for (const auto& [name, value] : wear_values(p)) {
        const bool count = name == "samples" || name == "contact_samples" || name == "shocks" ||
                           name == "rebounds";
        if (count)
          row[std::string(name)] = static_cast<std::int64_t>(value);
        else
          row[std::string(name)] = value;
      }
      points.push_back(row);
    }
    j["shock_points"] = points;
  }
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

// A restart's checkpoint must be of this scene and settings (its hash), of this model (bodies,
// the shapes its contact memory names), and hold what this run continues (files, replay).
void check_restart(const Checkpoint& c, const Model& model, const RunOptions& options) {
  const std::string& file = options.restart;
  if (c.scene_hash != options.scene_hash)
    throw std::invalid_argument(fmt::format(
        "{}: a checkpoint of another scene or other settings (scene hash {:016x}, this run's "
        "{:016x}); restart with the scene file, --dt and --solver-every-step of the run that "
        "wrote it",
        file, c.scene_hash, options.scene_hash));
  if (c.state.body_count() != model.bodies.size())
    throw std::invalid_argument(fmt::format("{}: holds {} bodies, the scene {}", file,
                                            c.state.body_count(), model.bodies.size()));
  const auto shapes = static_cast<std::int32_t>(model.shapes.size());
  for (const ContactMemory& m : c.state.contacts)
    if (m.key.shape1 < 0 || m.key.shape1 >= shapes || m.key.shape2 < 0 || m.key.shape2 >= shapes)
      throw std::invalid_argument(
          fmt::format("{}: its contact memory names shape {}, the scene has {} shapes", file,
                      std::max(m.key.shape1, m.key.shape2), shapes));
  if (!options.output_directory.empty() && c.files.empty())
    throw std::invalid_argument(fmt::format(
        "{}: written by a run without output files: there are no files to continue", file));
  if (!options.output_directory.empty() && options.write_replay && !c.has_replay)
    throw std::invalid_argument(fmt::format(
        "{}: written by a run without replay.html: its frames cannot be continued", file));
}

}  // namespace

std::vector<std::string> overlap_warnings(const Model& model, const std::vector<Overlap>& overlaps,
                                          bool position_correction) {
  std::vector<std::string> out;
  if (overlaps.empty()) return out;
  auto name = [&](int b) { return fmt::format("'{}'", one_line(model.bodies[b].name)); };
  const char* fix = position_correction
                        ? "the position stage moves them apart"
                        : "nothing moves them apart (solver.position_correction is off)";
  // The overlaps: the one pair, or the count with the deepest and the first three.
  if (overlaps.size() == 1) {
    const Overlap& o = overlaps.front();
    out.push_back(fmt::format("bodies {} and {} overlap by {:.3g} m at the start; {}",
                              name(o.body1), name(o.body2), o.depth, fix));
  } else {
    const Overlap& deepest =
        *std::max_element(overlaps.begin(), overlaps.end(),
                          [](const Overlap& a, const Overlap& b) { return a.depth < b.depth; });
    std::string first;
    for (std::size_t i = 0; i < std::min<std::size_t>(3, overlaps.size()); ++i)
      first += fmt::format("{}{} and {}", i > 0 ? ", " : "", name(overlaps[i].body1),
                           name(overlaps[i].body2));
    out.push_back(fmt::format(
        "{} pairs of bodies overlap at the start, the deepest {} and {} by {:.3g} m (first: "
        "{}{}); {}",
        overlaps.size(), name(deepest.body1), name(deepest.body2), deepest.depth, first,
        overlaps.size() > 3 ? ", ..." : "", fix));
  }
  // Piles: the connected groups of the overlap graph (union-find), their bodies and pairs.
  std::vector<int> parent(model.bodies.size());
  for (std::size_t b = 0; b < parent.size(); ++b) parent[b] = static_cast<int>(b);
  auto root = [&](int b) {
    while (parent[b] != b) b = parent[b] = parent[parent[b]];
    return b;
  };
  for (const Overlap& o : overlaps) {
    const int a = root(o.body1), b = root(o.body2);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<std::int64_t> bodies(parent.size(), 0), pairs(parent.size(), 0);
  for (std::size_t b = 0; b < parent.size(); ++b) ++bodies[root(static_cast<int>(b))];
  for (const Overlap& o : overlaps) ++pairs[root(o.body1)];
  // The largest pile: more than 6 pairs per body (12 neighbours each, the most equal spheres
  // can touch without overlapping more).
  int pile = -1;
  for (std::size_t g = 0; g < parent.size(); ++g)
    if (pairs[g] > 6 * bodies[g] && (pile < 0 || pairs[g] > pairs[pile]))
      pile = static_cast<int>(g);
  if (pile >= 0) {
    std::string first;
    int listed = 0;
    for (std::size_t b = 0; b < parent.size() && listed < 3; ++b)
      if (root(static_cast<int>(b)) == pile)
        first += fmt::format("{}{}", listed++ > 0 ? ", " : "", name(static_cast<int>(b)));
    out.push_back(fmt::format(
        "{} bodies start piled at one spot ({}, ...): {} pairs of them overlap, so every step "
        "finds and solves at least {} contacts among them where bodies set apart would have at "
        "most {}, and that cost grows as the square of the pile (twice the bodies, four times the "
        "contacts); place them apart",
        bodies[pile], first, pairs[pile], pairs[pile], 6 * bodies[pile]));
  }
  return out;
}

RunResult run(Simulation& sim, const RunOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto since = [](clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  };
  RunResult result;
  sim.reset_statistics();
  const Model& model = sim.model();
  const State& state = sim.state();
  const Workspace& ws = sim.workspace();
  if (!(options.checkpoint_every >= 0.0) || !std::isfinite(options.checkpoint_every))
    throw std::invalid_argument(
        fmt::format("the time between checkpoints must be finite and >= 0 s (got {})",
                    options.checkpoint_every));
  // The compliant formulation's checkpoint would need State::compliant (the stick anchors) and
  // its integrator's history (it integrates across the samples without restarting), which format
  // 2 does not hold: refused, naming the option, before anything is read or written.
  if (model.solver.formulation == Formulation::compliant &&
      (options.checkpoint_every > 0.0 || !options.restart.empty()))
    throw std::invalid_argument(fmt::format(
        "{}: checkpoints and restarts are for the nonsmooth formulation only; this scene's "
        "solver.formulation is compliant, whose stick anchors and integrator history (it steps "
        "across the samples without restarting) a checkpoint does not hold, so a restart could "
        "not continue the run bit-identically",
        options.checkpoint_every > 0.0 && !options.restart.empty() ? "--checkpoint-every/--restart"
        : options.checkpoint_every > 0.0                           ? "--checkpoint-every"
                                                                   : "--restart"));

  // A restart: the checkpoint, checked against this scene, before anything is written.
  std::optional<Checkpoint> restart;
  if (!options.restart.empty()) {
    restart = read_checkpoint(options.restart);
    check_restart(*restart, model, options);
  }
  const State& from = restart ? restart->state : state;
  // Steps counted from the start of the run (the first run's, for a restart), so a restarted run
  // ends at the step the uninterrupted one ends at.
  const double start_time = restart ? restart->start_time : from.time;
  const std::int64_t start_step = restart ? restart->start_step : from.step;
  const std::int64_t total_steps = steps_between(start_time, model.end_time, model.time_step);
  result.total_steps = total_steps;
  std::int64_t n = from.step - start_step;  // steps taken since the start
  if (restart && n >= total_steps)
    throw std::invalid_argument(fmt::format(
        "{}: the checkpoint is at t = {} s (step {}), at or past the end time {} s; nothing to run "
        "(give a later end time)",
        options.restart, from.time, from.step, model.end_time));
  // Checkpoints every K steps: K from the option, else as the restarted run did.
  const double per_step = options.checkpoint_every / model.time_step;
  const std::int64_t checkpoint_every =
      options.checkpoint_every > 0.0
          ? std::max<std::int64_t>(1, std::llround(std::min(per_step, 1e18)))
          : (restart ? restart->checkpoint_every : 0);
  if (checkpoint_every > 0 && options.output_directory.empty())
    throw std::invalid_argument(
        "checkpoints are written into the output folder: the run needs one");
  // The replay's recorder, continued from a restart's frames.
  std::unique_ptr<ReplayRecorder> replay;
  if (!options.output_directory.empty() && options.write_replay) {
    replay = std::make_unique<ReplayRecorder>(model);
    if (restart) {
      try {
        replay->restore(restart->replay);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}: {}", options.restart, e.what()));
      }
    }
  }
  // The state and statistics to go on from: the checkpoint's; else the overlaps at the start,
  // said before the first step.
  if (restart) {
    sim.state() = restart->state;
    sim.restore_statistics(restart->steps, restart->solver, restart->stages);
    result.restarted = true;
    result.restart_time = state.time;
    result.restart_step = state.step;
  } else {
    result.initial_overlaps = find_overlaps(model, state, kOverlapWarningDepth);
    if (options.warning)
      for (const std::string& line :
           overlap_warnings(model, result.initial_overlaps, model.solver.position_correction))
        options.warning(line);
  }

  if (!options.dump_problems_directory.empty()) {
    // FCLIB files hold cones only: a problem with joint blocks cannot be written.
    if (!model.joints.empty())
      throw std::runtime_error(
          "--dump-problems: the scene has joints, whose rows FCLIB files cannot hold");
    std::error_code ec;
    std::filesystem::create_directories(options.dump_problems_directory, ec);
    if (ec)
      throw std::runtime_error(fmt::format("{}: cannot create the folder: {}",
                                           options.dump_problems_directory, ec.message()));
  }
  std::unique_ptr<OutputFolder> folder;
  std::unique_ptr<OutputWriter> writer;
  bool committing = false;
  double checkpoint_time = 0.0;  // of the last checkpoint written [s]
  try {
    if (!options.output_directory.empty()) {
      folder = std::make_unique<OutputFolder>(options.output_directory);
      // A restart's files start as those of the run that wrote the checkpoint, beside it.
      std::optional<OutputResume> resume;
      if (restart) {
        const std::filesystem::path beside = std::filesystem::path(options.restart).parent_path();
        resume = OutputResume{beside.empty() ? "." : beside.string(),
                              beside.empty() ? "." : beside.string(), restart->files,
                              restart->solver_interval};
      }
      writer = std::make_unique<OutputWriter>(model, folder->working(), folder->target(),
                                              resume ? &*resume : nullptr);
      result.output_directory = folder->target();
      result.checkpoint_file =
          (std::filesystem::path(folder->target()) / kCheckpointFileName).string();
    }
    const Energy e0 = energy(model, state);
    const double initial_total = restart ? restart->initial_total : audited_total(model, e0, state);
    OutputClock clock_out(model, state.time);
    if (restart) clock_out.restore(restart->next_output_time);
    ReplayFrame frame;
    auto output = [&](bool with_contacts) {
      writer->write_frame(model, state, ws, with_contacts);
      if (replay) {
        fill_replay_frame(model, state, ws, with_contacts, frame);
        replay->add_frame(frame);
      }
    };
    if (writer && !restart) {
      output(false);
      writer->flush();  // the headers and the initial state are on disk from the start
    }
    // Wall times: this process's, plus those a restart's checkpoint carried.
    const double wall_before = restart ? restart->wall_time_s : 0.0;
    StageSeconds stage_before{};
    if (restart)
      for (std::size_t s = 0; s < kStageCount; ++s)
        for (const auto& [name, seconds] : restart->stage_seconds)
          if (name == stage_name(static_cast<Stage>(s))) stage_before[s] = seconds;
    for (std::size_t s = 0; s < kStageCount; ++s) stage_before[s] -= ws.profile.seconds[s];
    auto stage_seconds = [&] {
      StageSeconds out = stage_before;
      for (std::size_t s = 0; s < kStageCount; ++s) out[s] += ws.profile.seconds[s];
      return out;
    };

    // The checkpoint: the files flushed and synced first, so the marks it records are on disk;
    // then the state, statistics and bookkeeping, written atomically (checkpoint.hpp).
    bool written = restart ? restart->frame_written : true;  // the state is in the files
    Checkpoint checkpoint;
    std::string checkpoint_bytes;
    auto save_checkpoint = [&] {
      const auto t0 = clock::now();
      writer->sync();
      Checkpoint& c = checkpoint;
      c.scene_hash = options.scene_hash;
      c.state = state;
      c.start_time = start_time;
      c.start_step = start_step;
      c.initial_total = initial_total;
      c.checkpoint_every = checkpoint_every;
      c.next_output_time = clock_out.next();
      c.frame_written = written;
      c.steps = sim.steps();
      c.solver = sim.solver_statistics();
      c.stages = sim.step_statistics();
      c.wall_time_s = wall_before + since(start);
      c.stage_seconds.clear();
      const StageSeconds seconds = stage_seconds();
      for (std::size_t s = 0; s < kStageCount; ++s)
        c.stage_seconds.emplace_back(std::string(stage_name(static_cast<Stage>(s))), seconds[s]);
      c.checkpoints_written = result.checkpoints + 1 + (restart ? restart->checkpoints_written : 0);
      c.checkpoint_seconds =
          result.checkpoint_seconds + (restart ? restart->checkpoint_seconds : 0.0);
      c.files = writer->marks();
      c.solver_interval = writer->interval();
      c.has_replay = replay != nullptr;
      if (replay) c.replay = replay->recording();
      write_checkpoint((std::filesystem::path(folder->working()) / kCheckpointFileName).string(),
                       result.checkpoint_file, c, checkpoint_bytes);
      ++result.checkpoints;
      checkpoint_time = state.time;
      result.checkpoint_bytes = checkpoint_bytes.size();
      result.checkpoint_seconds += since(t0);
    };

    // Step to the end time (the last step may end up to h/2 past it: steps are whole); a
    // non-finite state ends the run after its step is written, a stop request before the next
    // step. A restart whose state is not yet a frame of the files takes its first step before it
    // stops (that frame needs the step's contacts).
    bool may_stop = written;
    while (n < total_steps && sim.finite()) {
      if (options.stop && may_stop) {
        result.interrupted = options.stop();
        if (!result.interrupted.empty()) break;
      }
      const StepReport& report = sim.step();
      may_stop = true;
      if (writer) writer->add_step(state, report);
      if (!options.dump_problems_directory.empty() && report.active_contacts > 0)
        dump_problem(options.dump_problems_directory, state, ws);
      written = false;
      if (writer && (!report.finite || clock_out.due(state) || n + 1 == total_steps)) {
        output(true);
        written = true;
      }
      if (writer) writer->flush_if_due();
      if (checkpoint_every > 0 && sim.finite() && state.step % checkpoint_every == 0 &&
          n + 1 < total_steps)
        save_checkpoint();
      if (options.progress && (n & 255) == 0)
        options.progress(static_cast<double>(n + 1) / static_cast<double>(total_steps));
      ++n;
    }
    // The last checkpoint: at the end, or where a stop request ended the run (before the frame
    // below, which an uninterrupted run would not have written: a restart drops it).
    if (checkpoint_every > 0 && writer && sim.finite()) save_checkpoint();
    // Interrupted between output times: the state reached is the last frame.
    if (writer && !written) output(true);
    if (options.progress && result.interrupted.empty()) options.progress(1.0);
    result.steps = sim.steps();
    result.solver = sim.solver_statistics();
    result.stages = sim.step_statistics();
    result.finite = sim.finite();
    result.non_finite = sim.non_finite();
    result.wall_time_s = wall_before + since(start);
    result.summary_json =
        summary(model, state, stage_seconds(), checkpoint_every, restart ? &*restart : nullptr,
                options, result, initial_total, ws, sim.compliant(), sim.shock_statistics());
    if (writer) {
      writer->finish(result.summary_json);
      // wear.csv: the shock statistics of the run (scenes with dis_choc contacts only).
      if (const ShockStatistics* shocks = sim.shock_statistics()) {
        RowFile wear((std::filesystem::path(folder->working()) / "wear.csv").string(),
                     (std::filesystem::path(folder->target()) / "wear.csv").string());
        wear.rows() = wear_csv(model, shocks->results());
        wear.close();
      }
      if (replay)
        replay->write((std::filesystem::path(folder->working()) / "replay.html").string(),
                      (std::filesystem::path(folder->target()) / "replay.html").string());
      committing = true;
      folder->commit();
    }
  } catch (const std::runtime_error& e) {
    // A failure after a checkpoint: the working folder is kept, to restart from.
    if (committing || result.checkpoints == 0 || !folder) throw;
    folder->keep();
    throw std::runtime_error(fmt::format(
        "{}; {} holds the run up to its last checkpoint (t = {} s), to restart from with --restart "
        "{}",
        e.what(), folder->working(), checkpoint_time,
        (std::filesystem::path(folder->working()) / kCheckpointFileName).string()));
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
