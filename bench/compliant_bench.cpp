// The compliant formulation against the nonsmooth one on the same scenes: wall time per simulated
// second, and the integrator's statistics (steps, rejected steps, right-hand sides, Jacobians) as
// counters. Each scene is written twice: the nonsmooth laws (Signorini, exact Coulomb, the exact
// Contensou limit set) and their compliant counterparts (Hunt–Crossley with the same restitution,
// regularised Coulomb, the exact Contensou law); the compliant one runs each integrator.
//
//   build/bench/bench_compliant --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
//
// docs/benchmarks.md records the figures and the machine.
#include <coulomb/scene/scene.hpp>
#include <coulomb/world/simulation.hpp>

#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <string>
#include <utility>

namespace coulomb {
namespace {

// A scene with the contact laws and solver settings substituted: {SOLVER}, {LAWS}.
struct Pair {
  const char* name;
  double end;         // simulated time [s]
  double step;        // nonsmooth time step / compliant sampling [s]
  const char* scene;  // with {solver}, {laws}
  const char* nonsmooth_laws;
  const char* compliant_laws;
};

const Pair kPairs[] = {
    {"billiard", 1.0, 1e-3,
     R"(
gravity: [0, 0, -9.81]
time: {{end: {end}, step: {step}}}
solver: {solver}
materials: [cloth, ball]
contacts:
  - between: [cloth, ball]
{laws}
bodies:
  - {{name: table, fixed: true, material: cloth, shapes: [{{type: plane}}]}}
  - {{name: ball, material: ball, mass: 0.17, shapes: [{{type: sphere, radius: 0.028575}}],
     position: [0, 0, 0.028575], velocity: [1.2, 0, 0], angular_velocity: [8, 15, 0]}}
)",
     "    normal: {law: signorini}\n    friction: {law: coulomb, mu: 0.2}",
     "    normal: {law: hunt_crossley, stiffness: 1.0e9, damping: 5.0}\n"
     "    friction: {law: coulomb, mu: 0.2, regularization: 1.0e-3}"},
    {"bouncing", 1.0, 1e-3,
     R"(
gravity: [0, 0, -9.81]
time: {{end: {end}, step: {step}}}
solver: {solver}
materials: [ground, ball]
contacts:
  - between: [ground, ball]
{laws}
bodies:
  - {{name: ground, fixed: true, material: ground, shapes: [{{type: plane}}]}}
  - {{name: ball, material: ball, mass: 0.1, shapes: [{{type: sphere, radius: 0.02}}],
     position: [0, 0, 0.2]}}
)",
     "    normal: {law: signorini, restitution: 0.9}\n    friction: {law: coulomb, mu: 0.3}",
     "    normal: {law: hunt_crossley, stiffness: 1.0e9, restitution: 0.9, impact_velocity: 1.9}\n"
     "    friction: {law: coulomb, mu: 0.3, regularization: 1.0e-3}"},
    {"contensou-ball", 1.0, 1e-3,
     R"(
gravity: [0, 0, -9.81]
time: {{end: {end}, step: {step}}}
solver: {solver}
materials:
  - {{name: cloth, young_modulus: 2.1e6, poisson_ratio: 0.3}}
  - {{name: ball, young_modulus: 5.0e9, poisson_ratio: 0.3}}
contacts:
  - between: [cloth, ball]
{laws}
bodies:
  - {{name: table, fixed: true, material: cloth, shapes: [{{type: plane}}]}}
  - {{name: ball, material: ball, mass: 0.17, shapes: [{{type: sphere, radius: 0.028575}}],
     position: [0, 0, 0.028575], velocity: [1.2, 0, 0], angular_velocity: [8, 15, 90]}}
)",
     "    normal: {law: signorini}\n    friction: {law: coulomb, mu: 0.2}\n"
     "    contensou: {model: exact}",
     "    normal: {law: hunt_crossley, stiffness: 1.0e9, damping: 5.0}\n"
     "    friction: {law: coulomb, mu: 0.2}\n    contensou: {model: exact, regularization: "
     "1.0e-3}"},
    {"sphere-pile", 0.5, 1e-3,
     R"(
gravity: [0, 0, -9.81]
time: {{end: {end}, step: {step}}}
solver: {solver}
materials: [ground, ball]
contacts:
  - between: [ground, ball]
{laws}
  - between: [ball, ball]
{laws}
bodies:
  - {{name: ground, fixed: true, material: ground, shapes: [{{type: plane}}]}}
  - {{name: b0, material: ball, mass: 0.1, shapes: [{{type: sphere, radius: 0.02}}], position: [0, 0, 0.021]}}
  - {{name: b1, material: ball, mass: 0.1, shapes: [{{type: sphere, radius: 0.02}}], position: [0.041, 0, 0.021]}}
  - {{name: b2, material: ball, mass: 0.1, shapes: [{{type: sphere, radius: 0.02}}], position: [0.0205, 0.0355, 0.021]}}
  - {{name: b3, material: ball, mass: 0.1, shapes: [{{type: sphere, radius: 0.02}}], position: [0.0205, 0.0118, 0.055]}}
  - {{name: b4, material: ball, mass: 0.1, shapes: [{{type: sphere, radius: 0.02}}], position: [0.0205, 0.0118, 0.1]}}
)",
     "    normal: {law: signorini}\n    friction: {law: coulomb, mu: 0.5}",
     "    normal: {law: hunt_crossley, stiffness: 1.0e8, damping: 5.0}\n"
     "    friction: {law: coulomb, mu: 0.5, regularization: 1.0e-3}"},
};

