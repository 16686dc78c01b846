// The activation passes of a step (world.cpp, stages/activate.cpp) on a problem that grows by
// layers: a square pyramid of spheres at rest on a floor, each sphere on the four below it with a
// gap g between them. In the free motion every sphere falls alike, so only the floor's points are
// active at first; each pass takes in the next layer, which the impulses of the layers below close.
// The solves made while points can still join are provisional: their answers only decide which
// points join, and each stops at kProvisionalIterations sweeps (stages.hpp). The step's answer is
// the final solve's, at the model's tolerance.
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
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

// The same in general 3-D motion: the pyramid turned about a tilted axis on a floor tilted by
// 0.2 rad (gravity has a component along it; μ = 3 holds it), and a ball on the floor, spinning
// about an axis that is not along its velocity, sliding sideways at 0.1 m/s as it closes on a
// corner sphere of the bottom layer at 0.05 m/s, 0.1 mm away. 40 steps with the cap, and 40 in
// budget mode with a budget never reached (there provisional solves are not capped): the final
// solves at the tolerance in both, the uncapped provisional solves above the cap (so the cap
// acts), the ball kept out of the corner sphere, and the two end states the same to 1e-12 m and
// 1e-10 m/s (measured: 2.3e-15 m, 6.8e-13 m/s): the cap changes the work, not the answer. (Struck
// at 0.3 m/s the pyramid's final solves stop above the tolerance in some steps, capped or not.)
TEST(Passes, CappedProvisionalSolvesGiveTheUncappedAnswerIn3D) {
  const Quat tilt(Eigen::AngleAxisd(0.2, Vec3(1.0, 2.0, 0.0).normalized()));
  const Quat q = tilt * Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()));
  const Vec3 n = tilt * Vec3::UnitZ();
  const Vec3 out = q * Vec3(-1.0, -0.6, 0.0).normalized();
  const auto run = [&](bool capped, State& end, int& over_cap) {
    Pyramid pyramid;
    Model& model = pyramid.model;
    model.shapes[0].geometry = Plane{n, 0.0};
    for (std::size_t b = 1; b < pyramid.state.x_WC.size(); ++b)
      pyramid.state.x_WC[b] = q * pyramid.state.x_WC[b];
    const Vec3 corner = pyramid.state.x_WC[1];  // a corner sphere of the bottom layer
    testing::add_body(model, pyramid.state,
                      {.name = "ball",
                       .mass = kMass,
                       .inertia_B = testing::solid_sphere_inertia(kMass, kRadius),
                       .x = corner + (2.0 * kRadius + 1e-4) * out,
                       .v = -0.05 * out + 0.1 * n.cross(out),
                       .w = Vec3(3.0, -2.0, 1.0)},
                      {testing::sphere_shape(kRadius)});
    if (!capped) model.solver.max_step_iterations = 1 << 30;
    model.finalize();
    Workspace ws;
    prepare(model, ws);
    over_cap = 0;
    for (int k = 0; k < 40; ++k) {
      const StepReport& r = step(model, pyramid.state, ws);
      ASSERT_TRUE(r.finite) << k;
      EXPECT_EQ(r.solver.status, SolverStatus::converged) << capped << " step " << k;
      EXPECT_LE(r.solver.error, kTolerance) << capped << " step " << k;
      if (r.provisional_iterations > r.provisional_solves * stages::kProvisionalIterations)
        ++over_cap;
    }
    end = pyramid.state;
  };
  State capped, uncapped;
  int over_capped = 0, over_uncapped = 0;
  run(true, capped, over_capped);
  run(false, uncapped, over_uncapped);
  EXPECT_GT(over_uncapped, 0);
  ASSERT_EQ(capped.x_WC.size(), uncapped.x_WC.size());
  double dx = 0, dv = 0;
  for (std::size_t b = 1; b < capped.x_WC.size(); ++b) {
    dx = std::max(dx, (capped.x_WC[b] - uncapped.x_WC[b]).norm());
    dv = std::max(dv, (capped.v_WC[b] - uncapped.v_WC[b]).norm());
    dv = std::max(dv, (capped.w_W[b] - uncapped.w_W[b]).norm() * kRadius);
  }
  EXPECT_LT(dx, 1e-12);
  EXPECT_LT(dv, 1e-10);
  // The ball struck and stayed outside the corner sphere: left alone it would have gone 1.9 mm
  // into it in the 40 steps (0.05 m/s against a gap of 0.1 mm).
  EXPECT_GT((capped.x_WC.back() - capped.x_WC[1]).norm(), 2.0 * kRadius - 1e-8);
}

// Under `auto`, a provisional solve that stops at its cap unconverged is not handed over to PROX
// (stages/solve.cpp) unless Newton is preferred: its answer only decides which points join. The
// pyramid with μ = 0.5, whose base spreads (three of its four provisional solves a step stop at
// their cap above 1e-4), in general 3-D motion: turned about a tilted axis on a floor tilted by
// 0.2 rad. Its first step under `auto` takes exactly the provisional sweeps of the same step under
// `nsgs` (the same solves from the same starts; a hand-over would add Newton iterations, a
// refusal counting one), and over 10 steps no provisional solve passes its cap.
TEST(Passes, ProvisionalSolvesUnderAutoStayWithNsgs) {
  const Quat tilt(Eigen::AngleAxisd(0.2, Vec3(1.0, 2.0, 0.0).normalized()));
  const Quat q = tilt * Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()));
  const auto tilted = [&](SolverKind kind) {
    auto pyramid = std::make_unique<Pyramid>();
    Model& model = pyramid->model;
    model.shapes[0].geometry = Plane{tilt * Vec3::UnitZ(), 0.0};
    for (std::size_t b = 1; b < pyramid->state.x_WC.size(); ++b)
      pyramid->state.x_WC[b] = q * pyramid->state.x_WC[b];
    model.contacts[0].friction.params["mu"] = 0.5;
    model.solver.kind = kind;
    model.finalize();
    return pyramid;
  };
  auto with_auto = tilted(SolverKind::automatic);
  auto with_nsgs = tilted(SolverKind::nsgs);
  Workspace ws_auto, ws_nsgs;
  prepare(with_auto->model, ws_auto);
  prepare(with_nsgs->model, ws_nsgs);
  const StepReport& first = step(with_nsgs->model, with_nsgs->state, ws_nsgs);
  ASSERT_EQ(first.provisional_solves, 4);
  // (Measured: 46 sweeps, 15, 15, 15 and 1. With the hand-over, the first step under `auto`
  // took more: the test fails, checked.)
  int handed_over = 0;  // final solves that `auto` handed over to PROX
  for (int k = 0; k < 10; ++k) {
    const StepReport& r = step(with_auto->model, with_auto->state, ws_auto);
    ASSERT_TRUE(r.finite) << k;
    EXPECT_FALSE(with_auto->state.prefer_newton) << k;
    EXPECT_LE(r.provisional_iterations, r.provisional_solves * stages::kProvisionalIterations) << k;
    if (k == 0) {
      EXPECT_EQ(r.provisional_solves, first.provisional_solves);
      EXPECT_EQ(r.provisional_iterations, first.provisional_iterations);
    }
    if (std::string(r.solver.method).find("prox") != std::string::npos) ++handed_over;
  }
  // The final solves of this problem are ones `auto` hands over (else the test proves nothing).
  EXPECT_GT(handed_over, 0);
}

}  // namespace
}  // namespace coulomb
