// `coulomb law` tabulation: CSV format, ranges, errors, and the Contensou reference table.
#include <coulomb/io/law_table.hpp>

#include <coulomb/laws/registry.hpp>

#include <gtest/gtest.h>

#include "fuzz/regressions.hpp"

#include <cmath>
#include <sstream>

using namespace coulomb;

namespace {
std::vector<std::vector<double>> rows(const std::string& csv, std::string* header) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, *header);
  std::vector<std::vector<double>> out;
  while (std::getline(in, line)) {
    std::vector<double> r;
    std::istringstream ls(line);
    std::string cell;
    while (std::getline(ls, cell, ',')) r.push_back(std::stod(cell));
    out.push_back(r);
  }
  return out;
}
}  // namespace

TEST(LawTable, RangesIncludeStopWithinRoundOff) {
  EXPECT_EQ(parse_samples("0:0.1:0.001").size(), 101u);
  EXPECT_EQ(parse_samples("0:10:0.01").size(), 1001u);
  EXPECT_EQ(parse_samples("1,2.5,4").size(), 3u);
  EXPECT_THROW((void)parse_samples("0:1:0"), std::invalid_argument);
  EXPECT_THROW((void)parse_samples("0:1"), std::invalid_argument);
  EXPECT_THROW((void)parse_samples("a,b"), std::invalid_argument);
}

TEST(LawTable, StribeckCurve) {
  std::string header;
  const auto r = rows(tabulate_law({"stribeck", "--mu-s", "0.5", "--mu-k", "0.3", "--vs", "0.01",
                                    "--v", "0:0.1:0.001"}),
                      &header);
  EXPECT_EQ(header, "v,mu");
  ASSERT_EQ(r.size(), 101u);
  EXPECT_EQ(r[0][1], 0.5);
  EXPECT_NEAR(r[10][1], 0.3 + 0.2 * std::exp(-1.0), 1e-15);  // v = v_s
  EXPECT_NEAR(r[100][0], 0.1, 1e-15);
}

TEST(LawTable, ContensouMatchesTheReferenceTable) {
  // reference contensou.md §1, test table (a = 1), 12 digits printed: tolerance 1e-9.
  const double eps[] = {0, 0.25, 0.5, 1, 2, 4};
  const double fu[] = {
      0, 0.248031309761, 0.483843755630, 0.848826363157, 0.967687511260, 0.992125239044};
  const double mu[] = {0.666666666667, 0.635786123608, 0.547748354772,
                       0.282942121052, 0.127809198284, 0.0628313968234};
  const double fh[] = {
      0, 0.289922368910, 0.552233083639, 0.883572933822, 0.974278579257, 0.993707402084};
  const double mh[] = {0.589048622548, 0.553095947832, 0.455592294002,
                       0.220893233456, 0.101909332919, 0.0502267870948};
  std::string header;
  const auto h = rows(tabulate_law({"contensou", "--model", "exact", "--pressure", "hertz", "--eps",
                                    "0,0.25,0.5,1,2,4"}),
                      &header);
  EXPECT_EQ(header, "eps,F,m");
  const auto u = rows(tabulate_law({"contensou", "--model", "exact", "--pressure", "uniform",
                                    "--eps", "0,0.25,0.5,1,2,4"}),
                      &header);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(h[i][0], eps[i]);
    EXPECT_NEAR(h[i][1], fh[i], 1e-9);
    EXPECT_NEAR(h[i][2], mh[i], 1e-9);
    EXPECT_NEAR(u[i][1], fu[i], 1e-9);
    EXPECT_NEAR(u[i][2], mu[i], 1e-9);
  }
  // ε = 10 is printed to 10 digits there: tolerance 1e-9 still holds (5e-11 rounding).
  const auto t = rows(
      tabulate_law({"contensou", "--model", "quadrature", "--pressure", "hertz", "--eps", "10"}),
      &header);
  EXPECT_NEAR(t[0][1], 0.9989989256, 1e-9);
  EXPECT_NEAR(t[0][2], 0.02001432156, 1e-9);
  for (const char* m : {"ellipsoid", "pade11", "pade22", "generalized", "quadrature"}) {
    for (const char* p : {"hertz", "uniform"}) {
      const auto r =
          rows(tabulate_law({"contensou", "--model", m, "--pressure", p, "--eps", "0:10:0.01"}),
               &header);
      ASSERT_EQ(r.size(), 1001u);
      // m(0) = 3π/16 (Hertz), 2/3 (uniform) for every model with its default constants.
      EXPECT_NEAR(r[0][2], std::string(p) == "hertz" ? 3 * M_PI / 16 : 2.0 / 3.0, 1e-15) << m << p;
    }
  }
  // A named constant: Padé (1,1) F = ε/(ε + b), b = 3 → F(3) = 1/2.
  const auto b3 =
      rows(tabulate_law({"contensou", "--model", "pade11", "--b", "3", "--eps", "3"}), &header);
  EXPECT_NEAR(b3[0][1], 0.5, 1e-16);
}

