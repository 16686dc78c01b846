// Writes replay pages for the browser test (viewer/tests/replay_browser_test.mjs):
//   coulomb_replay_demo small OUT.html
//     a sphere rolling without slipping on a plane and a box sliding to rest (Coulomb, μ = 0.3),
//     both in closed form, 2 s at 100 frames/s, and a row of fixed bodies with the other shapes;
//   coulomb_replay_demo joints OUT.html
//     the five joint types and a spring on bodies in closed-form 3-D motion (a turntable driven
//     about z with an arm hinged on a radial axis and a block fixed to it, a conical pendulum on
//     a ball joint, a slider on a prismatic joint, a weight bobbing and tilting on a string that
//     goes slack and taut, a spring from the pendulum to the weight), 4 s at 50 frames/s; prints
//     the joints' and springs' world anchors (and the string's state) at a few frames, computed
//     from the closed forms, for the test to compare with what the page draws;
//   coulomb_replay_demo large OUT.html NBODIES NFRAMES
//     NBODIES spheres on a grid, each bouncing and spinning (synthetic motion), NFRAMES frames
//     recorded through the default decimation.
// Prints one JSON line: frames written, frames received, stride, whether the viewer is embedded.

#include <coulomb/io/replay.hpp>

#include <nlohmann/json.hpp>

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

