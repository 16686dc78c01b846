// Structurally wrong FCLIB files (the mutations a fuzzer found to crash libfclib's reader: sizes
// set to 0 or huge, arrays longer or shorter than declared, pointers and indices out of range,
// spacedim 0, non-finite values, missing datasets). Each one is written by rewriting one dataset
// of a valid file; every reader must either throw one std::exception with a one-line message and
// print nothing on stderr (HDF5's own error stack silenced), or, where the file is still a valid
// problem (W stored as 0 triplets, nzmax or x longer than used), return a problem that passes
// validate_structure(). A crash or a sanitizer report fails the whole test binary.
#include <coulomb/nonsmooth/fclib_io.hpp>

#include <gtest/gtest.h>
#include <hdf5.h>

#include "fuzz/regressions.hpp"

#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace coulomb {
namespace {

std::string temp_path(const std::string& name) {
  return std::string(COULOMB_BINARY_DIR) + "/" + name;
}

// Two contacts, a full 6×6 W in compressed rows, and a solution.
ForceProblem two_contacts() {
  ForceProblem p;
  p.contact_count = 2;
  p.laws = {0.3, 0.5};
  p.q = {Vec3(-1.0, 0.2, 0.1), Vec3(0.5, -0.3, 0.2)};
  p.row_start = {0, 2, 4};
  p.col = {0, 1, 0, 1};
  p.diag = {0, 3};
  Block3 a = Block3::Identity() * 2.0;
  Block3 b = Block3::Constant(0.1);
  Block3 c = Block3::Identity() * 3.0;
  p.blocks = {a, b, b, c};
  return p;
}

// Replaces dataset `name` of the file by a 1-D dataset holding `values`.
template <class T>
void rewrite(const std::string& file, const std::string& name, const std::vector<T>& values) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  if (H5Lexists(f, name.c_str(), H5P_DEFAULT) > 0) H5Ldelete(f, name.c_str(), H5P_DEFAULT);
  const hsize_t n = values.size();
  const hid_t space = H5Screate_simple(1, &n, nullptr);
  const hid_t type = std::is_same_v<T, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT;
  const hid_t set = H5Dcreate2(f, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(set, 0) << name;
  if (n > 0) H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Dclose(set);
  H5Sclose(space);
  H5Fclose(f);
}

void remove_link(const std::string& file, const std::string& name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  H5Ldelete(f, name.c_str(), H5P_DEFAULT);
  H5Fclose(f);
}

struct Mutation {
  const char* name;
  std::function<void(const std::string&)> apply;
  bool still_valid = false;  ///< the file remains a valid problem
};

std::vector<Mutation> mutations() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  using I = std::vector<int>;
  using D = std::vector<double>;
  const std::string w = "/fclib_local/W/", v = "/fclib_local/vectors/";
  return {
      {"nz_zero", [=](auto& f) { rewrite(f, w + "nz", I{0}); }, true},
      {"nz_minus_3", [=](auto& f) { rewrite(f, w + "nz", I{-3}); }},
      {"nz_huge", [=](auto& f) { rewrite(f, w + "nz", I{1000000}); }},
      {"nz_columns", [=](auto& f) { rewrite(f, w + "nz", I{-1}); }, true},
      {"m_zero", [=](auto& f) { rewrite(f, w + "m", I{0}); }},
      {"m_n_zero",
       [=](auto& f) {
         rewrite(f, w + "m", I{0});
         rewrite(f, w + "n", I{0});
       }},
      {"m_n_huge",
       [=](auto& f) {
         rewrite(f, w + "m", I{300000000});
         rewrite(f, w + "n", I{300000000});
       }},
      {"m_negative",
       [=](auto& f) {
         rewrite(f, w + "m", I{-6});
         rewrite(f, w + "n", I{-6});
       }},
      {"m_not_a_scalar",
       [=](auto& f) {
         rewrite(f, w + "m", I{6, 6});
       }},
      {"nzmax_zero", [=](auto& f) { rewrite(f, w + "nzmax", I{0}); }, true},
      {"x_longer", [=](auto& f) { rewrite(f, w + "x", D(100, 1.0)); }, true},
      {"x_shorter",
       [=](auto& f) {
         rewrite(f, w + "x", D{1.0, 2.0});
       }},
      {"i_shorter", [=](auto& f) { rewrite(f, w + "i", I{0}); }},
      {"p_shorter",
       [=](auto& f) {
         rewrite(f, w + "p", I{0, 6});
       }},
      {"p_huge",
       [=](auto& f) {
         rewrite(f, w + "p", I{0, 6, 1000000, 18, 24, 30, 36});
       }},
      {"p_negative",
       [=](auto& f) {
         rewrite(f, w + "p", I{0, 6, -5, 18, 24, 30, 36});
       }},
      {"p_not_from_zero",
       [=](auto& f) {
         rewrite(f, w + "p", I{3, 6, 12, 18, 24, 30, 36});
       }},
      {"i_out_of_range", [=](auto& f) { rewrite(f, w + "i", I(36, 1000000)); }},
      {"i_negative", [=](auto& f) { rewrite(f, w + "i", I(36, -1)); }},
      {"x_nan", [=](auto& f) { rewrite(f, w + "x", D(36, nan)); }},
      {"q_longer", [=](auto& f) { rewrite(f, v + "q", D(12, 0.5)); }},
      {"q_shorter", [=](auto& f) { rewrite(f, v + "q", D(3, 0.5)); }},
      {"q_nan", [=](auto& f) { rewrite(f, v + "q", D(6, nan)); }},
      {"mu_longer", [=](auto& f) { rewrite(f, v + "mu", D(7, 0.3)); }},
      {"mu_negative",
       [=](auto& f) {
         rewrite(f, v + "mu", D{0.3, -1.0});
       }},
      {"mu_missing", [=](auto& f) { remove_link(f, v + "mu"); }},
      {"spacedim_zero", [=](auto& f) { rewrite(f, "/fclib_local/spacedim", I{0}); }},
      {"spacedim_two", [=](auto& f) { rewrite(f, "/fclib_local/spacedim", I{2}); }},
      {"w_missing", [=](auto& f) { remove_link(f, "/fclib_local/W"); }},
      {"vectors_missing", [=](auto& f) { remove_link(f, "/fclib_local/vectors"); }},
      {"x_as_int", [=](auto& f) { rewrite(f, w + "x", I(36, 1)); }, true},
      {"solution_r_shorter", [=](auto& f) { rewrite(f, "/solution/r", D(2, 0.0)); }},
      {"solution_u_longer", [=](auto& f) { rewrite(f, "/solution/u", D(600, 0.0)); }},
  };
}

