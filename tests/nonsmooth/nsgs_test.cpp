// Tests of the nonsmooth Gauss–Seidel solver (src/nonsmooth/nsgs.cpp): decoupled closed forms,
// statuses, warm start, determinism, and every FCLIB problem of tests/data/fclib from r = 0.
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "nonsmooth/fclib_data.hpp"

namespace coulomb {
namespace {

// Block-diagonal W = diag(a, b, b) per contact: NSGS is exact after one sweep.
ContactProblem decoupled() {
  ContactProblem p;
  p.contact_count = 3;
  p.mu = {0.3, 0.5, 0.2};
  p.q = {Vec3(-2.0, 3.0, -4.0), Vec3(-2.0, 0.8, -1.2), Vec3(1.0, 1.0, 1.0)};
  p.row_start = {0, 1, 2, 3};
  p.col = {0, 1, 2};
  p.diag = {0, 1, 2};
  Block3 w = Block3::Zero();
  w(0, 0) = 2.0;
  w(1, 1) = 4.0;
  w(2, 2) = 4.0;
  p.blocks = {w, w, w};
  return p;
}

TEST(Nsgs, DecoupledContactsClosedForm) {
  const ContactProblem p = decoupled();
  std::vector<Vec3> r, u;
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-14;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::converged);
  EXPECT_EQ(res.iterations, 1);
  // Slide (closed form, see single_contact_test), stick, take-off.
  EXPECT_NEAR((r[0] - Vec3(1.0, -0.18, 0.24)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((r[1] - Vec3(1.0, -0.2, 0.3)).norm(), 0.0, 1e-15);
  EXPECT_EQ(r[2], Vec3::Zero());
  EXPECT_LE(res.error, 1e-14);
}

ContactProblem file_problem(const std::string& name) {
  return read_fclib_local(testing::fclib_dir() + "/" + name);
}

TEST(Nsgs, WarmStartFromSolutionStopsAtOnce) {
  const ContactProblem p = file_problem("Rover4144.hdf5");
  std::vector<Vec3> r, u;
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-10;
  ASSERT_EQ(solve_nsgs(p, r, u, o, ws).status, SolverStatus::converged);
  const SolverResult again = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(again.status, SolverStatus::converged);
  EXPECT_EQ(again.iterations, 0);
}

TEST(Nsgs, CapIsReportedWithTheTrueError) {
  const ContactProblem p = file_problem("Capsules-i100-889.hdf5");
  std::vector<Vec3> r, u;
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-10;
  o.max_iterations = 5;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::max_iterations);
  EXPECT_EQ(res.iterations, 5);
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
  EXPECT_GT(res.error, o.tolerance);
}

TEST(Nsgs, NonFiniteIsReported) {
  ContactProblem p = decoupled();
  p.q[1][0] = std::nan("");
  std::vector<Vec3> r, u;
  SolverWorkspace ws;
  EXPECT_EQ(solve_nsgs(p, r, u, SolverOptions{}, ws).status, SolverStatus::non_finite);
}

TEST(Nsgs, DeterministicAndRelaxed) {
  const ContactProblem p = file_problem("KaplasTower-i1061-4.hdf5");
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-6;
  o.max_iterations = 2000;
  std::vector<Vec3> r1, u1, r2, u2;
  const SolverResult a = solve_nsgs(p, r1, u1, o, ws);
  const SolverResult b = solve_nsgs(p, r2, u2, o, ws);
  EXPECT_EQ(a.iterations, b.iterations);
  for (int i = 0; i < p.contact_count; ++i) EXPECT_EQ(r1[i], r2[i]);
  // Under-relaxation (ω = 0.9) converges to the same tolerance.
  o.over_relaxation = 0.9;
  std::vector<Vec3> r3, u3;
  EXPECT_EQ(solve_nsgs(p, r3, u3, o, ws).status, SolverStatus::converged);
}

TEST(Nsgs, ErrorScheduleReportsTheTrueErrorAndSavesEvaluations) {
  // Error evaluated at most every 20 sweeps, scheduled from the observed rate: the answer is as
  // converged, the sweep count at most 20 above the every-sweep count, the error the true one.
  const ContactProblem p = file_problem("Capsules-i100-889.hdf5");
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 10000;
  std::vector<Vec3> r1, u1, r2, u2;
  const SolverResult every = solve_nsgs(p, r1, u1, o, ws);
  o.error_check_interval = 20;
  const SolverResult scheduled = solve_nsgs(p, r2, u2, o, ws);
  ASSERT_EQ(every.status, SolverStatus::converged);
  ASSERT_EQ(scheduled.status, SolverStatus::converged);
  EXPECT_GE(scheduled.iterations, every.iterations);
  EXPECT_LE(scheduled.iterations, every.iterations + 20);
  std::vector<Vec3> u3;
  p.velocity(r2, u3);
  EXPECT_EQ(scheduled.error, contact_error(p, r2, u3));
}

TEST(Nsgs, ShuffleIsSeededAndConverges) {
  const ContactProblem p = file_problem("KaplasTower-i1061-4.hdf5");
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 10000;
  o.shuffle = true;
  o.shuffle_seed = 7;
  std::vector<Vec3> r1, u1, r2, u2, r3, u3;
  const SolverResult a = solve_nsgs(p, r1, u1, o, ws);
  const SolverResult b = solve_nsgs(p, r2, u2, o, ws);
  EXPECT_EQ(a.status, SolverStatus::converged);
  EXPECT_LE(a.error, 1e-8);
  // Same seed: bit-identical; another seed: another path (different sweep count or iterate).
  EXPECT_EQ(a.iterations, b.iterations);
  for (int i = 0; i < p.contact_count; ++i) EXPECT_EQ(r1[i], r2[i]);
  o.shuffle_seed = 8;
  const SolverResult c = solve_nsgs(p, r3, u3, o, ws);
  EXPECT_EQ(c.status, SolverStatus::converged);
  bool differs = c.iterations != a.iterations;
  for (int i = 0; i < p.contact_count && !differs; ++i) differs = r3[i] != r1[i];
  EXPECT_TRUE(differs);
}

TEST(Nsgs, OverRelaxationConverges) {
  // ω = 1.3 on a problem with coupled contacts still reaches the tolerance (same fixed point).
  const ContactProblem p = file_problem("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5");
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 10000;
  o.over_relaxation = 1.3;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::converged);
  EXPECT_LE(res.error, 1e-8);
}

TEST(Nsgs, MaxTimeIsHonoured) {
  const ContactProblem p = file_problem("Capsules-i122-1617.hdf5");
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-12;
  o.max_iterations = 1000000;
  o.max_time_s = 0.05;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::max_time);
  // Overrun of at most one sweep (~0.1 ms here) plus the final error; 0.5 s for a loaded machine.
  EXPECT_LT(res.time_s, 0.5);
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
}

