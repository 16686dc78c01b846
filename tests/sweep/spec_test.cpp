// Parameters of a sweep (KEY=SPEC), their values, the variants and each variant's scene.
#include <gtest/gtest.h>

#include <cmath>
#include <coulomb/scene/scene.hpp>
#include <coulomb/sweep/sweep.hpp>
#include <numeric>
#include <stdexcept>

namespace coulomb::sweep {
namespace {

TEST(SweepSpec, RangeHasExactEndsAndEvenSteps) {
  const Parameter p = parse_parameter("contacts[0].friction.mu=0.1:0.7:7", 0, 0, 0);
  ASSERT_EQ(p.key, "contacts[0].friction.mu");
  ASSERT_EQ(p.values.size(), 7u);
  EXPECT_EQ(p.values.front().number, 0.1);
  EXPECT_EQ(p.values.back().number, 0.7);  // the last value is b itself, not a + 6 * step
  for (std::size_t i = 0; i < 7; ++i)
    EXPECT_EQ(p.values[i].number, i == 6 ? 0.7 : 0.1 + (0.7 - 0.1) * static_cast<double>(i) / 6.0);
}

TEST(SweepSpec, ListsHoldNumbersAndWords) {
  const Parameter p = parse_parameter("solver.name=[nsgs, prox ,auto]", 0, 0, 0);
  ASSERT_EQ(p.values.size(), 3u);
  EXPECT_EQ(p.values[1].text(), "prox");
  const Parameter q = parse_parameter("time.end=[0.5,1e-1,2]", 0, 0, 0);
  EXPECT_EQ(q.values[1].number, 0.1);
  EXPECT_EQ(q.values[1].text(), "0.1");  // shortest round-trip form
}

TEST(SweepSpec, BadSpecsAreOneLineErrorsNamingTheOption) {
  for (const char* bad : {"mu", "=1", "mu=0:1:1", "mu=0:1:2.5", "mu=uniform(0)", "mu=beta(1,2)",
                          "mu=[1,,2]", "mu=nan:1:3", "mu=uniform(2,1)", "mu=loguniform(0,1)"}) {
    try {
      (void)parse_parameter(bad, 0, 10, 1);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
  EXPECT_THROW((void)parse_parameter("mu=uniform(0,1)", 0, 0, 1), std::invalid_argument)
      << "a distribution without --samples";
}

// Mean and variance of the samples against the distribution's, within 5 standard errors (a
// false alarm has a probability below 1e-6; the draws are fixed by the seed, so the test is
// deterministic and only a wrong transform makes it fail).
void expect_moments(const std::vector<double>& x, double mean, double variance) {
  const double n = static_cast<double>(x.size());
  const double m = std::accumulate(x.begin(), x.end(), 0.0) / n;
  double v = 0;
  for (double xi : x) v += (xi - m) * (xi - m);
  v /= n - 1;
  EXPECT_NEAR(m, mean, 5.0 * std::sqrt(variance / n));
  // The sample variance's standard error, for these three distributions, is below 2 σ²/sqrt(n).
  EXPECT_NEAR(v, variance, 5.0 * 2.0 * variance / std::sqrt(n));
}

std::vector<double> numbers(const Parameter& p) {
  std::vector<double> x;
  for (const Value& v : p.values) x.push_back(v.number);
  return x;
}

TEST(SweepSpec, DistributionsHaveTheirMomentsAndAreReproducible) {
  const int n = 20000;
  const auto u = numbers(parse_parameter("a=uniform(2,5)", 0, n, 7));
  for (double x : u) EXPECT_TRUE(x >= 2 && x < 5);
  expect_moments(u, 3.5, 9.0 / 12.0);
  const auto g = numbers(parse_parameter("a=normal(1.5,0.2)", 1, n, 7));
  expect_moments(g, 1.5, 0.04);
  // log x of loguniform(a,b) is uniform on [ln a, ln b].
  auto l = numbers(parse_parameter("a=loguniform(0.01,10)", 2, n, 7));
  for (double& x : l) {
    EXPECT_TRUE(x >= 0.01 && x < 10);
    x = std::log(x);
  }
  const double w = std::log(10.0) - std::log(0.01);
  expect_moments(l, 0.5 * (std::log(10.0) + std::log(0.01)), w * w / 12.0);
  // The same seed and parameter number give the same bits; another parameter number or seed
  // another stream.
  EXPECT_EQ(u, numbers(parse_parameter("b=uniform(2,5)", 0, n, 7)));
  EXPECT_NE(u, numbers(parse_parameter("b=uniform(2,5)", 1, n, 7)));
  EXPECT_NE(u, numbers(parse_parameter("b=uniform(2,5)", 0, n, 8)));
}

SweepSpec spec_of(std::vector<std::string> sets, Combine combine = Combine::grid) {
  SweepSpec s;
  s.scene_text = std::string(builtin_scene_text("tippe-top"));
  s.scene_file = "builtin:tippe-top";
  s.combine = combine;
  for (std::size_t p = 0; p < sets.size(); ++p)
    s.parameters.push_back(parse_parameter(sets[p], p, 0, 0));
  return s;
}

TEST(SweepSpec, GridVariesTheLastParameterFastestAndZipPairs) {
  const SweepSpec grid = spec_of({"a=[1,2]", "b=[3,4,5]"});
  const auto v = variants(grid);
  ASSERT_EQ(v.size(), 6u);
  EXPECT_EQ(v[1].index, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(v[3].index, (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(v[5].id, 5);
  const auto z = variants(spec_of({"a=[1,2,3]", "b=[3,4,5]"}, Combine::zip));
  ASSERT_EQ(z.size(), 3u);
  EXPECT_EQ(z[2].index, (std::vector<std::size_t>{2, 2}));
  EXPECT_THROW((void)variants(spec_of({"a=[1,2]", "b=[3,4,5]"}, Combine::zip)),
               std::invalid_argument);
}

TEST(SweepSpec, VariantSceneWritesTheValuesAtTheirKeys) {
  const SweepSpec s =
      spec_of({"contacts[0].friction.mu=[0.125]", "bodies[top].angular_velocity[2]=[150]",
               "bodies[1].mass=[0.007]", "time.end=[0.5]", "solver.max_iterations=[77]"});
  const auto v = variants(s);
  const Scene scene = load_scene_text(variant_scene(s, v[0]), variant_file(s, v[0]));
  EXPECT_EQ(scene.model.end_time, 0.5);
  EXPECT_EQ(scene.model.solver.max_iterations, 77);
  EXPECT_EQ(scene.model.bodies[1].mass, 0.007);
  EXPECT_EQ(scene.state.w_W[1].z(), 150.0);
  EXPECT_EQ(scene.state.w_W[1].y(), -17.970014996429068);  // untouched
  // The original scene, loaded as is, for comparison.
  const Scene base = load_builtin_scene("tippe-top");
  EXPECT_EQ(scene.model.bodies[1].inertia_B, base.model.bodies[1].inertia_B);
  EXPECT_EQ(scene.model.contacts[0].friction.get("mu", -1.0), 0.125);
  EXPECT_EQ(base.model.contacts[0].friction.get("mu", -1.0), 0.3);
}

TEST(SweepSpec, KeysThatLeadNowhereNameTheVariantAndKey) {
  for (const char* key : {"bodies[lid].mass=[1]", "bodies[5].mass=[1]", "gravity[0].x=[1]",
                          "name.first=[1]", "bodies[top]=[1]"}) {
    const SweepSpec s = spec_of({key});
    try {
      (void)variant_scene(s, variants(s)[0]);
      ADD_FAILURE() << key << " was accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("variant 0: key ", 0), 0u) << what;
    }
  }
}

TEST(SweepSpec, ValidateNamesTheVariantTheKeyAndTheLine) {
  SweepSpec s = spec_of({"contacts[0].friction.mu=[0.3,-0.1]", "time.end=[1]"});
  try {
    validate(s);
    ADD_FAILURE() << "a negative mu was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("sweep: variant 1 (contacts[0].friction.mu=-0.1, time.end=1): "
                         "builtin:tippe-top[variant 1]:",
                         0),
              0u)
        << what;
    EXPECT_NE(what.find("contacts[0].friction.mu"), std::string::npos) << what;
  }
  // A typo in a map key is the loader's unknown-key error at its place.
  s = spec_of({"time.ende=[1]"});
  EXPECT_THROW(validate(s), std::invalid_argument);
  s = spec_of({"time.end=[0.01]"});
  s.metrics.push_back(parse_metric("h=final(lid.z)"));
  EXPECT_THROW(validate(s), std::invalid_argument);
}

}  // namespace
}  // namespace coulomb::sweep
