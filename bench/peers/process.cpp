// The child processes of the peer benchmark (see process.hpp): the child's loop, and the parent's
// side of the two pipes. Messages are JSON, one per line: commands "run STEPS BUDGET_S" and "end"
// to the child; to the parent "ready" or "unavailable" once, then one line per step (its time,
// sweeps and the measures so far), and a line that ends each turn.
#include "peers/process.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace coulomb::bench {
namespace {

using Clock = std::chrono::steady_clock;

double now_s() { return std::chrono::duration<double>(Clock::now().time_since_epoch()).count(); }

// Writes all of `text` to `fd` (false when the other end is gone).
bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void report(int fd, const nlohmann::json& message) {
  if (!write_all(fd, message.dump() + "\n")) std::_Exit(1);  // the benchmark is gone
}

// A measure that may be missing (NaN) as JSON (null).
nlohmann::json maybe(double x) { return std::isnan(x) ? nlohmann::json() : nlohmann::json(x); }
double maybe(const nlohmann::json& x) {
  return x.is_null() ? std::numeric_limits<double>::quiet_NaN() : x.get<double>();
}

// The measures so far, as the child sends them after each step.
nlohmann::json measures(const RunMetrics& m) {
  return {{"pen", m.max_penetration}, {"samples", m.penetration_samples},
          {"drift", maybe(m.drift)},  {"late", maybe(m.late_drift)},
          {"ke", m.kinetic_end},      {"vmax", m.max_speed_end},
          {"rise", m.max_energy_rise}};
}

void read_measures(const nlohmann::json& j, RunMetrics& m) {
  m.max_penetration = j.at("pen").get<double>();
  m.penetration_samples = j.at("samples").get<int>();
  m.drift = maybe(j.at("drift"));
  m.late_drift = maybe(j.at("late"));
  m.kinetic_end = j.at("ke").get<double>();
  m.max_speed_end = j.at("vmax").get<double>();
  m.max_energy_rise = j.at("rise").get<double>();
}

// The child: builds the engine, then runs the turns it is given until "end" or end of file.
[[noreturn]] void serve(EngineKind kind, const Scene& scene, const PeerSettings& settings,
                        const MeasurePlan& plan, int in, int out) {
  // The engine, or why there is none.
  std::unique_ptr<Engine> engine;
  const double t0 = now_s();
  try {
    engine = make_engine(kind, scene, settings);
  } catch (const std::exception& e) {
    report(out, {{"unavailable", e.what()}});
    std::_Exit(0);
  }
  report(out, {{"ready", now_s() - t0}});

  // Turns: each step timed alone, then read back and measured.
  RunMetrics m;
  Monitor monitor(scene.model, scene.state, plan.drift_from, plan.late_from);
  State state = scene.state;
  long step = 0;
  FILE* commands = fdopen(in, "r");
  char line[256];
  while (commands != nullptr && std::fgets(line, sizeof line, commands) != nullptr) {
    long steps = 0;
    double budget_s = 0.0;
    if (std::sscanf(line, "run %ld %lf", &steps, &budget_s) != 2) {
      // "end": the last state's overlaps, if not yet sampled, and the engine's notes.
      if (step > 0 && step % plan.sample_every != 0) monitor.sample_penetration(state, m);
      report(out, {{"end", true}, {"m", measures(m)}, {"notes", engine->notes()}});
      break;
    }
    double used_s = 0.0;
    for (long k = 0; k < steps; ++k) {
      if (used_s >= budget_s) {
        report(out, {{"budget", true}});
        break;
      }
      const double s0 = now_s();
      const bool ok = engine->step();
      const double dt = now_s() - s0;
      if (!ok) {
        report(out, {{"failed", engine->failure()}});
        break;
      }
      used_s += dt;
      ++step;
      engine->read(state);
      // The driven bodies where the step left them (the engines report only the free bodies).
      state.time = static_cast<double>(step) * scene.model.time_step;
      set_driven_state(scene.model, state, state.time);
      monitor.after_step(step, state, m);
      // Overlaps every sample_every steps (and of the last state, at "end"): a count of steps, so
      // that two runs that take the same steps measure the same states (not after slow steps:
      // which steps are slow depends on the machine's load).
      if (step % plan.sample_every == 0) monitor.sample_penetration(state, m);
      report(out, {{"t", dt}, {"it", engine->iterations()}, {"m", measures(m)}});
    }
    report(out, {{"turn_end", true}, {"notes", engine->notes()}});
  }
  std::_Exit(0);
}

}  // namespace

