// Scene loading: good scenes give the expected Model and State (closed forms for mass properties),
// and every bad file of tests/scene/bad gives exactly the error written on its first line.

#include <coulomb/scene/scene.hpp>

#include <gtest/gtest.h>

#include "fuzz/regressions.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace coulomb {
namespace {

const std::string kSource = COULOMB_SOURCE_DIR;

// Relative comparison: mass properties are computed by a few products and sums of the inputs,
// so agreement to 1e-12 relative (a few thousand ulps of slack) is expected from correct code.
constexpr double kRel = 1e-12;

void expect_rel(double actual, double expected, double rel = kRel) {
  EXPECT_NEAR(actual, expected, rel * std::abs(expected)) << "expected " << expected;
}

void expect_mat_rel(const Mat3& actual, const Mat3& expected, double rel = kRel) {
  const double scale = expected.cwiseAbs().maxCoeff();
  EXPECT_LE((actual - expected).cwiseAbs().maxCoeff(), rel * scale) << actual << "\nvs\n"
                                                                    << expected;
}

// The billiard scene of the format's documentation, entry by entry.
TEST(Scene, BilliardModelAndState) {
  const Scene s = load_scene_file(kSource + "/scenes/billiard.yaml");
  const Model& m = s.model;
  EXPECT_EQ(m.name, "billiard");
  EXPECT_EQ(m.gravity, Vec3(0, 0, -9.81));
  EXPECT_EQ(m.end_time, 1.0);
  EXPECT_EQ(m.time_step, 1e-4);
  EXPECT_EQ(m.solver.formulation, Formulation::nonsmooth);
  EXPECT_EQ(m.solver.tolerance, 1e-12);
  EXPECT_EQ(m.solver.max_iterations, 200);
  EXPECT_EQ(m.output.every, 10);
  EXPECT_EQ(m.output.interval, 0.0);
  ASSERT_EQ(m.materials.size(), 2u);
  EXPECT_EQ(m.materials[0].name, "cloth");
  EXPECT_EQ(m.materials[1].name, "phenolic");
  ASSERT_EQ(m.contacts.size(), 1u);
  EXPECT_EQ(m.contacts[0].material1, 1);
  EXPECT_EQ(m.contacts[0].material2, 0);
  EXPECT_EQ(m.contacts[0].normal.law, "signorini");
  EXPECT_EQ(m.contacts[0].normal.get("restitution", -1), 0.0);
  EXPECT_EQ(m.contacts[0].friction.law, "coulomb");
  EXPECT_EQ(m.contacts[0].friction.get("mu", -1), 0.2);
  // Marks: 1-based line and column of each key (line 12 of the file: "    friction: {law: ...").
  EXPECT_EQ(m.contacts[0].friction.marks.at("mu").line, 12);
  EXPECT_EQ(m.contacts[0].friction.marks.at("mu").column, 30);
  EXPECT_EQ(m.contacts[0].friction.marks.at("").column, 15);

  ASSERT_EQ(m.bodies.size(), 2u);
  const Body& table = m.bodies[0];
  EXPECT_TRUE(table.fixed);
  EXPECT_EQ(table.mass, 0.0);
  EXPECT_EQ(table.inv_mass(), 0.0);
  const Body& ball = m.bodies[1];
  EXPECT_FALSE(ball.fixed);
  EXPECT_EQ(ball.mass, 0.17);
  EXPECT_EQ(ball.material, 1);
  // Solid sphere, mass given: I = 2/5 m R² about any axis through the centre.
  const double r = 0.028575;
  expect_mat_rel(ball.inertia_B, 0.4 * 0.17 * r * r * Mat3::Identity());
  EXPECT_EQ(ball.com_B, Vec3::Zero());
  ASSERT_EQ(m.shapes.size(), 2u);
  EXPECT_EQ(m.shape_body, (std::vector<int>{0, 1}));
  EXPECT_EQ(m.shapes[0].kind(), ShapeKind::plane);
  EXPECT_EQ(std::get<Sphere>(m.shapes[1].geometry).radius, r);
  EXPECT_EQ(&m.contact_spec(0, 1), &m.contacts[0]);

  const State& st = s.state;
  ASSERT_EQ(st.body_count(), 2u);
  EXPECT_EQ(st.x_WC[1], Vec3(0, 0, r));
  EXPECT_EQ(st.v_WC[1], Vec3(2, 0, 0));
  EXPECT_EQ(st.w_W[1], Vec3::Zero());
  EXPECT_EQ(st.v_WC[0], Vec3::Zero());
  EXPECT_EQ(st.time, 0.0);
  EXPECT_NE(s.source.find("name: billiard"), std::string::npos);
}

// The same scene written in JSON gives the same model.
TEST(Scene, JsonLoadsLikeYaml) {
  const Scene y = load_scene_file(kSource + "/scenes/billiard.yaml");
  const Scene j = load_scene_file(kSource + "/tests/scene/good/billiard.json");
  EXPECT_EQ(j.model.name, "billiard");
  EXPECT_EQ(j.model.time_step, y.model.time_step);
  EXPECT_EQ(j.model.output.every, y.model.output.every);
  ASSERT_EQ(j.model.bodies.size(), 2u);
  EXPECT_EQ(j.model.bodies[1].mass, y.model.bodies[1].mass);
  EXPECT_EQ(j.model.bodies[1].inertia_B, y.model.bodies[1].inertia_B);
  EXPECT_EQ(j.model.contacts[0].friction.get("mu", -1), 0.2);
  EXPECT_EQ(j.state.x_WC[1], y.state.x_WC[1]);
  EXPECT_EQ(j.state.v_WC[1], y.state.v_WC[1]);
}

// Defaults of a scene with one free body and nothing else.
TEST(Scene, DefaultsOfAMinimalScene) {
  const Scene s = load_scene_text(
      "bodies:\n"
      "  - name: b\n"
      "    shapes: [{type: sphere, radius: 1}]\n"
      "    mass: 2\n",
      "minimal.yaml");
  const Model& m = s.model;
  EXPECT_EQ(m.name, "minimal");
  EXPECT_EQ(m.gravity, Vec3(0, 0, -9.81));  // gravity default
  EXPECT_EQ(m.end_time, 1.0);
  EXPECT_EQ(m.time_step, 1e-3);
  // Output default: every 0.01 s, i.e. every 10 steps at h = 1e-3.
  EXPECT_EQ(m.output.every, 0);
  EXPECT_EQ(m.output.interval, 0.01);
  EXPECT_EQ(m.solver.formulation, Formulation::nonsmooth);
  EXPECT_EQ(m.solver.active_set, ActiveSetRule::predicted);
  EXPECT_EQ(m.solver.theta, 0.5);
  EXPECT_EQ(m.solver.scheme, TimeScheme::midpoint);
  EXPECT_TRUE(m.solver.position_correction);
  EXPECT_EQ(m.solver.position_tolerance, 1e-8);
  EXPECT_EQ(m.solver.activation_passes, 4);
  EXPECT_TRUE(m.materials.empty());
  EXPECT_TRUE(m.contacts.empty());
  EXPECT_EQ(m.bodies[0].material, -1);
  // Default contact: frictionless, perfectly inelastic Signorini contact.
  EXPECT_EQ(m.default_contact.normal.law, "signorini");
  EXPECT_EQ(m.default_contact.normal.get("restitution", -1), 0.0);
  EXPECT_EQ(m.default_contact.friction.law, "coulomb");
  EXPECT_EQ(m.default_contact.friction.get("mu", -1), 0.0);
  EXPECT_EQ(&m.contact_spec(0, 0), &m.default_contact);
  EXPECT_EQ(s.state.q_WB[0].coeffs(), Quat::Identity().coeffs());
  EXPECT_EQ(s.state.x_WC[0], Vec3::Zero());
}

// The time-stepping scheme and the position stage: Moreau–Jean turns the position stage off
// unless the scene asks for it (it reproduces Siconos' scheme), the midpoint scheme keeps it on.
TEST(Scene, SchemeAndPositionStage) {
  const char* body =
      "bodies:\n"
      "  - name: b\n"
      "    shapes: [{type: sphere, radius: 1}]\n"
      "    mass: 2\n";
  Scene s =
      load_scene_text(std::string("solver: {scheme: moreau_jean, theta: 0.7}\n") + body, "mj.yaml");
  EXPECT_EQ(s.model.solver.scheme, TimeScheme::moreau_jean);
  EXPECT_FALSE(s.model.solver.position_correction);
  EXPECT_EQ(s.model.solver.theta, 0.7);
  s = load_scene_text(
      std::string("solver: {scheme: moreau_jean, position_correction: true, position_tolerance: "
                  "1.0e-6, active_set: siconos}\n") +
          body,
      "mj2.yaml");
  EXPECT_TRUE(s.model.solver.position_correction);
  EXPECT_EQ(s.model.solver.position_tolerance, 1e-6);
  EXPECT_EQ(s.model.solver.active_set, ActiveSetRule::siconos);
  s = load_scene_text(
      std::string(
          "solver: {scheme: midpoint, position_correction: false, activation_passes: 0}\n") +
          body,
      "mp.yaml");
  EXPECT_EQ(s.model.solver.scheme, TimeScheme::midpoint);
  EXPECT_FALSE(s.model.solver.position_correction);
  EXPECT_EQ(s.model.solver.activation_passes, 0);
}

// A box of uniform density: m = ρ 8 a b c, I_xx = m (b² + c²)/3 etc. (half extents a, b, c).
TEST(Scene, BoxInertiaFromDensityMatchesClosedForm) {
  const Scene s = load_scene_text(
      "bodies:\n"
      "  - name: brick\n"
      "    density: 500\n"
      "    shapes: [{type: box, half_extents: [0.1, 0.2, 0.3]}]\n",
      "box.yaml");
  const Body& b = s.model.bodies[0];
  const double a = 0.1, bb = 0.2, c = 0.3, m = 500 * 8 * a * bb * c;
  expect_rel(b.mass, m);
  expect_mat_rel(b.inertia_B,
                 Vec3(m * (bb * bb + c * c) / 3, m * (a * a + c * c) / 3, m * (a * a + bb * bb) / 3)
                     .asDiagonal()
                     .toDenseMatrix());
  EXPECT_LE(b.com_B.norm(), 1e-15);
}

// Density taken from the material map when the body gives neither mass nor density.
TEST(Scene, DensityFromMaterial) {
  const Scene s = load_scene_text(
      "materials: [{name: steel, young_modulus: 2.1e11, poisson_ratio: 0.3, density: 7800}]\n"
      "bodies:\n"
      "  - {name: ball, material: steel, shapes: [{type: sphere, radius: 0.01}]}\n",
      "steel.yaml");
  const Material& mat = s.model.materials[0];
  EXPECT_EQ(mat.young_modulus, 2.1e11);
  EXPECT_EQ(mat.poisson_ratio, 0.3);
  EXPECT_EQ(mat.density, 7800);
  expect_rel(s.model.bodies[0].mass, 7800 * 4.0 / 3.0 * kPi * 1e-6);
}

// With a density, the centre of mass is the shapes' centroid; x_WC = p_WB + R_WB com_B.
// With a mass, the centre of mass defaults to the body origin and the inertia is the shapes'
// inertia about their own centroid scaled to the mass.
TEST(Scene, CentreOfMassShift) {
  const Scene s = load_scene_text(
      "gravity: [0, 0, 0]\n"
      "bodies:\n"
      "  - name: a\n"
      "    density: 1000\n"
      "    shapes: [{type: sphere, radius: 0.1, position: [0.3, 0, 0]}]\n"
      "    position: [1, 2, 3]\n"
      "    orientation: {axis: [0, 0, 1], angle: 1.5707963267948966}\n"
      "  - name: b\n"
      "    mass: 2\n"
      "    shapes: [{type: sphere, radius: 0.1, position: [0.3, 0, 0]}]\n"
      "    position: [1, 2, 3]\n"
      "  - name: c\n"
      "    mass: 2\n"
      "    center_of_mass: [0, 0, -0.05]\n"
      "    shapes: [{type: sphere, radius: 0.1}]\n"
      "    position: [1, 2, 3]\n"
      "    orientation: {axis: [1, 0, 0], angle: 3.141592653589793}\n",
      "com.yaml");
  const Model& m = s.model;
  EXPECT_LE((m.bodies[0].com_B - Vec3(0.3, 0, 0)).norm(), 1e-15);
  // A quarter turn about z maps the body x axis to the world y axis.
  EXPECT_LE((s.state.x_WC[0] - Vec3(1, 2.3, 3)).norm(), 1e-15);
  EXPECT_EQ(m.bodies[1].com_B, Vec3::Zero());
  EXPECT_EQ(s.state.x_WC[1], Vec3(1, 2, 3));
  expect_mat_rel(m.bodies[1].inertia_B, 0.4 * 2 * 0.01 * Mat3::Identity());
  // A half turn about x maps the body's (0, 0, -0.05) to (0, 0, +0.05).
  EXPECT_LE((s.state.x_WC[2] - Vec3(1, 2, 3.05)).norm(), 1e-15);
  // body_frame_pose gives the body frame back.
  const Pose X_WB = body_frame_pose(m, s.state, 2);
  EXPECT_LE((X_WB.p - Vec3(1, 2, 3)).norm(), 1e-15);
}

// Tippe top as two spheres of one density (R1 at the origin, R2 on the axis at distance d):
// com on the axis at z_c = m2 d / (m1 + m2); parallel axis: I_xx = Σ (2/5 m_i R_i² + m_i z_i²)
// with z_i measured from the com, I_zz = Σ 2/5 m_i R_i².
TEST(Scene, CompositeTwoSpheresParallelAxis) {
  const Scene s = load_scene_text(
      "bodies:\n"
      "  - name: tippe_top\n"
      "    density: 1100\n"
      "    shapes:\n"
      "      - {type: sphere, radius: 0.015}\n"
      "      - {type: sphere, radius: 0.005, position: [0, 0, 0.025]}\n",
      "tippe.yaml");
  const double rho = 1100, r1 = 0.015, r2 = 0.005, d = 0.025;
  const double m1 = rho * 4.0 / 3.0 * kPi * r1 * r1 * r1;
  const double m2 = rho * 4.0 / 3.0 * kPi * r2 * r2 * r2;
  const double zc = m2 * d / (m1 + m2);
  const double izz = 0.4 * (m1 * r1 * r1 + m2 * r2 * r2);
  const double ixx = izz + m1 * zc * zc + m2 * (d - zc) * (d - zc);
  const Body& b = s.model.bodies[0];
  expect_rel(b.mass, m1 + m2);
  EXPECT_LE((b.com_B - Vec3(0, 0, zc)).norm(), 1e-12 * zc);
  expect_mat_rel(b.inertia_B, Vec3(ixx, ixx, izz).asDiagonal().toDenseMatrix());
  EXPECT_EQ(s.model.shape_body, (std::vector<int>{0, 0}));
  EXPECT_EQ(b.first_shape, 0);
  EXPECT_EQ(b.shape_count, 2);
}

// Quaternions are normalised; axis-angle is accepted.
TEST(Scene, OrientationNormalised) {
  const Scene s = load_scene_text(
      "bodies:\n"
      "  - {name: a, mass: 1, inertia: [1, 1, 1], orientation: [2, 0, 0, 0]}\n"
      "  - {name: b, mass: 1, inertia: [1, 1, 1], orientation: [1, 1, 0, 0]}\n"
      "  - {name: c, mass: 1, inertia: [1, 1, 1], orientation: {axis: [2, 0, 0], angle: 1.0}}\n",
      "q.yaml");
  const auto& q = s.state.q_WB;
  EXPECT_EQ(q[0].coeffs(), Quat::Identity().coeffs());
  const double h = std::sqrt(0.5);
  EXPECT_NEAR(q[1].w(), h, 2e-16);
  EXPECT_NEAR(q[1].x(), h, 2e-16);
  EXPECT_NEAR(q[2].w(), std::cos(0.5), 1e-16);
  EXPECT_NEAR(q[2].x(), std::sin(0.5), 1e-16);
  for (const Quat& qi : q) EXPECT_NEAR(qi.norm(), 1.0, 1e-15);
}

// Inertia as a full matrix about the centre of mass; mass given, no shapes.
TEST(Scene, InertiaMatrixAndNoShapes) {
  const Scene s = load_scene_text(
      "bodies:\n"
      "  - name: a\n"
      "    mass: 3\n"
      "    inertia: [[2, 0.1, 0], [0.1, 3, 0], [0, 0, 4]]\n"
      "    velocity: [1, 2, 3]\n"
      "    angular_velocity: [4, 5, 6]\n",
      "m.yaml");
  Mat3 expected;
  expected << 2, 0.1, 0, 0.1, 3, 0, 0, 0, 4;
  EXPECT_EQ(s.model.bodies[0].inertia_B, expected);
  EXPECT_EQ(s.model.bodies[0].shape_count, 0);
  // The velocity is that of the centre of mass, the angular velocity is in the world frame.
  EXPECT_EQ(s.state.v_WC[0], Vec3(1, 2, 3));
  EXPECT_EQ(s.state.w_W[0], Vec3(4, 5, 6));
}

// Contact specs are found by material pair in either order; other pairs get the default.
TEST(Scene, ContactLookupEitherOrder) {
  const Scene s = load_scene_text(
      "materials: [a, b, c]\n"
      "default_contact: {friction: {law: coulomb, mu: 0.1}}\n"
      "contacts:\n"
      "  - between: [b, a]\n"
      "    friction: {law: coulomb, mu_s: 0.3, mu_k: 0.25}\n"
      "    rolling: {k: 0.001}\n"
      "  - between: [c, c]\n"
      "    normal: {law: hertz, stiffness: 1.0e9}\n"
      "    friction: {law: regularized, mu: 0.6, regularization: 1.0e-3, form: linear}\n"
      "    contensou: {model: exact, pressure: hertz, radius: 0.002}\n"
      "bodies:\n"
      "  - {name: ga, fixed: true, material: a}\n"
      "  - {name: gb, fixed: true, material: b}\n"
      "  - {name: gc, fixed: true, material: c}\n"
      "  - {name: free, fixed: true}\n",
      "pairs.yaml");
  const Model& m = s.model;
  EXPECT_EQ(m.contact_spec_index(0, 1), 0);
  EXPECT_EQ(m.contact_spec_index(1, 0), 0);
  EXPECT_EQ(m.contact_spec_index(2, 2), 1);
  EXPECT_EQ(m.contact_spec_index(0, 2), -1);
  EXPECT_EQ(&m.contact_spec(0, 1), &m.contacts[0]);
  EXPECT_EQ(&m.contact_spec(1, 0), &m.contacts[0]);
  EXPECT_EQ(&m.contact_spec(0, 2), &m.default_contact);
  EXPECT_EQ(&m.contact_spec(3, 1), &m.default_contact);
  EXPECT_EQ(m.default_contact.friction.get("mu", -1), 0.1);
  EXPECT_EQ(m.contacts[0].friction.get("mu_s", -1), 0.3);
  EXPECT_EQ(m.contacts[0].friction.get("mu_k", -1), 0.25);
  ASSERT_TRUE(m.contacts[0].rolling.has_value());
  EXPECT_EQ(m.contacts[0].rolling->law, "rolling");
  EXPECT_EQ(m.contacts[0].rolling->get("k", -1), 0.001);
  EXPECT_FALSE(m.contacts[0].pivoting.has_value());
  // Omitted normal law: Signorini with e = 0.
  EXPECT_EQ(m.contacts[0].normal.law, "signorini");
  EXPECT_EQ(m.contacts[1].normal.law, "hertz");
  EXPECT_EQ(m.contacts[1].normal.get("stiffness", -1), 1e9);
  EXPECT_EQ(m.contacts[1].friction.options.at("form"), "linear");
  ASSERT_TRUE(m.contacts[1].contensou.has_value());
  EXPECT_EQ(m.contacts[1].contensou->options.at("model"), "exact");
  EXPECT_EQ(m.contacts[1].contensou->options.at("pressure"), "hertz");
  EXPECT_EQ(m.contacts[1].contensou->get("radius", -1), 0.002);
  EXPECT_EQ(m.contacts[1].mark.line, 7);
}

// Every law of a contact is built by the laws module at load: a Hertz contact and a Contensou
// patch whose radius comes from Hertz theory load when the materials give E and ν.
TEST(Scene, LawsAreBuiltAtLoad) {
  const Scene s = load_scene_text(
      "materials:\n"
      "  - {name: steel, young_modulus: 2.1e11, poisson_ratio: 0.3}\n"
      "  - {name: glass, young_modulus: 6.3e10, poisson_ratio: 0.22}\n"
      "contacts:\n"
      "  - between: [steel, glass]\n"
      "    normal: {law: hertz}\n"
      "    friction: {law: coulomb, mu_s: 0.3, mu_k: 0.2}\n"
      "    contensou: {model: pade22, pressure: hertz, c3: 0.1, regularization: 1.0e-5}\n"
      "    rolling_resistance: {kappa: 0.1, regularization: 0.01}\n"
      "bodies:\n"
      "  - {name: ball, material: steel, shapes: [{type: sphere, radius: 0.01}], mass: 0.03}\n",
      "laws.yaml");
  ASSERT_EQ(s.model.contacts.size(), 1u);
  const ContactSpec& c = s.model.contacts[0];
  ASSERT_TRUE(c.contensou.has_value());
  EXPECT_EQ(c.contensou->get("c3", -1), 0.1);
  EXPECT_EQ(c.rolling_resistance->get("kappa", -1), 0.1);
}

// Fixed bodies: mass 0, zero twist, planes allowed.
// The solver and the laws must fit: PROX has no six-unknown solver, so prox with a moment law
// is rejected (tests/scene/bad/prox-*.yaml), while prox without moments and nsgs or auto with
// them load.
TEST(Scene, SolverFitsTheContactLaws) {
  const std::string laws =
      "materials: [a]\n"
      "contacts:\n"
      "  - between: [a, a]\n"
      "    friction: {law: coulomb, mu: 0.3}\n";
  const std::string body =
      "bodies:\n"
      "  - name: ball\n"
      "    material: a\n"
      "    shapes: [{type: sphere, radius: 0.1}]\n"
      "    mass: 1.0\n";
  EXPECT_EQ(load_scene_text("solver: {name: prox}\n" + laws + body, "x.yaml").model.solver.kind,
            SolverKind::prox);
  for (const char* name : {"nsgs", "auto"}) {
    const std::string text =
        std::string("solver: {name: ") + name + "}\n" + laws + "    rolling: {k: 0.001}\n" + body;
    EXPECT_STREQ(to_string(load_scene_text(text, "x.yaml").model.solver.kind), name);
  }
  try {
    (void)load_scene_text("solver: {name: prox}\n" + laws + "    rolling: {k: 0.001}\n" + body,
                          "x.yaml");
    FAIL() << "prox with rolling loaded";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), 1);
    EXPECT_NE(e.message().find("contacts[0].rolling (line 6)"), std::string::npos) << e.what();
  }
}

