// bench_peers: the same scenes in coulomb, Bullet and MuJoCo (issue 12), timed in one run and
// measured by the same code, printed as one markdown table per scene (docs/benchmarks.md, "Peer
// benchmark").
//
// The engines take turns: each runs a chunk of steps, then the next one, so that whatever else the
// machine does while the benchmark runs slows every engine alike, and speed ratios from one run
// are meaningful where absolute times are not. Each engine runs in a child process of its own
// (process.hpp) and has a budget of stepping time: an engine that exhausts it stops, one whose
// single step outlasts it is killed, and the table says how many steps it managed. Only the
// engine's step is timed; reading its state back and measuring it (metrics.hpp) is not.
//
//   bench_peers --scene drop_pile --n 1000 --steps 500 --engines coulomb,bullet,mujoco
//       --max-seconds 60
//   bench_peers --all --engines all --max-seconds 60 --json peers.json
#include <coulomb/world/world.hpp>

#include <fmt/format.h>
#include <signal.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "peers/engine.hpp"
#include "peers/metrics.hpp"
#include "peers/process.hpp"
#include "scenes.hpp"

namespace coulomb::bench {
namespace {

/// One scene to run: which builder, its size, how many steps, where drift is measured from.
struct RunSpec {
  std::string scene;  ///< drop_pile, hcp_pile, carpet, tower, pyramid, stacks, drum
  int n = 0;          ///< spheres (piles), boxes (tower), rows (pyramid); unused by stacks
  long steps = 0;
  long drift_from = -1;  ///< -1: the scene's default (scene_drift_from)
};

/// The scene names the driver knows (build_scene), for --help and errors.
constexpr const char* kSceneNames = "drop_pile, hcp_pile, carpet, tower, pyramid, stacks, drum";

bool known_scene(const std::string& name) {
  for (const char* known :
       {"drop_pile", "hcp_pile", "carpet", "tower", "pyramid", "stacks", "drum"})
    if (name == known) return true;
  return false;
}

Scene build_scene(const RunSpec& spec) {
  if (spec.scene == "drop_pile") return drop_pile(spec.n);
  if (spec.scene == "hcp_pile") return hcp_pile(spec.n);
  if (spec.scene == "carpet") return carpet(spec.n);
  if (spec.scene == "tower") return tower(spec.n);
  if (spec.scene == "pyramid") return pyramid(spec.n);
  if (spec.scene == "stacks") return stacks();
  if (spec.scene == "drum") return drum(spec.n);
  throw CLI::ValidationError("--scene",
                             fmt::format("'{}' is not one of {}", spec.scene, kSceneNames));
}

/// The reference step of the drift: the start for scenes built at rest; for the dropped pile,
/// two thirds into the run (it has fallen and should be at rest by then).
long scene_drift_from(const RunSpec& spec) {
  if (spec.drift_from >= 0) return spec.drift_from;
  return spec.scene == "drop_pile" ? spec.steps * 2 / 3 : 0;
}

std::string scene_title(const RunSpec& spec, const Scene& scene) {
  int free_bodies = 0;
  for (const Body& b : scene.model.bodies) free_bodies += b.fixed ? 0 : 1;
  const std::string what =
      spec.scene == "stacks" ? "stacks" : fmt::format("{}({})", spec.scene, spec.n);
  return fmt::format("{}: {} free bodies, {} steps of h = {} s ({} s)", what, free_bodies,
                     spec.steps, scene.model.time_step,
                     static_cast<double>(spec.steps) * scene.model.time_step);
}

/// Settings of a benchmark run (command-line options).
struct Options {
  std::vector<EngineKind> engines;
  double max_seconds = 60.0;  ///< stepping time each engine may spend on one scene [s]
  long chunk = 10;            ///< steps an engine runs before the next one takes its turn
  long sample_every = 50;     ///< steps between two penetration measurements
  PeerSettings peers;
};

/// Runs every engine on one scene (built from `spec`, its model finalized), in turns, each in its
/// own process, and measures them.
std::vector<RunMetrics> run_scene(const RunSpec& spec, const Scene& scene, const Options& options) {
  MeasurePlan plan;
  plan.drift_from = scene_drift_from(spec);
  plan.late_from = plan.drift_from + (spec.steps - plan.drift_from) / 2;
  plan.sample_every = options.sample_every;

  // Start every engine, then wait for each to be built (a peer that cannot take the scene gets a
  // row that says why).
  std::vector<RunMetrics> results(options.engines.size());
  std::vector<std::unique_ptr<EngineProcess>> engines(options.engines.size());
  std::vector<double> stepping_s(options.engines.size(), 0.0);
  std::vector<bool> done(options.engines.size(), false);
  for (std::size_t i = 0; i < options.engines.size(); ++i) {
    const EngineKind kind = options.engines[i];
    results[i].engine = engine_name(kind);
    results[i].settings = engine_settings(kind, options.peers);
    engines[i] = std::make_unique<EngineProcess>(kind, scene, options.peers, plan);
    done[i] = !engines[i]->wait_ready(std::max(120.0, options.max_seconds), results[i]);
    if (done[i]) engines[i].reset();
  }

  // Turns: each engine still running takes up to `chunk` steps, then the next one. A child that
  // overruns its budget by the grace period is killed.
  const double grace_s = 10.0 + 0.25 * options.max_seconds;
  bool any = true;
  while (any) {
    any = false;
    for (std::size_t i = 0; i < engines.size(); ++i) {
      if (done[i]) continue;
      RunMetrics& m = results[i];
      const long steps = std::min(options.chunk, spec.steps - m.steps());
      const double budget_left_s = options.max_seconds - m.time_of_first(m.steps());
      const bool more = engines[i]->run(steps, budget_left_s, grace_s, m);
      done[i] = !more || m.steps() >= spec.steps;
      if (done[i]) {
        // The last measures and notes of an engine whose child still lives.
        engines[i]->finish(m);
        engines[i].reset();
      }
      any = any || !done[i];
    }
  }
  return results;
}

// Numbers for the table: three significant digits, "—" for none.
std::string sig(double x) {
  if (std::isnan(x)) return "—";
  if (x == 0.0) return "0";
  const double a = std::fabs(x);
  if (a >= 1e-3 && a < 1e5) return fmt::format("{:.3g}", x);
  return fmt::format("{:.2e}", x);
}

/// The markdown table of one scene; speed ratios are coulomb's steps/s over the engine's, both
/// over the steps both completed (the first M).
std::string table(const std::string& title, const std::vector<RunMetrics>& runs) {
  const RunMetrics* ref = nullptr;
  for (const RunMetrics& r : runs)
    if (r.engine == engine_name(EngineKind::coulomb) && (r.steps() > 0 || r.unfinished_step_s > 0))
      ref = &r;
  std::string out = fmt::format("### {}\n\n", title);
  out +=
      "| engine | steps | steps/s | coulomb ÷ engine speed (over M steps) | sweeps/step | "
      "step µs ÷ sweeps | max penetration [m] | drift [m] | late drift [m] | "
      "kinetic energy at end [J] | max speed at end [m/s] | max energy rise in a step [J] | "
      "notes |\n";
  out += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const RunMetrics& r : runs) {
    // An engine that could not run: one cell says why.
    const bool unfinished = r.unfinished_step_s > 0.0;
    if (r.steps() == 0 && !unfinished) {
      out += fmt::format("| {} | 0 | — | — | — | — | — | — | — | — | — | — | {} |\n", r.engine,
                         r.status);
      continue;
    }
    // Speed over the steps taken, and the step that never ended when there is one (the speed is
    // then below one more step in that time).
    const long counted = r.steps() + (unfinished ? 1 : 0);
    const double t = r.time_of_first(counted);
    const std::string speed = unfinished ? "< " + sig(static_cast<double>(counted) / t)
                                         : sig(static_cast<double>(r.steps()) / t);
    // The ratio over the first M steps of both; a bound when one of them has an unfinished step
    // among those M.
    std::string ratio = "—";
    if (&r == ref) {
      ratio = "1";
    } else if (ref != nullptr) {
      const long ref_counted = ref->steps() + (ref->unfinished_step_s > 0.0 ? 1 : 0);
      const long m = std::min(ref_counted, counted);
      const bool ref_bound = m > ref->steps(), own_bound = m > r.steps();
      const char* bound = ref_bound && own_bound ? "~ " : ref_bound ? "≤ " : own_bound ? "≥ " : "";
      ratio = fmt::format("{}{} ({})", bound, sig(r.time_of_first(m) / ref->time_of_first(m)), m);
    }
    const double steps = static_cast<double>(std::max(r.steps(), 1L));
    const double sweeps = static_cast<double>(r.iterations) / steps;
    const double per_sweep =
        r.iterations > 0 ? 1e6 * r.time_of_first(r.steps()) / static_cast<double>(r.iterations)
                         : std::nan("");
    std::string notes = r.status;
    if (!r.notes.empty()) notes += (notes.empty() ? "" : "; ") + r.notes;
    // The measures of a state: none before the first step, no penetration without a sample.
    const double none = std::nan("");
    const bool stepped = r.steps() > 0;
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                       r.engine, r.steps(), speed, ratio, sig(stepped ? sweeps : none),
                       sig(per_sweep), sig(r.penetration_samples > 0 ? r.max_penetration : none),
                       sig(r.drift), sig(r.late_drift), sig(stepped ? r.kinetic_end : none),
                       sig(stepped ? r.max_speed_end : none),
                       sig(stepped ? r.max_energy_rise : none), notes);
  }
  return out;
}

