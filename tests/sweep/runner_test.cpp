// Running a sweep: a box sliding on a plane in an oblique direction, over μ, against the closed
// forms of Coulomb friction; the same table on 1 and 3 threads and after a resume.
#include <gtest/gtest.h>

#include <cmath>
#include <coulomb/sweep/sweep.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace coulomb::sweep {
namespace {

namespace fs = std::filesystem;

// A 10 cm cube of 1 kg on the plane z = 0, launched at v0 = (1.2, -0.9, 0) m/s (|v0| = 1.5 m/s,
// not along an axis of the box or of the world), yawed by 0.4 rad about z.
constexpr const char* kScene = R"(name: slide
gravity: [0, 0, -9.81]
time: {end: 1.0, step: 1.0e-3}
output: {interval: 0.01}
materials: [floor, block]
contacts:
  - between: [block, floor]
    normal: {law: signorini, restitution: 0.0}
    friction: {law: coulomb, mu: 0.3}
bodies:
  - name: floor
    fixed: true
    material: floor
    shapes: [{type: plane, normal: [0, 0, 1], offset: 0.0}]
  - name: block
    material: block
    shapes: [{type: box, half_extents: [0.05, 0.05, 0.05]}]
    mass: 1.0
    position: [0, 0, 0.05]
    orientation: {axis: [0, 0, 1], angle: 0.4}
    velocity: [1.2, -0.9, 0]
)";

SweepSpec slide_spec() {
  SweepSpec s;
  s.scene_text = kScene;
  s.scene_file = "slide.yaml";
  s.parameters.push_back(parse_parameter("contacts[0].friction.mu=[0.3,0.45,0.6]", 0, 0, 0));
  s.parameters.push_back(parse_parameter("bodies[block].velocity[1]=[-0.9]", 1, 0, 0));
  s.metrics.push_back(parse_metric(
      "distance=sqrt((final(block.x) - initial(block.x)) * (final(block.x) - initial(block.x)) + "
      "(final(block.y) - initial(block.y)) * (final(block.y) - initial(block.y)))"));
  s.metrics.push_back(parse_metric("stop=first_time(block.speed < 1e-9)"));
  s.metrics.push_back(parse_metric("lift=max(abs(block.z - 0.05))"));
  return s;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The cells of a CSV line (no quoted cells in these tables).
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  for (std::string c; std::getline(s, c, ',');) out.push_back(c);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

std::string run_sweep(const SweepSpec& spec, const fs::path& dir, int threads) {
  validate(spec);
  prepare_directory(spec, dir.string());
  const auto rows = run_local(spec, variants(spec), dir.string(), threads, nullptr);
  write_table(spec, dir.string(), rows);
  return read(dir / "sweep.csv");
}

TEST(SweepRunner, SlidingBoxStopsAtTheClosedFormDistanceAndTime) {
  const fs::path dir = fs::path(COULOMB_BINARY_DIR) / "sweep-runner-test" / "serial";
  fs::remove_all(dir);
  const SweepSpec spec = slide_spec();
  const std::string table = run_sweep(spec, dir, 1);
  std::stringstream lines(table);
  std::string line;
  std::getline(lines, line);
  const std::vector<std::string> header = cells(line);
  ASSERT_EQ(header.size(), 3u + 2u + 8u + 3u) << line;
  EXPECT_EQ(header[3], "contacts[0].friction.mu");
  int n = 0;
  while (std::getline(lines, line)) {
    const std::vector<std::string> c = cells(line);
    ASSERT_EQ(c.size(), header.size()) << line;
    EXPECT_EQ(c[0], std::to_string(n));
    EXPECT_EQ(c[1], "completed") << line;
    const double mu = std::stod(c[3]);
    const double g = 9.81, v0 = 1.5, h = 1e-3, every = 0.01;
    // Uniform deceleration μg along the velocity: it stops after |v0|²/(2μg) at |v0|/(μg).
    const double distance = std::stod(c[c.size() - 3]);
    const double stop = std::stod(c[c.size() - 2]);
    const double lift = std::stod(c[c.size() - 1]);
    // Tolerance: the step ends the slide within one step, where it moves by at most |v0| h
    // (1.5e-3 m); measured 3.2e-7, 3.7e-7, 3.9e-7 m for μ = 0.3, 0.45, 0.6.
    EXPECT_NEAR(distance, v0 * v0 / (2 * mu * g), v0 * h) << "mu = " << mu;
    // The stop is seen at the first output time after it: up to one output interval (and one
    // step) later.
    EXPECT_GE(stop, v0 / (mu * g) - h) << "mu = " << mu;
    EXPECT_LE(stop, v0 / (mu * g) + every + h) << "mu = " << mu;
    // The box stays on the floor (the position stage's tolerance, 1e-8 m, bounds it).
    EXPECT_LT(lift, 1e-8);
    ++n;
  }
  EXPECT_EQ(n, 3);
}

TEST(SweepRunner, SameTableOnThreadsAndAfterResume) {
  const fs::path base = fs::path(COULOMB_BINARY_DIR) / "sweep-runner-test";
  fs::remove_all(base / "one");
  fs::remove_all(base / "three");
  SweepSpec spec = slide_spec();
  spec.summary_only = true;
  const std::string one = run_sweep(spec, base / "one", 1);
  const std::string three = run_sweep(spec, base / "three", 3);
  EXPECT_EQ(one, three);
  // summary.json alone stays in each run folder.
  for (const auto& e : fs::directory_iterator(base / "three" / "runs" / "000001"))
    EXPECT_EQ(e.path().filename(), "summary.json");
  // A rerun skips every variant (its row is read back), and runs again one whose row is gone.
  fs::remove(base / "three" / "rows" / "000002.csv");
  const auto before = fs::last_write_time(base / "three" / "runs" / "000000" / "summary.json");
  EXPECT_EQ(run_sweep(spec, base / "three", 2), one);
  EXPECT_EQ(fs::last_write_time(base / "three" / "runs" / "000000" / "summary.json"), before);
  // Another definition into the same folder is refused.
  spec.metrics.pop_back();
  EXPECT_THROW(prepare_directory(spec, (base / "three").string()), std::invalid_argument);
}

TEST(SweepRunner, AFailedVariantIsARowAndTheOthersRun) {
  const fs::path dir = fs::path(COULOMB_BINARY_DIR) / "sweep-runner-test" / "failed";
  fs::remove_all(dir);
  const SweepSpec spec = slide_spec();
  validate(spec);
  prepare_directory(spec, dir.string());
  // Variant 1's output folder cannot be written: a file stands where it goes.
  std::ofstream(dir / "runs" / run_name(1)) << "not a folder\n";
  const auto rows = run_local(spec, variants(spec), dir.string(), 2, nullptr);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(cells(rows[0])[1], "completed");
  EXPECT_EQ(cells(rows[2])[1], "completed");
  const std::vector<std::string> failed = cells(rows[1]);
  EXPECT_EQ(failed[1], "failed") << rows[1];
  EXPECT_NE(failed[2].find(run_name(1)), std::string::npos) << rows[1];  // the message names it
  // No summary: its 8 figures and 3 metrics are NaN.
  const std::string nans = ",nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan";
  EXPECT_EQ(rows[1].substr(rows[1].size() - nans.size()), nans) << rows[1];
  EXPECT_TRUE(row_failed(rows[1]));
  EXPECT_FALSE(row_failed(rows[0]));
}

// Seven balls in zero gravity, ball 0 striking ball 1 at 1 m/s, gaps of 2e-5 m (0.02 v h) between
// the others: each activation pass takes one point in, so four passes leave the fifth out and
// five take every point in (tests/world/chain_test.cpp).
constexpr const char* kRow = R"(name: row
gravity: [0, 0, 0]
time: {end: 0.003, step: 1.0e-3}
output: {interval: 0.001}
solver: {activation_passes: 4}
bodies:
  - {name: b0, mass: 1.0, shapes: [{type: sphere, radius: 0.1}], position: [0, 0, 0], velocity: [1, 0, 0]}
  - {name: b1, mass: 1.0, shapes: [{type: sphere, radius: 0.1}], position: [0.2, 0, 0]}
  - {name: b2, mass: 1.0, shapes: [{type: sphere, radius: 0.1}], position: [0.40002, 0, 0]}
  - {name: b3, mass: 1.0, shapes: [{type: sphere, radius: 0.1}], position: [0.60004, 0, 0]}
  - {name: b4, mass: 1.0, shapes: [{type: sphere, radius: 0.1}], position: [0.80006, 0, 0]}
  - {name: b5, mass: 1.0, shapes: [{type: sphere, radius: 0.1}], position: [1.00008, 0, 0]}
  - {name: b6, mass: 1.0, shapes: [{type: sphere, radius: 0.1}], position: [1.2001, 0, 0]}
)";

