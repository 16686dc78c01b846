// wear.csv and summary.json's "shock_points" against the statistics recomputed independently
// from the written contacts.csv of a short run of the tube–support scene (code_aster's
// definitions, docs/outputs.md), and their absence from the outputs of other scenes.

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

#include "io/files.hpp"

namespace coulomb {
namespace {

namespace fs = std::filesystem;

using testing::read;

// A CSV file (plain fields, no quoting) as maps from the header's names to cells.
std::vector<std::map<std::string, std::string>> csv(const fs::path& file) {
  std::istringstream in(read(file));
  std::string line;
  auto split = [](const std::string& l) {
    std::vector<std::string> cells;
    std::stringstream ss(l);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    return cells;
  };
  std::getline(in, line);
  const std::vector<std::string> header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = split(line);
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

double num(const std::map<std::string, std::string>& row, const std::string& key) {
  return std::stod(row.at(key));
}

// The tube–support scene, shortened to 0.25 s (3 periods of the drive) and written at every step,
// so that contacts.csv holds every sample the accumulator took.
Scene short_tube_support() {
  std::string text = read(fs::path(COULOMB_SOURCE_DIR) / "scenes/validation/tube-support.yaml");
  auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  };
  replace("time: {end: 1.0,", "time: {end: 0.25,");
  replace("output: {interval: 0.001}", "output: {every: 1}");
  return load_scene_text(text, "tube-support.yaml");
}

// One sample of the tube–support pair recomputed from contacts.csv.
struct Sample {
  double time = 0.0, fn = 0.0, ft = 0.0, wear_rate = 0.0, slip_max = 0.0;
  int points = 0;
  bool slipping = false;
};

TEST(Wear, StatisticsMatchThoseRecomputedFromContactsCsv) {
  Scene scene = short_tube_support();
  RunOptions options;
  const fs::path dir = fs::path(COULOMB_BINARY_DIR) / "test-output" / "wear-tube-support";
  fs::remove_all(dir);
  options.output_directory = dir.string();
  coulomb::run(scene.model, scene.state, options);

  // The samples: every output time of trajectory.csv (the initial state and every step), with
  // the forces of the contacts.csv rows at that time (none: a free sample).
  std::vector<Sample> samples;
  for (const auto& row : csv(dir / "trajectory.csv"))
    if (row.at("body") == "tube") samples.push_back({num(row, "time")});
  std::size_t i = 0;
  int points_max = 0;
  for (const auto& row : csv(dir / "contacts.csv")) {
    const double t = num(row, "time");
    while (i < samples.size() && samples[i].time != t) ++i;
    ASSERT_LT(i, samples.size()) << "contacts.csv time " << t << " is no output time";
    Sample& s = samples[i];
    const double fn = num(row, "fn");
    const double slip = std::hypot(num(row, "vt1"), num(row, "vt2"));
    s.fn += fn;
    s.ft = std::hypot(num(row, "ft1"), num(row, "ft2"));  // one point a sample: checked below
    s.wear_rate += std::abs(fn) * slip;
    s.slip_max = std::max(s.slip_max, slip);
    s.slipping = s.slipping || row.at("state") == "sliding";
    points_max = std::max(points_max, ++s.points);
  }
  ASSERT_GT(samples.size(), 2000u);
  // The capsule meets the box at one point at a time in this run (‖F_t‖ of a sample is then
  // its row's; several points would need their tangent frames, which contacts.csv does not hold).
  ASSERT_EQ(points_max, 1);

  // code_aster's definitions (statch with one block, SEUIL_FORCE = DUREE_REPOS = 0), written out
  // independently of the accumulator: contact samples F_n > 0; a rebound from its first contact
  // sample to the first free sample; every rebound a shock.
  const auto n = static_cast<double>(samples.size());
  double fn_sum = 0, fn_sq = 0, fn_max = 0, ft_sum = 0, ft_max = 0, wear = 0, impulse = 0;
  double rebound_time = 0;
  int contact_samples = 0, rebounds = 0;
  bool in_contact = false;
  double start = 0, episode = 0;
  for (std::size_t k = 0; k < samples.size(); ++k) {
    const Sample& s = samples[k];
    const bool contact = s.fn > 0.0;
    if (contact) {
      ++contact_samples;
      fn_sum += s.fn;
      fn_sq += s.fn * s.fn;
      fn_max = std::max(fn_max, s.fn);
      ft_sum += s.ft;
      ft_max = std::max(ft_max, s.ft);
    }
    if (k > 0) {
      const Sample& a = samples[k - 1];
      const double dt = s.time - a.time;
      if (a.slipping) wear += 0.5 * (s.wear_rate + a.wear_rate) * dt;  // Σ|N| ‖v_t‖, trapezoid
      if (contact && !in_contact) {
        start = s.time;
        episode = 0;
      }
      if (contact || in_contact) episode += 0.5 * (s.fn + a.fn) * dt;
    }
    if (!contact && in_contact) {
      ++rebounds;
      rebound_time += s.time - start;
      impulse += episode;
    }
    in_contact = contact;
  }
  const double duration = samples.back().time - samples.front().time;
  const double acquisition = n * duration / (n - 1.0);

  const auto rows = csv(dir / "wear.csv");
  ASSERT_EQ(rows.size(), 1u);
  const auto& w = rows[0];
  EXPECT_EQ(w.at("body1"), "tube");
  EXPECT_EQ(w.at("body2"), "support");
  EXPECT_EQ(num(w, "samples"), n);
  EXPECT_EQ(num(w, "contact_samples"), contact_samples);
  ASSERT_GE(rebounds, 3);  // at least one shock a period
  EXPECT_EQ(num(w, "rebounds"), rebounds);
  EXPECT_EQ(num(w, "shocks"), rebounds);
  // The same samples, read back exactly (shortest round-trip decimals): what remains is the
  // order of the sums (the wear integrand's product and quotient, the acquisition time): 1e-12.
  const double tol = 1e-12;
  auto near = [&](const char* key, double expected) {
    EXPECT_NEAR(num(w, key), expected, tol * std::max(1.0, std::abs(expected))) << key;
  };
  near("fn_mean", fn_sum / n);
  near("fn_mean_contact", fn_sum / contact_samples);
  near("fn_rms", std::sqrt(fn_sq / n));
  near("fn_rms_contact", std::sqrt(fn_sq / contact_samples));
  near("fn_max", fn_max);
  near("ft_mean", ft_sum / n);
  near("ft_max", ft_max);
  near("shock_duration_mean", rebound_time / rebounds);
  near("rebound_duration_mean", rebound_time / rebounds);
  near("contact_time_percent", 100.0 * rebound_time / acquisition);
  near("shocks_per_second", rebounds / acquisition);
  near("impulse_mean", impulse / rebounds);
  near("wear_power", wear / duration);
  EXPECT_GT(num(w, "wear_power"), 0.0);

  // summary.json holds the same figures.
  const nlohmann::json j = nlohmann::json::parse(read(dir / "summary.json"));
  ASSERT_EQ(j.at("shock_points").size(), 1u);
  const nlohmann::json& p = j["shock_points"][0];
  EXPECT_EQ(p.at("body1"), "tube");
  EXPECT_EQ(p.at("shocks").get<int>(), rebounds);
  EXPECT_EQ(p.at("wear_power").get<double>(), num(w, "wear_power"));
  EXPECT_EQ(p.at("fn_max").get<double>(), num(w, "fn_max"));
}

TEST(Wear, OnlyScenesWithDisChocContactsWriteIt) {
  Scene scene = load_scene_text(R"(
name: ball
time: {end: 0.05, step: 1.0e-3}
solver: {formulation: compliant}
contacts:
  - between: [m, m]
    normal: {law: linear, stiffness: 1.0e5}
    friction: {law: regularized, mu: 0.3, regularization: 1.0e-3}
materials: [m]
bodies:
  - {name: ground, fixed: true, material: m, shapes: [{type: plane, normal: [0, 0, 1]}]}
  - {name: ball, mass: 1, material: m, shapes: [{type: sphere, radius: 0.1}], position: [0, 0, 0.1]}
)",
                                "ball.yaml");
  RunOptions options;
  const fs::path dir = fs::path(COULOMB_BINARY_DIR) / "test-output" / "wear-none";
  fs::remove_all(dir);
  options.output_directory = dir.string();
  coulomb::run(scene.model, scene.state, options);
  EXPECT_TRUE(fs::exists(dir / "summary.json"));
  EXPECT_FALSE(fs::exists(dir / "wear.csv"));
  EXPECT_FALSE(nlohmann::json::parse(read(dir / "summary.json")).contains("shock_points"));
}

// A rerun replaces a folder holding wear.csv (and joints.csv, which a scene with joints writes):
// both are files coulomb writes (output_file_names), not a stranger's.
TEST(Wear, RerunReplacesAFolderHoldingWearAndJointsCsv) {
  const fs::path dir = fs::path(COULOMB_BINARY_DIR) / "test-output" / "wear-rerun";
  fs::remove_all(dir);
  for (const char* file :
       {"scenes/validation/dis-choc-impact.yaml", "scenes/validation/hinge-friction.yaml"}) {
    for (int run = 0; run < 2; ++run) {
      Scene scene = load_scene_file((fs::path(COULOMB_SOURCE_DIR) / file).string());
      scene.model.end_time = std::min(scene.model.end_time, 0.005);
      RunOptions options;
      options.output_directory = dir.string();
      EXPECT_NO_THROW(coulomb::run(scene.model, scene.state, options)) << file << " run " << run;
    }
  }
  EXPECT_TRUE(fs::exists(dir / "joints.csv"));
}

}  // namespace
}  // namespace coulomb
