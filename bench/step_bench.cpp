// Step benchmark: the cost of one step of the whole pipeline (`step`) on a few scenes, for each
// time-stepping scheme, so that a scheme change is measured as a ratio in one process.
//
// Scenes (built in code, no files):
//   - pile_N:  N spheres (r = 5 cm, 0.1 kg) on a hexagonal-close-packed conical heap resting on a
//     plane, μ = 0.5, h = 1e-3 s, after 0.05 s of settling (its rim rolls off: a moving pile,
//     where the solve dominates; issue 10 measures larger piles against Bullet and MuJoCo);
//   - stack_10: ten unit cubes stacked on the ground, μ = 0.5, h = 1e-3 s;
//   - tumbling: one box spinning about a skew axis, bouncing and sliding on the ground (e = 0.3);
//   - rolling:  an ellipsoid rolling on the ground (one curved contact).
// Counters: sweeps per step (mean solver iterations), contacts per step.
//
// The file compiles against releases before the midpoint scheme too (the scheme argument is then
// ignored), which is how the "before" column of docs/benchmarks.md was measured.
#include <coulomb/world/world.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "scenes.hpp"

namespace coulomb {
namespace {

using bench::add;
using bench::add_ground;
using bench::box_inertia;
using bench::empty_scene;
using bench::Scene;

Scene pile(int n) { return bench::hcp_pile(n); }
Scene stack(int n) { return bench::tower(n); }

Scene tumbling() {
  Scene s = empty_scene(0.4, 0.3, 1e-3);
  add_ground(s);
  const Vec3 half(0.2, 0.1, 0.05);
  add(s, Box{half}, 2.0, box_inertia(2.0, half), Vec3(0, 0, 0.25),
      Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 0.5).normalized())), Vec3(1.0, 0.3, -0.5),
      Vec3(3.0, -7.0, 11.0));
  return s;
}

Scene rolling() {
  Scene s = empty_scene(1.0, 0.0, 1e-3);
  add_ground(s);
  const Vec3 axes(0.1, 0.08, 0.05), a2 = axes.cwiseProduct(axes);
  const Mat3 I = Vec3(a2.y() + a2.z(), a2.x() + a2.z(), a2.x() + a2.y()).asDiagonal() * 0.2;
  const Quat q(Eigen::AngleAxisd(0.3, Vec3(0.3, 1, 0.1).normalized()));
  const Vec3 n_B = q.conjugate() * Vec3(0, 0, -1);
  const Vec3 r = q * Vec3(a2.cwiseProduct(n_B) / std::sqrt(n_B.dot(a2.cwiseProduct(n_B))));
  const Vec3 w(0.5, 0.2, 3.0);
  add(s, Ellipsoid{axes}, 1.0, I, Vec3(0, 0, -r.z()), q, -w.cross(r), w);
  return s;
}

// Sets the scheme where the library has one (0: midpoint, 1: Moreau–Jean).
template <typename Settings>
void set_scheme(Settings& settings, int scheme) {
  if constexpr (requires { settings.scheme; }) {
    using Scheme = decltype(settings.scheme);  // dependent: compiles where it does not exist
    settings.scheme = scheme == 0 ? Scheme::midpoint : Scheme::moreau_jean;
    settings.position_correction = scheme == 0;
  }
}

template <Scene (*Make)()>
void run(benchmark::State& bs) {
  Scene s = Make();
  set_scheme(s.model.solver, static_cast<int>(bs.range(0)));
  s.model.finalize();
  Workspace ws;
  prepare(s.model, ws);
  // Warm up (fill the contact memory, let the pile start moving).
  for (int i = 0; i < 50; ++i) step(s.model, s.state, ws);
  double sweeps = 0.0, contacts = 0.0;
  std::int64_t steps = 0;
  for (auto _ : bs) {
    const StepReport& r = step(s.model, s.state, ws);
    sweeps += r.solver.iterations;
    contacts += r.active_contacts;
    ++steps;
  }
  bs.counters["sweeps"] = sweeps / static_cast<double>(std::max<std::int64_t>(steps, 1));
  bs.counters["contacts"] = contacts / static_cast<double>(std::max<std::int64_t>(steps, 1));
  bs.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}

Scene pile_200() { return pile(200); }
Scene stack_10() { return stack(10); }

BENCHMARK(run<pile_200>)->Name("pile_200")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(run<stack_10>)->Name("stack_10")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(run<tumbling>)->Name("tumbling")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(run<rolling>)->Name("rolling")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace coulomb

BENCHMARK_MAIN();
