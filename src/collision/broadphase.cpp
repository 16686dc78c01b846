// Broadphase: the pairs of shapes whose axis-aligned bounding boxes overlap.
//
// Method: a bounding-volume hierarchy (BVH) over *fattened* boxes, refitted in place, and a
// persistent sorted list of candidate pairs (the pairs whose fattened boxes overlap).
//
//   - Every bounded shape i owns a fat box F_i = its box grown by kFatFraction times its largest
//     extent on each side. While the shape's box stays inside F_i nothing about i is updated.
//   - Invariant kept between calls: `cand_` holds exactly the non-excluded pairs of bounded shapes
//     whose fat boxes overlap, sorted by (a, b). Since box_i ⊂ F_i, every overlapping pair of
//     boxes is in `cand_`, so one step filters `cand_` with the exact test Aabb::overlaps.
//   - A shape whose box leaves its fat box (or shrinks far inside it) gets a new fat box; its leaf
//     is refitted up the tree (O(depth)), its candidate pairs are dropped and found again by one
//     tree query (O(log N + k)). Only pairs with a moved member change, so the rest of `cand_`
//     stays valid and the new pairs are merged in (both lists sorted).
//   - Refitting keeps the topology, so the tree loosens when shapes travel far. Its quality is
//     measured by the total surface area of the internal nodes (the SAH cost of a query); when it
//     exceeds kRebuildGrowth times its value just after the last build, the tree is rebuilt top
//     down (median split on the longest axis of the centroids), O(N log N).
//   - Unbounded boxes (planes: any ±inf component) are kept out of the tree and tested against
//     every other shape (O(N) per unbounded shape), then merged with the tree pairs.
//
// Why this and not the alternatives (see docs/benchmarks.md for numbers):
//   - Sweep-and-prune on one axis is O(N^{5/3}) in a 3-D pile: every slab of the width of a box
//     holds about N^{2/3} boxes that all overlap on the swept axis.
//   - A uniform grid needs a cell as large as the largest box: one wall or a wide spread of sizes
//     puts every small body in a few cells (O(N²) again), and sparse scenes need hashing.
//   - A BVH adapts to any size distribution and extent. In a settled pile nothing leaves its fat
//     box, so a step costs one O(N) containment pass plus one O(C) pass over the C candidate pairs,
//     which is within a small factor of the size of the output itself.
//
// Conventions and guarantees:
//   - Shapes of the same body never pair; two fixed shapes never pair.
//   - An empty box (lo > hi on some axis, or NaN; the default-constructed Aabb) never pairs.
//   - Touching boxes overlap (the test of Aabb::overlaps uses <=).
//   - Output: sorted by (a, b), a < b, no duplicates; it does not depend on the history of calls
//     (only the speed does).
//   - A change of the number of shapes, of `body`, of `fixed`, or of a shape's kind (empty,
//     bounded, unbounded) between calls resets the structure (an O(N log N) step).
//   - No allocation once the buffers have grown to the sizes the scene needs.
#include <coulomb/collision/broadphase.hpp>
#include <coulomb/math/parallel.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>

namespace coulomb {

namespace {

/// Fat-box margin on each side, as a fraction of the box's largest extent [-].
constexpr double kFatFraction = 0.1;
/// A fat box whose largest extent exceeds (1 + kShrinkFactor * kFatFraction) times the box's is
/// refitted too (the shape shrank, e.g. a long body that turned) [-].
constexpr double kShrinkFactor = 4.0;
/// Rebuild the tree when the summed area of its internal nodes grew by this factor [-].
constexpr double kRebuildGrowth = 1.5;
/// The per-shape and per-candidate tests run on every core from this many on; their answers are
/// flags, used in index order afterwards (the output does not depend on the threads).
constexpr std::ptrdiff_t kParallelMin = 2048;
/// Unbounded shapes whose tests against the bounded ones fit one flag byte per bounded shape.
constexpr std::size_t kMaxFlaggedUnbounded = 8;

enum Kind : std::uint8_t { kEmpty = 0, kBounded = 1, kUnbounded = 2 };

/// A box as plain arrays (the tree's own storage).
struct Box6 {
  std::array<double, 3> lo;
  std::array<double, 3> hi;
};

/// One tree node, 64 bytes: a leaf holds `shape` >= 0 and no children.
struct Node {
  Box6 box;
  std::int32_t parent = -1;
  std::int32_t left = -1;
  std::int32_t right = -1;
  std::int32_t shape = -1;  ///< leaf: the shape index; internal node: -1
};

Kind classify(const Aabb& b) {
  bool infinite = false;
  for (int k = 0; k < 3; ++k) {
    // `!(lo <= hi)` also catches NaN.
    if (!(b.lo[k] <= b.hi[k])) return kEmpty;
    infinite = infinite || std::isinf(b.lo[k]) || std::isinf(b.hi[k]);
  }
  return infinite ? kUnbounded : kBounded;
}

bool overlap(const Box6& a, const Box6& b) {
  return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] && a.lo[1] <= b.hi[1] && b.lo[1] <= a.hi[1] &&
         a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2];
}

