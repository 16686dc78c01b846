// Joints in the step (docs/joints.md): joint rows and frictional contacts in one problem solved
// by NSGS and auto; the six-unknown problem; Moreau–Jean; the anchor kept to
// round-off over a long run; the compliant formulation refused. (PROX on joint blocks:
// tests/nonsmooth/joint_rows_test.cpp.)
#include <coulomb/scene/scene.hpp>
#include <coulomb/world/simulation.hpp>
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace coulomb {
namespace {

// What both scenes share: one second of 1e-3 s steps, the solver, a floor with e = 0, μ = 0.5.
std::string floor_scene(const std::string& solver, const std::string& extra = "") {
  return R"(
time: {end: 1.0, step: 1.0e-3}
solver: {name: )" +
         solver + R"(, tolerance: 1.0e-10, max_iterations: 5000)" + extra + R"(}
materials: [m]
contacts:
  - between: [m, m]
    normal: {law: signorini, restitution: 0.0}
    friction: {law: coulomb, mu: 0.5}
bodies:
  - {name: floor, fixed: true, material: m, shapes: [{type: plane, normal: [0, 0, 1], offset: 0}]}
)";
}

// A bar (1 m x 0.1 m x 0.1 m, 2 kg) on a hinge at one end, 0.6 m above a floor, released
// horizontal so that it falls, strikes the floor with its far end and comes to rest on it (the
// Moreau–Jean test below). With the midpoint scheme its impact steps need thousands of sweeps,
// and NSGS stalls at ~6e-6 in one of them: 5 hinge rows and 2–3 contact points on 6 degrees of
// freedom (docs/joints.md, "Solvers"). `sphere_scene` has no redundant rows: a sphere on a ball
// joint strikes the floor.
std::string bar_scene(const std::string& solver, const std::string& extra = "") {
  return "name: hinged-bar" + floor_scene(solver, extra) + R"(  - name: bar
    material: m
    mass: 2.0
    shapes: [{type: box, half_extents: [0.5, 0.05, 0.05]}]
    position: [0.5, 0.0, 0.6]
joints:
  - {name: pin, type: hinge, bodies: [world, bar], anchor: [0, 0, 0.6], axis: [0.2, 1, 0.1]}
)";
}

// A sphere (r = 0.1 m, 1 kg) on a ball joint 0.51 m from its centre, released with a sideways
// velocity: it swings down in 3-D, strikes the floor (its lowest point would be 6 cm below it),
// slides with friction (μ = 0.5, e = 0) and comes to rest pressed on it: one contact point and
// three joint rows on six degrees of freedom, in the same problem.
std::string sphere_scene(const std::string& solver) {
  return floor_scene(solver) +
         R"(  - {name: bob, material: m, mass: 1.0, shapes: [{type: sphere, radius: 0.1}],
     position: [0.5, 0.1, 0.55], velocity: [0, 0.7, 0]}
joints:
  - {name: socket, type: ball, bodies: [world, bob], anchor: [0, 0, 0.55]}
)";
}

// Runs a scene to its end; every step must converge. Returns the final state.
State run(const std::string& text, double* worst_violation = nullptr,
          int* contact_steps = nullptr) {
  Scene scene = load_scene_text(text, "test.yaml");
  Simulation sim(std::move(scene.model), std::move(scene.state));
  double worst = 0.0;
  int with_contacts = 0;
  while (sim.state().time < sim.model().end_time - 0.5 * sim.model().time_step) {
    const StepReport& r = sim.step();
    EXPECT_TRUE(sim.finite());
    EXPECT_EQ(r.solver.status, SolverStatus::converged)
        << "t = " << sim.state().time << " error " << r.solver.error << " sweeps "
        << r.solver.iterations;
    worst = std::max(worst, r.joint_violation);
    with_contacts += r.active_contacts > 0 ? 1 : 0;
  }
  if (worst_violation) *worst_violation = worst;
  if (contact_steps) *contact_steps = with_contacts;
  return sim.state();
}

