// The validation runner and its report: checks, selection, failures, Markdown and JSON.
#include <coulomb/validate/validate.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace coulomb::validate {
namespace {

TEST(MakeCheck, AbsoluteAndRelativeErrors) {
  const Check a = make_check("x [m]", "ref", 1.5, 1.0, false, 0.5, "why");
  EXPECT_DOUBLE_EQ(a.error, 0.5);
  EXPECT_TRUE(a.passed);  // error == tolerance passes
  const Check r = make_check("x [m]", "ref", 1.5, 2.0, true, 0.2, "why");
  EXPECT_DOUBLE_EQ(r.error, 0.25);
  EXPECT_FALSE(r.passed);
  // Relative against an expected 0: exact agreement passes, anything else fails.
  EXPECT_TRUE(make_check("x", "r", 0.0, 0.0, true, 1e-9, "w").passed);
  EXPECT_FALSE(make_check("x", "r", 1e-300, 0.0, true, 1e-9, "w").passed);
  // A NaN measurement fails whatever the tolerance.
  EXPECT_FALSE(make_check("x", "r", std::nan(""), 0.0, false, 1e300, "w").passed);
}

TEST(Registry, NamesAreUniqueAndEveryCaseNamesItsScene) {
  const auto& cases = validation_cases();
  ASSERT_GE(cases.size(), 11u);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_FALSE(cases[i].description.empty()) << cases[i].name;
    EXPECT_TRUE(cases[i].run) << cases[i].name;
    // Scenes are files under scenes/validation/ that are embedded in the library.
    if (cases[i].scene != "-") {
      const std::string prefix = "scenes/validation/";
      ASSERT_EQ(cases[i].scene.rfind(prefix, 0), 0u) << cases[i].scene;
      EXPECT_NO_THROW((void)validation_scene_text(cases[i].scene.substr(prefix.size())));
      std::ifstream file(std::string(COULOMB_SOURCE_DIR) + "/" + cases[i].scene);
      std::stringstream text;
      text << file.rdbuf();
      EXPECT_EQ(text.str(), validation_scene_text(cases[i].scene.substr(prefix.size())));
    }
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(cases[i].name, cases[j].name);
  }
  EXPECT_THROW((void)validation_scene_text("nope.yaml"), std::invalid_argument);
}

TEST(Registry, SiconosReferenceIsEmbeddedWhole) {
  std::ifstream file(COULOMB_SOURCE_DIR "/tests/data/siconos-bouncing-ball/BouncingBallTS.ref");
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_EQ(text.str(), siconos_bouncing_ball_reference());
}

TEST(Run, SelectsCasesInRegistryOrderAndRejectsUnknownNames) {
  Options options;
  options.cases = {"contensou-table", "billiard"};
  std::vector<std::string> seen;
  options.on_case = [&](const std::string& name) { seen.push_back(name); };
  const Report report = run(options);
  ASSERT_EQ(report.cases.size(), 2u);
  EXPECT_EQ(report.cases[0].name, "billiard");
  EXPECT_EQ(report.cases[1].name, "contensou-table");
  EXPECT_EQ(seen, (std::vector<std::string>{"billiard", "contensou-table"}));
  EXPECT_TRUE(report.passed);
  options.cases = {"nope"};
  EXPECT_THROW((void)run(options), std::invalid_argument);
}

// A report with one passing and one failing case, built by hand.
Report sample_report() {
  Report r;
  r.quick = true;
  CaseResult ok;
  ok.name = "good";
  ok.description = "a good case";
  ok.scene = "-";
  ok.checks = {make_check("a |x| [m]", "zero", 0.0, 0.0, false, 1.0, "r1")};
  ok.passed = true;
  CaseResult bad;
  bad.name = "bad";
  bad.description = "a bad case";
  bad.scene = "scenes/validation/bad.yaml";
  bad.checks = {make_check("b [s]", "two", 3.0, 2.0, true, 0.1, "r2")};
  bad.passed = false;
  r.cases = {ok, bad};
  r.passed = false;
  return r;
}

TEST(Report, MarkdownHasTheSummaryAndEveryCheckWithItsReason) {
  const std::string md = report_markdown(sample_report());
  EXPECT_NE(md.find("1 of 2 cases pass"), std::string::npos);
  EXPECT_NE(md.find("| good | - | 1 | PASS |"), std::string::npos);
  EXPECT_NE(md.find("| bad | scenes/validation/bad.yaml | 1 | **FAIL** |"), std::string::npos);
  EXPECT_NE(md.find("a \\|x\\| [m]"), std::string::npos);  // '|' escaped inside a table cell
  EXPECT_NE(md.find("- b [s]: r2"), std::string::npos);
  EXPECT_NE(md.find("0.5 (rel.)"), std::string::npos);
}

TEST(Report, JsonRoundTripsTheValues) {
  const auto j = nlohmann::json::parse(report_json(sample_report()));
  EXPECT_EQ(j["quick"], true);
  EXPECT_EQ(j["passed"], false);
  ASSERT_EQ(j["cases"].size(), 2u);
  const auto& c = j["cases"][1]["checks"][0];
  EXPECT_EQ(c["quantity"], "b [s]");
  EXPECT_EQ(c["measured"].get<double>(), 3.0);
  EXPECT_EQ(c["expected"].get<double>(), 2.0);
  EXPECT_EQ(c["error"].get<double>(), 0.5);
  EXPECT_EQ(c["relative"], true);
  EXPECT_EQ(c["passed"], false);
}

TEST(Report, WritesBothFiles) {
  const std::string dir = COULOMB_BINARY_DIR "/validate-report-test";
  std::filesystem::remove_all(dir);
  write_report(sample_report(), dir);
  EXPECT_TRUE(std::filesystem::exists(dir + "/report.md"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/report.json"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/report.md.partial"));
}

}  // namespace
}  // namespace coulomb::validate
