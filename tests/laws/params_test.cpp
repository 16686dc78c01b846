// The parameter reader: ranges and defaults from the registry rows, options, unknown keys.
#include "laws/params.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace coulomb;

TEST(Params, DefaultsAndRangesComeFromTheRegistry) {
  // stribeck: exponent > 0 (default 2), regularization > 0 (default 1e-4), form tanh|linear.
  LawSpec s{"stribeck", {{"exponent", 3.0}, {"viscous", 0.0}}, {{"form", "linear"}}, {}};
  detail::Params p(s, LawSection::friction);
  EXPECT_EQ(p.number("exponent"), 3.0);
  EXPECT_EQ(p.number("regularization"), 1e-4);
  EXPECT_EQ(p.number("viscous"), 0.0);  // ≥ 0: zero is in range
  EXPECT_EQ(p.option("form"), "linear");
  EXPECT_NO_THROW(p.finish());

  LawSpec bad{"stribeck", {{"exponent", 0.0}}, {}, {}};
  detail::Params q(bad, LawSection::friction);
  try {
    (void)q.number("exponent");
    FAIL();
  } catch (const LawError& e) {
    EXPECT_STREQ(e.what(), "friction.exponent: must be > 0, got 0");
  }
}

TEST(Params, UnreadKeysAreReportedWithTheValidOnes) {
  LawSpec s{"viscous", {{"damping", 2.0}}, {{"extra", "y"}}, {}};
  detail::Params p(s, LawSection::friction);
  (void)p.number("damping");
  try {
    p.finish();
    FAIL();
  } catch (const LawError& e) {
    EXPECT_EQ(e.key(), "friction.extra");
    EXPECT_STREQ(e.what(), "friction.extra: not a parameter of law 'viscous' (its keys: damping)");
  }
}

TEST(Params, RequiredSaysWhatIsValid) {
  LawSpec s{"hertz", {}, {}, {}};
  detail::Params p(s, LawSection::normal);
  try {
    (void)p.required("stiffness");
    FAIL();
  } catch (const LawError& e) {
    EXPECT_STREQ(e.what(), "normal.stiffness: required for law 'hertz' (must be ≥ 0)");
  }
}

TEST(Params, AKeyMissingFromTheRowIsAProgrammingError) {
  LawSpec s{"viscous", {}, {}, {}};
  detail::Params p(s, LawSection::friction);
  EXPECT_THROW((void)p.number("not_in_the_row"), std::logic_error);
  EXPECT_THROW((void)p.option("not_in_the_row"), std::logic_error);
}

TEST(Params, IntegerKeys) {
  LawSpec s{"contensou", {{"n_angle", 12.5}}, {}, {}};
  detail::Params p(s, LawSection::contensou);
  EXPECT_THROW((void)p.number("n_angle"), LawError);
}