TEST(Joints, NsgsAndAutoSolveASphereOnABallJointStrikingTheFloor) {
  double violation = 0.0;
  int contact_steps = 0;
  const State ref = run(sphere_scene("nsgs"), &violation, &contact_steps);
  // The sphere reaches the floor and rests on it for most of the run.
  EXPECT_GT(contact_steps, 300);
  // The hinge is closed to round-off after the position stage (lengths of order 1 m).
  EXPECT_LT(violation, 1e-14);
  // `auto` runs NSGS alone on a problem with joint blocks (solve.cpp; PROX stalls on the
  // hinge's ill-conditioned rows, docs/joints.md): the same trajectory, bit for bit.
  const State s = run(sphere_scene("auto"));
  EXPECT_EQ(s.x_WC[1], ref.x_WC[1]);
  EXPECT_EQ(s.v_WC[1], ref.v_WC[1]);
  EXPECT_EQ(s.w_W[1], ref.w_W[1]);
}

TEST(Joints, MoreauJeanKeepsTheHingeClosed) {
  // Moreau–Jean changes the joint rows' law to u⁺ = 0 (its position stage is off by default:
  // switched on here).
  double violation = 0.0;
  int contact_steps = 0;
  const State s = run(bar_scene("nsgs", ", scheme: moreau_jean, position_correction: true"),
                      &violation, &contact_steps);
  EXPECT_LT(violation, 1e-14);
  EXPECT_GT(contact_steps, 300);
  // The anchor, carried by the bar: 0.5 m from its centre along the bar's x axis.
  const Vec3 anchor = s.x_WC[1] + s.q_WB[1] * Vec3(-0.5, 0, 0);
  EXPECT_LT((anchor - Vec3(0, 0, 0.6)).norm(), 1e-14);
}

TEST(Joints, JointBlocksInTheSixUnknownProblem) {
  // Pivoting friction on a ball spinning on the floor makes the problem one of six unknowns per
  // block; a ball-joint pendulum swings beside it (its blocks use three of the six rows). The
  // pendulum is closed to round-off, and the spinning ball decelerates at the pivoting law's
  // rate 5 h g/(2 R²) (docs/validation.md, pivoting-decay) while the joint is in the problem.
  const std::string text = R"(
time: {end: 0.5, step: 1.0e-3}
solver: {tolerance: 1.0e-12}
materials: [m]
contacts:
  - between: [m, m]
    normal: {law: signorini, restitution: 0.0}
    friction: {law: coulomb, mu: 0.3}
    pivoting: {h: 0.001}
bodies:
  - {name: floor, fixed: true, material: m, shapes: [{type: plane, normal: [0, 0, 1], offset: 0}]}
  - {name: top, material: m, mass: 1.0, shapes: [{type: sphere, radius: 0.1}],
     position: [0, 0, 0.1], angular_velocity: [0, 0, 10]}
  - {name: bob, material: m, mass: 1.0, shapes: [{type: sphere, radius: 0.05}],
     position: [2.5, 0.3, 1.0], velocity: [0, 0.8, 0.5]}
joints:
  - {type: ball, bodies: [world, bob], anchor: [2, 0, 1.5]}
)";
  double violation = 0.0;
  const State s = run(text, &violation);
  EXPECT_LT(violation, 1e-14);
  EXPECT_LT(std::abs((s.x_WC[2] - Vec3(2, 0, 1.5)).norm() - std::sqrt(0.25 + 0.09 + 0.25)), 1e-14);
  // ω(t) = ω0 − (5 h g/(2 R²)) t = 10 − 1.22625·0.5: exact for the constant pivoting moment
  // (the midpoint and end-of-step laws integrate a constant moment exactly): 1e-9 rad/s.
  EXPECT_NEAR(s.w_W[1].z(), 10.0 - 5.0 * 0.001 * 9.81 / (2.0 * 0.01) * 0.5, 1e-9);
}

