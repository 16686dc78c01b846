// Drops a ball on a plane with the installed library and checks that it comes to rest on it.
#include <coulomb/world/world.hpp>

#include <cmath>
#include <cstdio>

int main() {
  using namespace coulomb;
  Model model;
  model.time_step = 1e-3;
  State state;
  Body ground;
  ground.name = "ground";
  ground.fixed = true;
  ground.shape_count = 1;
  model.shapes.push_back(Shape{Plane{Vec3::UnitZ(), 0.0}, Pose{}});
  model.shape_body.push_back(0);
  model.bodies.push_back(ground);
  Body ball;
  ball.name = "ball";
  ball.mass = 1.0;
  ball.inertia_B = Mat3::Identity() * 0.004;
  ball.first_shape = 1;
  ball.shape_count = 1;
  model.shapes.push_back(Shape{Sphere{0.1}, Pose{}});
  model.shape_body.push_back(1);
  model.bodies.push_back(ball);
  state.x_WC = {Vec3::Zero(), Vec3(0, 0, 0.5)};
  state.q_WB = {Quat::Identity(), Quat::Identity()};
  state.v_WC = {Vec3::Zero(), Vec3::Zero()};
  state.w_W = {Vec3::Zero(), Vec3::Zero()};
  model.finalize();  // checks the model and compiles what the step reads
  Workspace ws;
  for (int i = 0; i < 2000; ++i) step(model, state, ws);
  const double z = state.x_WC[1].z();
  std::printf("ball height after 2 s: %.9f m\n", z);
  return std::abs(z - 0.1) < 1e-3 ? 0 : 1;
}
