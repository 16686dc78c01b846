// Results do not depend on the number of threads (issue 12: "all cores, deterministic"). The
// contact solve relaxes the contacts of one colour in parallel from kColorThreshold contacts on
// (src/nonsmooth/nsgs_loop.hpp): each body's velocity change is written by one contact of a
// colour, so the arithmetic is the same whatever the threads. The stages' loops over bodies,
// shapes, pairs, points and contacts run in parallel from parallel_loop_min items on, each item
// into its own slots, sums in a fixed order (here every loop, parallel_loop_min = 1). A cubic block
// of 12³ touching spheres with seeded random velocities on a floor (about 3000 active contacts,
// above the threshold; every colour relaxed in parallel, parallel_colour_min = 1), stepped 1, 2 and
// 4 threads: every pose and velocity bit for bit equal.
#include <coulomb/nonsmooth/factored_problem.hpp>
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "world/builders.hpp"

namespace coulomb {
namespace {

constexpr int kSide = 12;         // spheres per edge
constexpr double kRadius = 0.05;  // [m]
constexpr int kSteps = 2;
constexpr int kSweeps = 10;  // a cap: determinism does not need convergence

struct Block {
  Model model = testing::make_model(0.4, 0.0, 1e-3, 1.0);
  State state;
  // speed_scale: the largest initial speed component [m/s]; sleep_time: solver.sleep.time [s]
  // (0: no sleeping islands).
  explicit Block(double speed_scale = 0.2, double sleep_time = 0.0) {
    model.solver.sleep.enabled = sleep_time > 0.0;
    model.solver.sleep.time = sleep_time;
    model.solver.max_iterations = kSweeps;
    model.solver.kind = SolverKind::nsgs;  // the parallel sweep is what is tested
    model.solver.parallel_colour_min = 1;  // every colour in parallel (default: large ones only)
    model.solver.parallel_loop_min = 1;    // every stage loop in parallel (default: large ones)
    testing::add_body(model, state, {.name = "floor", .fixed = true}, {testing::plane_shape()});
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> speed(-speed_scale, speed_scale);
    for (int i = 0; i < kSide; ++i)
      for (int j = 0; j < kSide; ++j)
        for (int k = 0; k < kSide; ++k) {
          const Vec3 x(2 * kRadius * i, 2 * kRadius * j, kRadius + 2 * kRadius * k);
          const Vec3 v(speed(rng), speed(rng), speed(rng));
          testing::add_body(model, state,
                            {.name = std::to_string(state.x_WC.size()),
                             .mass = 0.1,
                             .inertia_B = testing::solid_sphere_inertia(0.1, kRadius),
                             .x = x,
                             .v = v},
                            {testing::sphere_shape(kRadius)});
        }
    model.finalize();
  }
};

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

#ifdef _OPENMP
// The end states of `run(state)` on 1, 2 and 4 threads (the thread count restored after).
template <class Run>
std::vector<State> end_states(Run run) {
  const int threads_before = omp_get_max_threads();
  std::vector<State> end;
  for (const int threads : {1, 2, 4}) {
    SCOPED_TRACE(threads);
    omp_set_num_threads(threads);
    end.push_back(run());
  }
  omp_set_num_threads(threads_before);
  return end;
}

// Poses and velocities bit for bit.
void expect_same_motion(const State& a, const State& b, std::size_t t) {
  EXPECT_TRUE(same_bits(a.x_WC, b.x_WC)) << t;
  EXPECT_TRUE(same_bits(a.q_WB, b.q_WB)) << t;
  EXPECT_TRUE(same_bits(a.v_WC, b.v_WC)) << t;
  EXPECT_TRUE(same_bits(a.w_W, b.w_W)) << t;
}
#endif

TEST(Threads, StepsAreBitIdenticalForOneTwoAndFourThreads) {
#ifndef _OPENMP
  GTEST_SKIP() << "built without OpenMP (COULOMB_OPENMP=OFF): one thread only";
#else
  const std::vector<State> end = end_states([] {
    Block block;
    Workspace ws;
    prepare(block.model, ws);
    for (int s = 0; s < kSteps; ++s) {
      const StepReport& r = step(block.model, block.state, ws);
      EXPECT_TRUE(r.finite);
      // The parallel colouring is in use (else the test proves nothing).
      if (s == 0) {
        EXPECT_GE(r.active_contacts, kColorThreshold);
      }
    }
    return block.state;
  });
  for (std::size_t t = 1; t < end.size(); ++t) {
    expect_same_motion(end[0], end[t], t);
    // The contact memory (the narrowphase's points in order, their impulses and frames).
    ASSERT_EQ(end[0].contacts.size(), end[t].contacts.size()) << t;
    for (std::size_t k = 0; k < end[0].contacts.size(); ++k) {
      const ContactMemory& a = end[0].contacts[k];
      const ContactMemory& b = end[t].contacts[k];
      EXPECT_TRUE(a.key == b.key && std::memcmp(&a.impulse, &b.impulse, sizeof a.impulse) == 0 &&
                  std::memcmp(&a.n_W, &b.n_W, sizeof a.n_W) == 0 &&
                  std::memcmp(&a.r1_W, &b.r1_W, sizeof a.r1_W) == 0)
          << t << " contact " << k;
    }
    EXPECT_EQ(std::memcmp(&end[0].dissipated, &end[t].dissipated, sizeof(double)), 0) << t;
  }
#endif
}

// The same with sleeping islands (the wake and sleep stages, the broadphase's masks, the kept
// contact memory): a block whose spheres move slower than the sleep threshold falls asleep after
// three steps; one sphere is then struck and wakes the block; every pose, velocity, island and
// still time is the same for 1, 2 and 4 threads.
TEST(Threads, SleepingIslandsAreBitIdenticalForOneTwoAndFourThreads) {
#ifndef _OPENMP
  GTEST_SKIP() << "built without OpenMP (COULOMB_OPENMP=OFF): one thread only";
#else
  const std::vector<State> end = end_states([] {
    Block block(1e-3, 3e-3);
    Workspace ws;
    prepare(block.model, ws);
    int slept = 0, woken = 0;
    for (int s = 0; s < 8; ++s) {
      if (s == 5) block.state.v_WC[1] = Vec3(0.3, 0.1, 0);
      const StepReport& r = step(block.model, block.state, ws);
      EXPECT_TRUE(r.finite);
      slept = std::max(slept, r.sleeping);
      woken += r.woken;
    }
    EXPECT_EQ(slept, kSide * kSide * kSide);  // the whole block slept
    EXPECT_EQ(woken, kSide * kSide * kSide);  // and woke
    return block.state;
  });
  for (std::size_t t = 1; t < end.size(); ++t) {
    expect_same_motion(end[0], end[t], t);
    EXPECT_TRUE(same_bits(end[0].asleep, end[t].asleep)) << t;
    EXPECT_TRUE(same_bits(end[0].still_time, end[t].still_time)) << t;
    EXPECT_EQ(std::memcmp(&end[0].slept, &end[t].slept, sizeof(double)), 0) << t;
  }
#endif
}

// A carpet: 50 × 50 spheres on the floor, one contact each, with seeded random velocities (each
// pressing into the floor) and spins about every axis (sliding, spinning, rolling). No two contacts
// share a dynamic body, so the coloured problem (2500 contacts, above kColorThreshold) has one
// colour, relaxed in parallel; the broadphase tests 2501 shapes against the floor on every core,
// and the solver's error and the energy by kind are sums of per-contact terms added in contact
// order. Poses, velocities and every dissipated energy bit for bit equal on 1, 2 and 4 threads (at
// the default parallel thresholds: the ones a run uses).
TEST(Threads, ACarpetOfOneColourIsBitIdenticalForOneTwoAndFourThreads) {
#ifndef _OPENMP
  GTEST_SKIP() << "built without OpenMP (COULOMB_OPENMP=OFF): one thread only";
#else
  constexpr int kCarpet = 50;
  const std::vector<State> end = end_states([] {
    Model model = testing::make_model(0.4, 0.0, 1e-3, 1.0);
    State state;
    model.solver.max_iterations = kSweeps;
    testing::add_body(model, state, {.name = "floor", .fixed = true}, {testing::plane_shape()});
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> speed(-0.3, 0.3);
    for (int i = 0; i < kCarpet; ++i)
      for (int j = 0; j < kCarpet; ++j) {
        const Vec3 x(2.2 * kRadius * i, 2.2 * kRadius * j, kRadius);
        testing::add_body(model, state,
                          {.name = std::to_string(state.x_WC.size()),
                           .mass = 0.1,
                           .inertia_B = testing::solid_sphere_inertia(0.1, kRadius),
                           .x = x,
                           .v = Vec3(speed(rng), speed(rng), -0.2 * std::abs(speed(rng))),
                           .w = Vec3(10 * speed(rng), 10 * speed(rng), 10 * speed(rng))},
                          {testing::sphere_shape(kRadius)});
      }
    model.finalize();
    Workspace ws;
    prepare(model, ws);
    for (int s = 0; s < 3; ++s) {
      const StepReport& r = step(model, state, ws);
      EXPECT_TRUE(r.finite);
      if (s == 0) {
        EXPECT_GE(r.active_contacts, kColorThreshold);
      }
    }
    return state;
  });
  for (std::size_t t = 1; t < end.size(); ++t) {
    expect_same_motion(end[0], end[t], t);
    EXPECT_EQ(std::memcmp(&end[0].dissipated, &end[t].dissipated, sizeof(double)), 0) << t;
    EXPECT_EQ(std::memcmp(end[0].dissipated_by_kind.data(), end[t].dissipated_by_kind.data(),
                          sizeof end[0].dissipated_by_kind),
              0)
        << t;
  }
#endif
}

// The model's default colour threshold is the solver's (model.hpp cannot include the nonsmooth
// layer, so the number is written twice).
TEST(Threads, TheModelsColourThresholdIsTheSolversDefault) {
  EXPECT_EQ(SolverSettings{}.parallel_colour_min, kParallelColourMin);
  EXPECT_EQ(SolverOptions{}.parallel_colour_min, kParallelColourMin);
}

}  // namespace
}  // namespace coulomb
