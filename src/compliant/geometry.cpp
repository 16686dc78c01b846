// Contact geometry with the sharp-feature fallback (coulomb/compliant/geometry.hpp).
#include <coulomb/compliant/geometry.hpp>

#include <cmath>

namespace coulomb {

Curvature rounded(const Curvature& c, double sharp_radius) {
  Curvature r = c;
  if (!(r.r1 > 0.0)) r.r1 = sharp_radius;
  if (!(r.r2 > 0.0)) r.r2 = sharp_radius;
  return r;
}

HertzEllipse contact_ellipse(const Curvature& c1, const Curvature& c2, double sharp_radius) {
  HertzEllipse h = hertz_ellipse(rounded(c1, sharp_radius), rounded(c2, sharp_radius));
  if (std::isfinite(h.radius)) return h;
  // Flat in some direction: a sphere of radius r_s on a plane.
  const Curvature sphere{sharp_radius, sharp_radius, Vec3::UnitX()};
  return hertz_ellipse(sphere, Curvature{});
}

double equivalent_radius(const Curvature& c1, const Curvature& c2, double sharp_radius) {
  return contact_ellipse(c1, c2, sharp_radius).radius;
}

}  // namespace coulomb
