// Checkpoints and restarts: the file format (round trip, signature, version, truncation,
// corruption, counts checked before sizing, atomic writes, the scene hash), and restarted runs
// whose files, replay and final state are bit-identical to an uninterrupted run's.
#include <coulomb/io/checkpoint.hpp>
#include <coulomb/io/run.hpp>
#include <coulomb/scene/scene.hpp>
#include <coulomb/world/simulation.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "io/files.hpp"

namespace coulomb {
namespace {

namespace fs = std::filesystem;

using testing::read;

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(COULOMB_BINARY_DIR) / "test-output" / "checkpoint" / name;
  fs::remove_all(dir);
  fs::create_directories(dir.parent_path());
  return dir;
}

// Two falling bodies on a plane: contacts, impacts, friction from the start; outputs every 10
// steps of 300.
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
    position: [0, 0, 0.12]
    velocity: [0.5, 0.1, 0]
    angular_velocity: [0, 0, 3]
  - name: b
    material: m
    mass: 2.0
    shapes: [{type: box, half_extents: [0.1, 0.15, 0.05]}]
    position: [0.05, 0.0, 0.4]
    orientation: [0.9, 0.1, 0.3, 0.0]
)";

const char* const kFiles[] = {"trajectory.csv", "contacts.csv", "energy.csv", "solver.csv",
                              "replay.html"};

// Actuation and joints: two driven bodies (a turntable under a block, a shaker holding an arm on
// a hinge), a force and damping on the block, a bob on a string (slack at the start, taut when it
// has fallen) and a spring-damper from the bob to the block; outputs every 10 steps of 300.
// (tests/data/restart/actuated-joints.yaml, which the CLI restart test runs too)
const std::string kActuated =
    read(fs::path(COULOMB_SOURCE_DIR) / "tests/data/restart/actuated-joints.yaml");
const char* const kActuatedFiles[] = {"trajectory.csv", "contacts.csv", "energy.csv", "solver.csv",
                                      "joints.csv",     "driven.csv",   "replay.html"};

// The state's bytes as a checkpoint stores them (equal bytes: bit-identical states).
std::string state_bytes(const State& state) {
  Checkpoint c;
  c.state = state;
  std::string bytes;
  encode_checkpoint(c, bytes);
  return bytes;
}

// A run of `text` into `out`, stopped before step `stop_after` + 1 when it is >= 0.
struct Ran {
  RunResult result;
  State state;
};
Ran run_scene(const std::string& text, const fs::path& out, std::int64_t stop_after,
              double checkpoint_every, const std::string& restart = {}) {
  Scene scene = load_scene_text(text, "pile.yaml");
  RunOptions options;
  options.output_directory = out.string();
  options.scene_hash = scene_hash(scene.source, scene.model);
  options.checkpoint_every = checkpoint_every;
  options.restart = restart;
  if (stop_after >= 0) {
    // The stop hook is asked before each step; the state's step count says how far the run is.
    const State* state = nullptr;
    Simulation sim(scene.model, scene.state);
    state = &sim.state();
    options.stop = [state, stop_after] {
      return state->step >= stop_after ? std::string("SIGINT") : std::string();
    };
    Ran ran{coulomb::run(sim, options), sim.state()};
    return ran;
  }
  Ran ran;
  ran.result = coulomb::run(scene.model, scene.state, options);
  ran.state = scene.state;
  return ran;
}

// The summary's fields that do not hold wall times.
nlohmann::json deterministic_summary(const fs::path& dir) {
  nlohmann::json j = nlohmann::json::parse(read(dir / "summary.json"));
  nlohmann::json out;
  for (const char* key : {"steps", "end_time", "status", "solver", "position_stage",
                          "rotation_failures", "energy", "final_state", "finite"})
    out[key] = j[key];
  return out;
}

