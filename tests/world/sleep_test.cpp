// Sleeping islands (solver.sleep, docs/nonsmooth.md "Sleeping islands"): an island still for
// sleep.time is held still and costs no contact point; a moving body that comes within reach
// wakes it whole before any of its contacts closes, and the run then goes on as the run without
// sleeping does; the energy audit closes with the kinetic energy slept.

#include <coulomb/scene/scene.hpp>
#include <coulomb/world/simulation.hpp>
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "world/simulations.hpp"

namespace coulomb {
namespace {

using testing::audited;
using testing::load;

// A stack of three boxes turned about z by different angles (so that no face is aligned with
// the axes), a lone box 5 m away, and a ball thrown at the stack on a parabola, with a spin along
// no axis of its velocity: it strikes the top box's side at t ≈ 1.1 s and knocks it off.
std::string scene(const std::string& sleep) {
  return R"(
gravity: [0, 0, -9.81]
time: {end: 2.0, step: 1.0e-3}
solver: {sleep: )" +
         sleep + R"(}
materials: [ground, wood]
contacts:
  - between: [wood, ground]
    friction: {law: coulomb, mu: 0.5}
  - between: [wood, wood]
    friction: {law: coulomb, mu: 0.4}
    normal: {law: signorini, restitution: 0.3}
bodies:
  - {name: ground, fixed: true, material: ground, shapes: [{type: plane}]}
  - {name: box1, material: wood, shapes: [{type: box, half_extents: [0.5, 0.4, 0.5]}], mass: 1.0,
     position: [0, 0, 0.5], orientation: {axis: [0, 0, 1], angle: 0.2}}
  - {name: box2, material: wood, shapes: [{type: box, half_extents: [0.45, 0.5, 0.5]}], mass: 2.0,
     position: [0.05, 0.02, 1.5], orientation: {axis: [0, 0, 1], angle: -0.3}}
  - {name: box3, material: wood, shapes: [{type: box, half_extents: [0.4, 0.4, 0.5]}], mass: 1.5,
     position: [-0.03, 0.04, 2.5], orientation: {axis: [0, 0, 1], angle: 0.7}}
  - {name: lone, material: wood, shapes: [{type: box, half_extents: [0.5, 0.5, 0.5]}], mass: 1.0,
     position: [5, 0, 0.5]}
  - {name: ball, material: wood, shapes: [{type: sphere, radius: 0.2}], mass: 3.0,
     position: [-3.95, 0.1, 3.0], velocity: [3.0, -0.05, 5.12], angular_velocity: [4, -7, 11]}
)";
}

constexpr std::size_t kBox1 = 1, kBox3 = 3, kLone = 4, kBall = 5;

// Sleeping never happens when the islands are never still long enough: the run is then the run
// without sleeping, bit for bit (the wake and sleep stages, and the broadphase's masks of still
// shapes, change nothing else).
TEST(Sleep, IslandsThatNeverSleepLeaveTheRunBitIdentical) {
  Simulation off = load(scene("false"));
  Simulation never = load(scene("{time: 100}"));
  for (int k = 0; k < 1400; ++k) {  // through the impact (t ≈ 1.1 s) and the first landings
    off.step();
    never.step();
    ASSERT_EQ(never.workspace().report.sleeping, 0);
  }
  for (std::size_t b = 0; b < off.state().body_count(); ++b) {
    EXPECT_EQ(never.state().x_WC[b], off.state().x_WC[b]) << b;
    EXPECT_EQ(never.state().q_WB[b].coeffs(), off.state().q_WB[b].coeffs()) << b;
    EXPECT_EQ(never.state().v_WC[b], off.state().v_WC[b]) << b;
    EXPECT_EQ(never.state().w_W[b], off.state().w_W[b]) << b;
  }
  EXPECT_EQ(never.state().dissipated, off.state().dissipated);
}

// The stack and the lone box fall asleep at sleep.time and cost no point; the ball's swept box
// reaches the stack before it touches it, and the stack wakes whole (three bodies) while the
// lone box sleeps on, bit for bit where it was. Through the ball's impact and 0.2 s after the
// wake, the poses and velocities are those of the run without sleeping to 1e-9 (measured 5e-13:
// what the stack lost when it fell asleep, velocities below 1e-12 m/s, checked). Later the
// knocked boxes land on edges and corners, multi-point frictional impacts whose outcome depends
// on the solver's path at O(1) (the distribution of a hyperstatic contact's normal impulses is not
// unique): there the two runs part, as two runs without sleeping part whose problems hold other
// independent contacts (the lone box's), so only the energy audit is checked to the end.
TEST(Sleep, ABallWakesTheStackItStrikesAndNothingElseIn3D) {
  Simulation off = load(scene("false"));
  Simulation on = load(scene("{time: 0.3}"));
  const double start = audited(on);
  Vec3 lone = Vec3::Zero();
  double largest_slept_speed = 0.0, largest_difference = 0.0;
  int woke_at = -1, woken = 0, asleep_steps = 0;
  for (int k = 1; k <= 1400; ++k) {
    const std::vector<Vec3> before = on.state().v_WC;
    off.step();
    const StepReport& r = on.step();
    ASSERT_TRUE(r.finite);
    for (std::size_t b = 0; b < on.state().body_count(); ++b)
      if (on.state().sleeping(b) && !before[b].isZero(0.0))  // fell asleep in this step
        largest_slept_speed = std::max(largest_slept_speed, before[b].norm());
    if (r.sleeping == 4 && r.contact_points == 0) ++asleep_steps;
    if (r.woken > 0 && woke_at < 0) {
      woke_at = k;
      woken = r.woken;
      // Woken before the ball touches the top box: no point of the ball's is closed yet.
      for (const ContactPoint& c : on.workspace().contact_points.points) {
        if (c.body1 == static_cast<int>(kBall) || c.body2 == static_cast<int>(kBall)) {
          EXPECT_GT(c.gap, 0.0);
        }
      }
    }
    if (k > 300 && k < 1000) {
      ASSERT_TRUE(on.state().sleeping(kBox1)) << k;
    }
    if (k == 301) lone = on.state().x_WC[kLone];
    ASSERT_TRUE(k < 301 || on.state().sleeping(kLone)) << k;
    if (woke_at > 0 && k == woke_at + 200) {
      for (std::size_t b = 1; b < on.state().body_count(); ++b) {
        if (b == kLone) continue;
        largest_difference =
            std::max({largest_difference, (on.state().x_WC[b] - off.state().x_WC[b]).norm(),
                      (on.state().v_WC[b] - off.state().v_WC[b]).norm(),
                      (on.state().w_W[b] - off.state().w_W[b]).norm()});
      }
      // The ball has struck: the top box moves (a real collision, not a graze).
      EXPECT_GT(on.state().v_WC[kBox3].norm(), 0.1);
    }
  }
  EXPECT_EQ(woken, 3);  // box1..box3, not the lone box
  EXPECT_GT(woke_at, 1000);
  EXPECT_LT(woke_at, 1150);
  EXPECT_GT(asleep_steps, 600);
  EXPECT_LT(largest_slept_speed, 1e-12);
  EXPECT_LT(largest_difference, 1e-9);
  EXPECT_EQ(on.state().x_WC[kLone], lone);
  // The audit: kinetic + potential + dissipated + slept stays at its start to round-off and the
  // solver's tolerance (as without sleeping, tests/world/world_test.cpp).
  EXPECT_NEAR(audited(on), start, 1e-9 * std::abs(start));
}

// What an island takes with it when it falls asleep: a ball rolling without slipping along
// (0.6, 0.8, 0) at 0.05 m/s, spinning 0.03 rad/s about the vertical (frictionless pivoting: both
// kept exactly), under thresholds of 0.1 m/s and 0.1 rad/s for 0.2 s, falls asleep at t = 0.2 s
// with its kinetic energy ½ m v² + ½ I |ω|² (I = 2/5 m r²) booked as slept, to round-off; the
// audit's total is kept, and the ball then stays where it fell asleep, bit for bit.
TEST(Sleep, ARollingBallFallsAsleepWithItsKineticEnergyBookedAsSlept) {
  const double m = 2.0, r = 0.1, v = 0.05, spin = 0.03;
  const Vec3 velocity = v * Vec3(0.6, 0.8, 0.0);
  const Vec3 omega = Vec3::UnitZ().cross(velocity) / r + Vec3(0, 0, spin);
  Simulation sim = load(R"(
gravity: [0, 0, -9.81]
time: {end: 1.0, step: 1.0e-3}
solver: {sleep: {linear_velocity: 0.1, angular_velocity: 0.6, time: 0.2}}
default_contact: {friction: {law: coulomb, mu: 0.5}}
bodies:
  - {name: ground, fixed: true, shapes: [{type: plane}]}
  - {name: ball, mass: 2.0, shapes: [{type: sphere, radius: 0.1}], position: [0, 0, 0.1],
     velocity: [0.03, 0.04, 0], angular_velocity: [-0.4, 0.3, 0.03]}
)");
  ASSERT_LT((sim.state().w_W[1] - omega).norm(), 1e-15);
  const double start = audited(sim);
  int fell_asleep = -1;
  for (int k = 1; k <= 400 && fell_asleep < 0; ++k) {
    sim.step();
    if (sim.state().sleeping(1)) fell_asleep = k;
  }
  EXPECT_EQ(fell_asleep, 200);
  const double kinetic = 0.5 * m * v * v + 0.5 * (0.4 * m * r * r) * omega.squaredNorm();
  EXPECT_NEAR(sim.state().slept, kinetic, 1e-12 * kinetic);
  EXPECT_NEAR(audited(sim), start, 1e-12 * std::abs(start));
  const Vec3 x = sim.state().x_WC[1];
  for (int k = 0; k < 100; ++k) sim.step();
  EXPECT_EQ(sim.state().x_WC[1], x);
  EXPECT_NEAR(audited(sim), start, 1e-12 * std::abs(start));
}

// A sleeping body given a velocity by its caller wakes its whole island in the next step, which
// then moves as the same bodies without sleeping given the same velocity, to 1e-9 over 200
// steps: a row of three touching balls on the ground (a contact graph without loops: a unique
// answer), the first struck along no axis of the row and spun, pushes the other two in the same
// step (were they held still for a step, as sleeping bodies are, it would bounce off them); a box
// 5 m away sleeps on.
TEST(Sleep, AVelocityGivenToASleepingBodyWakesItsIsland) {
  auto row = [](const std::string& sleep) {
    return R"(
gravity: [0, 0, -9.81]
time: {end: 1.0, step: 1.0e-3}
solver: {sleep: )" +
           sleep + R"(}
default_contact: {normal: {law: signorini, restitution: 0.5}, friction: {law: coulomb, mu: 0.3}}
bodies:
  - {name: ground, fixed: true, shapes: [{type: plane}]}
  - {name: a, mass: 1.0, shapes: [{type: sphere, radius: 0.2}], position: [0, 0, 0.2]}
  - {name: b, mass: 2.0, shapes: [{type: sphere, radius: 0.2}], position: [0.4, 0, 0.2]}
  - {name: c, mass: 1.5, shapes: [{type: sphere, radius: 0.2}], position: [0.6, 0.34641016151377546, 0.2]}
  - {name: lone, mass: 1, shapes: [{type: box, half_extents: [0.5, 0.5, 0.5]}], position: [5, 0, 0.5]}
)";
  };
  Simulation on = load(row("{time: 0.3}"));
  Simulation off = load(row("false"));
  for (int k = 0; k < 500; ++k) {
    on.step();
    off.step();
  }
  ASSERT_EQ(on.workspace().report.sleeping, 4);
  for (Simulation* sim : {&on, &off}) {
    sim->state().v_WC[1] = Vec3(0.8, 0.25, 0);
    sim->state().w_W[1] = Vec3(1, -2, 3);
  }
  const StepReport& r = on.step();
  off.step();
  EXPECT_EQ(r.woken, 3);
  EXPECT_TRUE(on.state().sleeping(4));
  for (int k = 0; k < 200; ++k) {
    on.step();
    off.step();
  }
  EXPECT_GT(on.state().x_WC[3].y() - 0.34641016151377546, 0.01);  // the push reached c
  for (std::size_t b = 1; b <= 3; ++b) {
    EXPECT_LT((on.state().x_WC[b] - off.state().x_WC[b]).norm(), 1e-9) << b;
    EXPECT_LT((on.state().v_WC[b] - off.state().v_WC[b]).norm(), 1e-9) << b;
    EXPECT_LT((on.state().w_W[b] - off.state().w_W[b]).norm(), 1e-9) << b;
  }
}

