#pragma once
/// @file
/// Shape geometries of coulomb. Each shape lives in its own frame S (placed in the body frame by
/// `Shape::pose_BS`); all lengths in metres.
///
/// Frame conventions of each geometry (the scene-file keys are in docs/scene-format.md):
/// - Plane: the solid half-space {x : normal·x <= offset}; outward unit normal `normal`.
/// - Sphere: centred at the origin.
/// - Box: centred at the origin, faces normal to the axes, half extents (hx, hy, hz).
/// - Capsule: segment from (0,0,-half_length) to (0,0,+half_length), swept by a sphere of `radius`.
/// - Cylinder: axis z, from z = -half_length to +half_length, `radius` (a disk is a thin cylinder).
/// - Ellipsoid: centred, semi-axes (a, b, c) along x, y, z.
/// - Cone: axis z, base disk of `radius` at z = -height/2, apex at z = +height/2 (centre of the
///   bounding box at the origin).
/// - ConvexHull: the convex hull of `points`. Build it with make_convex_hull(), which also fills
/// the
///   precomputed hull (`vertices`, `faces`) used by mass properties and the narrowphase; a hull
///   given only by `points` is treated as if its vertices were all of `points`.

#include <coulomb/math/types.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

namespace coulomb {

struct Plane {
  Vec3 normal = Vec3::UnitZ();  ///< outward unit normal (in S)
  double offset = 0.0;          ///< surface is normal·x = offset [m]
};
struct Sphere {
  double radius = 0.0;  ///< [m]
};
struct Box {
  Vec3 half_extents = Vec3::Zero();  ///< [m]
};
struct Capsule {
  double radius = 0.0;       ///< [m]
  double half_length = 0.0;  ///< half length of the core segment along z [m]
};
struct Cylinder {
  double radius = 0.0;       ///< [m]
  double half_length = 0.0;  ///< [m]
};
struct Ellipsoid {
  Vec3 semi_axes = Vec3::Zero();  ///< (a, b, c) along x, y, z [m]
};
struct Cone {
  double radius = 0.0;  ///< base radius [m]
  double height = 0.0;  ///< base-to-apex height [m]
};
struct ConvexHull {
  std::vector<Vec3> points;  ///< the generating points (S frame) [m]
  /// Precomputed by make_convex_hull (empty otherwise):
  std::vector<Vec3> vertices;  ///< (nv) extreme points, in order of `points` [m]
  std::vector<std::array<std::int32_t, 3>> faces;  ///< (nf) triangles into `vertices`, counter-
                                                   ///< clockwise seen from outside
  std::vector<Vec3> face_normals;                  ///< (nf) outward unit normals
};

/// The convex hull of `points` (incremental algorithm, deterministic, relative tolerance 1e-10 of
/// the bounding-box diagonal: points closer than that to a face are treated as on it).
/// Throws std::invalid_argument when the points do not span a volume (fewer than 4, coplanar).
[[nodiscard]] ConvexHull make_convex_hull(std::span<const Vec3> points);

/// The vertices a hull is searched over: `vertices` if precomputed, else `points`.
[[nodiscard]] inline const std::vector<Vec3>& hull_vertices(const ConvexHull& hull) {
  return hull.vertices.empty() ? hull.points : hull.vertices;
}

/// The geometry of a shape; the order of the alternatives is the dispatch order of the narrowphase.
using Geometry = std::variant<Plane, Sphere, Box, Capsule, Cylinder, Ellipsoid, Cone, ConvexHull>;

/// Kinds in the order of `Geometry`'s alternatives.
enum class ShapeKind : std::uint8_t {
  plane,
  sphere,
  box,
  capsule,
  cylinder,
  ellipsoid,
  cone,
  convex
};

/// The scene-file name of a kind ("plane", "sphere", ...).
[[nodiscard]] std::string_view shape_kind_name(ShapeKind kind);

/// Support point of a bounded geometry in direction `dir_S` (any length, non-zero): a point x of
/// the shape maximising dir·x, in the shape frame S. Deterministic tie-breaking (lowest-index
/// vertex, +half-extent side for a zero component). Not defined for a plane (returns zero).
[[nodiscard]] Vec3 support_point(const Geometry& geometry, const Vec3& dir_S);

/// A shape attached to a body: geometry plus its pose in the body frame B.
struct Shape {
  Geometry geometry;
  Pose pose_BS;  ///< shape frame S in the body frame B
  [[nodiscard]] ShapeKind kind() const { return static_cast<ShapeKind>(geometry.index()); }
};

}  // namespace coulomb
