// Tests of the replay recorder and replay.html writer (src/io/replay.cpp): base64 and byte order,
// decimation (frame and byte bounds, even spacing, last frame kept), the data elements of the page
// (decoded back and compared with what was recorded), escaping, input checks, atomic write; the
// joints, springs and works of a run's replay.

#include <coulomb/io/replay.hpp>
#include <coulomb/io/run.hpp>
#include <coulomb/scene/scene.hpp>

#include "io/replay_detail.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace coulomb {
namespace {

// Decodes base64 (test-side, independent of the writer's encoder).
std::string unbase64(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const int v = value(c);
    if (v < 0) continue;  // '=' padding
    acc = (acc << 6) | std::uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xffu);
    }
  }
  return out;
}

// Little-endian floats back from bytes.
std::vector<float> floats(const std::string& bytes) {
  std::vector<float> out(bytes.size() / 4);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::uint32_t u = 0;
    for (int b = 0; b < 4; ++b) u |= std::uint32_t(std::uint8_t(bytes[4 * i + b])) << (8 * b);
    std::memcpy(&out[i], &u, 4);
  }
  return out;
}

// Text of the <script> element with this id in the page.
std::string element(const std::string& page, const std::string& id) {
  const std::string open = "id=\"" + id + "\">";
  const auto a = page.find(open);
  EXPECT_NE(a, std::string::npos) << id;
  if (a == std::string::npos) return {};
  const auto b = page.find("</script>", a);
  return page.substr(a + open.size(), b - a - open.size());
}

// A model: a fixed ground plane, then `n` moving spheres (and one box for the first).
Model make_model(int n) {
  Model model;
  model.name = "test scene";
  Body ground;
  ground.name = "ground";
  ground.fixed = true;
  model.bodies.push_back(ground);
  model.shapes.push_back(Shape{Plane{Vec3::UnitZ(), 0.0}, Pose{}});
  model.shape_body.push_back(0);
  for (int i = 0; i < n; ++i) {
    Body b;
    b.name = "ball" + std::to_string(i);
    b.mass = 1.0;
    model.bodies.push_back(b);
    model.shapes.push_back(Shape{Sphere{0.1}, Pose{Vec3(0, 0, 0.05), Quat::Identity()}});
    model.shape_body.push_back(i + 1);
  }
  return model;
}

// Frame k: body b at (b, k, 0.5) with identity rotation; one contact per frame.
ReplayFrame make_frame(const Model& model, int k) {
  ReplayFrame f;
  f.time = 0.01 * k;
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    for (float v : {float(b), float(k), 0.5f, 1.0f, 0.0f, 0.0f, 0.0f}) f.poses.push_back(v);
  }
  for (float v : {float(k), 0.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 9.81f, 0.f, 1.f, 0.25f, -2.f}) {
    f.contacts.push_back(v);
  }
  f.kinetic = k;
  f.potential = 2.0 * k;
  f.dissipated = 0.5 * k;
  return f;
}

