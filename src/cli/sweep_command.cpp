// `coulomb sweep`: parameter studies over a scene on local threads or MPI ranks (docs/sweeps.md).
#include "cli/sweep_command.hpp"

#include <fmt/format.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <coulomb/scene/scene.hpp>

namespace coulomb::cli {

namespace {

volatile std::sig_atomic_t g_sweep_signal = 0;
extern "C" void on_sweep_signal(int signo) { g_sweep_signal = signo; }

// The scene's text and its name in messages: a file, or "builtin:NAME" for a built-in scene.
std::pair<std::string, std::string> scene_text(const std::string& scene) {
  if (scene.rfind("builtin:", 0) == 0) {
    const std::string name = scene.substr(8);
    return {std::string(builtin_scene_text(name)),
            "builtin:" + std::string(builtin_scene_name(name))};
  }
  std::ifstream in(scene, std::ios::binary);
  if (!in) throw SceneError(scene, 1, 1, "cannot open the scene file");
  std::ostringstream text;
  text << in.rdbuf();
  return {text.str(), scene};
}

}  // namespace

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

void add_sweep_command(CLI::App& app, SweepArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Run variants of a scene (a parameter study) and tabulate them in OUT/sweep.csv");
  cmd->add_option("scene", args.scene, "Scene file (YAML or JSON), or builtin:NAME")->required();
  cmd->add_option("--set", args.sets,
                  "KEY=SPEC: a key path into the scene (contacts[0].friction.mu, "
                  "bodies[top].angular_velocity[2]) and its values: [a,b,c], a:b:n, "
                  "uniform(a,b), loguniform(a,b), normal(m,s)")
      ->required()
      ->type_name("KEY=SPEC");
  cmd->add_option("--metric", args.metrics,
                  "NAME=EXPR: a column computed from each run (e.g. "
                  "flip=first_time(top.axis_z < 0)); docs/sweeps.md")
      ->type_name("NAME=EXPR");
  cmd->add_option("--samples", args.samples, "Values drawn for each distribution");
  cmd->add_option("--seed", args.seed, "Seed of the distributions (default 0)");
  cmd->add_option("--combine", args.combine, "grid (every combination) or zip (i-th values)")
      ->check(CLI::IsMember({"grid", "zip"}));
  cmd->add_flag("--summary-only", args.summary_only,
                "Keep only summary.json in each run folder (the rows are computed first)");
  cmd->add_option("--out", args.out, "Sweep folder: sweep.csv, sweep.json, runs/ID/, rows/")
      ->required();
  cmd->add_option("--jobs,-j", args.jobs,
                  "Variants run at once on this machine (default: the cores); under mpirun, one "
                  "per rank");
  cmd->add_option("--checkpoint-every", args.checkpoint_every,
                  "Checkpoint each run every T s of simulated time, so that a rerun restarts an "
                  "interrupted variant from it")
      ->type_name("T");
  cmd->add_flag("--quiet,-q", args.quiet, "No progress lines");
  cmd->add_flag("--list", args.list, "Print the variants (id and values) and exit");
  cmd->add_option("--show-variant", args.show_variant,
                  "Print the scene of variant ID (what the sweep runs) and exit")
      ->type_name("ID");
}

int run_sweep_command(const SweepArgs& args) {
  sweep::SweepSpec spec;
  std::tie(spec.scene_text, spec.scene_file) = scene_text(args.scene);
  spec.samples = args.samples;
  spec.seed = args.seed;
  spec.combine = args.combine == "zip" ? sweep::Combine::zip : sweep::Combine::grid;
  for (std::size_t p = 0; p < args.sets.size(); ++p)
    spec.parameters.push_back(sweep::parse_parameter(args.sets[p], p, args.samples, args.seed));
  for (const std::string& m : args.metrics) spec.metrics.push_back(sweep::parse_metric(m));
  spec.summary_only = args.summary_only;
  if (!(args.checkpoint_every >= 0.0 && std::isfinite(args.checkpoint_every)))
    throw std::invalid_argument(
        fmt::format("--checkpoint-every: {} is not a time >= 0 s", args.checkpoint_every));
  spec.checkpoint_every = args.checkpoint_every;
  const std::vector<sweep::Variant> list = sweep::variants(spec);

  if (args.list || args.show_variant >= 0) {
    if (args.show_variant >= static_cast<std::int64_t>(list.size()))
      throw std::invalid_argument(fmt::format("--show-variant {}: the sweep has {} variants",
                                              args.show_variant, list.size()));
    if (args.show_variant >= 0) {
      fmt::print("{}",
                 sweep::variant_scene(spec, list[static_cast<std::size_t>(args.show_variant)]));
      return 0;
    }
    for (const sweep::Variant& v : list) {
      fmt::print("{}", v.id);
      for (std::size_t p = 0; p < spec.parameters.size(); ++p)
        fmt::print(" {}={}", spec.parameters[p].key, spec.parameters[p].values[v.index[p]].text());
      fmt::print("\n");
    }
    return 0;
  }

  // SIGINT/SIGTERM: the runs in progress stop after their step (checkpointed with
  // --checkpoint-every), no new variant starts, and a rerun goes on from there.
  struct sigaction sa {};
  sa.sa_handler = on_sweep_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  spec.stop = [] {
    const int s = g_sweep_signal;
    return std::string(s == SIGINT ? "SIGINT" : s == SIGTERM ? "SIGTERM" : "");
  };

  if (launched_by_mpi()) return run_sweep_mpi(spec, args.out, args.quiet);

  // Every variant is checked before anything runs or is written.
  sweep::validate(spec);
  sweep::prepare_directory(spec, args.out);
  const int jobs = args.jobs > 0
                       ? args.jobs
                       : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  sweep::Progress progress(static_cast<std::int64_t>(list.size()), !args.quiet);
  const std::vector<std::string> rows = sweep::run_local(
      spec, list, args.out, jobs,
      [&](std::int64_t, const std::string& row) { progress.done(sweep::row_failed(row)); });
  for (const std::string& r : rows) {
    if (r.empty()) {
      fmt::print(stderr,
                 "coulomb: sweep interrupted; rerun the same command to go on ({} keeps the "
                 "finished variants)\n",
                 args.out);
      return 128 + (g_sweep_signal ? static_cast<int>(g_sweep_signal) : SIGINT);
    }
  }
  sweep::write_table(spec, args.out, rows);
  std::int64_t failed = 0;
  for (const std::string& r : rows) failed += sweep::row_failed(r) ? 1 : 0;
  if (!args.quiet)
    fmt::print("sweep: {} variants, {} not completed; table {}/sweep.csv\n", rows.size(), failed,
               args.out);
  return 0;
}

#ifndef COULOMB_HAVE_MPI
int run_sweep_mpi(const sweep::SweepSpec&, const std::string&, bool) {
  throw std::runtime_error(
      "sweep: started by mpirun, but this coulomb was built without MPI (apt-get install "
      "libopenmpi-dev, then reconfigure)");
}
#endif

}  // namespace coulomb::cli
