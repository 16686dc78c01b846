// The run driver: output files, their determinism, output times, the output folder (working
// folder, replacement, refusal), write errors, stop requests, solver.csv aggregates.
#include <coulomb/io/output.hpp>
#include <coulomb/io/output_folder.hpp>
#include <coulomb/io/run.hpp>
#include <coulomb/scene/scene.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "io/files.hpp"

namespace coulomb {
namespace {

namespace fs = std::filesystem;

using testing::read;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(COULOMB_BINARY_DIR) / "test-output" / name;
  fs::remove_all(dir);
  return dir;
}

// The names in dir's parent that start with dir's name (the folder itself, and any working
// folder `NAME.partial-PID` or `NAME.old-PID` left beside it), sorted.
std::vector<std::string> siblings(const fs::path& dir) {
  std::vector<std::string> names;
  const std::string name = dir.filename().string();
  for (const auto& e : fs::directory_iterator(dir.parent_path())) {
    const std::string n = e.path().filename().string();
    if (n == name || n.rfind(name + ".", 0) == 0) names.push_back(n);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A CSV file as rows of cells (the scenes of these tests have plain body names: no quoting).
std::vector<std::vector<std::string>> csv_rows(const fs::path& file) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read(file));
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(std::move(cells));
  }
  return rows;
}

constexpr const char* kScene = R"(
name: pile
time: {end: 0.3, step: 1.0e-3}
output: {every: 10}
materials: [m]
contacts:
  - between: [m, m]
    normal: {law: signorini, restitution: 0.3}
    friction: {law: coulomb, mu: 0.4}
bodies:
  - name: ground
    fixed: true
    material: m
    shapes: [{type: plane, normal: [0, 0, 1], offset: 0.0}]
  - name: a
    material: m
    mass: 1.0
    shapes: [{type: sphere, radius: 0.1}]
    position: [0, 0, 0.3]
    velocity: [0.5, 0.1, 0]
    angular_velocity: [0, 0, 3]
  - name: b
    material: m
    mass: 2.0
    shapes: [{type: box, half_extents: [0.1, 0.15, 0.05]}]
    position: [0.05, 0.0, 0.6]
    orientation: [0.9, 0.1, 0.3, 0.0]
)";

TEST(Run, SameSceneTwiceGivesBitIdenticalFiles) {
  std::string first[4];
  for (int run_index = 0; run_index < 2; ++run_index) {
    Scene scene = load_scene_text(kScene, "pile.yaml");
    RunOptions options;
    options.output_directory = fresh_dir("determinism-" + std::to_string(run_index)).string();
    const RunResult result = coulomb::run(scene.model, scene.state, options);
    EXPECT_EQ(result.steps, 300);
    const char* names[] = {"trajectory.csv", "contacts.csv", "energy.csv", "solver.csv"};
    for (int f = 0; f < 4; ++f) {
      const std::string text = read(fs::path(options.output_directory) / names[f]);
      EXPECT_GT(text.size(), 100u) << names[f];
      if (run_index == 0)
        first[f] = text;
      else
        EXPECT_EQ(text, first[f]) << names[f] << " differs between two runs";
    }
  }
}

TEST(Run, FilesHaveTheDocumentedColumnsAndOutputTimes) {
  Scene scene = load_scene_text(kScene, "pile.yaml");
  RunOptions options;
  options.output_directory = fresh_dir("columns").string();
  coulomb::run(scene.model, scene.state, options);
  const fs::path dir(options.output_directory);
  const std::string traj = read(dir / "trajectory.csv");
  EXPECT_EQ(traj.substr(0, traj.find('\n')), kTrajectoryHeader);
  // Initial state + every 10 steps of 300: 31 output times × 3 bodies.
  EXPECT_EQ(std::count(traj.begin(), traj.end(), '\n'), 1 + 31 * 3);
  const std::string contacts = read(dir / "contacts.csv");
  EXPECT_EQ(contacts.substr(0, contacts.find('\n')), kContactsHeader);
  // solver.csv: one row per output time after the start, aggregating its 10 steps.
  const std::string solver = read(dir / "solver.csv");
  EXPECT_EQ(solver.substr(0, solver.find('\n')), kSolverHeader);
  EXPECT_EQ(std::count(solver.begin(), solver.end(), '\n'), 1 + 30);
  EXPECT_TRUE(fs::exists(dir / "summary.json"));
  EXPECT_TRUE(fs::exists(dir / "replay.html"));
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find(".partial"), std::string::npos) << entry.path();
  EXPECT_EQ(siblings(dir), std::vector<std::string>{"columns"});
}

