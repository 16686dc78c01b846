// Mass properties of solid shapes of uniform density (closed forms), of convex hulls (tetrahedral
// decomposition), and their transformation and combination (parallel-axis theorem).
//
// Closed forms (shape frame S, about the centre of mass, m = density · volume):
//   sphere R:            V = 4/3 π R³,      I = 2/5 m R² (all axes)
//   box half extents h:  V = 8 hx hy hz,     Ixx = m (hy² + hz²) / 3, ...
//   cylinder R, L = 2hl: V = π R² L,         Izz = m R²/2, Ixx = m (3R² + L²)/12
//   ellipsoid (a, b, c): V = 4/3 π a b c,    Ixx = m (b² + c²)/5, ...
//   cone R, h:           V = π R² h/3, com z = -h/4 (base at -h/2), Izz = 3/10 m R²,
//                        Ixx = 3/20 m R² + 3/80 m h²
//   capsule R, hl:       cylinder of length 2hl plus two hemispheres; a hemisphere of mass mh has
//                        its centre 3R/8 from its flat face, Izz = 2/5 mh R², and about a diameter
//                        of its flat face 2/5 mh R² (shifted to its centre, then to the origin).
// References: any table of moments of inertia, e.g. Meriam & Kraige, Engineering Mechanics:
// Dynamics, Appendix B; the tetrahedron second moment from Tonon, J. Math. Stat. 1(1) 2005.

#include <coulomb/geometry/mass_properties.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace coulomb {

namespace {

void require_positive(double v, const char* what) {
  if (!(v > 0.0) || !std::isfinite(v)) {
    throw std::invalid_argument(std::string("shape_mass_properties: ") + what +
                                " must be positive and finite");
  }
}

// Second moment ∫ x x^T dV and volume, first moment ∫ x dV of a convex hull, by a fan of
// tetrahedra from a point inside (the mean of the vertices) to each triangular face.
// For a tetrahedron (v0..v3): V = det/6, ∫x dV = V (Σ v)/4, ∫ x x^T dV = V/20 (Σ vi vi^T + s s^T),
// s = Σ vi.
void hull_moments(const ConvexHull& hull_in, double& volume, Vec3& first, Mat3& second) {
  const ConvexHull hull =
      hull_in.faces.empty() ? make_convex_hull(hull_in.points) : hull_in;  // setup path only
  Vec3 r = Vec3::Zero();
  for (const Vec3& v : hull.vertices) r += v;
  r /= static_cast<double>(hull.vertices.size());
  volume = 0.0;
  first.setZero();
  second.setZero();
  for (const auto& f : hull.faces) {
    const Vec3& a = hull.vertices[static_cast<std::size_t>(f[0])];
    const Vec3& b = hull.vertices[static_cast<std::size_t>(f[1])];
    const Vec3& c = hull.vertices[static_cast<std::size_t>(f[2])];
    const double v = (a - r).dot((b - r).cross(c - r)) / 6.0;
    const Vec3 s = r + a + b + c;
    volume += v;
    first += v * s / 4.0;
    second += v / 20.0 *
              (r * r.transpose() + a * a.transpose() + b * b.transpose() + c * c.transpose() +
               s * s.transpose());
  }
}

}  // namespace

double shape_volume(const Geometry& geometry) {
  struct Visitor {
    double operator()(const Plane&) const {
      throw std::invalid_argument("shape_volume: a plane is unbounded and has no volume");
    }
    double operator()(const Sphere& s) const {
      require_positive(s.radius, "sphere radius");
      return 4.0 / 3.0 * kPi * s.radius * s.radius * s.radius;
    }
    double operator()(const Box& b) const {
      for (int i = 0; i < 3; ++i) require_positive(b.half_extents[i], "box half extent");
      return 8.0 * b.half_extents.prod();
    }
    double operator()(const Capsule& c) const {
      require_positive(c.radius, "capsule radius");
      if (!(c.half_length >= 0.0)) throw std::invalid_argument("capsule half_length must be >= 0");
      return kPi * c.radius * c.radius * (2.0 * c.half_length + 4.0 / 3.0 * c.radius);
    }
    double operator()(const Cylinder& c) const {
      require_positive(c.radius, "cylinder radius");
      require_positive(c.half_length, "cylinder half_length");
      return kPi * c.radius * c.radius * 2.0 * c.half_length;
    }
    double operator()(const Ellipsoid& e) const {
      for (int i = 0; i < 3; ++i) require_positive(e.semi_axes[i], "ellipsoid semi axis");
      return 4.0 / 3.0 * kPi * e.semi_axes.prod();
    }
    double operator()(const Cone& c) const {
      require_positive(c.radius, "cone radius");
      require_positive(c.height, "cone height");
      return kPi * c.radius * c.radius * c.height / 3.0;
    }
    double operator()(const ConvexHull& h) const {
      double v;
      Vec3 f;
      Mat3 s;
      hull_moments(h, v, f, s);
      return v;
    }
  };
  return std::visit(Visitor{}, geometry);
}

