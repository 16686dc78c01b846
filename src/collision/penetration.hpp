#pragma once
// Minimum-penetration direction of two overlapping convex shapes: GJK to enclose the origin in
// the Minkowski difference M = A1 − A2, then the Expanding Polytope Algorithm (EPA); and for
// shapes apart, the direction of their closest points by GJK's distance iteration.
//
// For overlapping shapes the origin lies inside M; the minimum translation that separates them is
// the point of ∂M nearest the origin, p* = δ n*, with depth δ = min_{|n|=1} h_M(n) and n* its
// minimiser (h_M the support function of M). EPA keeps a convex polytope P ⊂ M with vertices on
// ∂M (support points) that contains the origin; the face plane of P nearest the origin gives a
// lower bound d_f on δ and its normal n_f an upper bound h_M(n_f) ≥ δ; the support point along
// n_f is added to P until h_M(n_f) − d_f ≤ tolerance. The result is the direction with the least
// h_M found, i.e. the largest separation −h_M (support.hpp).
//
// MPR's portal normal (mpr.hpp) is the normal where the centre-to-centre ray leaves M: for deep
// or oblique overlaps it is not n* (e.g. a box pushed obliquely into another box may leave
// through a face that is not the nearest), which is what EPA fixes.
//
// Allocation-free: fixed arrays of kMaxEpaVertices vertices and kMaxEpaFaces faces; when they are
// full the best direction found so far is returned. Deterministic (no randomness, fixed order).
//
// References: G. van den Bergen, "Proximity Queries and Penetration Depth Computation on 3D Game
// Objects", GDC 2001, and "Collision Detection in Interactive 3D Environments" (2003), §4.3.4;
// E. G. Gilbert, D. W. Johnson, S. S. Keerthi, "A fast procedure for computing the distance
// between complex objects in three-dimensional space", IEEE J. Robotics and Automation 4 (1988);
// G. van den Bergen, "A fast and robust GJK implementation for collision detection of convex
// objects", J. Graphics Tools 4(2) (1999), for the distance iteration's stopping rule;
// C. Ericson, "Real-Time Collision Detection" (2005), §9.5.

#include <coulomb/geometry/shape.hpp>

namespace coulomb::narrow {

constexpr int kMaxEpaVertices = 128;
constexpr int kMaxGjkIterations = 128;
constexpr int kMaxEpaFaces = 2 * kMaxEpaVertices;

// Result of the penetration query, all in the world frame.
struct Penetration {
  Vec3 n = Vec3::UnitZ();  // unit direction from shape 1 to shape 2 of least overlap
  double depth = 0.0;      // h_M(n): overlap depth along n [m] (the gap along n is −depth)
  Vec3 p1 = Vec3::Zero();  // witness point on shape 1 (EPA's nearest face, interpolated) [m]
  Vec3 p2 = Vec3::Zero();  // witness point on shape 2 [m]
  int iterations = 0;      // EPA vertices added
  bool converged = false;  // h_M(n) − lower bound <= tolerance
};

// Minimum-penetration direction of g1 at X1 and g2 at X2, starting GJK from the direction
// `n_hint` (e.g. MPR's normal). `tolerance` [m]: EPA stops when the upper and lower bounds of the
// depth are this close. Returns false when GJK finds the shapes apart (or touching) or the
// polytope degenerates before a first direction: the caller keeps its own direction.
// `grow` [m]: shape 1 grown by a ball of that radius (M ⊕ ball). Growing moves ∂M out by `grow`
// everywhere, so for shapes that touch or are less than `grow` apart it gives the direction of
// their contact or closest points (and grow − depth is their signed distance; p1 lies on the grown
// surface), at the price of rounding M's edges (the direction is then exact only to about
// sqrt(2 tolerance / grow) there).
bool penetration(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                 const Vec3& n_hint, double tolerance, Penetration& out, double grow = 0.0);

// Apart shapes: the direction of their closest points, from shape 1 to shape 2, by GJK's distance
// iteration (the point v = a1 − a2 of M nearest the origin, n = −v/|v|), stopped when the distance
// is known within `tolerance` [m] (its lower bound from the support point towards the origin);
// out.depth = −distance, out.p1/p2 the closest points. False when the shapes touch or overlap.
// (MPR on shapes apart, found through the margin, gives the portal normal of the grown difference,
// which can be far from this direction and then reports a large overlap for separated shapes.)
bool closest_direction(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                       const Vec3& n_hint, double tolerance, Penetration& out);

}  // namespace coulomb::narrow
