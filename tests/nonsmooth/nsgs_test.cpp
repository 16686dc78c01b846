// Tests of the nonsmooth Gauss–Seidel solver (src/nonsmooth/nsgs.cpp), both sizes. Three unknowns:
// decoupled closed forms, statuses, warm start, determinism, and every FCLIB problem of
// tests/data/fclib from r = 0. Six unknowns: equality with the 3-unknown solver on embedded FCLIB
// problems, multi-contact problems with moments against a dense projected fixed-point reference,
// statuses, warm start and determinism; `solve` rejects PROX there.
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>

#include "nonsmooth/fclib_data.hpp"
#include "nonsmooth/nsgs_loop.hpp"

namespace coulomb {
namespace {

// Block-diagonal W = diag(a, b, b) per contact: NSGS is exact after one sweep.
ForceProblem decoupled() {
  ForceProblem p;
  p.contact_count = 3;
  p.laws = {0.3, 0.5, 0.2};
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
  const ForceProblem p = decoupled();
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
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

ForceProblem file_problem(const std::string& name) {
  return read_problem<kForce>(testing::fclib_dir() + "/" + name);
}

// The options of the tests on FCLIB files: the tolerance of the FCLIB table in
// docs/nonsmooth-solvers.md (1e-8) and a cap far above the sweeps those that converge take.
SolverOptions fclib_options() {
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 10000;
  return o;
}

TEST(Nsgs, WarmStartFromSolutionStopsAtOnce) {
  const ForceProblem p = file_problem("Rover4144.hdf5");
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-10;
  ASSERT_EQ(solve_nsgs(p, r, u, o, ws).status, SolverStatus::converged);
  const SolverResult again = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(again.status, SolverStatus::converged);
  EXPECT_EQ(again.iterations, 0);
}

TEST(Nsgs, CapIsReportedWithTheTrueError) {
  const ForceProblem p = file_problem("Capsules-i100-889.hdf5");
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
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
  ForceProblem p = decoupled();
  p.q[1][0] = std::nan("");
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
  EXPECT_EQ(solve_nsgs(p, r, u, SolverOptions{}, ws).status, SolverStatus::non_finite);
  // Nothing non-finite is returned from a finite start: r is the start (here r = 0).
  for (const Vec3& x : r) EXPECT_TRUE(x.allFinite());
}

TEST(Nsgs, DeterministicAndRelaxed) {
  const ForceProblem p = file_problem("KaplasTower-i1061-4.hdf5");
  SolverWorkspace<kForce> ws;
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
  const ForceProblem p = file_problem("Capsules-i100-889.hdf5");
  SolverWorkspace<kForce> ws;
  SolverOptions o = fclib_options();
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
  const ForceProblem p = file_problem("KaplasTower-i1061-4.hdf5");
  SolverWorkspace<kForce> ws;
  SolverOptions o = fclib_options();
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
  const ForceProblem p = file_problem("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5");
  SolverWorkspace<kForce> ws;
  SolverOptions o = fclib_options();
  o.over_relaxation = 1.3;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::converged);
  EXPECT_LE(res.error, 1e-8);
}

TEST(Nsgs, MaxTimeIsHonoured) {
  // The limit is checked after every sweep: with a limit of 0 s NSGS stops after exactly one
  // sweep (status max_time), which bounds the overrun by one sweep. Counted in sweeps, not
  // seconds, so that a loaded machine cannot fail it.
  const ForceProblem p = file_problem("Capsules-i122-1617.hdf5");
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-12;
  o.max_iterations = 1000000;
  o.max_time_s = 0.0;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::max_time);
  EXPECT_EQ(res.iterations, 1);
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
}

TEST(Nsgs, StallIsDetected) {
  // OneObject-i100000-316: NSGS stagnates near 2e-3 (a redundant contact set).
  const ForceProblem p = file_problem("OneObject-i100000-316.hdf5");
  SolverWorkspace<kForce> ws;
  SolverOptions o = fclib_options();
  o.stall_window = 100;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::stalled);
  EXPECT_LT(res.iterations, 2000);
  EXPECT_GT(res.error, 1e-8);
}

// ---- A row of touching balls (tests/data/chain, dumped from tests/data/chain/chain-e1.yaml) ----

ForceProblem chain_problem(const std::string& name) {
  return read_problem<kForce>(std::string(COULOMB_SOURCE_DIR) + "/tests/data/chain/" + name);
}

TEST(Nsgs, FrictionlessChainThatSeparatesIsSolvedAtOnce) {
  // Steps after the impact of the e = 1 chain: the balls that move together rebound from each
  // other at round-off speed (q_N = 0 .. 2e-10 m/s >= 0, q_T = 0, μ = 0). r = 0 solves it (take-off
  // everywhere): x = r − u = (−q_N, 0, 0) projects onto the apex of the half-line K, error 0.
  // Before the μ = 0 branch of project_on_cone the corner x_T = 0 read 0 <= 0, the error stayed
  // exactly 1 and NSGS ran to its cap on 4998 of 5000 steps of such a run.
  const ForceProblem p = chain_problem("separating.hdf5");
  ASSERT_EQ(p.contact_count, 4);
  for (int a = 0; a < p.contact_count; ++a) {
    ASSERT_GE(p.q[a][0], 0.0);
    ASSERT_EQ(p.laws[a], 0.0);
  }
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-10;
  std::vector<Vec3> r, u;
  SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::converged);
  EXPECT_EQ(res.iterations, 0);  // the start (r = 0) is the solution
  EXPECT_EQ(res.error, 0.0);
  // Warm-started with the previous step's impulses (3e-10 N s, the size the run had): r = 0 has the
  // lower error, so the solve starts there (cold start) and stops at once.
  r.assign(4, Vec3(3e-10, 0.0, 0.0));
  res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::converged);
  EXPECT_TRUE(res.cold_start);
  EXPECT_EQ(res.iterations, 0);
  for (const Vec3& x : r) EXPECT_EQ(x, Vec3::Zero());
}