// driven.csv: a scene with two driven bodies (a turntable under a block: contacts; a shaker
// holding an arm on a hinge and pulling a ball on a spring: a joint and a spring) writes one row
// per driven body and output time; each row's power is the last step's work over h (the work
// column's increment, as the energy audit counts it), and the bodies' works sum to energy.csv's
// driven_work to round-off. summary.json gives each body's total. A scene without driven bodies
// writes no driven.csv.
TEST(Run, DrivenCsvGivesEachDrivenBodysPowerAndWork) {
  constexpr const char* kDriven = R"(
name: two-driven
time: {end: 0.2, step: 1.0e-3}
output: {every: 1}
materials: [m]
contacts:
  - between: [m, m]
    friction: {law: coulomb, mu: 0.5}
bodies:
  - {name: table, material: m, position: [0, 0, -0.05], motion: {angular_velocity: [0, 0, 3.0]},
     shapes: [{type: box, half_extents: [1, 1, 0.05]}]}
  - {name: shaker, material: m, position: [2, 0, 0.5],
     motion: {sinusoid: {amplitude: [0.01, 0.005, 0.02], frequency: 5}},
     shapes: [{type: box, half_extents: [0.1, 0.1, 0.02]}]}
  - {name: block, material: m, mass: 0.5, position: [0.3, 0.1, 0.05],
     shapes: [{type: box, half_extents: [0.05, 0.05, 0.05]}]}
  - {name: arm, material: m, mass: 0.3, position: [2, 0, 0.35],
     shapes: [{type: box, half_extents: [0.02, 0.02, 0.1]}]}
  - {name: ball, material: m, mass: 0.2, position: [2.4, 0.1, 0.5], shapes: [{type: sphere, radius: 0.03}]}
joints:
  - {type: hinge, bodies: [shaker, arm], anchor: [2, 0, 0.46], axis: [0.6, 0.8, 0]}
springs:
  - {bodies: [shaker, ball], stiffness: 30, damping: 0.5, rest_length: 0.2}
)";
  Scene scene = load_scene_text(kDriven, "two-driven.yaml");
  const double h = scene.model.time_step;
  RunOptions options;
  options.output_directory = fresh_dir("driven").string();
  const RunResult result = coulomb::run(scene.model, scene.state, options);
  ASSERT_TRUE(result.finite);
  const fs::path dir(options.output_directory);
  const auto rows = csv_rows(dir / "driven.csv");
  ASSERT_EQ(rows.size(), 1u + 201u * 2u);
  EXPECT_EQ(fmt::format("{}", fmt::join(rows[0], ",")), kDrivenHeader);
  std::map<std::string, std::vector<std::pair<double, double>>> by_body;  // (power, work)
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 4u);
    by_body[rows[i][1]].emplace_back(std::stod(rows[i][2]), std::stod(rows[i][3]));
  }
  ASSERT_EQ(by_body.size(), 2u);
  double total = 0.0, magnitude = 0.0;
  for (const auto& [name, series] : by_body) {
    SCOPED_TRACE(name);
    ASSERT_EQ(series.size(), 201u);
    EXPECT_EQ(series[0].first, 0.0);  // no step before the first row
    EXPECT_EQ(series[0].second, 0.0);
    // P_k h = W_k − W_{k−1}: the two differ by the roundings of the running sum and of the
    // division by h (a few ulps of W), and the 17 significant digits the CSV keeps.
    for (std::size_t k = 1; k < series.size(); ++k) {
      const double dw = series[k].second - series[k - 1].second;
      EXPECT_NEAR(series[k].first * h, dw, 1e-15 * (std::abs(series[k].second) + 1e-3))
          << "row " << k;
    }
    EXPECT_GT(std::abs(series.back().second), 1e-4);  // each body does work
    total += series.back().second;
    magnitude += std::abs(series.back().second);
  }
  // energy.csv's driven_work, the last row: each body's work is its own running sum of the same
  // 200 step terms the total adds per step, so they agree to ~200 roundings of their size.
  const auto energy = csv_rows(dir / "energy.csv");
  const auto& header = energy.front();
  const std::size_t col = std::find(header.begin(), header.end(), "driven_work") - header.begin();
  ASSERT_LT(col, header.size());
  const double driven_work = std::stod(energy.back()[col]);
  EXPECT_NEAR(total, driven_work, 1e-13 * magnitude);
  EXPECT_EQ(total, scene.state.driven_work_by_body[0] + scene.state.driven_work_by_body[1]);
  // summary.json: each driven body's work, the last rows' values.
  const nlohmann::json summary = nlohmann::json::parse(read(dir / "summary.json"));
  for (const auto& [name, series] : by_body)
    EXPECT_EQ(summary["energy"]["driven_work_by_body"][name].get<double>(), series.back().second);
  // A second run of the scene into the same folder replaces the first (joints.csv and driven.csv
  // are files coulomb writes) and writes the same files.
  const std::string first_driven = read(dir / "driven.csv");
  Scene again = load_scene_text(kDriven, "two-driven.yaml");
  coulomb::run(again.model, again.state, options);
  EXPECT_EQ(read(dir / "driven.csv"), first_driven);
  // No driven body, no driven.csv.
  Scene plain = load_scene_text(kScene, "pile.yaml");
  RunOptions plain_options;
  plain_options.output_directory = fresh_dir("driven-none").string();
  coulomb::run(plain.model, plain.state, plain_options);
  EXPECT_FALSE(fs::exists(fs::path(plain_options.output_directory) / "driven.csv"));
  EXPECT_FALSE(nlohmann::json::parse(
                   read(fs::path(plain_options.output_directory) / "summary.json"))["energy"]
                   .contains("driven_work_by_body"));
}

// Body names are CSV fields per RFC 4180: a name with a comma, a quote and a newline is quoted
// (inner quotes doubled), so it adds neither a column nor a row.
TEST(Run, NamesAreQuotedCsvFields) {
  std::string text = kScene;
  const std::string from = "  - name: a\n";
  text.replace(text.find(from), from.size(), "  - name: \"a,\\\"b\\\"\\n0,evil\"\n");
  Scene scene = load_scene_text(text, "pile.yaml");
  ASSERT_EQ(scene.model.bodies[1].name, "a,\"b\"\n0,evil");
  RunOptions options;
  options.output_directory = fresh_dir("quoted").string();
  coulomb::run(scene.model, scene.state, options);
  const std::string traj = read(fs::path(options.output_directory) / "trajectory.csv");
  EXPECT_NE(traj.find(",\"a,\"\"b\"\"\n0,evil\","), std::string::npos);
  // Every record has the header's column count when quoted fields are honoured.
  const std::string_view header(kTrajectoryHeader);
  const auto columns = std::count(header.begin(), header.end(), ',') + 1;
  std::vector<std::size_t> counts(1, 1);
  bool quoted = false;
  for (std::size_t i = 0; i < traj.size(); ++i) {
    const char c = traj[i];
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      ++counts.back();
    } else if (c == '\n' && !quoted && i + 1 < traj.size()) {
      counts.push_back(1);
    }
  }
  EXPECT_EQ(counts.size(), 1u + 31u * 3u);
  for (std::size_t r = 0; r < counts.size(); ++r)
    EXPECT_EQ(counts[r], static_cast<std::size_t>(columns)) << "record " << r;
}

