// Byte-identical outputs: every scene of scenes/ and scenes/validation/ (its first 400 steps) and
// every validation case (quick form) against hashes stored in tests/data/output-hashes.txt. A
// refactoring that must not change a result proves it here (Box2D's determinism test is the
// model). A change meant to alter results regenerates the file in the same commit:
//
//   COULOMB_UPDATE_HASHES=1 build/tests/validate/test_validate_outputs_hash
//
// and says why. Hashes are of this machine's build (GCC, -ffp-contract=off): the same input gives
// the same bits, which the run test checks on its own (Run.SameSceneTwiceGivesBitIdenticalFiles).
#include <coulomb/io/run.hpp>
#include <coulomb/scene/scene.hpp>
#include <coulomb/validate/validate.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace coulomb {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = COULOMB_SOURCE_DIR;
const fs::path kHashes = kSource / "tests" / "data" / "output-hashes.txt";
constexpr int kSteps = 400;  // steps of each scene (the whole scene when it is shorter)

// FNV-1a, 64 bits.
std::uint64_t fnv1a(const std::string& bytes, std::uint64_t h = 14695981039346656037ull) {
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> scene_files() {
  std::vector<fs::path> files;
  for (const fs::path& dir : {kSource / "scenes", kSource / "scenes" / "validation"})
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The hash of a scene's output files (trajectory, contacts, energy, solver, and wear.csv where the
// scene writes it; not summary.json, which holds wall times) over its first kSteps steps.
std::string scene_hash(const fs::path& file) {
  Scene scene = load_scene_file(file.string());
  Model& m = scene.model;
  m.end_time = std::min(m.end_time, scene.state.time + kSteps * m.time_step);
  // solver.csv with a row per step (output.solver: every_step, the rows of every step as they
  // were before the per-output-time aggregates became the default): the finest record of the
  // solver, and the same bytes as the hashes stored before that change.
  m.output.solver = SolverRows::every_step;
  RunOptions options;
  options.output_directory =
      (fs::path(COULOMB_BINARY_DIR) / "test-output" / "hashes" / file.stem()).string();
  fs::remove_all(options.output_directory);
  options.write_replay = false;
  (void)run(m, scene.state, options);
  std::uint64_t h = 14695981039346656037ull;
  for (const char* name : {"trajectory.csv", "contacts.csv", "energy.csv", "solver.csv"})
    h = fnv1a(read(fs::path(options.output_directory) / name), h);
  // Only scenes with dis_choc contacts write wear.csv: the others hash the same bytes as before.
  const fs::path wear = fs::path(options.output_directory) / "wear.csv";
  if (fs::exists(wear)) h = fnv1a(read(wear), h);
  return fmt::format("{:016x}", h);
}

// The hash of every measured and expected value of a validation case (quick form).
std::string case_hash(const validate::CaseResult& c) {
  std::string text = c.error;
  for (const validate::Check& k : c.checks)
    text += fmt::format("{}|{:.17g}|{:.17g}|{}\n", k.quantity, k.measured, k.expected, k.passed);
  return fmt::format("{:016x}", fnv1a(text));
}

std::map<std::string, std::string> compute_all() {
  std::map<std::string, std::string> hashes;
  for (const fs::path& f : scene_files())
    hashes[fs::relative(f, kSource).generic_string()] = scene_hash(f);
  validate::Options options;
  options.quick = true;
  for (const validate::CaseResult& c : validate::run(options).cases)
    hashes["validate:" + c.name] = case_hash(c);
  return hashes;
}

TEST(Outputs, EverySceneAndCaseGivesItsStoredHash) {
  const std::map<std::string, std::string> now = compute_all();
  if (std::getenv("COULOMB_UPDATE_HASHES")) {
    std::ofstream out(kHashes);
    out << "# FNV-1a hashes of the outputs of every scene (first " << kSteps
        << " steps) and validation case (quick);\n# tests/validate/outputs_hash_test.cpp\n";
    for (const auto& [name, hash] : now) out << name << ' ' << hash << '\n';
    GTEST_SKIP() << "wrote " << kHashes;
  }
  std::map<std::string, std::string> stored;
  std::ifstream in(kHashes);
  ASSERT_TRUE(in.good()) << kHashes << " is missing";
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string name, hash;
    ss >> name >> hash;
    stored[name] = hash;
  }
  for (const auto& [name, hash] : now) {
    const auto it = stored.find(name);
    if (it == stored.end()) {
      ADD_FAILURE() << name << ": no stored hash (a new scene or case: regenerate the file)";
      continue;
    }
    EXPECT_EQ(hash, it->second) << name << ": its outputs changed";
  }
  for (const auto& [name, hash] : stored)
    EXPECT_TRUE(now.count(name)) << name << ": stored but no longer produced";
}

}  // namespace
}  // namespace coulomb