TEST(Nsgs, FrictionlessChainImpactConvergesAtTheGaussSeidelRate) {
  // The impact step: ball 0 (1 m/s) hits the row of 5 others, e = 1: q_N = −(1 + e) 1 m/s on the
  // first contact, 0 on the four others. All five contacts stay pressed, so NSGS is Gauss–Seidel
  // on the normal block W_NN = tridiag(−1, 2, −1)/m (unit masses on one line), whose spectral
  // radius is cos²(π/(n + 1)) = 3/4 for n = 5 (Gauss–Seidel on the 1-D Laplacian; Varga 1962,
  // §4.5). From r = 0 (error 1) the ten decades to 1e-10 take log(1e-10)/log(3/4) = 80 sweeps;
  // measured: 76 (the error measure is not the Gauss–Seidel norm; it starts lower). Bound: 90, the
  // asymptotic count plus 10 sweeps for the constant in front of the rate.
  const ForceProblem p = chain_problem("impact.hdf5");
  ASSERT_EQ(p.contact_count, 5);
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-10;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::converged);
  EXPECT_LE(res.iterations, 90);
  EXPECT_EQ(res.local_failures, 0);
  // Moreau's impact law for the simultaneous impact: ball 0 leaves at (2 − n)/n = −2/3 m/s, the
  // five others together at 2/n = 1/3 m/s (n = 6 balls), so the impulses are 5/3, 4/3, 1, 2/3,
  // 1/3 N s. 1e-9: the error 1e-10 relative to ‖q‖ = 2 bounds the velocity residual by 2e-10.
  const double expected[] = {5.0 / 3.0, 4.0 / 3.0, 1.0, 2.0 / 3.0, 1.0 / 3.0};
  for (int a = 0; a < 5; ++a) {
    EXPECT_NEAR(r[a][0], expected[a], 1e-9) << a;
    EXPECT_EQ(r[a][1], 0.0);
    EXPECT_EQ(r[a][2], 0.0);
  }
}

// ---- Never worse than the start ----

// One frictionless contact with W = I and q = (q_N, 0, 0).
ForceProblem one_frictionless_contact(double q_n) {
  ForceProblem p;
  p.contact_count = 1;
  p.laws = {0.0};
  p.q = {Vec3(q_n, 0.0, 0.0)};
  p.row_start = {0, 1};
  p.col = {0};
  p.diag = {0};
  p.blocks = {Block3::Identity()};
  return p;
}

TEST(Nsgs, WarmStartIsKeptUnlessFarWorseThanZero) {
  // One frictionless contact, W = I, q = (−1, 0, 0): r = 0 has error 1; the warm start
  // r = (1 + d, 0, 0) has u = (d, 0, 0) and error d. Kept up to kWarmStartFactor (100) times the
  // error of r = 0, replaced by r = 0 beyond. Either way one sweep solves it.
  const ForceProblem p = one_frictionless_contact(-1.0);
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  for (const double d : {8.6, 99.0, 101.0, 1e14}) {
    std::vector<Vec3> r = {Vec3(1.0 + d, 0.0, 0.0)}, u;
    const SolverResult res = solve_nsgs(p, r, u, o, ws);
    const bool cold = d > kWarmStartFactor;
    EXPECT_EQ(res.cold_start, cold) << d;
    EXPECT_NEAR(res.start_error, cold ? 1.0 : d, 1e-12 * d) << d;
    EXPECT_EQ(res.status, SolverStatus::converged) << d;
    EXPECT_EQ(res.iterations, 1) << d;
    EXPECT_NEAR(r[0][0], 1.0, 1e-15) << d;
  }
}

TEST(Nsgs, AWarmStartWithinTheToleranceIsKeptEvenWhereZeroIsExact) {
  // One frictionless contact taking off: W = I, q = (1, 0, 0), so r = 0 is the answer (error 0).
  // The warm start r = (d, 0, 0) has u = (1 + d, 0, 0) and error d. Above the tolerance it is
  // replaced by r = 0 (error 0, far below it); within the tolerance it already answers the
  // problem and is kept, and the error of r = 0 is not evaluated.
  const ForceProblem p = one_frictionless_contact(1.0);
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-10;
  o.min_iterations = 0;  // the start is returned when it meets the tolerance
  for (const double d : {1e-12, 1e-8}) {
    std::vector<Vec3> r = {Vec3(d, 0.0, 0.0)}, u;
    const SolverResult res = solve_nsgs(p, r, u, o, ws);
    const bool cold = d > o.tolerance;
    EXPECT_EQ(res.cold_start, cold) << d;
    EXPECT_NEAR(res.start_error, cold ? 0.0 : d, 1e-6 * d) << d;
    EXPECT_EQ(res.status, SolverStatus::converged) << d;
    EXPECT_EQ(res.iterations, 0) << d;
    EXPECT_EQ(r[0][0], cold ? 0.0 : d) << d;
  }
}

