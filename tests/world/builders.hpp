#pragma once
// Small builders of models in code for the world tests (no scene files involved).
#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

#include <string>

namespace coulomb::testing {

struct BodyInit {
  std::string name;
  bool fixed = false;
  int material = 0;
  double mass = 1.0;
  Mat3 inertia_B = Mat3::Identity();
  Vec3 x = Vec3::Zero();
  Quat q = Quat::Identity();
  Vec3 v = Vec3::Zero();
  Vec3 w = Vec3::Zero();
};

/// A model with one material "m" and one contact spec (μ, e_n) for m–m.
inline Model make_model(double mu, double restitution, double h, double end) {
  Model model;
  model.name = "test";
  model.time_step = h;
  model.end_time = end;
  model.materials.push_back(Material{"m"});
  ContactSpec spec;
  spec.material1 = 0;
  spec.material2 = 0;
  spec.friction.params["mu"] = mu;
  spec.normal.params["restitution"] = restitution;
  model.contacts.push_back(spec);
  return model;
}

/// Appends a body with shapes (pose_BS relative to the body frame; the centre of mass is the body
/// origin) and its initial state.
inline int add_body(Model& model, State& state, const BodyInit& init, std::vector<Shape> shapes) {
  Body body;
  body.name = init.name;
  body.fixed = init.fixed;
  body.material = init.material;
  body.mass = init.fixed ? 0.0 : init.mass;
  body.inertia_B = init.fixed ? Mat3::Zero() : init.inertia_B;
  body.first_shape = static_cast<int>(model.shapes.size());
  body.shape_count = static_cast<int>(shapes.size());
  const int index = static_cast<int>(model.bodies.size());
  for (auto& s : shapes) {
    model.shapes.push_back(s);
    model.shape_body.push_back(index);
  }
  model.bodies.push_back(body);
  state.x_WC.push_back(init.x);
  state.q_WB.push_back(init.q);
  state.v_WC.push_back(init.fixed ? Vec3::Zero() : init.v);
  state.w_W.push_back(init.fixed ? Vec3::Zero() : init.w);
  return index;
}

inline Shape plane_shape(const Vec3& n = Vec3::UnitZ(), double offset = 0.0) {
  return Shape{Plane{n, offset}, Pose{}};
}
inline Shape sphere_shape(double r) { return Shape{Sphere{r}, Pose{}}; }
inline Shape box_shape(const Vec3& half) { return Shape{Box{half}, Pose{}}; }

inline Mat3 solid_sphere_inertia(double m, double r) {
  return Mat3::Identity() * (0.4 * m * r * r);
}
inline Mat3 box_inertia(double m, const Vec3& half) {
  const Vec3 e = 2.0 * half;
  return Vec3(m / 12.0 * (e.y() * e.y() + e.z() * e.z()),
              m / 12.0 * (e.x() * e.x() + e.z() * e.z()),
              m / 12.0 * (e.x() * e.x() + e.y() * e.y()))
      .asDiagonal();
}

}  // namespace coulomb::testing