EngineProcess::EngineProcess(EngineKind kind, const Scene& scene, const PeerSettings& settings,
                             const MeasurePlan& plan) {
  // Two pipes, then the child keeps its ends and closes every other descriptor it inherited
  // (other engines' pipes among them, so that each child sees the end of its own).
  int down[2], up[2];
  if (::pipe(down) != 0 || ::pipe(up) != 0) throw std::runtime_error("bench_peers: pipe failed");
  std::fflush(nullptr);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("bench_peers: fork failed");
  if (pid_ == 0) {
    for (int fd = 3; fd < 1024; ++fd)
      if (fd != down[0] && fd != up[1]) ::close(fd);
    serve(kind, scene, settings, plan, down[0], up[1]);
  }
  ::close(down[0]);
  ::close(up[1]);
  to_child_ = down[1];
  from_child_ = up[0];
}

EngineProcess::~EngineProcess() {
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
  kill_child();
}

void EngineProcess::kill_child() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void EngineProcess::send(const std::string& line) { (void)write_all(to_child_, line); }

bool EngineProcess::read_line(double deadline_s, std::string& line) {
  // Whole lines from the pipe, waiting with poll until the deadline.
  for (;;) {
    const std::size_t eol = pending_.find('\n');
    if (eol != std::string::npos) {
      line = pending_.substr(0, eol);
      pending_.erase(0, eol + 1);
      return true;
    }
    const double left_s = deadline_s - now_s();
    if (left_s <= 0) return false;
    pollfd p{from_child_, POLLIN, 0};
    const int wait_ms = static_cast<int>(std::min(left_s * 1e3 + 1, 3.6e6));
    const int r = ::poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;  // timeout: the loop checks the deadline
    char buffer[4096];
    const ssize_t n = ::read(from_child_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // end of file: the child is gone
    pending_.append(buffer, static_cast<std::size_t>(n));
  }
}

bool EngineProcess::wait_ready(double timeout_s, RunMetrics& m) {
  std::string line;
  if (!read_line(now_s() + timeout_s, line)) {
    kill_child();
    m.status = fmt::format("not built within {} s", timeout_s);
    return false;
  }
  const auto j = nlohmann::json::parse(line);
  if (j.contains("unavailable")) {
    m.status = j["unavailable"].get<std::string>();
    return false;
  }
  m.setup_s = j.at("ready").get<double>();
  return true;
}

bool EngineProcess::run(long steps, double budget_left_s, double grace_s, RunMetrics& m) {
  // One turn; each line is a step, or says why the turn ended.
  send(fmt::format("run {} {:.17g}\n", steps, budget_left_s));
  const double start_s = now_s();
  const double deadline_s = start_s + budget_left_s + grace_s;
  double last_s = start_s;  // when the last report came
  std::string line;
  while (read_line(deadline_s, line)) {
    last_s = now_s();
    const auto j = nlohmann::json::parse(line);
    if (j.contains("t")) {
      m.step_time_s.push_back(j["t"].get<double>());
      m.iterations += j["it"].get<std::int64_t>();
      read_measures(j["m"], m);
    } else if (j.contains("budget")) {
      m.status = fmt::format("stopped by the budget after {} steps", m.steps());
      return false;
    } else if (j.contains("failed")) {
      m.status =
          fmt::format("failed at step {}: {}", m.steps() + 1, j["failed"].get<std::string>());
      return false;
    } else if (j.contains("turn_end")) {
      m.notes = j["notes"].get<std::string>();
      return true;
    }
  }
  // No end of turn: the child overran its budget by the grace period (killed), or died.
  const bool alive = now_s() >= deadline_s;
  kill_child();
  m.unfinished_step_s = now_s() - last_s;
  m.status = alive ? fmt::format("killed in step {}, {:.0f} s into it, the budget spent",
                                 m.steps() + 1, m.unfinished_step_s)
                   : fmt::format("the engine's process ended in step {}", m.steps() + 1);
  return false;
}

void EngineProcess::finish(RunMetrics& m) {
  // The last state's overlaps and the notes, then the child exits.
  if (pid_ <= 0) return;
  send("end\n");
  std::string line;
  const double deadline_s = now_s() + 600.0;
  while (read_line(deadline_s, line)) {
    const auto j = nlohmann::json::parse(line);
    if (!j.contains("end")) continue;  // the rest of a turn that ended early
    read_measures(j["m"], m);
    m.notes = j["notes"].get<std::string>();
    break;
  }
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

}  // namespace coulomb::bench