// Two frictionless contacts with W_NN = [[1, a], [a, 1]] (a close to 1: nearly redundant),
// q_N = (−1, −1): the solution is r_N = (s, s), s = 1/(1 + a), u = 0.
ForceProblem nearly_redundant_pair(double a) {
  ForceProblem p;
  p.contact_count = 2;
  p.laws = {0.0, 0.0};
  p.q = {Vec3(-1.0, 0.0, 0.0), Vec3(-1.0, 0.0, 0.0)};
  p.row_start = {0, 2, 4};
  p.col = {0, 1, 0, 1};
  p.diag = {0, 3};
  Block3 off = Block3::Zero();
  off(0, 0) = a;
  p.blocks = {Block3::Identity(), off, off, Block3::Identity()};
  return p;
}

TEST(Nsgs, ReturnsTheStartWhenItsSweepsMakeThingsWorse) {
  // Start on the solution moved by δ along the weak eigenvector (1, −1) of W_NN (eigenvalue
  // 1 − a): its residual is small, u = δ(1 − a)(1, −1), error δ(1 − a) = 1e-5 (‖q‖ = √2). One
  // Gauss–Seidel sweep turns it into r = (s + aδ, s − a²δ), u_N = (aδ(1 − a²), 0): error
  // aδ(1 − a²)/√2 = 1.39e-5, worse than the start. NSGS must return the start and say so.
  const double a = 0.99, delta = 1e-3, s = 1.0 / (1.0 + a);
  const ForceProblem p = nearly_redundant_pair(a);
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-14;
  o.max_iterations = 1;
  const std::vector<Vec3> start = {Vec3(s + delta, 0, 0), Vec3(s - delta, 0, 0)};
  std::vector<Vec3> r = start, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::max_iterations);
  EXPECT_TRUE(res.fell_back);
  EXPECT_FALSE(res.cold_start);
  EXPECT_NEAR(res.start_error, delta * (1.0 - a), 1e-15);
  EXPECT_EQ(res.error, res.start_error);
  EXPECT_EQ(r[0], start[0]);
  EXPECT_EQ(r[1], start[1]);
  // u is the velocity of the returned r.
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(u[0], u2[0]);
  EXPECT_EQ(u[1], u2[1]);
  // Given enough sweeps it converges (rate a² per sweep) and does not fall back.
  o.max_iterations = 5000;
  r = start;
  const SolverResult full = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(full.status, SolverStatus::converged);
  EXPECT_FALSE(full.fell_back);
  EXPECT_NEAR(r[0][0], s, 1e-12);
}

TEST(Nsgs, ReturnsItsBestIterateNotItsLast) {
  // OneObject-i100000-499 (one body on 24 contacts): NSGS's error oscillates without converging;
  // the returned r is the best evaluated iterate, so its error is the lowest seen, and the error
  // reported is the true one of the returned r.
  const ForceProblem p = file_problem("OneObject-i100000-499.hdf5");
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 300;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::max_iterations);
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
  EXPECT_LE(res.error, res.start_error);
  // Every shorter run's final iterate is no better than the best one.
  for (const int cap : {50, 100, 200, 299}) {
    o.max_iterations = cap;
    std::vector<Vec3> rc, uc;
    const SolverResult c = solve_nsgs(p, rc, uc, o, ws);
    EXPECT_GE(c.error, res.error) << cap;
  }
}

TEST(Nsgs, LocalFailuresAreCounted) {
  // Contact 1 has W_NN = 0 (its rows of J are zero) with q_N = −1 and μ = 0: u_N = −1 whatever
  // r, so its local solve cannot reach any tolerance (solve_single_contact returns false) and
  // neither can NSGS. Contact 0 is an ordinary one. Every sweep counts one local failure.
  ForceProblem p = decoupled();
  p.contact_count = 2;
  p.laws = {0.3, 0.0};
  p.q = {Vec3(-2.0, 3.0, -4.0), Vec3(-1.0, 0.0, 0.0)};
  p.row_start = {0, 1, 2};
  p.col = {0, 1};
  p.diag = {0, 1};
  Block3 zero_n = Block3::Identity();
  zero_n(0, 0) = 0.0;
  p.blocks = {p.blocks[0], zero_n};
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-10;
  o.max_iterations = 7;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::max_iterations);
  EXPECT_EQ(res.iterations, 7);
  EXPECT_EQ(res.local_failures, 1);
  EXPECT_EQ(res.local_failures_total, 7);
  // A problem whose local solves all succeed reports none.
  std::vector<Vec3> r2, u2;
  const SolverResult ok = solve_nsgs(decoupled(), r2, u2, o, ws);
  EXPECT_EQ(ok.local_failures, 0);
  EXPECT_EQ(ok.local_failures_total, 0);
}