// Output times by interval: the step nearest each multiple of S, plus the start and the last step.
TEST(Run, OutputIntervalPicksTheNearestSteps) {
  Scene scene = load_scene_text(kScene, "pile.yaml");
  scene.model.output.every = 0;
  scene.model.output.interval =
      0.0024;  // 2.4 steps of 1e-3: no multiple falls half-way between steps
  scene.model.end_time = 0.02;
  RunOptions options;
  options.output_directory = fresh_dir("interval").string();
  coulomb::run(scene.model, scene.state, options);
  std::istringstream energy(read(fs::path(options.output_directory) / "energy.csv"));
  std::string line;
  std::getline(energy, line);  // header
  std::vector<double> times;
  while (std::getline(energy, line)) times.push_back(std::stod(line.substr(0, line.find(','))));
  // t = 0, then the steps nearest 2.4, 4.8, 7.2, 9.6, 12, 14.4, 16.8, 19.2 (×1e-3 s), then the
  // last step.
  const std::vector<int> steps = {0, 2, 5, 7, 10, 12, 14, 17, 19, 20};
  ASSERT_EQ(times.size(), steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) EXPECT_NEAR(times[i], steps[i] * 1e-3, 1e-15) << i;
}

// A run abandoned before commit (an exception, a write error): its working folder is removed and
// the output folder is left as it was, whether it held an earlier run or did not exist (the
// parent folders made for it are removed too).
TEST(OutputFolder, AbandonedRunLeavesTheFolderAsItWas) {
  const fs::path dir = fresh_dir("abandoned");
  Scene scene = load_scene_text(kScene, "pile.yaml");
  RunOptions options;
  options.output_directory = dir.string();
  coulomb::run(scene.model, scene.state, options);
  const std::string summary = read(dir / "summary.json");
  {
    OutputFolder folder(dir.string());
    OutputWriter writer(scene.model, folder.working(), folder.target());
    writer.flush();
    EXPECT_TRUE(fs::exists(fs::path(folder.working()) / "trajectory.csv"));
    EXPECT_EQ(siblings(dir).size(), 2u);
  }  // destroyed without commit
  EXPECT_EQ(read(dir / "summary.json"), summary);
  EXPECT_EQ(siblings(dir), std::vector<std::string>{"abandoned"});

  const fs::path fresh = fresh_dir("abandoned-parents") / "a" / "b";
  {
    OutputFolder folder(fresh.string());
    EXPECT_TRUE(fs::is_directory(folder.working()));
  }
  EXPECT_FALSE(fs::exists(fresh.parent_path().parent_path()));
}

// A rerun into the folder of an earlier run replaces it whole (files of the earlier run that the
// new one does not write go too); an empty folder is kept and filled; nothing is left beside.
TEST(OutputFolder, RerunReplacesAnEarlierRunAndKeepsAnEmptyFolder) {
  const fs::path dir = fresh_dir("rerun");
  {
    Scene scene = load_scene_text(kScene, "pile.yaml");
    RunOptions options;
    options.output_directory = dir.string();
    coulomb::run(scene.model, scene.state, options);  // with replay.html
    fs::create_directories(dir / "plots");            // as `coulomb plot` writes it
    std::ofstream(dir / "plots" / "energy.png") << "png";
  }
  {
    Scene scene = load_scene_text(kScene, "pile.yaml");
    scene.model.end_time = 0.05;
    RunOptions options;
    options.output_directory = dir.string() + "/";  // a trailing separator names the same folder
    options.write_replay = false;
    const RunResult result = coulomb::run(scene.model, scene.state, options);
    EXPECT_EQ(result.steps, 50);
  }
  EXPECT_EQ(nlohmann::json::parse(read(dir / "summary.json"))["steps"], 50);
  EXPECT_FALSE(fs::exists(dir / "replay.html"));
  EXPECT_FALSE(fs::exists(dir / "plots"));
  EXPECT_EQ(siblings(dir), std::vector<std::string>{"rerun"});

  const fs::path empty = fresh_dir("empty-target");
  fs::create_directories(empty);
  struct stat before {};
  ASSERT_EQ(::stat(empty.c_str(), &before), 0);
  {
    Scene scene = load_scene_text(kScene, "pile.yaml");
    RunOptions options;
    options.output_directory = empty.string();
    coulomb::run(scene.model, scene.state, options);
  }
  struct stat after {};
  ASSERT_EQ(::stat(empty.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino) << "the empty folder itself is kept";
  EXPECT_TRUE(fs::exists(empty / "summary.json"));
  EXPECT_EQ(siblings(empty), std::vector<std::string>{"empty-target"});
}

// A folder coulomb did not write is never replaced: refused before the first step, with the
// reason, and left as it was.
TEST(OutputFolder, RefusesAFolderCoulombDidNotWrite) {
  Scene scene = load_scene_text(kScene, "pile.yaml");
  const fs::path mine = fresh_dir("not-coulomb");
  fs::create_directories(mine);
  std::ofstream(mine / "notes.txt") << "my notes";
  const fs::path with_extra = fresh_dir("coulomb-plus-notes");
  const fs::path no_summary = fresh_dir("csv-only");
  fs::create_directories(no_summary);
  std::ofstream(no_summary / "trajectory.csv") << "time\n";
  const fs::path file = fresh_dir("a-file");
  std::ofstream(file) << "x";
  {
    RunOptions options;
    options.output_directory = with_extra.string();
    State s = scene.state;
    coulomb::run(scene.model, s, options);
    std::ofstream(with_extra / "notes.txt") << "mine";
  }
  const std::pair<fs::path, std::string> cases[] = {
      {mine, "holds 'notes.txt', which coulomb did not write"},
      {with_extra, "holds 'notes.txt', which coulomb did not write"},
      {no_summary, "holds no summary.json written by coulomb"},
      {file, "is not a folder"}};
  for (const auto& [target, why] : cases) {
    RunOptions options;
    options.output_directory = target.string();
    State s = scene.state;
    try {
      coulomb::run(scene.model, s, options);
      ADD_FAILURE() << target << " was replaced";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()),
                target.string() + ": " + why +
                    "; not replacing it (choose another output folder, or remove it)");
    }
    EXPECT_EQ(s.step, 0) << "a refused run takes no step";
    EXPECT_EQ(siblings(target), std::vector<std::string>{target.filename().string()});
  }
  EXPECT_EQ(read(mine / "notes.txt"), "my notes");
  EXPECT_EQ(read(with_extra / "notes.txt"), "mine");
  EXPECT_FALSE(replace_refusal(with_extra.string()).empty());
  EXPECT_EQ(replace_refusal((fresh_dir("absent") / "x").string()), "");
  // A summary.json of an earlier coulomb version (no "generator" key) is recognised.
  const fs::path legacy = fresh_dir("legacy");
  fs::create_directories(legacy);
  std::ofstream(legacy / "summary.json")
      << R"({"scene": "s", "version": "0.1.0", "stage_times_s": {}, "final_state": {}})";
  std::ofstream(legacy / "trajectory.csv.partial") << "time\n";
  EXPECT_EQ(replace_refusal(legacy.string()), "");
  std::ofstream(legacy / "summary.json") << R"({"scene": "s", "generator": "other"})";
  EXPECT_EQ(replace_refusal(legacy.string()), "holds no summary.json written by coulomb");
}

