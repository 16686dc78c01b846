// Running the variants of a sweep: validation before anything runs, one run folder and one row per
// variant (resumed, restarted or skipped on a rerun), the table, progress, local threads.
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <coulomb/io/checkpoint.hpp>
#include <coulomb/io/run.hpp>
#include <coulomb/scene/scene.hpp>
#include <coulomb/sweep/sweep.hpp>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "sweep/metrics.hpp"

namespace coulomb::sweep {

namespace fs = std::filesystem;

namespace {

// The summary figures of every row, read from summary.json (JSON pointer into it).
const std::vector<std::pair<std::string, std::string>> kFigures = {
    {"end_time", "/end_time"},
    {"steps", "/steps"},
    {"solves", "/solver/solves"},
    {"not_converged", "/solver/not_converged"},
    {"worst_error", "/solver/worst_error"},
    {"deepest_penetration", "/position_stage/deepest_penetration"},
    {"dissipated", "/energy/dissipated"},
    {"energy_drift", "/energy/drift"},
};

// A CSV cell: quoted when it holds a comma, a quote or a line break (quotes doubled; line breaks
// become spaces, so that a row is one line).
std::string cell(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes a file whole: into PATH.tmp, then renamed over PATH.
void write_file(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write", tmp.string()));
  }
  fs::rename(tmp, path);
}

// The status of a run folder's summary.json ("" without one).
std::string summary_status(const fs::path& run_dir) {
  std::ifstream in(run_dir / "summary.json");
  if (!in) return "";
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    return j.value("status", "");
  } catch (const std::exception&) {
    return "";
  }
}

std::string describe(const SweepSpec& spec, const Variant& v) {
  std::string s;
  for (std::size_t p = 0; p < spec.parameters.size(); ++p)
    s += fmt::format("{}{}={}", p ? ", " : "", spec.parameters[p].key,
                     spec.parameters[p].values[v.index[p]].text());
  return s;
}

// The checkpoint an interrupted or killed run of this variant left, or "".
std::string find_checkpoint(const fs::path& run_dir) {
  if (summary_status(run_dir) == "interrupted" && fs::exists(run_dir / kCheckpointFileName))
    return (run_dir / kCheckpointFileName).string();
  // A killed run's working folder RUN.partial-PID: the one with the latest checkpoint.
  std::string best;
  fs::file_time_type best_time{};
  std::error_code ec;
  const std::string prefix = run_dir.filename().string() + ".partial-";
  for (const auto& entry : fs::directory_iterator(run_dir.parent_path(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const fs::path file = entry.path() / kCheckpointFileName;
    if (!fs::exists(file)) continue;
    const auto t = fs::last_write_time(file);
    if (best.empty() || t > best_time) {
      best = file.string();
      best_time = t;
    }
  }
  return best;
}

// Removes the working folders RUN.partial-PID that killed runs of this variant left.
void remove_partials(const fs::path& run_dir) {
  std::error_code ec;
  const std::string prefix = run_dir.filename().string() + ".partial-";
  std::vector<fs::path> old;
  for (const auto& entry : fs::directory_iterator(run_dir.parent_path(), ec))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) old.push_back(entry.path());
  for (const fs::path& p : old) fs::remove_all(p, ec);
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

void validate(const SweepSpec& spec) {
  for (const Metric& m : spec.metrics) (void)parse_expression(m.expression);
  for (const Variant& v : variants(spec)) {
    try {
      const Scene scene = load_scene_text(variant_scene(spec, v), variant_file(spec, v));
      require_runnable(scene);
      for (const Metric& m : spec.metrics) {
        for (const std::string& body : metric_bodies(m.expression)) {
          bool found = false;
          for (const Body& b : scene.model.bodies) found = found || b.name == body;
          if (!found)
            throw std::invalid_argument(
                fmt::format("--metric {}: the scene has no body '{}'", m.name, body));
        }
      }
    } catch (const std::exception& e) {
      throw std::invalid_argument(
          fmt::format("sweep: variant {} ({}): {}", v.id, describe(spec, v), e.what()));
    }
  }
}

std::string table_header(const SweepSpec& spec) {
  std::string h = "id,status,message";
  // Appended a piece at a time (GCC 12 warns, wrongly, about "," + std::string here).
  auto add = [&h](const std::string& name) {
    h += ',';
    h += name;
  };
  for (const Parameter& p : spec.parameters) add(cell(p.key));
  for (const auto& f : kFigures) add(f.first);
  for (const Metric& m : spec.metrics) add(m.name);
  return h;
}

std::string table_row(const SweepSpec& spec, const Variant& variant, const std::string& dir,
                      const std::string& status, const std::string& message) {
  const fs::path run_dir = fs::path(dir) / "runs" / run_name(variant.id);
  std::string row = fmt::format("{},{}", variant.id, cell(status));
  std::string msg = message;
  std::vector<std::string> cells;
  for (std::size_t p = 0; p < spec.parameters.size(); ++p)
    cells.push_back(cell(spec.parameters[p].values[variant.index[p]].text()));
  // The figures of summary.json, NaN where it has none (a run that never started).
  nlohmann::json summary;
  try {
    std::ifstream in(run_dir / "summary.json");
    if (in) summary = nlohmann::json::parse(in);
  } catch (const std::exception&) {
  }
  for (const auto& f : kFigures) {
    double x = std::numeric_limits<double>::quiet_NaN();
    const nlohmann::json::json_pointer ptr(f.second);
    if (summary.is_object() && summary.contains(ptr) && summary[ptr].is_number())
      x = summary[ptr].get<double>();
    cells.push_back(format_number(x));
  }
  for (const Metric& m : spec.metrics) {
    double x = std::numeric_limits<double>::quiet_NaN();
    if (!summary.is_null()) {
      try {
        x = evaluate_metric(m.expression, run_dir.string());
      } catch (const std::exception& e) {
        msg += (msg.empty() ? "" : "; ") + std::string(e.what());
      }
    }
    cells.push_back(format_number(x));
  }
  row += "," + cell(msg);
  for (const std::string& c : cells) row += "," + c;
  return row;
}

std::string run_variant(const SweepSpec& spec, const Variant& variant, const std::string& dir) {
  const fs::path run_dir = fs::path(dir) / "runs" / run_name(variant.id);
  const fs::path row_file = fs::path(dir) / "rows" / (run_name(variant.id) + ".csv");
  // Finished before: its row as it was written.
  if (fs::exists(row_file) && !summary_status(run_dir).empty() &&
      summary_status(run_dir) != "interrupted") {
    std::string row = read_file(row_file);
    while (!row.empty() && row.back() == '\n') row.pop_back();
    return row;
  }
  std::string status;
  std::string message;
  try {
    Scene scene = load_scene_text(variant_scene(spec, variant), variant_file(spec, variant));
    require_runnable(scene);
    RunOptions options;
    options.output_directory = run_dir.string();
    options.scene_source = variant_file(spec, variant);
    options.scene_hash = scene_hash(scene.source, scene.model);
    options.write_replay = !spec.summary_only;
    options.stop = spec.stop;
    // Checkpoints and restarts: the nonsmooth formulation only (a compliant variant reruns).
    const bool nonsmooth = scene.model.solver.formulation == Formulation::nonsmooth;
    if (nonsmooth) {
      options.checkpoint_every = spec.checkpoint_every;
      options.restart = find_checkpoint(run_dir);
    }
    Simulation sim(std::move(scene.model), std::move(scene.state));
    RunResult result;
    try {
      result = run(sim, options);
    } catch (const std::invalid_argument&) {
      if (options.restart.empty()) throw;
      // A checkpoint the run refuses (torn by a kill, of an older build): from the start.
      options.restart.clear();
      Scene again = load_scene_text(variant_scene(spec, variant), variant_file(spec, variant));
      Simulation fresh(std::move(again.model), std::move(again.state));
      result = run(fresh, options);
    }
    if (!result.interrupted.empty()) return "";  // the sweep was stopped: no row
    remove_partials(run_dir);
    if (!result.finite) {
      status = "non_finite";
      message = result.non_finite;
    } else {
      status = result.solver.not_converged > 0 ? "not_converged" : "completed";
      // Every warning `coulomb run` prints, in its order, joined by "; ".
      for (const RunWarning& w : run_warnings(result.solver, result.stages, result.steps,
                                              sim.model().solver.position_tolerance)) {
        if (!message.empty()) message += "; ";
        message += w.text;
      }
    }
  } catch (const std::exception& e) {
    status = "failed";
    message = e.what();
  }
  const std::string row = table_row(spec, variant, dir, status, message);
  // Only summary.json (and a checkpoint) stays, once the row holds what the metrics needed.
  if (spec.summary_only) {
    std::error_code ec;
    for (const char* f :
         {"trajectory.csv", "contacts.csv", "energy.csv", "solver.csv", "replay.html"})
      fs::remove(run_dir / f, ec);
  }
  write_file(row_file, row + "\n");
  return row;
}

std::string definition_json(const SweepSpec& spec) {
  nlohmann::ordered_json j;
  j["generator"] = "coulomb sweep";
  j["scene_file"] = spec.scene_file;
  j["scene"] = spec.scene_text;
  nlohmann::ordered_json params = nlohmann::ordered_json::array();
  for (const Parameter& p : spec.parameters) {
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (const Value& v : p.values) values.push_back(v.text());
    params.push_back({{"key", p.key}, {"spec", p.spec}, {"values", values}});
  }
  j["parameters"] = params;
  j["combine"] = spec.combine == Combine::grid ? "grid" : "zip";
  j["samples"] = spec.samples;
  j["seed"] = spec.seed;
  nlohmann::ordered_json metrics = nlohmann::ordered_json::array();
  for (const Metric& m : spec.metrics)
    metrics.push_back({{"name", m.name}, {"expression", m.expression}});
  j["metrics"] = metrics;
  j["summary_only"] = spec.summary_only;
  j["checkpoint_every"] = spec.checkpoint_every;
  return j.dump(2) + "\n";
}

void prepare_directory(const SweepSpec& spec, const std::string& dir) {
  const fs::path d(dir);
  const fs::path def = d / "sweep.json";
  const std::string text = definition_json(spec);
  if (fs::exists(def)) {
    if (read_file(def) != text)
      throw std::invalid_argument(fmt::format(
          "{}: holds another sweep (its sweep.json differs: scene, parameters, metrics or "
          "options); choose another --out, or remove it",
          dir));
  } else if (fs::exists(d) && !fs::is_empty(d)) {
    throw std::invalid_argument(fmt::format(
        "{}: is not empty and holds no sweep.json; not writing into it (choose another --out)",
        dir));
  }
  fs::create_directories(d / "runs");
  fs::create_directories(d / "rows");
  if (!fs::exists(def)) write_file(def, text);
}

void write_table(const SweepSpec& spec, const std::string& dir,
                 const std::vector<std::string>& rows) {
  std::string text = table_header(spec) + "\n";
  for (const std::string& r : rows) text += r + "\n";
  write_file(fs::path(dir) / "sweep.csv", text);
}

Progress::Progress(std::int64_t total, bool enabled)
    : total_(total), enabled_(enabled), start_(now_s()) {}

void Progress::done(bool failed) {
  ++done_;
  if (failed) ++failed_;
  if (!enabled_) return;
  const double elapsed = now_s() - start_;
  const double eta = elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_);
  std::fprintf(stderr, "sweep: %lld/%lld variants (%lld failed), %.1f s, ETA %.0f s\n",
               static_cast<long long>(done_), static_cast<long long>(total_),
               static_cast<long long>(failed_), elapsed, eta);
  std::fflush(stderr);
}

bool row_failed(const std::string& row) {
  const std::size_t c = row.find(',');
  return row.compare(c + 1, 10, "completed,") != 0;
}

std::vector<std::string> run_local(
    const SweepSpec& spec, const std::vector<Variant>& list, const std::string& dir, int threads,
    const std::function<void(std::int64_t, const std::string&)>& on_done) {
  std::vector<std::string> rows(list.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stopped{false};
  std::mutex lock;
  std::exception_ptr error;  // the first error of the sweep itself (a row file not written)
  auto work = [&] {
    for (;;) {
      if (stopped) return;
      const std::size_t i = next++;
      if (i >= list.size()) return;
      std::string row;
      try {
        row = run_variant(spec, list[i], dir);
      } catch (...) {
        const std::lock_guard<std::mutex> guard(lock);
        if (!error) error = std::current_exception();
        stopped = true;
        return;
      }
      if (row.empty()) {
        stopped = true;
        return;
      }
      const std::lock_guard<std::mutex> guard(lock);
      rows[i] = std::move(row);
      if (on_done) on_done(list[i].id, rows[i]);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  return rows;
}

}  // namespace coulomb::sweep
