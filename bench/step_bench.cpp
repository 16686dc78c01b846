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

namespace coulomb {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Scene {
  Model model;
  State state;
};

Scene empty_scene(double mu, double restitution, double h) {
  Scene s;
  s.model.name = "bench";
  s.model.time_step = h;
  s.model.end_time = 1e9;
  s.model.materials.push_back(Material{"m"});
  ContactSpec spec;
  spec.material1 = spec.material2 = 0;
  spec.friction.params["mu"] = mu;
  spec.normal.params["restitution"] = restitution;
  s.model.contacts.push_back(spec);
  return s;
}

int add(Scene& s, Geometry g, double mass, const Mat3& inertia, const Vec3& x, const Quat& q,
        const Vec3& v, const Vec3& w, bool fixed = false) {
  Body b;
  b.name = "b" + std::to_string(s.model.bodies.size());
  b.fixed = fixed;
  b.material = 0;
  b.mass = fixed ? 0.0 : mass;
  b.inertia_B = fixed ? Mat3::Zero() : inertia;
  b.first_shape = static_cast<int>(s.model.shapes.size());
  b.shape_count = 1;
  s.model.shapes.push_back(Shape{std::move(g), Pose{}});
  s.model.shape_body.push_back(static_cast<int>(s.model.bodies.size()));
  s.model.bodies.push_back(b);
  s.state.x_WC.push_back(x);
  s.state.q_WB.push_back(q);
  s.state.v_WC.push_back(fixed ? Vec3::Zero() : v);
  s.state.w_W.push_back(fixed ? Vec3::Zero() : w);
  return static_cast<int>(s.model.bodies.size()) - 1;
}

void add_ground(Scene& s) {
  add(s, Plane{Vec3::UnitZ(), 0.0}, 0, Mat3::Zero(), Vec3::Zero(), Quat::Identity(), Vec3::Zero(),
      Vec3::Zero(), true);
}

// The N sites of a conical HCP heap of spheres of radius r resting on z = 0 (repose 25°).
std::vector<Vec3> hcp_heap(int n, double r) {
  const double d = 2.0 * r, tan25 = 0.46630766;
  const double radius =
      1.3 * std::cbrt(3.0 * n * d * d * d / (std::sqrt(2.0) * kPi * tan25)) + 2 * d;
  const double dy = d * std::sqrt(3.0) / 2.0, dz = d * std::sqrt(2.0 / 3.0);
  const int nx = static_cast<int>(2 * radius / d) + 1, ny = static_cast<int>(2 * radius / dy) + 1;
  const int nz = static_cast<int>(radius * tan25 / dz) + 1;
  std::vector<Vec3> sites;
  std::vector<double> key;
  for (int k = 0; k < nz; ++k) {
    const double sx = (k % 2) * 0.5 * d, sy = (k % 2) * d / (2.0 * std::sqrt(3.0));
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const Vec3 p(-radius + (i + 0.5 * (j % 2)) * d + sx, -radius + j * dy + sy, r + k * dz);
        sites.push_back(p);
        key.push_back(p.z() + tan25 * std::hypot(p.x(), p.y()));
      }
  }
  std::vector<int> order(sites.size());
  std::iota(order.begin(), order.end(), 0);
  std::nth_element(order.begin(), order.begin() + n, order.end(),
                   [&](int a, int b) { return key[a] < key[b] || (key[a] == key[b] && a < b); });
  order.resize(n);
  std::sort(order.begin(), order.end());
  std::vector<Vec3> out;
  for (int i : order) out.push_back(sites[i]);
  return out;
}

Scene pile(int n) {
  Scene s = empty_scene(0.5, 0.0, 1e-3);
  add_ground(s);
  const double r = 0.05, m = 0.1;
  for (const Vec3& x : hcp_heap(n, r))
    add(s, Sphere{r}, m, Mat3::Identity() * (0.4 * m * r * r), x, Quat::Identity(), Vec3::Zero(),
        Vec3::Zero());
  return s;
}

Mat3 box_inertia(double m, const Vec3& half) {
  const Vec3 e = 2.0 * half;
  return Vec3(m / 12 * (e.y() * e.y() + e.z() * e.z()), m / 12 * (e.x() * e.x() + e.z() * e.z()),
              m / 12 * (e.x() * e.x() + e.y() * e.y()))
      .asDiagonal();
}

Scene stack(int n) {
  Scene s = empty_scene(0.5, 0.0, 1e-3);
  add_ground(s);
  const Vec3 half(0.5, 0.5, 0.5);
  for (int i = 0; i < n; ++i)
    add(s, Box{half}, 1.0, box_inertia(1.0, half), Vec3(0, 0, 0.5 + i), Quat::Identity(),
        Vec3::Zero(), Vec3::Zero());
  return s;
}

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