// A write error (here /dev/full: ENOSPC) is reported by the flush that meets it, naming the file
// and the reason.
TEST(OutputFolder, WriteErrorNamesTheFileAndTheReason) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
  RowFile file("/dev/full", "out/trajectory.csv");
  file.rows() = "0,1\n";
  try {
    file.flush();
    ADD_FAILURE() << "writing to /dev/full did not fail";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              std::string("out/trajectory.csv: cannot write: ") + std::strerror(ENOSPC));
  }
}

// A stop request (what SIGINT and SIGTERM are wired to in `coulomb run`) ends the run after the
// step in progress: every file is whole, the last frame is the state reached, the last solver.csv
// row covers the steps since the one before, summary.json says so, and the folder is in place.
TEST(Run, StopRequestEndsTheRunWithWholeFiles) {
  Scene scene = load_scene_text(kScene, "pile.yaml");
  RunOptions options;
  options.output_directory = fresh_dir("stopped").string();
  int asked = 0;
  options.stop = [&asked] { return ++asked > 253 ? std::string("SIGTERM") : std::string(); };
  const RunResult result = coulomb::run(scene.model, scene.state, options);
  EXPECT_EQ(result.interrupted, "SIGTERM");
  EXPECT_EQ(result.steps, 253);
  EXPECT_EQ(scene.state.step, 253);
  const fs::path dir(options.output_directory);
  for (const char* name : {"trajectory.csv", "contacts.csv", "energy.csv", "solver.csv"}) {
    const auto rows = csv_rows(dir / name);
    ASSERT_GT(rows.size(), 1u) << name;
    for (const auto& row : rows) EXPECT_EQ(row.size(), rows[0].size()) << name;
    const std::string text = read(dir / name);
    EXPECT_EQ(text.back(), '\n') << name;
  }
  const auto traj = csv_rows(dir / "trajectory.csv");
  EXPECT_EQ(std::stod(traj.back()[0]), scene.state.time);
  EXPECT_EQ(traj.size(), 1u + 3u * (1 + 25 + 1));  // start, 25 output times, the stop
  std::int64_t steps = 0;
  for (const auto& row : csv_rows(dir / "solver.csv"))
    if (row[0] != "time") steps += std::stoll(row[1]);
  EXPECT_EQ(steps, 253);
  const nlohmann::json summary = nlohmann::json::parse(read(dir / "summary.json"));
  EXPECT_EQ(summary["status"], "interrupted");
  EXPECT_EQ(summary["interrupted"], "SIGTERM");
  EXPECT_EQ(summary["generator"], "coulomb");
  EXPECT_EQ(summary["steps"], 253);
  EXPECT_EQ(summary["end_time"].get<double>(), scene.state.time);
  EXPECT_EQ(summary["requested_end_time"].get<double>(), 0.3);
  for (const char* key : {"wall_time_s", "stage_times_s", "solver", "energy", "final_state"})
    EXPECT_TRUE(summary.contains(key)) << key;
  EXPECT_TRUE(fs::exists(dir / "replay.html"));
  EXPECT_EQ(siblings(dir), std::vector<std::string>{"stopped"});

  // A run that finishes says so.
  Scene again = load_scene_text(kScene, "pile.yaml");
  const RunResult full = coulomb::run(again.model, again.state, RunOptions{});
  const nlohmann::json j = nlohmann::json::parse(full.summary_json);
  EXPECT_EQ(j["status"], "completed");
  EXPECT_FALSE(j.contains("interrupted"));
}

