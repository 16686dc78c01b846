// Tests of the broadphase against a brute-force O(N²) reference: random boxes of several sizes and
// distributions, boxes moving over many calls, planes (unbounded boxes), exclusions, empty,
// identical and touching boxes, changes of structure, output order, and no allocation once warm.
#include <coulomb/collision/broadphase.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>
#include <random>
#include <stdexcept>
#include <vector>

// Counts every allocation of the process, to check that a warm broadphase allocates nothing.
namespace {
std::atomic<long> g_allocations{0};
}  // namespace

// Out of line, so that the compiler does not pair the malloc/free inside with the new/delete of
// the callers (a false -Wmismatched-new-delete).
[[gnu::noinline]] void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace coulomb {
namespace {

/// A scene for the broadphase: boxes and their owners.
struct Scene {
  std::vector<Aabb> boxes;
  std::vector<std::int32_t> body;
  std::vector<std::uint8_t> fixed;
  [[nodiscard]] BroadphaseInput input() const { return {boxes, body, fixed}; }
  void add(const Aabb& box, std::int32_t b, bool is_fixed = false) {
    boxes.push_back(box);
    body.push_back(b);
    fixed.push_back(is_fixed ? 1 : 0);
  }
};

Aabb make_box(const Vec3& center, const Vec3& half) { return {center - half, center + half}; }

bool is_empty(const Aabb& b) {
  for (int k = 0; k < 3; ++k) {
    if (!(b.lo[k] <= b.hi[k])) return true;
  }
  return false;
}

/// Brute-force reference: every pair a < b of non-empty boxes that overlap, excluding shapes of one
/// body and pairs of fixed shapes, in (a, b) order.
std::vector<ShapePair> reference(const Scene& s) {
  std::vector<ShapePair> out;
  const auto n = static_cast<std::int32_t>(s.boxes.size());
  for (std::int32_t a = 0; a < n; ++a) {
    for (std::int32_t b = a + 1; b < n; ++b) {
      if (is_empty(s.boxes[a]) || is_empty(s.boxes[b])) continue;
      if (s.body[a] == s.body[b] || (s.fixed[a] != 0 && s.fixed[b] != 0)) continue;
      if (s.boxes[a].overlaps(s.boxes[b])) out.push_back({a, b});
    }
  }
  return out;
}

/// Checks the output invariants (a < b, strictly increasing) and equality with the reference.
void expect_matches_reference(Broadphase& bp, const Scene& s, std::vector<ShapePair>& pairs) {
  bp.find_pairs(s.input(), pairs);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    ASSERT_LT(pairs[k].a, pairs[k].b) << "pair " << k;
    if (k > 0) {
      const ShapePair& p = pairs[k - 1];
      const ShapePair& q = pairs[k];
      ASSERT_TRUE(p.a < q.a || (p.a == q.a && p.b < q.b)) << "not strictly sorted at " << k;
    }
  }
  const std::vector<ShapePair> ref = reference(s);
  ASSERT_EQ(pairs.size(), ref.size());
  EXPECT_TRUE(pairs == ref);
}

/// Random boxes: centres uniform in [0, side]^3, half extents uniform in [hmin, hmax] per axis,
/// each shape its own body, a fraction of them fixed.
Scene random_scene(std::mt19937_64& rng, int n, double side, double hmin, double hmax,
                   double fixed_fraction) {
  std::uniform_real_distribution<double> pos(0.0, side), half(hmin, hmax), u(0.0, 1.0);
  Scene s;
  for (int i = 0; i < n; ++i) {
    const Vec3 c(pos(rng), pos(rng), pos(rng));
    const Vec3 h(half(rng), half(rng), half(rng));
    s.add(make_box(c, h), i, u(rng) < fixed_fraction);
  }
  return s;
}

TEST(Broadphase, EmptyInputGivesNoPairs) {
  Broadphase bp;
  std::vector<ShapePair> pairs{{0, 1}, {2, 3}};  // stale content must be replaced
  Scene s;
  bp.find_pairs(s.input(), pairs);
  EXPECT_TRUE(pairs.empty());
  // Again, after a non-empty call.
  s.add(make_box(Vec3::Zero(), Vec3::Ones()), 0);
  s.add(make_box(Vec3::Zero(), Vec3::Ones()), 1);
  bp.find_pairs(s.input(), pairs);
  EXPECT_EQ(pairs.size(), 1u);
  bp.find_pairs(Scene{}.input(), pairs);
  EXPECT_TRUE(pairs.empty());
}

TEST(Broadphase, SingleShapeGivesNoPairs) {
  Broadphase bp;
  std::vector<ShapePair> pairs;
  Scene s;
  s.add(make_box(Vec3::Zero(), Vec3::Ones()), 0);
  bp.find_pairs(s.input(), pairs);
  EXPECT_TRUE(pairs.empty());
}

TEST(Broadphase, MismatchedLengthsThrow) {
  Broadphase bp;
  std::vector<ShapePair> pairs;
  Scene s;
  s.add(make_box(Vec3::Zero(), Vec3::Ones()), 0);
  s.body.push_back(1);
  EXPECT_THROW(bp.find_pairs(s.input(), pairs), std::invalid_argument);
}

// Uniform random boxes, several sizes and densities (sparse to ~10 overlaps per box).
TEST(Broadphase, RandomUniformMatchesBruteForce) {
  std::mt19937_64 rng(12345);
  for (const int n : {2, 3, 10, 100, 1000, 3000}) {
    for (const double side : {1.0, 4.0, 20.0}) {
      const Scene s = random_scene(rng, n, side, 0.01, 0.2, 0.1);
      Broadphase bp;
      std::vector<ShapePair> pairs;
      SCOPED_TRACE(testing::Message() << "n = " << n << ", side = " << side);
      expect_matches_reference(bp, s, pairs);
    }
  }
}

// Distributions that break grids and sweeps: sizes over four decades, clusters, flat and linear
// layouts, huge coordinates.
TEST(Broadphase, RandomDistributionsMatchBruteForce) {
  std::mt19937_64 rng(777);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> g(0.0, 1.0);
  const int n = 1500;
  // Log-uniform half extents from 1e-3 to 10.
  {
    Scene s;
    for (int i = 0; i < n; ++i) {
      const Vec3 c(20 * u(rng), 20 * u(rng), 20 * u(rng));
      const double h = std::pow(10.0, -3.0 + 4.0 * u(rng));
      s.add(make_box(c, Vec3(h, h * (0.5 + u(rng)), h * (0.5 + u(rng)))), i);
    }
    Broadphase bp;
    std::vector<ShapePair> pairs;
    SCOPED_TRACE("log-uniform sizes");
    expect_matches_reference(bp, s, pairs);
  }
  // Ten tight Gaussian clusters far apart.
  {
    Scene s;
    for (int i = 0; i < n; ++i) {
      const int c = i % 10;
      const Vec3 centre(100.0 * c, -50.0 * c, 3.0 * c);
      const Vec3 p = centre + 0.3 * Vec3(g(rng), g(rng), g(rng));
      s.add(make_box(p, Vec3::Constant(0.02 + 0.03 * u(rng))), i, i % 7 == 0);
    }
    Broadphase bp;
    std::vector<ShapePair> pairs;
    SCOPED_TRACE("clusters");
    expect_matches_reference(bp, s, pairs);
  }
  // Flat layer (all centres at z = 0) and a line (centres on the x axis).
  for (const bool line : {false, true}) {
    Scene s;
    for (int i = 0; i < n; ++i) {
      const Vec3 c(10 * u(rng), line ? 0.0 : 10 * u(rng), 0.0);
      s.add(make_box(c, Vec3::Constant(0.05 * (1 + u(rng)))), i);
    }
    Broadphase bp;
    std::vector<ShapePair> pairs;
    SCOPED_TRACE(line ? "line" : "flat");
    expect_matches_reference(bp, s, pairs);
  }
  // Far from the origin: centres around 1e6 m.
  {
    Scene s = random_scene(rng, n, 5.0, 0.05, 0.2, 0.0);
    for (Aabb& b : s.boxes) {
      b.lo += Vec3::Constant(1e6);
      b.hi += Vec3::Constant(1e6);
    }
    Broadphase bp;
    std::vector<ShapePair> pairs;
    SCOPED_TRACE("far from the origin");
    expect_matches_reference(bp, s, pairs);
  }
}

// Degenerate boxes: points (zero extent), some coincident.
TEST(Broadphase, PointBoxesMatchBruteForce) {
  Scene s;
  int id = 0;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) {
      const Vec3 p(0.5 * i, 0.5 * j, 0.0);
      s.add({p, p}, id++);
      if ((i + j) % 3 == 0) s.add({p, p}, id++);  // a coincident point: one pair
    }
  }
  Broadphase bp;
  std::vector<ShapePair> pairs;
  expect_matches_reference(bp, s, pairs);
  // 36 sites, (i + j) % 3 == 0 for 12 of them: 12 coincident pairs, nothing else.
  EXPECT_EQ(pairs.size(), 12u);
}

