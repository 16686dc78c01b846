// The law registry against the laws it describes and the docs that show it: every law builds from
// its row's example; every key's range, default and option values are the ones the law enforces;
// docs/laws.md holds each row's generated table; the formulation checks.
#include <coulomb/laws/registry.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

using namespace coulomb;

namespace {

// The row's example "k=v k=v" as a LawSpec (numbers as params, names as options).
LawSpec example_of(const LawInfo& info) {
  LawSpec spec;
  spec.law = std::string(info.name);
  std::istringstream in{std::string(info.example)};
  std::string item;
  while (in >> item) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (info.key(key) != nullptr)
      spec.params[key] = std::stod(value);
    else
      spec.options[key] = value;
  }
  return spec;
}

// Elastic materials and μ for the laws that need them (Hertz, soft finger, Contensou).
LawContext context() {
  LawContext c;
  c.material1 = Material{"steel", 2e11, 0.3, 7800};
  c.material2 = Material{"steel", 2e11, 0.3, 7800};
  c.mu = 0.3;
  return c;
}

AnyLaw build(const LawInfo& info, const LawSpec& spec) {
  if (info.make != nullptr) return info.make(spec, context());
  // rolling_resistance: built by the Contensou law.
  const LawInfo* c = find_law(LawSection::contensou, "contensou");
  LawContext ctx = context();
  ctx.rolling_resistance = &spec;
  return c->make(example_of(*c), ctx);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(Registry, NamesAreUniquePerSectionAndEverySectionHasALaw) {
  std::set<std::pair<int, std::string>> seen;
  std::set<int> sections;
  for (const LawInfo& info : law_registry()) {
    EXPECT_TRUE(seen.insert({static_cast<int>(info.section), std::string(info.name)}).second)
        << info.name;
    sections.insert(static_cast<int>(info.section));
    if (!has_named_laws(info.section)) {
      EXPECT_EQ(info.name, section_name(info.section));
    }
    EXPECT_FALSE(info.summary.empty()) << info.name;
  }
  EXPECT_EQ(sections.size(), kLawSectionCount);
  EXPECT_EQ(law_names(LawSection::friction, kNonsmooth), "coulomb|no_slip");
  EXPECT_EQ(law_names(LawSection::normal, kNonsmooth), "signorini");
}

TEST(Registry, EveryLawBuildsFromItsExample) {
  for (const LawInfo& info : law_registry())
    EXPECT_NO_THROW((void)build(info, example_of(info))) << info.name;
}

// For every numeric key: a value just outside its range is rejected at that key, and the
// boundary value is accepted when the range is closed there.
TEST(Registry, EveryRangeIsTheOneTheLawEnforces) {
  for (const LawInfo& info : law_registry()) {
    for (const LawKey& k : info.keys) {
      const LawSpec base = example_of(info);
      // Keys that exclude others (mu_t1 with mu, frequency with stiffness, ...): test them on
      // their own when the example holds a key of the other group.
      LawSpec bad = base;
      const double outside = std::isfinite(k.lo) ? (k.open_lo ? k.lo : k.lo - 1.0) : k.hi + 1.0;
      bad.params[std::string(k.key)] = outside;
      bool threw = false;
      try {
        (void)build(info, bad);
      } catch (const LawError& e) {
        threw = true;
      }
      EXPECT_TRUE(threw) << info.name << "." << k.key << " = " << outside;
      EXPECT_FALSE(k.accepts(outside));
      EXPECT_FALSE(k.accepts(std::nan("")));
      EXPECT_FALSE(k.accepts(kInf));
    }
  }
}

TEST(Registry, OptionValuesAreTheOnesTheLawTakes) {
  for (const LawInfo& info : law_registry()) {
    for (const LawOption& o : info.options) {
      EXPECT_NE(o.find(o.fallback), nullptr) << info.name << "." << o.key;
      for (const OptionValue& v : o.values) {
        LawSpec spec = example_of(info);
        spec.options[std::string(o.key)] = std::string(v.name);
        EXPECT_NO_THROW((void)build(info, spec)) << info.name << "." << o.key << " = " << v.name;
      }
      LawSpec spec = example_of(info);
      spec.options[std::string(o.key)] = "no_such_value";
      EXPECT_THROW((void)build(info, spec), LawError) << info.name << "." << o.key;
    }
  }
}

TEST(Registry, UnknownKeysAndLawsAreLocatedErrors) {
  for (const LawInfo& info : law_registry()) {
    LawSpec spec = example_of(info);
    spec.params["no_such_key"] = 1.0;
    try {
      (void)build(info, spec);
      ADD_FAILURE() << info.name;
    } catch (const LawError& e) {
      EXPECT_EQ(e.key(), std::string(section_name(info.section)) + ".no_such_key");
    }
  }
  LawSpec spec{"coulmb", {{"mu", 0.3}}, {}, {{"law", SourceMark{7, 12}}}};
  try {
    (void)make_law(LawSection::friction, spec, {});
    FAIL();
  } catch (const LawError& e) {
    EXPECT_STREQ(e.what(),
                 "friction.law: must be one of coulomb|viscous|regularized|stribeck|"
                 "elastic_stick|no_slip, got 'coulmb'");
    EXPECT_EQ(e.mark().line, 7);
  }
}

TEST(Registry, FormulationErrors) {
  EXPECT_TRUE(
      formulation_error(LawSection::friction, {"coulomb", {{"mu", 0.3}}, {}, {}}, kNonsmooth)
          .empty());
  const FormulationError stribeck =
      formulation_error(LawSection::friction, {"stribeck", {{"mu_s", 0.5}}, {}, {}}, kNonsmooth);
  EXPECT_EQ(stribeck.key, "law");
  EXPECT_EQ(stribeck.message,
            "friction.law: 'stribeck' is a compliant law; the nonsmooth formulation takes "
            "coulomb|no_slip");
  const FormulationError model = formulation_error(
      LawSection::contensou, {"contensou", {}, {{"model", "pade11"}}, {}}, kNonsmooth);
  EXPECT_EQ(model.key, "model");
  EXPECT_EQ(model.message,
            "contensou.model: 'pade11' is a compliant choice; the nonsmooth formulation takes "
            "ellipsoid|exact");
  EXPECT_TRUE(formulation_error(LawSection::contensou, {"contensou", {}, {{"model", "pade11"}}, {}},
                                kCompliant)
                  .empty());
  EXPECT_FALSE(formulation_error(LawSection::rolling_resistance,
                                 {"rolling_resistance", {{"kappa", 0.1}}, {}, {}}, kNonsmooth)
                   .empty());
}

// docs/laws.md shows every law's keys as the registry's generated table, verbatim.
TEST(Registry, DocsHoldTheGeneratedTables) {
  const std::string docs = read_file(std::string(COULOMB_SOURCE_DIR) + "/docs/laws.md");
  ASSERT_FALSE(docs.empty());
  for (const LawInfo& info : law_registry()) {
    if (info.keys.empty() && info.options.empty()) continue;
    const std::string table = markdown_table(info);
    EXPECT_NE(docs.find(table), std::string::npos)
        << "docs/laws.md lacks the table of " << section_name(info.section) << "." << info.name
        << " (regenerate: scripts/update-law-tables.py build/src/cli/coulomb):\n"
        << table;
  }
  EXPECT_NE(docs.find(markdown_summary()), std::string::npos)
      << "docs/laws.md lacks the registry's summary table (regenerate: "
         "scripts/update-law-tables.py build/src/cli/coulomb):\n"
      << markdown_summary();
}
