// Writes replay pages for the browser test (viewer/tests/replay_browser_test.mjs):
//   coulomb_replay_demo small OUT.html
//     a sphere rolling without slipping on a plane and a box sliding to rest (Coulomb, μ = 0.3),
//     both in closed form, 2 s at 100 frames/s, and a row of fixed bodies with the other shapes;
//   coulomb_replay_demo large OUT.html NBODIES NFRAMES
//     NBODIES spheres on a grid, each bouncing and spinning (synthetic motion), NFRAMES frames
//     recorded through the default decimation.
// Prints one JSON line: frames written, frames received, stride, whether the viewer is embedded.

#include <coulomb/io/replay.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace coulomb;

namespace {

constexpr double kG = 9.81;  // [m/s²]

// Appends a pose (origin, quaternion w x y z) to a frame.
void push_pose(ReplayFrame& frame, const Vec3& p, const Quat& q) {
  for (double v : {p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z()}) {
    frame.poses.push_back(static_cast<float>(v));
  }
}

// Appends a contact (point, normal 1->2, force of 1 on 2, bodies, slip speed, spin).
void push_contact(ReplayFrame& frame, const Vec3& p, const Vec3& n, const Vec3& f, int b1, int b2,
                  double slip, double spin) {
  for (double v : {p.x(), p.y(), p.z(), n.x(), n.y(), n.z(), f.x(), f.y(), f.z(), double(b1),
                   double(b2), slip, spin}) {
    frame.contacts.push_back(static_cast<float>(v));
  }
}

Body make_body(const std::string& name, bool fixed, double mass, int first_shape) {
  Body b;
  b.name = name;
  b.fixed = fixed;
  b.mass = mass;
  b.first_shape = first_shape;
  b.shape_count = 1;
  return b;
}

// Sphere (r = 0.1 m, 1 kg, v = 1 m/s) rolling along +x; box (2 kg) sliding along +x from 2 m/s.
int small(const std::string& out) {
  Model model;
  model.name = "rolling sphere and sliding box";
  model.bodies = {make_body("ground", true, 0.0, 0), make_body("ball", false, 1.0, 1),
                  make_body("box", false, 2.0, 2)};
  const double r = 0.1, v = 1.0, m_ball = 1.0, i_ball = 0.4 * m_ball * r * r;
  const Vec3 he(0.2, 0.15, 0.1);
  const double m_box = 2.0, mu = 0.3, u0 = 2.0, t_stop = u0 / (mu * kG);
  model.shapes = {Shape{Plane{}, Pose{}}, Shape{Sphere{r}, Pose{}}, Shape{Box{he}, Pose{}}};
  model.shape_body = {0, 1, 2};
  // A row of fixed bodies with the other kinds of shape (drawn, not moving), at y = -0.6.
  ConvexHull octahedron;
  for (int a = 0; a < 3; ++a) {
    for (double sign : {-0.1, 0.1}) octahedron.points.push_back(sign * Vec3::Unit(a));
  }
  const std::vector<Shape> gallery = {Shape{Capsule{0.05, 0.1}, Pose{}},
                                      Shape{Cylinder{0.1, 0.05}, Pose{}},
                                      Shape{Ellipsoid{Vec3(0.15, 0.1, 0.05)}, Pose{}},
                                      Shape{Cone{0.1, 0.2}, Pose{}}, Shape{octahedron, Pose{}}};
  for (std::size_t i = 0; i < gallery.size(); ++i) {
    model.bodies.push_back(make_body(std::string(shape_kind_name(gallery[i].kind())), true, 0.0,
                                     static_cast<int>(model.shapes.size())));
    model.shapes.push_back(gallery[i]);
    model.shape_body.push_back(static_cast<int>(model.bodies.size()) - 1);
  }

  ReplayRecorder recorder(model);
  for (int k = 0; k <= 200; ++k) {
    const double t = 0.01 * k;
    ReplayFrame frame;
    frame.time = t;
    // Ball: x = -1 + v t, rotation θ = v t / r about +y (contact point at rest).
    const double theta = v * t / r;
    push_pose(frame, Vec3::Zero(), Quat::Identity());
    push_pose(frame, Vec3(-1.0 + v * t, 0.0, r),
              Quat(std::cos(theta / 2), 0, std::sin(theta / 2), 0));
    // Box: uniformly decelerated by μ g until it stops.
    const double ts = std::min(t, t_stop);
    const double u = u0 - mu * kG * ts, s = u0 * ts - 0.5 * mu * kG * ts * ts;
    push_pose(frame, Vec3(-1.0 + s, 0.6, he.z()), Quat::Identity());
    for (std::size_t i = 0; i < gallery.size(); ++i) {
      push_pose(frame, Vec3(-0.8 + 0.4 * double(i), -0.6, 0.15), Quat::Identity());
    }
    // Contacts: ground (1) on ball (2); ground on the box's four bottom corners.
    push_contact(frame, Vec3(-1.0 + v * t, 0.0, 0.0), Vec3::UnitZ(), Vec3(0, 0, m_ball * kG), 0, 1,
                 0.0, 0.0);
    for (int c = 0; c < 4; ++c) {
      const double cx = (c & 1) ? he.x() : -he.x(), cy = (c & 2) ? he.y() : -he.y();
      const double n = m_box * kG / 4, f = u > 0 ? -mu * n : 0.0;
      push_contact(frame, Vec3(-1.0 + s + cx, 0.6 + cy, 0.0), Vec3::UnitZ(), Vec3(f, 0, n), 0, 2, u,
                   0.0);
    }
    frame.kinetic = 0.5 * m_ball * v * v + 0.5 * i_ball * (v / r) * (v / r) + 0.5 * m_box * u * u;
    frame.potential = (m_ball * r + m_box * he.z()) * kG;
    frame.dissipated = mu * m_box * kG * s;
    recorder.add_frame(frame);
  }
  recorder.write(out);
  std::printf("{\"frames\": %zu, \"received\": %zu, \"stride\": %zu, \"viewer\": %s}\n",
              recorder.frame_count(), recorder.frames_received(), recorder.stride(),
              ReplayRecorder::viewer_available() ? "true" : "false");
  return 0;
}

// n spheres on a square grid, bouncing (|sin|) with phases and spinning about z; ground plane.
int large(const std::string& out, int n, int frames) {
  Model model;
  model.name = "large synthetic run";
  const double r = 0.05, spacing = 0.15;
  model.bodies.push_back(make_body("ground", true, 0.0, 0));
  model.shapes.push_back(Shape{Plane{}, Pose{}});
  model.shape_body.push_back(0);
  for (int i = 0; i < n; ++i) {
    std::string name = "s";  // (not "s" + to_string: GCC 12's -Wrestrict false positive, PR 105651)
    name += std::to_string(i);
    model.bodies.push_back(make_body(name, false, 1.0, i + 1));
    model.shapes.push_back(Shape{Sphere{r}, Pose{}});
    model.shape_body.push_back(i + 1);
  }
  const int side = static_cast<int>(std::ceil(std::sqrt(double(n))));

  ReplayRecorder recorder(model);
  ReplayFrame frame;
  for (int k = 0; k < frames; ++k) {
    const double t = 0.005 * k;
    frame.time = t;
    frame.poses.clear();
    frame.contacts.clear();
    frame.kinetic = frame.potential = 0.0;
    push_pose(frame, Vec3::Zero(), Quat::Identity());
    for (int i = 0; i < n; ++i) {
      const double phase = 0.37 * i, w = 6.0;
      const double z = r + 0.3 * std::abs(std::sin(w * t + phase));
      const Vec3 p((i % side) * spacing, (i / side) * spacing, z);
      const double a = 2.0 * t + phase;
      push_pose(frame, p, Quat(std::cos(a / 2), 0, 0, std::sin(a / 2)));
      if (z < r + 0.01) {
        push_contact(frame, Vec3(p.x(), p.y(), 0), Vec3::UnitZ(), Vec3(0, 0, 20.0), 0, i + 1, 0.0,
                     2.0);
      }
      frame.potential += kG * z;
      const double vz = 0.3 * w * std::cos(w * t + phase);
      frame.kinetic += 0.5 * vz * vz;
    }
    recorder.add_frame(frame);
  }
  recorder.write(out);
  std::printf("{\"frames\": %zu, \"received\": %zu, \"stride\": %zu, \"viewer\": %s}\n",
              recorder.frame_count(), recorder.frames_received(), recorder.stride(),
              ReplayRecorder::viewer_available() ? "true" : "false");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "small" && argc == 3) return small(argv[2]);
  if (mode == "large" && argc == 5) return large(argv[2], std::atoi(argv[3]), std::atoi(argv[4]));
  std::fprintf(stderr,
               "usage: coulomb_replay_demo small OUT.html | large OUT.html NBODIES NFRAMES\n");
  return 2;
}
