// Coulomb's law integrated over a planar patch: validation and node tables (the quadrature itself
// is a template in the header).
#include <coulomb/laws/patch.hpp>

#include <stdexcept>
#include <string>

#include <coulomb/laws/contensou.hpp>

namespace coulomb::patch {

AnnularSector AnnularSector::make(double r_inner, double r_outer, double phi_begin,
                                  double phi_end) {
  constexpr double k2Pi = 6.283185307179586476925;
  if (!(r_inner >= 0.0))
    throw std::invalid_argument("patch sector: r_inner must be >= 0, got " +
                                std::to_string(r_inner));
  if (!(r_outer > r_inner))
    throw std::invalid_argument("patch sector: r_outer must be > r_inner (" +
                                std::to_string(r_inner) + "), got " + std::to_string(r_outer));
  if (!(phi_end > phi_begin) || !(phi_end - phi_begin <= k2Pi * (1.0 + 1e-15)))
    throw std::invalid_argument(
        "patch sector: need phi_begin < phi_end <= phi_begin + 2 pi, got [" +
        std::to_string(phi_begin) + ", " + std::to_string(phi_end) + "]");
  return AnnularSector{r_inner, r_outer, phi_begin, phi_end};
}

bool is_convex_ccw(std::span<const Vec2> v) {
  const std::size_t n = v.size();
  if (n < 3) return false;
  double area2 = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2& a = v[i];
    const Vec2& b = v[(i + 1) % n];
    const Vec2& c = v[(i + 2) % n];
    const Vec2 e1 = b - a, e2 = c - b;
    if (e1.x() * e2.y() - e1.y() * e2.x() < 0.0) return false;  // a right turn
    area2 += a.x() * b.y() - a.y() * b.x();
  }
  return area2 > 0.0;
}

PatchQuadrature::PatchQuadrature(int n_radial, int n_angular) {
  if (n_radial < 2 || n_angular < 2 || n_radial > 1000 || n_angular > 1000)
    throw std::invalid_argument(
        "PatchQuadrature: n_radial and n_angular must be in [2, 1000], got " +
        std::to_string(n_radial) + ", " + std::to_string(n_angular));
  contensou::gauss_legendre(n_radial, xr_, wr_);
  contensou::gauss_legendre(n_angular, xa_, wa_);
}

}  // namespace coulomb::patch
