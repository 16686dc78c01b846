#pragma once
/// @file
/// Mass properties of shapes and of bodies made of several shapes.

#include <coulomb/geometry/shape.hpp>

namespace coulomb {

/// Mass, centre of mass and inertia tensor.
struct MassProperties {
  double mass = 0.0;            ///< [kg]
  Vec3 com = Vec3::Zero();      ///< centre of mass, in the frame the properties are given in [m]
  Mat3 inertia = Mat3::Zero();  ///< inertia tensor about `com`, axes of that frame [kg m²]
};

/// Mass properties of a solid shape of uniform `density` [kg/m³], in the shape frame S.
/// Throws std::invalid_argument for an unbounded shape (plane) or a degenerate one.
[[nodiscard]] MassProperties shape_mass_properties(const Geometry& geometry, double density);

/// Volume of a bounded shape [m³] (throws for a plane).
[[nodiscard]] double shape_volume(const Geometry& geometry);

/// Expresses `mp` (given in frame S) in frame B where S is placed by `pose_BS`.
[[nodiscard]] MassProperties transform(const MassProperties& mp, const Pose& pose_BS);

/// Sum of mass properties given in one frame (parallel-axis theorem); inertia about the combined
/// centre of mass.
[[nodiscard]] MassProperties combine(const MassProperties& a, const MassProperties& b);

}  // namespace coulomb
