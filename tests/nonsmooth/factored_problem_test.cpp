// Tests of FactoredProblem (src/nonsmooth/factored_problem.cpp): the assembled W and the velocity
// against a dense J M⁻¹ Jᵀ built independently, the colouring (no two contacts of a colour share
// a body; deterministic), NSGS on the factored form against NSGS on the assembled one (same order:
// the same iterates to round-off), the coloured sweep on every core reaching an answer of the law,
// and validate().
#include <coulomb/nonsmooth/factored_problem.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <gtest/gtest.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>

#include "nonsmooth/factored_data.hpp"

namespace coulomb {
namespace {

// Tolerance: W entries are O(1) sums of a few products; 1e-13 is a few hundred ulps.
constexpr double kRoundOff = 1e-13;

TEST(FactoredProblem, AssembledIsTheDenseProductJMinvJt) {
  const FactoredForceProblem p = testing::random_factored(6, 20, 1);
  const Eigen::MatrixXd W = testing::dense_w(p);
  const ForceProblem a = p.assembled();
  a.validate();  // symmetric, every diagonal block stored
  EXPECT_LE((a.dense_w() - W).cwiseAbs().maxCoeff(), kRoundOff * W.cwiseAbs().maxCoeff());
  for (int i = 0; i < p.contact_count; ++i)
    EXPECT_LE((p.w_diag[i] - W.block<3, 3>(3 * i, 3 * i)).cwiseAbs().maxCoeff(), kRoundOff);
  // Blocks are stored exactly for the pairs of contacts sharing a dynamic body.
  for (int i = 0; i < p.contact_count; ++i) {
    for (int j = 0; j < p.contact_count; ++j) {
      const bool share =
          (p.body1[i] >= 0 && (p.body1[i] == p.body1[j] || p.body1[i] == p.body2[j])) ||
          (p.body2[i] >= 0 && (p.body2[i] == p.body1[j] || p.body2[i] == p.body2[j]));
      const auto first = a.col.begin() + a.row_start[i], last = a.col.begin() + a.row_start[i + 1];
      EXPECT_EQ(std::binary_search(first, last, j), share || i == j) << i << " " << j;
    }
  }
}

TEST(FactoredProblem, VelocityIsWrPlusQ) {
  const FactoredForceProblem p = testing::random_factored(8, 30, 2);
  const ForceProblem a = p.assembled();
  std::vector<Vec3> r(30);
  for (int i = 0; i < 30; ++i) r[i] = Vec3(0.1 * i, -0.2, 0.03 * i * i);
  std::vector<Vec3> u_f, u_a;
  std::vector<Vec6d> nu;
  p.velocity(r, u_f, nu);
  a.velocity(r, u_a);
  for (int i = 0; i < 30; ++i) EXPECT_LE((u_f[i] - u_a[i]).norm(), kRoundOff * 100) << i;
}

TEST(FactoredProblem, ColoursShareNoBodyAndAreDeterministic) {
  // Above kColorThreshold: coloured order.
  FactoredForceProblem p = testing::random_factored(400, kColorThreshold + 500, 3);
  const int nc = p.contact_count;
  std::vector<std::int32_t> sorted = p.order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::int32_t> identity(static_cast<std::size_t>(nc));
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(sorted, identity);  // a permutation
  ASSERT_GE(p.color_start.size(), 3u);
  EXPECT_EQ(p.color_start.front(), 0);
  EXPECT_EQ(p.color_start.back(), nc);
  for (std::size_t c = 0; c + 1 < p.color_start.size(); ++c) {
    std::set<int> bodies;
    for (std::int32_t k = p.color_start[c]; k < p.color_start[c + 1]; ++k) {
      const std::int32_t a = p.order[k];
      for (const std::int32_t b : {p.body1[a], p.body2[a]}) {
        if (b < 0) continue;
        EXPECT_TRUE(bodies.insert(b).second) << "colour " << c << " body " << b;
      }
    }
  }
  const std::vector<std::int32_t> order = p.order, colours = p.color_start;
  p.finish();
  EXPECT_EQ(p.order, order);
  EXPECT_EQ(p.color_start, colours);
  // Below it: the contact order, one colour.
  const FactoredForceProblem small = testing::random_factored(10, 40, 4);
  EXPECT_EQ(small.color_start, (std::vector<std::int32_t>{0, 40}));
  for (int a = 0; a < 40; ++a) EXPECT_EQ(small.order[a], a);
}

// finish() keeps the contacts of each body and the colours while the contact graph is the same
// (a settled scene, step after step), and builds them again for another graph in the same problem
// object, even one that differs only in a body of side 2, or only in the number of bodies.
TEST(FactoredProblem, ARefilledProblemGetsTheCsrAndColoursOfItsOwnGraph) {
  const int nc = kColorThreshold + 300;
  for (const int change : {0, 1, 2}) {
    SCOPED_TRACE(::testing::Message() << "change " << change);
    FactoredForceProblem p = testing::random_factored(300, nc, 21);
    FactoredForceProblem other = testing::random_factored(300, nc, 22);
    if (change == 1) {  // the same graph but one contact's body 2
      other = p;
      std::int32_t b = 0;
      while (b == other.body1[7] || b == other.body2[7]) ++b;
      other.body2[7] = b;
    } else if (change == 2) {  // the same contacts, one body more
      other = p;
      other.body_count += 1;
      other.inv_mass.push_back(1.0);
      other.inv_inertia.push_back(Mat3::Identity());
    }
    // `other`'s contacts copied into a problem (as assemble fills it each step), then finished.
    const auto refill = [&other](FactoredForceProblem& dst) {
      dst.clear();
      dst.body_count = other.body_count;
      dst.contact_count = other.contact_count;
      dst.laws = other.laws;
      dst.q = other.q;
      dst.body1 = other.body1;
      dst.body2 = other.body2;
      dst.J1 = other.J1;
      dst.J2 = other.J2;
      dst.inv_mass = other.inv_mass;
      dst.inv_inertia = other.inv_inertia;
      dst.finish();
    };
    // The reference: a new object, never finished before.
    FactoredForceProblem fresh;
    refill(fresh);
    refill(p);
    EXPECT_EQ(p.body_contacts_start, fresh.body_contacts_start);
    EXPECT_EQ(p.body_contacts, fresh.body_contacts);
    EXPECT_EQ(p.order, fresh.order);
    EXPECT_EQ(p.color_start, fresh.color_start);
    EXPECT_NO_THROW(p.validate());
  }
}

// Below the colouring threshold both forms visit the contacts in order: the iterates agree to
// round-off, plain and with Anderson acceleration.
TEST(FactoredProblem, NsgsMatchesNsgsOnTheAssembledProblem) {
  const FactoredForceProblem p = testing::random_factored(12, 60, 5);
  const ForceProblem a = p.assembled();
  for (const int depth : {0, 5}) {
    SolverOptions o;
    o.tolerance = 1e-300;  // run every sweep
    o.max_iterations = 30;
    o.anderson_depth = depth;
    SolverWorkspace<kForce> wf, wa;
    std::vector<Vec3> rf, uf, ra, ua;
    const SolverResult f = solve_nsgs(p, rf, uf, o, wf);
    const SolverResult s = solve_nsgs(a, ra, ua, o, wa);
    EXPECT_EQ(f.iterations, s.iterations);
    EXPECT_NEAR(f.error, s.error, 1e-9 * s.error + 1e-14) << depth;
    double scale = 0.0, diff = 0.0;
    for (int i = 0; i < p.contact_count; ++i) {
      scale = std::max(scale, ra[i].norm());
      diff = std::max(diff, (rf[i] - ra[i]).norm());
    }
    EXPECT_LE(diff, 1e-9 * scale) << "depth " << depth;
  }
}

// The coloured sweep as the time stepping runs it on every core (each colour on the guided
// schedule, Anderson's extrapolation pass in parallel) reaches an answer of the law: a random 3-D
// problem above kColorThreshold (1524 contacts among 1600 bodies, random normals, lever arms and
// inertias; a solution exists by construction), every colour relaxed in parallel
// (parallel_colour_min = 1). Its reported error is the one recomputed from r, meets the tolerance,
// r lies in every cone, and one and two threads give the same bits. Fails when a colour's loop
// skips or repeats contacts, or when two contacts of a colour share a body (checked: the loop
// without its last contact never converges).
TEST(FactoredProblem, ColouredNsgsOnEveryCoreReachesAnAnswerOfTheLaw) {
  FactoredForceProblem p = testing::random_factored(1600, kColorThreshold + 500, 9);
  ASSERT_GE(p.color_start.size(), 3u);  // coloured
  SolverOptions o;
  o.tolerance = 1e-10;
  o.max_iterations = 2000;
  o.anderson_depth = 5;
  o.error_check_interval = 20;
  o.parallel_colour_min = 1;
  const auto solve = [&](std::vector<Vec3>& r) {
    SolverWorkspace<kForce> ws;
    std::vector<Vec3> u;
    return solve_nsgs(p, r, u, o, ws);
  };
  std::vector<Vec3> r;
  const SolverResult res = solve(r);
  EXPECT_EQ(res.status, SolverStatus::converged) << res.error;
  const ForceProblem a = p.assembled();
  std::vector<Vec3> u;
  a.velocity(r, u);
  const double error = contact_error(a, r, u);
  EXPECT_LE(error, o.tolerance);
  EXPECT_NEAR(res.error, error, 1e-3 * o.tolerance);  // round-off of the two products
  for (int i = 0; i < p.contact_count; ++i)
    EXPECT_LE(r[i].tail<2>().norm(), p.laws[i] * r[i][0] * (1.0 + 1e-12) + 1e-300) << i;
#ifdef _OPENMP
  const int threads_before = omp_get_max_threads();
  std::vector<std::vector<Vec3>> answers;
  for (const int threads : {1, 2}) {
    omp_set_num_threads(threads);
    answers.emplace_back();
    solve(answers.back());
  }
  omp_set_num_threads(threads_before);
  EXPECT_EQ(answers[0], answers[1]);
  EXPECT_EQ(answers[0], r);
#endif
}

// NSGS keeps each contact's W_αα⁻¹ for the sweeps of one solve (SolverWorkspace::w_inverse,
// stamped per solve). A workspace that has solved another problem of the same size, with other
// blocks, must give the bits of a fresh one: fails when a solve reads an inverse kept from an
// earlier one. And the kept inverse gives the bits of the local solve that computes it.
TEST(FactoredProblem, NsgsKeepsNoInverseFromAnotherSolve) {
  const FactoredForceProblem first = testing::random_factored(10, 40, 11, 0.5);
  const FactoredForceProblem second = testing::random_factored(10, 40, 12, 0.5);
  SolverOptions o;
  o.tolerance = 1e-300;  // every sweep
  o.max_iterations = 25;
  for (const bool assembled : {false, true}) {
    SolverWorkspace<kForce> used, fresh;
    std::vector<Vec3> r0, u0, r1, u1, r2, u2;
    const auto run = [&](const FactoredForceProblem& p, std::vector<Vec3>& r, std::vector<Vec3>& u,
                         SolverWorkspace<kForce>& ws) {
      return assembled ? solve_nsgs(p.assembled(), r, u, o, ws) : solve_nsgs(p, r, u, o, ws);
    };
    run(first, r0, u0, used);
    const SolverResult a = run(second, r1, u1, used);
    const SolverResult b = run(second, r2, u2, fresh);
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.error, b.error) << (assembled ? "assembled" : "factored");
    for (int i = 0; i < second.contact_count; ++i) EXPECT_EQ(r1[i], r2[i]) << i;
  }
  // One contact: the local solve with the kept inverse (computed at the first call, read at the
  // second) against the one that computes it, over many right-hand sides.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  for (int a = 0; a < second.contact_count; ++a) {
    BlockInverse kept;
    for (int k = 0; k < 20; ++k) {
      const Vec3 q(uni(rng), uni(rng), uni(rng));
      Vec3 r_kept = Vec3::Zero(), r_plain = Vec3::Zero();
      const bool ok_kept =
          solve_single_contact(second.w_diag[a], q, second.laws[a], r_kept, 1e-14, kept, 7);
      const bool ok_plain =
          solve_single_contact(second.w_diag[a], q, second.laws[a], r_plain, 1e-14);
      EXPECT_EQ(ok_kept, ok_plain);
      EXPECT_EQ(r_kept, r_plain) << a << " " << k;
    }
    EXPECT_EQ(kept.stamp, 7U);
  }
}

TEST(FactoredProblem, ValidateRejectsBadBodiesAndLaws) {
  FactoredForceProblem p = testing::random_factored(4, 6, 6);
  p.validate();
  FactoredForceProblem bad = p;
  bad.body2[2] = 4;
  EXPECT_THROW(bad.validate(), std::invalid_argument);
  bad = p;
  bad.laws[1] = -0.5;
  EXPECT_THROW(bad.validate(), std::invalid_argument);
  bad = p;
  bad.inv_mass.pop_back();
  EXPECT_THROW(bad.validate(), std::invalid_argument);
}

}  // namespace
}  // namespace coulomb