// n identical boxes of distinct bodies: all n (n - 1) / 2 pairs.
TEST(Broadphase, IdenticalBoxesAllPair) {
  Scene s;
  const int n = 60;
  for (int i = 0; i < n; ++i) s.add(make_box(Vec3(1, 2, 3), Vec3(0.1, 0.2, 0.3)), i);
  Broadphase bp;
  std::vector<ShapePair> pairs;
  expect_matches_reference(bp, s, pairs);
  EXPECT_EQ(pairs.size(), static_cast<std::size_t>(n * (n - 1) / 2));
}

// Unit cubes on the integer lattice touch by faces, edges and corners: touching counts as
// overlap, so the pairs are those at Chebyshev distance 1. Per axis, (3m - 2) ordered pairs of
// coordinates differ by at most 1, hence ((3m - 2)^3 - m^3) / 2 unordered pairs of distinct cubes.
TEST(Broadphase, TouchingBoxesOverlap) {
  const int m = 5;
  Scene s;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      for (int k = 0; k < m; ++k) {
        const Vec3 lo(i, j, k);
        s.add({lo, lo + Vec3::Ones()}, static_cast<std::int32_t>(s.boxes.size()));
      }
    }
  }
  Broadphase bp;
  std::vector<ShapePair> pairs;
  expect_matches_reference(bp, s, pairs);
  const int t = 3 * m - 2;
  EXPECT_EQ(pairs.size(), static_cast<std::size_t>((t * t * t - m * m * m) / 2));

  // Separated by one ulp: no pair.
  Scene two;
  two.add({Vec3(0, 0, 0), Vec3(1, 1, 1)}, 0);
  two.add({Vec3(std::nextafter(1.0, 2.0), 0, 0), Vec3(2, 1, 1)}, 1);
  bp.find_pairs(two.input(), pairs);
  EXPECT_TRUE(pairs.empty());
  two.boxes[1].lo.x() = 1.0;  // now touching
  bp.find_pairs(two.input(), pairs);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], (ShapePair{0, 1}));
}