nlohmann::json to_json(const RunSpec& spec, long drift_from, const std::vector<RunMetrics>& runs) {
  nlohmann::json scene = {{"scene", spec.scene},
                          {"n", spec.n},
                          {"steps", spec.steps},
                          {"drift_from", drift_from},
                          {"engines", nlohmann::json::array()}};
  for (const RunMetrics& r : runs) {
    const double t = r.time_of_first(r.steps());
    auto num = [](double x) { return std::isnan(x) ? nlohmann::json() : nlohmann::json(x); };
    scene["engines"].push_back({{"engine", r.engine},
                                {"settings", r.settings},
                                {"status", r.status},
                                {"notes", r.notes},
                                {"setup_s", r.setup_s},
                                {"steps", r.steps()},
                                {"stepping_s", t},
                                {"unfinished_step_s", r.unfinished_step_s},
                                {"sweeps", r.iterations},
                                {"max_penetration_m", r.max_penetration},
                                {"penetration_samples", r.penetration_samples},
                                {"drift_m", num(r.drift)},
                                {"late_drift_m", num(r.late_drift)},
                                {"kinetic_end_J", r.kinetic_end},
                                {"max_speed_end_m_per_s", r.max_speed_end},
                                {"max_energy_rise_J", r.max_energy_rise},
                                {"step_time_s", r.step_time_s}});
  }
  return scene;
}

