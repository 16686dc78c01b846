#pragma once
// Contact manifold of two supporting features (supporting_feature.hpp): the points of the general
// convex pairs.
//
// Face against any feature: the reference face (normal nr, pointing to the other shape, and a
// point c of its plane) clips the incident feature by its side planes {x : s_j·(x − r_j) <= 0},
// s_j = (r_{j+1} − r_j) × nr for its counter-clockwise vertices r_j: a polygon by
// Sutherland–Hodgman, a segment by cutting its parameter interval (Cyrus–Beck), a point by the
// same inside test. Each remaining incident point x (moved by the incident radius towards the
// face, x − ρ nr) gets gap = nr·(x − c): the distance of that surface point from the face plane,
// from the shapes' own coordinates, so exactly placed bodies give round-off zeros. Points with gap
// <= margin are kept, at most kMaxManifold: the deepest, then repeatedly the farthest from those
// kept (ties to the lower index), in clipping order. The normal is nr (from shape 1 to shape 2:
// nr or −nr); the point on the face is x projected on its plane.
//
// Two lines (capsule cores, cylinder sides, cone generators) without a face between them: each
// line is a line of curvature centres L_i with a radius ρ_i (the capsule's core and radius, the
// cylinder's axis and radius, a cone generator with 0). The points are the two ends of the overlap
// of L_2's projection on L_1 and, when the lines are not parallel (within kFlatAngle), their
// closest points lie on both segments and that crossing is deeper than both ends (by more than a
// tolerance), the crossing point; at each, with x1 on L_1 and x2 the
// nearest point of L_2, n = (x2 − x1)/|x2 − x1| and gap = |x2 − x1| − ρ1 − ρ2: the exact distance
// of the two round lines there (capsule–capsule's closed form; a cylinder's side is the same
// surface between its caps). For parallel lines the ends are the line contact's ends; for crossed
// lines the crossing is the exact contact, with n ∥ L_1 × L_2.
//
// Feature ids (bits): 31 set | 30 reference face on shape 2 | 20–29 reference face id (1023: two
// lines) | 10–19 incident feature id (a face id, kFeatureSegment + k, kFeaturePoint + k) | 0–9 the
// point: for a polygon, its vertex label (< 16), 16 + 16 e + j for its edge e (label of the edge's
// first vertex) cut by side plane j, 272 + 16 j' + j for the reference corner of side planes j', j;
// for a segment, its end e (0, 1), 16 + 16 e + j for end e moved to side plane j; a point: 0; two
// lines: the overlap ends 0, 1 and the crossing 2. Ids are stable while the same vertices stay
// inside and the same edges cross the same side planes.
//
// References: I. E. Sutherland, G. W. Hodgman, "Reentrant polygon clipping", CACM 17 (1974);
// M. Cyrus, J. Beck, "Generalized two- and three-dimensional clipping", Computers & Graphics 3
// (1978); Jolt Physics ManifoldBetweenTwoFaces.cpp and ClipPoly.h; Bullet
// btPolyhedralContactClipping.cpp; D. Gregorius, "Robust Contact Creation for Physics
// Simulations", GDC 2015.

#include "collision/supporting_feature.hpp"

#include <coulomb/collision/contact_point.hpp>

#include <array>

namespace coulomb::narrow {

// Two lines count as parallel within this angle [rad] (2°): then the ends of their overlap are
// reported as well as their crossing. For capsules the ends' gaps are exact at any angle; for a
// cylinder the point on its side is off the surface by R (1 − cos ψ) ≈ R ψ²/2 at an angle ψ between
// the lines (at most 6e-4 R), a gap slightly too large at the ends only, while the crossing point
// (the exact closest points) is reported whenever it is deeper. Beyond this angle the lines cross
// and their single crossing point is the contact.
constexpr double kParallelLines = 2.0 * kPi / 180.0;
// At most this many manifold points per pair.
constexpr int kMaxManifold = 8;
// Reference face id of a two-line manifold.
constexpr std::uint32_t kNoFace = 1023;

// The points of one manifold, before they are appended to the output.
struct Manifold {
  std::array<ContactPoint, kMaxManifold> point;
  int count = 0;
  double min_gap = kInf;  // smallest gap among the points [m]
};

// The manifold of the reference face `ref` (a polygon of shape 1, or of shape 2 when `ref_on_2`)
// and the incident feature `inc` of the other shape g_inc placed at X_inc. False when no point
// remains within margin.
bool clip_to_face(const Feature& ref, bool ref_on_2, const Feature& inc, const Geometry& g_inc,
                  const Pose& X_inc, double margin, Manifold& m);

// The manifold of two segment features f1 (of g1 at X1) and f2 (of g2 at X2). False when the
// lines do not overlap, or their axes meet (no direction), or no point is within margin.
// The crossing point is added only when it is deeper than both ends by more than `crossing_depth`
// [m], so that nearly parallel lines keep their two points (and ids) as they turn slightly.
bool line_pair(const Feature& f1, const Geometry& g1, const Pose& X1, const Feature& f2,
               const Geometry& g2, const Pose& X2, double margin, double crossing_depth,
               Manifold& m);

}  // namespace coulomb::narrow