TEST(Broadphase, ExclusionsSameBodyAndFixedPairs) {
  const Aabb box = make_box(Vec3::Zero(), Vec3::Ones());
  Scene s;
  s.add(box, 0);        // 0: body 0
  s.add(box, 0);        // 1: body 0 (same body as 0: excluded)
  s.add(box, 1, true);  // 2: fixed
  s.add(box, 2, true);  // 3: fixed (with 2: excluded)
  s.add(box, 3);        // 4: free
  Broadphase bp;
  std::vector<ShapePair> pairs;
  expect_matches_reference(bp, s, pairs);
  const std::vector<ShapePair> expected{{0, 2}, {0, 3}, {0, 4}, {1, 2},
                                        {1, 3}, {1, 4}, {2, 4}, {3, 4}};
  EXPECT_EQ(pairs, expected);

  // Multi-shape bodies at random: body = i / 4, every fifth body fixed.
  std::mt19937_64 rng(99);
  Scene r = random_scene(rng, 2000, 3.0, 0.02, 0.15, 0.0);
  for (std::size_t i = 0; i < r.body.size(); ++i) {
    r.body[i] = static_cast<std::int32_t>(i / 4);
    r.fixed[i] = (r.body[i] % 5 == 0) ? 1 : 0;
  }
  Broadphase bp2;
  expect_matches_reference(bp2, r, pairs);
}

