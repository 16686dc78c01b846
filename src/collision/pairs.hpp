#pragma once
// The pair functions of the narrowphase, one per (kind 1, kind 2) with kind 1 <= kind 2 in the
// order of Geometry's alternatives, all with the signature of the pair table (narrowphase.cpp):
// they append the points with gap <= margin and return their number. Each file holds one family:
//
//   plane_pairs.cpp   plane against every kind (closed forms)
//   round_pairs.cpp   sphere–sphere, sphere–capsule, sphere–box, capsule–capsule (closed forms)
//   box_box.cpp       separating axes and face clipping
//   convex_pair.cpp   every other pair: MPR/EPA direction, then a supporting-feature manifold
//
// Conventions: n from shape 1 to shape 2, gap = (p2 − p1)·n; see contact_build.hpp.

#include <coulomb/collision/contact_point.hpp>
#include <coulomb/geometry/shape.hpp>

#include <vector>

namespace coulomb::narrow {

// The alternative of a geometry the pair table has already checked (no exception path).
template <class T>
const T& as(const Geometry& g) {
  return *std::get_if<T>(&g);
}

// Signature of every entry of the pair table.
using PairFn = int (*)(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                       double margin, std::vector<ContactPoint>& out);

// Plane (shape 1) against each kind (shape 2).
int plane_plane(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
                std::vector<ContactPoint>&);
int plane_sphere(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
                 std::vector<ContactPoint>&);
int plane_box(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
              std::vector<ContactPoint>&);
int plane_capsule(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
                  std::vector<ContactPoint>&);
int plane_cylinder(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
                   std::vector<ContactPoint>&);
int plane_ellipsoid(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
                    std::vector<ContactPoint>&);
int plane_cone(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
               std::vector<ContactPoint>&);
int plane_hull(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
               std::vector<ContactPoint>&);

// Sphere and capsule closed forms.
int sphere_sphere(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
                  std::vector<ContactPoint>&);
int sphere_box(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
               std::vector<ContactPoint>&);
int sphere_capsule(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
                   std::vector<ContactPoint>&);
int capsule_capsule(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
                    std::vector<ContactPoint>&);

// Box–box: separating axes, face clipping or one edge–edge point.
int box_box(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
            std::vector<ContactPoint>&);

// Every other pair of bounded convex shapes.
int convex_pair(const Geometry&, const Pose&, const Geometry&, const Pose&, double,
                std::vector<ContactPoint>&);

}  // namespace coulomb::narrow