TEST(LawTable, NormalAndMomentLaws) {
  std::string header;
  const auto hz = rows(tabulate_law({"hertz", "--stiffness", "1e9", "--delta", "0,1e-4"}), &header);
  EXPECT_EQ(header, "delta,N");
  EXPECT_NEAR(hz[1][1], 1e9 * 1e-6, 1e-6);
  const auto mat = rows(tabulate_law({"hertz", "--young-modulus", "1e9", "--poisson-ratio", "0",
                                      "--radius", "0.01", "--delta", "1e-4"}),
                        &header);
  EXPECT_NEAR(mat[0][1], 4.0 / 3.0 * 0.5e9 * 0.1 * 1e-6, 1e-4);
  const auto lin = rows(tabulate_law({"linear", "--stiffness", "100", "--damping", "10", "--delta",
                                      "0.1", "--rate", "-2,1"}),
                        &header);
  EXPECT_EQ(header, "delta,rate,N");
  EXPECT_EQ(lin[0][2], 0.0);  // 10 − 20 < 0: no pull
  EXPECT_EQ(lin[1][2], 20.0);
  const auto piv =
      rows(tabulate_law({"pivoting", "--h", "0.01", "--normal", "2", "--omega", "5"}), &header);
  EXPECT_NEAR(piv[0][1], -0.02, 1e-16);
}

// The vector form: μN(F(ε) v̂, a m(ε)) with ε = v/(a ω), and the dissipated power
// μN(F v + a m ω) (closed form of the exact law at ε = 0.5: reference table, Hertz).
TEST(LawTable, ContensouVectorForm) {
  std::string header;
  const auto r = rows(tabulate_law({"contensou", "--model", "exact", "--radius", "0.01", "--mu",
                                    "0.5", "--normal", "4", "--omega", "20", "--v", "0.1"}),
                      &header);
  EXPECT_EQ(header, "v,Ft1,Ft2,Mn,Mt1,Mt2,power");
  const double F = 3 * M_PI / 32 * 0.5 * (4 - 0.25), m = 3 * M_PI / 128 * (8 - 2 + 3 * 0.0625);
  EXPECT_NEAR(r[0][1], -2.0 * F, 1e-14);
  EXPECT_NEAR(r[0][3], -2.0 * 0.01 * m, 1e-16);
  EXPECT_NEAR(r[0][6], 2.0 * (F * 0.1 + 0.01 * m * 20), 1e-14);
  // Rolling resistance: M_t = −κ a (1/5) N along −ω̂_t (Hertz).
  const auto k = rows(tabulate_law({"contensou", "--radius", "0.01", "--kappa", "0.5", "--rolling",
                                    "3", "--omega", "0", "--v", "0"}),
                      &header);
  EXPECT_NEAR(k[0][4], -0.5 * 0.01 * 0.2, 1e-17);
}