TEST(Joints, PendulumAnchorStaysPutOverALongRun) {
  // 2·10⁴ steps of a large-amplitude pendulum: the bob's distance to the anchor stays 1 m to
  // round-off (the position stage every step), and the energy audit closes.
  const std::string text = R"(
time: {end: 20.0, step: 1.0e-3}
solver: {tolerance: 1.0e-12}
bodies:
  - {name: bob, mass: 1.0, shapes: [{type: sphere, radius: 0.05}], position: [1, 0, 1]}
joints:
  - {type: ball, bodies: [world, bob], anchor: [0, 0, 1]}
)";
  Scene scene = load_scene_text(text, "test.yaml");
  Simulation sim(std::move(scene.model), std::move(scene.state));
  const double e0 = energy(sim.model(), sim.state()).mechanical();
  double worst = 0.0;
  while (sim.state().time < 20.0 - 0.5e-3) {
    sim.step();
    worst = std::max(worst, std::abs((sim.state().x_WC[0] - Vec3(0, 0, 1)).norm() - 1.0));
  }
  // Round-off of positions of order 1 m (a few ulp).
  EXPECT_LT(worst, 1e-15);
  // total = mechanical + dissipated (the correction booked): constant to round-off of 2·10⁴
  // steps of energies ~10 J (measured 1e-13).
  const double total = energy(sim.model(), sim.state()).mechanical() + sim.state().dissipated;
  EXPECT_NEAR(total, e0, 1e-11);
}

TEST(Joints, PrismaticLimitStopsTheSliderAndHoldsIt) {
  // A slider on an oblique prismatic joint (axis (1, 0.5, -1)/|.|, downhill) released at rest,
  // limits [-0.3, 0.2] m: it slides down along the axis at g·a (the axis' downhill component),
  // reaches the limit 0.2 m further, stops there (e = 0) and stays; the joint's reaction then
  // carries the weight.
  const std::string text = R"(
time: {end: 1.0, step: 1.0e-3}
solver: {tolerance: 1.0e-12, max_iterations: 2000}
bodies:
  - {name: slider, mass: 2.0, shapes: [{type: box, half_extents: [0.1, 0.05, 0.05]}],
     position: [0.3, -0.2, 1.0]}
joints:
  - {name: rail, type: prismatic, bodies: [world, slider], anchor: [0.3, -0.2, 1.0],
     axis: [1, 0.5, -1], limits: [-0.3, 0.2]}
)";
  Scene scene = load_scene_text(text, "test.yaml");
  Simulation sim(std::move(scene.model), std::move(scene.state));
  const Vec3 a = Vec3(1, 0.5, -1).normalized();
  const Vec3 x0 = sim.state().x_WC[0];
  const double accel = Vec3(0, 0, -9.81).dot(a);
  const double t_hit = std::sqrt(2.0 * 0.2 / accel);
  double worst_side = 0.0, beyond = 0.0;
  while (sim.state().time < 1.0 - 0.5e-3) {
    const StepReport& r = sim.step();
    EXPECT_EQ(r.solver.status, SolverStatus::converged);
    const Vec3 d = sim.state().x_WC[0] - x0;
    worst_side = std::max(worst_side, (d - d.dot(a) * a).norm());
    beyond = std::max(beyond, d.dot(a) - 0.2);
    // Before the stop: s = g_a t²/2 exactly (a constant force, the midpoint rule): 1e-12 m.
    if (sim.state().time < t_hit - 2e-3) {
      EXPECT_NEAR(d.dot(a), 0.5 * accel * sim.state().time * sim.state().time, 1e-12);
    }
  }
  // The slide stays on the axis and never passes the limit: round-off (lengths of order 1 m).
  EXPECT_LT(worst_side, 1e-14);
  EXPECT_LT(beyond, 1e-14);
  // At rest on the limit: the position (round-off), the velocity (solver tolerance).
  EXPECT_NEAR((sim.state().x_WC[0] - x0).dot(a), 0.2, 1e-14);
  EXPECT_LT(sim.state().v_WC[0].norm(), 1e-12);
  // The reaction carries the weight: m g up (solver tolerance on impulses of 2e-2 N s).
  const Vec3 f = sim.workspace().step_results.joint_force[0];
  EXPECT_LT((f - Vec3(0, 0, 2.0 * 9.81)).norm(), 1e-8);
}

TEST(Joints, TheCompliantFormulationRefusesJointsBuiltInCode) {
  Scene scene = load_scene_text(R"(
bodies:
  - {name: bob, mass: 1.0, shapes: [{type: sphere, radius: 0.05}]}
joints:
  - {type: ball, bodies: [world, bob], anchor: [0, 0, 1]}
)",
                                "test.yaml");
  scene.model.solver.formulation = Formulation::compliant;
  EXPECT_THROW(scene.model.finalize(), std::invalid_argument);
}

}  // namespace
}  // namespace coulomb