// Planes: unbounded boxes pair with every overlapping non-excluded shape, wherever they sit in
// the list, including with each other.
TEST(Broadphase, PlanesPairWithBoundedShapes) {
  const double inf = std::numeric_limits<double>::infinity();
  Scene s;
  // 0: sphere box above the ground (no pair with it).
  s.add(make_box(Vec3(0, 0, 1), Vec3::Constant(0.5)), 0);
  // 1: ground half-space z <= 0, fixed.
  s.add({Vec3(-inf, -inf, -inf), Vec3(inf, inf, 0.0)}, 1, true);
  // 2: box touching the ground, free (pair 1-2).
  s.add(make_box(Vec3(3, 0, 0.5), Vec3::Constant(0.5)), 2);
  // 3: box penetrating the ground, fixed (no pair with the fixed ground).
  s.add(make_box(Vec3(-3, 0, 0.2), Vec3::Constant(0.5)), 3, true);
  // 4: wall x >= 10, free, fully unbounded on y and z: pairs with the ground (both unbounded).
  s.add({Vec3(10, -inf, -inf), Vec3(inf, inf, inf)}, 4);
  // 5: box crossing the wall and the ground (pairs with 1 and 4).
  s.add(make_box(Vec3(10, 5, 0), Vec3::Constant(0.5)), 5);
  // 6: box overlapping 0 (bounded pair 0-6).
  s.add(make_box(Vec3(0.5, 0, 1.5), Vec3::Constant(0.5)), 6);
  Broadphase bp;
  std::vector<ShapePair> pairs;
  expect_matches_reference(bp, s, pairs);
  const std::vector<ShapePair> expected{{0, 6}, {1, 2}, {1, 4}, {1, 5}, {4, 5}};
  EXPECT_EQ(pairs, expected);

  // Many shapes with a ground plane in the middle of the list and a second, free, plane.
  std::mt19937_64 rng(4242);
  Scene r = random_scene(rng, 1500, 4.0, 0.02, 0.2, 0.05);
  for (Aabb& b : r.boxes) {
    b.lo.z() -= 2.0;
    b.hi.z() -= 2.0;
  }
  r.boxes[700] = {Vec3(-inf, -inf, -inf), Vec3(inf, inf, 0.0)};
  r.fixed[700] = 1;
  r.boxes[3] = {Vec3(-inf, -inf, -inf), Vec3(inf, 1.0, inf)};
  r.fixed[3] = 0;
  Broadphase bp2;
  expect_matches_reference(bp2, r, pairs);
}

// Empty boxes (lo > hi, NaN, the default Aabb) never pair, not even with a plane.
TEST(Broadphase, EmptyBoxesNeverPair) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Scene s;
  s.add(Aabb{}, 0);
  s.add({Vec3(-inf, -inf, -inf), Vec3(inf, inf, inf)}, 1);
  s.add({Vec3(0, 0, 0), Vec3(1, -1, 1)}, 2);
  s.add({Vec3(0, nan, 0), Vec3(1, 1, 1)}, 3);
  s.add(make_box(Vec3::Zero(), Vec3::Ones()), 4);
  Broadphase bp;
  std::vector<ShapePair> pairs;
  expect_matches_reference(bp, s, pairs);
  const std::vector<ShapePair> expected{{1, 4}};
  EXPECT_EQ(pairs, expected);
}