// Problems on which NSGS from r = 0 does not reach 1e-8 in 10^4 sweeps (its known weakness on
// redundant contact sets: one body on 24–52 contacts, W of rank 6 per body; Siconos' own
// references for these were computed with PROX). Asserted as limitations, not passes. With the
// drift jump (on by default) Capsules-i122-1617 left this list (NsgsDriftJump below).
const std::set<std::string> kNsgsLimitations = {
    "BoxesStack1-i100000-32.hdf5", "OneObject-i100000-316.hdf5", "OneObject-i100000-499.hdf5",
    "fclib_local_problem_test.hdf5"};

class NsgsFclib : public ::testing::TestWithParam<testing::FclibEntry> {};

TEST_P(NsgsFclib, FromZeroReaches1e8) {
  const testing::FclibEntry& entry = GetParam();
  const ForceProblem p = file_problem(entry.file);
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
  SolverOptions o = fclib_options();
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

// The drift jump's event (detail::cone_event) against its definition, on seeded random impulses
// strictly inside the cone and random drifts: at the returned s the point r + s f is on the
// cone's surface (to round-off of the quadratic's root: 1e-9 of the impulse's size; from inside,
// r_N cannot reach 0 first), and just before it (s (1 − 1e-6)) strictly inside; where it returns
// +∞, the point stays inside at s = 1, 10, …, 1e12. A point on the surface (sliding) has only the
// opening event, r_N / −f_N.
TEST(NsgsDriftJump, TheEventIsWhereTheDriftLeavesTheCone) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> uni(-1.0, 1.0), pos(0.1, 2.0), mus(0.05, 1.5);
  // ‖r_T‖ − μ r_N (≤ 0 inside), and r_N.
  const auto outside = [](const Vec3& x, double mu) { return x.tail<2>().norm() - mu * x(0); };
  int finite = 0;
  for (int k = 0; k < 2000; ++k) {
    const double mu = mus(rng);
    const double rn = pos(rng);
    const double fraction = 0.99 * std::abs(uni(rng));  // ‖r_T‖ / (μ r_N) < 1: strictly inside
    const double angle = 3.14159 * uni(rng);
    const Vec3 r(rn, fraction * mu * rn * std::cos(angle), fraction * mu * rn * std::sin(angle));
    const Vec3 f(uni(rng), uni(rng), uni(rng));
    const double s = detail::cone_event(r, f, mu);
    ASSERT_GT(s, 0.0) << k;
    const double size = r.norm() + (std::isfinite(s) ? s * f.norm() : 0.0);
    if (std::isfinite(s)) {
      ++finite;
      const Vec3 at = r + s * f;
      EXPECT_LE(std::abs(outside(at, mu)), 1e-9 * size) << k << " s " << s;
      const Vec3 before = r + s * (1.0 - 1e-6) * f;
      EXPECT_LT(outside(before, mu), 0.0) << k;
      EXPECT_GT(before(0), 0.0) << k;
    } else {
      for (double t = 1.0; t <= 1e12; t *= 10.0) {
        const Vec3 x = r + t * f;
        EXPECT_LE(outside(x, mu), 1e-12 * x.norm()) << k << " t " << t;
        EXPECT_GT(x(0), 0.0) << k << " t " << t;
      }
    }
  }
  // Drifts that leave and drifts that never do were both met.
  EXPECT_GT(finite, 100);
  EXPECT_LT(finite, 2000);
  // On the surface: no cone event, only the opening one.
  for (int k = 0; k < 200; ++k) {
    const double mu = mus(rng);
    const double rn = pos(rng);
    const double angle = 3.14159 * uni(rng);
    const Vec3 r(rn, mu * rn * std::cos(angle), mu * rn * std::sin(angle));
    const Vec3 f(uni(rng), uni(rng), uni(rng));
    const double s = detail::cone_event(r, f, mu);
    if (f(0) < 0.0) {
      EXPECT_DOUBLE_EQ(s, rn / -f(0)) << k;
    } else {
      EXPECT_EQ(s, std::numeric_limits<double>::infinity()) << k;
    }
  }
}

// The drift jump on a problem where the sweeps drift: Capsules-i122-1617 (296 contacts between
// capsules) is not solved to 1e-8 in 10⁴ plain sweeps, their error standing near 1.3e-8 while r
// moves by the same step sweep after sweep; with the jump it is (2085 sweeps, measured). The
// answer is a sweep's iterate on the cones with its true error, and the jumps are counted.
TEST(NsgsDriftJump, SolvesAProblemOnWhichThePlainSweepsDrift) {
  const ForceProblem p = file_problem("Capsules-i122-1617.hdf5");
  SolverWorkspace<kForce> ws;
  SolverOptions o = fclib_options();
  o.error_check_interval = 20;
  o.drift_jump = false;
  std::vector<Vec3> r0, u0;
  const SolverResult plain = solve_nsgs(p, r0, u0, o, ws);
  EXPECT_EQ(plain.status, SolverStatus::max_iterations);
  EXPECT_EQ(plain.drift_jumps, 0);
  o.drift_jump = true;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::converged) << res.error;
  EXPECT_GT(res.drift_jumps, 0);
  EXPECT_LT(res.iterations, 5000);
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
  for (int a = 0; a < p.contact_count; ++a)
    EXPECT_LE(r[a].tail<2>().norm(), p.laws[a] * r[a][0] * (1.0 + 1e-9) + 1e-300) << a;
}

