#pragma once
// libccd's Minkowski Portal Refinement (MPR) as the detector and first direction of the general
// convex pairs.
//
// MPR runs on shape 1 grown by `margin` (a Minkowski sum with a ball, through the support
// function), so that shapes up to `margin` apart are found. It returns the portal normal where the
// ray from the centre of the Minkowski difference towards the origin leaves it: exact where that
// ray leaves through a flat part (and for spheres), not the minimum-penetration direction in
// general. Callers recompute the gap along the direction from the exact support functions.
//
// Reference: G. Snethen, "XenoCollide: Complex Collision Made Simple", Game Programming Gems 7
// (2008); libccd (D. Fiser), ccdMPRPenetration. libccd's MPR allocates nothing.

#include <coulomb/geometry/shape.hpp>

namespace coulomb::narrow {

// MPR between g1 (grown by max(margin, 0)) at X1 and g2 at X2. Returns false when they do not
// intersect (or MPR gives a zero direction); else n (unit, from shape 1 to shape 2) and MPR's
// contact position `pos` in the world.
bool mpr_direction(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                   double margin, Vec3& n, Vec3& pos);

// An interior point of the shape in its frame: the origin, except for hulls (vertex mean).
Vec3 interior_point(const Geometry& g);

// True for shapes without flat parts or edges (sphere, ellipsoid, capsule).
bool is_smooth(const Geometry& g);

}  // namespace coulomb::narrow
