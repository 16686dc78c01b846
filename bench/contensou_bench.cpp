// Time per evaluation of each Coulomb–Contensou model (docs/contensou.md records the numbers).
// The inputs sweep ε over [0, 5) so that every branch of the closed forms is exercised; the
// results are accumulated into a sink to keep the calls.
#include <coulomb/laws/contensou.hpp>

#include <benchmark/benchmark.h>

#include <array>

namespace {

using namespace coulomb::contensou;

constexpr int kN = 1024;

std::array<double, kN> make_eps() {
  std::array<double, kN> e{};
  for (int i = 0; i < kN; ++i) e[i] = 5.0 * ((i * 617) % kN) / kN;  // scrambled, deterministic
  return e;
}
const std::array<double, kN> kEps = make_eps();

template <class Fn>
void run(benchmark::State& state, Fn fn) {
  double sink = 0.0;
  int i = 0;
  for (auto _ : state) {
    const Resultant r = fn(kEps[i]);
    sink += r.F + r.m;
    i = (i + 1) & (kN - 1);
  }
  benchmark::DoNotOptimize(sink);
}

void BM_ExactHertz(benchmark::State& s) {
  run(s, [](double e) { return exact(e, Pressure::hertz); });
}
void BM_ExactUniform(benchmark::State& s) {
  run(s, [](double e) { return exact(e, Pressure::uniform); });
}
void BM_ExactHertzDerivative(benchmark::State& s) {
  run(s, [](double e) {
    const ResultantDerivative r = exact_derivative(e, Pressure::hertz);
    return Resultant{r.F + r.dF, r.m + r.dm};
  });
}
void BM_ExactUniformDerivative(benchmark::State& s) {
  run(s, [](double e) {
    const ResultantDerivative r = exact_derivative(e, Pressure::uniform);
    return Resultant{r.F + r.dF, r.m + r.dm};
  });
}
void BM_Pade11(benchmark::State& s) {
  const Pade11 p = Pade11::hertz();
  run(s, [&](double e) { return p(e); });
}
void BM_Pade22(benchmark::State& s) {
  const Pade22 p = Pade22::hertz();
  run(s, [&](double e) { return p(e); });
}
// The per-step form (constants' logarithms precomputed), and the one-off call that takes them
// every time.
void BM_Generalized(benchmark::State& s) {
  const GeneralizedEvaluator g(Generalized::hertz());
  run(s, [&](double e) { return g(e); });
}
void BM_GeneralizedOneOff(benchmark::State& s) {
  const Generalized g = Generalized::hertz();
  run(s, [&](double e) { return g(e); });
}
// Quadrature with the default nodes (≤ 3e-11 relative on the reference table, i.e. well inside
// the 1e-8 target), and with the smallest node counts that still give 1e-8 there (10 × 10).
void BM_QuadratureHertz(benchmark::State& s) {
  const Quadrature q(static_cast<int>(s.range(0)), static_cast<int>(s.range(1)));
  run(s, [&](double e) { return q.circular(e, Pressure::hertz); });
}
void BM_QuadratureUniform(benchmark::State& s) {
  const Quadrature q(static_cast<int>(s.range(0)), static_cast<int>(s.range(1)));
  run(s, [&](double e) { return q.circular(e, Pressure::uniform); });
}
void BM_LimitSurfaceProjection(benchmark::State& s) {
  double sink = 0.0;
  int i = 0;
  for (auto _ : s) {
    const double e = kEps[i];
    const Vec3c z(0.5 + 0.2 * e, 0.3, 0.4 - 0.1 * e);
    sink += project_limit_surface(z, Pressure::hertz).sum();
    i = (i + 1) & (kN - 1);
  }
  benchmark::DoNotOptimize(sink);
}

BENCHMARK(BM_ExactHertz);
BENCHMARK(BM_ExactUniform);
BENCHMARK(BM_ExactHertzDerivative);
BENCHMARK(BM_ExactUniformDerivative);
BENCHMARK(BM_Pade11);
BENCHMARK(BM_Pade22);
BENCHMARK(BM_Generalized);
BENCHMARK(BM_GeneralizedOneOff);
BENCHMARK(BM_QuadratureHertz)->Args({12, 16})->Args({10, 10});
BENCHMARK(BM_QuadratureUniform)->Args({12, 16})->Args({10, 10});
BENCHMARK(BM_LimitSurfaceProjection);

}  // namespace

BENCHMARK_MAIN();