// solver.csv per output time aggregates the per-step rows of the same run (every_step): one row
// per output time after the start, each holding the steps since the one before, the largest
// error, counts and sums, whatever the output rule and with steps that did not converge.
TEST(Run, SolverCsvAggregatesTheStepsOfEachOutputTime) {
  // One sweep per step once the box has landed on its four corners (t ≈ 0.33 s): steps that
  // do not converge.
  std::string capped =
      std::string(kScene) + "solver: {name: nsgs, max_iterations: 1, tolerance: 1.0e-12}\n";
  capped.replace(capped.find("end: 0.3"), 8, "end: 1.0");
  std::string interval = kScene;
  interval.replace(interval.find("output: {every: 10}"), 19, "output: {interval: 0.0137}");
  int run_index = 0;
  for (const std::string& text : {std::string(kScene), capped, interval}) {
    std::vector<std::vector<std::string>> per_step, per_output, traj;
    for (const SolverRows rows : {SolverRows::every_step, SolverRows::per_output}) {
      Scene scene = load_scene_text(text, "pile.yaml");
      scene.model.output.solver = rows;
      RunOptions options;
      options.write_replay = false;
      options.output_directory =
          fresh_dir(fmt::format("aggregate-{}-{}", run_index, to_string(rows))).string();
      coulomb::run(scene.model, scene.state, options);
      (rows == SolverRows::every_step ? per_step : per_output) =
          csv_rows(fs::path(options.output_directory) / "solver.csv");
      traj = csv_rows(fs::path(options.output_directory) / "trajectory.csv");
    }
    ASSERT_EQ(fmt::format("{}", fmt::join(per_step[0], ",")), kSolverStepHeader);
    ASSERT_EQ(fmt::format("{}", fmt::join(per_output[0], ",")), kSolverHeader);
    // Output times after the start: the trajectory's distinct times but the first.
    std::vector<std::string> times;
    for (std::size_t i = 1; i < traj.size(); ++i)
      if (times.empty() || times.back() != traj[i][0]) times.push_back(traj[i][0]);
    ASSERT_EQ(per_output.size(), times.size()) << "one row per output time after the start";
    std::size_t k = 1;  // next per-step row
    std::int64_t not_converged_total = 0;
    for (std::size_t r = 1; r < per_output.size(); ++r) {
      const auto& row = per_output[r];
      ASSERT_EQ(row.size(), 13u);
      EXPECT_EQ(row[0], times[r]);
      std::int64_t steps = 0, solves = 0, not_converged = 0, total_it = 0, failures = 0, fell = 0;
      int max_points = 0, max_active = 0, max_it = 0;
      double max_error = 0.0;
      std::vector<std::string> methods;
      // The worst step's status: not converged before converged, then the larger error.
      std::string worst_status = "none";
      double worst_error = -1.0;
      while (k < per_step.size()) {
        const auto& s = per_step[k];
        ++steps;
        max_points = std::max(max_points, std::stoi(s[1]));
        max_active = std::max(max_active, std::stoi(s[2]));
        if (s[2] != "0") {
          ++solves;
          if (s[5] != "converged") ++not_converged;
          max_it = std::max(max_it, std::stoi(s[3]));
          total_it += std::stoll(s[3]);
          const double e = std::stod(s[4]);
          max_error = std::max(max_error, e);
          const bool failed = s[5] != "converged", worst_failed = worst_status != "converged";
          if (worst_status == "none" || (failed && !worst_failed) ||
              (failed == worst_failed && e > worst_error)) {
            worst_status = s[5];
            worst_error = e;
          }
          if (std::find(methods.begin(), methods.end(), s[6]) == methods.end())
            methods.push_back(s[6]);
          failures += std::stoll(s[7]);
          fell += std::stoll(s[8]);
        }
        ++k;
        if (s[0] == row[0]) break;
      }
      EXPECT_EQ(std::stoll(row[1]), steps) << row[0];
      EXPECT_EQ(std::stoll(row[2]), solves) << row[0];
      EXPECT_EQ(std::stoll(row[3]), not_converged) << row[0];
      EXPECT_EQ(std::stoi(row[4]), max_points) << row[0];
      EXPECT_EQ(std::stoi(row[5]), max_active) << row[0];
      EXPECT_EQ(std::stoi(row[6]), max_it) << row[0];
      EXPECT_EQ(std::stoll(row[7]), total_it) << row[0];
      EXPECT_EQ(std::stod(row[8]), max_error) << row[0];
      EXPECT_EQ(row[9], worst_status) << row[0];
      EXPECT_EQ(row[10], methods.empty() ? "none" : fmt::format("{}", fmt::join(methods, ";")));
      EXPECT_EQ(std::stoll(row[11]), failures) << row[0];
      EXPECT_EQ(std::stoll(row[12]), fell) << row[0];
      not_converged_total += not_converged;
    }
    EXPECT_EQ(k, per_step.size()) << "every step is in a row";
    if (run_index == 1) {
      EXPECT_GT(not_converged_total, 0) << "the capped run has failed steps";
    }
    ++run_index;
  }
}

TEST(Run, EnergyBudgetBalancesWithInelasticImpacts) {
  Scene scene = load_scene_text(kScene, "pile.yaml");
  RunOptions options;
  const RunResult result = coulomb::run(scene.model, scene.state, options);
  EXPECT_EQ(result.solver.not_converged, 0);
  // The summary reports the drift of kinetic + potential + dissipated: with θ = 1/2 it is the
  // solver tolerance times the impulses, far below the energies involved (~6 J here).
  const auto pos = result.summary_json.find("\"drift\"");
  ASSERT_NE(pos, std::string::npos);
  const double drift =
      std::stod(result.summary_json.substr(result.summary_json.find(':', pos) + 1));
  EXPECT_LT(std::abs(drift), 1e-6);
}