// The stalled pile problems of tests/data/pile/ and the time stepping's options for them
// (tolerance 1e-10, Anderson depth 5, errors checked at most every 20 sweeps), capped at 2000.
ForceProblem pile_problem(const std::string& name) {
  return read_problem<kForce>(std::string(COULOMB_SOURCE_DIR) + "/tests/data/pile/" + name);
}
SolverOptions pile_options() {
  SolverOptions o;
  o.tolerance = 1e-10;
  o.max_iterations = 2000;
  o.error_check_interval = 20;
  o.anderson_depth = 5;
  return o;
}

// A jump that led to no progress makes the next one wait twice as long. Introduced on
// Capsules-i100-1090 (Anderson depth 5: jumps of s* ≈ 21 reached a contact that the sweeps
// pushed straight back, each restarting Anderson's history; 1495 sweeps without the rule, 266
// with it). Since the drift watch under Anderson compares each step with the mean of the steps
// (kDriftMeanWeight, nsgs_loop.hpp) that file takes 463 sweeps without the rule and 472 with it,
// so the rule is tested where it still decides: the last problem of step 543 of a moving pile of
// 1000 spheres (tests/data/pile/README.md; 1490 contacts, tolerance 1e-10, Anderson depth 5),
// 590 sweeps with the rule, 2727 without (2000 sweeps: 9.8e-7). Measured counts: the bound
// leaves room for another machine's round-off, not for the rule's loss.
TEST(NsgsDriftJump, AJumpWithoutProgressDelaysTheNext) {
  const ForceProblem p = pile_problem("drop-pile-1000-step543.hdf5");
  ASSERT_EQ(p.contact_count, 1490);
  SolverWorkspace<kForce> ws;
  SolverOptions o = pile_options();
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::converged) << res.error;
  EXPECT_GT(res.drift_jumps, 1);
  EXPECT_LT(res.iterations, 1000);
  RecordProperty("sweeps", res.iterations);
  RecordProperty("jumps", res.drift_jumps);
}

// The drift under Anderson acceleration: on the last problem of step 416 of a moving pile of 1000
// spheres (tests/data/pile/README.md; 1044 contacts, the time stepping's tolerance 1e-10 and
// Anderson depth 5) the error stands at 5.46e-8 from sweep ~100 while r drifts, and the steps
// f = G(x) − x of the extrapolated iterates scatter about the drift by up to a fifth of it:
// compared with the last step (the watch of plain sweeps) they never repeated five times in a row
// and 5000 sweeps ended at 5.46e-8 without a jump. Compared with their mean
// (kDriftMeanWeight, nsgs_loop.hpp) the drift is found: 222 sweeps, measured; the bound leaves
// room for another machine's round-off, and the solve without the jump shows that the jump is
// what solves it.
TEST(NsgsDriftJump, IsFoundUnderAndersonOnAPileProblem) {
  const ForceProblem p = pile_problem("drop-pile-1000-step416.hdf5");
  ASSERT_EQ(p.contact_count, 1044);
  SolverWorkspace<kForce> ws;
  SolverOptions o = pile_options();
  o.drift_jump = false;
  std::vector<Vec3> r0, u0;
  const SolverResult no_jump = solve_nsgs(p, r0, u0, o, ws);
  EXPECT_EQ(no_jump.status, SolverStatus::max_iterations) << no_jump.error;
  EXPECT_GT(no_jump.error, 1e-8);
  o.drift_jump = true;
  std::vector<Vec3> r, u;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::converged) << res.error;
  EXPECT_GT(res.drift_jumps, 0);
  EXPECT_LT(res.iterations, 600);
  RecordProperty("sweeps", res.iterations);
  RecordProperty("jumps", res.drift_jumps);
  // The answer is a sweep's iterate on the cones with its true error.
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
  for (int a = 0; a < p.contact_count; ++a)
    EXPECT_LE(r[a].tail<2>().norm(), p.laws[a] * r[a][0] * (1.0 + 1e-9) + 1e-300) << a;
}

// With Anderson acceleration (depth 5, the time stepping's default; errors checked at most every
// 20 sweeps as `coulomb fclib` does), NSGS solves four of the five limitation files above and
// needs 3–20 times fewer sweeps on the large ones (docs/nonsmooth-solvers.md, "Anderson
// acceleration"): only OneObject-i100000-499 stays out of reach in 10^4 sweeps.
const std::set<std::string> kAndersonLimitations = {"OneObject-i100000-499.hdf5"};

class NsgsAndersonFclib : public ::testing::TestWithParam<testing::FclibEntry> {};

TEST_P(NsgsAndersonFclib, FromZeroReaches1e8) {
  const testing::FclibEntry& entry = GetParam();
  const ForceProblem p = file_problem(entry.file);
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
  SolverOptions o = fclib_options();
  o.error_check_interval = 20;
  o.anderson_depth = 5;
  const SolverResult res = solve_nsgs(p, r, u, o, ws);
  // The answer is a sweep's iterate (every r_α in its cone) with its true error.
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
  for (int a = 0; a < p.contact_count; ++a)
    EXPECT_LE(r[a].tail<2>().norm(), p.laws[a] * r[a][0] * (1.0 + 1e-9) + 1e-300) << a;
  if (kAndersonLimitations.count(entry.file) != 0) {
    EXPECT_NE(res.status, SolverStatus::converged) << entry.file << " now converges";
    EXPECT_TRUE(std::isfinite(res.error));
  } else {
    EXPECT_EQ(res.status, SolverStatus::converged) << entry.file << " error " << res.error;
    EXPECT_LE(res.error, 1e-8);
  }
  // Never more sweeps than plain NSGS on the problems that both solve by a wide margin (the
  // measured gain is 3–20×); a factor 2 leaves room for another machine's round-off.
  if (kNsgsLimitations.count(entry.file) == 0 && res.iterations > 200) {
    std::vector<Vec3> r0, u0;
    SolverOptions plain = o;
    plain.anderson_depth = 0;
    const SolverResult base = solve_nsgs(p, r0, u0, plain, ws);
    EXPECT_LT(res.iterations, 2 * base.iterations) << entry.file;
  }
}

