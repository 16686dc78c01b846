#pragma once
// Benchmark scenes built in code (no files), shared by the step benchmark, the solver lab and the
// peer benchmark, so that every engine is given the same bodies, sizes, masses, friction and
// time step. Units SI; z up; gravity (0, 0, −9.81).
//
//   hcp_pile(n)      n spheres (r = 5 cm, 0.1 kg) on a hexagonal-close-packed conical heap
//                    resting on the ground (touching neighbours): a pile that settles at once;
//   drop_pile(n)     n spheres (r = 5 cm, 0.1 kg) on a jittered cubic lattice (spacing 2.4 r)
//                    above the ground inside a square box of four fixed walls, released at rest:
//                    they fall, collide and settle into a pile about ten layers deep;
//   tower(n)         n unit cubes (1 kg) stacked on the ground;
//   pyramid(rows)    a 2-D pyramid of rows (rows + 1)/2 unit cubes, each resting on two below
//                    (centres 1.1 m apart in a row);
//   stacks()         a 10-box pyramid (4 rows) beside a 20-box tower: 30 boxes and the ground;
//   drum(n)          a rotating drum (a driven body of 26 boxes) with n spheres and cubes inside.
// All contacts: μ = 0.5, no restitution, h = 1e-3 s unless said.
#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace coulomb::bench {

inline constexpr double kPi = 3.14159265358979323846;

struct Scene {
  Model model;
  State state;
};

inline Scene empty_scene(double mu, double restitution, double h) {
  Scene s;
  s.model.name = "bench";
  s.model.time_step = h;
  s.model.end_time = 1e9;
  s.model.materials.push_back(Material{"m"});
  ContactSpec spec;
  spec.material1 = spec.material2 = 0;
  spec.friction.params["mu"] = mu;
  spec.normal.params["restitution"] = restitution;
  s.model.contacts.push_back(spec);
  return s;
}

inline int add(Scene& s, Geometry g, double mass, const Mat3& inertia, const Vec3& x, const Quat& q,
               const Vec3& v, const Vec3& w, bool fixed = false) {
  Body b;
  b.name = "b" + std::to_string(s.model.bodies.size());
  b.fixed = fixed;
  b.material = 0;
  b.mass = fixed ? 0.0 : mass;
  b.inertia_B = fixed ? Mat3::Zero() : inertia;
  b.first_shape = static_cast<int>(s.model.shapes.size());
  b.shape_count = 1;
  s.model.shapes.push_back(Shape{std::move(g), Pose{}});
  s.model.shape_body.push_back(static_cast<int>(s.model.bodies.size()));
  s.model.bodies.push_back(b);
  s.state.x_WC.push_back(x);
  s.state.q_WB.push_back(q);
  s.state.v_WC.push_back(fixed ? Vec3::Zero() : v);
  s.state.w_W.push_back(fixed ? Vec3::Zero() : w);
  return static_cast<int>(s.model.bodies.size()) - 1;
}

inline void add_ground(Scene& s) {
  add(s, Plane{Vec3::UnitZ(), 0.0}, 0, Mat3::Zero(), Vec3::Zero(), Quat::Identity(), Vec3::Zero(),
      Vec3::Zero(), true);
}

inline Mat3 box_inertia(double m, const Vec3& half) {
  const Vec3 e = 2.0 * half;
  return Vec3(m / 12 * (e.y() * e.y() + e.z() * e.z()), m / 12 * (e.x() * e.x() + e.z() * e.z()),
              m / 12 * (e.x() * e.x() + e.y() * e.y()))
      .asDiagonal();
}

inline Mat3 sphere_inertia(double m, double r) { return Mat3::Identity() * (0.4 * m * r * r); }

inline int add_box(Scene& s, const Vec3& half, double mass, const Vec3& x,
                   const Quat& q = Quat::Identity()) {
  return add(s, Box{half}, mass, box_inertia(mass, half), x, q, Vec3::Zero(), Vec3::Zero());
}

inline int add_wall(Scene& s, const Vec3& half, const Vec3& x) {
  return add(s, Box{half}, 0, Mat3::Zero(), x, Quat::Identity(), Vec3::Zero(), Vec3::Zero(), true);
}

