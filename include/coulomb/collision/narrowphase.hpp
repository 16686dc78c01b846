#pragma once
/// @file
/// Narrowphase: contact points between two shapes. Closed forms where they exist; for the other
/// convex pairs libccd's MPR, refined by GJK + EPA (overlaps) or GJK's distance (shapes apart), for
/// the direction, then the shapes' supporting features clipped into a manifold. See
/// docs/collision.md for the list of pairs and their methods.

#include <coulomb/collision/contact_point.hpp>
#include <coulomb/geometry/shape.hpp>

#include <vector>

namespace coulomb {

/// Appends to `out` the contact points between geometry g1 placed at X_W1 and g2 placed at X_W2
/// whose gap is at most `margin` [m]. Fills p1_W, p2_W, n_W (from shape 1 to shape 2), t1_W, t2_W,
/// gap, feature, curvature1/2; leaves the body and shape indices to the caller.
/// Line and face contacts give several points (a box face on a plane its 4 corners, a capsule lying
/// on a box the 2 ends of its segment; for the general pairs a face on a face the clipped polygon,
/// at most 8 points).
/// Returns the number of points appended. Allocation-free when `out` has capacity.
int collide(const Geometry& g1, const Pose& X_W1, const Geometry& g2, const Pose& X_W2,
            double margin, std::vector<ContactPoint>& out);

/// Replaces points [first, end) of `points` (those of one pair) by one at their centroid: the
/// means of p1_W, p2_W and gap, the frame and curvatures of the first, feature 0. The point of a
/// Coulomb–Contensou patch law, which models the whole contact patch of the pair (a disk lying
/// on a plane gives its rim). Nothing changes for fewer than two points.
void merge_into_centroid(std::vector<ContactPoint>& points, std::size_t first);

}  // namespace coulomb