INSTANTIATE_TEST_SUITE_P(AllFiles, NsgsAndersonFclib, ::testing::ValuesIn(testing::fclib_entries()),
                         [](const auto& info) {
                           return testing::fclib_test_name(info.param.file);
                         });

// ---------------------------------------------------------------------------------------------
// Six unknowns per contact (WrenchProblem)
// ---------------------------------------------------------------------------------------------

using Law = ContactLaw6;

// nc contacts on nb = nc rigid bodies, W = J M⁻¹ Jᵀ with a random full-rank J (6nc × 6nb) plus a
// small diagonal (positive definite: a unique solution), random q with q_N < 0, mixed laws.
WrenchProblem random_problem(int nc, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  const int n = 6 * nc;
  Eigen::MatrixXd j(n, n);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) j(a, b) = g(rng) / std::sqrt(n);
  }
  const Eigen::MatrixXd w = j * j.transpose() + 0.05 * Eigen::MatrixXd::Identity(n, n);
  WrenchProblem p;
  p.contact_count = nc;
  p.row_start.push_back(0);
  for (int a = 0; a < nc; ++a) {
    for (int b = 0; b < nc; ++b) {
      if (a == b) p.diag.push_back(static_cast<std::int32_t>(p.col.size()));
      p.col.push_back(b);
      p.blocks.push_back(w.block<6, 6>(6 * a, 6 * b));
    }
    p.row_start.push_back(static_cast<std::int32_t>(p.col.size()));
    Vec6 q;
    for (int i = 0; i < 6; ++i) q[i] = g(rng);
    q[0] = -std::abs(q[0]) - 0.2;
    p.q.push_back(q);
    Law law;
    law.mu = 0.2 + 0.3 * std::abs(g(rng));
    law.k = 0.1 * std::abs(g(rng));
    switch (a % 3) {
      case 0:
        law.h = 0.1 * std::abs(g(rng));
        break;
      case 1:
        law.coupling = Law::Coupling::ellipsoid;
        law.a = 0.3;
        break;
      default:
        law.coupling = Law::Coupling::exact;
        law.a = 0.3;
    }
    p.laws.push_back(law);
  }
  p.validate();
  return p;
}

// Dense reference: the projected fixed point r̃ ← P_K̃(r̃ − ρ û~(r)) on the whole problem (the map
// whose residual the error measures), in the scaled variables, ρ = 0.5/λ_max(W̃), run until the
// update is below 1e-15 (or 2·10⁵ iterations). Independent of NSGS and of the local solver.
std::vector<Vec6> fixed_point_reference(const WrenchProblem& p, int& iterations) {
  const int nc = p.contact_count;
  Eigen::MatrixXd w = p.dense_w();
  Eigen::VectorXd sc(6 * nc), q(6 * nc);
  for (int a = 0; a < nc; ++a) {
    for (int i = 0; i < 6; ++i) sc[6 * a + i] = i == 3 ? p.laws[a].moment_scale() : 1.0;
    q.segment<6>(6 * a) = p.q[a];
  }
  // W̃ = S⁻¹ W S⁻¹, q̃ = S⁻¹ q with S⁻¹ = diag(sc).
  const Eigen::MatrixXd ws = sc.asDiagonal() * w * sc.asDiagonal();
  const Eigen::VectorXd qs = sc.asDiagonal() * q;
  const double lmax = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(ws).eigenvalues().maxCoeff();
  const double rho = 0.5 / lmax;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(6 * nc);
  iterations = 0;
  for (int it = 0; it < 200000; ++it) {
    const Eigen::VectorXd u = ws * r + qs;
    Eigen::VectorXd next(6 * nc);
    for (int a = 0; a < nc; ++a) {
      Eigen::Matrix<double, 5, 1> wv = u.segment<5>(6 * a + 1);
      wv[2] /= p.laws[a].moment_scale();  // support6 takes raw velocities
      Vec6 uh = u.segment<6>(6 * a);
      uh[0] += support6(p.laws[a], -wv);
      next.segment<6>(6 * a) = project_on_cone6(p.laws[a], Vec6(r.segment<6>(6 * a) - rho * uh));
    }
    const double change = (next - r).norm();
    r = next;
    iterations = it + 1;
    if (change <= 1e-15 * r.norm()) break;
  }
  std::vector<Vec6> out(static_cast<std::size_t>(nc));
  for (int a = 0; a < nc; ++a) {
    out[a] = r.segment<6>(6 * a);
    out[a][3] *= p.laws[a].moment_scale();
  }
  return out;
}