class FclibCorrupt : public ::testing::TestWithParam<Mutation> {};

// Runs `read`: it must return normally (valid) or throw one exception with a one-line message;
// stderr must stay empty either way.
template <class F>
void expect_clean(const char* what, const F& read, bool may_succeed, bool* threw) {
  ::testing::internal::CaptureStderr();
  std::string message;
  bool thrown = false;
  try {
    read();
  } catch (const std::exception& e) {
    thrown = true;
    message = e.what();
  }
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "") << what << " printed on stderr";
  if (thrown) {
    EXPECT_EQ(message.find('\n'), std::string::npos) << what << ": " << message;
    EXPECT_FALSE(message.empty()) << what;
  } else {
    EXPECT_TRUE(may_succeed) << what << " accepted a corrupted file";
  }
  if (threw) *threw = thrown;
}

TEST_P(FclibCorrupt, ReadersRejectItInOneLineOrReadAValidProblem) {
  const Mutation& m = GetParam();
  const std::string file = temp_path(std::string("fclib_corrupt_") + m.name + ".hdf5");
  const ForceProblem p = two_contacts();
  ContactSolution<kForce> s;
  s.r.assign(2, Vec3(1.0, 0.1, 0.0));
  p.velocity(s.r, s.u);
  write_problem(file, p, s);
  m.apply(file);
  const bool solution_only = std::string(m.name).rfind("solution_", 0) == 0;
  bool threw = false;
  expect_clean(
      "read_problem<kForce>",
      [&] {
        const ForceProblem q = read_problem<kForce>(file);
        q.validate_structure();
      },
      m.still_valid || solution_only, &threw);
  expect_clean(
      "read_problem<kWrench>",
      [&] {
        const WrenchProblem q = read_problem<kWrench>(file);
        q.validate_structure();
      },
      m.still_valid || solution_only, nullptr);
  expect_clean(
      "read_solution<kForce>", [&] { (void)read_solution<kForce>(file); }, m.still_valid, nullptr);
  expect_clean(
      "read_solution<kWrench>", [&] { (void)read_solution<kWrench>(file); },
      m.still_valid || !solution_only, nullptr);
  std::filesystem::remove(file);
}

INSTANTIATE_TEST_SUITE_P(Mutations, FclibCorrupt, ::testing::ValuesIn(mutations()),
                         [](const auto& info) { return std::string(info.param.name); });

// Replaces dataset `name` by one that declares `n` doubles and stores none (never written: HDF5
// reads it as fill values). A corrupted size does the same (found by tests/fuzz/fclib_fuzz.cpp,
// 2^48 elements in a 12 kB file): the reader sized its array from it and asked for 2 PB.
void declare_unwritten(const std::string& file, const std::string& name, hsize_t n) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  H5Ldelete(f, name.c_str(), H5P_DEFAULT);
  const hid_t space = H5Screate_simple(1, &n, nullptr);
  const hid_t set =
      H5Dcreate2(f, name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(set, 0) << name;
  H5Dclose(set);
  H5Sclose(space);
  H5Fclose(f);
}

// The inputs the FCLIB fuzzer found (tests/data/fuzz/fclib): read_problem<kWrench> gives each its
// expected message, "PATH: " then the .expect line; every reader throws a documented exception.
TEST(FclibCorrupt, FuzzRegressionsGiveTheirExpectedMessage) {
  for (const auto& r : ::coulomb::testing::fuzz_regressions("fclib")) {
    SCOPED_TRACE(r.path);
    try {
      (void)read_problem<kWrench>(r.path);
      ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), r.path + ": " + r.expect);
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), r.path + ": " + r.expect);
    }
    auto documented = [](const auto& read) {
      try {
        read();
      } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      }
    };
    documented([&] { (void)fclib_unknowns(r.path); });
    documented([&] { (void)read_problem<kForce>(r.path); });
    documented([&] { (void)read_solution<kForce>(r.path); });
    documented([&] { (void)read_solution<kWrench>(r.path); });
  }
}

TEST(FclibCorrupt, DeclaredSizesBeyondTheFileAreRejectedBeforeAllocating) {
  const std::string file = temp_path("fclib_corrupt_declared_huge.hdf5");
  for (const hsize_t n : {hsize_t{6}, hsize_t{1} << 40}) {
    SCOPED_TRACE(n);
    write_problem(file, two_contacts());
    declare_unwritten(file, "/fclib_local/vectors/q", n);
    for (int kind = 0; kind < 2; ++kind) {
      try {
        if (kind == 0)
          (void)read_problem<kForce>(file);
        else
          (void)read_problem<kWrench>(file);
        ADD_FAILURE() << "read a dataset the file does not store";
      } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()),
                  file + ": dataset q declares " + std::to_string(n) +
                      " elements of 8 bytes, the file stores 0 bytes for it");
      }
    }
  }
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace coulomb
