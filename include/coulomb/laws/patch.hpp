#pragma once
/// @file
/// Coulomb's law integrated over a planar contact patch: resultant force and moment of a given
/// pressure field p(x, y) and a rigid slip field, by Gauss quadrature over annular sectors and
/// convex polygons.
///
/// Model
/// -----
/// The patch lies in the plane of the contact frame (t1, t2, n); points x = (x, y) are components
/// on (t1, t2) from the patch origin O. The slip of body 2 relative to body 1 is the rigid field
///     u(x) = v0 + ω n × x = (v0x − ω y, v0y + ω x),
/// v0 the slip at O, ω = (ω_2 − ω_1)·n. Coulomb's law point by point (sliding everywhere except on
/// a set of measure zero) gives the surface traction of body 1 on body 2
///     t(x) = p(x) n − μ p(x) u/|u|,
/// and the resultants, on (t1, t2, n), about O:
///     R = ∬ t dA,   M_O = ∬ x × t dA = ∬ (y p, −x p, x t_y − y t_x) dA,
///     dissipated power P = ∬ μ p |u| dA ≥ 0.
///
/// | symbol | meaning                                  | unit  | range  |
/// |--------|------------------------------------------|-------|--------|
/// | p      | contact pressure                         | Pa    | ≥ 0    |
/// | μ      | friction coefficient                     | -     | ≥ 0    |
/// | v0     | slip at the patch origin (on t1, t2)     | m/s   |        |
/// | ω      | relative spin about n                    | rad/s |        |
/// | R, M_O | resultant force, moment about O          | N, N m|        |
///
/// Sign conventions (DESIGN.md §1): n from body 1 to body 2, (t1, t2, n) right-handed, action of
/// body 1 on body 2 (N = R·n ≥ 0 for p ≥ 0); friction opposes the slip of 2 relative to 1.
///
/// Quadrature: the integrand is bounded but its direction u/|u| turns by 2π around the
/// instantaneous centre C = (−v0y, v0x)/ω. Sectors are integrated in polar coordinates about O
/// (Gauss–Legendre in r and φ), split at C's radius and angle when C lies inside; polygons are
/// split into triangles fanned from C when C is inside (each edge cut so that a triangle subtends
/// ≤ π/4 at C; each triangle then has its singular point at a vertex, removed by the collapsed map
/// x = A + s[(B − A) + t(C − B)], Jacobian ∝ s), else from the first vertex. Accuracy: spectral
/// when C is outside the patch (or at O for sectors); algebraic (~1e-6 with the default nodes) for
/// a sector with C strictly inside away from O. Validity: rigid slip field, one μ over the patch,
/// given pressure (not solved for). Reference: the brake pad, seed textbook example 10.3.16
/// (reference/contensou.md §3.12), and docs/contensou.md for the derivation of its closed form in
/// these conventions.

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace coulomb::patch {

using Vec2 = Eigen::Vector2d;  ///< components on (t1, t2)
using Vec3 = Eigen::Vector3d;  ///< components on (t1, t2, n)

/// Rigid slip of body 2 relative to body 1 over the patch.
struct RigidSlip {
  Vec2 v0 = Vec2::Zero();  ///< slip at the patch origin [m/s]
  double omega = 0.0;      ///< relative spin about n [rad/s]
};

/// Resultants of the contact action of body 1 on body 2, about the patch origin.
struct Wrench {
  Vec3 force = Vec3::Zero();   ///< R on (t1, t2, n) [N]
  Vec3 moment = Vec3::Zero();  ///< M_O on (t1, t2, n) [N m]
  double power = 0.0;          ///< friction power dissipated ∬ μ p |u| dA ≥ 0 [W]
};

/// Annular sector r ∈ [r_inner, r_outer], φ ∈ [phi_begin, phi_end] (polar about the origin).
struct AnnularSector {
  double r_inner = 0.0;    ///< [m], ≥ 0
  double r_outer = 1.0;    ///< [m], > r_inner
  double phi_begin = 0.0;  ///< [rad]
  double phi_end = 0.0;    ///< [rad], phi_begin < phi_end ≤ phi_begin + 2π

  /// Validated constructor: throws std::invalid_argument naming the bad field.
  [[nodiscard]] static AnnularSector make(double r_inner, double r_outer, double phi_begin,
                                          double phi_end);
};

/// True if the polygon (≥ 3 vertices) is convex and counter-clockwise (collinear vertices allowed).
[[nodiscard]] bool is_convex_ccw(std::span<const Vec2> vertices);

/// Gauss quadrature of Coulomb's law over a patch; node tables built once here.
class PatchQuadrature {
 public:
  /// n_radial, n_angular: Gauss nodes per panel (≥ 2, ≤ 1000); n_angular is used per panel of
  /// angular width ≤ π/2. Throws std::invalid_argument otherwise.
  explicit PatchQuadrature(int n_radial = 16, int n_angular = 24);

  /// Resultants over an annular sector; `pressure` is callable as double(double x, double y) [Pa].
  template <class Pressure>
  [[nodiscard]] Wrench sector(const AnnularSector& s, const Pressure& pressure,
                              const RigidSlip& slip, double mu) const;

  /// Resultants over a convex counter-clockwise polygon (checked with assert; use is_convex_ccw
  /// at setup).
  template <class Pressure>
  [[nodiscard]] Wrench polygon(std::span<const Vec2> vertices, const Pressure& pressure,
                               const RigidSlip& slip, double mu) const;

 private:
  template <class Pressure>
  void add_point(double x, double y, double weight, const Pressure& pressure, const RigidSlip& slip,
                 double mu, Wrench& out) const;
  template <class Pressure>
  void add_triangle(const Vec2& a, const Vec2& b, const Vec2& c, const Pressure& pressure,
                    const RigidSlip& slip, double mu, Wrench& out) const;
  std::vector<double> xr_, wr_;  // (n_radial) Gauss–Legendre on [−1, 1]
  std::vector<double> xa_, wa_;  // (n_angular)
};

// ---------------------------------------------------------------------------------------------
// Template implementation
// ---------------------------------------------------------------------------------------------

// One quadrature point: traction p n − μ p u/|u| and its moment about O.
template <class Pressure>
void PatchQuadrature::add_point(double x, double y, double weight, const Pressure& pressure,
                                const RigidSlip& slip, double mu, Wrench& out) const {
  const double p = pressure(x, y) * weight;
  const double ux = slip.v0.x() - slip.omega * y;
  const double uy = slip.v0.y() + slip.omega * x;
  const double un = std::hypot(ux, uy);
  double fx = 0.0, fy = 0.0;
  if (un > 0.0) {
    fx = -mu * p * ux / un;
    fy = -mu * p * uy / un;
  }
  out.force += Vec3(fx, fy, p);
  out.moment += Vec3(y * p, -x * p, x * fy - y * fx);
  out.power += mu * p * un;
}

template <class Pressure>
Wrench PatchQuadrature::sector(const AnnularSector& s, const Pressure& pressure,
                               const RigidSlip& slip, double mu) const {
  Wrench out;
  // Break points: the instantaneous centre's radius and angle if it lies strictly inside.
  double rb[3] = {s.r_inner, s.r_outer, s.r_outer};
  int nr = 1;
  double pb[12];  // angular break points: ≤ 4 + 4 panels + 1
  int np = 0;
  bool split_angle = false;
  double phi_c = 0.0;
  if (slip.omega != 0.0) {
    const double cx = -slip.v0.y() / slip.omega, cy = slip.v0.x() / slip.omega;
    const double rc = std::hypot(cx, cy);
    if (rc > s.r_inner && rc < s.r_outer) {
      phi_c = std::atan2(cy, cx);
      // Bring φ_C into [phi_begin, phi_begin + 2π).
      constexpr double k2Pi = 6.283185307179586476925;
      while (phi_c < s.phi_begin) phi_c += k2Pi;
      while (phi_c >= s.phi_begin + k2Pi) phi_c -= k2Pi;
      if (phi_c > s.phi_begin && phi_c < s.phi_end) {
        split_angle = true;
        rb[1] = rc;
        nr = 2;
      }
    }
  }
  // Angular panels of width ≤ π/2, with a break at φ_C.
  constexpr double kQuarter = 1.5707963267948966192;
  auto add_panels = [&](double a, double b) {
    const int n = std::max(1, static_cast<int>(std::ceil((b - a) / kQuarter - 1e-12)));
    for (int i = 0; i <= n; ++i) pb[np++] = a + (b - a) * i / n;
    --np;  // the end point is the next range's start
  };
  if (split_angle) {
    add_panels(s.phi_begin, phi_c);
    add_panels(phi_c, s.phi_end);
  } else {
    add_panels(s.phi_begin, s.phi_end);
  }
  pb[np++] = s.phi_end;
  if (nr == 2) rb[2] = s.r_outer;
  for (int ip = 0; ip + 1 < np; ++ip) {
    const double a = pb[ip], b = pb[ip + 1];
    for (std::size_t i = 0; i < xa_.size(); ++i) {
      const double phi = 0.5 * (a + b) + 0.5 * (b - a) * xa_[i];
      const double wphi = 0.5 * (b - a) * wa_[i];
      const double c = std::cos(phi), sn = std::sin(phi);
      for (int ir = 0; ir < nr; ++ir) {
        const double r0 = rb[ir], r1 = rb[ir + 1];
        for (std::size_t j = 0; j < xr_.size(); ++j) {
          const double r = 0.5 * (r0 + r1) + 0.5 * (r1 - r0) * xr_[j];
          const double w = wphi * 0.5 * (r1 - r0) * wr_[j] * r;
          add_point(r * c, r * sn, w, pressure, slip, mu, out);
        }
      }
    }
  }
  return out;
}

// Collapsed (Duffy) map of [0,1]² onto the triangle (a, b, c): singular vertex a.
template <class Pressure>
void PatchQuadrature::add_triangle(const Vec2& a, const Vec2& b, const Vec2& c,
                                   const Pressure& pressure, const RigidSlip& slip, double mu,
                                   Wrench& out) const {
  const Vec2 e1 = b - a, e2 = c - b;
  const double det = std::abs(e1.x() * e2.y() - e1.y() * e2.x());
  if (det == 0.0) return;
  for (std::size_t i = 0; i < xr_.size(); ++i) {
    const double s = 0.5 * (1.0 + xr_[i]);
    for (std::size_t j = 0; j < xa_.size(); ++j) {
      const double t = 0.5 * (1.0 + xa_[j]);
      const Vec2 x = a + s * (e1 + t * e2);
      const double w = 0.25 * wr_[i] * wa_[j] * s * det;
      add_point(x.x(), x.y(), w, pressure, slip, mu, out);
    }
  }
}

template <class Pressure>
Wrench PatchQuadrature::polygon(std::span<const Vec2> v, const Pressure& pressure,
                                const RigidSlip& slip, double mu) const {
  Wrench out;
  const std::size_t n = v.size();
  if (n < 3) return out;
  // Instantaneous centre strictly inside: fan from it.
  if (slip.omega != 0.0) {
    const Vec2 c(-slip.v0.y() / slip.omega, slip.v0.x() / slip.omega);
    bool inside = true;
    for (std::size_t i = 0; i < n && inside; ++i) {
      const Vec2 e = v[(i + 1) % n] - v[i], d = c - v[i];
      inside = e.x() * d.y() - e.y() * d.x() > 0.0;
    }
    if (inside) {
      // Each edge is cut so that every triangle subtends at most π/4 at C (the direction of u
      // turns with the angle seen from C: this keeps it a gentle function of t).
      for (std::size_t i = 0; i < n; ++i) {
        const Vec2& b = v[i];
        const Vec2& e = v[(i + 1) % n];
        const Vec2 db = b - c, de = e - c;
        const double angle = std::atan2(db.x() * de.y() - db.y() * de.x(), db.dot(de));
        const int k = std::max(1, static_cast<int>(std::ceil(angle / 0.7853981633974483)));
        for (int j = 0; j < k; ++j) {
          const Vec2 p0 = b + (e - b) * (static_cast<double>(j) / k);
          const Vec2 p1 = b + (e - b) * (static_cast<double>(j + 1) / k);
          add_triangle(c, p0, p1, pressure, slip, mu, out);
        }
      }
      return out;
    }
  }
  for (std::size_t i = 1; i + 1 < n; ++i)
    add_triangle(v[0], v[i], v[i + 1], pressure, slip, mu, out);
  return out;
}

}  // namespace coulomb::patch