TEST(Nsgs, WrenchMomentsAgainstDenseFixedPointReference) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const WrenchProblem p = random_problem(4, seed);
    int ref_iterations = 0;
    const std::vector<Vec6> ref = fixed_point_reference(p, ref_iterations);
    std::vector<Vec6> u_ref;
    p.velocity(ref, u_ref);
    const double ref_error = contact_error(p, ref, u_ref);
    ASSERT_LE(ref_error, 1e-12) << "reference did not converge, seed " << seed;
    std::vector<Vec6> r, u;
    SolverWorkspace<kWrench> ws;
    SolverOptions o;
    o.tolerance = 1e-13;
    o.max_iterations = 5000;
    const SolverResult res = solve(p, r, u, o, ws);
    ASSERT_EQ(res.status, SolverStatus::converged) << seed;
    EXPECT_STREQ(res.method, "nsgs6");
    // W positive definite: the solution is isolated; both errors ≤ 1e-12 give r to ~1e-10.
    double diff = 0.0, norm = 0.0;
    for (int a = 0; a < p.contact_count; ++a) {
      diff += (r[a] - ref[a]).squaredNorm();
      norm += ref[a].squaredNorm();
    }
    EXPECT_LE(std::sqrt(diff / norm), 1e-9) << "seed " << seed;
    // Every contact is pressed and at least one moment is on its bound (a real test of moments).
    bool some_moment = false;
    for (int a = 0; a < p.contact_count; ++a) some_moment |= r[a].tail<3>().norm() > 1e-6;
    EXPECT_TRUE(some_moment);
  }
}

// A force problem and its wrench embedding solved from r = 0 with the same options: NSGS on the
// first, `solve` (NSGS on six unknowns) on the second.
struct BothForms {
  SolverResult res3, res6;
  std::vector<Vec3> r3;
  std::vector<Vec6> r6;
};
BothForms solve_both_forms(const ForceProblem& p3, const WrenchProblem& p6,
                           const SolverOptions& o) {
  BothForms b;
  std::vector<Vec3> u3;
  SolverWorkspace<kForce> ws3;
  b.res3 = solve_nsgs(p3, b.r3, u3, o, ws3);
  std::vector<Vec6> u6;
  SolverWorkspace<kWrench> ws6;
  b.res6 = solve(p6, b.r6, u6, o, ws6);
  return b;
}

TEST(Nsgs, WrenchEmbeddedFclibProblemsGiveTheThreeUnknownSolution) {
  // h = k = 0, no coupling, W zero-padded: the same law. Both solvers to 1e-11; r compared. The
  // iterates are compared without the drift jump: a jump moves r far along directions W barely
  // sees, where the round-off of the 6×6 products (a flatness test on the edge, s* in the last
  // bits) sends the two runs to different answers of a problem whose r is not unique (on
  // Capsules-i125-1213 both converge, 5795 and 5097 sweeps, r 8e-3 apart); the jump in the
  // embedded problem is checked at the end.
  for (const char* name : {"Rover4144.hdf5", "Confeti-ex13-Fc3D-SBM.hdf5", "NESpheres_10_1.hdf5",
                           "FC3D_Example1.hdf5", "Capsules-i125-1213.hdf5"}) {
    const ForceProblem p3 = read_problem<kForce>(testing::fclib_dir() + "/" + name);
    const WrenchProblem p6 = embed_problem(p3);
    SolverOptions o;
    o.tolerance = 1e-11;
    o.max_iterations = 20000;
    o.drift_jump = false;
    const auto [res3, res6, r3, r6] = solve_both_forms(p3, p6, o);
    ASSERT_EQ(res6.status, res3.status) << name;
    // The same sweep with the same exact local answers: iteration counts agree within a few.
    EXPECT_NEAR(res6.iterations, res3.iterations, 2 + 0.01 * res3.iterations) << name;
    double diff = 0.0, norm = 0.0;
    for (int a = 0; a < p3.contact_count; ++a) {
      EXPECT_EQ(r6[a].tail<3>(), Eigen::Vector3d::Zero());
      diff += (r6[a].head<3>() - r3[a]).squaredNorm();
      norm += r3[a].squaredNorm();
    }
    // Same iterates up to the local solves' round-off (1e-14), amplified by the sweeps: 1e-8.
    EXPECT_LE(std::sqrt(diff / std::max(norm, 1e-300)), 1e-8) << name;
    // The 6-unknown error of the embedded answer is the 3-unknown error of its (N, T) part.
    std::vector<Vec3> r6h(r6.size()), u6h;
    for (std::size_t a = 0; a < r6.size(); ++a) r6h[a] = r6[a].head<3>();
    p3.velocity(r6h, u6h);
    // Equal in exact arithmetic (contact_error6_test checks bit-level agreement on the same u);
    // here u comes from 6×6 vs 3×3 products, so they agree to the measure's round-off floor
    // 8ε(‖r‖(1 + 3 max|W|) + ‖q‖)/‖q‖ (1.6e-9 on the LMGC file, docs/nonsmooth-solvers.md).
    double rn = 0.0, qn = 0.0, wmax = 0.0;
    for (int a = 0; a < p3.contact_count; ++a) {
      rn += r3[a].squaredNorm();
      qn += p3.q[a].squaredNorm();
    }
    for (const Block3& b : p3.blocks) wmax = std::max(wmax, b.cwiseAbs().maxCoeff());
    const double floor =
        8.0 * 2.2e-16 * (std::sqrt(rn) * (1.0 + 3.0 * wmax) + std::sqrt(qn)) / std::sqrt(qn);
    EXPECT_NEAR(res6.error, contact_error(p3, r6h, u6h), std::max(1e-3 * res6.error, floor))
        << name;
    std::printf("%s: nsgs %d sweeps %.4f s, nsgs6 %d sweeps %.4f s\n", name, res3.iterations,
                res3.time_s, res6.iterations, res6.time_s);
  }
  // The drift jump of the embedded problem: a wrench contact without moment law is the force
  // contact and jumps as it does (its cone from ContactLaw6::mu). On Capsules-i125-1213 both forms
  // jump and converge; their answers are compared by the measure only, r not being unique there.
  const ForceProblem p3 = read_problem<kForce>(testing::fclib_dir() + "/Capsules-i125-1213.hdf5");
  const WrenchProblem p6 = embed_problem(p3);
  SolverOptions o;
  o.tolerance = 1e-11;
  o.max_iterations = 20000;
  const auto [res3, res6, r3, r6] = solve_both_forms(p3, p6, o);
  EXPECT_EQ(res3.status, SolverStatus::converged);
  EXPECT_EQ(res6.status, SolverStatus::converged);
  EXPECT_GT(res3.drift_jumps, 0);
  EXPECT_GT(res6.drift_jumps, 0);
  for (std::size_t a = 0; a < r6.size(); ++a) EXPECT_EQ(r6[a].tail<3>(), Eigen::Vector3d::Zero());
  RecordProperty("jumps3", res3.drift_jumps);
  RecordProperty("jumps6", res6.drift_jumps);
}

