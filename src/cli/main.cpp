// The `coulomb` program: subcommands run (and, as they land, law, fclib, plot, validate).
#include <coulomb/io/checkpoint.hpp>
#include <coulomb/io/run.hpp>
#include <coulomb/scene/scene.hpp>

#include <fmt/format.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "cli/commands.hpp"

#ifndef COULOMB_VERSION
#define COULOMB_VERSION "unknown"
#endif

namespace {

// A progress bar with ETA on stderr, shown only on a terminal and once a run has lasted 1 s.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)) {}
  void update(double fraction) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(clock::now() - start_).count();
    if (elapsed < 1.0 && fraction < 1.0) return;
    if (fraction >= 1.0 && !shown_) return;
    shown_ = true;
    const int width = 40;
    const int filled = static_cast<int>(fraction * width);
    const double eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
    std::fprintf(stderr, "\r[%s%s] %5.1f%%  ETA %6.1f s", std::string(filled, '#').c_str(),
                 std::string(width - filled, ' ').c_str(), 100.0 * fraction, eta);
    if (fraction >= 1.0) {
      std::fprintf(stderr, "\n");
      ended_ = true;
    }
    std::fflush(stderr);
  }
  // Ends the bar's line when the run stopped before 100 % (interrupted, failed), so the next
  // message starts a line of its own.
  void end_line() {
    if (shown_ && !ended_) std::fprintf(stderr, "\n");
    ended_ = true;
  }

 private:
  using clock = std::chrono::steady_clock;
  bool enabled_;
  bool shown_ = false;
  bool ended_ = false;
  clock::time_point start_ = clock::now();
};

// Exit statuses of `coulomb` (docs/outputs.md, README): 0 success; 1 a failure (non-finite
// state, I/O); 2 bad input (scene, file, arguments); 3 `run` finished but some steps' contact
// solves did not converge (a warning line names how many, the worst error and its time);
// 128 + the signal number (130 SIGINT, 143 SIGTERM) `run` stopped by that signal, its outputs
// written up to the step reached.
constexpr int kExitSuccess = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitNotConverged = 3;
constexpr int kExitSignalBase = 128;

// The signal that asked `coulomb run` to stop (0: none). Set by the handler, read between steps.
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_stop_signal(int signo) { g_stop_signal = signo; }