TEST(Scene, FixedBodies) {
  const Scene s = load_scene_text(
      "bodies:\n"
      "  - {name: ground, fixed: true, shapes: [{type: plane, normal: [0, 0, 2], offset: -1}],\n"
      "     position: [0, 0, 1], velocity: [0, 0, 0]}\n",
      "fixed.yaml");
  const Body& b = s.model.bodies[0];
  EXPECT_TRUE(b.fixed);
  EXPECT_EQ(b.mass, 0.0);
  EXPECT_EQ(b.inertia_B, Mat3::Zero());
  const Plane& p = std::get<Plane>(s.model.shapes[0].geometry);
  EXPECT_EQ(p.normal, Vec3(0, 0, 1));  // normalised
  EXPECT_EQ(p.offset, -1.0);
  EXPECT_EQ(s.state.x_WC[0], Vec3(0, 0, 1));
}

// Every shape type loads with its keys and its pose in the body.
TEST(Scene, AllShapeTypes) {
  const Scene s = load_scene_text(
      "bodies:\n"
      "  - name: all\n"
      "    density: 1000\n"
      "    shapes:\n"
      "      - {type: sphere, radius: 0.1}\n"
      "      - {type: box, half_extents: [0.1, 0.2, 0.3], position: [1, 0, 0]}\n"
      "      - {type: capsule, radius: 0.1, half_length: 0.2, position: [2, 0, 0]}\n"
      "      - {type: cylinder, radius: 0.1, half_length: 0.2, position: [3, 0, 0]}\n"
      "      - {type: ellipsoid, semi_axes: [0.1, 0.2, 0.3], position: [4, 0, 0]}\n"
      "      - {type: cone, radius: 0.1, height: 0.2, position: [5, 0, 0]}\n"
      "      - type: convex\n"
      "        points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]\n"
      "        position: [6, 0, 0]\n"
      "        orientation: [0, 0, 0, 1]\n",
      "shapes.yaml");
  const Model& m = s.model;
  ASSERT_EQ(m.shapes.size(), 7u);
  const ShapeKind kinds[] = {ShapeKind::sphere,   ShapeKind::box,       ShapeKind::capsule,
                             ShapeKind::cylinder, ShapeKind::ellipsoid, ShapeKind::cone,
                             ShapeKind::convex};
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(m.shapes[i].kind(), kinds[i]);
    EXPECT_EQ(m.shapes[i].pose_BS.p, Vec3(static_cast<double>(i), 0, 0));
  }
  EXPECT_EQ(std::get<Capsule>(m.shapes[2].geometry).half_length, 0.2);
  EXPECT_EQ(std::get<Cone>(m.shapes[5].geometry).height, 0.2);
  EXPECT_EQ(std::get<ConvexHull>(m.shapes[6].geometry).points.size(), 4u);
  // The hull proper is built (a tetrahedron: 4 vertices, 4 faces with their normals), so that the
  // narrowphase finds its faces for contact manifolds.
  EXPECT_EQ(std::get<ConvexHull>(m.shapes[6].geometry).vertices.size(), 4u);
  EXPECT_EQ(std::get<ConvexHull>(m.shapes[6].geometry).faces.size(), 4u);
  EXPECT_EQ(std::get<ConvexHull>(m.shapes[6].geometry).face_normals.size(), 4u);
  EXPECT_EQ(m.shapes[6].pose_BS.q.coeffs(), Quat(0, 0, 0, 1).coeffs());
  EXPECT_GT(m.bodies[0].mass, 0.0);
}