// A checkpoint written where a stop ended a run (step 137, between output times).
struct Stopped {
  fs::path dir;
  Checkpoint checkpoint;
  std::string bytes;
  State state;
};
Stopped stopped_run(const std::string& name) {
  Stopped s;
  s.dir = fresh_dir(name);
  const Ran ran = run_scene(kScene, s.dir, 137, 0.05);
  EXPECT_EQ(ran.result.interrupted, "SIGINT");
  s.state = ran.state;
  s.bytes = read(s.dir / kCheckpointFileName);
  s.checkpoint = decode_checkpoint(s.bytes, "checkpoint.bin");
  return s;
}

// decode(encode(c)) gives c back: the same bytes again, and the fields a run wrote.
TEST(Checkpoint, RoundTripKeepsEveryField) {
  const Stopped s = stopped_run("round-trip");
  const Checkpoint& c = s.checkpoint;
  std::string again;
  encode_checkpoint(c, again);
  EXPECT_EQ(again, s.bytes);
  EXPECT_EQ(s.bytes.substr(0, 16), std::string(kCheckpointMagic));
  // The state, bit for bit, the time's compensation carry and the contact memory included.
  EXPECT_EQ(state_bytes(c.state), state_bytes(s.state));
  EXPECT_EQ(c.state.step, 137);
  EXPECT_FALSE(c.state.contacts.empty());
  EXPECT_GT(c.state.dissipated, 0.0);
  // The driver: the start, a state that is not an output frame, 7 steps since the last row.
  EXPECT_EQ(c.start_step, 0);
  EXPECT_EQ(c.start_time, 0.0);
  EXPECT_EQ(c.checkpoint_every, 50);
  EXPECT_FALSE(c.frame_written);
  EXPECT_EQ(c.solver_interval.steps, 7);
  EXPECT_EQ(c.steps, 137);
  EXPECT_GT(c.solver.solves, 0);
  EXPECT_EQ(c.checkpoints_written, 3);  // steps 50, 100, and the stop
  ASSERT_EQ(c.files.size(), 4u);
  EXPECT_EQ(c.files[0].first, "trajectory.csv");
  EXPECT_TRUE(c.has_replay);
  EXPECT_EQ(c.replay.received, 14u);  // the start and 13 output times (not the stop's frame)
  EXPECT_EQ(c.replay.last.index, 13u);
  EXPECT_EQ(c.stage_seconds.size(), kStageCount);
}

