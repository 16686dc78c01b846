// PROX's Newton systems in body space (the block LU, src/nonsmooth/prox_body.cpp) on the contact
// problems the time stepping makes in general 3-D motion: boxes, a capsule and a sphere tumbling
// onto a tilted box on the ground, spins not along the velocities, several shape pairs. The
// random problems of the nonsmooth tests are general too; these are the ones a scene makes
// (four-point box faces, edge contacts, redundant contact sets).

#include <coulomb/nonsmooth/prox.hpp>
#include <coulomb/world/simulation.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <variant>

#include "world/simulations.hpp"

namespace coulomb {
namespace {

using testing::load;

const char* const kTumble = R"(
gravity: [0, 0, -9.81]
time: {end: 1.0, step: 1.0e-3}
materials: [ground, m]
contacts:
  - {between: [m, ground], friction: {law: coulomb, mu: 0.6}}
  - {between: [m, m], friction: {law: coulomb, mu: 0.4}}
bodies:
  - {name: ground, fixed: true, material: ground, shapes: [{type: plane}]}
  - {name: base, material: m, mass: 4.0, position: [0, 0, 0.15],
     orientation: {axis: [0, 0, 1], angle: 0.4},
     shapes: [{type: box, half_extents: [0.4, 0.3, 0.15]}]}
  - {name: lid, material: m, mass: 1.0, position: [0.05, -0.03, 0.42],
     orientation: {axis: [1, 2, 0.5], angle: 0.35},
     velocity: [0.3, -0.2, -0.4], angular_velocity: [1.0, -2.0, 0.7],
     shapes: [{type: box, half_extents: [0.2, 0.15, 0.08]}]}
  - {name: rod, material: m, mass: 0.5, position: [-0.15, 0.1, 0.5],
     orientation: {axis: [0.3, 1, 0.2], angle: 1.2},
     velocity: [0.1, 0.25, -0.3], angular_velocity: [-1.5, 0.4, 2.0],
     shapes: [{type: capsule, radius: 0.04, half_length: 0.15}]}
  - {name: ball, material: m, mass: 0.3, position: [0.22, 0.18, 0.45],
     velocity: [-0.2, 0.1, -0.5], angular_velocity: [3.0, 1.0, -2.0],
     shapes: [{type: sphere, radius: 0.06}]}
)";

// Every 25 steps of the tumble, PROX on the step's factored problem (body space, block LU) and on
// the same problem assembled (contact space, Eigen's SparseLU): the same Newton iterations (to
// the last stop test, below), the same status, and the same velocities to round-off of the two
// linear solves (1e-9 of ‖q‖: W is singular on the redundant four-point faces, so the impulses need
// not be unique, the velocities are). From r = 0, to 1e-12.
TEST(BodySpaceProx3D, TumblingShapesGiveTheContactSpaceAnswer) {
  Simulation s = load(kTumble);
  int compared = 0, largest = 0;
  for (int step = 1; step <= 600; ++step) {
    ASSERT_TRUE(s.step().finite) << step;
    if (step % 25 != 0) continue;
    const auto* buffers = std::get_if<ContactBuffers<kForce>>(&s.workspace().contact);
    ASSERT_NE(buffers, nullptr);
    const FactoredForceProblem& p = buffers->problem;
    if (p.contact_count < 4) continue;
    SCOPED_TRACE(step);
    SolverOptions o;
    o.tolerance = 1e-12;
    o.max_iterations = 500;
    std::vector<Vec3> rb, ub, ra, ua;
    const SolverResult body = solve_prox(p, rb, ub, o);
    const SolverResult contact = solve_prox(p.assembled(), ra, ua, o);
    EXPECT_EQ(body.status, SolverStatus::converged);
    EXPECT_EQ(body.status, contact.status);
    // The same Newton iterations, but for the last stop test: the inner Newton stops once the
    // regularised error is below its target (here ~1e-13), and the round-off of the two
    // factorisations can put the last iterate on either side of it (step 325 of this tumble:
    // after the same 45 iterations, whose errors agree to five digits, 1.2e-13 in body space
    // against 8.4e-16 in contact space, so body space takes a 46th). The one that went on must
    // then meet the tolerance at the other's count already.
    if (body.iterations != contact.iterations) {
      EXPECT_EQ(std::abs(body.iterations - contact.iterations), 1);
      SolverOptions fewer = o;
      fewer.max_iterations = std::min(body.iterations, contact.iterations);
      std::vector<Vec3> rf, uf;
      const SolverResult longer = body.iterations > contact.iterations
                                      ? solve_prox(p, rf, uf, fewer)
                                      : solve_prox(p.assembled(), rf, uf, fewer);
      EXPECT_LE(longer.error, o.tolerance);
    }
    double diff = 0.0, scale = 0.0;
    for (int a = 0; a < p.contact_count; ++a) {
      diff = std::max(diff, (ub[a] - ua[a]).norm());
      scale = std::max(scale, p.q[a].norm());
    }
    EXPECT_LE(diff, 1e-9 * scale);
    ++compared;
    largest = std::max(largest, p.contact_count);
  }
  // The tumble makes problems worth the name: a dozen of them, the largest of ten contacts.
  EXPECT_GE(compared, 12);
  EXPECT_GE(largest, 10);
}

}  // namespace
}  // namespace coulomb
