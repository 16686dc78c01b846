#pragma once
// Flat-on-flat manifold of the general (MPR) pairs: when both shapes show a face along the MPR
// direction, the incident face clipped by the reference face's side planes (face_manifold.cpp).

#include <coulomb/collision/contact_point.hpp>
#include <coulomb/geometry/shape.hpp>

#include <vector>

namespace coulomb::narrow {

// Returns the number of points appended, or −1 when the pair is not flat-on-flat (the caller then
// keeps the single MPR point). n: MPR's direction from shape 1 to shape 2.
int flat_manifold(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                  const Vec3& n, double margin, std::vector<ContactPoint>& out);

}  // namespace coulomb::narrow
