// The step-loop driver (coulomb/world/simulation.hpp): whole steps to a time, the statistics of
// the steps taken, the stop on a non-finite state with its location, the warnings.
#include <coulomb/world/simulation.hpp>

#include <gtest/gtest.h>

#include <limits>

#include "world/builders.hpp"

namespace coulomb {
namespace {

using testing::add_body;

Simulation ball_on_floor(double vz = 0.0) {
  Model model = testing::make_model(0.3, 0.0, 1e-3, 0.5);
  State state;
  add_body(model, state, {.name = "floor", .fixed = true}, {testing::plane_shape()});
  add_body(model, state, {.name = "ball", .x = Vec3(0, 0, 0.2), .v = Vec3(0.5, 0, vz)},
           {testing::sphere_shape(0.1)});
  model.finalize();
  return Simulation(std::move(model), std::move(state));
}

TEST(Simulation, RunsWholeStepsToATimeAndCountsThem) {
  Simulation sim = ball_on_floor();
  EXPECT_EQ(sim.steps_to(0.25), 250);
  EXPECT_EQ(sim.steps_to(0.2504), 250);  // the nearest whole number of steps
  EXPECT_EQ(sim.steps_to(-1.0), 0);
  int calls = 0;
  EXPECT_EQ(sim.run_to(0.25, [&](const StepReport&) { ++calls; }), 250);
  EXPECT_EQ(calls, 250);
  EXPECT_EQ(sim.state().time, 0.25);  // compensated sum of the steps
  EXPECT_EQ(sim.steps(), 250);
  EXPECT_EQ(sim.state().step, 250);
  // The ball lands (0.1 m of free fall: 0.143 s) and then rests: solves in the statistics.
  EXPECT_GT(sim.solver_statistics().solves, 50);
  EXPECT_EQ(sim.solver_statistics().not_converged, 0);
  EXPECT_EQ(convergence_warning(sim.solver_statistics(), sim.steps()), "");
  EXPECT_EQ(rotation_warning(sim.step_statistics()), "");
  EXPECT_TRUE(sim.finite());
  sim.reset_statistics();
  EXPECT_EQ(sim.steps(), 0);
  EXPECT_EQ(sim.solver_statistics().solves, 0);
  // The same as stepping by hand with the engine's free function.
  Simulation by_step = ball_on_floor();
  Model model = by_step.model();
  State state = by_step.state();
  Workspace ws;
  for (int i = 0; i < 250; ++i) step(model, state, ws);
  EXPECT_EQ(state.x_WC[1], sim.state().x_WC[1]);
  EXPECT_EQ(state.w_W[1], sim.state().w_W[1]);
}

TEST(Simulation, StopsOnANonFiniteStateAndSaysWhere) {
  Simulation sim = ball_on_floor(-std::numeric_limits<double>::infinity());
  int calls = 0;
  EXPECT_EQ(sim.run_to(0.5,
                       [&](const StepReport& r) {
                         ++calls;
                         EXPECT_FALSE(r.finite);
                       }),
            1);
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(sim.finite());
  EXPECT_EQ(sim.non_finite(), "body 'ball': its position is not finite at t = 0.001 s (step 1)");
}

}  // namespace
}  // namespace coulomb
