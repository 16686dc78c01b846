#pragma once
/// @file
/// The contact geometry the compliant laws read: the equivalent radius R* of a contact point
/// from the principal curvatures of both surfaces, with the documented fallback for sharp
/// features (docs/compliant.md, "Curvature of sharp features").
///
/// The narrowphase reports a radius of 0 across a sharp edge (box edge, cylinder or cone rim) and
/// at a corner, apex or hull vertex, and ∞ in both directions for the points that sample a face
/// lying on a face (docs/collision.md, "Curvature reported"). Hertz theory needs a finite,
/// non-zero radius: here
///   - a principal radius ≤ 0 (sharp) becomes `sharp_radius` r_s: the edge or corner is rounded
///     by r_s, as every real edge is;
///   - a contact that is still flat in some direction (R* = ∞: a face on a face, a cylinder's side
///     along a face) counts as a sphere of radius r_s on a plane at each of its sample points:
///     R* = r_s.
/// r_s is the scene key `solver.sharp_radius` [m] (default 1 mm), the same in both formulations.

#include <coulomb/collision/contact_point.hpp>
#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/law.hpp>

namespace coulomb {

/// The curvatures with sharp radii (≤ 0) replaced by r_s [m].
[[nodiscard]] Curvature rounded(const Curvature& c, double sharp_radius);

/// The Hertz contact of two surfaces with the sharp-feature fallback: hertz_ellipse of the
/// rounded curvatures, or the circle of R* = r_s when that is flat in some direction.
[[nodiscard]] HertzEllipse contact_ellipse(const Curvature& c1, const Curvature& c2,
                                           double sharp_radius);

/// R* of contact_ellipse [m].
[[nodiscard]] double equivalent_radius(const Curvature& c1, const Curvature& c2,
                                       double sharp_radius);

/// The geometry the compliant laws read at a contact point: R* of contact_ellipse and, when the
/// contact is an ellipse (axis ratio b/a below 1 − 1e-6; nearer to 1 it is taken as a circle), its
/// semi-axes per √δ and the direction of its major axis on the point's (t1, t2): the eigenvector
/// of the smaller eigenvalue of the relative curvature tensor K1 + K2 (K_i = Σ d dᵀ/r over the
/// principal directions of surface i, rounded as above).
[[nodiscard]] NormalGeometry contact_geometry(const ContactPoint& c, double sharp_radius);

/// The radius of the circular Hertz patch with the area of the elliptic one, in the form
/// hertz_patch_radius takes (a = (3 N R/(4 E*))^{1/3} = √(A B)): R = (a_f b_f)^{3/2}/√R* for an
/// ellipse of semi-axes a_f √δ, b_f √δ, R* for a circle; sharp radii rounded by r_s, +inf when
/// the contact is flat in some direction (no Hertz patch: the nonsmooth formulation's Contensou
/// laws then take a point contact, as before).
[[nodiscard]] double patch_area_radius(const Curvature& c1, const Curvature& c2,
                                       double sharp_radius);

}  // namespace coulomb
