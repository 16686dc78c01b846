// `coulomb law` tabulation: CSV format, ranges, errors, and the Contensou reference table.
#include <coulomb/laws/law_table.hpp>

#include <gtest/gtest.h>

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
  const double fu[] = {0, 0.248031309761, 0.483843755630, 0.848826363157, 0.967687511260, 0.992125239044};
  const double mu[] = {0.666666666667, 0.635786123608, 0.547748354772, 0.282942121052, 0.127809198284, 0.0628313968234};
  const double fh[] = {0, 0.289922368910, 0.552233083639, 0.883572933822, 0.974278579257, 0.993707402084};
  const double mh[] = {0.589048622548, 0.553095947832, 0.455592294002, 0.220893233456, 0.101909332919, 0.0502267870948};
  std::string header;
  const auto h = rows(tabulate_law({"contensou", "--model", "exact", "--pressure", "hertz", "--eps", "0,0.25,0.5,1,2,4"}), &header);
  EXPECT_EQ(header, "eps,F,m");
  const auto u = rows(tabulate_law({"contensou", "--model", "exact", "--pressure", "uniform", "--eps", "0,0.25,0.5,1,2,4"}), &header);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(h[i][0], eps[i]);
    EXPECT_NEAR(h[i][1], fh[i], 1e-9);
    EXPECT_NEAR(h[i][2], mh[i], 1e-9);
    EXPECT_NEAR(u[i][1], fu[i], 1e-9);
    EXPECT_NEAR(u[i][2], mu[i], 1e-9);
  }
  // ε = 10 is printed to 10 digits there: tolerance 1e-9 still holds (5e-11 rounding).
  const auto t = rows(tabulate_law({"contensou", "--model", "quadrature", "--pressure", "hertz", "--eps", "10"}), &header);
  EXPECT_NEAR(t[0][1], 0.9989989256, 1e-9);
  EXPECT_NEAR(t[0][2], 0.02001432156, 1e-9);
  for (const char* m : {"pade11", "pade22", "generalized"}) {
    EXPECT_EQ(rows(tabulate_law({"contensou", "--model", m, "--eps", "0:10:0.01"}), &header).size(), 1001u);
  }
}

TEST(LawTable, NormalAndMomentLaws) {
  std::string header;
  const auto hz = rows(tabulate_law({"hertz", "--stiffness", "1e9", "--delta", "0,1e-4"}), &header);
  EXPECT_EQ(header, "delta,N");
  EXPECT_NEAR(hz[1][1], 1e9 * 1e-6, 1e-6);
  const auto mat = rows(tabulate_law({"hertz", "--young-modulus", "1e9", "--poisson-ratio", "0",
                                      "--radius", "0.01", "--delta", "1e-4"}), &header);
  EXPECT_NEAR(mat[0][1], 4.0 / 3.0 * 0.5e9 * 0.1 * 1e-6, 1e-4);
  const auto lin = rows(tabulate_law({"linear", "--stiffness", "100", "--damping", "10", "--delta", "0.1", "--rate", "-2,1"}), &header);
  EXPECT_EQ(header, "delta,rate,N");
  EXPECT_EQ(lin[0][2], 0.0);  // 10 − 20 < 0: no pull
  EXPECT_EQ(lin[1][2], 20.0);
  const auto piv = rows(tabulate_law({"pivoting", "--h", "0.01", "--normal", "2", "--omega", "5"}), &header);
  EXPECT_NEAR(piv[0][1], -0.02, 1e-16);
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
            "friction.mu_s: must be ≥ 0, got -1");
  EXPECT_NE(msg({"nolaw"}).find("unknown law 'nolaw'"), std::string::npos);
  EXPECT_NE(msg({"contensou", "--model", "pade33", "--eps", "1"}).find("--model must be"), std::string::npos);
  EXPECT_NE(msg({"contensou", "--eps", "1", "--bogus", "2"}).find("unknown option --bogus"), std::string::npos);
  EXPECT_NE(msg({"stribeck", "--mu-s"}).find("needs a value"), std::string::npos);
  EXPECT_NE(msg({"viscous", "--damping", "1"}).find("needs --v"), std::string::npos);
  for (const auto& m : {msg({"nolaw"}), msg({"contensou", "--eps", "x"})}) {
    EXPECT_EQ(m.find('\n'), std::string::npos);
  }
}
