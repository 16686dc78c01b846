#pragma once
/// @file
/// The output of the narrowphase: one contact point between two shapes of two bodies.
///
/// Sign conventions (docs/architecture.md): the unit normal n points from body 1 to body 2; the
/// signed gap is > 0 when separated, < 0 when penetrating; the contact frame (t1, t2, n) is
/// right-handed, built from n by coulomb::complete_frame unless the pair fixes t1 itself.

#include <coulomb/math/types.hpp>

#include <cstdint>

namespace coulomb {

/// State of a contact: separated, sticking (rolling without slipping), sliding.
enum class ContactStatus : std::uint8_t { separated = 0, sticking = 1, sliding = 2 };

/// Principal radii of curvature of a surface at a point [m]; +inf for a flat direction.
/// Convex surfaces have positive radii. `d1` is the unit direction of the first principal radius
/// (tangent to the surface); the second direction is n × d1.
struct Curvature {
  double r1 = kInf;  ///< [m]
  double r2 = kInf;  ///< [m]
  Vec3 d1 = Vec3::UnitX();
};

/// One contact point between shape `shape1` of body `body1` and shape `shape2` of body `body2`.
struct ContactPoint {
  std::int32_t body1 = -1;  ///< body index in the model
  std::int32_t body2 = -1;
  std::int32_t shape1 = -1;  ///< global shape index in the model
  std::int32_t shape2 = -1;
  std::uint32_t feature =
      0;  ///< identifies the point among several of one shape pair (e.g. box corner)
  Vec3 p1_W = Vec3::Zero();   ///< closest/deepest point on the surface of shape 1 [m]
  Vec3 p2_W = Vec3::Zero();   ///< closest/deepest point on the surface of shape 2 [m]
  Vec3 n_W = Vec3::UnitZ();   ///< unit normal from body 1 to body 2
  Vec3 t1_W = Vec3::UnitX();  ///< first tangent: (t1, t2, n) right-handed
  Vec3 t2_W = Vec3::UnitY();  ///< second tangent
  double gap = 0.0;           ///< signed distance along n [m]: (p2 - p1)·n
  Curvature curvature1;       ///< of shape 1's surface at p1
  Curvature curvature2;       ///< of shape 2's surface at p2

  /// The contact point I used by kinematics and dynamics: the midpoint of p1 and p2.
  [[nodiscard]] Vec3 point() const { return 0.5 * (p1_W + p2_W); }
};

}  // namespace coulomb
