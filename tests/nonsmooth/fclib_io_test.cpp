// Tests of FCLIB input/output (src/nonsmooth/fclib_io.cpp): round trip, errors, and for every
// file of tests/data/fclib the error of its stored reference solution against the README table
// (this validates both the reader and the error formula of contact_error).
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "nonsmooth/fclib_data.hpp"

namespace coulomb {
namespace {

ContactProblem small_problem() {
  ContactProblem p;
  p.contact_count = 2;
  p.mu = {0.3, 0.5};
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
  const ContactProblem p = small_problem();
  ContactSolution s;
  s.r = {Vec3(1.0, 2.0, 3.0), Vec3(-0.1, 0.7, 1.0 / 7.0)};
  p.velocity(s.r, s.u);
  const std::string path = temp_path("nonsmooth_roundtrip.hdf5");
  write_fclib_local(path, p, s);
  // Written twice: the file is replaced, not appended to.
  write_fclib_local(path, p, s);
  const ContactProblem back = read_fclib_local(path);
  ASSERT_EQ(back.contact_count, 2);
  EXPECT_EQ(back.row_start, p.row_start);
  EXPECT_EQ(back.col, p.col);
  EXPECT_EQ(back.diag, p.diag);
  EXPECT_EQ(back.mu, p.mu);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(back.q[i], p.q[i]);
  for (std::size_t k = 0; k < p.blocks.size(); ++k) EXPECT_EQ(back.blocks[k], p.blocks[k]);
  const auto sol = read_fclib_solution(path);
  ASSERT_TRUE(sol.has_value());
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(sol->r[i], s.r[i]);
    EXPECT_EQ(sol->u[i], s.u[i]);
  }
  std::filesystem::remove(path);
}

TEST(FclibIo, WithoutSolution) {
  const std::string path = temp_path("nonsmooth_nosolution.hdf5");
  write_fclib_local(path, small_problem());
  EXPECT_EQ(read_fclib_local(path).contact_count, 2);
  EXPECT_FALSE(read_fclib_solution(path).has_value());
  std::filesystem::remove(path);
}

TEST(FclibIo, MissingFileThrows) {
  EXPECT_THROW((void)read_fclib_local(temp_path("does_not_exist.hdf5")), std::runtime_error);
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
  const ContactProblem p = read_fclib_local(path);
  EXPECT_EQ(p.contact_count, entry.contacts);
  const auto sol = read_fclib_solution(path);
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
