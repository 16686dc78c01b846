#pragma once
/// @file
/// Broadphase: the pairs of shapes whose axis-aligned bounding boxes overlap.

#include <coulomb/geometry/shape.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace coulomb {

/// Axis-aligned bounding box in the world frame [m]. Unbounded shapes (planes) use ±inf.
/// An empty box (lo > hi on some axis, NaN, or the default Aabb) never pairs in the broadphase,
/// even with a fully infinite box (which `overlaps` alone would accept).
struct Aabb {
  Vec3 lo = Vec3::Constant(kInf);
  Vec3 hi = Vec3::Constant(-kInf);
  [[nodiscard]] bool overlaps(const Aabb& o) const {
    return lo.x() <= o.hi.x() && o.lo.x() <= hi.x() && lo.y() <= o.hi.y() && o.lo.y() <= hi.y() &&
           lo.z() <= o.hi.z() && o.lo.z() <= hi.z();
  }
};

/// World AABB of a geometry placed at X_WS, grown by `margin` on every side.
[[nodiscard]] Aabb compute_aabb(const Geometry& geometry, const Pose& X_WS, double margin);

/// One candidate pair of shapes, a < b (global shape indices).
struct ShapePair {
  std::int32_t a = -1;
  std::int32_t b = -1;
  friend bool operator==(const ShapePair&, const ShapePair&) = default;
};

/// Input of the broadphase, per shape (all spans the same length).
struct BroadphaseInput {
  std::span<const Aabb> boxes;         ///< (nshapes) world AABBs
  std::span<const std::int32_t> body;  ///< (nshapes) owning body: shapes of one body never pair
  /// (nshapes) 1 if the owning body is fixed: two fixed never pair. Read as bit masks: two shapes
  /// whose masks share a bit never pair (the step's sleeping islands: a fixed body 3, a driven one
  /// 1, a sleeping one 2, so that a driven body still meets a sleeping one).
  std::span<const std::uint8_t> fixed;
};

/// Finds overlapping pairs in better than O(N²) for bounded shapes. Keeps its own acceleration
/// structure between calls (temporal coherence); allocation-free once warm.
/// Output is sorted by (a, b), so that results are deterministic.
class Broadphase {
 public:
  Broadphase();
  ~Broadphase();
  Broadphase(Broadphase&&) noexcept;
  Broadphase& operator=(Broadphase&&) noexcept;

  /// Replaces `pairs` with the overlapping pairs of `input`.
  void find_pairs(const BroadphaseInput& input, std::vector<ShapePair>& pairs);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace coulomb
