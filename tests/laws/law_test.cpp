// Factories, parameter validation and error messages of the laws module.
#include <coulomb/laws/law.hpp>
#include <coulomb/laws/one_line.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

using namespace coulomb;

namespace {
std::string message_of(const std::function<void()>& f, std::string* key = nullptr,
                       SourceMark* mark = nullptr) {
  try {
    f();
  } catch (const LawError& e) {
    if (key) *key = e.key();
    if (mark) *mark = e.mark();
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Law, FactoriesBuildEveryNamedLaw) {
  for (const char* name : {"signorini", "linear", "hertz", "hunt_crossley", "dis_choc"}) {
    LawSpec s{name, {{"stiffness", 1e5}}, {}, {}};
    if (std::string(name) == "signorini") s.params = {{"restitution", 0.5}};
    EXPECT_EQ(make_normal_law(s)->name(), name);
  }
  for (const char* name : {"coulomb", "viscous", "regularized", "stribeck", "elastic_stick"}) {
    LawSpec s{name, {}, {}, {}};
    const std::string n = name;
    if (n == "coulomb" || n == "elastic_stick") s.params = {{"mu", 0.3}};
    if (n == "viscous") s.params = {{"damping", 2.0}};
    if (n == "regularized") s.params = {{"mu", 0.3}, {"regularization", 1e-3}};
    if (n == "stribeck") s.params = {{"mu_s", 0.5}, {"mu_k", 0.3}, {"stribeck_velocity", 0.01}};
    EXPECT_EQ(make_friction_law(s)->name(), name);
  }
  EXPECT_DOUBLE_EQ(make_rolling_law({"", {{"k", 0.002}}, {}, {}})->coefficient(), 0.002);
  EXPECT_DOUBLE_EQ(make_pivoting_law({"", {{"h", 0.003}}, {}, {}})->coefficient(), 0.003);
  EXPECT_DOUBLE_EQ(make_soft_finger_law({"", {{"radius", 0.01}}, {}, {}}, 0.5)->coefficient(),
                   0.005);
}

TEST(Law, ErrorsNameTheKeyTheRangeAndTheMark) {
  std::string key;
  SourceMark mark;
  LawSpec s{"coulomb", {{"mu", -0.2}}, {}, {{"mu", {12, 7}}}};
  EXPECT_EQ(message_of([&] { (void)make_friction_law(s); }, &key, &mark),
            "friction.mu: must be in [0, 10000], got -0.2");
  EXPECT_EQ(key, "friction.mu");
  EXPECT_EQ(mark.line, 12);
  EXPECT_EQ(mark.column, 7);
  // Range with two bounds; unknown law; unknown key; missing required key; bad option.
  EXPECT_EQ(message_of([] {
              (void)make_normal_law({"signorini", {{"restitution", 1.5}}, {}, {}});
            }),
            "normal.restitution: must be in [0, 1], got 1.5");
  EXPECT_EQ(message_of(
                [] {
                  (void)make_normal_law({"spring", {}, {}, {}});
                },
                &key),
            "normal.law: must be one of signorini|linear|hertz|hunt_crossley|dis_choc|tsuji, got "
            "'spring'");
  EXPECT_EQ(key, "normal.law");
  EXPECT_EQ(message_of([] {
              (void)make_friction_law({"coulomb", {{"mu", 0.1}, {"muu", 1}}, {}, {}});
            }),
            "friction.muu: not a parameter of law 'coulomb' (its keys: mu, mu_s, mu_k, mu_t1, "
            "mu_t2, regularization)");
  EXPECT_NE(message_of([] {
              (void)make_friction_law({"viscous", {}, {}, {}});
            }).find("friction.damping: required"),
            std::string::npos);
  EXPECT_EQ(
      message_of([] {
        (void)make_friction_law(
            {"regularized", {{"mu", 0.1}, {"regularization", 1e-3}}, {{"form", "cubic"}}, {}});
      }),
      "friction.form: must be one of linear|tanh, got 'cubic'");
  EXPECT_EQ(message_of([] {
              (void)make_rolling_law({"", {{"k", -1}}, {}, {}});
            }),
            "rolling.k: must be ≥ 0, got -1");
  EXPECT_EQ(
      message_of([] {
        (void)make_friction_law({"regularized", {{"mu", 0.1}, {"regularization", 0}}, {}, {}});
      }),
      "friction.regularization: must be > 0, got 0");
}

TEST(Law, LawErrorIsAnInvalidArgument) {
  EXPECT_THROW((void)make_friction_law({"coulomb", {{"mu", std::nan("")}}, {}, {}}),
               std::invalid_argument);
}

TEST(Law, OneLineEscapesControlCharactersOnly) {
  EXPECT_EQ(one_line("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(one_line(std::string("\x00\x1F\x7F", 3)), "\\x00\\x1F\\x7F");
  EXPECT_EQ(one_line("caf\xC3\xA9 \\ 'x' \"y\""),
            "caf\xC3\xA9 \\ 'x' \"y\"");  // the rest unchanged
  EXPECT_EQ(one_line(""), "");
}

TEST(Law, EnergyKindNames) {
  EXPECT_EQ(energy_kind_name(EnergyKind::normal), "normal");
  EXPECT_EQ(energy_kind_name(EnergyKind::friction), "friction");
  EXPECT_EQ(energy_kind_name(EnergyKind::rolling), "rolling");
  EXPECT_EQ(energy_kind_name(EnergyKind::pivoting), "pivoting");
}

// Energy audit by kind: every compliant law reports the power of its own definition, ≥ 0 —
// normal: (N − N_elastic) δ̇ (the elastic part is N at δ̇ = 0 for these laws); friction: −F_t·v_t
// (elastic stick: minus the power into its spring, not sampled here: fresh memory slips);
// rolling −M_t·ω_t; pivoting −M_n ω_n.
TEST(Law, EveryLawReportsItsDissipatedPower) {
  const std::vector<LawSpec> normals = {
      {"linear", {{"stiffness", 1e5}, {"damping", 50}}, {}, {}},
      {"hertz", {{"stiffness", 1e8}}, {}, {}},
      {"hunt_crossley", {{"stiffness", 1e8}, {"damping", 0.3}}, {}, {}},
      {"dis_choc", {{"stiffness", 1e5}, {"damping", 20}}, {}, {}}};
  for (const LawSpec& s : normals) {
    const auto law = make_normal_law(s);
    for (double rate : {-0.5, 0.0, 0.7}) {
      const double delta = 1e-4;
      const NormalResult r = law->evaluate(delta, rate, {0.01});
      const double elastic = law->evaluate(delta, 0.0, {0.01}).force;
      EXPECT_NEAR(r.power, (r.force - elastic) * rate, 1e-12 * std::max(1.0, std::abs(r.power)))
          << s.law;
      EXPECT_GE(r.power, 0.0) << s.law;
    }
  }
  const std::vector<LawSpec> frictions = {
      {"coulomb", {{"mu", 0.3}}, {}, {}},
      {"viscous", {{"damping", 2.0}}, {}, {}},
      {"regularized", {{"mu", 0.3}, {"regularization", 1e-3}}, {}, {}},
      {"stribeck",
       {{"mu_s", 0.5}, {"mu_k", 0.3}, {"stribeck_velocity", 0.01}, {"viscous", 1.0}},
       {},
       {}},
      {"elastic_stick", {{"mu", 0.3}, {"stiffness", 1e4}}, {}, {}}};
  for (const LawSpec& s : frictions) {
    const auto law = make_friction_law(s);
    for (const Vec2& v : {Vec2(0.2, -0.1), Vec2(1e-4, 0.0), Vec2(-3.0, 2.0)}) {
      const TangentialResult r = law->evaluate({v, 5.0, Vec2::Zero()}, FrictionMemory{});
      EXPECT_NEAR(r.power, -r.force.dot(v), 1e-12 * std::max(1.0, r.power)) << s.law;
      EXPECT_GE(r.power, 0.0) << s.law;
    }
  }
  const auto rolling = make_rolling_law({"", {{"k", 0.002}}, {}, {}});
  const auto pivoting = make_pivoting_law({"", {{"h", 0.003}}, {}, {}});
  for (double w : {-2.0, 1e-4, 5.0}) {
    const RollingResult r = rolling->evaluate(Vec2(w, 0.5 * w), 3.0);
    EXPECT_NEAR(r.power, -r.moment.dot(Vec2(w, 0.5 * w)), 1e-15);
    EXPECT_GE(r.power, 0.0);
    const PivotingResult p = pivoting->evaluate(w, 3.0);
    EXPECT_NEAR(p.power, -p.moment * w, 1e-15);
    EXPECT_GE(p.power, 0.0);
  }
}
