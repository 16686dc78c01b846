// Model look-ups, output stride, inertia validity, and the invariant checks of finalize().

#include <coulomb/model/model.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

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
    m.solver.name = "newton";
    EXPECT_EQ(message(m),
              "Model::finalize: solver.name 'newton' is not a solver; use nsgs, prox or auto");
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
    m.solver.name = "prox";
    EXPECT_EQ(message(m),
              "Model::finalize: solver.name 'prox' cannot solve contacts with moments, and "
              "contacts[0] has rolling (the six-unknown problem is solved by NSGS only); use nsgs "
              "or auto");
    for (const char* ok : {"nsgs", "auto"}) {
      m.solver.name = ok;
      EXPECT_EQ(message(m), "") << ok;
    }
  }
  {
    Model m = small_model();
    m.default_contact.pivoting = LawSpec{"pivoting", {{"h", 0.001}}, {}, {}};
    m.solver.name = "prox";
    EXPECT_EQ(message(m),
              "Model::finalize: solver.name 'prox' cannot solve contacts with moments, and "
              "default_contact has pivoting (the six-unknown problem is solved by NSGS only); use "
              "nsgs or auto");
  }
  // Without moment laws PROX is fine.
  {
    Model m = small_model();
    m.solver.name = "prox";
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