// The brake pad (seed textbook example 10.3.16) through `coulomb law patch`: uniform p on
// R1 ≤ r ≤ R2, |φ| ≤ θ, spin ω_n, no slip at O. In the contact frame (t1, t2, n) about O:
// R = (0, −2μ p sin θ (R2² − R1²)/2 · sign ω_n, p θ (R2² − R1²)),
// M = (0, −2 p sin θ (R2³ − R1³)/3, −2μ p θ (R2³ − R1³)/3 · sign ω_n) (docs/contensou.md derives
// it in these conventions; patch_test.cpp checks the same in the textbook's frame). 1e-10: the
// quadrature is spectral here (instantaneous centre at O), 17 digits are printed.
TEST(LawTable, PatchBrakePad) {
  std::string header;
  const double R1 = 0.1, R2 = 0.15, th = 0.4, mu = 0.35, p = 2e5;
  const auto r =
      rows(tabulate_law({"patch", "--r-inner", "0.1", "--r-outer", "0.15", "--theta", "0.4", "--mu",
                         "0.35", "--pressure", "2e5", "--omega", "-80,30"}),
           &header);
  EXPECT_EQ(header, "omega,Ft1,Ft2,N,M1,M2,Mn,power");
  const double a2 = R2 * R2 - R1 * R1, a3 = R2 * R2 * R2 - R1 * R1 * R1;
  for (const auto& row : r) {
    const double sg = row[0] > 0 ? 1.0 : -1.0;
    const double scale = p * a2;
    EXPECT_NEAR(row[1], 0.0, 1e-10 * scale);
    EXPECT_NEAR(row[2], -sg * mu * p * std::sin(th) * a2, 1e-10 * scale);
    EXPECT_NEAR(row[3], p * th * a2, 1e-10 * scale);
    EXPECT_NEAR(row[4], 0.0, 1e-10 * p * a3);
    EXPECT_NEAR(row[5], -2 * p * std::sin(th) * a3 / 3, 1e-10 * p * a3);
    EXPECT_NEAR(row[6], -sg * 2 * mu * p * th * a3 / 3, 1e-10 * p * a3);
    EXPECT_NEAR(row[7], mu * p * std::abs(row[0]) * th * 2 * a3 / 3, 1e-10 * mu * p * 80 * a3);
  }
}

// `coulomb law --help` names every law of the registry, and the line of each tabulated normal or
// friction law names every key of its registry row as an option (so the help cannot fall behind a
// law's keys: the registry is the source of truth).
TEST(LawTable, HelpListsEveryLawAndItsKeys) {
  const std::string help = law_table_help();
  for (const LawInfo& law : law_registry()) {
    EXPECT_NE(help.find(std::string(law.name)), std::string::npos) << law.name;
    const bool tabulated = (law.section == LawSection::normal && law.name != "signorini") ||
                           (law.section == LawSection::friction && law.name != "elastic_stick" &&
                            law.name != "no_slip");
    if (!tabulated) continue;
    const std::size_t at = help.find("\n  " + std::string(law.name) + " ");
    ASSERT_NE(at, std::string::npos) << law.name;
    // The law's entry: its line and the continuation lines (indented deeper) below it.
    std::size_t end = help.find('\n', at + 1);
    while (end != std::string::npos && help.compare(end + 1, 4, "    ") == 0)
      end = help.find('\n', end + 1);
    const std::string line = help.substr(at + 1, end - at - 1);
    auto option = [](std::string_view key) {
      std::string o = "--" + std::string(key);
      for (char& c : o)
        if (c == '_') c = '-';
      return o;
    };
    for (const LawKey& key : law.keys) {
      if (key.formulations == kNonsmooth) continue;  // not a force-law key
      EXPECT_NE(line.find(option(key.key)), std::string::npos) << law.name << ": " << key.key;
    }
    for (const LawOption& opt : law.options)
      EXPECT_NE(line.find(option(opt.key)), std::string::npos) << law.name << ": " << opt.key;
  }
  for (const char* name :
       {"ellipsoid", "pade11", "pade22", "generalized", "quadrature", "patch", "--kappa"}) {
    EXPECT_NE(help.find(name), std::string::npos) << name;
  }
  std::string header;
  const auto sf = rows(tabulate_law({"soft_finger", "--radius", "0.01", "--mu", "0.5", "--normal",
                                     "2", "--omega", "5"}),
                       &header);
  EXPECT_NEAR(sf[0][1], -0.01 * 0.5 * 2, 1e-16);
}

