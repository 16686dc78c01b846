// The activation passes of a step (world.cpp, stages/activate.cpp) on a problem that grows by
// layers: a square pyramid of spheres at rest on a floor, each sphere on the four below it with a
// gap g between them. In the free motion every sphere falls alike, so only the floor's points are
// active at first; each pass takes in the next layer, which the impulses of the layers below close.
// The solves made while points can still join are provisional: their answers only decide which
// points join, and each stops at kProvisionalIterations sweeps (stages.hpp). The step's answer is
// the final solve's, at the model's tolerance.
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "stages/stages.hpp"
#include "world/builders.hpp"

namespace coulomb {
namespace {

constexpr double kRadius = 0.05;  // [m]
constexpr double kMass = 0.1;     // [kg]
constexpr double kGap = 1e-7;     // between a sphere and each of the four below it [m]
constexpr int kBase = 5;          // spheres on an edge of the bottom layer (5 layers)
constexpr double kTolerance = 1e-10;

// Layer k (0 at the bottom) is a (kBase − k)² square grid of pitch 2R + g' with its spheres in the
// hollows of the layer below; the pitch and the height step make every sphere–sphere distance
// between layers 2R + g (the spheres of one layer are 2R + g' apart: g' > g, so they never join).
struct Pyramid {
  Model model = testing::make_model(3.0, 0.0, 1e-3, 1.0);  // μ = 3, no restitution, h = 1 ms
  State state;
  int sphere_contacts = 0;  // the sphere–sphere points of the pyramid
  Pyramid() {
    model.solver.tolerance = kTolerance;
    testing::add_body(model, state, {.name = "floor", .fixed = true}, {testing::plane_shape()});
    const double pitch = 2.0 * kRadius + 4.0 * kGap;
    const double d = 2.0 * kRadius + kGap;
    const double half_diagonal = pitch / std::sqrt(2.0);
    const double rise = std::sqrt(d * d - half_diagonal * half_diagonal);
    for (int k = 0; k < kBase; ++k) {
      const int n = kBase - k;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const Vec3 x((i + 0.5 * k) * pitch, (j + 0.5 * k) * pitch, kRadius + k * rise);
          testing::add_body(model, state,
                            {.name = std::to_string(state.x_WC.size()),
                             .mass = kMass,
                             .inertia_B = testing::solid_sphere_inertia(kMass, kRadius),
                             .x = x},
                            {testing::sphere_shape(kRadius)});
        }
      if (k > 0) sphere_contacts += 4 * n * n;
    }
    model.finalize();
  }
};

// The first step: the passes take the layers in one by one, every provisional solve stops at its
// cap (without it the four take 78 sweeps, more than four caps: checked), and the final solve
// reaches the model's tolerance with every point of the pyramid in its problem. μ = 3: every
// contact sticks, the pyramid stands (with μ = 0.5 its base spreads, and the final solves of
// such a heap stall above the tolerance with or without the cap: docs/benchmarks.md).
TEST(Passes, ProvisionalSolvesStopAtTheirCapAndTheStepAtTheTolerance) {
  Pyramid pyramid;
  Workspace ws;
  prepare(pyramid.model, ws);
  const StepReport& r = step(pyramid.model, pyramid.state, ws);
  const int floor_contacts = kBase * kBase;
  // Four layers join, one a pass (the default four passes): all of them in, none left out.
  EXPECT_EQ(r.activated, pyramid.sphere_contacts);
  EXPECT_EQ(r.active_contacts, floor_contacts + pyramid.sphere_contacts);
  EXPECT_EQ(r.left_out, 0);
  // A provisional solve before each pass: the layers are taken in from their answers.
  EXPECT_EQ(r.provisional_solves, 4);
  EXPECT_LE(r.provisional_iterations, r.provisional_solves * stages::kProvisionalIterations);
  EXPECT_GT(r.solver.iterations, r.provisional_iterations);
  EXPECT_EQ(r.solver.status, SolverStatus::converged);
  EXPECT_LE(r.solver.error, kTolerance);
  // The pyramid stands: every sphere at rest after the step. To 1e-9 m/s: the tolerance is
  // relative to ‖q‖ ≈ √145 g h ≈ 0.12 m/s, so the velocities left are ~1e-11 m/s.
  for (std::size_t b = 1; b < pyramid.state.v_WC.size(); ++b) {
    EXPECT_LT(pyramid.state.v_WC[b].norm(), 1e-9) << b;
    EXPECT_LT(pyramid.state.w_W[b].norm() * kRadius, 1e-9) << b;
  }
}

}  // namespace
}  // namespace coulomb
