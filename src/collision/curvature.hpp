#pragma once
// Principal curvatures of the curved shapes at a surface point: the ellipsoid's exact shape
// operator, the capsule's side and caps, and a classifier for any shape at a point the general
// (MPR) pairs report. Radii [m]; d1 is returned in the world frame.
//
// Ellipsoid x²/a² + y²/b² + z²/c² = 1: with F = xᵀ D⁻² x − 1, the shape operator on the tangent
// plane is P D⁻² P / |D⁻² x| (P the tangent projector); its eigenvalues are the principal
// curvatures (do Carmo, Differential Geometry of Curves and Surfaces, §3-2). At the end of the a
// axis this gives radii b²/a and c²/a. Cone side at distance r from the axis: r / cos α around
// (Meusnier's theorem, α the half-angle), straight along the generator.

#include "collision/contact_build.hpp"

#include <coulomb/geometry/shape.hpp>

namespace coulomb::narrow {

// Principal radii of the ellipsoid with semi-axes `axes` at its surface point x_L (shape frame);
// q_WL rotates the shape frame to the world (for d1).
Curvature ellipsoid_curvature(const Vec3& axes, const Vec3& x_L, const Quat& q_WL);

// Curvature of a capsule's surface at the point over core parameter t (|t| < half_length: the
// side, radius R around `axis` and straight along it; else a cap sphere). n_out: outward normal.
Curvature capsule_curvature(const Capsule& c, double t, const Vec3& axis, const Vec3& n_out);

// Curvature of a shape's surface at the local point x with world outward normal n_W; q rotates
// local to world (for d1). Classifies the point by the features it lies on (within 1e-9 of the
// size): faces flat, edges and rims sharp across, corners and the apex sharp, curved sides their
// radii. Hulls are reported flat.
Curvature surface_curvature(const Geometry& g, const Vec3& x, const Quat& q, const Vec3& n_W);

}  // namespace coulomb::narrow