TEST(LawTable, BadArgumentsGiveOneLineErrors) {
  auto msg = [](const std::vector<std::string>& a) {
    try {
      (void)tabulate_law(a);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(msg({"stribeck", "--mu-s", "-1", "--mu-k", "0.3", "--vs", "0.01", "--v", "0"}),
            "friction.mu_s: must be in [0, 10000], got -1");
  EXPECT_NE(msg({"nolaw"}).find("unknown law 'nolaw'"), std::string::npos);
  EXPECT_EQ(msg({"contensou", "--model", "pade33", "--eps", "1"}),
            "contensou.model: must be one of ellipsoid|exact|pade11|pade22|generalized|quadrature, "
            "got 'pade33'");
  EXPECT_EQ(msg({"contensou", "--eps", "1", "--bogus", "2"}),
            "contensou.bogus: not a parameter of law 'contensou' (its keys: radius, "
            "regularization, b, c, m0, c1, c3, d, e, n, k, n_angle, n_chord, model, pressure)");
  EXPECT_EQ(msg({"contensou", "--model", "pade11", "--c1", "2", "--eps", "1"}),
            "contensou.c1: not a parameter of model 'pade11' (its constants: b, m0, c)");
  EXPECT_NE(msg({"contensou", "--v", "1"}).find("needs --radius"), std::string::npos);
  EXPECT_NE(msg({"patch", "--r-inner", "0.2", "--r-outer", "0.1", "--mu", "0.3", "--pressure", "1",
                 "--omega", "1"})
                .find("r_outer must be > r_inner"),
            std::string::npos);
  EXPECT_NE(msg({"stribeck", "--mu-s"}).find("needs a value"), std::string::npos);
  EXPECT_NE(msg({"viscous", "--damping", "1"}).find("needs --v"), std::string::npos);
  // Set-valued laws have no force to tabulate: said, not a column of zeros.
  EXPECT_EQ(msg({"no_slip", "--v", "0:1:0.5"}),
            "'no_slip' is set-valued (its impulse is what the contact problem finds): nothing to "
            "tabulate (docs/laws.md)");
  EXPECT_NE(msg({"signorini"}).find("'signorini' is set-valued"), std::string::npos);
  for (const auto& m : {msg({"nolaw"}), msg({"contensou", "--eps", "x"})}) {
    EXPECT_EQ(m.find('\n'), std::string::npos);
  }
}

// The inputs the law fuzzer found (tests/data/fuzz/law: the arguments separated by NUL bytes):
// tabulate_law gives each its expected one-line message.
TEST(LawTable, FuzzRegressionsGiveTheirExpectedMessage) {
  for (const auto& r : ::coulomb::testing::fuzz_regressions("law")) {
    SCOPED_TRACE(r.path);
    std::vector<std::string> args;
    for (std::size_t b = 0; b <= r.bytes.size();) {
      const std::size_t e = std::min(r.bytes.find('\0', b), r.bytes.size());
      args.push_back(r.bytes.substr(b, e - b));
      b = e + 1;
    }
    try {
      (void)tabulate_law(args);
      ADD_FAILURE() << "no error";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), r.expect);
    }
  }
}

// Messages quote the arguments; one holding a line break (found by tests/fuzz/law_fuzz.cpp) is
// quoted escaped, so the message stays one line, for plain errors and LawErrors alike.
TEST(LawTable, ArgumentsWithLineBreaksGiveOneLineErrors) {
  auto msg = [](const std::vector<std::string>& a) {
    try {
      (void)tabulate_law(a);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(msg({"hertz", "--stiffness", "1e9", "--delta", "0\n:1:0.5"}),
            "range start: expected a number, got '0\\n'");
  EXPECT_EQ(msg({"nolaw\r\n"}).rfind("unknown law 'nolaw\\r\\n'", 0), 0u);
  EXPECT_EQ(msg({"contensou", "--model", "pade\n33", "--eps", "1"}),
            "contensou.model: must be one of ellipsoid|exact|pade11|pade22|generalized|quadrature, "
            "got 'pade\\n33'");
  try {
    (void)parse_samples("1,\x01\n2");
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "sample: expected a number, got '\\x01\\n2'");
  }
}