TEST(ReplayBase64, Rfc4648Vectors) {
  // RFC 4648 §10 test vectors.
  using replay_detail::base64;
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foob"), "Zm9vYg==");
  EXPECT_EQ(base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST(ReplayBase64, FloatsAreLittleEndianIeee) {
  // 1.0f = 0x3f800000, -2.5f = 0xc0200000 (IEEE 754 binary32).
  const std::string bytes = replay_detail::le_bytes({1.0f, -2.5f});
  EXPECT_EQ(bytes, std::string("\x00\x00\x80\x3f\x00\x00\x20\xc0", 8));
}

TEST(ReplayRecorder, KeepsEverythingBelowTheBound) {
  const Model model = make_model(2);
  ReplayRecorder rec(model, 100);
  for (int k = 0; k < 50; ++k) rec.add_frame(make_frame(model, k));
  EXPECT_EQ(rec.frame_count(), 50u);
  EXPECT_EQ(rec.stride(), 1u);
  EXPECT_EQ(rec.frames_received(), 50u);
}

TEST(ReplayRecorder, DecimatesEvenlyAndKeepsTheLastFrame) {
  const Model model = make_model(2);
  const std::size_t max_frames = 10;
  ReplayRecorder rec(model, max_frames);
  for (int k = 0; k < 100; ++k) {
    rec.add_frame(make_frame(model, k));
    ASSERT_LE(rec.frame_count(), max_frames) << "after frame " << k;
  }
  // Kept: multiples of the stride, then the last frame (99).
  const auto meta = nlohmann::json::parse(element(rec.html(), "coulomb-replay-meta"));
  const auto times = meta["time"].get<std::vector<double>>();
  const std::size_t k = rec.stride();
  EXPECT_EQ(k, 16u);  // 100 frames into <= 9 evenly spaced slots + the last: 0, 16, ..., 96, 99
  ASSERT_EQ(times.size(), 8u);
  for (std::size_t i = 0; i + 1 < times.size(); ++i) EXPECT_NEAR(times[i], 0.01 * k * i, 1e-12);
  EXPECT_NEAR(times.back(), 0.99, 1e-12);
  EXPECT_EQ(meta["stride"], k);
  EXPECT_EQ(meta["frames_received"], 100);
}

TEST(ReplayRecorder, RespectsTheByteBound) {
  // 1000 moving bodies: 28 000 bytes of poses + 52 bytes of contacts per frame.
  const Model model = make_model(1000);
  const std::size_t max_bytes = 1 << 20;
  ReplayRecorder rec(model, 1000, max_bytes);
  for (int k = 0; k < 200; ++k) rec.add_frame(make_frame(model, k));
  const std::size_t per_frame = 4 * (1000 * 7 + 13);
  EXPECT_LE(rec.frame_count() * per_frame, max_bytes);
  EXPECT_GE(rec.frame_count() * per_frame * 4, max_bytes);  // a halving keeps half: >= 1/4 used
  EXPECT_GE(rec.frame_count(), 3u);
}

TEST(ReplayRecorder, DataElementsDecodeToTheRecordedFrames) {
  const Model model = make_model(3);
  ReplayRecorder rec(model, 1000);
  for (int k = 0; k < 5; ++k) rec.add_frame(make_frame(model, k));
  const std::string page = rec.html();

  // Metadata: bodies, moving list, shapes with their numbers, per-frame scalars.
  const auto meta = nlohmann::json::parse(element(page, "coulomb-replay-meta"));
  EXPECT_EQ(meta["format"], "coulomb-replay");
  EXPECT_EQ(meta["body_names"].size(), 4u);
  EXPECT_EQ(meta["body_fixed"][0], 1);
  EXPECT_EQ(meta["moving"], nlohmann::json({1, 2, 3}));
  EXPECT_EQ(meta["shapes"][0]["kind"], "plane");
  EXPECT_EQ(meta["shapes"][0]["normal"], nlohmann::json({0.0, 0.0, 1.0}));
  EXPECT_EQ(meta["shapes"][1]["kind"], "sphere");
  EXPECT_EQ(meta["shapes"][1]["radius"], 0.1);
  EXPECT_EQ(meta["shapes"][1]["pose"], nlohmann::json({0.0, 0.0, 0.05, 1.0, 0.0, 0.0, 0.0}));
  EXPECT_EQ(meta["shapes"][3]["body"], 3);
  EXPECT_EQ(meta["frame_count"], 5);
  EXPECT_EQ(meta["potential"][4], 8.0);

  // Poses: moving bodies only, frame-major; base poses: every body, from the first frame.
  const auto poses = floats(unbase64(element(page, "coulomb-replay-poses")));
  ASSERT_EQ(poses.size(), 5u * 3u * 7u);
  EXPECT_EQ(poses[(4 * 3 + 2) * 7 + 0], 3.0f);  // frame 4, third moving body = body 3: x = 3
  EXPECT_EQ(poses[(4 * 3 + 2) * 7 + 1], 4.0f);  // y = frame index
  const auto base = floats(unbase64(element(page, "coulomb-replay-base-poses")));
  ASSERT_EQ(base.size(), 4u * 7u);
  EXPECT_EQ(base[0], 0.0f);
  EXPECT_EQ(base[3], 1.0f);

  // Contacts and their offsets (uint32 little-endian).
  const auto contacts = floats(unbase64(element(page, "coulomb-replay-contacts")));
  ASSERT_EQ(contacts.size(), 5u * kReplayContactStride);
  EXPECT_EQ(contacts[3 * 13 + 0], 3.0f);
  EXPECT_EQ(contacts[3 * 13 + 8], 9.81f);
  EXPECT_EQ(contacts[3 * 13 + 12], -2.0f);
  const std::string off = unbase64(element(page, "coulomb-replay-contact-offsets"));
  ASSERT_EQ(off.size(), 6u * 4u);
  EXPECT_EQ(std::uint8_t(off[5 * 4]), 5);
}

TEST(ReplayRecorder, NamesCannotBreakOutOfTheScriptElement) {
  Model model = make_model(1);
  model.bodies[1].name = "</script><script>alert(1)</script><!--";
  ReplayRecorder rec(model);
  rec.add_frame(make_frame(model, 0));
  const std::string page = rec.html();
  EXPECT_EQ(page.find("</script><script>alert"), std::string::npos);
  const auto meta = nlohmann::json::parse(element(page, "coulomb-replay-meta"));
  EXPECT_EQ(meta["body_names"][1], model.bodies[1].name);
}

TEST(ReplayRecorder, RejectsBadInput) {
  const Model model = make_model(2);
  EXPECT_THROW(ReplayRecorder(model, 2), std::invalid_argument);
  ReplayRecorder rec(model);
  ReplayFrame f = make_frame(model, 3);
  f.poses.pop_back();
  EXPECT_THROW(rec.add_frame(f), std::invalid_argument);
  f = make_frame(model, 3);
  f.contacts.push_back(0.0f);
  EXPECT_THROW(rec.add_frame(f), std::invalid_argument);
  rec.add_frame(make_frame(model, 3));
  EXPECT_THROW(rec.add_frame(make_frame(model, 2)), std::invalid_argument);  // time goes back
}

TEST(ReplayRecorder, WritesThroughATemporaryFile) {
  const Model model = make_model(1);
  ReplayRecorder rec(model);
  for (int k = 0; k < 3; ++k) rec.add_frame(make_frame(model, k));
  const auto dir = std::filesystem::path(COULOMB_BINARY_DIR) / "replay_test_out";
  std::filesystem::create_directories(dir);
  const auto path = (dir / "replay.html").string();
  rec.write(path);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), rec.html());
  EXPECT_THROW(rec.write((dir / "missing-dir" / "replay.html").string()), std::runtime_error);
}