// The row's message carries every warning `coulomb run` prints, not only the convergence one: a
// variant whose passes left a point out says so in the table (its status stays `completed`).
TEST(SweepRunner, ARowNamesThePointsTheActivationPassesLeftOut) {
  const fs::path dir = fs::path(COULOMB_BINARY_DIR) / "sweep-runner-test" / "activation";
  fs::remove_all(dir);
  SweepSpec s;
  s.scene_text = kRow;
  s.scene_file = "row.yaml";
  s.parameters.push_back(parse_parameter("solver.activation_passes=[4,5]", 0, 0, 0));
  s.metrics.push_back(parse_metric("v6=final(b6.vx)"));
  validate(s);
  prepare_directory(s, dir.string());
  const auto rows = run_local(s, variants(s), dir.string(), 1, nullptr);
  ASSERT_EQ(rows.size(), 2u);
  // Four passes: one point left out in the first step (the next step takes it in).
  EXPECT_EQ(cells(rows[0])[1], "completed") << rows[0];
  EXPECT_NE(rows[0].find("in 1 of 3 steps the activation passes ran out with 1 point that"),
            std::string::npos)
      << rows[0];
  EXPECT_NE(rows[0].find("solver.activation_passes"), std::string::npos) << rows[0];
  // Five passes: none, and an empty message.
  EXPECT_EQ(cells(rows[1])[1], "completed") << rows[1];
  EXPECT_EQ(cells(rows[1])[2], "") << rows[1];
  // Either way all seven share the momentum by the end: v/7.
  EXPECT_NEAR(std::stod(cells(rows[0]).back()), 1.0 / 7.0, 1e-8) << rows[0];
  EXPECT_NEAR(std::stod(cells(rows[1]).back()), 1.0 / 7.0, 1e-8) << rows[1];
}

}  // namespace
}  // namespace coulomb::sweep