// The sites of a conical HCP heap of spheres of radius r resting on z = 0 (repose 25°).
inline std::vector<Vec3> hcp_heap(int n, double r) {
  const double d = 2.0 * r, tan25 = 0.46630766;
  const double radius =
      1.3 * std::cbrt(3.0 * n * d * d * d / (std::sqrt(2.0) * kPi * tan25)) + 2 * d;
  const double dy = d * std::sqrt(3.0) / 2.0, dz = d * std::sqrt(2.0 / 3.0);
  const int nx = static_cast<int>(2 * radius / d) + 1, ny = static_cast<int>(2 * radius / dy) + 1;
  const int nz = static_cast<int>(radius * tan25 / dz) + 1;
  std::vector<Vec3> sites;
  std::vector<double> key;
  for (int k = 0; k < nz; ++k) {
    const double sx = (k % 2) * 0.5 * d, sy = (k % 2) * d / (2.0 * std::sqrt(3.0));
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const Vec3 p(-radius + (i + 0.5 * (j % 2)) * d + sx, -radius + j * dy + sy, r + k * dz);
        sites.push_back(p);
        key.push_back(p.z() + tan25 * std::hypot(p.x(), p.y()));
      }
  }
  std::vector<int> order(sites.size());
  std::iota(order.begin(), order.end(), 0);
  std::nth_element(order.begin(), order.begin() + n, order.end(),
                   [&](int a, int b) { return key[a] < key[b] || (key[a] == key[b] && a < b); });
  order.resize(n);
  std::sort(order.begin(), order.end());
  std::vector<Vec3> out;
  for (int i : order) out.push_back(sites[i]);
  return out;
}

inline constexpr double kSphereRadius = 0.05;  // [m]
inline constexpr double kSphereMass = 0.1;     // [kg]

inline Scene hcp_pile(int n) {
  Scene s = empty_scene(0.5, 0.0, 1e-3);
  add_ground(s);
  const double r = kSphereRadius, m = kSphereMass;
  for (const Vec3& x : hcp_heap(n, r))
    add(s, Sphere{r}, m, sphere_inertia(m, r), x, Quat::Identity(), Vec3::Zero(), Vec3::Zero());
  return s;
}

// A portable uniform number in [−1, 1) from a 64-bit state (splitmix64), so that every engine
// and platform builds the same jitter.
inline double jitter(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  z ^= z >> 31U;
  return static_cast<double>(z >> 11U) * 0x1.0p-52 - 1.0;
}

// The container of drop_pile: inner half-width [m] for n spheres in columns about ten deep.
inline int drop_pile_side(int n) {
  return std::max(2, static_cast<int>(std::ceil(std::sqrt(n / 10.0))));
}

// The sphere centres of drop_pile (lattice spacing 2.4 r, jitter ±0.1 r per axis, seed fixed).
inline std::vector<Vec3> drop_pile_sites(int n) {
  const double r = kSphereRadius, d = 2.4 * r;
  const int side = drop_pile_side(n);
  std::vector<Vec3> out;
  std::uint64_t seed = 12345;
  for (int k = 0; static_cast<int>(out.size()) < n; ++k)
    for (int j = 0; j < side && static_cast<int>(out.size()) < n; ++j)
      for (int i = 0; i < side && static_cast<int>(out.size()) < n; ++i) {
        const Vec3 base((i - 0.5 * (side - 1)) * d, (j - 0.5 * (side - 1)) * d, 2.0 * r + k * d);
        out.push_back(base + 0.1 * r * Vec3(jitter(seed), jitter(seed), jitter(seed)));
      }
  return out;
}

// Half-width of the inside of drop_pile's container [m].
inline double drop_pile_half_width(int n) {
  return 0.5 * drop_pile_side(n) * 2.4 * kSphereRadius + kSphereRadius;
}