TEST(Nsgs, StallIsDetected) {
  // OneObject-i100000-316: NSGS stagnates near 2e-3 (a redundant contact set).
  const ContactProblem p = file_problem("OneObject-i100000-316.hdf5");
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 10000;
  o.stall_window = 100;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::stalled);
  EXPECT_LT(res.iterations, 2000);
  EXPECT_GT(res.error, 1e-8);
}

// Problems on which NSGS from r = 0 does not reach 1e-8 in 10^4 sweeps (its known weakness on
// redundant contact sets: one body on 24–52 contacts, W of rank 6 per body; Siconos' own
// references for these were computed with PROX). Asserted as limitations, not passes.
const std::set<std::string> kNsgsLimitations = {
    "BoxesStack1-i100000-32.hdf5", "Capsules-i122-1617.hdf5", "OneObject-i100000-316.hdf5",
    "OneObject-i100000-499.hdf5", "fclib_local_problem_test.hdf5"};

class NsgsFclib : public ::testing::TestWithParam<testing::FclibEntry> {};

TEST_P(NsgsFclib, FromZeroReaches1e8) {
  const testing::FclibEntry& entry = GetParam();
  const ContactProblem p = file_problem(entry.file);
  std::vector<Vec3> r, u;
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 10000;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  // The reported error is the true error of the returned r.
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
  if (kNsgsLimitations.count(entry.file) != 0) {
    EXPECT_EQ(res.status, SolverStatus::max_iterations) << entry.file << " now converges";
    EXPECT_GT(res.error, 1e-8);
    EXPECT_TRUE(std::isfinite(res.error));
  } else {
    EXPECT_EQ(res.status, SolverStatus::converged) << entry.file << " error " << res.error;
    EXPECT_LE(res.error, 1e-8);
  }
}

INSTANTIATE_TEST_SUITE_P(AllFiles, NsgsFclib, ::testing::ValuesIn(testing::fclib_entries()),
                         [](const auto& info) {
                           return testing::fclib_test_name(info.param.file);
                         });

}  // namespace
}  // namespace coulomb