// Boxes moving over many calls: small jitter, moves beyond the fat margin, teleports, size
// changes and a long drift (which loosens the tree until it is rebuilt). Every call must match
// the reference: temporal coherence must not lose or keep stale pairs.
TEST(Broadphase, MovingBoxesOverManyCallsMatchBruteForce) {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> u(-1.0, 1.0), u01(0.0, 1.0);
  Scene s = random_scene(rng, 1200, 3.0, 0.03, 0.1, 0.05);
  Broadphase bp;
  std::vector<ShapePair> pairs;
  const int steps = 80;
  for (int step = 0; step < steps; ++step) {
    SCOPED_TRACE(testing::Message() << "step " << step);
    expect_matches_reference(bp, s, pairs);
    if (testing::Test::HasFatalFailure()) return;
    // Step sizes: jitter, then moves of the order of the fat margin, then large ones.
    const double scale = step < 20 ? 1e-4 : (step < 40 ? 0.02 : 0.1);
    for (std::size_t i = 0; i < s.boxes.size(); ++i) {
      Aabb& b = s.boxes[i];
      Vec3 d(u(rng), u(rng), u(rng));
      d *= scale;
      if (step >= 60) d += Vec3(0.05, 0.0, -0.02);  // everything drifts
      const double r = u01(rng);
      if (r < 0.005) d = 3.0 * Vec3(u(rng), u(rng), u(rng));  // teleport
      b.lo += d;
      b.hi += d;
      if (r > 0.995) b.hi += Vec3::Constant(0.1 * u01(rng));          // grow
      if (r > 0.99 && r <= 0.995) b.hi = b.lo + 0.3 * (b.hi - b.lo);  // shrink
    }
  }
}

// A floor and a wall, and the boxes moving about them, over several calls. 3000 boxes: more shapes
// and candidate pairs than the broadphase's parallel tests start at (2048), whose flags are used in
// shape and pair order.
TEST(Broadphase, MovingBoxesOnAPlaneOverManyCalls) {
  const double inf = std::numeric_limits<double>::infinity();
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Scene s = random_scene(rng, 3000, 2.0, 0.03, 0.06, 0.0);
  // The wall x <= 0.4 between the boxes (shape 1500), the floor z <= 0.3 last.
  const std::size_t wall = 1500;
  s.boxes.insert(s.boxes.begin() + wall, Aabb{Vec3(-inf, -inf, -inf), Vec3(0.4, inf, inf)});
  s.body.insert(s.body.begin() + wall, -2);
  s.fixed.insert(s.fixed.begin() + wall, 1);
  s.add({Vec3(-inf, -inf, -inf), Vec3(inf, inf, 0.3)}, -1, true);
  Broadphase bp;
  std::vector<ShapePair> pairs;
  for (int step = 0; step < 12; ++step) {
    SCOPED_TRACE(testing::Message() << "step " << step);
    expect_matches_reference(bp, s, pairs);
    if (testing::Test::HasFatalFailure()) return;
    for (std::size_t i = 0; i + 1 < s.boxes.size(); ++i) {
      if (i == wall) continue;
      const Vec3 d = 0.01 * Vec3(u(rng), u(rng), u(rng)) - Vec3(0, 0, 0.02);
      s.boxes[i].lo += d;
      s.boxes[i].hi += d;
    }
    s.boxes.back().hi.z() += 0.01;  // the floor rises
    s.boxes[wall].hi.x() += 0.02;   // the wall moves
  }
}

