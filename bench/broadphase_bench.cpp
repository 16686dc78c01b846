// Broadphase benchmark: time per step for a settled pile of spheres resting on a ground plane.
//
// The pile: spheres of radius 0.05 m on a hexagonal-close-packed lattice (touching neighbours,
// centre distance 2r), cut to a cone of repose angle 25° (the N lattice sites of smallest
// z + tan(25°) ρ, ρ the distance to the axis), bottom layer resting on the ground plane z = 0.
// Shape 0 is the ground (fixed, unbounded box); shape i > 0 is sphere i (its own body). Each box is
// the sphere's box grown by a contact margin of 1 mm.
//
// Each frame perturbs the rest positions like a settling pile; 8 frames are precomputed (outside
// the timing) and cycled:
//   - settled: every sphere moves by up to ±0.5 mm per axis around its rest position;
//   - stirred: the same, and 1% of the spheres (different ones in every frame) are displaced by
//     up to ±2 cm per axis (beyond the fat margin of the broadphase, so their pairs are re-found).
// `cold` times the first call of a new Broadphase (building everything); `brute_force` is the
// O(N²) reference on the same settled frames. When Bullet is found (double precision), `bullet`
// runs its dynamic-AABB-tree broadphase (btDbvtBroadphase) on the same frames as a peer.
#include <coulomb/collision/broadphase.hpp>

#include <benchmark/benchmark.h>

#ifdef COULOMB_BENCH_BULLET
#include <btBulletCollisionCommon.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <vector>

namespace coulomb {
namespace {

constexpr double kRadius = 0.05;           // sphere radius [m]
constexpr double kMargin = 1e-3;           // contact margin added to every box [m]
constexpr double kReposeTan = 0.46630766;  // tan(25°) [-]
constexpr int kFrames = 8;

/// One frame: the input arrays of the broadphase.
struct Frame {
  std::vector<Aabb> boxes;          // (n)
  std::vector<std::int32_t> body;   // (n)
  std::vector<std::uint8_t> fixed;  // (n)
  [[nodiscard]] BroadphaseInput input() const { return {boxes, body, fixed}; }
};

/// Rest positions of the n spheres of the conical HCP heap, in lattice order [m].
std::vector<Vec3> hcp_heap(int n) {
  const double d = 2.0 * kRadius;
  // Cone radius holding n sites at the HCP density sqrt(2)/d³, with some slack.
  const double radius =
      1.3 * std::cbrt(3.0 * n * d * d * d / (std::sqrt(2.0) * kPi * kReposeTan)) + 2.0 * d;
  const double height = radius * kReposeTan;
  const double dy = d * std::sqrt(3.0) / 2.0, dz = d * std::sqrt(2.0 / 3.0);
  const int nx = static_cast<int>(2.0 * radius / d) + 1;
  const int ny = static_cast<int>(2.0 * radius / dy) + 1;
  const int nz = static_cast<int>(height / dz) + 1;
  std::vector<Vec3> sites;
  std::vector<double> key;
  for (int k = 0; k < nz; ++k) {
    // ABAB stacking: layer B shifted to the centroid of a triangle of layer A.
    const double sx = (k % 2) * 0.5 * d, sy = (k % 2) * d / (2.0 * std::sqrt(3.0));
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        const Vec3 p(-radius + (i + 0.5 * (j % 2)) * d + sx, -radius + j * dy + sy,
                     kRadius + k * dz);
        sites.push_back(p);
        key.push_back(p.z() + kReposeTan * std::hypot(p.x(), p.y()));
      }
    }
  }
  // The n sites of smallest key (ties by lattice order), kept in lattice order.
  std::vector<int> order(sites.size());
  std::iota(order.begin(), order.end(), 0);
  std::nth_element(order.begin(), order.begin() + n, order.end(),
                   [&](int a, int b) { return key[a] < key[b] || (key[a] == key[b] && a < b); });
  order.resize(n);
  std::sort(order.begin(), order.end());
  std::vector<Vec3> heap;
  heap.reserve(n);
  for (const int i : order) heap.push_back(sites[i]);
  return heap;
}