std::string text(const Pair& p, const char* formulation) {
  const bool compliant = std::string(formulation) != "nonsmooth";
  const std::string solver =
      compliant
          ? fmt::format("{{formulation: compliant, integrator: {}, rtol: 1.0e-6, atol: 1.0e-9}}",
                        formulation)
          : std::string("{tolerance: 1.0e-10}");
  return fmt::format(fmt::runtime(p.scene), fmt::arg("end", p.end), fmt::arg("step", p.step),
                     fmt::arg("solver", solver),
                     fmt::arg("laws", compliant ? p.compliant_laws : p.nonsmooth_laws));
}

// Wall time per simulated second (the benchmark's time is the whole run; the counter divides it).
void BM_Formulation(benchmark::State& state, const Pair* pair, const char* formulation) {
  const Scene scene = load_scene_text(text(*pair, formulation), pair->name);
  IntegratorStatistics stats;
  for (auto _ : state) {
    Simulation sim(scene.model, scene.state);
    sim.run_to(pair->end);
    if (!sim.finite()) state.SkipWithError(sim.non_finite().c_str());
    if (sim.compliant() != nullptr) stats = sim.compliant()->statistics();
    benchmark::DoNotOptimize(sim.state().x_WC.data());
  }
  state.counters["sim_s"] = pair->end;
  state.counters["wall_per_sim_s"] = benchmark::Counter(
      pair->end, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  if (std::string(formulation) != "nonsmooth") {
    state.counters["steps"] = static_cast<double>(stats.steps);
    state.counters["rejected"] = static_cast<double>(stats.rejected_steps);
    state.counters["rhs"] = static_cast<double>(stats.rhs_evaluations);
    state.counters["jacobians"] = static_cast<double>(stats.jacobian_evaluations);
    state.counters["events"] = static_cast<double>(stats.root_stops);
  }
}

int register_all() {
  for (const Pair& p : kPairs)
    for (const char* f : {"nonsmooth", "erk", "dirk", "bdf"})
      benchmark::RegisterBenchmark(fmt::format("{}/{}", p.name, f).c_str(), BM_Formulation, &p, f)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  return 0;
}
const int registered = register_all();

}  // namespace
}  // namespace coulomb

BENCHMARK_MAIN();