TEST(ReplayRecorder, PageIsTheViewerOrTheMinimalPage) {
  const Model model = make_model(1);
  ReplayRecorder rec(model);
  rec.add_frame(make_frame(model, 0));
  const std::string page = rec.html();
  // The data is in the page exactly once, whichever page it is.
  EXPECT_NE(page.find("id=\"coulomb-replay-meta\""), std::string::npos);
  EXPECT_EQ(page.find("id=\"coulomb-replay-meta\""), page.rfind("id=\"coulomb-replay-meta\""));
  EXPECT_EQ(page.find("<!-- coulomb:replay-data -->"), std::string::npos);
  if (ReplayRecorder::viewer_available()) {
    EXPECT_NE(page.find("<script type=\"module\""), std::string::npos);
    EXPECT_EQ(page.find("src=\"http"), std::string::npos);  // no network
  } else {
    EXPECT_NE(page.find("viewer was not built"), std::string::npos);
  }
}

// A run's replay carries the joints, springs, driven bodies and works the page draws: each end
// is given in its body's frame (the frame of the page's poses, not the centre of mass), so the
// page's anchors, moved by the frame's Float32 poses, fall where the run's joints hold their
// bodies. The arm's centre of mass is off its frame's origin by 6 cm: an anchor given from the
// centre of mass instead would miss by that much.
TEST(ReplayRecorder, RunCarriesJointsSpringsAndWorksInTheBodyFrames) {
  constexpr const char* kScene = R"(
name: replay-joints
time: {end: 0.2, step: 1.0e-3}
output: {every: 10}
bodies:
  - {name: turntable, position: [0, 0, -0.05], motion: {angular_velocity: [0, 0, 2.0]},
     shapes: [{type: box, half_extents: [0.3, 0.3, 0.05]}]}
  - {name: arm, mass: 0.4, center_of_mass: [0.04, -0.03, 0.035], position: [1, 0, 1],
     angular_velocity: [0.5, 2.0, -1.0], shapes: [{type: box, half_extents: [0.2, 0.02, 0.02]}]}
  - {name: bob, mass: 0.1, position: [1.2, 0, 0.9], shapes: [{type: sphere, radius: 0.03}]}
joints:
  - {name: pin, type: hinge, bodies: [world, arm], anchor: [0.8, 0, 1], axis: [0.6, 0.8, 0]}
  - {name: socket, type: ball, bodies: [arm, bob], anchor: [1.2, 0, 1]}
springs:
  - {bodies: [bob, turntable], points: [[0, 0, 0.03], [0.2, 0, 0.05]], stiffness: 5, rest_length: 0.4}
)";
  Scene scene = load_scene_text(kScene, "replay-joints.yaml");
  RunOptions options;
  options.output_directory =
      (std::filesystem::path(COULOMB_BINARY_DIR) / "test-output" / "replay-joints").string();
  std::filesystem::remove_all(options.output_directory);
  (void)coulomb::run(scene.model, scene.state, options);
  std::ifstream in(std::filesystem::path(options.output_directory) / "replay.html");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string page = ss.str();
  const auto meta = nlohmann::json::parse(element(page, "coulomb-replay-meta"));
  EXPECT_EQ(meta["body_driven"], nlohmann::json({1, 0, 0}));
  EXPECT_TRUE(meta["actuated"].get<bool>());
  const State& s = scene.state;  // the final state: the last frame
  EXPECT_EQ(meta["driven_work"].back().get<double>(), s.driven_work);
  EXPECT_EQ(meta["damping"].back().get<double>(), s.damping);
  ASSERT_EQ(meta["joints"].size(), 2u);
  ASSERT_EQ(meta["springs"].size(), 1u);
  // The last frame's poses (moving bodies 0, 1, 2: every body here).
  const auto poses = floats(unbase64(element(page, "coulomb-replay-poses")));
  const std::size_t nf = meta["frame_count"].get<std::size_t>();
  ASSERT_EQ(poses.size(), nf * 3 * 7);
  auto world = [&](int b, const nlohmann::json& p) {
    const Vec3 local(p[0].get<double>(), p[1].get<double>(), p[2].get<double>());
    if (b < 0) return local;
    const float* x = poses.data() + ((nf - 1) * 3 + std::size_t(b)) * 7;
    return Vec3(Vec3(x[0], x[1], x[2]) + Quat(x[3], x[4], x[5], x[6]).normalized() * local);
  };
  // A joint's two ends coincide (the position stage holds them to ~1e-8 m), at the point the
  // run's own anchors give (x_WC + R r_B, double). Float32 poses 1-2 m from the origin: 1e-6 m.
  for (std::size_t j = 0; j < 2; ++j) {
    SCOPED_TRACE(scene.model.joints[j].name);
    const auto& mj = meta["joints"][j];
    const Joint& joint = scene.model.joints[j];
    const Vec3 expected =
        s.x_WC[std::size_t(joint.body2)] + s.q_WB[std::size_t(joint.body2)] * joint.r2_B;
    EXPECT_LT((world(mj["body1"], mj["anchor1"]) - expected).norm(), 1e-6);
    EXPECT_LT((world(mj["body2"], mj["anchor2"]) - expected).norm(), 1e-6);
  }
  EXPECT_EQ(meta["joints"][0]["type"], "hinge");
  EXPECT_EQ(meta["joints"][0]["anchor1"], nlohmann::json({0.8, 0.0, 1.0}));
  // The hinge's axis as body 2 carries it, against the world's (the hinge keeps them parallel).
  const auto& axis2 = meta["joints"][0]["axis2"];
  const Vec3 a2 =
      s.q_WB[1] * Vec3(axis2[0].get<double>(), axis2[1].get<double>(), axis2[2].get<double>());
  EXPECT_LT((a2 - Vec3(0.6, 0.8, 0)).norm(), 1e-6);
  // The spring's ends, in its bodies' frames: the bob's point and the turntable's.
  const auto& sp = meta["springs"][0];
  EXPECT_EQ(sp["body1"], 2);
  EXPECT_EQ(sp["body2"], 0);
  const Vec3 bob_point = s.x_WC[2] + s.q_WB[2] * Vec3(0, 0, 0.03);
  const Vec3 table_point = body_frame_pose(scene.model, s, 0).p + s.q_WB[0] * Vec3(0.2, 0, 0.05);
  EXPECT_LT((world(2, sp["point1"]) - bob_point).norm(), 1e-6);
  EXPECT_LT((world(0, sp["point2"]) - table_point).norm(), 1e-6);
}

}  // namespace
}  // namespace coulomb
