// Contact geometry with the sharp-feature fallback (coulomb/compliant/geometry.hpp).
#include <coulomb/compliant/geometry.hpp>

#include <Eigen/Eigenvalues>

#include <cmath>

namespace coulomb {

namespace {

// An ellipse whose axis ratio b/a is within this of 1 is taken as a circle.
constexpr double kCircular = 1e-6;

}  // namespace

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

NormalGeometry contact_geometry(const ContactPoint& c, double sharp_radius) {
  const Curvature c1 = rounded(c.curvature1, sharp_radius);
  const Curvature c2 = rounded(c.curvature2, sharp_radius);
  const HertzEllipse h = hertz_ellipse(c1, c2);
  NormalGeometry g;
  if (!std::isfinite(h.radius)) {
    g.radius = sharp_radius;  // flat in some direction: a sphere of r_s on a plane
    return g;
  }
  g.radius = h.radius;
  // Nearly circular (b/a within 1e-6 of 1): the circle (the difference is of that order).
  if (!(h.axis_ratio < 1.0 - kCircular)) return g;
  // The relative curvature tensor on (t1, t2): Σ over both surfaces of d dᵀ/r.
  Eigen::Matrix<double, 3, 2> T;
  T.col(0) = c.t1_W;
  T.col(1) = c.t2_W;
  Mat2 k = Mat2::Zero();
  for (const Curvature* s : {&c1, &c2}) {
    Vec3 d1 = s->d1 - s->d1.dot(c.n_W) * c.n_W;
    if (!(d1.norm() > 0.0)) continue;
    d1.normalize();
    const Vec3 d2 = c.n_W.cross(d1);
    const Vec2 e1 = T.transpose() * d1, e2 = T.transpose() * d2;
    if (std::isfinite(s->r1)) k += (1.0 / s->r1) * e1 * e1.transpose();
    if (std::isfinite(s->r2)) k += (1.0 / s->r2) * e2 * e2.transpose();
  }
  const Eigen::SelfAdjointEigenSolver<Mat2> eig(k);
  g.a_factor = h.a_factor;
  g.b_factor = h.b_factor;
  g.major = eig.eigenvectors().col(0);  // the smaller curvature: the major semi-axis
  return g;
}

double patch_area_radius(const Curvature& c1, const Curvature& c2, double sharp_radius) {
  const HertzEllipse h = hertz_ellipse(rounded(c1, sharp_radius), rounded(c2, sharp_radius));
  if (!std::isfinite(h.radius)) return kInf;
  if (!(h.axis_ratio < 1.0 - kCircular)) return h.radius;
  return std::pow(h.a_factor * h.b_factor, 1.5) / std::sqrt(h.radius);
}

}  // namespace coulomb