// solver.csv keeps its columns and adds method, local_failures and fell_back; summary.json
// counts the methods that produced each step's answer, the same as the rows.
TEST(Run, SummaryAndSolverCsvRecordWhatSolvedEachStep) {
  Scene scene = load_scene_text(kScene, "pile.yaml");
  scene.model.output.solver = SolverRows::every_step;
  RunOptions options;
  options.output_directory = fresh_dir("methods").string();
  const RunResult result = coulomb::run(scene.model, scene.state, options);
  std::istringstream csv(read(fs::path(options.output_directory) / "solver.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, kSolverStepHeader);
  EXPECT_EQ(line.rfind("time,points,active,iterations,error,status,", 0), 0u);
  std::map<std::string, std::int64_t> rows;
  while (std::getline(csv, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    ASSERT_EQ(cells.size(), 9u) << line;
    if (cells[2] == "0") {
      EXPECT_EQ(cells[5], "none");
      EXPECT_EQ(cells[6], "none");
    } else {
      ++rows[cells[6]];
    }
    EXPECT_TRUE(cells[8] == "0" || cells[8] == "1") << line;
  }
  const nlohmann::json summary = nlohmann::json::parse(result.summary_json);
  const nlohmann::json& solver = summary["solver"];
  EXPECT_EQ(solver["name"], "auto");  // the scene's (default) choice, not a fixed name
  std::int64_t total = 0;
  for (const auto& [name, count] : solver["methods"].items()) {
    EXPECT_EQ(count.get<std::int64_t>(), rows[name]) << name;
    total += count.get<std::int64_t>();
  }
  EXPECT_EQ(total, solver["solves"].get<std::int64_t>());
  EXPECT_EQ(solver["auto_switches"].get<std::int64_t>(), rows["nsgs+prox"]);
  for (const char* key : {"fell_back", "cold_starts", "local_failures",
                          "solves_with_local_failures", "worst_error_time"}) {
    EXPECT_TRUE(solver.contains(key)) << key;
  }
}

// The position stage and the free rotation over the run: summary.json says what the stage met
// (an inelastic box dropped on the ground lands inside it by up to h v/2 and is lifted out) and
// that every free rotation converged; a step far too long for a body's spin is counted and
// warned about.
TEST(Run, SummaryReportsThePositionStageAndTheFreeRotation) {
  Scene drop = load_scene_text(R"(
name: drop
time: {end: 0.5, step: 1.0e-3}
bodies:
  - {name: ground, fixed: true, shapes: [{type: plane}]}
  - {name: box, mass: 1.0, shapes: [{type: box, half_extents: [0.1, 0.1, 0.1]}],
     position: [0, 0, 0.3]}
)",
                               "drop.yaml");
  const RunResult result = coulomb::run(drop.model, drop.state, RunOptions{});
  const nlohmann::json summary = nlohmann::json::parse(result.summary_json);
  const nlohmann::json& stage = summary["position_stage"];
  EXPECT_TRUE(stage["enabled"].get<bool>());
  EXPECT_GT(stage["corrected_steps"].get<std::int64_t>(), 0);
  // The impact's penetration: at most |v| h/2, |v| = sqrt(2 g 0.2) = 1.98 m/s.
  EXPECT_GT(stage["deepest_penetration"].get<double>(), 0.0);
  EXPECT_LT(stage["deepest_penetration"].get<double>(), 0.5 * 1.99 * 1e-3);
  // Closed to the stage's own convergence test (1e-3 of its 1e-8 m tolerance).
  EXPECT_LE(stage["largest_left"].get<double>(), 1e-3 * 1e-8);
  EXPECT_EQ(summary["rotation_failures"].get<std::int64_t>(), 0);
  EXPECT_EQ(rotation_warning(result.stages), "");
  EXPECT_EQ(stage["unclosed_steps"].get<std::int64_t>(), 0);
  EXPECT_EQ(position_warning(result.stages, result.steps, 1e-8), "");

  // A plate spinning at 6000 rad/s with h = 0.1 s: h |w| = 600, where the Newton solve of the
  // midpoint rule does not find a root in its iterations.
  Scene fast = load_scene_text(R"(
name: spin
time: {end: 0.5, step: 0.1}
gravity: [0, 0, 0]
bodies:
  - name: plate
    mass: 1.0
    shapes: [{type: box, half_extents: [0.3, 0.1, 0.01]}]
    angular_velocity: [3000, 5000, 1000]
)",
                               "spin.yaml");
  const RunResult spun = coulomb::run(fast.model, fast.state, RunOptions{});
  EXPECT_GT(spun.stages.rotation_failures, 0);
  EXPECT_NE(rotation_warning(spun.stages).find("did not converge (first at t = "),
            std::string::npos)
      << rotation_warning(spun.stages);
}

// Points left out when the activation passes ran out (StepReport::left_out): counted per step,
// the deepest overlap kept with its time, one warning line that names them.
TEST(Run, ActivationWarningNamesThePointsLeftOutAndTheDeepestOverlap) {
  StepStatistics stats;
  StepReport report;
  stats.add(report, 0.1);
  EXPECT_EQ(activation_warning(stats, 300), "");
  // A point within the activation distance but not overlapping: counted, its time kept.
  report.left_out = 1;
  report.left_out_overlap = 0.0;
  stats.add(report, 0.15);
  EXPECT_EQ(stats.deepest_left_out, 0.0);
  EXPECT_EQ(stats.deepest_left_out_time, 0.15);
  report.left_out = 3;
  report.left_out_overlap = 2.5e-5;
  stats.add(report, 0.2);
  report.left_out = 2;
  report.left_out_overlap = 1e-5;
  stats.add(report, 0.25);
  EXPECT_EQ(stats.left_out, 6);
  EXPECT_EQ(stats.left_out_steps, 3);
  EXPECT_EQ(stats.deepest_left_out, 2.5e-5);
  EXPECT_EQ(stats.deepest_left_out_time, 0.2);
  EXPECT_EQ(activation_warning(stats, 300),
            "in 3 of 300 steps the activation passes ran out with 6 points that the impulses "
            "close left out of the problem (deepest predicted overlap 2.5e-05 m at t = 0.2 s); "
            "they overlap at the end of their step until the next one takes them in (more passes "
            "take them in: solver.activation_passes, docs/nonsmooth.md)");
}

// Five balls of 0.1 m in a row between two fixed walls `room` metres apart, at rest, no gravity.
Scene squeezed_row(double room) {
  return load_scene_text(fmt::format(R"(
name: squeeze
gravity: [0, 0, 0]
time: {{end: 0.005, step: 1.0e-3}}
bodies:
  - {{name: left, fixed: true, shapes: [{{type: plane, normal: [1, 0, 0], offset: 0.0}}]}}
  - {{name: right, fixed: true, shapes: [{{type: plane, normal: [-1, 0, 0], offset: {}}}]}}
  - {{name: b0, mass: 1.0, shapes: [{{type: sphere, radius: 0.1}}], position: [0.1, 0, 0]}}
  - {{name: b1, mass: 1.0, shapes: [{{type: sphere, radius: 0.1}}], position: [0.3, 0, 0]}}
  - {{name: b2, mass: 1.0, shapes: [{{type: sphere, radius: 0.1}}], position: [0.5, 0, 0]}}
  - {{name: b3, mass: 1.0, shapes: [{{type: sphere, radius: 0.1}}], position: [0.7, 0, 0]}}
  - {{name: b4, mass: 1.0, shapes: [{{type: sphere, radius: 0.1}}], position: [0.9, 0, 0]}}
)",
                                     -room),
                         "squeeze.yaml");
}

