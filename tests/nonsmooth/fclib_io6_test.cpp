// Tests of the HDF5 input/output of ContactProblem6 (src/nonsmooth/fclib_io6.cpp): exact round
// trip of a problem with every law kind and its solution, reading a 3-D FCLIB file as its
// embedding, errors for missing files and groups.
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/fclib_io6.hpp>
#include <coulomb/nonsmooth/solver6.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "nonsmooth/fclib_data.hpp"

namespace coulomb {
namespace {

std::string temp_path(const char* name) { return std::string(COULOMB_BINARY_DIR) + "/" + name; }

ContactProblem6 sample() {
  ContactProblem6 p;
  p.contact_count = 3;
  p.row_start = {0, 2, 3, 5};
  p.col = {0, 2, 1, 0, 2};
  p.diag = {0, 2, 4};
  Block6 d = Block6::Identity();
  d(0, 3) = d(3, 0) = 0.25;
  Block6 off = Block6::Zero();
  off(1, 4) = -0.125;
  off(5, 0) = 1.0 / 3.0;  // not exactly representable in decimal: an exact round trip is binary
  p.blocks = {2.0 * d, off, 3.0 * d, Block6(off.transpose()), 4.0 * d};
  for (int i = 0; i < 3; ++i) {
    Vec6 q;
    q << -1.0 - i, 0.1 * i, 0.2, -0.3, 0.7 / 3.0, 1e-9;
    p.q.push_back(q);
  }
  p.laws.resize(3);
  p.laws[0].mu = 0.3;
  p.laws[0].h = 0.01;
  p.laws[0].k = 0.002;
  p.laws[1].mu = 0.5;
  p.laws[1].coupling = ContactLaw6::Coupling::ellipsoid;
  p.laws[1].abar = 0.004;
  p.laws[2].mu = 0.4;
  p.laws[2].coupling = ContactLaw6::Coupling::exact;
  p.laws[2].a = 0.01;
  p.laws[2].pressure = contensou::Pressure::uniform;
  p.laws[2].k = 0.001;
  p.validate();
  return p;
}

TEST(FclibIo6, RoundTripIsExact) {
  const ContactProblem6 p = sample();
  std::vector<Vec6> r, u;
  SolverWorkspace6 ws;
  SolverOptions o;
  o.tolerance = 1e-12;
  ASSERT_EQ(solve6(p, r, u, o, ws).status, SolverStatus::converged);
  const std::string path = temp_path("fclib_io6_roundtrip.hdf5");
  write_problem6(path, p, ContactSolution6{r, u});
  const ContactProblem6 back = read_problem6(path);
  EXPECT_EQ(back.contact_count, 3);
  EXPECT_EQ(back.row_start, p.row_start);
  EXPECT_EQ(back.col, p.col);
  EXPECT_EQ(back.diag, p.diag);
  for (std::size_t k = 0; k < p.blocks.size(); ++k) EXPECT_EQ(back.blocks[k], p.blocks[k]);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(back.q[i], p.q[i]);
    EXPECT_EQ(back.laws[i].mu, p.laws[i].mu);
    EXPECT_EQ(back.laws[i].h, p.laws[i].h);
    EXPECT_EQ(back.laws[i].k, p.laws[i].k);
    EXPECT_EQ(back.laws[i].abar, p.laws[i].abar);
    EXPECT_EQ(back.laws[i].a, p.laws[i].a);
    EXPECT_EQ(back.laws[i].coupling, p.laws[i].coupling);
    EXPECT_EQ(back.laws[i].pressure, p.laws[i].pressure);
  }
  const auto sol = read_solution6(path);
  ASSERT_TRUE(sol.has_value());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(sol->r[i], r[i]);
    EXPECT_EQ(sol->u[i], u[i]);
  }
  // The stored solution solves the stored problem (error recomputed from r).
  std::vector<Vec6> u2;
  back.velocity(sol->r, u2);
  EXPECT_LE(contact_error6(back, sol->r, u2), 1e-12);
  // Without a solution: none read back.
  write_problem6(path, p);
  EXPECT_FALSE(read_solution6(path).has_value());
  std::filesystem::remove(path);
}

TEST(FclibIo6, ThreeDimensionalFclibFileIsEmbedded) {
  const std::string path = testing::fclib_dir() + "/Rover4144.hdf5";
  const ContactProblem p3 = read_fclib_local(path);
  const ContactProblem6 p6 = read_problem6(path);
  EXPECT_EQ(p6.dense_w(), embed_problem(p3).dense_w());
  for (int i = 0; i < p3.contact_count; ++i) {
    EXPECT_EQ(p6.q[i].head<3>(), p3.q[i]);
    EXPECT_EQ(p6.laws[i].mu, p3.mu[i]);
    EXPECT_EQ(p6.laws[i].h, 0.0);
  }
  const auto s3 = read_fclib_solution(path);
  const auto s6 = read_solution6(path);
  ASSERT_EQ(s3.has_value(), s6.has_value());
  if (s3) {
    for (int i = 0; i < p3.contact_count; ++i) {
      EXPECT_EQ(s6->r[i].head<3>(), s3->r[i]);
      EXPECT_EQ(s6->r[i].tail<3>(), Eigen::Vector3d::Zero());
    }
  }
}

TEST(FclibIo6, BadFilesAreReported) {
  EXPECT_THROW((void)read_problem6(temp_path("does_not_exist.hdf5")), std::runtime_error);
  const std::string text = temp_path("fclib_io6_not_hdf5.txt");
  std::FILE* f = std::fopen(text.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("not hdf5\n", f);
  std::fclose(f);
  EXPECT_THROW((void)read_problem6(text), std::runtime_error);
  std::filesystem::remove(text);
  ContactProblem6 bad = sample();
  bad.laws[1].mu = -1.0;
  EXPECT_THROW(write_problem6(temp_path("fclib_io6_bad.hdf5"), bad), std::invalid_argument);
}

}  // namespace
}  // namespace coulomb
