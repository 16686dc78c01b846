// Scene keys of issue 11: `motion` (driven bodies, tables from CSV files next to the scene),
// loads, damping, and both forms of `springs`; their errors, located.

#include <coulomb/scene/scene.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace coulomb {
namespace {

namespace fs = std::filesystem;

// A scene file and its tables in a fresh temporary folder.
struct Folder {
  fs::path dir;
  Folder() {
    dir =
        fs::temp_directory_path() /
        ("coulomb-actuation-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Folder() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

std::string message_of(const std::string& path) {
  try {
    (void)load_scene_file(path);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "loaded";
}

TEST(SceneActuation, DrivenBodyIsFixedAndStartsAtItsMotionsPose) {
  const Scene s = load_scene_text(R"(
bodies:
  - name: base
    position: [0, 0, 1]
    motion: {velocity: [0.1, 0, 0], sinusoid: {amplitude: [0, 0, 0.002], frequency: 25, phase: 0.5}}
    shapes: [{type: box, half_extents: [1, 1, 0.1]}]
  - {name: cart, mass: 2, force: [0, 0, -3], torque: [0, 0, 0.1], load_frame: body,
     force_point: [0.1, 0, 0], damping: {linear: 0.5, angular: 0.01},
     shapes: [{type: sphere, radius: 0.1}]}
)",
                                  "t.yaml");
  const Body& base = s.model.bodies[0];
  EXPECT_TRUE(base.fixed);
  EXPECT_TRUE(base.driven());
  EXPECT_EQ(base.motion.kind, BodyMotion::Kind::sinusoid);
  EXPECT_DOUBLE_EQ(s.state.x_WC[0].z(), 1.0 + 0.002 * std::sin(0.5));
  EXPECT_DOUBLE_EQ(s.state.v_WC[0].x(), 0.1);
  EXPECT_DOUBLE_EQ(s.state.v_WC[0].z(), 0.002 * 2 * kPi * 25 * std::cos(0.5));
  const BodyLoad& load = s.model.bodies[1].load;
  EXPECT_EQ(load.force, Vec3(0, 0, -3));
  EXPECT_TRUE(load.body_frame);
  EXPECT_TRUE(load.at_point);
  EXPECT_EQ(load.linear_damping, 0.5);
  EXPECT_EQ(load.angular_damping, 0.01);
  EXPECT_TRUE(s.model.has_actuation());
}

TEST(SceneActuation, MotionTableRelativeToTheSceneFile) {
  const Folder f;
  f.write("path.csv", "t,x,y,z,qw,qx,qy,qz\n0,0,0,0,1,0,0,0\n# a comment\n1,0.5,0,0,0,0,0,1\n");
  const std::string scene = f.write("scene.yaml", R"(
bodies:
  - {name: arm, motion: {table: path.csv}, shapes: [{type: box, half_extents: [1, 0.1, 0.1]}]}
)");
  const Scene s = load_scene_file(scene);
  const BodyMotion& m = s.model.bodies[0].motion;
  ASSERT_EQ(m.kind, BodyMotion::Kind::table);
  ASSERT_EQ(m.table->t.size(), 2u);
  EXPECT_EQ(m.table->d[1], Vec3(0.5, 0, 0));
  // Half a turn about z in 1 s.
  EXPECT_NEAR(driven_pose(m, 0.5).w_W.z(), kPi, 1e-12);
}

TEST(SceneActuation, LoadTableRelativeToTheSceneFile) {
  const Folder f;
  f.write("push.csv", "t,fx,fy,fz,tx,ty,tz\n0,0,0,0,0,0,0\n2,4,0,0,0,0,2\n");
  const std::string scene = f.write("scene.yaml", R"(
bodies:
  - {name: cart, mass: 1, load_table: push.csv, force: [0, 0, -1], shapes: [{type: sphere, radius: 0.1}]}
)");
  const Scene s = load_scene_file(scene);
  const BodyLoad& load = s.model.bodies[0].load;
  ASSERT_TRUE(load.table);
  // The table's linear interpolation added to the constant force.
  const Wrench w = load_wrench(load, 0.5, Quat::Identity(), Vec3::Zero());
  EXPECT_EQ(w.force, Vec3(1, 0, -1));
  EXPECT_EQ(w.torque, Vec3(0, 0, 0.5));
}

TEST(SceneActuation, TableErrorsNameTheKeyTheFileAndTheLine) {
  const Folder f;
  const std::string body =
      "bodies:\n  - {name: arm, motion: {table: path.csv}, shapes: [{type: sphere, radius: 1}]}\n";
  const std::string scene = f.write("scene.yaml", body);
  f.write("path.csv", "t,x,y,z\n0,0,0,0\n1,0,zero,0\n");
  EXPECT_EQ(message_of(scene), scene +
                                   ":2:33: error: bodies[0].motion.table: path.csv line 3: "
                                   "column 'y' is not a finite number: 'zero'");
  f.write("path.csv", "t,x,y,z\n0,0,0,0\n0,1,0,0\n");
  EXPECT_EQ(message_of(scene),
            scene +
                ":2:33: error: bodies[0].motion.table: path.csv line 3: time 0 must be after "
                "the row before (0)");
  f.write("path.csv", "t,x,y\n0,0,0\n1,1,0\n");
  EXPECT_EQ(message_of(scene),
            scene +
                ":2:33: error: bodies[0].motion.table: the table 'path.csv' must have the "
                "header 't, x, y, z' or 't, x, y, z, qw, qx, qy, qz' or 't, vx, vy, vz' or "
                "'t, vx, vy, vz, wx, wy, wz'");
  f.write("path.csv", "t,vx,vy,vz,wx,wy,wz\n0,0,0,0,0,0,1\n1,0,0,0,1,0,0\n");
  EXPECT_EQ(message_of(scene),
            scene +
                ":2:33: error: bodies[0].motion.table: path.csv line 3: the angular velocity "
                "turns its axis since the row before (a velocity table keeps w on one axis "
                "over each segment; add a row where it is zero, or use a pose table)");
}

TEST(SceneActuation, SpringsOfBothFormsAndBothFormulations) {
  const Scene s = load_scene_text(R"(
bodies:
  - {name: base, motion: {velocity: [0, 0, 0.1]}, shapes: [{type: sphere, radius: 0.1}]}
  - {name: a, mass: 1, shapes: [{type: sphere, radius: 0.1}]}
  - {name: b, mass: 1, shapes: [{type: sphere, radius: 0.1}]}
springs:
  - {body: a, point: [0, 0, 0.1], anchor: [0, 0, 2], stiffness: 10, rest_length: 0.5}
  - {bodies: [a, b], points: [[0, 0, 0], [0, 0, 0.1]], stiffness: 100, damping: 1, rest_length: 0.2}
  - {bodies: [world, b], points: [[1, 2, 3], [0, 0, 0]], stiffness: 5}
  - {bodies: [base, a], points: [[0, 0, 0], [0, 0, 0]], stiffness: 5}
)",
                                  "t.yaml");
  const auto& sp = s.model.springs;
  ASSERT_EQ(sp.size(), 4u);
  EXPECT_EQ(sp[0].body, 1);
  EXPECT_EQ(sp[0].body2, -1);
  EXPECT_EQ(sp[0].anchor_W, Vec3(0, 0, 2));
  EXPECT_EQ(sp[1].body, 1);
  EXPECT_EQ(sp[1].body2, 2);
  EXPECT_EQ(sp[1].point2_B, Vec3(0, 0, 0.1));
  EXPECT_EQ(sp[1].damping, 1.0);
  // The world's end is an anchor, and the pulled end is the free body.
  EXPECT_EQ(sp[2].body, 2);
  EXPECT_EQ(sp[2].body2, -1);
  EXPECT_EQ(sp[2].anchor_W, Vec3(1, 2, 3));
  EXPECT_EQ(sp[3].body, 1);
  EXPECT_EQ(sp[3].body2, 0);
}

TEST(SceneActuation, CompliantImplicitAnalyticJacobianRefusesDamping) {
  const std::string text = R"(
solver: {formulation: compliant, integrator: bdf}
default_contact: {normal: {law: linear, stiffness: 1.0e4}}
bodies:
  - {name: a, mass: 1, damping: {linear: 1}, shapes: [{type: sphere, radius: 0.1}]}
)";
  try {
    (void)load_scene_text(text, "t.yaml");
    ADD_FAILURE() << "loaded";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("t.yaml:5:5: error: bodies[0]: damping"),
              std::string::npos)
        << e.what();
  }
  // With difference quotients it loads.
  std::string ok = text;
  ok.replace(ok.find("bdf}"), 4, "bdf, jacobian: difference}");
  EXPECT_NO_THROW((void)load_scene_text(ok, "t.yaml"));
}

}  // namespace
}  // namespace coulomb
