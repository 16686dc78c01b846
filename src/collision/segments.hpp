#pragma once
// Closest points of two spheres and of two segments: the kernels of the round pairs (sphere,
// capsule) and of box–box's edge–edge case.

#include <coulomb/math/types.hpp>

namespace coulomb::narrow {

// A sphere (centre c1, radius r1) against a sphere (c2, r2): the unit normal n from 1 to 2 (+z of
// the world for coincident centres), gap = |c2 − c1| − r1 − r2 and the surface points p1, p2.
void sphere_pair_point(const Vec3& c1, double r1, const Vec3& c2, double r2, Vec3& n, double& gap,
                       Vec3& p1, Vec3& p2);

// Closest points of segments P(s) = p + s u, s ∈ [-a, a] and Q(t) = q + t v, t ∈ [-b, b]
// (u, v unit). Returns s, t. Deterministic choice for parallel segments (the middle of overlap).
void segment_segment(const Vec3& p, const Vec3& u, double a, const Vec3& q, const Vec3& v, double b,
                     double& s, double& t);

}  // namespace coulomb::narrow