/// kFrames perturbed frames of the heap (see the file comment); `stir` = fraction displaced by
/// up to ±2 cm.
std::vector<Frame> make_frames(const std::vector<Vec3>& rest, double stir) {
  const double inf = std::numeric_limits<double>::infinity();
  std::mt19937_64 rng(20240601);
  std::uniform_real_distribution<double> u(-1.0, 1.0), u01(0.0, 1.0);
  const Vec3 half = Vec3::Constant(kRadius + kMargin);
  std::vector<Frame> frames(kFrames);
  for (Frame& f : frames) {
    f.boxes.push_back({Vec3(-inf, -inf, -inf), Vec3(inf, inf, kMargin)});  // ground
    f.body.push_back(0);
    f.fixed.push_back(1);
    for (std::size_t i = 0; i < rest.size(); ++i) {
      Vec3 p = rest[i] + 0.5e-3 * Vec3(u(rng), u(rng), u(rng));
      if (u01(rng) < stir) p += 0.02 * Vec3(u(rng), u(rng), u(rng));
      f.boxes.push_back({p - half, p + half});
      f.body.push_back(static_cast<std::int32_t>(i + 1));
      f.fixed.push_back(0);
    }
  }
  return frames;
}

/// The frames of a pile of n spheres, built once per (n, stir).
const std::vector<Frame>& pile(int n, bool stirred) {
  static std::map<std::pair<int, bool>, std::vector<Frame>> cache;
  auto it = cache.find({n, stirred});
  if (it == cache.end()) {
    it = cache.emplace(std::make_pair(n, stirred), make_frames(hcp_heap(n), stirred ? 0.01 : 0.0))
             .first;
  }
  return it->second;
}

/// O(N²) reference with the broadphase's rules (exclusions, empty boxes never pair).
void brute_force(const BroadphaseInput& in, std::vector<ShapePair>& pairs) {
  pairs.clear();
  const auto n = static_cast<std::int32_t>(in.boxes.size());
  for (std::int32_t a = 0; a < n; ++a) {
    for (std::int32_t b = a + 1; b < n; ++b) {
      if (in.body[a] == in.body[b] || (in.fixed[a] != 0 && in.fixed[b] != 0)) continue;
      if (in.boxes[a].overlaps(in.boxes[b])) pairs.push_back({a, b});
    }
  }
}

void set_counters(benchmark::State& state, std::size_t shapes, std::size_t pairs) {
  state.counters["shapes"] = static_cast<double>(shapes);
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["shapes/s"] = benchmark::Counter(static_cast<double>(shapes),
                                                  benchmark::Counter::kIsIterationInvariantRate);
}

// Steady state: one step of a warm broadphase, frames cycled.
void run_steps(benchmark::State& state, bool stirred) {
  const auto& frames = pile(static_cast<int>(state.range(0)), stirred);
  Broadphase bp;
  std::vector<ShapePair> pairs;
  for (const Frame& f : frames) bp.find_pairs(f.input(), pairs);  // warm up
  // The first comparison of each size checks the broadphase against the reference.
  if (state.range(0) <= 1000) {
    std::vector<ShapePair> ref;
    brute_force(frames.back().input(), ref);
    if (ref != pairs) state.SkipWithError("broadphase differs from the brute-force reference");
  }
  std::size_t k = 0;
  for (auto _ : state) {
    bp.find_pairs(frames[k].input(), pairs);
    benchmark::DoNotOptimize(pairs.data());
    k = (k + 1) % frames.size();
  }
  set_counters(state, frames[0].boxes.size(), pairs.size());
}

void BM_BroadphaseSettled(benchmark::State& state) { run_steps(state, false); }
void BM_BroadphaseStirred(benchmark::State& state) { run_steps(state, true); }

// First call of a new broadphase (allocations and build included).
void BM_BroadphaseCold(benchmark::State& state) {
  const auto& frames = pile(static_cast<int>(state.range(0)), false);
  std::vector<ShapePair> pairs;
  for (auto _ : state) {
    Broadphase bp;
    bp.find_pairs(frames[0].input(), pairs);
    benchmark::DoNotOptimize(pairs.data());
  }
  set_counters(state, frames[0].boxes.size(), pairs.size());
}

// The O(N²) reference on the settled frames.
void BM_BruteForceSettled(benchmark::State& state) {
  const auto& frames = pile(static_cast<int>(state.range(0)), false);
  std::vector<ShapePair> pairs;
  std::size_t k = 0;
  for (auto _ : state) {
    brute_force(frames[k].input(), pairs);
    benchmark::DoNotOptimize(pairs.data());
    k = (k + 1) % frames.size();
  }
  set_counters(state, frames[0].boxes.size(), pairs.size());
}

