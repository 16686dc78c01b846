// The compliant formulation's right-hand side, Jacobian and root functions allocate nothing once
// warm: a counting global operator new (as tests/world/allocation_test.cpp for the step loop).
#include <coulomb/compliant/system.hpp>
#include <coulomb/scene/scene.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocations{0};
}

// The replacement pair below is malloc/free on both sides; GCC 12 cannot see that through the
// inlined replacement and warns of a mismatch.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace coulomb {
namespace {

// Two balls on a plane and on each other, every kind of law (a Contensou patch, rolling, a
// sticking elastic stick), a spring.
TEST(CompliantAllocation, RightHandSideJacobianAndRootsAllocateNothingOnceWarm) {
  const Scene scene = load_scene_text(R"(
solver: {formulation: compliant}
materials:
  - {name: steel, young_modulus: 2.0e11, poisson_ratio: 0.3}
  - {name: felt, young_modulus: 1.0e7, poisson_ratio: 0.3}
contacts:
  - between: [steel, felt]
    normal: {law: hunt_crossley, damping: 1.0}
    friction: {law: coulomb, mu: 0.3}
    contensou: {model: exact}
    rolling: {k: 0.001}
  - between: [steel, steel]
    normal: {law: dis_choc, stiffness: 1.0e7}
    friction: {law: elastic_stick, mu: 0.4, stiffness: 1.0e5}
bodies:
  - {name: ground, fixed: true, material: felt, shapes: [{type: plane}]}
  - {name: a, material: steel, mass: 1, shapes: [{type: sphere, radius: 0.05}],
     position: [0, 0, 0.04999], velocity: [0.2, 0, 0], angular_velocity: [0, 1, 5]}
  - {name: b, material: steel, mass: 1, shapes: [{type: sphere, radius: 0.05}],
     position: [0, 0, 0.14998]}
springs:
  - {body: b, point: [0.01, 0, 0], anchor: [0, 0, 1], stiffness: 10}
)",
                                      "alloc.yaml");
  const CompliantLawTable laws(scene.model);
  CompliantSystem system(scene.model, laws);
  std::vector<double> y;
  system.begin_segment(scene.state, y);
  std::vector<double> ydot(y.size()), jac(y.size() * y.size()), g(system.root_directions().size());
  // Warm: every buffer at its size.
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(system.rhs(0.0, y, ydot), 0);
    ASSERT_EQ(system.jacobian(0.0, y, jac), 0);
    ASSERT_EQ(system.roots(0.0, y, g), 0);
  }
  ASSERT_EQ(system.contacts().size(), 2u);
  const long before = g_allocations.load();
  for (int i = 0; i < 20; ++i) {
    y[0] += 1e-7;  // move a little: the same contacts
    (void)system.rhs(0.0, y, ydot);
    (void)system.jacobian(0.0, y, jac);
    (void)system.roots(0.0, y, g);
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
}

}  // namespace
}  // namespace coulomb