// Rotation of angle a about a unit axis.
Quat rot(double a, const Vec3& axis) { return Quat(Eigen::AngleAxisd(a, axis)); }
nlohmann::json vec(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

// The joints scene (see the file comment). Body frames are the centres of mass (com_B = 0), so a
// joint's r_B is its anchor in the body frame.
int joints(const std::string& out) {
  Model model;
  model.name = "joints, a spring, a driven turntable";
  const Vec3 he_arm(0.12, 0.03, 0.03), he_w(0.06, 0.06, 0.06), he_s(0.05, 0.05, 0.05);
  const std::vector<std::pair<std::string, Shape>> bodies = {
      {"ground", Shape{Plane{}, Pose{}}},   {"turntable", Shape{Cylinder{0.35, 0.05}, Pose{}}},
      {"arm", Shape{Box{he_arm}, Pose{}}},  {"block", Shape{Box{Vec3(0.05, 0.05, 0.05)}, Pose{}}},
      {"bob", Shape{Sphere{0.08}, Pose{}}}, {"slider", Shape{Box{he_s}, Pose{}}},
      {"weight", Shape{Box{he_w}, Pose{}}}};
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    model.bodies.push_back(make_body(bodies[b].first, b <= 1, b <= 1 ? 0.0 : 1.0, int(b)));
    model.shapes.push_back(bodies[b].second);
    model.shape_body.push_back(int(b));
  }
  // The turntable is driven: a constant twist about z (what the page marks as driven).
  const double Omega = 1.5;  // [rad/s]
  model.bodies[1].motion.kind = BodyMotion::Kind::twist;
  model.bodies[1].motion.angular_velocity = Vec3(0, 0, Omega);
  model.bodies[1].motion.p0 = Vec3(0, 0, 0.05);

  // Closed-form motions. Turntable: origin (0, 0, 0.05), R = Rz(Ω t). Arm: hinged to it at
  // h0 = (0.3, 0, 0.1) on the radial axis x, swinging φ(t) = 0.6 sin 2t about it; its origin is
  // o_B = (0.15, 0, 0.06) from the hinge in its own frame. Block: fixed to the turntable at
  // (-0.2, 0, 0.15). Bob: a conical pendulum from A = (1.2, 0, 1.2), rod length l = 0.6, angle
  // α = 0.5, rate Ω_p = sqrt(g / (l cos α)): x = A + R (0, 0, -l), R = Rz(Ω_p t) Rx(α). Slider:
  // C + (0, 0.3 sin 1.3t, 0) from C = (0, -1, 0.3), axis y, turning about it by 0.8t. Weight:
  // (-1, 0.5, 0.6 + 0.25 sin πt), tilted 0.4 sin t about x; a string from B = (-1, 0.5, 1.5) to
  // its point (0, 0, 0.06), length L = 0.75 (taut when the weight is low).
  const Vec3 h0(0.3, 0, 0.1), o_B(0.15, 0, 0.06), A(1.2, 0, 1.2), C(0, -1, 0.3), B(-1, 0.5, 1.5);
  const Vec3 block0(-0.2, 0, 0.15), top_B(0, 0, 0.06), w_point_B(0.06, 0, 0);
  const double l = 0.6, alpha = 0.5, Omega_p = std::sqrt(kG / (l * std::cos(alpha))), L = 0.75;
  struct Poses {
    Pose table, arm, block, bob, slider, weight;
  };
  auto poses = [&](double t) {
    Poses p;
    const Quat Rt = rot(Omega * t, Vec3::UnitZ());
    p.table = Pose{Vec3(0, 0, 0.05), Rt};
    const Quat qa = Rt * rot(0.6 * std::sin(2 * t), Vec3::UnitX());
    p.arm = Pose{Rt * h0 + qa * o_B, qa};
    p.block = Pose{Rt * block0, Rt};
    const Quat qb = rot(Omega_p * t, Vec3::UnitZ()) * rot(alpha, Vec3::UnitX());
    p.bob = Pose{A + qb * Vec3(0, 0, -l), qb};
    p.slider = Pose{C + Vec3(0, 0.3 * std::sin(1.3 * t), 0), rot(0.8 * t, Vec3::UnitY())};
    p.weight =
        Pose{Vec3(-1, 0.5, 0.6 + 0.25 * std::sin(kPi * t)), rot(0.4 * std::sin(t), Vec3::UnitX())};
    return p;
  };
  auto joint = [&](const char* name, JointType type, int b1, int b2, const Vec3& r1, const Vec3& r2,
                   const Vec3& axis_W) {
    Joint j;
    j.name = name;
    j.type = type;
    j.body1 = b1;
    j.body2 = b2;
    j.r1_B = r1;
    j.r2_B = r2;
    j.axis_W = axis_W;
    j.F1_B.col(0) = axis_W;  // (the page reads only the axis; every body starts unrotated)
    j.F2_B.col(0) = axis_W;
    model.joints.push_back(j);
  };
  joint("hinge", JointType::hinge, 1, 2, h0 - Vec3(0, 0, 0.05), -o_B, Vec3::UnitX());
  joint("fixed", JointType::fixed, 1, 3, block0 - Vec3(0, 0, 0.05), Vec3::Zero(), Vec3::UnitX());
  joint("ball", JointType::ball, -1, 4, A, Vec3(0, 0, l), Vec3::UnitX());
  joint("prismatic", JointType::prismatic, -1, 5, C, Vec3::Zero(), Vec3::UnitY());
  joint("string", JointType::distance, -1, 6, B, top_B, Vec3::UnitX());
  model.joints.back().length = L;
  Spring spring;
  spring.body = 4;
  spring.point_B = Vec3::Zero();
  spring.body2 = 6;
  spring.point2_B = w_point_B;
  spring.stiffness = 40.0;
  spring.rest_length = 1.6;
  model.springs.push_back(spring);

  ReplayRecorder recorder(model);
  auto expect = nlohmann::json::array();
  for (int k = 0; k <= 200; ++k) {
    const double t = 0.02 * k;
    const Poses p = poses(t);
    ReplayFrame frame;
    frame.time = t;
    push_pose(frame, Vec3::Zero(), Quat::Identity());
    for (const Pose* x : {&p.table, &p.arm, &p.block, &p.bob, &p.slider, &p.weight})
      push_pose(frame, x->p, x->q);
    // Synthetic works (the page plots them; they are not a physical audit): the turntable's work
    // 2 J/s, damping 0.5 J/s.
    frame.driven_work = 2.0 * t;
    frame.damping = 0.5 * t;
    recorder.add_frame(frame);
    if (k % 40 != 3) continue;
    // The anchors from the closed forms: hinge at Rz(Ω t) h0 on the axis Rz(Ω t) x; block at
    // Rz(Ω t) block0 (its centre); ball at A; prismatic through C along y, the slider's centre;
    // string from B to the weight's top point; spring from the bob's centre to the weight's point.
    const Quat Rt = rot(Omega * t, Vec3::UnitZ());
    const Vec3 top = p.weight.p + p.weight.q * top_B;
    const Vec3 w_point = p.weight.p + p.weight.q * w_point_B;
    const double stretch = (w_point - p.bob.p).norm() - spring.rest_length;
    expect.push_back(
        {{"frame", k},
         {"hinge", {{"anchor", vec(Rt * h0)}, {"axis", vec(Rt * Vec3::UnitX())}}},
         {"fixed", {{"anchor", vec(Rt * block0)}}},
         {"ball", {{"anchor", vec(A)}}},
         {"prismatic",
          {{"anchor1", vec(C)}, {"anchor2", vec(p.slider.p)}, {"axis", vec(Vec3::UnitY())}}},
         {"string",
          {{"ends", {vec(B), vec(top)}},
           {"distance", (top - B).norm()},
           {"taut", (top - B).norm() >= L}}},
         {"spring",
          {{"ends", {vec(p.bob.p), vec(w_point)}}, {"tension", spring.stiffness * stretch}}}});
  }
  recorder.write(out);
  nlohmann::json info = {{"frames", recorder.frame_count()},
                         {"viewer", ReplayRecorder::viewer_available()},
                         {"length", L},
                         {"expect", expect}};
  std::printf("%s\n", info.dump().c_str());
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
  if (mode == "joints" && argc == 3) return joints(argv[2]);
  if (mode == "large" && argc == 5) return large(argv[2], std::atoi(argv[3]), std::atoi(argv[4]));
  std::fprintf(stderr,
               "usage: coulomb_replay_demo small OUT.html | joints OUT.html | large OUT.html "
               "NBODIES NFRAMES\n");
  return 2;
}
