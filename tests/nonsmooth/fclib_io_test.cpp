// Tests of the HDF5 input/output of ContactProblem<N> (src/nonsmooth/fclib_io.cpp). Force problems
// (FCLIB): round trip, errors, and for every file of tests/data/fclib the error of its stored
// reference solution against the README table (this validates both the reader and the error
// formula of contact_error). Wrench problems (/fclib_local6): exact round trip of a problem with
// every law kind and its solution, reading a 3-D FCLIB file as its embedding, errors for missing
// files and groups.
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "nonsmooth/fclib_data.hpp"

namespace coulomb {
namespace {

ForceProblem small_problem() {
  ForceProblem p;
  p.contact_count = 2;
  p.laws = {0.3, 0.5};
  p.q = {Vec3(-1.0, 0.2, 0.1), Vec3(0.5, -0.3, 1e-300)};
  p.row_start = {0, 2, 4};
  p.col = {0, 1, 0, 1};
  p.diag = {0, 3};
  Block3 a;
  a << 2.0, 0.1, 0.2, 0.1, 3.0, 0.3, 0.2, 0.3, 4.0;
  Block3 b;
  b << 0.5, -0.1, 0.2, 0.3, 0.4, -0.2, 0.0, 0.1, 1.0 / 3.0;
  Block3 c;
  c << 5.0, 0.0, 0.1, 0.0, 6.0, 0.2, 0.1, 0.2, 7.0;
  p.blocks = {a, b, Block3(b.transpose()), c};
  return p;
}

std::string temp_path(const std::string& name) {
  return std::string(COULOMB_BINARY_DIR) + "/" + name;
}

TEST(FclibIo, RoundTripIsExact) {
  const ForceProblem p = small_problem();
  ContactSolution<kForce> s;
  s.r = {Vec3(1.0, 2.0, 3.0), Vec3(-0.1, 0.7, 1.0 / 7.0)};
  p.velocity(s.r, s.u);
  const std::string path = temp_path("nonsmooth_roundtrip.hdf5");
  write_problem(path, p, s);
  // Written twice: the file is replaced, not appended to.
  write_problem(path, p, s);
  const ForceProblem back = read_problem<kForce>(path);
  ASSERT_EQ(back.contact_count, 2);
  EXPECT_EQ(back.row_start, p.row_start);
  EXPECT_EQ(back.col, p.col);
  EXPECT_EQ(back.diag, p.diag);
  EXPECT_EQ(back.laws, p.laws);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(back.q[i], p.q[i]);
  for (std::size_t k = 0; k < p.blocks.size(); ++k) EXPECT_EQ(back.blocks[k], p.blocks[k]);
  const auto sol = read_solution<kForce>(path);
  ASSERT_TRUE(sol.has_value());
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(sol->r[i], s.r[i]);
    EXPECT_EQ(sol->u[i], s.u[i]);
  }
  std::filesystem::remove(path);
}

TEST(FclibIo, WithoutSolution) {
  const std::string path = temp_path("nonsmooth_nosolution.hdf5");
  write_problem(path, small_problem());
  EXPECT_EQ(read_problem<kForce>(path).contact_count, 2);
  EXPECT_FALSE(read_solution<kForce>(path).has_value());
  std::filesystem::remove(path);
}

TEST(FclibIo, MissingFileThrows) {
  EXPECT_THROW((void)read_problem<kForce>(temp_path("does_not_exist.hdf5")), std::runtime_error);
}

WrenchProblem wrench_sample() {
  WrenchProblem p;
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

TEST(FclibIo, WrenchRoundTripIsExact) {
  const WrenchProblem p = wrench_sample();
  std::vector<Vec6> r, u;
  SolverWorkspace<kWrench> ws;
  SolverOptions o;
  o.tolerance = 1e-12;
  ASSERT_EQ(solve(p, r, u, o, ws).status, SolverStatus::converged);
  const std::string path = temp_path("fclib_io6_roundtrip.hdf5");
  write_problem(path, p, ContactSolution<kWrench>{r, u});
  const WrenchProblem back = read_problem<kWrench>(path);
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
  const auto sol = read_solution<kWrench>(path);
  ASSERT_TRUE(sol.has_value());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(sol->r[i], r[i]);
    EXPECT_EQ(sol->u[i], u[i]);
  }
  // The stored solution solves the stored problem (error recomputed from r).
  std::vector<Vec6> u2;
  back.velocity(sol->r, u2);
  EXPECT_LE(contact_error(back, sol->r, u2), 1e-12);
  // Without a solution: none read back.
  write_problem(path, p);
  EXPECT_FALSE(read_solution<kWrench>(path).has_value());
  std::filesystem::remove(path);
}

TEST(FclibIo, ForceFileIsReadAsItsWrenchEmbedding) {
  const std::string path = testing::fclib_dir() + "/Rover4144.hdf5";
  const ForceProblem p3 = read_problem<kForce>(path);
  const WrenchProblem p6 = read_problem<kWrench>(path);
  EXPECT_EQ(p6.dense_w(), embed_problem(p3).dense_w());
  for (int i = 0; i < p3.contact_count; ++i) {
    EXPECT_EQ(p6.q[i].head<3>(), p3.q[i]);
    EXPECT_EQ(p6.laws[i].mu, p3.laws[i]);
    EXPECT_EQ(p6.laws[i].h, 0.0);
  }
  const auto s3 = read_solution<kForce>(path);
  const auto s6 = read_solution<kWrench>(path);
  ASSERT_EQ(s3.has_value(), s6.has_value());
  if (s3) {
    for (int i = 0; i < p3.contact_count; ++i) {
      EXPECT_EQ(s6->r[i].head<3>(), s3->r[i]);
      EXPECT_EQ(s6->r[i].tail<3>(), Eigen::Vector3d::Zero());
    }
  }
}

TEST(FclibIo, WrenchBadFilesAreReported) {
  EXPECT_THROW((void)read_problem<kWrench>(temp_path("does_not_exist.hdf5")), std::runtime_error);
  const std::string text = temp_path("fclib_io6_not_hdf5.txt");
  std::FILE* f = std::fopen(text.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("not hdf5\n", f);
  std::fclose(f);
  EXPECT_THROW((void)read_problem<kWrench>(text), std::runtime_error);
  std::filesystem::remove(text);
  WrenchProblem bad = wrench_sample();
  bad.laws[1].mu = -1.0;
  EXPECT_THROW(write_problem(temp_path("fclib_io6_bad.hdf5"), bad), std::invalid_argument);
}

TEST(FclibIo, TableListsEveryFile) {
  // Every .hdf5 file of the folder is in the README table (so the tests below cover all files).
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(testing::fclib_dir())) {
    if (e.path().extension() == ".hdf5") ++files;
  }
  EXPECT_EQ(testing::fclib_entries().size(), files);
  EXPECT_GE(files, 30u);
}

class FclibReference : public ::testing::TestWithParam<testing::FclibEntry> {};

TEST_P(FclibReference, StoredSolutionHasTheListedError) {
  const testing::FclibEntry& entry = GetParam();
  const std::string path = testing::fclib_dir() + "/" + entry.file;
  const ForceProblem p = read_problem<kForce>(path);
  EXPECT_EQ(p.contact_count, entry.contacts);
  const auto sol = read_solution<kForce>(path);
  ASSERT_TRUE(sol.has_value());
  std::vector<Vec3> u;
  p.velocity(sol->r, u);
  const double e = contact_error(p, sol->r, u);
  // The listed errors are computed quantities at the round-off level of u = W r + q. Agreement
  // is asked to 2e-2 relative, or within the round-off floor of the computation,
  // ε √(3 nc) (‖r‖ + ‖|W| |r|‖ + ‖q‖) / ‖q‖ (sums evaluated in another order give another
  // rounding of that size).
  double r2 = 0.0, wr2 = 0.0, q2 = 0.0;
  for (int i = 0; i < p.contact_count; ++i) {
    Vec3 wr = Vec3::Zero();
    for (std::int32_t k = p.row_start[i]; k < p.row_start[i + 1]; ++k) {
      wr += p.blocks[k].cwiseAbs() * sol->r[p.col[k]].cwiseAbs();
    }
    r2 += sol->r[i].squaredNorm();
    wr2 += wr.squaredNorm();
    q2 += p.q[i].squaredNorm();
  }
  const double floor = DBL_EPSILON * std::sqrt(3.0 * p.contact_count) *
                       (std::sqrt(r2) + std::sqrt(wr2) + std::sqrt(q2)) / std::sqrt(q2);
  EXPECT_LE(std::abs(e - entry.reference_error), 2e-2 * entry.reference_error + floor)
      << entry.file << ": computed " << e << ", listed " << entry.reference_error
      << ", round-off floor " << floor;
  std::cout << entry.file << " computed " << e << " listed " << entry.reference_error << " floor "
            << floor << "\n";
  // The stored u is W r + q to the same round-off.
  EXPECT_NEAR(contact_error(p, sol->r, sol->u), e, 2e-2 * e + floor);
}

INSTANTIATE_TEST_SUITE_P(AllFiles, FclibReference, ::testing::ValuesIn(testing::fclib_entries()),
                         [](const auto& info) {
                           return testing::fclib_test_name(info.param.file);
                         });

}  // namespace
}  // namespace coulomb
