// Built-in scenes: every scenes/*.yaml is embedded, loads, and has the set-up its comment states.

#include <coulomb/scene/scene.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace coulomb {
namespace {

const std::string kScenes = std::string(COULOMB_SOURCE_DIR) + "/scenes";

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The embedded texts are the files, byte for byte; "default" is the tippe top.
TEST(BuiltinScenes, EmbedEveryExampleScene) {
  std::vector<std::string> stems;
  for (const auto& e : std::filesystem::directory_iterator(kScenes)) {
    if (e.path().extension() == ".yaml") stems.push_back(e.path().stem().string());
  }
  std::sort(stems.begin(), stems.end());
  const std::vector<std::string_view> names = builtin_scene_names();
  ASSERT_EQ(names.size(), stems.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(names[i], stems[i]);
    EXPECT_EQ(builtin_scene_text(names[i]), read(kScenes + "/" + stems[i] + ".yaml"));
  }
  EXPECT_EQ(builtin_scene_text("default"), builtin_scene_text("tippe-top"));
  for (const char* required :
       {"billiard", "billiard-spin", "incline-stick", "incline-slide", "bouncing-ball", "box-rest",
        "box-stack", "dzhanibekov", "spinning-top"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required;
  }
}

TEST(BuiltinScenes, UnknownNameListsTheValidOnes) {
  try {
    (void)builtin_scene_text("biliard");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("unknown built-in scene 'biliard'; valid: default, billiard", 0), 0u)
        << what;
  }
}

// Every example scene loads, from the file and from the embedded copy.
TEST(BuiltinScenes, AllLoad) {
  for (std::string_view name : builtin_scene_names()) {
    SCOPED_TRACE(std::string(name));
    Scene s;
    EXPECT_NO_THROW(s = load_builtin_scene(name));
    EXPECT_EQ(s.model.name, name);
    EXPECT_EQ(s.file, "builtin:" + std::string(name));
    EXPECT_NO_THROW((void)load_scene_file(kScenes + "/" + std::string(name) + ".yaml"));
  }
  EXPECT_EQ(load_builtin_scene("default").model.name, "tippe-top");
  // One definition of the alias: the text, the loader and its FILE all name the same scene.
  EXPECT_EQ(builtin_scene_name("default"), "tippe-top");
  EXPECT_EQ(builtin_scene_name("billiard"), "billiard");
  EXPECT_EQ(load_builtin_scene("default").file, "builtin:tippe-top");
}

TEST(BuiltinScenes, BouncingBallIsTheSiconosSetUp) {
  const Scene s = load_builtin_scene("bouncing-ball");
  const Model& m = s.model;
  EXPECT_EQ(m.time_step, 0.005);
  EXPECT_EQ(m.end_time, 10.0);
  EXPECT_EQ(m.solver.theta, 0.5);
  EXPECT_EQ(m.solver.active_set, ActiveSetRule::siconos);
  EXPECT_EQ(m.output.every, 1);
  EXPECT_EQ(m.contact_spec(0, 1).normal.get("restitution", -1), 0.9);
  EXPECT_EQ(m.contact_spec(0, 1).friction.get("mu", -1), 0.0);
  EXPECT_EQ(m.bodies[1].mass, 1.0);
  // Gap 1 m: the centre 1.1 m above the plane z = 0 for a 0.1 m ball.
  EXPECT_EQ(s.state.x_WC[1].z() - std::get<Sphere>(m.shapes[1].geometry).radius, 1.0);
}

// The incline scenes: the plane normal is tilted by α from z, the cube is turned by the same
// rotation (its bottom face lies on the plane) and its centre is half a side along the normal.
TEST(BuiltinScenes, InclinesAreTiltedConsistently) {
  struct Case {
    const char* name;
    double alpha_deg;
    double mu;
  };
  for (const Case c : {Case{"incline-stick", 20, 0.5}, Case{"incline-slide", 30, 0.3}}) {
    SCOPED_TRACE(c.name);
    const Scene s = load_builtin_scene(c.name);
    const double alpha = c.alpha_deg * kPi / 180;
    const Vec3 n = std::get<Plane>(s.model.shapes[0].geometry).normal;
    // The literals in the files have 16 digits: agreement to a few ulps.
    EXPECT_NEAR(std::acos(n.z()), alpha, 1e-15);
    EXPECT_LE((s.state.q_WB[1] * Vec3::UnitZ() - n).norm(), 1e-15);
    EXPECT_LE((s.state.x_WC[1] - 0.05 * n).norm(), 1e-16);
    EXPECT_EQ(s.model.contact_spec(0, 1).friction.get("mu", -1), c.mu);
    // Stick iff tan α ≤ μ.
    EXPECT_EQ(std::tan(alpha) <= c.mu, std::string(c.name) == "incline-stick");
  }
}

TEST(BuiltinScenes, BoxStackHasFiveUnitBoxes) {
  const Scene s = load_builtin_scene("box-stack");
  ASSERT_EQ(s.model.bodies.size(), 6u);
  for (std::size_t i = 1; i <= 5; ++i) {
    EXPECT_EQ(s.model.bodies[i].mass, 1.0);
    EXPECT_EQ(std::get<Box>(s.model.shapes[i].geometry).half_extents, Vec3(0.5, 0.5, 0.5));
    EXPECT_EQ(s.state.x_WC[i], Vec3(0, 0, static_cast<double>(i) - 0.5));
  }
  EXPECT_EQ(&s.model.contact_spec(1, 2), &s.model.contacts[1]);
}

// The Dzhanibekov box: the uniform box of mass 3 with these half extents has exactly the moments
// (1, 2, 2.8) written in the file (I_xx = m (b² + c²) / 3, ...): the scaled shape inertia agrees.
TEST(BuiltinScenes, DzhanibekovInertia) {
  const Scene s = load_builtin_scene("dzhanibekov");
  const Body& b = s.model.bodies[0];
  EXPECT_EQ(b.inertia_B, Vec3(1, 2, 2.8).asDiagonal().toDenseMatrix());
  EXPECT_EQ(s.model.gravity, Vec3::Zero());
  const Vec3 h = std::get<Box>(s.model.shapes[0].geometry).half_extents;
  const double m = b.mass;
  // 16-digit literals for the square roots: 1e-15 relative.
  EXPECT_NEAR(m * (h.y() * h.y() + h.z() * h.z()) / 3, 1.0, 1e-15);
  EXPECT_NEAR(m * (h.x() * h.x() + h.z() * h.z()) / 3, 2.0, 2e-15);
  EXPECT_NEAR(m * (h.x() * h.x() + h.y() * h.y()) / 3, 2.8, 3e-15);
  // Spin about the intermediate axis with a small perturbation.
  EXPECT_EQ(s.state.w_W[0], Vec3(0.01, 5.0, 0.0));
}

// The spinning top: mass from the material density (cone: ρ π r² h / 3), the apex on the ground,
// 200 rad/s about the symmetry axis.
TEST(BuiltinScenes, SpinningTop) {
  const Scene s = load_builtin_scene("spinning-top");
  const Body& b = s.model.bodies[1];
  const double r = 0.03, h = 0.04;
  EXPECT_NEAR(b.mass, 1200 * kPi * r * r * h / 3, 1e-12 * b.mass);
  // The cone's centroid is h/4 from the base; turned over, it lies h/4 above the body origin.
  EXPECT_LE((b.com_B - Vec3(0, 0, h / 4)).norm(), 1e-15);
  const Quat q = s.state.q_WB[1];
  const Vec3 axis = q * Vec3::UnitZ();
  const Vec3 p_WB = s.state.x_WC[1] - q * b.com_B;
  const Vec3 apex = p_WB + q * Vec3(0, 0, -h / 2);
  EXPECT_LE(apex.norm(), 1e-16);
  EXPECT_NEAR(s.state.w_W[1].norm(), 200.0, 1e-12);
  EXPECT_LE((s.state.w_W[1] - 200.0 * axis).norm(), 1e-12);
  EXPECT_NEAR(std::acos(axis.z()), 0.1, 1e-15);
}

}  // namespace
}  // namespace coulomb
