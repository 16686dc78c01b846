// Tests of the proximal-point solver and of the dispatcher (src/nonsmooth/prox.cpp): PROX must
// solve the FCLIB problems that NSGS cannot (redundant contact sets), from r = 0, to 1e-8, and
// `auto` must solve every file of tests/data/fclib to 1e-8 (the FCLIB suite test).
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/prox.hpp>

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>

#include "nonsmooth/factored_data.hpp"
#include "nonsmooth/fclib_data.hpp"

namespace coulomb {
namespace {

ForceProblem file_problem(const std::string& name) {
  return read_problem<kForce>(testing::fclib_dir() + "/" + name);
}

class ProxFclib : public ::testing::TestWithParam<const char*> {};

TEST_P(ProxFclib, FromZeroReaches1e8) {
  const ForceProblem p = file_problem(GetParam());
  std::vector<Vec3> r, u;
  SolverOptions o;
  o.tolerance = 1e-8;
  // Newton iterations: measured 19..363 on these files (fclib_local_problem_test needs 363).
  o.max_iterations = 1000;
  const SolverResult res = solve_prox(p, r, u, o);
  EXPECT_EQ(res.status, SolverStatus::converged) << GetParam() << " error " << res.error;
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
  EXPECT_LE(res.error, 1e-8);
}

// The five problems NSGS cannot finish (nsgs_test.cpp), the largest ones (Capsules 225–296
// contacts, Kaplas 570: sparse Newton systems) and two small ones.
INSTANTIATE_TEST_SUITE_P(Files, ProxFclib,
                         ::testing::Values("OneObject-i100000-316.hdf5",
                                           "OneObject-i100000-499.hdf5",
                                           "fclib_local_problem_test.hdf5",
                                           "BoxesStack1-i100000-32.hdf5", "Capsules-i122-1617.hdf5",
                                           "Capsules-i101-404.hdf5", "KaplasTower-i1061-4.hdf5",
                                           "Rover4144.hdf5", "NESpheres_10_1.hdf5"));

// The FCLIB suite: every file of tests/data/fclib from r = 0 with `auto` to 1e-8, within the caps
// of 10^4 NSGS sweeps and 10^4 Newton iterations (no wall-clock limit: a loaded machine must not
// fail it; the times are in docs/nonsmooth-solvers.md, measured on a shared 2-core machine: at most
// 0.15 s per file, 1.3 s for the 35 files).
class AutoFclib : public ::testing::TestWithParam<testing::FclibEntry> {};

TEST_P(AutoFclib, FromZeroReaches1e8) {
  const testing::FclibEntry& entry = GetParam();
  const ForceProblem p = file_problem(entry.file);
  ASSERT_EQ(p.contact_count, entry.contacts);
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 10000;
  o.error_check_interval = 20;
  const SolverResult res = solve(p, r, u, o, ws, SolverKind::automatic);
  EXPECT_EQ(res.status, SolverStatus::converged) << entry.file << " error " << res.error;
  // The error, recomputed from the returned r, is the reported one and below the tolerance.
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
  EXPECT_LE(res.error, 1e-8) << entry.file;
}

INSTANTIATE_TEST_SUITE_P(AllFiles, AutoFclib, ::testing::ValuesIn(testing::fclib_entries()),
                         [](const auto& info) {
                           return testing::fclib_test_name(info.param.file);
                         });

TEST(Solve, AutoStallsOverToProxQuickly) {
  // Capsules-i122-1617: NSGS needs > 10^4 sweeps (nsgs_test.cpp); the stall test hands over to
  // PROX, which restarts from the caller's warm start (here 0).
  const ForceProblem p = file_problem("Capsules-i122-1617.hdf5");
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 10000;
  const SolverResult res = solve(p, r, u, o, ws, SolverKind::automatic);
  EXPECT_EQ(res.status, SolverStatus::converged);
  EXPECT_STREQ(res.method, "nsgs+prox");
  EXPECT_LT(res.iterations, 2000);  // sweeps until the stall + Newton iterations
}

TEST(Solve, MaxTimeBoundsProx) {
  // The limit is checked before every Newton iteration: with a limit of 0 s PROX stops before
  // the first one (status max_time, 0 iterations) and returns its start with its true error.
  // Counted in iterations, not seconds, so that a loaded machine cannot fail it.
  const ForceProblem p = file_problem("KaplasTower-i1061-4.hdf5");
  std::vector<Vec3> r, u;
  SolverOptions o;
  o.tolerance = 1e-14;
  o.max_time_s = 0.0;
  const SolverResult res = solve_prox(p, r, u, o);
  EXPECT_EQ(res.status, SolverStatus::max_time);
  EXPECT_EQ(res.iterations, 0);
  EXPECT_EQ(res.error, res.start_error);
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
}

TEST(Solve, KindNames) {
  SolverKind k = SolverKind::nsgs;
  ASSERT_TRUE(parse_solver_kind("auto", k));
  EXPECT_EQ(k, SolverKind::automatic);
  ASSERT_TRUE(parse_solver_kind("prox", k));
  EXPECT_EQ(k, SolverKind::prox);
  EXPECT_FALSE(parse_solver_kind("newton", k));
  EXPECT_STREQ(to_string(SolverKind::automatic), "auto");
}

TEST(Solve, AutomaticFallsBackToProx) {
  const ForceProblem p = file_problem("OneObject-i100000-499.hdf5");
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 200;
  const SolverResult nsgs_only = solve(p, r, u, o, ws, SolverKind::nsgs);
  EXPECT_EQ(nsgs_only.status, SolverStatus::max_iterations);
  r.clear();
  const SolverResult res = solve(p, r, u, o, ws, SolverKind::automatic);
  EXPECT_EQ(res.status, SolverStatus::converged);
  EXPECT_LE(res.error, 1e-8);
  EXPECT_STREQ(res.method, "nsgs+prox");
  // NSGS stalls (no halving of the error in kAutoStallWindow sweeps) before its cap of 200; its
  // sweeps are counted too.
  EXPECT_GT(res.iterations, kAutoStallWindow);
}

// ---- The e = 1 chain (tests/data/chain): the step after the impact ----

ForceProblem chain_problem(const std::string& name) {
  return read_problem<kForce>(std::string(COULOMB_SOURCE_DIR) + "/tests/data/chain/" + name);
}

// The warm start the run gave the step after the impact: the impact step's impulses of the same
// four contacts (contacts 1–4 of impact.hdf5 are contacts 0–3 of after-impact.hdf5), ~1 N s,
// while this step's q is round-off (~1e-14 m/s): a start of relative error ~1e14.
std::vector<Vec3> stale_warm_start() {
  const ForceProblem impact = chain_problem("impact.hdf5");
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
  SolverOptions o;
  o.tolerance = 1e-12;
  EXPECT_EQ(solve_nsgs(impact, r, u, o, ws).status, SolverStatus::converged);
  return {r[1], r[2], r[3], r[4]};
}

TEST(Solve, ChainAfterImpactEverySolverBeatsItsStaleWarmStart) {
  // Measured before the start rule: PROX from this warm start ended at error 4.6e13 (the file's
  // /solution; η at its cap 1e4 s, steps of 1e-4 of the way) and the run applied the impact
  // impulses twice: the kinetic energy of the row went from 0.5 J to 1.69 J. Now every solver
  // sees the warm start's error above kWarmStartFactor times that of r = 0 (error 1 here), starts
  // from r = 0, returns a finite answer no worse than that, and converges.
  const ForceProblem p = chain_problem("after-impact.hdf5");
  ASSERT_EQ(p.contact_count, 4);
  const std::vector<Vec3> warm = stale_warm_start();
  std::vector<Vec3> u0;
  p.velocity(warm, u0);
  const double warm_error = contact_error(p, warm, u0);
  ASSERT_GT(warm_error, 1e10);  // the trap
  for (const SolverKind kind : {SolverKind::nsgs, SolverKind::prox, SolverKind::automatic}) {
    SCOPED_TRACE(to_string(kind));
    std::vector<Vec3> r = warm, u;
    SolverWorkspace<kForce> ws;
    SolverOptions o;
    o.tolerance = 1e-10;
    const SolverResult res = solve(p, r, u, o, ws, kind);
    EXPECT_TRUE(res.cold_start);
    EXPECT_LE(res.start_error, 1.0);  // r = 0: ‖P_K(−q)‖/‖q‖ <= 1 for μ = 0
    EXPECT_TRUE(std::isfinite(res.error));
    EXPECT_LE(res.error, res.start_error);
    EXPECT_FALSE(res.fell_back);
    EXPECT_EQ(res.status, SolverStatus::converged);
    for (const Vec3& x : r) {
      EXPECT_TRUE(x.allFinite());
      // The impulses are round-off sized (|q| ~ 1e-14 m/s, W ~ 1/kg): nothing like the 1 N s of
      // the warm start. 1e-12 N s: 100 times the size of q in these units.
      EXPECT_LT(x.norm(), 1e-12);
    }
    std::vector<Vec3> u2;
    p.velocity(r, u2);
    EXPECT_EQ(res.error, contact_error(p, r, u2));
  }
}

// A single contact with an indefinite W = diag(w_N, w_T, w_T), w_N < 0: invalid input with no
// solution (u_N = w_N r_N + q_N < 0 for every r_N >= 0 when q_N < 0), as a stress test.
ForceProblem indefinite(double w_n, double w_t) {
  ForceProblem p;
  p.contact_count = 1;
  p.laws = {0.0};
  p.q = {Vec3(-1.0, 0.0, 0.0)};
  p.row_start = {0, 1};
  p.col = {0};
  p.diag = {0};
  Block3 w = Block3::Identity();
  w(0, 0) = w_n;
  w(1, 1) = w_t;
  w(2, 2) = w_t;
  p.blocks = {w};
  return p;
}

TEST(Solve, ProxStopsWhenItDivergesAndKeepsItsStart) {
  // Proximal steps on a positive semi-definite W are non-expansive; divergence needs a problem
  // that is not (friction, or bad data). Here: contact A ordinary (W = I, q = (−1, 0, 0)), and
  // contact B with an indefinite diagonal W_B = diag(w, 1, 1), w < 0, q_B = (−1e-3, 0, 0). The warm
  // start r_A = 1, r_B = 0 solves A and has error e0 = 1e-3/‖q‖. PROX's first η = 5 e0 s (s = mean
  // |diag W| = (5 + |w|)/6) is set here to −w + 1e-6, so the regularised row of B is 1e-6 and the
  // first proximal iterate has r_B = 1e-3/1e-6 = 1000, error |w| 1000 ≈ 4.2: 4000 times e0,
  // above kDivergenceFactor (1e3). PROX must stop there (`diverged`), keep its best iterate (the
  // start) and say it fell back.
  ForceProblem p = indefinite(-1.0, 1.0);
  p.contact_count = 2;
  p.laws = {0.0, 0.0};
  p.q = {Vec3(-1.0, 0.0, 0.0), Vec3(-1e-3, 0.0, 0.0)};
  p.row_start = {0, 1, 2};
  p.col = {0, 1};
  p.diag = {0, 1};
  const double e0 = 1e-3 / std::sqrt(1.0 + 1e-6);
  const double c = 5.0 * e0 / 6.0;
  const double w = -(5.0 * c - 1e-6) / (1.0 - c);  // |w| = c (5 + |w|) − 1e-6
  Block3 wb = Block3::Identity();
  wb(0, 0) = w;
  p.blocks = {Block3::Identity(), wb};
  const std::vector<Vec3> start = {Vec3(1.0, 0.0, 0.0), Vec3::Zero()};
  std::vector<Vec3> r = start, u;
  SolverOptions o;
  o.max_iterations = 1000;
  const SolverResult res = solve_prox(p, r, u, o);
  EXPECT_EQ(res.status, SolverStatus::diverged);
  EXPECT_TRUE(res.fell_back);
  EXPECT_FALSE(res.cold_start);
  EXPECT_NEAR(res.start_error, e0, 1e-15);
  EXPECT_LT(res.iterations, 10);
  EXPECT_EQ(res.error, res.start_error);
  EXPECT_EQ(r[0], start[0]);
  EXPECT_EQ(r[1], start[1]);
}

TEST(Solve, ProxStopsWhenItStalls) {
  // w_N = −1, w_T = 1 (s = 1): every proximal step from r = 0 lands on a worse iterate (error
  // 1 + r_N > 1), so PROX restarts from its best with 10 η until η reaches its cap (1e4 s), where
  // a step moves r by ~1e-4 of the way: it stops as `stalled` instead of spending its iteration
  // budget, with the start as its answer (no iterate was better).
  const ForceProblem p = indefinite(-1.0, 1.0);
  std::vector<Vec3> r, u;
  SolverOptions o;
  o.max_iterations = 1000;
  const SolverResult res = solve_prox(p, r, u, o);
  EXPECT_EQ(res.status, SolverStatus::stalled);
  EXPECT_LT(res.iterations, 100);
  EXPECT_EQ(res.error, res.start_error);
  EXPECT_EQ(r[0], Vec3::Zero());
}

// ---- A hard step of the ten-box stack (tests/data/stack): PROX from the warm start stagnates,
// from r = 0 it converges; `auto` tries both.
TEST(Solve, AutoRetriesProxFromZeroOnAStack) {
  const std::string path =
      std::string(COULOMB_SOURCE_DIR) + "/tests/data/stack/box-stack-10-step6659.hdf5";
  const ForceProblem p = read_problem<kForce>(path);
  const std::optional<ContactSolution<kForce>> warm = read_solution<kForce>(path);
  ASSERT_TRUE(warm.has_value());
  SolverOptions options;
  options.tolerance = 1e-10;
  options.max_iterations = 500;
  options.error_check_interval = 20;
  // PROX alone from the warm start: not converged within its 500 iterations (measured 5.9e-8).
  std::vector<Vec3> r = warm->r, u;
  const SolverResult prox = solve_prox(p, r, u, options);
  EXPECT_NE(prox.status, SolverStatus::converged) << prox.error;
  // From r = 0 it converges (measured 1.1e-14 in 203 iterations).
  r.assign(r.size(), Vec3::Zero());
  EXPECT_EQ(solve_prox(p, r, u, options).status, SolverStatus::converged);
  // `auto` from the warm start: NSGS stalls, PROX stagnates, PROX from zero converges.
  SolverWorkspace<kForce> ws;
  r = warm->r;
  const SolverResult automatic = solve(p, r, u, options, ws, SolverKind::automatic);
  EXPECT_EQ(automatic.status, SolverStatus::converged);
  EXPECT_LE(automatic.error, 1e-10);
  EXPECT_STREQ(automatic.method, "nsgs+prox");
}

TEST(Solve, NonFiniteIsReported) {
  ForceProblem p = file_problem("Rover4144.hdf5");
  p.q[0][1] = std::nan("");
  std::vector<Vec3> r, u;
  EXPECT_EQ(solve_prox(p, r, u, SolverOptions{}).status, SolverStatus::non_finite);
}

// PROX on the factored problem solves its Newton systems in body space (prox_body.cpp); the
// iteration is the same as PROX on the assembled problem (contact space): the same Newton
// iterations and, to round-off of the two linear solves, the same answer.
TEST(ProxBodySpace, SameIterationsAndAnswerAsContactSpace) {
  for (const unsigned seed : {11u, 12u, 13u, 14u}) {
    const FactoredForceProblem p = testing::random_factored(10, 40, seed, 0.3);
    const ForceProblem a = p.assembled();
    SolverOptions o;
    o.tolerance = 1e-12;
    o.max_iterations = 500;
    std::vector<Vec3> rb, ub, ra, ua;
    const SolverResult body = solve_prox(p, rb, ub, o);
    const SolverResult contact = solve_prox(a, ra, ua, o);
    // Equal paths: the status and the Newton iterations (PROX stalls on seed 12 in both forms,
    // at the same error), then the answer.
    EXPECT_EQ(body.status, contact.status) << seed;
    EXPECT_EQ(body.iterations, contact.iterations) << seed;
    EXPECT_NEAR(body.error, contact.error, 1e-6 * contact.error + 1e-13) << seed;
    if (contact.status != SolverStatus::converged) continue;
    EXPECT_LE(body.error, 1e-12);
    // The answer: W is not positive definite (40 contacts on 10 bodies), so r need not be
    // unique; the velocities are.
    double diff = 0.0, scale = 0.0;
    for (int i = 0; i < p.contact_count; ++i) {
      diff = std::max(diff, (ub[i] - ua[i]).norm());
      scale = std::max(scale, p.q[i].norm());
    }
    EXPECT_LE(diff, 1e-9 * scale) << seed;
  }
}

// SolverOptions::max_work bounds the body-space Newton by its estimated cost: each iteration
// counts 1 + kNewtonWorkPerFill nnz(L + U) / nc sweeps, so a budget of a few iterations' worth
// stops PROX there (status max_iterations, its best iterate), with the work reported; the first
// iterations are those of the unbounded solve (the bound changes when PROX stops, not how it runs).
TEST(ProxBodySpace, MaxWorkStopsNewtonByItsEstimatedCost) {
  const FactoredForceProblem p = testing::random_factored(10, 40, 11u, 0.3);
  SolverOptions o;
  o.tolerance = 1e-12;
  o.max_iterations = 500;
  std::vector<Vec3> r, u;
  const SolverResult free = solve_prox(p, r, u, o);
  ASSERT_GT(free.iterations, 3);
  const double per_iteration = free.work / free.iterations;
  EXPECT_GT(per_iteration, 1.0);  // at least the sweep-like part of an iteration
  o.max_work = 2.5 * per_iteration;
  std::vector<Vec3> rb, ub;
  const SolverResult bounded = solve_prox(p, rb, ub, o);
  EXPECT_EQ(bounded.status, SolverStatus::max_iterations);
  EXPECT_GE(bounded.work, o.max_work);
  EXPECT_LE(bounded.iterations, 3);
  EXPECT_GT(bounded.error, o.tolerance);
  // Its answer is its best iterate, no worse than the start.
  EXPECT_LE(bounded.error, bounded.start_error);
  // The assembled problem has no estimate: the bound does not apply.
  std::vector<Vec3> ra, ua;
  const SolverResult assembled = solve_prox(p.assembled(), ra, ua, o);
  EXPECT_EQ(assembled.iterations, free.iterations);
}

// SolverOptions::max_iteration_work: where one Newton iteration is dearer than the bound, PROX
// stops at its first iteration without taking the step (before factorising: the block LU's cost
// is known from the structure); its answer is its start.
TEST(ProxBodySpace, MaxIterationWorkStopsAtTheFirstIteration) {
  const FactoredForceProblem p = testing::random_factored(10, 40, 11u, 0.3);
  SolverOptions o;
  o.tolerance = 1e-12;
  std::vector<Vec3> r, u;
  const SolverResult free = solve_prox(p, r, u, o);
  ASSERT_GT(free.iterations, 1);
  o.max_iteration_work = 0.5 * free.work / free.iterations;  // below every iteration's estimate
  std::vector<Vec3> rb, ub;
  const SolverResult bounded = solve_prox(p, rb, ub, o);
  EXPECT_EQ(bounded.iterations, 1);
  EXPECT_NE(bounded.status, SolverStatus::converged);
  EXPECT_EQ(bounded.error, bounded.start_error);
  // Bounded above every iteration's estimate: the same solve as without a bound.
  o.max_iteration_work = 10.0 * free.work;
  std::vector<Vec3> rc, uc;
  EXPECT_EQ(solve_prox(p, rc, uc, o).iterations, free.iterations);
}

// The cost of an iteration by the block LU is known from the contact graph's structure (the fill
// of the Cholesky factor of the body graph under AMD): an iteration above max_iteration_work is
// refused before any factorisation, one at the limit is not, and an iteration factorised by the
// block LU costs exactly that figure; one that falls back on the pivoting LU (its backward error
// not at round-off after refinement: two of this solve's iterations) costs more, both
// factorisations.
TEST(ProxBodySpace, AnIterationTooDearByTheGraphsStructureIsRefusedBeforeItsFactorisation) {
  const FactoredForceProblem p = testing::random_factored(30, 90, 10u, 0.3);
  SolverOptions o;
  o.tolerance = 1e-12;
  std::vector<Vec3> r0, u0;
  const SolverResult free = solve_prox(p, r0, u0, o);
  ASSERT_GT(free.iterations, 1);
  ASSERT_EQ(free.status, SolverStatus::converged);
  // A limit below every estimate: refused by the structure, the start returned.
  o.max_iteration_work = 1e-9;
  std::vector<Vec3> ra, ua;
  const SolverResult by_structure = solve_prox(p, ra, ua, o);
  EXPECT_EQ(by_structure.iterations, 1);
  EXPECT_TRUE(by_structure.refused_by_structure);
  EXPECT_NE(by_structure.status, SolverStatus::converged);
  for (const Vec3& x : ra) EXPECT_EQ(x, Vec3::Zero());
  const double estimate = by_structure.work;
  // The figure is that of its formula: l, the nonzeros of the Cholesky factor of the body graph
  // (bodies in contact, and each body itself) under AMD, here from Eigen's own symbolic analysis
  // of the graph's Laplacian plus the identity.
  {
    std::vector<Eigen::Triplet<double>> t;
    for (int b = 0; b < p.body_count; ++b) t.emplace_back(b, b, 100.0);
    for (int a = 0; a < p.contact_count; ++a) {
      if (p.body1[a] < 0 || p.body2[a] < 0 || p.body1[a] == p.body2[a]) continue;
      t.emplace_back(p.body1[a], p.body2[a], -1.0);
      t.emplace_back(p.body2[a], p.body1[a], -1.0);
    }
    Eigen::SparseMatrix<double> graph(p.body_count, p.body_count);
    graph.setFromTriplets(t.begin(), t.end());  // duplicates summed: one entry per pair
    const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>>
        cholesky(graph);
    ASSERT_EQ(cholesky.info(), Eigen::Success);
    const auto blocks = static_cast<double>(cholesky.matrixL().nestedExpression().nonZeros());
    const double nb = p.body_count;
    EXPECT_NEAR(estimate,
                1.0 + kNewtonWorkPerFill * 36.0 * (2.0 * (blocks - nb) + nb) / p.contact_count,
                1e-12 * estimate);
  }
  // One iteration at the limit: factorised by the block LU, counted at the figure.
  o.max_iterations = 1;
  o.max_iteration_work = estimate;
  std::vector<Vec3> rb, ub;
  const SolverResult at_limit = solve_prox(p, rb, ub, o);
  EXPECT_FALSE(at_limit.refused_by_structure);
  EXPECT_EQ(at_limit.iterations, 1);
  EXPECT_EQ(at_limit.work, estimate);
  EXPECT_LT(at_limit.error, free.start_error) << "the step was taken";
  // Just below it: refused.
  o.max_iteration_work = estimate * (1.0 - 1e-9);
  std::vector<Vec3> rc, uc;
  const SolverResult below = solve_prox(p, rc, uc, o);
  EXPECT_EQ(below.iterations, 1);
  EXPECT_TRUE(below.refused_by_structure);
  for (const Vec3& x : rc) EXPECT_EQ(x, Vec3::Zero());
  // The free solve: its iterations at the figure, but for the fall-backs, which add the pivoting
  // LU's.
  EXPECT_GT(free.work, free.iterations * estimate + 1.0);
  // `auto` takes the refusal for what it is: no second PROX from zero, one Newton iteration.
  SolverOptions a;
  a.tolerance = 1e-14;
  a.max_iterations = 3;  // NSGS cannot converge in 3 sweeps: auto hands over
  a.max_iteration_work = 0.5 * estimate;
  std::vector<Vec3> rw(static_cast<std::size_t>(p.contact_count), Vec3(0.1, 0.0, 0.0)), uw;
  SolverWorkspace<kForce> ws;
  const SolverResult automatic = solve(p, rw, uw, a, ws, SolverKind::automatic);
  EXPECT_EQ(automatic.newton_iterations, 1);
}

// auto on a factored problem of more than kAutoNewtonMaxBodies bodies: NSGS alone, to its cap,
// never PROX (whose body-space LU would grow faster than the bodies); below it, the hand-over.
TEST(ProxBodySpace, AutoLeavesLargeProblemsToNsgs) {
  SolverOptions o;
  o.tolerance = 1e-14;
  o.max_iterations = 3;  // NSGS cannot converge in 3 sweeps: auto would hand over
  for (const int bodies : {50, kAutoNewtonMaxBodies + 1}) {
    SCOPED_TRACE(bodies);
    const FactoredForceProblem p = testing::random_factored(bodies, 2 * bodies, 31u, 0.3);
    std::vector<Vec3> r, u;
    SolverWorkspace<kForce> ws;
    const SolverResult result = solve(p, r, u, o, ws, SolverKind::automatic);
    if (bodies > kAutoNewtonMaxBodies) {
      EXPECT_STREQ(result.method, "nsgs");
      EXPECT_EQ(result.iterations, 3);
      EXPECT_EQ(result.newton_iterations, 0);
    } else {
      EXPECT_STREQ(result.method, "nsgs+prox");
      EXPECT_GT(result.newton_iterations, 0);
    }
  }
}

// auto when NSGS stalls and PROX cannot finish (here: stopped after its first factorisation as
// too dear, as on a 3-D heap): NSGS goes on from the better answer for the sweeps the stall test
// left, without the test, and reaches the tolerance that plain NSGS reaches; the memory of `auto`
// does not then prefer Newton. With no sweep left, the answer stays PROX's hand-over's.
TEST(Solve, AutoGoesOnWithNsgsWhenProxCannotFinish) {
  const FactoredForceProblem p = testing::random_factored(40, 40, 17u, 0.3);
  SolverOptions o;
  o.tolerance = 1e-10;
  o.max_iterations = 2000;
  std::vector<Vec3> r0, u0;
  SolverWorkspace<kForce> ws0;
  const SolverResult plain = solve(p, r0, u0, o, ws0, SolverKind::nsgs);
  ASSERT_EQ(plain.status, SolverStatus::converged);
  ASSERT_GT(plain.iterations, 4);
  o.stall_window = 2;
  o.stall_factor = 1e-12;       // stalls after two sweeps
  o.max_iteration_work = 1e-9;  // PROX stops after its first factorisation
  std::vector<Vec3> r, u;
  SolverWorkspace<kForce> ws;
  const SolverResult result = solve(p, r, u, o, ws, SolverKind::automatic);
  EXPECT_STREQ(result.method, "nsgs+prox+nsgs");
  EXPECT_EQ(result.status, SolverStatus::converged);
  EXPECT_LE(result.error, o.tolerance);
  EXPECT_LE(result.iterations, o.max_iterations + result.newton_iterations);
  EXPECT_FALSE(prefer_newton_next(result, true));
  // The reported error is the answer's.
  std::vector<Vec3> check(r.size());
  std::vector<Vec6d> nu;
  p.velocity(r, check, nu);
  EXPECT_EQ(contact_error(p, r, check), result.error);
  // No sweep left after the stall: PROX's hand-over answers, unconverged.
  o.max_iterations = 2;
  std::vector<Vec3> r2, u2;
  SolverWorkspace<kForce> ws2;
  const SolverResult capped = solve(p, r2, u2, o, ws2, SolverKind::automatic);
  EXPECT_STREQ(capped.method, "nsgs+prox");
  EXPECT_NE(capped.status, SolverStatus::converged);
}

// The symbolic analysis kept in the cache is reused while the pattern is unchanged and redone
// when it changes: the answers are those of a fresh solve.
TEST(ProxBodySpace, CacheFollowsThePattern) {
  BodyNewtonCachePtr cache;
  for (const unsigned seed : {21u, 21u, 22u, 21u}) {
    const FactoredForceProblem p = testing::random_factored(8, 24, seed, 0.3);
    SolverOptions o;
    o.tolerance = 1e-12;
    std::vector<Vec3> r1, u1, r2, u2;
    const SolverResult cached = solve_prox(p, r1, u1, o, &cache);
    const SolverResult fresh = solve_prox(p, r2, u2, o);
    EXPECT_EQ(cached.iterations, fresh.iterations);
    EXPECT_EQ(cached.error, fresh.error);
    for (int i = 0; i < p.contact_count; ++i) EXPECT_EQ(r1[i], r2[i]);
  }
}

// The memory of `auto`: Newton preferred after PROX answers in a few iterations, kept while the
// NSGS probe answers, dropped when PROX needs more or fails.
TEST(Solve, PreferNewtonNext) {
  SolverResult nsgs;
  nsgs.method = "nsgs";
  EXPECT_FALSE(prefer_newton_next(nsgs, false));
  EXPECT_TRUE(prefer_newton_next(nsgs, true));
  nsgs.status = SolverStatus::max_iterations;
  EXPECT_FALSE(prefer_newton_next(nsgs, true));
  SolverResult prox;
  prox.method = "nsgs+prox";
  prox.newton_iterations = kNewtonPreferredIterations;
  EXPECT_TRUE(prefer_newton_next(prox, false));
  EXPECT_TRUE(prefer_newton_next(prox, true));
  prox.newton_iterations = kNewtonPreferredIterations + 1;
  EXPECT_FALSE(prefer_newton_next(prox, true));
  prox.newton_iterations = 1;
  prox.status = SolverStatus::max_iterations;
  EXPECT_FALSE(prefer_newton_next(prox, true));
}

// With Newton preferred, `auto` probes NSGS for kNewtonProbeSweeps sweeps, then runs PROX.
TEST(Solve, PreferredNewtonRunsAfterAShortProbe) {
  const ForceProblem p = file_problem("BoxesStack1-i100000-32.hdf5");
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 10000;
  o.anderson_depth = 5;
  o.prefer_newton = true;
  SolverWorkspace<kForce> ws;
  std::vector<Vec3> r, u;
  const SolverResult res = solve(p, r, u, o, ws, SolverKind::automatic);
  EXPECT_EQ(res.status, SolverStatus::converged);
  EXPECT_STREQ(res.method, "nsgs+prox");
  EXPECT_EQ(res.iterations - res.newton_iterations, kNewtonProbeSweeps);
}

}  // namespace
}  // namespace coulomb
