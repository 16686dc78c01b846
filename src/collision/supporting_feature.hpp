#pragma once
// Supporting feature of a shape along a direction: the face, line or point of the shape that
// touches a support plane of outward normal d (or nearly does), as a polygon, a segment or a point
// in the world frame. The contact manifold (contact_manifold.hpp) clips one shape's feature by the
// other's face.
//
// Per kind, for the unit outward world direction d (local d_L = Rᵀ d):
//
//   box        the face whose normal is most aligned with d (4 corners, counter-clockwise about its
//              outward normal); id 2k + (side +), k the axis
//   hull       the support vertex v* along d; of the hull triangles through v*, the one whose
//              normal is most aligned with d, widened to every hull vertex within 1e-9 of the size
//              of its plane (a face of up to kMaxPoly vertices, counter-clockwise from its lowest
//              vertex index); id: the lowest index of the triangles in that plane. Faces with more
//              vertices, or hulls without triangles: the support vertex as a point (id 1012)
//   cylinder   within 45° of the axis: the cap facing d, as the kRimSamples rim samples at
//              θk = 2πk/8 of the shape frame (the points plane–cylinder reports), with the exact
//              rim point along d inserted between its two neighbours when the cap is tilted by
//              more than kFlatAngle (label 8); id 0 bottom, 1 top. Else the side generator at the
//              azimuth of d: the rim points along d of both caps (id 1001)
//   cone       the base (as a cylinder cap, id 0) when d is more aligned with −z than with the side
//              normal at its azimuth, else the generator from the base rim point at that azimuth to
//              the apex (id 1002)
//   capsule    the core segment with the radius (id 1000), whatever d: each end's point is its end
//              sphere's support point, so the segment's ends are exact for any tilt
//   sphere     the centre with the radius (id 1010); ellipsoid: its support point (id 1011)
//
// Whatever the angle between the feature and d, every vertex of a feature is a point of the
// surface (or of the core of a rounded shape), so the contact manifold reports it with its own
// exact gap, and the contact margin, not an angle, decides which points count (docs/collision.md,
// "Supporting features and clipping", explains this choice against Jolt's, Bullet's and MuJoCo's).
//
// References: Jolt Physics, ConvexShape::GetSupportingFace (BoxShape.cpp, CylinderShape.cpp,
// CapsuleShape.cpp, ConvexHullShape.cpp); D. Gregorius, "Robust Contact Creation for Physics
// Simulations", GDC 2015.

#include <coulomb/geometry/shape.hpp>

#include <array>
#include <cstdint>

namespace coulomb::narrow {

// Largest polygon of a supporting feature (hull faces with more vertices give a point).
constexpr int kMaxPoly = 16;

// Ids of the non-face features (faces use ids below kFeatureSegment).
constexpr std::uint32_t kFeatureSegment = 1000;  // + 0 capsule core, 1 cylinder side, 2 cone side
constexpr std::uint32_t kFeaturePoint = 1010;    // + 0 sphere, 1 ellipsoid, 2 hull vertex

enum class FeatureKind : std::uint8_t { point, segment, polygon };

struct Feature {
  FeatureKind kind = FeatureKind::point;
  int count = 0;                 // vertices: 1 point, 2 segment, 3..kMaxPoly polygon
  std::array<Vec3, kMaxPoly> v;  // (count) world vertices: surface points, or for a rounded
                                 // shape (sphere, capsule) the core, to be offset by `radius`
  std::array<std::uint8_t, kMaxPoly> label{};  // (count) polygon vertex labels, < 16, stable while
                                               // the same face is chosen (the inserted rim point 8)
  Vec3 normal = Vec3::Zero();                  // polygon: outward unit normal
  Vec3 centre =
      Vec3::Zero();          // polygon: a point of its plane (box face or cap centre, hull vertex)
  double radius = 0.0;       // the surface is the feature swept by a ball of this radius [m]
  std::uint32_t id = 0;      // face id (< kFeatureSegment), segment or point id
  double rim_radius = kInf;  // polygon: radius of the circle its vertices sample [m] (∞: straight)
  // Segments: the line of curvature centres and the radius about it (capsule core and radius,
  // cylinder axis and radius; a cone generator is its own line with radius 0).
  std::array<Vec3, 2> line;
  double line_radius = 0.0;  // [m]
};

// The supporting feature of g placed at X along the unit outward world direction d.
void supporting_feature(const Geometry& g, const Pose& X, const Vec3& d_W, Feature& f);

}  // namespace coulomb::narrow