bool inside(const Aabb& b, const Box6& f) {
  return f.lo[0] <= b.lo[0] && f.lo[1] <= b.lo[1] && f.lo[2] <= b.lo[2] && b.hi[0] <= f.hi[0] &&
         b.hi[1] <= f.hi[1] && b.hi[2] <= f.hi[2];
}

double max_extent(const Box6& b) {
  return std::max({b.hi[0] - b.lo[0], b.hi[1] - b.lo[1], b.hi[2] - b.lo[2]});
}

double max_extent(const Aabb& b) { return (b.hi - b.lo).maxCoeff(); }

Box6 fatten(const Aabb& b) {
  const double m = kFatFraction * max_extent(b);
  Box6 f;
  for (int k = 0; k < 3; ++k) {
    f.lo[k] = b.lo[k] - m;
    f.hi[k] = b.hi[k] + m;
  }
  return f;
}

Box6 merge(const Box6& a, const Box6& b) {
  Box6 m;
  for (int k = 0; k < 3; ++k) {
    m.lo[k] = std::min(a.lo[k], b.lo[k]);
    m.hi[k] = std::max(a.hi[k], b.hi[k]);
  }
  return m;
}

bool same(const Box6& a, const Box6& b) { return a.lo == b.lo && a.hi == b.hi; }

double area(const Box6& b) {
  const double dx = b.hi[0] - b.lo[0], dy = b.hi[1] - b.lo[1], dz = b.hi[2] - b.lo[2];
  return 2.0 * (dx * dy + dy * dz + dz * dx);
}

bool pair_less(const ShapePair& p, const ShapePair& q) {
  return p.a < q.a || (p.a == q.a && p.b < q.b);
}

}  // namespace

struct Broadphase::Impl {
  // Copies of the input that define the structure (a change resets it).
  bool initialized = false;
  std::vector<std::int32_t> body;   // (n)
  std::vector<std::uint8_t> fixed;  // (n)
  std::vector<std::uint8_t> kind;   // (n) Kind of each shape's box

  // Per shape: fat box and leaf node (bounded shapes only; leaf -1 otherwise).
  std::vector<Box6> fat;                // (n)
  std::vector<std::int32_t> leaf;       // (n)
  std::vector<std::int32_t> unbounded;  // (nu) sorted indices of unbounded shapes

  // The tree: 2 nb - 1 nodes for nb bounded shapes; root -1 when nb = 0.
  std::vector<Node> nodes;
  std::int32_t root = -1;
  std::int32_t node_count = 0;
  double area_sum = 0.0;                        ///< summed area of internal nodes [m²]
  double area_built = 0.0;                      ///< area_sum right after the last build [m²]
  std::vector<std::int32_t> items;              // (nb) build scratch: bounded shape indices
  std::vector<std::array<double, 3>> centroid;  // (n) build scratch
  std::vector<std::int32_t> stack;              // query stack

  // Candidate pairs (fat boxes overlap) and per-step scratch.
  std::vector<ShapePair> cand;       // sorted
  std::vector<ShapePair> cand_next;  // merge target, swapped with cand
  std::vector<ShapePair> fresh;      // pairs found by this step's queries
  std::vector<ShapePair> bounded_pairs;
  std::vector<ShapePair> unbounded_pairs;
  std::vector<std::uint8_t> moved_flag;  // (n)
  std::vector<std::uint8_t> flag;        // (n or candidates) per-step test results
  std::vector<std::int32_t> moved;       // sorted shapes whose fat box changed this step

  Impl() { stack.reserve(64); }

  [[nodiscard]] bool excluded(std::int32_t a, std::int32_t b) const {
    return body[a] == body[b] || (fixed[a] & fixed[b]) != 0;
  }

  void find_pairs(const BroadphaseInput& in, std::vector<ShapePair>& pairs);
  void reset(const BroadphaseInput& in);
  void build_tree();
  std::int32_t build_range(std::int32_t begin, std::int32_t end, std::int32_t parent);
  void refit_leaf(std::int32_t shape);
  void query_moved();
  void filter(std::span<const Aabb> boxes, std::vector<ShapePair>& out);
  void pair_unbounded(std::span<const Aabb> boxes);
};

