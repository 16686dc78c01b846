#include <coulomb/laws/elastic_stick.hpp>

#include "laws/fd.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace coulomb;

namespace {
ElasticStickLaw make(double kt, double ct) {
  return ElasticStickLaw(LawSpec{
      "elastic_stick", {{"stiffness", kt}, {"damping", ct}, {"mu_s", 0.5}, {"mu_k", 0.3}}, {}, {}});
}
}  // namespace

TEST(ElasticStick, StickSpringThenSlipAtMuSThenMuK) {
  const ElasticStickLaw law = make(1e4, 0.0);
  FrictionMemory mem;
  mem.sticking = true;  // anchored at x0 = 0 with F0 = 0
  // Below the cap: F = −K_t x.
  TangentialResult r = law.evaluate({Vec2(1e-3, 0), 10.0, Vec2(4e-4, 0)}, mem);
  EXPECT_TRUE(r.memory.sticking);
  EXPECT_TRUE(r.force.isApprox(Vec2(-4.0, 0)));
  EXPECT_NEAR(r.stored, 0.5 * 16.0 / 1e4, 1e-15);
  EXPECT_EQ(r.power, 0.0);
  // ‖K_t x‖ = 6 > μ_s N = 5: slips with μ_k N = 3 and re-anchors there.
  r = law.evaluate({Vec2(1e-3, 0), 10.0, Vec2(6e-4, 0)}, mem);
  EXPECT_FALSE(r.memory.sticking);
  EXPECT_TRUE(r.force.isApprox(Vec2(-3.0, 0)));
  EXPECT_TRUE(r.memory.anchor.isApprox(Vec2(6e-4, 0)));
  EXPECT_TRUE(r.memory.anchor_force.isApprox(Vec2(-3.0, 0)));
  // Next step, same direction and fast: stays on the slipping branch.
  const TangentialResult s = law.evaluate({Vec2(2e-3, 0), 10.0, Vec2(8e-4, 0)}, r.memory);
  EXPECT_FALSE(s.memory.sticking);
  EXPECT_NEAR(s.power, 0.3 * 10.0 * 2e-3, 1e-15);
  // Reversal: sticks again from the anchor force F0 = −3 with the spring.
  const TangentialResult t = law.evaluate({Vec2(-1e-3, 0), 10.0, Vec2(7e-4, 0)}, s.memory);
  EXPECT_TRUE(t.memory.sticking);
  EXPECT_TRUE(t.force.isApprox(Vec2(-3.0 + 1e4 * 1e-4, 0)));
}

TEST(ElasticStick, FreeContactResetsAndThresholdSelectsStick) {
  const ElasticStickLaw law = make(1e4, 5.0);
  FrictionMemory mem;
  mem.sticking = true;
  mem.anchor_force = Vec2(1, 1);
  const TangentialResult r = law.evaluate({Vec2(1, 0), 0.0, Vec2(3, 4)}, mem);
  EXPECT_EQ(r.force, Vec2::Zero());
  EXPECT_FALSE(r.memory.sticking);
  EXPECT_EQ(r.memory.anchor_force, Vec2::Zero());
  EXPECT_EQ(r.memory.anchor, Vec2(3, 4));
  // Slipping memory but ‖v‖ ≤ ε = 1e-6: the stick branch is tried.
  const TangentialResult s = law.evaluate({Vec2(5e-7, 0), 10.0, Vec2(3, 4)}, r.memory);
  EXPECT_TRUE(s.memory.sticking);
}

TEST(ElasticStick, DerivativesOnBothBranches) {
  const ElasticStickLaw law = make(1e4, 5.0);
  FrictionMemory stick;
  stick.sticking = true;
  stick.anchor = Vec2(1e-4, 0);
  const TangentialInput in{Vec2(1e-3, 2e-3), 10.0, Vec2(2e-4, 1e-4)};
  test::expect_friction_jacobian(law, in, stick, 1e-7);
  const TangentialResult r = law.evaluate(in, stick);
  ASSERT_TRUE(r.memory.sticking);
  const double h = 1e-9;
  for (int j = 0; j < 2; ++j) {
    TangentialInput p = in, m = in;
    p.displacement[j] += h;
    m.displacement[j] -= h;
    const Vec2 col = (law.evaluate(p, stick).force - law.evaluate(m, stick).force) / (2 * h);
    EXPECT_TRUE(r.d_displacement.col(j).isApprox(col, 1e-6));
  }
  FrictionMemory slip;
  slip.previous_slip = Vec2(1, 1);
  test::expect_friction_jacobian(law, {Vec2(0.1, 0.2), 10.0, {}}, slip, 1e-7);
}

TEST(ElasticStick, CodeAsterDefaultTangentialDamping) {
  // C_t = 2√(m(k + K_t)) − 2ξ√(k m): m = 2, k = 800, K_t = 1000, ξ = 0.05 → 2·60 − 0.1·40 = 116.
  EXPECT_NEAR(tangential_damping_default(2.0, 800.0, 0.05, 1000.0), 116.0, 1e-12);
}
