// Model look-ups, output stride, inertia validity, and the invariant checks of finalize().

#include <coulomb/model/model.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace coulomb {
namespace {

// Two free spheres and a fixed plane, three materials, one contact spec (b, a).
Model small_model() {
  Model m;
  m.materials = {Material{"a"}, Material{"b"}, Material{"c"}};
  ContactSpec c;
  c.material1 = 1;
  c.material2 = 0;
  c.friction.params["mu"] = 0.4;
  m.contacts.push_back(c);
  Body ground;
  ground.name = "ground";
  ground.fixed = true;
  ground.material = 2;
  ground.first_shape = 0;
  ground.shape_count = 1;
  Body s1;
  s1.name = "s1";
  s1.material = 0;
  s1.mass = 1.0;
  s1.inertia_B = 0.4 * Mat3::Identity();
  s1.first_shape = 1;
  s1.shape_count = 1;
  Body s2 = s1;
  s2.name = "s2";
  s2.material = 1;
  s2.first_shape = 2;
  m.bodies = {ground, s1, s2};
  m.shapes = {Shape{Plane{}, Pose{}}, Shape{Sphere{1.0}, Pose{}}, Shape{Sphere{1.0}, Pose{}}};
  return m;
}

TEST(Model, ContactSpecByMaterialPairEitherOrder) {
  const Model m = small_model();
  EXPECT_EQ(m.contact_spec_index(0, 1), 0);
  EXPECT_EQ(m.contact_spec_index(1, 0), 0);
  EXPECT_EQ(m.contact_spec_index(0, 0), -1);
  EXPECT_EQ(m.contact_spec_index(-1, 0), -1);
  EXPECT_EQ(&m.contact_spec(1, 2), &m.contacts[0]);
  EXPECT_EQ(&m.contact_spec(2, 1), &m.contacts[0]);
  EXPECT_EQ(&m.contact_spec(0, 1), &m.default_contact);
  EXPECT_EQ(m.contact_spec(2, 1).friction.get("mu", -1), 0.4);
}

// The compiled law table says what the spec says: the law of each material pair (either order,
// the default contact for pairs without an entry and for the default material), μ_s/μ_k and the
// restitutions, and the problem's size (six unknowns as soon as one law has moments).
TEST(Model, CompiledLawTableFollowsTheSpec) {
  Model m = small_model();
  ContactSpec cc;
  cc.material1 = 2;
  cc.material2 = 2;
  cc.friction.params = {{"mu_s", 0.6}, {"mu_k", 0.3}};
  cc.normal.params = {{"restitution", 0.5}, {"tangential_restitution", -0.2}};
  m.contacts.push_back(cc);
  m.default_contact.friction.params = {{"mu", 0.1}};
  m.finalize();
  const CompiledModel& c = m.compiled;
  EXPECT_TRUE(m.compiled_for_sizes());
  ASSERT_EQ(c.laws.size(), 3u);  // default, contacts[0], contacts[1]
  EXPECT_EQ(c.material_count, 3);
  EXPECT_EQ(c.law_index(0, 1), 1);
  EXPECT_EQ(c.law_index(1, 0), 1);
  EXPECT_EQ(c.law_index(2, 2), 2);
  for (const auto& [a, b] : {std::pair{0, 0}, {0, 2}, {2, 1}, {-1, 0}, {1, -1}, {-1, -1}})
    EXPECT_EQ(c.law_index(a, b), 0) << a << ", " << b;
  // μ = 0.4 is both coefficients; μ_s/μ_k and the restitutions as given; the default contact.
  EXPECT_EQ(c.laws[1].mu_s, 0.4);
  EXPECT_EQ(c.laws[1].mu_k, 0.4);
  EXPECT_EQ(c.laws[1].e_n, 0.0);
  EXPECT_EQ(c.laws[2].mu_s, 0.6);
  EXPECT_EQ(c.laws[2].mu_k, 0.3);
  EXPECT_EQ(c.laws[2].e_n, 0.5);
  EXPECT_EQ(c.laws[2].e_t, -0.2);
  EXPECT_EQ(c.laws[0].mu_s, 0.1);
  EXPECT_EQ(c.unknowns, kForce);
  // Bodies and shapes: I_B⁻¹ (fixed: 0), the fixed flag, the reach of a unit sphere at the
  // centre of mass (the corner of its bounding box: √3) and of a plane (unbounded).
  EXPECT_EQ(c.inv_inertia_B[0], Mat3::Zero());
  EXPECT_EQ(c.inv_inertia_B[1], Mat3(m.bodies[1].inertia_B.inverse()));
  EXPECT_EQ(c.shape_fixed, (std::vector<std::uint8_t>{1, 0, 0}));
  EXPECT_DOUBLE_EQ(c.shape_reach[1], std::sqrt(3.0));
  EXPECT_FALSE(std::isfinite(c.shape_reach[0]));
  // A moment law anywhere makes every contact a six-unknown one.
  m.contacts[1].rolling = LawSpec{"rolling", {{"k", 0.001}}, {}, {}};
  m.finalize();
  EXPECT_EQ(m.compiled.unknowns, kWrench);
  EXPECT_EQ(m.compiled.laws[2].k, 0.001);
  EXPECT_EQ(m.compiled.laws[1].k, 0.0);
  // Compiled for other sizes: a material added after finalize() is seen.
  m.materials.push_back(Material{"d"});
  EXPECT_FALSE(m.compiled_for_sizes());
}

// The settings print as the scene writes them.
TEST(Model, SettingNames) {
  EXPECT_STREQ(to_string(TimeScheme::midpoint), "midpoint");
  EXPECT_STREQ(to_string(TimeScheme::moreau_jean), "moreau_jean");
  EXPECT_STREQ(to_string(Formulation::nonsmooth), "nonsmooth");
  EXPECT_STREQ(to_string(Formulation::compliant), "compliant");
  EXPECT_STREQ(to_string(ActiveSetRule::predicted), "predicted");
  EXPECT_STREQ(to_string(ActiveSetRule::siconos), "siconos");
  EXPECT_STREQ(to_string(SolverKind::automatic), "auto");
}

TEST(Model, NamesAndDefaults) {
  const Model m = small_model();
  EXPECT_EQ(m.body_index("s2"), 2);
  EXPECT_EQ(m.body_index("nope"), -1);
  EXPECT_EQ(m.material_index("c"), 2);
  EXPECT_EQ(m.material_index("d"), -1);
  EXPECT_EQ(m.default_contact.normal.law, "signorini");
  EXPECT_EQ(m.default_contact.friction.get("mu", -1), 0.0);
}

TEST(Model, PhysicalInertia) {
  std::string why;
  EXPECT_TRUE(is_physical_inertia(Mat3::Identity()));
  // A thin plate saturates the triangle inequality: I_z = I_x + I_y exactly, and passes.
  EXPECT_TRUE(is_physical_inertia(Vec3(1.0, 2.0, 3.0).asDiagonal().toDenseMatrix()));
  // A rotated tensor with principal moments (1, 2, 2.8).
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  EXPECT_TRUE(is_physical_inertia(R * Vec3(1, 2, 2.8).asDiagonal() * R.transpose()));
  EXPECT_FALSE(is_physical_inertia(Vec3(1.0, 1.0, 2.1).asDiagonal().toDenseMatrix(), &why));
  EXPECT_EQ(why, "its principal moments (1, 1, 2.1) violate the triangle inequality I1 + I2 >= I3");
  EXPECT_FALSE(is_physical_inertia(Vec3(1.0, 0.0, 1.0).asDiagonal().toDenseMatrix(), &why));
  EXPECT_EQ(why, "its principal moments (0, 1, 1) are not all > 0");
  Mat3 asym = Mat3::Identity();
  asym(0, 1) = 0.1;
  EXPECT_FALSE(is_physical_inertia(asym, &why));
  EXPECT_EQ(why, "it is not symmetric");
  EXPECT_FALSE(is_physical_inertia(Mat3::Zero(), &why));
}

TEST(Model, FinalizeFillsShapeBody) {
  Model m = small_model();
  m.finalize();
  EXPECT_EQ(m.shape_body, (std::vector<int>{0, 1, 2}));
}

// finalize() rejects each broken invariant with a message naming it.
TEST(Model, FinalizeRejectsInvalidModels) {
  auto message = [](Model m) -> std::string {
    try {
      m.finalize();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  {
    Model m = small_model();
    m.bodies[1].mass = 0.0;
    EXPECT_EQ(message(m), "Model::finalize: body 's1' must have mass > 0");
  }
  {
    Model m = small_model();
    m.bodies[1].inertia_B(2, 2) = 2.0;
    EXPECT_EQ(
        message(m),
        "Model::finalize: body 's1': its principal moments (0.4, 0.4, 2) violate the triangle "
        "inequality I1 + I2 >= I3");
  }
  {
    Model m = small_model();
    m.shapes[1] = Shape{Plane{}, Pose{}};
    EXPECT_EQ(message(m),
              "Model::finalize: body 's1' is not fixed but has a plane (planes are unbounded: only "
              "fixed bodies)");
  }
  {
    Model m = small_model();
    m.bodies[2].first_shape = 1;
    EXPECT_EQ(message(m),
              "Model::finalize: body 's2' has shapes [1, 2) but shapes must be stored body by "
              "body, the next one starting at 2");
  }
  {
    Model m = small_model();
    m.bodies[0].material = 3;
    EXPECT_EQ(message(m),
              "Model::finalize: body 'ground' has material index 3 out of range [-1, 3)");
  }
  {
    Model m = small_model();
    m.time_step = 0.0;
    EXPECT_EQ(message(m), "Model::finalize: time_step must be > 0");
  }
  {
    Model m = small_model();
    m.bodies[2].shape_count = 0;
    EXPECT_EQ(message(m), "Model::finalize: shapes 2..3 belong to no body");
  }
  {
    Model m = small_model();
    m.solver.sleep.enabled = true;
    m.solver.formulation = Formulation::compliant;
    EXPECT_EQ(message(m),
              "Model::finalize: solver.sleep applies to the nonsmooth formulation only");
    m.solver.formulation = Formulation::nonsmooth;
    m.solver.sleep.time = 0.0;
    EXPECT_EQ(message(m),
              "Model::finalize: solver.sleep needs finite velocities >= 0 and a finite time > 0");
    m.solver.sleep.time = 0.5;
    m.solver.sleep.linear_velocity = -1.0;
    EXPECT_EQ(message(m),
              "Model::finalize: solver.sleep needs finite velocities >= 0 and a finite time > 0");
    m.solver.sleep.linear_velocity = 0.01;
    EXPECT_EQ(message(m), "");
  }
}

// PROX solves the three-unknown problem only: with a moment law in any contact spec it is an
// error, never a silent switch to NSGS. nsgs and auto accept the same model.
TEST(Model, FinalizeRejectsProxWithMomentLaws) {
  auto message = [](Model m) -> std::string {
    try {
      m.finalize();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  const LawSpec rolling{"rolling", {{"k", 0.001}}, {}, {}};
  {
    Model m = small_model();
    m.contacts[0].rolling = rolling;
    m.solver.kind = SolverKind::prox;
    EXPECT_EQ(message(m),
              "Model::finalize: solver.name 'prox' cannot solve contacts with moments, and "
              "contacts[0] has rolling (the six-unknown problem is solved by NSGS only); use nsgs "
              "or auto");
    for (const SolverKind ok : {SolverKind::nsgs, SolverKind::automatic}) {
      m.solver.kind = ok;
      EXPECT_EQ(message(m), "") << to_string(ok);
    }
  }
  {
    Model m = small_model();
    m.default_contact.pivoting = LawSpec{"pivoting", {{"h", 0.001}}, {}, {}};
    m.solver.kind = SolverKind::prox;
    EXPECT_EQ(message(m),
              "Model::finalize: solver.name 'prox' cannot solve contacts with moments, and "
              "default_contact has pivoting (the six-unknown problem is solved by NSGS only); use "
              "nsgs or auto");
  }
  // Without moment laws PROX is fine.
  {
    Model m = small_model();
    m.solver.kind = SolverKind::prox;
    EXPECT_EQ(message(m), "");
  }
}

TEST(Model, MomentLawNamesTheSection) {
  ContactSpec c;
  EXPECT_EQ(c.moment_law(), nullptr);
  c.contensou = LawSpec{"contensou", {}, {}, {}};
  EXPECT_STREQ(c.moment_law(), "contensou");
  c.soft_finger = LawSpec{"soft_finger", {{"radius", 0.01}}, {}, {}};
  EXPECT_STREQ(c.moment_law(), "soft_finger");
}

}  // namespace
}  // namespace coulomb
