// No allocation in the step loop once warm: a counting global operator new.
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "world/builders.hpp"

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

// Steps a pile of spheres (falling on a plane and on each other, changing contacts) until it
// settles, then counts allocations over 200 more steps.
long allocations_once_warm(bool moment_laws) {
  Model model = testing::make_model(0.3, 0.2, 1e-3, 1.0);
  if (moment_laws) {
    // Six unknowns per contact: rolling friction and a Contensou ellipsoid.
    model.contacts[0].rolling = LawSpec{"rolling", {{"k", 1e-3}}, {}, {}};
    model.contacts[0].contensou =
        LawSpec{"contensou", {{"radius", 2e-3}}, {{"model", "ellipsoid"}}, {}};
  }
  State state;
  testing::add_body(model, state, {.name = "ground", .fixed = true}, {testing::plane_shape()});
  const char* names[] = {"s0", "s1", "s2", "s3"};
  for (int i = 0; i < 4; ++i) {
    testing::add_body(model, state,
                      {.name = names[i],
                       .mass = 1.0,
                       .inertia_B = testing::solid_sphere_inertia(1.0, 0.1),
                       .x = Vec3(0.05 * i, 0.0, 0.1 + 0.25 * i),
                       .v = Vec3(0.3, 0, 0),
                       .w = Vec3(0, 0, 5.0)},
                      {testing::sphere_shape(0.1)});
  }
  model.finalize();
  Workspace ws;
  // Warm up until the pile has settled into contact (capacities reach their maximum).
  for (int i = 0; i < 1500; ++i) step(model, state, ws);
  EXPECT_GT(ws.report.active_contacts, 0);
  EXPECT_EQ(ws.unknowns(), moment_laws ? kWrench : kForce);
  const long before = g_allocations.load();
  for (int i = 0; i < 200; ++i) step(model, state, ws);
  return g_allocations.load() - before;
}

TEST(Workspace, StepLoopIsAllocationFreeOnceWarm) { EXPECT_EQ(allocations_once_warm(false), 0); }

TEST(Workspace, StepLoopWithMomentLawsIsAllocationFreeOnceWarm) {
  EXPECT_EQ(allocations_once_warm(true), 0);
}

}  // namespace
}  // namespace coulomb
