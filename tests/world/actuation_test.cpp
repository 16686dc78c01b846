// Driven bodies, loads, springs and dampers through Simulation, in both formulations, against
// closed forms; the energy audit (energy.csv's total with the actuation columns) closes.

#include <coulomb/scene/scene.hpp>
#include <coulomb/world/simulation.hpp>
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "world/simulations.hpp"

namespace coulomb {
namespace {

using testing::audited;
using testing::load;

// Two bodies on a spring–damper (k, c, rest length L) in free space, their relative motion
// along the line through their centres: r = |x2 − x1| obeys μ r̈ = −k (r − L) − c ṙ with the
// reduced mass μ = m1 m2/(m1 + m2), and the centre of mass moves uniformly.
std::string two_body(const std::string& solver) {
  return R"(
gravity: [0, 0, 0]
time: {end: 1.0, step: 1.0e-3}
solver: )" +
         solver +
         (solver.find("compliant") != std::string::npos
              ? "\ndefault_contact: {normal: {law: linear, stiffness: 1.0e4}}"
              : "") +
         R"(
bodies:
  - {name: a, mass: 1.0, shapes: [{type: sphere, radius: 0.05}], position: [0, 0, 0],
     velocity: [0.3, 0.2, 0.5]}
  - {name: b, mass: 3.0, shapes: [{type: sphere, radius: 0.05}], position: [0.2, 0.4, 0.4],
     velocity: [0.2, 0.0, 0.3]}
springs:
  - {bodies: [a, b], points: [[0, 0, 0], [0, 0, 0]], stiffness: 30, damping: 0.6, rest_length: 0.5}
)";
}

void expect_two_body(Simulation s, double tolerance) {
  const double m1 = 1.0, m2 = 3.0, k = 30.0, c = 0.6, L = 0.5;
  const double mu = m1 * m2 / (m1 + m2);
  const Vec3 x1 = s.state().x_WC[0], x2 = s.state().x_WC[1];
  const Vec3 v1 = s.state().v_WC[0], v2 = s.state().v_WC[1];
  const Vec3 e = (x2 - x1).normalized();
  const double r0 = (x2 - x1).norm() - L, rd0 = (v2 - v1).dot(e);
  const Vec3 vcm = (m1 * v1 + m2 * v2) / (m1 + m2);
  const double total0 = audited(s);
  s.run_to(1.0);
  const double t = s.state().time;
  const double w = std::sqrt(k / mu), zeta = c / (2.0 * std::sqrt(k * mu));
  const double wd = w * std::sqrt(1.0 - zeta * zeta);
  const double r = std::exp(-zeta * w * t) *
                   (r0 * std::cos(wd * t) + (rd0 + zeta * w * r0) / wd * std::sin(wd * t));
  const Vec3 d = s.state().x_WC[1] - s.state().x_WC[0];
  EXPECT_NEAR(d.norm() - L, r, tolerance);
  EXPECT_LT((d.normalized() - e).norm(), 1e-12);  // the motion stays on the line
  const Vec3 cm = (m1 * s.state().v_WC[0] + m2 * s.state().v_WC[1]) / (m1 + m2);
  EXPECT_LT((cm - vcm).norm(), 1e-12);  // momentum: the spring's forces are equal and opposite
  EXPECT_GT(s.state().damping, 0.0);
  EXPECT_NEAR(audited(s), total0, 10 * tolerance);
}

// Nonsmooth: second order; at h = 1e-3 and w = 6.3 rad/s, (w h)² t w/24 ~ 1e-5 of the amplitude
// (0.2 m): 1e-5 m.
TEST(ActuatedSimulation, TwoBodySpringDamperNonsmooth) {
  expect_two_body(load(two_body("{}")), 1e-5);
}

// Compliant, explicit (no Jacobian): the integrator's tolerance, rtol 1e-10 → ~1e-9 m.
TEST(ActuatedSimulation, TwoBodySpringDamperCompliantErk) {
  expect_two_body(load(two_body("{formulation: compliant, rtol: 1.0e-10, atol: 1.0e-12}")), 1e-8);
}

// Compliant BDF with difference quotients: same closed form (its tolerance rtol 1e-9).
TEST(ActuatedSimulation, TwoBodySpringDamperCompliantBdf) {
  expect_two_body(
      load(two_body("{formulation: compliant, integrator: bdf, jacobian: difference, rtol: "
                    "1.0e-10, atol: 1.0e-12}")),
      1e-6);
}

