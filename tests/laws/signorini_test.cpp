#include <coulomb/laws/signorini.hpp>

#include <gtest/gtest.h>

using namespace coulomb;

TEST(Signorini, IsSetValuedWithRestitution) {
  const SignoriniLaw law(0.7);
  EXPECT_TRUE(law.set_valued());
  EXPECT_DOUBLE_EQ(law.restitution(), 0.7);
  EXPECT_EQ(law.evaluate(1e-3, 1.0, {}).force, 0.0);
  EXPECT_EQ(law.potential(1e-3, {}), 0.0);
}

TEST(Signorini, RestitutionOutsideUnitIntervalIsRejected) {
  EXPECT_THROW(SignoriniLaw(-0.1), LawError);
  EXPECT_THROW(SignoriniLaw(1.01), LawError);
  EXPECT_NO_THROW(SignoriniLaw(LawSpec{"signorini", {}, {}, {}}));
}
