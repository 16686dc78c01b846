// The drift jump of NSGS (SolverOptions::drift_jump, scene key solver.drift_jump;
// src/nonsmooth/nsgs.cpp) in the time stepping: the moving pile of the peer benchmark
// (bench/scenes.hpp, drop_pile: 100 spheres falling into a box of four walls, μ = 0.5, h = 1 ms,
// a 3-D heap in which impacts, rolling, sliding and sticking mix). Its steps' solves drift (the
// sweeps move the impulses by the same step with the error standing still) and jump; the key
// turns it off; and the jumps, serial passes over the contacts, leave the result independent of
// the number of threads.
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "scenes.hpp"

namespace coulomb {
namespace {

constexpr int kSpheres = 100;
constexpr int kSteps = 500;  // 0.5 s: the fall, the impacts into the heap and its settling

struct PileRun {
  State state;
  long jumps = 0;
  int not_converged = 0;
  double rise_in_jump_steps =
      -1e300;  // largest rise of kinetic + potential energy in such a step [J]
  int jump_steps = 0;
};

// kSteps steps of the pile; `tune` sets the model's solver before finalize.
template <class Tune>
PileRun run_pile(Tune tune) {
  bench::Scene s = bench::drop_pile(kSpheres);
  tune(s.model.solver);
  s.model.finalize();
  Workspace ws;
  prepare(s.model, ws);
  PileRun run;
  const auto mechanical = [&] {
    const Energy e = energy(s.model, s.state);
    return e.kinetic + e.potential;
  };
  double before = mechanical();
  for (int k = 0; k < kSteps; ++k) {
    const StepReport& r = step(s.model, s.state, ws);
    EXPECT_TRUE(r.finite) << k;
    EXPECT_TRUE(std::isfinite(r.solver.error)) << k;
    run.jumps += r.solver.drift_jumps;
    const double after = mechanical();
    if (r.solver.drift_jumps > 0) {
      ++run.jump_steps;
      run.rise_in_jump_steps = std::max(run.rise_in_jump_steps, after - before);
    }
    before = after;
    if (r.active_contacts > 0 && r.solver.status != SolverStatus::converged) ++run.not_converged;
  }
  run.state = s.state;
  return run;
}

TEST(DriftJump, TheSceneKeyReachesTheStepsSolves) {
  const PileRun on = run_pile([](SolverSettings&) {});
  const PileRun off = run_pile([](SolverSettings& solver) { solver.drift_jump = false; });
  EXPECT_GT(on.jumps, 0);
  EXPECT_EQ(off.jumps, 0);
  // What the jumps are for: steps whose solve ends above the tolerance (measured: 2 of 500 with
  // 30 jumps, 19 without; the pile is chaotic, its counts move with the last bits of any answer,
  // but not by that margin).
  EXPECT_LT(on.not_converged, off.not_converged);
  RecordProperty("jumps", static_cast<int>(on.jumps));
  RecordProperty("jump_steps", on.jump_steps);
  // Where the answers came through jumps, the physics still holds in these 3-D impacts and
  // slides: with μ = 0.5 and no restitution the contacts only take energy out; the position stage
  // may add round-off (the peer benchmark's 1000-sphere pile: 1.7e-12 J a step at most), so the
  // kinetic + potential energy (~5 J) of a step with jumps may rise by 1e-9 J at most (measured:
  // it fell by 6.3e-3 J at least in each of the 15 such steps).
  EXPECT_GT(on.jump_steps, 0);
  EXPECT_LE(on.rise_in_jump_steps, 1e-9);
  RecordProperty("not_converged_on", on.not_converged);
  RecordProperty("not_converged_off", off.not_converged);
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(DriftJump, StepsAreBitIdenticalForOneTwoAndFourThreads) {
#ifndef _OPENMP
  GTEST_SKIP() << "built without OpenMP (COULOMB_OPENMP=OFF): one thread only";
#else
  const int threads_before = omp_get_max_threads();
  std::vector<PileRun> runs;
  for (const int threads : {1, 2, 4}) {
    omp_set_num_threads(threads);
    runs.push_back(run_pile([](SolverSettings& solver) {
      solver.parallel_colour_min = 1;  // every colour in parallel
      solver.parallel_loop_min = 1;    // every stage loop in parallel
    }));
  }
  omp_set_num_threads(threads_before);
  EXPECT_GT(runs[0].jumps, 0);  // else the test proves nothing about the jumps
  for (std::size_t t = 1; t < runs.size(); ++t) {
    EXPECT_EQ(runs[t].jumps, runs[0].jumps) << t;
    EXPECT_TRUE(same_bits(runs[t].state.x_WC, runs[0].state.x_WC)) << t;
    EXPECT_TRUE(same_bits(runs[t].state.q_WB, runs[0].state.q_WB)) << t;
    EXPECT_TRUE(same_bits(runs[t].state.v_WC, runs[0].state.v_WC)) << t;
    EXPECT_TRUE(same_bits(runs[t].state.w_W, runs[0].state.w_W)) << t;
  }
#endif
}

}  // namespace
}  // namespace coulomb
