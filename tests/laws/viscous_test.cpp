#include <coulomb/laws/viscous.hpp>

#include "laws/fd.hpp"

#include <gtest/gtest.h>

using namespace coulomb;

TEST(Viscous, ForceJacobianPower) {
  const ViscousLaw law(2.5);
  const TangentialInput in{Vec2(0.2, -0.1), 7.0, {}};
  const TangentialResult r = law.evaluate(in, {});
  EXPECT_TRUE(r.force.isApprox(Vec2(-0.5, 0.25)));
  EXPECT_NEAR(r.power, 2.5 * 0.05, 1e-15);
  test::expect_friction_jacobian(law, in, {}, 1e-6);
  EXPECT_THROW(ViscousLaw(-1.0), LawError);
}