// A load given to a sleeping body (Simulation::set_load) wakes its island: the box pulled
// sideways slides, dragging nothing asleep; the lone box sleeps on.
TEST(Sleep, ALoadGivenToASleepingBodyWakesItsIsland) {
  Simulation sim = load(scene("{time: 0.3}"));
  for (int k = 0; k < 500; ++k) sim.step();
  ASSERT_TRUE(sim.state().sleeping(kBox3));
  BodyLoad pull;
  pull.force = Vec3(20, 5, 0);
  sim.set_load(static_cast<int>(kBox3), pull);
  EXPECT_FALSE(sim.state().sleeping(kBox1));
  for (int k = 0; k < 100; ++k) sim.step();
  EXPECT_GT(sim.state().x_WC[kBox3].x() + 0.03, 0.02);  // it slid from its place (x0 = −0.03)
  EXPECT_FALSE(sim.state().sleeping(kBox3));
  EXPECT_TRUE(sim.state().sleeping(kLone));
}

// A sleeping body moved by its caller (a new pose, no velocity) sleeps on at its new pose, where
// the broadphase finds it: a ball let fall on the lone box, lifted 1.5 m into the air, lands on
// it and wakes it, and they fall together (the box's old frames would let the ball through).
TEST(Sleep, ASleepingBodyMovedByItsCallerIsFoundWhereItIs) {
  Simulation sim = load(scene("{time: 0.3}"));
  for (int k = 0; k < 500; ++k) sim.step();
  ASSERT_TRUE(sim.state().sleeping(kLone));
  sim.state().x_WC[kLone] = Vec3(5, 0, 2.0);
  sim.state().x_WC[kBall] = Vec3(5.1, 0.05, 3.0);
  sim.state().v_WC[kBall].setZero();
  sim.state().w_W[kBall].setZero();
  sim.step();
  EXPECT_TRUE(sim.state().sleeping(kLone));  // held in the air until the ball reaches it
  bool woke = false;
  for (int k = 0; k < 400; ++k) {
    const bool woken = sim.step().woken > 0;
    woke = woke || woken;
    // Never through: at most h v of overlap (2.4 mm at 2.4 m/s), which the midpoint scheme lets a
    // rebounding contact undo by its own motion (correct.cpp), as without sleeping.
    ASSERT_GT(sim.state().x_WC[kBall].z() - sim.state().x_WC[kLone].z(), 0.7 - 3e-3) << k;
  }
  EXPECT_TRUE(woke);
  EXPECT_LT(sim.state().x_WC[kLone].z(), 1.9);  // woken, it fell with the ball on it
}