// Resets the structure: copies body/fixed/kinds, fattens every bounded box, builds the tree and
// marks every bounded shape as moved so that the update finds all candidate pairs.
void Broadphase::Impl::reset(const BroadphaseInput& in) {
  const std::size_t n = in.boxes.size();
  body.assign(in.body.begin(), in.body.end());
  fixed.assign(in.fixed.begin(), in.fixed.end());
  kind.resize(n);
  fat.resize(n);
  leaf.assign(n, -1);
  moved_flag.assign(n, 0);
  unbounded.clear();
  moved.clear();
  cand.clear();
  for (std::size_t i = 0; i < n; ++i) {
    kind[i] = classify(in.boxes[i]);
    if (kind[i] == kBounded) {
      fat[i] = fatten(in.boxes[i]);
      moved_flag[i] = 1;
      moved.push_back(static_cast<std::int32_t>(i));
    } else if (kind[i] == kUnbounded) {
      unbounded.push_back(static_cast<std::int32_t>(i));
    }
  }
  build_tree();
  initialized = true;
}

// Builds the tree top down over the fat boxes of the bounded shapes.
void Broadphase::Impl::build_tree() {
  items.clear();
  const std::size_t n = kind.size();
  centroid.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (kind[i] != kBounded) continue;
    items.push_back(static_cast<std::int32_t>(i));
    for (int k = 0; k < 3; ++k) centroid[i][k] = 0.5 * (fat[i].lo[k] + fat[i].hi[k]);
  }
  const auto nb = static_cast<std::int32_t>(items.size());
  node_count = 0;
  area_sum = 0.0;
  root = -1;
  if (nb == 0) {
    area_built = 0.0;
    return;
  }
  if (nodes.size() < static_cast<std::size_t>(2 * nb - 1)) nodes.resize(2 * nb - 1);
  root = build_range(0, nb, -1);
  area_built = area_sum;
}