// Another file, another version, a truncated or corrupted one: one line naming the file, what is
// wrong, and std::invalid_argument (the CLI's exit status 2).
TEST(Checkpoint, RefusesAnotherSignatureVersionATruncatedOrCorruptedFile) {
  const Stopped s = stopped_run("refusals");
  auto message = [](const std::string& bytes) {
    try {
      (void)decode_checkpoint(bytes, "run/checkpoint.bin");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  auto expect = [&](const std::string& bytes, const std::string& start) {
    const std::string m = message(bytes);
    EXPECT_EQ(m.rfind("run/checkpoint.bin: " + start, 0), 0u) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  };
  expect("", "empty (0 bytes)");
  expect("time,body,x\n0,a,1\n", "not a coulomb checkpoint");
  expect(s.bytes.substr(0, 10), "truncated");
  expect(s.bytes.substr(0, 30), "truncated");
  expect(s.bytes.substr(0, s.bytes.size() - 1), "truncated");
  expect(s.bytes.substr(0, s.bytes.size() / 2), "truncated");
  expect(s.bytes + "x", "corrupted");
  std::string version = s.bytes;
  version[16] = static_cast<char>(kCheckpointVersion + 1);
  expect(version,
         fmt::format("a checkpoint of format version {}; this coulomb reads versions {} to {}",
                     kCheckpointVersion + 1, kOldestCheckpointVersion, kCheckpointVersion));
  version[16] = static_cast<char>(kOldestCheckpointVersion - 1);
  expect(version,
         fmt::format("a checkpoint of format version {}; this coulomb reads versions {} to {}",
                     kOldestCheckpointVersion - 1, kOldestCheckpointVersion, kCheckpointVersion));
  std::string flipped = s.bytes;
  flipped[100] ^= 0x10;
  expect(flipped, "corrupted: its bytes give the CRC-32");
  std::string crc = s.bytes;
  crc.back() ^= 1;
  expect(crc, "corrupted: its bytes give the CRC-32");
}

// Every prefix and many single-byte changes of a checkpoint: refused with one line, never a
// crash, never a checkpoint that decodes.
TEST(Checkpoint, EveryTruncationAndByteChangeIsRefused) {
  const Stopped s = stopped_run("mutations");
  auto refused = [](const std::string& bytes) {
    try {
      (void)decode_checkpoint(bytes, "c");
    } catch (const std::invalid_argument& e) {
      return std::string_view(e.what()).find('\n') == std::string_view::npos;
    }
    return false;
  };
  for (std::size_t n = 0; n < s.bytes.size(); ++n)
    ASSERT_TRUE(refused(s.bytes.substr(0, n))) << "prefix of " << n << " bytes";
  for (std::size_t i = 0; i < s.bytes.size(); i += 13) {
    std::string b = s.bytes;
    b[i] = static_cast<char>(b[i] ^ 0x5a);
    ASSERT_TRUE(refused(b)) << "byte " << i << " changed";
  }
}

// A count past the end of the file, in a file whose CRC matches (crafted, or a writer's bug), is
// refused before anything is sized from it; so is a non-finite state.
TEST(Checkpoint, CountsAndValuesAreCheckedEvenUnderAGoodChecksum) {
  const Stopped s = stopped_run("counts");
  auto with_crc = [](std::string b) {
    b.resize(b.size() - 4);
    const std::uint32_t crc = crc32(0, b.data(), b.size());
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<char>((crc >> (8 * i)) & 0xFF));
    return b;
  };
  auto message = [](const std::string& bytes) {
    try {
      (void)decode_checkpoint(bytes, "c");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // The body count (after time, carry and step: byte 40 + 24) set to 2^60.
  std::string count = s.bytes;
  count[64 + 7] = 0x10;
  EXPECT_EQ(message(with_crc(count)).rfind("c: corrupted: a count of 1152921504606846979", 0), 0u)
      << message(with_crc(count));
  // The time (byte 40) set to NaN.
  std::string nan = s.bytes;
  for (int i = 0; i < 8; ++i) nan[40 + i] = static_cast<char>(0xFF);
  EXPECT_NE(message(with_crc(nan)).find("not finite"), std::string::npos) << message(with_crc(nan));
}

// write_checkpoint replaces the file whole through FILE.tmp and a rename, and leaves no .tmp,
// also when it fails.
TEST(Checkpoint, WriteIsAtomicAndLeavesNoTemporaryFile) {
  const Stopped s = stopped_run("atomic");
  const fs::path dir = fresh_dir("atomic-write");
  fs::create_directories(dir);
  const fs::path file = dir / "c.bin";
  std::string scratch;
  Checkpoint c = s.checkpoint;
  write_checkpoint(file.string(), "c.bin", c, scratch);
  EXPECT_EQ(read(file), s.bytes);
  c.state.time += 1.0;
  write_checkpoint(file.string(), "c.bin", c, scratch);
  EXPECT_EQ(read_checkpoint(file.string()).state.time, s.checkpoint.state.time + 1.0);
  EXPECT_FALSE(fs::exists(dir / "c.bin.tmp"));
  // A folder that does not exist: one line naming the file, nothing left.
  try {
    write_checkpoint((dir / "none" / "c.bin").string(), "out/c.bin", c, scratch);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "out/c.bin: cannot write: No such file or directory");
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  // Reading: a missing file, a folder.
  EXPECT_THROW((void)read_checkpoint((dir / "missing.bin").string()), std::invalid_argument);
  EXPECT_THROW((void)read_checkpoint(dir.string()), std::invalid_argument);
}

// The hash changes with the scene's text and with the settings that decide the rows, not with the
// end time (a restart may run further).
TEST(Checkpoint, SceneHashTiesTheSceneAndTheSettingsThatDecideTheRows) {
  Scene scene = load_scene_text(kScene, "pile.yaml");
  const std::uint64_t h = scene_hash(scene.source, scene.model);
  EXPECT_EQ(h, scene_hash(scene.source, scene.model));
  EXPECT_NE(h, scene_hash(scene.source + " ", scene.model));
  Model m = scene.model;
  m.end_time = 10.0;
  EXPECT_EQ(h, scene_hash(scene.source, m));
  m.time_step = 5e-4;
  EXPECT_NE(h, scene_hash(scene.source, m));
  m = scene.model;
  m.output.solver = SolverRows::every_step;
  EXPECT_NE(h, scene_hash(scene.source, m));
  m = scene.model;
  m.output.every = 5;
  EXPECT_NE(h, scene_hash(scene.source, m));
}

// Stopped at any step (the first, between output times, at one, the one before the last) and
// restarted from the checkpoint written at the stop: every file, replay.html included, and the
// final state are bit-identical to the uninterrupted run's, and so are the summary's statistics.
// The same with outputs by interval (a floating-point sum of output times) and per-step
// solver.csv rows.
TEST(Restart, ContinuesBitIdenticallyFromAStopAnywhere) {
  std::string interval = kScene;
  interval.replace(interval.find("output: {every: 10}"), 19,
                   "output: {interval: 0.0137, solver: every_step}");
  int variant = 0;
  for (const std::string& text : {std::string(kScene), interval}) {
    const fs::path whole = fresh_dir(fmt::format("whole-{}", variant));
    const Ran reference = run_scene(text, whole, -1, 0.05);
    ASSERT_TRUE(reference.result.finite);
    for (const std::int64_t stop : {0, 1, 137, 140, 299}) {
      SCOPED_TRACE(fmt::format("variant {}, stopped at step {}", variant, stop));
      const fs::path first = fresh_dir(fmt::format("first-{}-{}", variant, stop));
      const Ran stopped = run_scene(text, first, stop, 0.05);
      ASSERT_EQ(stopped.result.interrupted, "SIGINT");
      ASSERT_EQ(stopped.state.step, stop);
      // The restart writes its own folder, from the checkpoint and the files beside it.
      const fs::path second = fresh_dir(fmt::format("second-{}-{}", variant, stop));
      const Ran restarted =
          run_scene(text, second, -1, 0.0, (first / kCheckpointFileName).string());
      EXPECT_TRUE(restarted.result.restarted);
      EXPECT_EQ(restarted.result.restart_step, stop);
      EXPECT_EQ(restarted.result.steps, 300);
      EXPECT_EQ(restarted.result.total_steps, 300);
      EXPECT_EQ(state_bytes(restarted.state), state_bytes(reference.state));
      for (const char* name : kFiles)
        EXPECT_TRUE(read(second / name) == read(whole / name)) << name << " differs";
      EXPECT_EQ(deterministic_summary(second), deterministic_summary(whole));
      // It checkpointed as the first run did (every 50 steps), and the stopped run's folder is
      // untouched: a second restart from it is possible.
      EXPECT_EQ(read_checkpoint((second / kCheckpointFileName).string()).state.step, 300);
      EXPECT_TRUE(fs::exists(first / kCheckpointFileName));
    }
    ++variant;
  }
}

// A run that failed after a checkpoint keeps its working folder (to restart from); rows it wrote
// after the checkpoint are dropped by the restart; a restart of a restart continues too.
TEST(Restart, ContinuesAFailedRunsWorkingFolderAndDropsTheRowsAfterItsCheckpoint) {
  const fs::path whole = fresh_dir("kill-whole");
  const Ran reference = run_scene(kScene, whole, -1, 0.05);
  // A failure (here a throwing stop hook) at step 173: the checkpoint of step 150 is kept.
  const fs::path out = fresh_dir("kill");
  Scene scene = load_scene_text(kScene, "pile.yaml");
  RunOptions options;
  options.output_directory = out.string();
  options.scene_hash = scene_hash(scene.source, scene.model);
  options.checkpoint_every = 0.05;
  Simulation sim(scene.model, scene.state);
  const State* state = &sim.state();
  options.stop = [state]() -> std::string {
    if (state->step == 173) throw std::runtime_error("out/trajectory.csv: cannot write: full");
    return {};
  };
  try {
    (void)coulomb::run(sim, options);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("holds the run up to its last checkpoint (t = 0.15"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(out));
  std::vector<fs::path> working;
  for (const auto& entry : fs::directory_iterator(out.parent_path()))
    if (entry.path().filename().string().rfind("kill.partial-", 0) == 0)
      working.push_back(entry.path());
  ASSERT_EQ(working.size(), 1u);
  // Rows written after the checkpoint, as a killed run leaves them (whole or torn).
  for (const char* name : {"trajectory.csv", "energy.csv", "solver.csv"}) {
    std::ofstream(working[0] / name, std::ios::app) << "0.16,after,the,checkpoint\n0.17,to";
  }
  // The restart continues into OUT (a sibling here), from the working folder's checkpoint.
  const fs::path second = fresh_dir("kill-restarted");
  const Ran restarted =
      run_scene(kScene, second, 250, 0.0, (working[0] / kCheckpointFileName).string());
  EXPECT_EQ(restarted.state.step, 250);
  // ... stopped again at 250, and restarted from that.
  const fs::path third = fresh_dir("kill-restarted-again");
  const Ran again = run_scene(kScene, third, -1, 0.0, (second / kCheckpointFileName).string());
  EXPECT_EQ(state_bytes(again.state), state_bytes(reference.state));
  for (const char* name : kFiles)
    EXPECT_TRUE(read(third / name) == read(whole / name)) << name << " differs";
  EXPECT_EQ(deterministic_summary(third), deterministic_summary(whole));
  const nlohmann::json summary = nlohmann::json::parse(read(third / "summary.json"));
  EXPECT_EQ(summary["checkpoints"]["every_steps"], 50);
  EXPECT_EQ(summary["restarted_from"]["step"], 250);
  fs::remove_all(working[0]);
}

// What a restart refuses, before its first step, leaving its output folder as it was and nothing
// beside it: another scene or time step, an end time at or before the checkpoint, files beside
// the checkpoint that changed, or are missing.
TEST(Restart, RefusesAnotherSceneAnEndBeforeItAndFilesThatChanged) {
  const Stopped s = stopped_run("refuse-first");
  const std::string file = (s.dir / kCheckpointFileName).string();
  const fs::path out = fresh_dir("refuse-out");
  auto message = [&](const std::string& text, const std::function<void(Scene&)>& edit = {}) {
    Scene scene = load_scene_text(text, "pile.yaml");
    if (edit) edit(scene);
    RunOptions options;
    options.output_directory = out.string();
    options.scene_hash = scene_hash(scene.source, scene.model);
    options.restart = file;
    try {
      (void)coulomb::run(scene.model, scene.state, options);
    } catch (const std::invalid_argument& e) {
      EXPECT_FALSE(fs::exists(out));
      for (const auto& entry : fs::directory_iterator(out.parent_path()))
        EXPECT_EQ(entry.path().filename().string().rfind("refuse-out.", 0), std::string::npos)
            << entry.path();
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string other = kScene;
  other.replace(other.find("mass: 2.0"), 9, "mass: 3.0");
  EXPECT_EQ(message(other).rfind(file + ": a checkpoint of another scene or other settings", 0),
            0u);
  EXPECT_EQ(message(kScene, [](Scene& sc) { sc.model.time_step = 5e-4; })
                .rfind(file + ": a checkpoint of another scene", 0),
            0u);
  EXPECT_EQ(message(kScene, [](Scene& sc) { sc.model.end_time = 0.1; })
                .rfind(file + ": the checkpoint is at t = 0.137", 0),
            0u)
      << message(kScene, [](Scene& sc) { sc.model.end_time = 0.1; });
  // A file beside it changed (one byte), then one missing.
  std::string energy = read(s.dir / "energy.csv");
  energy[energy.size() / 3] = energy[energy.size() / 3] == '1' ? '2' : '1';
  write(s.dir / "energy.csv", energy);
  EXPECT_NE(message(kScene).find("energy.csv: its first"), std::string::npos) << message(kScene);
  fs::remove(s.dir / "energy.csv");
  EXPECT_NE(message(kScene).find("energy.csv: missing"), std::string::npos) << message(kScene);
}

// The compliant formulation refuses checkpoints and restarts (a checkpoint does not hold its
// stick anchors and integrator history): one line naming the option, std::invalid_argument (exit
// status 2 in `coulomb run`), before the checkpoint is read and before any folder is made.
TEST(Restart, CompliantFormulationRefusesCheckpointsAndRestartsNamingTheOption) {
  constexpr const char* kCompliant = R"(
name: compliant-ball
time: {end: 0.01, step: 1.0e-3}
solver: {formulation: compliant, integrator: erk}
materials:
  - {name: steel, young_modulus: 2.0e11, poisson_ratio: 0.3, density: 7800}
contacts:
  - between: [steel, steel]
    normal: {law: hertz}
bodies:
  - {name: ground, fixed: true, material: steel, shapes: [{type: plane, normal: [0, 0, 1], offset: 0.0}]}
  - {name: ball, material: steel, shapes: [{type: sphere, radius: 0.01}], position: [0, 0, 0.0101]}
)";
  const fs::path out = fresh_dir("compliant-out");
  const fs::path missing = fresh_dir("compliant-missing") / kCheckpointFileName;
  auto message = [&](double every, const std::string& restart) {
    Scene scene = load_scene_text(kCompliant, "compliant-ball.yaml");
    RunOptions options;
    options.output_directory = out.string();
    options.scene_hash = scene_hash(scene.source, scene.model);
    options.checkpoint_every = every;
    options.restart = restart;
    try {
      (void)coulomb::run(scene.model, scene.state, options);
    } catch (const std::invalid_argument& e) {
      EXPECT_FALSE(fs::exists(out));
      for (const auto& entry : fs::directory_iterator(out.parent_path()))
        EXPECT_EQ(entry.path().filename().string().rfind("compliant-out.", 0), std::string::npos)
            << entry.path();
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string why =
      ": checkpoints and restarts are for the nonsmooth formulation only; this scene's "
      "solver.formulation is compliant, whose stick anchors and integrator history (it steps "
      "across the samples without restarting) a checkpoint does not hold, so a restart could not "
      "continue the run bit-identically";
  EXPECT_EQ(message(1e-3, ""), "--checkpoint-every" + why);
  // The checkpoint is not read (it does not exist): the formulation is refused first.
  EXPECT_EQ(message(0.0, missing.string()), "--restart" + why);
  EXPECT_EQ(message(1e-3, missing.string()), "--checkpoint-every/--restart" + why);
  EXPECT_EQ(message(1e-3, "").find('\n'), std::string::npos);
  // Without either, the same scene runs and writes its files.
  EXPECT_EQ(message(0.0, ""), "no error");
  EXPECT_TRUE(fs::exists(out / "summary.json"));
}

// Stops a run of `text` before each step of `stops`, checks its checkpoint against the stopped
// run's state (`check`), restarts from it, and expects the uninterrupted run's (`reference`, into
// `whole`) final state, `files` and summary, bit for bit.
template <std::size_t K, class Check>
void expect_restarts_continue(const std::string& text, const std::string& label,
                              const Ran& reference, const fs::path& whole,
                              std::initializer_list<std::int64_t> stops,
                              const char* const (&files)[K], Check check) {
  for (const std::int64_t stop : stops) {
    SCOPED_TRACE(fmt::format("stopped at step {}", stop));
    const fs::path first = fresh_dir(fmt::format("{}-first-{}", label, stop));
    const Ran stopped = run_scene(text, first, stop, 0.05);
    ASSERT_EQ(stopped.result.interrupted, "SIGINT");
    check(read_checkpoint((first / kCheckpointFileName).string()), stopped.state);
    const fs::path second = fresh_dir(fmt::format("{}-second-{}", label, stop));
    const Ran restarted = run_scene(text, second, -1, 0.0, (first / kCheckpointFileName).string());
    EXPECT_TRUE(restarted.result.restarted);
    EXPECT_EQ(state_bytes(restarted.state), state_bytes(reference.state));
    for (const char* name : files)
      EXPECT_TRUE(read(second / name) == read(whole / name)) << name << " differs";
    EXPECT_EQ(deterministic_summary(second), deterministic_summary(whole));
  }
}

// A scene with driven bodies, a force, dampers, a spring between bodies and joints (a hinge on a
// driven body, a string that goes taut) restarted from a checkpoint: every file (joints.csv and
// driven.csv included), the replay with its work plot, the summary and the final state are
// bit-identical to the uninterrupted run's. The checkpoint holds the actuation's works (format 3);
// the joints need nothing more (their rows start cold every step and a string's activation is
// decided from the positions).
TEST(Restart, ActuatedSceneWithJointsContinuesBitIdentically) {
  const fs::path whole = fresh_dir("actuated-whole");
  const Ran reference = run_scene(kActuated, whole, -1, 0.05);
  ASSERT_TRUE(reference.result.finite);
  // The run does what the test is for: the driven bodies, the force and the dampers all work,
  // the string pulls.
  const State& r = reference.state;
  EXPECT_GT(std::abs(r.driven_work_by_body[0]), 1e-4);
  EXPECT_GT(std::abs(r.driven_work_by_body[1]), 1e-4);
  EXPECT_GT(std::abs(r.force_work), 1e-4);
  EXPECT_GT(r.damping, 1e-6);
  EXPECT_NE(read(whole / "joints.csv").find(",string,"), std::string::npos);
  expect_restarts_continue(kActuated, "actuated", reference, whole, {1, 137, 140, 299},
                           kActuatedFiles, [](const Checkpoint& c, const State& stopped) {
                             EXPECT_EQ(c.state.driven_work, stopped.driven_work);
                             EXPECT_EQ(c.state.driven_work_by_body, stopped.driven_work_by_body);
                           });
}

// Sleeping islands (format 4): a stack that falls asleep at t = 0.3 s and is woken at ~0.45 s by
// a ball dropped on it, stopped before it sleeps, while it sleeps, just after it woke and after it
// slept again; the restarted runs' files, summary and final state are the uninterrupted run's.
TEST(Restart, SleepingIslandsContinueBitIdentically) {
  const std::string text = R"(
name: sleeping
time: {end: 0.8, step: 1.0e-3}
output: {every: 10}
solver: {sleep: {time: 0.1}}
default_contact: {friction: {law: coulomb, mu: 0.5}}
bodies:
  - {name: ground, fixed: true, shapes: [{type: plane}]}
  - {name: a, mass: 1, shapes: [{type: box, half_extents: [0.2, 0.2, 0.2]}], position: [0, 0, 0.2]}
  - {name: b, mass: 1, shapes: [{type: box, half_extents: [0.2, 0.2, 0.2]}], position: [0.02, 0, 0.6],
     orientation: {axis: [0, 0, 1], angle: 0.4}}
  - {name: ball, mass: 0.5, shapes: [{type: sphere, radius: 0.05}], position: [0.1, 0.05, 1.8]}
)";
  const fs::path whole = fresh_dir("sleeping-whole");
  const Ran reference = run_scene(text, whole, -1, 0.05);
  ASSERT_TRUE(reference.result.finite);
  // It slept, woke, and slept again.
  EXPECT_GT(reference.state.slept, 0.0);
  EXPECT_EQ(std::count(reference.state.asleep.begin(), reference.state.asleep.end(), 1), 3);
  expect_restarts_continue(text, "sleeping", reference, whole, {50, 200, 470, 700}, kFiles,
                           [](const Checkpoint& c, const State& stopped) {
                             EXPECT_EQ(c.state.asleep, stopped.asleep);
                             EXPECT_EQ(c.state.still_time, stopped.still_time);
                           });
}

// Format 2 files (written before the actuation's works were stored) still read: a checked-in
// one decodes with those works zero, which is their value (format 2 runs refused actuated
// scenes), and encodes again as the current format.
TEST(Checkpoint, ReadsFormat2Files) {
  const fs::path file =
      fs::path(COULOMB_SOURCE_DIR) / "tests/fuzz/corpus/checkpoint/billiard-spin-end.bin";
  const std::string bytes = read(file);
  ASSERT_GT(bytes.size(), 20u);
  ASSERT_EQ(bytes[16], 2);  // the file's format version
  const Checkpoint c = decode_checkpoint(bytes, "billiard-spin-end.bin");
  EXPECT_GT(c.state.step, 0);
  EXPECT_EQ(c.state.driven_work, 0.0);
  EXPECT_EQ(c.state.force_work, 0.0);
  EXPECT_EQ(c.state.damping, 0.0);
  EXPECT_TRUE(c.state.driven_work_by_body.empty());
  std::string again;
  encode_checkpoint(c, again);
  EXPECT_EQ(static_cast<std::uint32_t>(again[16]), kCheckpointVersion);
  const Checkpoint back = decode_checkpoint(again, "again");
  EXPECT_EQ(state_bytes(back.state), state_bytes(c.state));
  EXPECT_EQ(back.replay, c.replay);
}

// Format 5 files (written before the position stage's unclosed overlaps were counted) still read,
// with none counted; format 6 keeps them. The seeds of the fuzz corpus: a row of seven balls
// whose first step left a point out (format 5), and a row of five balls squeezed between walls
// 1 mm too close, which the position stage cannot close in any of its five steps (format 6).
TEST(Checkpoint, ReadsFormat5FilesAndFormat6KeepsTheUnclosedOverlaps) {
  const fs::path corpus = fs::path(COULOMB_SOURCE_DIR) / "tests/fuzz/corpus/checkpoint";
  const std::string five = read(corpus / "row-left-out-v5.bin");
  ASSERT_GT(five.size(), 20u);
  ASSERT_EQ(five[16], 5);
  const Checkpoint c5 = decode_checkpoint(five, "row-left-out-v5.bin");
  EXPECT_EQ(c5.stages.left_out, 1);
  EXPECT_EQ(c5.stages.unclosed_steps, 0);
  EXPECT_EQ(c5.stages.largest_unclosed_time, -1.0);
  const std::string six = read(corpus / "row-squeezed-v6.bin");
  ASSERT_GT(six.size(), 20u);
  ASSERT_EQ(six[16], 6);
  const Checkpoint c6 = decode_checkpoint(six, "row-squeezed-v6.bin");
  EXPECT_EQ(c6.stages.unclosed_steps, 5);
  EXPECT_GT(c6.stages.largest_unclosed, 1e-4);
  EXPECT_GT(c6.stages.largest_unclosed_time, 0.0);
  // Encoded again (as the current format) and read back: the same counts.
  std::string again;
  encode_checkpoint(c6, again);
  EXPECT_EQ(again, six);
  const Checkpoint back = decode_checkpoint(again, "again");
  EXPECT_EQ(back.stages.unclosed_steps, 5);
  EXPECT_EQ(back.stages.largest_unclosed, c6.stages.largest_unclosed);
}

// The step needs nothing but the State: for every built-in scene, stepping on from a state that
// went through a checkpoint file, in a new Simulation (a fresh workspace), gives the state of
// stepping on without stopping, bit for bit.
TEST(Restart, EveryBuiltinSceneStepsOnBitIdenticallyFromADecodedState) {
  for (const std::string_view name : builtin_scene_names()) {
    SCOPED_TRACE(std::string(name));
    const Scene scene = load_builtin_scene(name);
    Simulation whole(scene.model, scene.state);
    for (int k = 0; k < 60; ++k) whole.step();
    Checkpoint c;
    c.state = whole.state();
    std::string bytes;
    encode_checkpoint(c, bytes);
    Simulation resumed(scene.model, decode_checkpoint(bytes, "c").state);
    for (int k = 0; k < 60; ++k) {
      whole.step();
      resumed.step();
    }
    EXPECT_EQ(state_bytes(resumed.state()), state_bytes(whole.state()));
  }
}

}  // namespace
}  // namespace coulomb