/// The runs of --all: the list with step counts that let the piles fall and settle, the
/// box scenes stand for two seconds, the drum turns for two seconds.
std::vector<RunSpec> all_runs() {
  return {
      {"drop_pile", 1000, 1500, -1},   {"drop_pile", 10000, 1500, -1},
      {"drop_pile", 100000, 1500, -1}, {"hcp_pile", 1000, 500, -1},
      {"hcp_pile", 10000, 500, -1},    {"hcp_pile", 100000, 500, -1},
      {"tower", 10, 2000, -1},         {"pyramid", 20, 2000, -1},
      {"stacks", 0, 2000, -1},         {"drum", 2000, 2000, -1},
  };
}

std::vector<EngineKind> parse_engines(const std::string& list) {
  // "all", or names separated by commas.
  // (`all`: the engines at their default settings and coulomb-nsgs10; the sleeping variants are
  // asked for by name.)
  const EngineKind every[] = {EngineKind::coulomb,       EngineKind::coulomb_nsgs10,
                              EngineKind::bullet,        EngineKind::mujoco,
                              EngineKind::coulomb_sleep, EngineKind::bullet_sleep};
  std::vector<EngineKind> out;
  if (list == "all") {
    for (EngineKind k : every)
      if (engine_available(k) && k != EngineKind::coulomb_sleep && k != EngineKind::bullet_sleep)
        out.push_back(k);
    return out;
  }
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    bool found = false;
    for (EngineKind k : every) {
      if (name != engine_name(k)) continue;
      if (!engine_available(k))
        throw CLI::ValidationError(
            "--engines", fmt::format("{} is not in this build (install its Debian package: "
                                     "COULOMB_PEERS=1 scripts/install-deps.sh, and reconfigure)",
                                     name));
      out.push_back(k);
      found = true;
    }
    if (!found)
      throw CLI::ValidationError(
          "--engines", fmt::format("'{}' is not one of coulomb, coulomb-nsgs10, bullet, mujoco, "
                                   "coulomb-sleep, bullet-sleep, all",
                                   name));
  }
  return out;
}