inline Scene drop_pile(int n) {
  Scene s = empty_scene(0.5, 0.0, 1e-3);
  add_ground(s);
  const double r = kSphereRadius, m = kSphereMass;
  const double a = drop_pile_half_width(n), t = 0.1;
  const double height = 2.0 * r + (n / (drop_pile_side(n) * drop_pile_side(n)) + 2) * 2.4 * r;
  const double hz = 0.5 * height;
  add_wall(s, Vec3(t, a + 2 * t, hz), Vec3(a + t, 0, hz));
  add_wall(s, Vec3(t, a + 2 * t, hz), Vec3(-a - t, 0, hz));
  add_wall(s, Vec3(a, t, hz), Vec3(0, a + t, hz));
  add_wall(s, Vec3(a, t, hz), Vec3(0, -a - t, hz));
  for (const Vec3& x : drop_pile_sites(n))
    add(s, Sphere{r}, m, sphere_inertia(m, r), x, Quat::Identity(), Vec3::Zero(), Vec3::Zero());
  return s;
}

// A carpet: n spheres resting on the ground on a square grid of spacing 2.2 r (one contact each,
// none between spheres): the settled scene whose step is the pipeline's per-body and per-contact
// cost, the solve answered by the warm start.
inline Scene carpet(int n) {
  Scene s = empty_scene(0.5, 0.0, 1e-3);
  add_ground(s);
  const double r = kSphereRadius, m = kSphereMass;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  for (int i = 0; i < n; ++i)
    add(s, Sphere{r}, m, sphere_inertia(m, r),
        Vec3(2.2 * r * (i % side - 0.5 * (side - 1)), 2.2 * r * (i / side - 0.5 * (side - 1)), r),
        Quat::Identity(), Vec3::Zero(), Vec3::Zero());
  return s;
}

inline Scene tower(int n) {
  Scene s = empty_scene(0.5, 0.0, 1e-3);
  add_ground(s);
  const Vec3 half(0.5, 0.5, 0.5);
  for (int i = 0; i < n; ++i) add_box(s, half, 1.0, Vec3(0, 0, 0.5 + i));
  return s;
}

// Row k (from 0 at the bottom) of a pyramid of `rows` rows: rows − k boxes, centres 1.1 m apart,
// offset by x0.
inline void add_pyramid(Scene& s, int rows, double x0) {
  const Vec3 half(0.5, 0.5, 0.5);
  const double spacing = 1.1;
  for (int k = 0; k < rows; ++k)
    for (int i = 0; i < rows - k; ++i)
      add_box(s, half, 1.0, Vec3(x0 + (i - 0.5 * (rows - k - 1)) * spacing, 0, 0.5 + k));
}

inline Scene pyramid(int rows) {
  Scene s = empty_scene(0.5, 0.0, 1e-3);
  add_ground(s);
  add_pyramid(s, rows, 0.0);
  return s;
}

inline Scene stacks() {
  Scene s = empty_scene(0.5, 0.0, 1e-3);
  add_ground(s);
  add_pyramid(s, 4, 0.0);
  const Vec3 half(0.5, 0.5, 0.5);
  for (int i = 0; i < 20; ++i) add_box(s, half, 1.0, Vec3(5.0, 0, 0.5 + i));
  return s;
}

// The rotating drum: a drum of inner radius 0.5 m and inner length 0.6 m, axis y, centre 0.6 m
// above the origin, turning at 2 rad/s about its axis (Froude number Ω²R/g = 0.2: the rolling
// regime), made of one driven body — 24 wall slabs (boxes 5 cm thick) and two end plates. Inside,
// n particles of 0.05 kg alternate between spheres (r = 2 cm) and cubes (half side 1.6 cm), at rest
// on a jittered cubic lattice (spacing 5 cm) that fills the drum from the bottom; they fall, settle
// and are carried round. No ground: the drum holds everything.
inline constexpr double kDrumRadius = 0.5;      // inner radius [m]
inline constexpr double kDrumHalfLength = 0.3;  // inner half length [m]
inline constexpr double kDrumCentreZ = 0.6;     // height of the axis [m]
inline constexpr double kDrumRate = 2.0;        // angular velocity about +y [rad/s]
inline constexpr int kDrumSlabs = 24;           // wall slabs
inline constexpr double kDrumWall = 0.05;       // half thickness of the wall and plates [m]