#ifdef COULOMB_BENCH_BULLET
// Peer: Bullet's btDbvtBroadphase (two dynamic AABB trees with fattened leaves and a hashed pair
// cache) on the same frames. One step = setAabb of every proxy + calculateOverlappingPairs + one
// pass over the pair cache keeping the pairs whose actual boxes overlap (the cache holds pairs of
// overlapping fat leaves, cleaned lazily), which is the set coulomb's broadphase returns; the
// count is checked against it. The ground is a static proxy with a large finite box, as Bullet
// gives its planes; Bullet's pairs are not sorted.
void run_bullet(benchmark::State& state, bool stirred) {
  const auto& frames = pile(static_cast<int>(state.range(0)), stirred);
  const double big = 1e30;
  auto to_bt = [&](const Vec3& v) {
    return btVector3(std::clamp(v.x(), -big, big), std::clamp(v.y(), -big, big),
                     std::clamp(v.z(), -big, big));
  };
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase bp;
  std::vector<btBroadphaseProxy*> proxies;
  const Frame& f0 = frames[0];
  for (std::size_t i = 0; i < f0.boxes.size(); ++i) {
    const bool is_fixed = f0.fixed[i] != 0;
    const int group = is_fixed ? btBroadphaseProxy::StaticFilter : btBroadphaseProxy::DefaultFilter;
    const int mask = is_fixed ? btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter
                              : btBroadphaseProxy::AllFilter;
    proxies.push_back(bp.createProxy(to_bt(f0.boxes[i].lo), to_bt(f0.boxes[i].hi),
                                     SPHERE_SHAPE_PROXYTYPE, nullptr, group, mask, &dispatcher));
  }
  std::size_t overlapping = 0;
  auto step = [&](const Frame& f) {
    for (std::size_t i = 0; i < f.boxes.size(); ++i) {
      bp.setAabb(proxies[i], to_bt(f.boxes[i].lo), to_bt(f.boxes[i].hi), &dispatcher);
    }
    bp.calculateOverlappingPairs(&dispatcher);
    btOverlappingPairCache* cache = bp.getOverlappingPairCache();
    const int np = cache->getNumOverlappingPairs();
    const btBroadphasePair* p = cache->getOverlappingPairArrayPtr();
    overlapping = 0;
    for (int k = 0; k < np; ++k) {
      overlapping += TestAabbAgainstAabb2(p[k].m_pProxy0->m_aabbMin, p[k].m_pProxy0->m_aabbMax,
                                          p[k].m_pProxy1->m_aabbMin, p[k].m_pProxy1->m_aabbMax)
                         ? 1
                         : 0;
    }
  };
  for (const Frame& f : frames) step(f);  // warm up
  {
    Broadphase ours;
    std::vector<ShapePair> pairs;
    ours.find_pairs(frames.back().input(), pairs);
    if (pairs.size() != overlapping) state.SkipWithError("Bullet and coulomb pair counts differ");
  }
  std::size_t k = 0;
  for (auto _ : state) {
    step(frames[k]);
    benchmark::DoNotOptimize(overlapping);
    k = (k + 1) % frames.size();
  }
  set_counters(state, frames[0].boxes.size(), overlapping);
  // Teardown: empty the pair cache pair by pair (O(1) each) first, since destroyProxy scans every
  // pair of the cache for each proxy.
  btOverlappingPairCache* cache = bp.getOverlappingPairCache();
  while (cache->getNumOverlappingPairs() > 0) {
    const btBroadphasePair& p =
        cache->getOverlappingPairArrayPtr()[cache->getNumOverlappingPairs() - 1];
    cache->removeOverlappingPair(p.m_pProxy0, p.m_pProxy1, &dispatcher);
  }
  for (btBroadphaseProxy* p : proxies) bp.destroyProxy(p, &dispatcher);
}
void BM_BulletSettled(benchmark::State& state) { run_bullet(state, false); }
void BM_BulletStirred(benchmark::State& state) { run_bullet(state, true); }
BENCHMARK(BM_BulletSettled)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BulletStirred)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
#endif

BENCHMARK(BM_BroadphaseSettled)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BroadphaseStirred)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BroadphaseCold)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BruteForceSettled)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace coulomb

BENCHMARK_MAIN();