// Overlaps the position stage cannot close (StepReport::unclosed): a row of five balls 1.0 m long
// between walls 0.999 m apart — no displacement closes its six contacts, so every step leaves
// overlaps far above the tolerance (1e-8 m) — is counted in every step, with the largest overlap
// left and its time, in summary.json and one warning line. With 1 mm to spare: nothing.
TEST(Run, PositionWarningNamesTheStepsWhoseOverlapsTheStageLeft) {
  Scene tight = squeezed_row(0.999);
  const RunResult result = coulomb::run(tight.model, tight.state, RunOptions{});
  const nlohmann::json summary = nlohmann::json::parse(result.summary_json);
  const nlohmann::json& stage = summary["position_stage"];
  EXPECT_EQ(stage["unclosed_steps"].get<std::int64_t>(), 5);
  // 1 mm shared by six contacts cannot be closed: what is left is of its order (the projection
  // spreads it, 1e-3 / 6 = 1.7e-4 m if evenly), and is what the stage reports as left.
  const double largest = stage["largest_unclosed"].get<double>();
  EXPECT_GT(largest, 1e-4);
  EXPECT_LT(largest, 1e-3);
  EXPECT_EQ(largest, stage["largest_left"].get<double>());
  EXPECT_EQ(result.stages.unclosed_steps, 5);
  EXPECT_EQ(stage["largest_unclosed_time"].get<double>(), result.stages.largest_unclosed_time);
  EXPECT_GT(result.stages.largest_unclosed_time, 0.0);
  EXPECT_EQ(position_warning(result.stages, result.steps, tight.model.solver.position_tolerance)
                .rfind("in 5 of 5 steps the position stage left overlaps above its tolerance of "
                       "1e-08 m after its sweeps (largest ",
                       0),
            0u)
      << position_warning(result.stages, result.steps, tight.model.solver.position_tolerance);

  Scene roomy = squeezed_row(1.001);
  const RunResult free = coulomb::run(roomy.model, roomy.state, RunOptions{});
  EXPECT_EQ(free.stages.unclosed_steps, 0);
  EXPECT_EQ(free.stages.largest_unclosed_time, -1.0);
  EXPECT_EQ(position_warning(free.stages, free.steps, 1e-8), "");
}

TEST(Run, PositionWarningTextNamesTheCountTheLargestOverlapAndItsTime) {
  StepStatistics stats;
  StepReport report;
  report.penetration_left = 5e-9;  // closed to the tolerance: not counted
  stats.add(report, 0.1);
  EXPECT_EQ(position_warning(stats, 300, 1e-8), "");
  report.unclosed = 2.8e-7;
  stats.add(report, 0.61);
  report.unclosed = 1.5e-7;  // smaller: counted, the largest kept
  stats.add(report, 0.7);
  EXPECT_EQ(stats.unclosed_steps, 2);
  EXPECT_EQ(stats.largest_unclosed, 2.8e-7);
  EXPECT_EQ(stats.largest_unclosed_time, 0.61);
  EXPECT_EQ(
      position_warning(stats, 300, 1e-8),
      "in 2 of 300 steps the position stage left overlaps above its tolerance of 1e-08 m "
      "after its sweeps (largest 2.8e-07 m at t = 0.61 s); the next steps' contacts keep them "
      "from growing (docs/nonsmooth.md, position stage)");
}

// The one list of a run's warnings (the CLI's lines, the sweep row's message, Python's
// categories): none for a clean run; with all four, rotation, position, activation and
// convergence, in that order, each the text of its own function.
TEST(Run, RunWarningsListEveryWarningInTheOrderTheCliPrintsThem) {
  SolverStatistics solver;
  StepStatistics stages;
  EXPECT_TRUE(run_warnings(solver, stages, 10, 1e-8).empty());
  SolverResult capped;
  capped.status = SolverStatus::max_iterations;
  capped.error = 3.2e-4;
  capped.method = "nsgs";
  solver.add(capped, 0.2);
  StepReport report;
  report.rotation_failures = 1;
  report.unclosed = 2e-7;
  report.left_out = 2;
  report.left_out_overlap = 1e-5;
  stages.add(report, 0.3);
  const std::vector<RunWarning> w = run_warnings(solver, stages, 10, 1e-8);
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w[0].kind, RunWarningKind::rotation);
  EXPECT_EQ(w[0].text, rotation_warning(stages));
  EXPECT_EQ(w[1].kind, RunWarningKind::position);
  EXPECT_EQ(w[1].text, position_warning(stages, 10, 1e-8));
  EXPECT_EQ(w[2].kind, RunWarningKind::activation);
  EXPECT_EQ(w[2].text, activation_warning(stages, 10));
  EXPECT_EQ(w[3].kind, RunWarningKind::convergence);
  EXPECT_EQ(w[3].text, convergence_warning(solver, 10));
  EXPECT_STREQ(to_string(RunWarningKind::position), "position");
  // Only what occurred: the position stage's overlap alone.
  StepStatistics only;
  StepReport unclosed;
  unclosed.unclosed = 2e-7;
  only.add(unclosed, 0.1);
  const std::vector<RunWarning> one = run_warnings(SolverStatistics{}, only, 10, 1e-8);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].kind, RunWarningKind::position);
}

