// The run driver: output files, their determinism, output times, atomic writing.
#include <coulomb/io/output.hpp>
#include <coulomb/io/run.hpp>
#include <coulomb/scene/scene.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace coulomb {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(COULOMB_BINARY_DIR) / "test-output" / name;
  fs::remove_all(dir);
  return dir;
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
  std::string first[3];
  for (int run_index = 0; run_index < 2; ++run_index) {
    Scene scene = load_scene_text(kScene, "pile.yaml");
    RunOptions options;
    options.output_directory = fresh_dir("determinism-" + std::to_string(run_index)).string();
    const RunResult result = coulomb::run(scene.model, scene.state, options);
    EXPECT_EQ(result.steps, 300);
    const char* names[] = {"trajectory.csv", "contacts.csv", "energy.csv"};
    for (int f = 0; f < 3; ++f) {
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
  const std::string solver = read(dir / "solver.csv");
  EXPECT_EQ(std::count(solver.begin(), solver.end(), '\n'), 1 + 300);
  EXPECT_TRUE(fs::exists(dir / "summary.json"));
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find(".partial"), std::string::npos) << entry.path();
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

TEST(Run, AbandonedWriterLeavesNoFile) {
  const fs::path dir = fresh_dir("abandoned");
  Scene scene = load_scene_text(kScene, "pile.yaml");
  {
    OutputWriter writer(scene.model, dir.string());
    EXPECT_TRUE(fs::exists(dir / "trajectory.csv.partial"));
  }  // destroyed without commit: an interrupted run
  EXPECT_FALSE(fs::exists(dir / "trajectory.csv"));
  EXPECT_FALSE(fs::exists(dir / "trajectory.csv.partial"));
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
  RunOptions options;
  options.output_directory = fresh_dir("methods").string();
  const RunResult result = coulomb::run(scene.model, scene.state, options);
  std::istringstream csv(read(fs::path(options.output_directory) / "solver.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, kSolverHeader);
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

}  // namespace
}  // namespace coulomb
