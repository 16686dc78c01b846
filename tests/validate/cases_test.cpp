// Every validation case passes (full form), and each case does fail when its reference is off:
// the checks compare what they claim to compare.
#include <coulomb/validate/validate.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace coulomb::validate {
namespace {

const Case& find(const std::string& name) {
  for (const Case& c : validation_cases())
    if (c.name == name) return c;
  throw std::invalid_argument(name);
}

class EveryCase : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryCase, PassesInTheFullForm) {
  const std::vector<Check> checks = find(GetParam()).run(CaseContext{false});
  ASSERT_FALSE(checks.empty());
  for (const Check& c : checks) {
    EXPECT_TRUE(c.passed) << c.quantity << ": measured " << c.measured << ", expected "
                          << c.expected << ", error " << c.error << " > " << c.tolerance;
    EXPECT_FALSE(c.reason.empty()) << c.quantity;
    EXPECT_GT(c.tolerance, 0.0) << c.quantity;
  }
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const Case& c : validation_cases()) names.push_back(c.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Validation, EveryCase, ::testing::ValuesIn(case_names()),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s) c = c == '-' ? '_' : c;
                           return s;
                         });

// The expected values are the closed forms, not the measured ones: spot-check a few.
TEST(Cases, ExpectedValuesAreTheClosedForms) {
  const auto billiard = find("billiard").run(CaseContext{true});
  EXPECT_DOUBLE_EQ(billiard[0].expected, 5.0 * 2.0 / 7.0);  // 5 v0/7, v0 = 2 m/s
  const auto topspin = find("billiard-topspin").run(CaseContext{true});
  EXPECT_NEAR(topspin[0].expected, 9.0 * 2.0 / 7.0, 1e-12);  // w0 = 4/R: 9 v0/7
  const auto slide = find("incline-slide").run(CaseContext{true});
  const double a = 9.81 * (0.5 - 0.3 * std::sqrt(3.0) / 2.0);  // 30 deg, mu = 0.3
  EXPECT_NEAR(slide[0].expected, a, 1e-12);
  const auto apex = find("bouncing-ball-apex").run(CaseContext{true});
  EXPECT_GE(apex.size(), 3u);
  for (const Check& c : apex) EXPECT_DOUBLE_EQ(c.expected, 0.81);  // e^2, e = 0.9
  // Issue 4: 5 h g/(2 R^2) with h = 1 mm, R = 5 cm is g per second; (5/7) g k/R with k = 1 mm.
  const auto pivoting = find("pivoting-decay").run(CaseContext{true});
  EXPECT_NEAR(pivoting[0].expected, 9.81, 1e-12);
  const auto rolling = find("rolling-resistance").run(CaseContext{true});
  EXPECT_NEAR(rolling[0].expected, 5.0 / 7.0 * 9.81 * 1e-3 / 0.05, 1e-15);
  EXPECT_NEAR(rolling[1].expected, 7.0 * 0.05 / (5.0 * 9.81 * 1e-3), 1e-12);  // v0 = 1 m/s
}

// The quick form shortens the resting cases to 2 s.
TEST(Cases, QuickFormIsShorter) {
  const auto quick = find("box-rest").run(CaseContext{true});
  EXPECT_NE(quick[0].quantity.find("over 2 s"), std::string::npos) << quick[0].quantity;
  // The tippe top stops halving h at 2.5e-4 s: one ratio of differences instead of two.
  EXPECT_EQ(find("tippe-top").run(CaseContext{true}).size(), 2u);
  EXPECT_EQ(find("tippe-top").run(CaseContext{false}).size(), 3u);
}

}  // namespace
}  // namespace coulomb::validate