// Changes of structure between calls: size, bodies, fixedness, kinds.
TEST(Broadphase, StructureChangesBetweenCalls) {
  const double inf = std::numeric_limits<double>::infinity();
  std::mt19937_64 rng(5);
  Scene s = random_scene(rng, 500, 2.0, 0.05, 0.15, 0.1);
  Broadphase bp;
  std::vector<ShapePair> pairs;
  expect_matches_reference(bp, s, pairs);
  // Fewer shapes, then more.
  Scene fewer = s;
  fewer.boxes.resize(300);
  fewer.body.resize(300);
  fewer.fixed.resize(300);
  expect_matches_reference(bp, fewer, pairs);
  expect_matches_reference(bp, s, pairs);
  // Merge bodies pairwise.
  for (std::size_t i = 0; i < s.body.size(); ++i) s.body[i] = static_cast<std::int32_t>(i / 2);
  expect_matches_reference(bp, s, pairs);
  // Fix everything, then free everything.
  std::fill(s.fixed.begin(), s.fixed.end(), std::uint8_t{1});
  expect_matches_reference(bp, s, pairs);
  EXPECT_TRUE(pairs.empty());
  std::fill(s.fixed.begin(), s.fixed.end(), std::uint8_t{0});
  expect_matches_reference(bp, s, pairs);
  // A box becomes unbounded, another empty, then both bounded again.
  const Aabb a = s.boxes[10], b = s.boxes[20];
  s.boxes[10].hi.x() = inf;
  s.boxes[20] = Aabb{};
  expect_matches_reference(bp, s, pairs);
  s.boxes[10] = a;
  s.boxes[20] = b;
  expect_matches_reference(bp, s, pairs);
}

// The output does not depend on the history: two broadphases with different pasts agree.
TEST(Broadphase, OutputIndependentOfHistory) {
  std::mt19937_64 rng(8);
  const Scene first = random_scene(rng, 1000, 3.0, 0.03, 0.12, 0.1);
  const Scene second = random_scene(rng, 1000, 3.0, 0.03, 0.12, 0.1);
  Broadphase with_past, fresh;
  std::vector<ShapePair> p1, p2;
  with_past.find_pairs(first.input(), p1);
  with_past.find_pairs(second.input(), p1);
  fresh.find_pairs(second.input(), p2);
  EXPECT_EQ(p1, p2);
  EXPECT_EQ(p2, reference(second));
}

TEST(Broadphase, MoveConstructionAndAssignmentKeepWorking) {
  std::mt19937_64 rng(3);
  const Scene s = random_scene(rng, 300, 1.5, 0.05, 0.1, 0.0);
  Broadphase a;
  std::vector<ShapePair> pairs;
  expect_matches_reference(a, s, pairs);
  Broadphase b(std::move(a));
  expect_matches_reference(b, s, pairs);
  Broadphase c;
  c = std::move(b);
  expect_matches_reference(c, s, pairs);
  // A moved-from broadphase is usable again.
  expect_matches_reference(a, s, pairs);  // NOLINT(bugprone-use-after-move)
}

// Once warm, a step allocates nothing: jitter inside the fat boxes, and a cycle of frames where
// some shapes leave their fat boxes (the buffers reach their sizes in the first cycles).
TEST(Broadphase, NoAllocationOnceWarm) {
  const double inf = std::numeric_limits<double>::infinity();
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(-1.0, 1.0), u01(0.0, 1.0);
  Scene base = random_scene(rng, 2000, 4.0, 0.03, 0.08, 0.0);
  base.add({Vec3(-inf, -inf, -inf), Vec3(inf, inf, 0.5)}, -1, true);
  // Four frames: jitter of 1e-4 m, and 2% of the shapes displaced by up to 0.2 m.
  std::vector<Scene> frames(4, base);
  for (Scene& f : frames) {
    for (std::size_t i = 0; i + 1 < f.boxes.size(); ++i) {
      Vec3 d = 1e-4 * Vec3(u(rng), u(rng), u(rng));
      if (u01(rng) < 0.02) d = 0.2 * Vec3(u(rng), u(rng), u(rng));
      f.boxes[i].lo += d;
      f.boxes[i].hi += d;
    }
  }
  Broadphase bp;
  std::vector<ShapePair> pairs;
  for (int cycle = 0; cycle < 3; ++cycle) {
    for (const Scene& f : frames) bp.find_pairs(f.input(), pairs);
  }
  const long before = g_allocations.load();
  for (const Scene& f : frames) bp.find_pairs(f.input(), pairs);
  const long after = g_allocations.load();
  EXPECT_EQ(after - before, 0);
  EXPECT_EQ(pairs, reference(frames.back()));
}

}  // namespace
}  // namespace coulomb
