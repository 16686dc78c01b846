// The parameter reader: defaults, ranges, options, unknown keys.
#include "laws/params.hpp"

#include <gtest/gtest.h>

using namespace coulomb;

TEST(Params, DefaultsAndRanges) {
  LawSpec s{"x", {{"a", 2.0}, {"b", 0.0}}, {{"form", "tanh"}}, {}};
  detail::Params p(s, "friction");
  EXPECT_EQ(p.number("a", 1.0, 0.0, 10.0), 2.0);
  EXPECT_EQ(p.number("missing", 7.0, 0.0, 10.0), 7.0);
  EXPECT_THROW(p.number("b", 1.0, 0.0, 10.0, /*open_lo=*/true), LawError);
  EXPECT_EQ(p.option("form", "linear", {"linear", "tanh"}), "tanh");
  EXPECT_NO_THROW(p.finish());
}

TEST(Params, UnreadKeysAreReported) {
  LawSpec s{"x", {{"a", 2.0}}, {{"extra", "y"}}, {}};
  detail::Params p(s, "normal");
  (void)p.number("a", 1.0, 0.0, 10.0);
  try {
    p.finish();
    FAIL();
  } catch (const LawError& e) {
    EXPECT_EQ(e.key(), "normal.extra");
  }
}

TEST(Params, RequiredSaysWhatIsValid) {
  LawSpec s{"hertz", {}, {}, {}};
  detail::Params p(s, "normal");
  try {
    (void)p.required("stiffness", 0.0, kInf);
    FAIL();
  } catch (const LawError& e) {
    EXPECT_STREQ(e.what(), "normal.stiffness: required for law 'hertz' (must be ≥ 0)");
  }
}