// A ball dropped onto a belt (a driven plane) moving at V: friction spins it up until it rolls,
// at 2V/7 (angular momentum about the contact point is kept: m v + I ω / R ... = 2/7 of m V).
// Compliant formulation: the contact kinematics see the belt's velocity; the audit closes.
TEST(ActuatedSimulation, BallRollsOnABeltCompliant) {
  Simulation s = load(R"(
time: {end: 0.5, step: 1.0e-3}
solver: {formulation: compliant, integrator: erk, rtol: 1.0e-8}
materials: [m]
contacts:
  - between: [m, m]
    normal: {law: linear, stiffness: 1.0e6, damping: 200}
    friction: {law: regularized, mu: 0.5, regularization: 1.0e-4}
bodies:
  - {name: belt, material: m, motion: {velocity: [0.6, 0.8, 0]}, shapes: [{type: plane}]}
  - {name: ball, material: m, mass: 1.0, position: [0, 0, 0.09999019], shapes: [{type: sphere, radius: 0.1}]}
)");
  const double total0 = audited(s);
  s.run_to(0.5);
  ASSERT_TRUE(s.finite()) << s.non_finite();
  // The regularisation leaves a slip ~ its velocity (1e-4 m/s) scaled by the rolling friction.
  EXPECT_LT((s.state().v_WC[1] - (2.0 / 7.0) * Vec3(0.6, 0.8, 0)).norm(), 1e-4);
  EXPECT_GT(s.state().driven_work, 0.28);
  // rtol 1e-8 on the energy components (~1 J).
  EXPECT_NEAR(audited(s), total0, 1e-7);
  // The belt's state is its exact motion.
  EXPECT_NEAR(s.state().x_WC[0].x(), 0.3, 1e-12);
}

// Nonsmooth: a block on a turntable (a driven box spinning about z) at radius r, mu large: it
// turns with the table (sticking), its velocity ω × r; then the table stops (set_driven_twist)
// and the block slides to rest.
TEST(ActuatedSimulation, BlockTurnsWithATurntableThenStops) {
  Simulation s = load(R"(
time: {end: 2.0, step: 1.0e-3}
solver: {tolerance: 1.0e-12}
materials: [m]
contacts: [{between: [m, m], friction: {law: coulomb, mu: 0.8}}]
bodies:
  - {name: table, material: m, position: [0, 0, -0.05], motion: {angular_velocity: [0, 0, 2.0]},
     shapes: [{type: box, half_extents: [1, 1, 0.05]}]}
  - {name: block, material: m, mass: 0.5, position: [0.3, 0, 0.05], velocity: [0, 0.6, 0],
     angular_velocity: [0, 0, 2.0], shapes: [{type: box, half_extents: [0.05, 0.05, 0.05]}]}
)");
  // ω² r = 1.2 m/s² < μ g = 7.8: it sticks and turns with the table.
  s.run_to(1.0);
  const Vec3 x = s.state().x_WC[1];
  // The sticking law holds the relative velocity at the end of each step; the positions carry
  // the scheme's O(h²) phase error (measured 3.3e-6 rad after 2 rad at h = 1e-3).
  EXPECT_NEAR(std::hypot(x.x(), x.y()), 0.3, 1e-6);
  EXPECT_NEAR(std::atan2(x.y(), x.x()), 2.0, 1e-5);  // 2 rad in 1 s
  EXPECT_LT((s.state().v_WC[1] - Vec3(0, 0, 2.0).cross(Vec3(x.x(), x.y(), 0))).norm(), 1e-5);
  EXPECT_NEAR(audited(s),
              0.5 * 9.81 * 0.05 + 0.5 * 0.5 * 0.36 + 0.5 * (0.5 * (0.01 + 0.01) / 12.0) * 4.0,
              1e-9);
  s.set_driven_twist(0, Vec3::Zero(), Vec3::Zero());
  s.run_to(2.0);
  EXPECT_LT(s.state().v_WC[1].norm(), 1e-9);
  EXPECT_LT(s.state().w_W[1].norm(), 1e-9);
}

}  // namespace
}  // namespace coulomb