int run_main(int argc, char** argv) {
  // A child that dies makes writes to its pipe fail with EPIPE instead of ending the benchmark.
  ::signal(SIGPIPE, SIG_IGN);
  // Command line.
  CLI::App app{
      "The same scenes in coulomb, Bullet and MuJoCo: speed, sweeps, penetration, drift "
      "and energy per engine (docs/benchmarks.md, \"Peer benchmark\")."};
  RunSpec spec{"drop_pile", 1000, 500, -1};
  std::string engines = "coulomb,bullet,mujoco";
  std::string json_path;
  bool all = false;
  Options options;
  app.add_option("--scene", spec.scene, std::string("scene: ") + kSceneNames);
  app.add_option("--n", spec.n, "spheres (piles), boxes (tower) or rows (pyramid)")
      ->check(CLI::Range(1, 10000000));
  app.add_option("--steps", spec.steps, "steps to run")->check(CLI::Range(1L, 100000000L));
  app.add_option("--drift-from", spec.drift_from,
                 "step the drift is measured from (default: 0; two thirds of the run for "
                 "drop_pile)")
      ->check(CLI::Range(0L, 100000000L));
  app.add_option("--engines", engines,
                 "comma-separated: coulomb, coulomb-nsgs10, bullet, mujoco; "
                 "or all (those in this build)");
  app.add_option("--max-seconds", options.max_seconds,
                 "stepping time each engine may spend on a scene [s]")
      ->check(CLI::PositiveNumber);
  app.add_option("--chunk", options.chunk, "steps an engine runs before the next one's turn")
      ->check(CLI::Range(1L, 1000000L));
  app.add_option("--sample-every", options.sample_every,
                 "steps between two penetration measurements")
      ->check(CLI::Range(1L, 1000000L));
  app.add_option("--bullet-iterations", options.peers.bullet_iterations,
                 "Bullet solver iterations a step")
      ->check(CLI::Range(1, 100000));
  app.add_option("--bullet-box-margin", options.peers.bullet_box_margin,
                 "Bullet box collision margin [m]")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--mujoco-iterations", options.peers.mujoco_iterations,
                 "MuJoCo solver iterations a step (at most)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--mujoco-tolerance", options.peers.mujoco_tolerance, "MuJoCo solver tolerance")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--mujoco-contacts", options.peers.mujoco_contacts,
                 "MuJoCo contact list size (0: estimated from the bodies)")
      ->check(CLI::Range(0, 100000000));
  app.add_flag("--all", all, "run the issue's list of scenes (ignores --scene, --n, --steps)");
  int parallel_colour_min = 0;
  app.add_option("--coulomb-parallel-colour-min", parallel_colour_min,
                 "contacts a colour needs to be relaxed in parallel by coulomb (0: its default "
                 "kParallelColourMin; speed only, never results)")
      ->check(CLI::Range(0, 100000000));
  app.add_option("--json", json_path, "also write every measure (and each step's time) as JSON");
  try {
    app.parse(argc, argv);
    options.engines = parse_engines(engines);
    if (!all && !known_scene(spec.scene))
      throw CLI::ValidationError("--scene",
                                 fmt::format("'{}' is not one of {}", spec.scene, kSceneNames));
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  // Header: when, and each engine's settings.
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));
  std::cout << fmt::format("# bench_peers, {}; stepping budget {} s per engine and scene\n\n", date,
                           options.max_seconds);
  for (EngineKind k : options.engines)
    std::cout << fmt::format("- {}: {}\n", engine_name(k), engine_settings(k, options.peers));
  std::cout << "\n" << std::flush;

  // The scenes, one table each.
  const std::vector<RunSpec> specs = all ? all_runs() : std::vector<RunSpec>{spec};
  nlohmann::json json = nlohmann::json::array();
  for (const RunSpec& s : specs) {
    Scene scene = build_scene(s);
    if (parallel_colour_min > 0) scene.model.solver.parallel_colour_min = parallel_colour_min;
    scene.model.finalize();
    const long drift_from = scene_drift_from(s);
    const std::vector<RunMetrics> runs = run_scene(s, scene, options);
    std::cout << table(scene_title(s, scene) + fmt::format(", drift from step {}", drift_from),
                       runs)
              << "\n"
              << std::flush;
    json.push_back(to_json(s, drift_from, runs));
  }
  if (!json_path.empty()) {
    std::ofstream file(json_path);
    file << json.dump(1) << "\n";
    if (!file) {
      std::cerr << fmt::format("bench_peers: could not write {}\n", json_path);
      return 1;
    }
  }
  return 0;
}

}  // namespace
}  // namespace coulomb::bench

int main(int argc, char** argv) { return coulomb::bench::run_main(argc, argv); }