TEST(Scene, ErrorFormatAndAccessors) {
  try {
    (void)load_scene_text("bodies:\n  - {name: a, mass: -2, inertia: [1, 1, 1]}\n", "x.yaml");
    FAIL() << "no error";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.file(), "x.yaml");
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 21);
    EXPECT_EQ(e.message(), "bodies[0].mass must be > 0, got -2");
    EXPECT_EQ(std::string(e.what()), "x.yaml:2:21: error: bodies[0].mass must be > 0, got -2");
  }
}

TEST(Scene, MissingFileIsASceneError) {
  try {
    (void)load_scene_file("no/such/scene.yaml");
    FAIL() << "no error";
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()), "no/such/scene.yaml:1:1: error: cannot open the scene file");
  }
}

// The corpus of bad files: the first line of each is "# expect: LINE:COL: error: MESSAGE" and
// loading must throw exactly "PATH:LINE:COL: error: MESSAGE".
TEST(Scene, BadFilesGiveTheirExpectedMessage) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(kSource + "/tests/scene/bad")) {
    const auto ext = e.path().extension();
    if (ext == ".yaml" || ext == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 40u) << "the corpus of bad files is missing";
  const std::string prefix = "# expect: ";
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    ASSERT_EQ(first.rfind(prefix, 0), 0u) << "first line must be '# expect: ...'";
    const std::string expected = path.string() + ":" + first.substr(prefix.size());
    try {
      // What `coulomb run` checks: the file loads, and its laws fit its formulation.
      require_runnable(load_scene_file(path.string()));
      ADD_FAILURE() << "loaded without error";
    } catch (const SceneError& e) {
      EXPECT_EQ(std::string(e.what()), expected);
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line";
    }
  }
}