MassProperties shape_mass_properties(const Geometry& geometry, double density) {
  require_positive(density, "density");
  const double volume = shape_volume(geometry);  // validates the dimensions
  MassProperties mp;
  mp.mass = density * volume;
  const double m = mp.mass;
  struct Visitor {
    MassProperties& mp;
    double m;
    void operator()(const Plane&) const {}
    void operator()(const Sphere& s) const {
      mp.inertia = Mat3::Identity() * (0.4 * m * s.radius * s.radius);
    }
    void operator()(const Box& b) const {
      const Vec3 h2 = b.half_extents.cwiseAbs2();
      mp.inertia.diagonal() << m * (h2.y() + h2.z()) / 3.0, m * (h2.x() + h2.z()) / 3.0,
          m * (h2.x() + h2.y()) / 3.0;
    }
    void operator()(const Capsule& c) const {
      const double r = c.radius, hl = c.half_length,
                   rho = m / (kPi * r * r * (2.0 * hl + 4.0 / 3.0 * r));
      // Cylinder part, length L = 2 hl.
      const double mc = rho * kPi * r * r * 2.0 * hl;
      const double L = 2.0 * hl;
      double ixx = mc * (3.0 * r * r + L * L) / 12.0;
      double izz = 0.5 * mc * r * r;
      // Two hemispheres: about their own centre, then shifted by d = hl + 3r/8.
      const double mh = rho * 2.0 / 3.0 * kPi * r * r * r;
      const double ic = 0.4 * mh * r * r - mh * (3.0 * r / 8.0) * (3.0 * r / 8.0);
      const double d = hl + 3.0 * r / 8.0;
      ixx += 2.0 * (ic + mh * d * d);
      izz += 2.0 * 0.4 * mh * r * r;
      mp.inertia.diagonal() << ixx, ixx, izz;
    }
    void operator()(const Cylinder& c) const {
      const double r = c.radius, L = 2.0 * c.half_length;
      const double ixx = m * (3.0 * r * r + L * L) / 12.0;
      mp.inertia.diagonal() << ixx, ixx, 0.5 * m * r * r;
    }
    void operator()(const Ellipsoid& e) const {
      const Vec3 s2 = e.semi_axes.cwiseAbs2();
      mp.inertia.diagonal() << m * (s2.y() + s2.z()) / 5.0, m * (s2.x() + s2.z()) / 5.0,
          m * (s2.x() + s2.y()) / 5.0;
    }
    void operator()(const Cone& c) const {
      const double r = c.radius, h = c.height;
      const double ixx = 3.0 / 20.0 * m * r * r + 3.0 / 80.0 * m * h * h;
      mp.com = Vec3(0, 0, -0.25 * h);
      mp.inertia.diagonal() << ixx, ixx, 0.3 * m * r * r;
    }
    void operator()(const ConvexHull& hull) const {
      double v;
      Vec3 first;
      Mat3 second;
      hull_moments(hull, v, first, second);
      const double rho = m / v;
      mp.com = first / v;
      // Inertia about the origin from the second moment, then about the centre of mass.
      const Mat3 c = rho * second - m * mp.com * mp.com.transpose();
      mp.inertia = c.trace() * Mat3::Identity() - c;
    }
  };
  std::visit(Visitor{mp, m}, geometry);
  return mp;
}

MassProperties transform(const MassProperties& mp, const Pose& pose_BS) {
  MassProperties out;
  out.mass = mp.mass;
  out.com = pose_BS.apply(mp.com);
  const Mat3 R = pose_BS.q.normalized().toRotationMatrix();
  out.inertia = R * mp.inertia * R.transpose();
  out.inertia = 0.5 * (out.inertia + out.inertia.transpose()).eval();
  return out;
}

MassProperties combine(const MassProperties& a, const MassProperties& b) {
  MassProperties out;
  out.mass = a.mass + b.mass;
  if (!(out.mass > 0.0)) return out;
  out.com = (a.mass * a.com + b.mass * b.com) / out.mass;
  // Parallel-axis theorem: I_O = I_G + m (|d|² 1 - d d^T), d from the new centre to each centre.
  auto shifted = [&](const MassProperties& p) {
    const Vec3 d = p.com - out.com;
    return Mat3(p.inertia + p.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()));
  };
  out.inertia = shifted(a) + shifted(b);
  return out;
}

}  // namespace coulomb