// The driven drum body: its shapes in its frame (origin on the axis, at the drum's centre).
inline int add_drum_body(Scene& s) {
  const double R = kDrumRadius, t = kDrumWall, L = kDrumHalfLength;
  Body b;
  b.name = "drum";
  b.fixed = true;
  b.material = 0;
  b.first_shape = static_cast<int>(s.model.shapes.size());
  const int index = static_cast<int>(s.model.bodies.size());
  auto shape = [&](const Vec3& half, const Vec3& p, const Quat& q) {
    s.model.shapes.push_back(Shape{Box{half}, Pose{p, q}});
    s.model.shape_body.push_back(index);
  };
  // Slab k: local z radial (a rotation θ_k about y takes e_z to (sin θ, 0, cos θ)), local x
  // tangential; wide enough that neighbours meet at their outer corners.
  const double half_width = (R + 2.0 * t) * std::tan(kPi / kDrumSlabs);
  for (int k = 0; k < kDrumSlabs; ++k) {
    const double th = 2.0 * kPi * (k + 0.5) / kDrumSlabs;
    shape(Vec3(half_width, L + 2.0 * t, t), (R + t) * Vec3(std::sin(th), 0.0, std::cos(th)),
          Quat(Eigen::AngleAxisd(th, Vec3::UnitY())));
  }
  for (const double side : {-1.0, 1.0})
    shape(Vec3(R + 2.0 * t, t, R + 2.0 * t), Vec3(0.0, side * (L + t), 0.0), Quat::Identity());
  b.shape_count = static_cast<int>(s.model.shapes.size()) - b.first_shape;
  b.motion.kind = BodyMotion::Kind::twist;
  b.motion.p0 = Vec3(0.0, 0.0, kDrumCentreZ);
  b.motion.angular_velocity = Vec3(0.0, kDrumRate, 0.0);
  s.model.bodies.push_back(b);
  s.state.x_WC.push_back(b.motion.p0);
  s.state.q_WB.push_back(Quat::Identity());
  s.state.v_WC.push_back(Vec3::Zero());
  s.state.w_W.push_back(b.motion.angular_velocity);
  return index;
}

// The particle sites of drum(n): lattice sites inside the drum (4 cm from its wall), lowest
// first (then by y, then x), jittered by ±3 mm per axis (seed fixed).
inline std::vector<Vec3> drum_sites(int n) {
  const double d = 0.05, clear = 0.04;
  const int m = static_cast<int>(kDrumRadius / d);
  std::vector<Vec3> sites;
  for (int k = -m; k <= m; ++k)
    for (int j = -m; j <= m; ++j)
      for (int i = -m; i <= m; ++i) {
        const Vec3 p(i * d, j * d, k * d);
        if (std::hypot(p.x(), p.z()) <= kDrumRadius - clear &&
            std::abs(p.y()) <= kDrumHalfLength - clear)
          sites.push_back(p);
      }
  if (static_cast<int>(sites.size()) < n)
    throw std::invalid_argument("drum(n): the drum holds at most " + std::to_string(sites.size()) +
                                " particles");
  sites.resize(static_cast<std::size_t>(n));
  std::uint64_t seed = 2024;
  for (Vec3& p : sites)
    p += Vec3(0, 0, kDrumCentreZ) + 0.003 * Vec3(jitter(seed), jitter(seed), jitter(seed));
  return sites;
}

inline Scene drum(int n) {
  Scene s = empty_scene(0.5, 0.0, 1e-3);
  add_drum_body(s);
  const double r = 0.02, half = 0.016, m = 0.05;
  const std::vector<Vec3> sites = drum_sites(n);
  for (std::size_t i = 0; i < sites.size(); ++i) {
    if (i % 2 == 0)
      add(s, Sphere{r}, m, sphere_inertia(m, r), sites[i], Quat::Identity(), Vec3::Zero(),
          Vec3::Zero());
    else
      add_box(s, Vec3::Constant(half), m, sites[i]);
  }
  return s;
}

}  // namespace coulomb::bench