// A message quoting a scalar that holds line breaks (or other control characters) stays one line:
// they are escaped (found by tests/fuzz/scene_fuzz.cpp).
TEST(Scene, ErrorsQuotingLineBreaksStayOneLine) {
  auto message = [](const std::string& text) {
    try {
      (void)load_scene_text(text, "t.yaml");
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("bodies: \"a\\nb\\r\\u0001\"\n"),
            "t.yaml:1:9: error: bodies must be a sequence, got 'a\\nb\\r\\x01'");
  EXPECT_EQ(message("bodies: |\n  two\n  lines\n"),
            "t.yaml:1:9: error: bodies must be a sequence, got 'two\\nlines\\n'");
  try {
    (void)load_scene_text("bodies: 1\n", "a\nb.yaml");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()), "a\\nb.yaml:1:9: error: bodies must be a sequence, got '1'");
    EXPECT_EQ(e.message(), "bodies must be a sequence, got '1'");
    EXPECT_EQ(e.file(), "a\nb.yaml");
  }
}

// The inputs the scene fuzzer found (tests/data/fuzz/scene): each gives its expected one-line
// message, "PATH:" then the .expect line.
TEST(Scene, FuzzRegressionsGiveTheirExpectedMessage) {
  for (const auto& r : ::coulomb::testing::fuzz_regressions("scene")) {
    SCOPED_TRACE(r.path);
    try {
      require_runnable(load_scene_file(r.path));
      ADD_FAILURE() << "loaded without error";
    } catch (const SceneError& e) {
      EXPECT_EQ(std::string(e.what()), r.path + ":" + r.expect);
    }
  }
}

// Names are UTF-8 text (RFC 3629): well-formed names of 1 to 4 bytes per character load; a stray
// byte, an overlong form, a surrogate, a code point above U+10FFFF and a truncated sequence are
// rejected at the name, saying which byte.
TEST(Scene, NamesMustBeUtf8) {
  auto scene_with = [](const std::string& name) {
    return "bodies:\n  - name: \"" + name +
           "\"\n    mass: 1\n    shapes: [{type: sphere, radius: 1}]\n";
  };
  for (const std::string good :
       {"b", "b\xC3\xA9", "\xE2\x9C\x93", "\xF0\x9D\x84\x9E", "\xEF\xBF\xBD"})
    EXPECT_EQ(load_scene_text(scene_with(good), "utf8.yaml").model.bodies[0].name, good);
  for (const std::string bad : {"b\xFF", "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                "\xF5\x80\x80\x80", "\xE2\x82", "a\x80"}) {
    try {
      (void)load_scene_text(scene_with(bad), "utf8.yaml");
      ADD_FAILURE() << "accepted a name that is not UTF-8";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find("bodies[0].name must be UTF-8 text; byte"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace coulomb