// SIGINT and SIGTERM handlers for the duration of a run. A first signal asks the run to stop after
// its step; the handler is then reset (SA_RESETHAND), so a second one ends the process at once
// (leaving the working folder OUT.partial-PID, docs/outputs.md). A signal the parent left ignored
// (a shell's background job ignores SIGINT) stays ignored.
class StopSignals {
 public:
  StopSignals() {
    install(SIGINT, old_int_);
    install(SIGTERM, old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  static std::string requested() {
    const int s = g_stop_signal;
    return s == SIGINT ? "SIGINT" : s == SIGTERM ? "SIGTERM" : "";
  }
  static int signal_number(const std::string& name) { return name == "SIGINT" ? SIGINT : SIGTERM; }

 private:
  static void install(int signo, struct sigaction& old) {
    sigaction(signo, nullptr, &old);
    if (old.sa_handler == SIG_IGN) return;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(signo, &sa, nullptr);
  }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

struct RunArgs {
  std::string scene;
  std::string out;
  std::optional<double> end;
  std::optional<double> dt;
  bool quiet = false;
  bool solver_every_step = false;
  std::string dump_problems;
  std::optional<double> checkpoint_every;
  std::string restart;
};

// The folder a restart writes into without --out: the one the checkpoint's run was writing, i.e.
// the checkpoint's folder, or OUT for a working folder OUT.partial-PID (a killed run's).
std::string restart_output_folder(const std::string& checkpoint) {
  std::filesystem::path dir = std::filesystem::path(checkpoint).parent_path();
  if (dir.empty()) dir = ".";
  const std::string name = dir.filename().string();
  const std::size_t dot = name.rfind(".partial-");
  if (dot != std::string::npos && dot > 0 &&
      name.find_first_not_of("0123456789", dot + 9) == std::string::npos && name.size() > dot + 9)
    return (dir.parent_path() / name.substr(0, dot)).string();
  return dir.string();
}

int run_command(const RunArgs& args) {
  coulomb::Scene scene =
      args.scene.empty()
          ? coulomb::load_scene_text(coulomb::builtin_scene_text("default"), "builtin:default")
          : coulomb::load_scene_file(args.scene);
  coulomb::require_runnable(scene);
  // --end and --dt replace the scene's time range under the loader's rule.
  if (args.end) scene.model.end_time = *args.end;
  if (args.dt) scene.model.time_step = *args.dt;
  if (args.end || args.dt) {
    if (const std::string e =
            coulomb::time_range_error(scene.model.end_time, scene.model.time_step);
        !e.empty()) {
      const char* flag = args.end && args.dt ? "--end/--dt" : (args.end ? "--end" : "--dt");
      throw std::invalid_argument(fmt::format("{}: {}", flag, e));
    }
  }
  if (args.solver_every_step) scene.model.output.solver = coulomb::SolverRows::every_step;
  if (args.checkpoint_every &&
      !(*args.checkpoint_every > 0.0 && std::isfinite(*args.checkpoint_every)))
    throw std::invalid_argument(
        fmt::format("--checkpoint-every: {} is not a time > 0 s (seconds of simulated time between "
                    "checkpoints)",
                    *args.checkpoint_every));
  coulomb::RunOptions options;
  options.output_directory =
      !args.out.empty()       ? args.out
      : !args.restart.empty() ? restart_output_folder(args.restart)
                              : (std::filesystem::path("coulomb-out") / scene.model.name).string();
  // Checkpoints and restarts (docs/reliability.md): the scene's hash ties them together.
  options.checkpoint_every = args.checkpoint_every.value_or(0.0);
  options.restart = args.restart;
  options.scene_hash = coulomb::scene_hash(scene.source, scene.model);
  options.scene_source = args.scene.empty() ? "builtin:default" : args.scene;
  options.dump_problems_directory = args.dump_problems;
  ProgressBar bar(!args.quiet);
  options.progress = [&bar](double f) { bar.update(f); };
  // Warnings known before the first step (bodies overlapping at the start), printed then.
  options.warning = [](const std::string& line) {
    fmt::print(stderr, "coulomb: warning: {}\n", line);
  };
  coulomb::Simulation sim(std::move(scene.model), std::move(scene.state));
  // SIGINT/SIGTERM stop the run after its step, with every file written (docs/outputs.md).
  const StopSignals signals;
  options.stop = &StopSignals::requested;
  const coulomb::RunResult result = [&] {
    try {
      return coulomb::run(sim, options);
    } catch (...) {
      bar.end_line();  // the error line below the bar, not after it
      throw;
    }
  }();
  bar.end_line();
  const coulomb::Model& model = sim.model();
  const coulomb::State& state = sim.state();
  if (!args.quiet) {
    const auto& st = result.solver;
    fmt::print("coulomb {}: scene '{}', {} steps of {} s to t = {} s in {:.3f} s\n",
               COULOMB_VERSION, model.name, result.steps, model.time_step, state.time,
               result.wall_time_s);
    if (result.restarted)
      fmt::print("restarted from {} at t = {} s (step {})\n", args.restart, result.restart_time,
                 result.restart_step);
    if (result.checkpoints > 0)
      fmt::print("checkpoints: {} written, the last {} ({} bytes, {:.3f} s to write them)\n",
                 result.checkpoints, result.checkpoint_file, result.checkpoint_bytes,
                 result.checkpoint_seconds);
    if (const coulomb::CompliantEngine* engine = sim.compliant()) {
      const coulomb::IntegratorStatistics is = engine->statistics();
      fmt::print(
          "integrator: {}, {} steps ({} rejected), {} right-hand sides, {} Jacobians, {} "
          "contact events\n",
          coulomb::to_string(model.solver.compliant.integrator), is.steps, is.rejected_steps,
          is.rhs_evaluations, is.jacobian_evaluations, is.root_stops);
    } else {
      fmt::print(
          "solver: {} solves, worst error {:.3g}, mean {:.3g} iterations, {} not converged\n",
          st.solves, st.worst_error, st.mean_iterations, st.not_converged);
    }
    for (std::size_t b = 0; b < model.bodies.size(); ++b) {
      if (model.bodies[b].fixed) continue;
      const auto& x = state.x_WC[b];
      const auto& v = state.v_WC[b];
      fmt::print(
          "  {}: position ({:.6g}, {:.6g}, {:.6g}) m, velocity ({:.6g}, {:.6g}, {:.6g}) m/s\n",
          model.bodies[b].name, x.x(), x.y(), x.z(), v.x(), v.y(), v.z());
    }
    // code_aster's shock statistics, one line per shock point (wear.csv has them all).
    if (const coulomb::ShockStatistics* shocks = sim.shock_statistics())
      for (const coulomb::ShockPointStatistics& p : shocks->results())
        fmt::print(
            "  shocks {}-{}: {} ({} rebounds), {:.4g} % of the time in contact, largest F_n "
            "{:.4g} N, wear power {:.4g} W\n",
            model.bodies[p.body1].name, model.bodies[p.body2].name, p.shocks, p.rebounds,
            p.contact_time_percent, p.fn_max, p.wear_power);
    fmt::print(
        "results: {}/ (trajectory.csv, contacts.csv, energy.csv, solver.csv, {}{}summary.json, "
        "replay.html)\n",
        result.output_directory, model.joints.empty() ? "" : "joints.csv, ",
        sim.shock_statistics() != nullptr ? "wear.csv, " : "");
  }
  if (!result.finite) {
    fmt::print(stderr, "error: {}; outputs hold the run up to there\n", result.non_finite);
    return kExitFailure;
  }
  if (!result.interrupted.empty()) {
    fmt::print(stderr,
               "coulomb: interrupted by {} at t = {} s (step {} of {}); {}/ holds the run up to "
               "there\n",
               result.interrupted, state.time, result.steps, result.total_steps,
               result.output_directory);
    return kExitSignalBase + StopSignals::signal_number(result.interrupted);
  }
  // One line per warning (a free rotation that did not converge, overlaps the position stage
  // left, points the activation passes left out, steps whose solve did not converge); the last
  // names solver.csv and sets exit status 3 (docs/outputs.md).
  int status = kExitSuccess;
  for (const coulomb::RunWarning& w : coulomb::run_warnings(
           result.solver, result.stages, result.steps, model.solver.position_tolerance)) {
    if (w.kind != coulomb::RunWarningKind::convergence) {
      fmt::print(stderr, "coulomb: warning: {}\n", w.text);
      continue;
    }
    fmt::print(stderr, "coulomb: warning: {}; see {}\n", w.text,
               (std::filesystem::path(result.output_directory) / "solver.csv").string());
    status = kExitNotConverged;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"coulomb: rigid bodies in frictional contact, with every classical contact law"};
  app.set_version_flag("--version", std::string("coulomb ") + COULOMB_VERSION);
  app.require_subcommand(1);

  RunArgs run_args;
  CLI::App* run = app.add_subcommand("run", "Run a scene (default: the built-in default scene)");
  run->add_option("scene", run_args.scene, "Scene file (YAML or JSON)");
  run->add_option("--out", run_args.out, "Output folder (default: coulomb-out/<scene name>/)");
  run->add_option("--end", run_args.end, "End time [s] (overrides the scene)");
  run->add_option("--dt", run_args.dt, "Time step [s] (overrides the scene)");
  run->add_flag("--quiet,-q", run_args.quiet, "No summary, no progress bar");
  run->add_flag("--solver-every-step", run_args.solver_every_step,
                "solver.csv with one row per step (default: one per output time, aggregated)");
  run->add_option("--dump-problems", run_args.dump_problems,
                  "Write every step's contact problem and solution (FCLIB HDF5) into this folder");
  run->add_option("--checkpoint-every", run_args.checkpoint_every,
                  "Write OUT/checkpoint.bin every T seconds of simulated time (whole steps), at a "
                  "stop (SIGINT, SIGTERM) and at the end")
      ->type_name("T");
  run->add_option("--restart", run_args.restart,
                  "Continue the run of this checkpoint: its files up to the checkpoint, then the "
                  "steps after it, bit-identical to an uninterrupted run (default --out: the "
                  "folder that run was writing)")
      ->type_name("FILE");

  coulomb::cli::add_commands(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (*run) return run_command(run_args);
    return coulomb::cli::dispatch(app);
  } catch (const coulomb::SceneError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitFailure;
  }
}