// Builds the subtree of items[begin, end): a leaf for one item, else a median split along the
// longest axis of the centroids (ties broken by shape index, so the build is deterministic).
std::int32_t Broadphase::Impl::build_range(std::int32_t begin, std::int32_t end,
                                           std::int32_t parent) {
  const std::int32_t id = node_count++;
  Node& node = nodes[id];
  node.parent = parent;
  if (end - begin == 1) {
    const std::int32_t s = items[begin];
    node.box = fat[s];
    node.left = node.right = -1;
    node.shape = s;
    leaf[s] = id;
    return id;
  }
  // Longest axis of the centroid bounds.
  std::array<double, 3> clo{kInf, kInf, kInf}, chi{-kInf, -kInf, -kInf};
  for (std::int32_t i = begin; i < end; ++i) {
    for (int k = 0; k < 3; ++k) {
      clo[k] = std::min(clo[k], centroid[items[i]][k]);
      chi[k] = std::max(chi[k], centroid[items[i]][k]);
    }
  }
  int axis = 0;
  for (int k = 1; k < 3; ++k) {
    if (chi[k] - clo[k] > chi[axis] - clo[axis]) axis = k;
  }
  // Median split.
  const std::int32_t mid = begin + (end - begin) / 2;
  std::nth_element(items.begin() + begin, items.begin() + mid, items.begin() + end,
                   [&](std::int32_t a, std::int32_t b) {
                     const double ca = centroid[a][axis], cb = centroid[b][axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  const std::int32_t l = build_range(begin, mid, id);
  const std::int32_t r = build_range(mid, end, id);
  // `nodes` is not resized during the build, so references stay valid; re-read for clarity.
  Node& self = nodes[id];
  self.left = l;
  self.right = r;
  self.shape = -1;
  self.box = merge(nodes[l].box, nodes[r].box);
  area_sum += area(self.box);
  return id;
}

// Copies the shape's new fat box into its leaf and refits the ancestors up to the first one
// whose box does not change, keeping the summed area up to date.
void Broadphase::Impl::refit_leaf(std::int32_t shape) {
  const std::int32_t l = leaf[shape];
  nodes[l].box = fat[shape];
  for (std::int32_t p = nodes[l].parent; p != -1; p = nodes[p].parent) {
    Node& node = nodes[p];
    const Box6 box = merge(nodes[node.left].box, nodes[node.right].box);
    if (same(box, node.box)) break;
    area_sum += area(box) - area(node.box);
    node.box = box;
  }
}

// Drops the candidate pairs of moved shapes and finds them again by querying the tree with each
// moved shape's fat box; the found pairs are sorted and merged into `cand`.
void Broadphase::Impl::query_moved() {
  // Drop the pairs with a moved member (remove_if keeps the order).
  cand.erase(std::remove_if(
                 cand.begin(), cand.end(),
                 [&](const ShapePair& p) { return moved_flag[p.a] != 0 || moved_flag[p.b] != 0; }),
             cand.end());
  // One query per moved shape; a pair of two moved shapes is kept once, from its smaller index.
  fresh.clear();
  for (const std::int32_t i : moved) {
    const Box6& q = fat[i];
    const std::size_t first = fresh.size();
    stack.clear();
    stack.push_back(root);
    while (!stack.empty()) {
      const std::int32_t id = stack.back();
      stack.pop_back();
      const Node& node = nodes[id];
      if (!overlap(node.box, q)) continue;
      if (node.shape >= 0) {
        const std::int32_t j = node.shape;
        if (j == i || excluded(i, j) || (moved_flag[j] != 0 && j < i)) continue;
        fresh.push_back(i < j ? ShapePair{i, j} : ShapePair{j, i});
      } else {
        stack.push_back(node.right);
        stack.push_back(node.left);
      }
    }
    std::sort(fresh.begin() + static_cast<std::ptrdiff_t>(first), fresh.end(), pair_less);
  }
  if (!std::is_sorted(fresh.begin(), fresh.end(), pair_less)) {
    std::sort(fresh.begin(), fresh.end(), pair_less);
  }
  // Merge (the two sets are disjoint: every pair in `fresh` has a moved member).
  cand_next.resize(cand.size() + fresh.size());
  std::merge(cand.begin(), cand.end(), fresh.begin(), fresh.end(), cand_next.begin(), pair_less);
  cand.swap(cand_next);
  for (const std::int32_t i : moved) moved_flag[i] = 0;
  moved.clear();
}

// Keeps the candidate pairs whose current boxes overlap (the order is kept).
void Broadphase::Impl::filter(std::span<const Aabb> boxes, std::vector<ShapePair>& out) {
  out.clear();
  const auto overlap = [&](const ShapePair& p) { return boxes[p.a].overlaps(boxes[p.b]); };
  const auto nc = static_cast<std::ptrdiff_t>(cand.size());
  if (!runs_parallel(nc, kParallelMin)) {
    for (const ShapePair& p : cand) {
      if (overlap(p)) out.push_back(p);
    }
    return;
  }
  // The tests on every core, the pairs kept in candidate order.
  flag.resize(cand.size());
  parallel_for(nc, kParallelMin, [&](std::ptrdiff_t i) {
    flag[static_cast<std::size_t>(i)] = overlap(cand[static_cast<std::size_t>(i)]) ? 1 : 0;
  });
  for (std::size_t i = 0; i < cand.size(); ++i)
    if (flag[i] != 0) out.push_back(cand[i]);
}

// Pairs involving an unbounded shape, generated in (a, b) order: for a bounded a, the unbounded
// b > a; for an unbounded a, every non-empty b > a.
void Broadphase::Impl::pair_unbounded(std::span<const Aabb> boxes) {
  unbounded_pairs.clear();
  const auto n = static_cast<std::int32_t>(boxes.size());
  const auto pair_with = [&](std::int32_t a, std::int32_t b) {
    return !excluded(a, b) && boxes[a].overlaps(boxes[b]);
  };
  // A few unbounded shapes (a ground, walls): the tests of each bounded shape against them on
  // every core, bit k of its flag for unbounded[k] (every one, the order is applied below).
  const bool flagged = runs_parallel(n, kParallelMin) && unbounded.size() <= kMaxFlaggedUnbounded;
  if (flagged) {
    flag.resize(static_cast<std::size_t>(n));
    parallel_for(n, kParallelMin, [&](std::ptrdiff_t i) {
      const auto a = static_cast<std::int32_t>(i);
      std::uint8_t f = 0;
      if (kind[a] == kBounded)
        for (std::size_t k = 0; k < unbounded.size(); ++k)
          if (pair_with(a, unbounded[k])) f |= static_cast<std::uint8_t>(1U << k);
      flag[static_cast<std::size_t>(a)] = f;
    });
  }
  std::size_t next = 0;  // first entry of `unbounded` greater than a
  for (std::int32_t a = 0; a < n; ++a) {
    while (next < unbounded.size() && unbounded[next] <= a) ++next;
    if (kind[a] == kBounded) {
      if (flagged) {
        const std::uint8_t f = flag[static_cast<std::size_t>(a)];
        if (f == 0) continue;
        for (std::size_t k = next; k < unbounded.size(); ++k)
          if ((f >> k) & 1U) unbounded_pairs.push_back({a, unbounded[k]});
        continue;
      }
      for (std::size_t k = next; k < unbounded.size(); ++k)
        if (pair_with(a, unbounded[k])) unbounded_pairs.push_back({a, unbounded[k]});
    } else if (kind[a] == kUnbounded) {
      for (std::int32_t b = a + 1; b < n; ++b) {
        if (kind[b] != kEmpty && pair_with(a, b)) {
          unbounded_pairs.push_back({a, b});
        }
      }
    }
  }
}

// One step: detect a change of structure, update the fat boxes of the shapes that left them,
// refresh their candidate pairs, then filter the candidates with the current boxes.
void Broadphase::Impl::find_pairs(const BroadphaseInput& in, std::vector<ShapePair>& pairs) {
  const std::size_t n = in.boxes.size();
  if (in.body.size() != n || in.fixed.size() != n) {
    throw std::invalid_argument("Broadphase::find_pairs: boxes (" + std::to_string(n) +
                                "), body (" + std::to_string(in.body.size()) + ") and fixed (" +
                                std::to_string(in.fixed.size()) + ") must have the same length");
  }
  // A change of size, bodies, fixedness or kinds resets the structure.
  bool need_reset = !initialized || n != kind.size() ||
                    !std::equal(in.body.begin(), in.body.end(), body.begin()) ||
                    !std::equal(in.fixed.begin(), in.fixed.end(), fixed.begin());
  // Each shape on every core: 2 when its kind changed (a reset), 1 when it left its fat box or
  // shrank far inside it (a new fat box), 0 otherwise.
  const double shrink = 1.0 + kShrinkFactor * kFatFraction;
  int flagged = 0;
  if (!need_reset) {
    flag.resize(n);
    flagged = parallel_count(static_cast<std::ptrdiff_t>(n), kParallelMin, [&](std::ptrdiff_t i) {
      const Aabb& b = in.boxes[static_cast<std::size_t>(i)];
      const auto k = static_cast<Kind>(kind[static_cast<std::size_t>(i)]);
      std::uint8_t f = 0;
      if (classify(b) != k)
        f = 2;
      else if (k == kBounded &&
               !(inside(b, fat[static_cast<std::size_t>(i)]) &&
                 max_extent(fat[static_cast<std::size_t>(i)]) <= shrink * max_extent(b)))
        f = 1;
      flag[static_cast<std::size_t>(i)] = f;
      return f != 0 ? 1 : 0;
    });
    need_reset = flagged > 0 && std::find(flag.begin(), flag.end(), 2) != flag.end();
  }
  if (need_reset) {
    reset(in);
  } else if (flagged > 0) {
    // Shapes that left their fat box, or shrank far inside it, get a new one (in shape order).
    for (std::size_t i = 0; i < n; ++i) {
      if (flag[i] == 0) continue;
      const Aabb& b = in.boxes[i];
      fat[i] = fatten(b);
      refit_leaf(static_cast<std::int32_t>(i));
      moved_flag[i] = 1;
      moved.push_back(static_cast<std::int32_t>(i));
    }
    // A tree loosened by refits is rebuilt (the candidate pairs stay valid: they depend on the
    // fat boxes only).
    if (!moved.empty() && area_sum > kRebuildGrowth * area_built) build_tree();
  }
  if (!moved.empty()) query_moved();

  // Output: the candidates whose boxes overlap, merged with the pairs of unbounded shapes.
  if (unbounded.empty()) {
    filter(in.boxes, pairs);
    return;
  }
  filter(in.boxes, bounded_pairs);
  pair_unbounded(in.boxes);
  pairs.resize(bounded_pairs.size() + unbounded_pairs.size());
  std::merge(bounded_pairs.begin(), bounded_pairs.end(), unbounded_pairs.begin(),
             unbounded_pairs.end(), pairs.begin(), pair_less);
}

Broadphase::Broadphase() : impl_(std::make_unique<Impl>()) {}
Broadphase::~Broadphase() = default;
Broadphase::Broadphase(Broadphase&&) noexcept = default;
Broadphase& Broadphase::operator=(Broadphase&&) noexcept = default;

void Broadphase::find_pairs(const BroadphaseInput& input, std::vector<ShapePair>& pairs) {
  // A moved-from Broadphase starts afresh.
  if (!impl_) impl_ = std::make_unique<Impl>();
  impl_->find_pairs(input, pairs);
}

}  // namespace coulomb