// What may not sleep: a damped body, and a body resting on a driven (here still) platform; their
// islands stay awake while a free body beside them falls asleep. A driven pusher that comes to
// the sleeping body wakes it (a driven shape pairs with a sleeping one) and pushes it away.
TEST(Sleep, DampedBodiesAndBodiesOnDrivenOnesNeverSleepAndADrivenBodyWakesAnIsland) {
  Simulation sim = load(R"(
gravity: [0, 0, -9.81]
time: {end: 2.0, step: 1.0e-3}
solver: {sleep: {time: 0.2}}
default_contact: {friction: {law: coulomb, mu: 0.3}}
bodies:
  - {name: ground, fixed: true, shapes: [{type: plane}]}
  - {name: platform, motion: {velocity: [0, 0, 0]}, shapes: [{type: box, half_extents: [1, 1, 0.1]}],
     position: [5, 0, 0.1]}
  - {name: damped, mass: 1, damping: {linear: 0.1}, shapes: [{type: box, half_extents: [0.2, 0.2, 0.2]}],
     position: [0, 0, 0.2]}
  - {name: on_platform, mass: 1, shapes: [{type: box, half_extents: [0.2, 0.2, 0.2]}],
     position: [5, 0, 0.4]}
  - {name: free, mass: 1, shapes: [{type: box, half_extents: [0.2, 0.2, 0.2]}],
     position: [-3, 0, 0.2]}
  - {name: pusher, motion: {velocity: [1, 0, 0]}, shapes: [{type: box, half_extents: [0.2, 0.2, 0.2]}],
     position: [-4.5, 0, 0.25]}
)");
  for (int k = 0; k < 600; ++k) sim.step();
  EXPECT_FALSE(sim.state().sleeping(2));
  EXPECT_FALSE(sim.state().sleeping(3));
  EXPECT_TRUE(sim.state().sleeping(4));
  EXPECT_EQ(sim.workspace().report.sleeping, 1);
  for (int k = 0; k < 900; ++k) sim.step();  // the pusher reaches it at t = 1.1 s
  EXPECT_FALSE(sim.state().sleeping(4));
  EXPECT_GT(sim.state().x_WC[4].x(), -3.0 + 0.3);
}

}  // namespace
}  // namespace coulomb