TEST(Nsgs, WrenchStatusesWarmStartAndDeterminism) {
  const WrenchProblem p = random_problem(5, 9);
  SolverWorkspace<kWrench> ws;
  SolverOptions o;
  o.tolerance = 1e-12;
  o.max_iterations = 1;
  std::vector<Vec6> r, u;
  SolverResult res = solve(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::max_iterations);
  std::vector<Vec6> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));  // the true error at exit
  o.max_iterations = 5000;
  res = solve(p, r, u, o, ws);
  ASSERT_EQ(res.status, SolverStatus::converged);
  // Warm start from the solution: no sweep.
  const std::vector<Vec6> r_sol = r;
  res = solve(p, r, u, o, ws);
  EXPECT_EQ(res.iterations, 0);
  // Bit-identical from the same start, also shuffled.
  o.shuffle = true;
  o.shuffle_seed = 5;
  std::vector<Vec6> ra, rb;
  solve(p, ra, u, o, ws);
  solve(p, rb, u, o, ws);
  for (std::size_t a = 0; a < ra.size(); ++a) EXPECT_EQ(ra[a], rb[a]);
  // Local solves short of their tolerance are counted as in the 3-unknown NSGS: a contact with
  // W_NN = 0 and q_N < 0 has no solution (u_N = q_N whatever r), one failure per sweep.
  {
    WrenchProblem q = p;
    const int a = 2;
    for (std::int32_t k = q.row_start[a]; k < q.row_start[a + 1]; ++k) q.blocks[k].row(0).setZero();
    for (int b = 0; b < q.contact_count; ++b) {
      for (std::int32_t k = q.row_start[b]; k < q.row_start[b + 1]; ++k) {
        if (q.col[k] == a) q.blocks[k].col(0).setZero();
      }
    }
    std::vector<Vec6> rf, uf;
    SolverOptions of;
    of.max_iterations = 3;
    const SolverResult failed = solve(q, rf, uf, of, ws);
    EXPECT_EQ(failed.status, SolverStatus::max_iterations);
    EXPECT_EQ(failed.local_failures, 1);
    EXPECT_EQ(failed.local_failures_total, 3);
    EXPECT_STREQ(failed.method, "nsgs6");
  }
  // Non-finite data is reported.
  WrenchProblem bad = p;
  bad.q[2][4] = std::nan("");
  std::vector<Vec6> rn;
  EXPECT_EQ(solve(bad, rn, u, o, ws).status, SolverStatus::non_finite);
}

TEST(Solve, ProxIsRejectedForTheWrenchProblem) {
  EXPECT_TRUE(solver_supports(SolverKind::prox, kForce));
  EXPECT_FALSE(solver_supports(SolverKind::prox, kWrench));
  EXPECT_TRUE(solver_supports(SolverKind::nsgs, kWrench));
  EXPECT_TRUE(solver_supports(SolverKind::automatic, kWrench));
  const WrenchProblem p = random_problem(2, 3);
  std::vector<Vec6> r(2, Vec6::Zero()), u;
  SolverWorkspace<kWrench> ws;
  EXPECT_THROW((void)solve(p, r, u, SolverOptions{}, ws, SolverKind::prox), std::invalid_argument);
  // `automatic` on six unknowns is NSGS alone.
  const SolverResult res = solve(p, r, u, SolverOptions{}, ws, SolverKind::automatic);
  EXPECT_STREQ(res.method, "nsgs6");
  EXPECT_EQ(res.status, SolverStatus::converged);
}

}  // namespace
}  // namespace coulomb
