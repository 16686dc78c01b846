// The typed, located node reader: 1-based locations, type and range errors, suggestions.

#include "scene/yaml_reader.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace coulomb::scene_detail {
namespace {

Field root_field(const YAML::Node& n) { return Field{n, "", loc_of(n), loc_of(n)}; }

// The message of the SceneError thrown by f, or "" if none.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(YamlReader, LocationsAreOneBased) {
  const YAML::Node n = YAML::Load("a: 1\nbb:\n  c: [1, 2]\n");
  EXPECT_EQ(loc_of(n["a"]).line, 1);
  EXPECT_EQ(loc_of(n["a"]).column, 4);
  EXPECT_EQ(loc_of(n["bb"]["c"]).line, 3);
  EXPECT_EQ(loc_of(n["bb"]["c"]).column, 6);
}

TEST(YamlReader, ClosestAndJoin) {
  EXPECT_EQ(closest("masss", {"name", "mass", "density"}), "mass");
  EXPECT_EQ(closest("sphre", {"plane", "sphere"}), "sphere");
  EXPECT_EQ(closest("zzzzzz", {"mass", "name"}), "");
  EXPECT_EQ(join({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(child_path("", "x"), "x");
  EXPECT_EQ(child_path("a.b", "x"), "a.b.x");
}

TEST(YamlReader, Numbers) {
  const Reporter r("t.yaml");
  const YAML::Node n = YAML::Load("{a: 1.5e-3, b: '2', c: .nan, d: -.inf, e: x, f: 7, g: 7.5}");
  const MapView m(r, root_field(n));
  EXPECT_EQ(number(r, m.require("a")), 1.5e-3);
  EXPECT_EQ(error_of([&] { (void)number(r, m.require("b")); }),
            "t.yaml:1:16: error: b must be a number, got the quoted string \"2\"");
  EXPECT_EQ(error_of([&] { (void)number(r, m.require("c")); }),
            "t.yaml:1:24: error: c must be a finite number, got .nan");
  EXPECT_EQ(error_of([&] { (void)number(r, m.require("d")); }),
            "t.yaml:1:33: error: d must be a finite number, got -.inf");
  EXPECT_EQ(error_of([&] { (void)number(r, m.require("e")); }),
            "t.yaml:1:43: error: e must be a number, got 'x'");
  EXPECT_EQ(integer(r, m.require("f")), 7);
  EXPECT_EQ(error_of([&] { (void)integer(r, m.require("g")); }),
            "t.yaml:1:55: error: g must be an integer, got '7.5'");
  EXPECT_EQ(error_of([&] { (void)m.require("zz"); }),
            "t.yaml:1:1: error: the scene is missing the required key 'zz'");
}

TEST(YamlReader, MapKeys) {
  const Reporter r("t.yaml");
  const YAML::Node dup = YAML::Load("a: 1\nb: 2\na: 3\n");
  EXPECT_EQ(error_of([&] { const MapView m(r, root_field(dup)); }),
            "t.yaml:3:1: error: duplicate key 'a' in the scene (first given at line 1)");
  const YAML::Node n = YAML::Load("radius: 1\nradus: 2\n");
  const MapView m(r, root_field(n));
  EXPECT_EQ(error_of([&] {
              m.allow({"radius", "height"});
            }),
            "t.yaml:2:1: error: unknown key 'radus' in the scene (did you mean 'radius'?); valid "
            "keys: radius, height");
  EXPECT_EQ(error_of([&] { const MapView s(r, root_field(YAML::Load("[1, 2]"))); }),
            "t.yaml:1:1: error: the scene must be a map, got a sequence of 2 elements");
}

TEST(YamlReader, Vectors) {
  const Reporter r("t.yaml");
  const YAML::Node n = YAML::Load("{v: [1, 2, 3], w: [1, 2], x: 3}");
  const MapView m(r, root_field(n));
  EXPECT_EQ(vec3(r, m.require("v")), Vec3(1, 2, 3));
  EXPECT_EQ(error_of([&] { (void)vec3(r, m.require("w")); }),
            "t.yaml:1:19: error: w must be a sequence of 3 numbers [x, y, z], got a sequence of 2 "
            "elements");
  EXPECT_EQ(error_of([&] { (void)vec3(r, m.require("x")); }),
            "t.yaml:1:30: error: x must be a sequence of 3 numbers [x, y, z], got '3'");
}

TEST(YamlReader, Orientation) {
  const Reporter r("t.yaml");
  const YAML::Node n =
      YAML::Load("{q: [0, 0, 3, 4], z: [0, 0, 0, 0], aa: {axis: [0, 0, 5], angle: 0.5}}");
  const MapView m(r, root_field(n));
  const Quat q = orientation(r, m.require("q"));
  EXPECT_NEAR(q.y(), 0.6, 1e-16);
  EXPECT_NEAR(q.z(), 0.8, 1e-16);
  EXPECT_EQ(error_of([&] { (void)orientation(r, m.require("z")); }),
            "t.yaml:1:22: error: z is a zero quaternion; give a non-zero [w, x, y, z] (it is "
            "normalised), e.g. [1, 0, 0, 0]");
  const Quat a = orientation(r, m.require("aa"));
  EXPECT_NEAR(a.w(), std::cos(0.25), 1e-16);
  EXPECT_NEAR(a.z(), std::sin(0.25), 1e-16);
}

TEST(YamlReader, Ranges) {
  const Reporter r("t.yaml");
  const YAML::Node n = YAML::Load("{a: 0, b: -1e-9, c: 1.01, law: hertx}");
  const MapView m(r, root_field(n));
  EXPECT_EQ(error_of([&] { (void)positive(r, m.require("a"), 0.0); }),
            "t.yaml:1:5: error: a must be > 0, got 0");
  EXPECT_EQ(error_of([&] { (void)non_negative(r, m.require("b"), -1e-9); }),
            "t.yaml:1:11: error: b must be >= 0, got -1e-9");
  EXPECT_EQ(error_of([&] { (void)in_range(r, m.require("c"), 1.01, 0.0, 1.0); }),
            "t.yaml:1:21: error: c must be in [0, 1], got 1.01");
  EXPECT_EQ(non_negative(r, m.require("a"), 0.0), 0.0);
  EXPECT_EQ(error_of([&] {
              (void)one_of(r, m.require("law"), "law", {"hertz", "linear"});
            }),
            "t.yaml:1:32: error: law: unknown law 'hertx' (did you mean 'hertz'?); valid: hertz, "
            "linear");
}

}  // namespace
}  // namespace coulomb::scene_detail