TEST(Run, ConvergenceWarningNamesTheCountTheWorstErrorAndItsTime) {
  SolverStatistics stats;
  SolverResult ok;
  ok.error = 1e-12;
  ok.method = "nsgs";
  stats.add(ok, 0.1);
  EXPECT_EQ(convergence_warning(stats, 5000), "");
  SolverResult capped = ok;
  capped.status = SolverStatus::max_iterations;
  capped.error = 3.2e-4;
  stats.add(capped, 1.234);
  SolverResult stalled = ok;
  stalled.status = SolverStatus::stalled;
  stalled.error = 1e-5;
  stalled.method = "nsgs+prox";
  stalled.fell_back = true;
  stalled.local_failures = 2;
  stats.add(stalled, 2.0);
  EXPECT_EQ(convergence_warning(stats, 5000),
            "2 of 5000 steps did not converge (worst error 0.00032 at t = 1.234 s)");
  EXPECT_EQ(stats.first_not_converged_time, 1.234);
  EXPECT_EQ(stats.methods.at("nsgs"), 2);
  EXPECT_EQ(stats.methods.at("nsgs+prox"), 1);
  EXPECT_EQ(stats.auto_switches, 1);
  EXPECT_EQ(stats.fell_back, 1);
  EXPECT_EQ(stats.local_failures, 2);
  EXPECT_EQ(stats.solves_with_local_failures, 1);
}

TEST(Run, NonConvergedStepsAreCountedNotHidden) {
  // One Gauss–Seidel sweep per step on the pile: once the box lands (t ≈ 0.33 s) its four
  // coupled corner contacts cannot reach 1e-12 in one sweep. The run finishes; the statistics say
  // how many steps did not converge.
  Scene scene = load_scene_text(kScene, "pile.yaml");
  scene.model.end_time = 1.0;
  scene.model.solver.kind = SolverKind::nsgs;
  scene.model.solver.max_iterations = 1;
  scene.model.solver.tolerance = 1e-12;
  const RunResult result = coulomb::run(scene.model, scene.state, RunOptions{});
  EXPECT_TRUE(result.finite);
  EXPECT_GT(result.solver.not_converged, 0);
  EXPECT_LE(result.solver.not_converged, result.solver.solves);
  EXPECT_GT(result.solver.worst_error, 1e-12);
  EXPECT_GT(result.solver.worst_error_time, 0.0);
  EXPECT_NE(convergence_warning(result.solver, result.steps), "");
}

// Bodies overlapping at the start are at most two warning lines whatever their number: the count
// of pairs (the deepest, the first three), then, for bodies piled at one spot, how many and what
// they cost. 40 spheres at one point give 780 pairs (N²/2); a row of spheres each overlapping
// the next is not a pile; one pair keeps its own line.
TEST(Run, OverlapWarningsAreAtMostTwoLinesWhateverTheCount) {
  auto scene_of = [](const std::string& bodies) {
    return load_scene_text(
        "name: overlaps\ntime: {end: 0.01, step: 1.0e-3}\nmaterials: [m]\n"
        "contacts:\n  - between: [m, m]\n    normal: {law: signorini}\n"
        "    friction: {law: coulomb, mu: 0.3}\nbodies:\n" +
            bodies,
        "overlaps.yaml");
  };
  auto sphere = [](const std::string& name, double x, double y) {
    return fmt::format(
        "  - {{name: {}, material: m, mass: 1.0, shapes: [{{type: sphere, radius: 0.1}}], "
        "position: [{}, {}, 1.0]}}\n",
        name, x, y);
  };
  auto warnings = [](const Scene& scene) {
    return overlap_warnings(scene.model, find_overlaps(scene.model, scene.state, 1e-6), true);
  };
  // The pile, and two spheres overlapping elsewhere.
  std::string pile;
  for (int i = 0; i < 40; ++i) pile += sphere(fmt::format("p{}", i), 0.0, 0.0);
  pile += sphere("u", 5.0, 0.0) + sphere("v", 5.15, 0.0);
  const Scene piled = scene_of(pile);
  EXPECT_EQ(find_overlaps(piled.model, piled.state, 1e-6).size(), 781u);
  const std::vector<std::string> lines = warnings(piled);
  ASSERT_EQ(lines.size(), 2u) << fmt::format("{}", fmt::join(lines, "\n"));
  EXPECT_EQ(lines[0],
            "781 pairs of bodies overlap at the start, the deepest 'p0' and 'p1' by 0.2 m "
            "(first: 'p0' and 'p1', 'p0' and 'p2', 'p0' and 'p3', ...); the position stage "
            "moves them apart");
  EXPECT_EQ(lines[1],
            "40 bodies start piled at one spot ('p0', 'p1', 'p2', ...): 780 pairs of them "
            "overlap, so every step finds and solves at least 780 contacts among them where "
            "bodies set apart would have at most 240, and that cost grows as the square of the "
            "pile (twice the bodies, four times the contacts); place them apart");
  // A row of 20 spheres, each overlapping the next: 19 pairs, one line, no pile.
  std::string row;
  for (int i = 0; i < 20; ++i) row += sphere(fmt::format("r{}", i), 0.15 * i, 0.0);
  const std::vector<std::string> row_lines = warnings(scene_of(row));
  ASSERT_EQ(row_lines.size(), 1u);
  EXPECT_EQ(row_lines[0].rfind("19 pairs of bodies overlap at the start, the deepest", 0), 0u)
      << row_lines[0];
  // One pair: its own line, as before; none: no line.
  const std::vector<std::string> one = warnings(scene_of(sphere("a", 0, 0) + sphere("b", 0.15, 0)));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0],
            "bodies 'a' and 'b' overlap by 0.05 m at the start; the position stage moves "
            "them apart");
  EXPECT_TRUE(warnings(scene_of(sphere("a", 0, 0) + sphere("b", 1, 0))).empty());
  const std::string off =
      overlap_warnings(piled.model, find_overlaps(piled.model, piled.state, 1e-6), false)[0];
  EXPECT_TRUE(off.ends_with("...); nothing moves them apart (solver.position_correction is off)"))
      << off;
}

}  // namespace
}  // namespace coulomb
