// Tests of NSGS on the 6-unknown problem (src/nonsmooth/nsgs6.cpp): equality with the 3-unknown
// solver on embedded FCLIB problems, multi-contact problems with moments against a dense
// projected fixed-point reference, statuses, warm start and determinism.
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/solver6.hpp>

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <cstdio>
#include <random>

#include "nonsmooth/fclib_data.hpp"

namespace coulomb {
namespace {

using Law = ContactLaw6;

// nc contacts on nb = nc rigid bodies, W = J M⁻¹ Jᵀ with a random full-rank J (6nc × 6nb) plus a
// small diagonal (positive definite: a unique solution), random q with q_N < 0, mixed laws.
ContactProblem6 random_problem(int nc, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  const int n = 6 * nc;
  Eigen::MatrixXd j(n, n);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) j(a, b) = g(rng) / std::sqrt(n);
  }
  const Eigen::MatrixXd w = j * j.transpose() + 0.05 * Eigen::MatrixXd::Identity(n, n);
  ContactProblem6 p;
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
std::vector<Vec6> fixed_point_reference(const ContactProblem6& p, int& iterations) {
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

TEST(Nsgs6, MomentsAgainstDenseFixedPointReference) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const ContactProblem6 p = random_problem(4, seed);
    int ref_iterations = 0;
    const std::vector<Vec6> ref = fixed_point_reference(p, ref_iterations);
    std::vector<Vec6> u_ref;
    p.velocity(ref, u_ref);
    const double ref_error = contact_error6(p, ref, u_ref);
    ASSERT_LE(ref_error, 1e-12) << "reference did not converge, seed " << seed;
    std::vector<Vec6> r, u;
    SolverWorkspace6 ws;
    SolverOptions o;
    o.tolerance = 1e-13;
    o.max_iterations = 5000;
    const SolverResult res = solve6(p, r, u, o, ws);
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

TEST(Nsgs6, EmbeddedFclibProblemsGiveTheThreeUnknownSolution) {
  // h = k = 0, no coupling, W zero-padded: the same law. Both solvers to 1e-11; r compared.
  for (const char* name : {"Rover4144.hdf5", "Confeti-ex13-Fc3D-SBM.hdf5", "NESpheres_10_1.hdf5",
                           "FC3D_Example1.hdf5", "Capsules-i125-1213.hdf5"}) {
    const ContactProblem p3 = read_fclib_local(testing::fclib_dir() + "/" + name);
    const ContactProblem6 p6 = embed_problem(p3);
    SolverOptions o;
    o.tolerance = 1e-11;
    o.max_iterations = 20000;
    std::vector<Vec3> r3, u3;
    SolverWorkspace ws3;
    const SolverResult res3 = solve_nsgs(p3, r3, u3, o, ws3);
    std::vector<Vec6> r6, u6;
    SolverWorkspace6 ws6;
    const SolverResult res6 = solve6(p6, r6, u6, o, ws6);
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
    // Equal in exact arithmetic (problem6_test checks bit-level agreement on the same u); here u
    // comes from 6×6 vs 3×3 products, so they agree to the measure's round-off floor
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
}

TEST(Nsgs6, StatusesWarmStartAndDeterminism) {
  const ContactProblem6 p = random_problem(5, 9);
  SolverWorkspace6 ws;
  SolverOptions o;
  o.tolerance = 1e-12;
  o.max_iterations = 1;
  std::vector<Vec6> r, u;
  SolverResult res = solve6(p, r, u, o, ws);
  EXPECT_EQ(res.status, SolverStatus::max_iterations);
  std::vector<Vec6> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error6(p, r, u2));  // the true error at exit
  o.max_iterations = 5000;
  res = solve6(p, r, u, o, ws);
  ASSERT_EQ(res.status, SolverStatus::converged);
  // Warm start from the solution: no sweep.
  const std::vector<Vec6> r_sol = r;
  res = solve6(p, r, u, o, ws);
  EXPECT_EQ(res.iterations, 0);
  // Bit-identical from the same start, also shuffled.
  o.shuffle = true;
  o.shuffle_seed = 5;
  std::vector<Vec6> ra, rb;
  solve6(p, ra, u, o, ws);
  solve6(p, rb, u, o, ws);
  for (std::size_t a = 0; a < ra.size(); ++a) EXPECT_EQ(ra[a], rb[a]);
  // Local solves short of their tolerance are counted as in the 3-unknown NSGS: a contact with
  // W_NN = 0 and q_N < 0 has no solution (u_N = q_N whatever r), one failure per sweep.
  {
    ContactProblem6 q = p;
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
    const SolverResult failed = solve6(q, rf, uf, of, ws);
    EXPECT_EQ(failed.status, SolverStatus::max_iterations);
    EXPECT_EQ(failed.local_failures, 1);
    EXPECT_EQ(failed.local_failures_total, 3);
    EXPECT_STREQ(failed.method, "nsgs6");
  }
  // Non-finite data is reported.
  ContactProblem6 bad = p;
  bad.q[2][4] = std::nan("");
  std::vector<Vec6> rn;
  EXPECT_EQ(solve6(bad, rn, u, o, ws).status, SolverStatus::non_finite);
}

}  // namespace
}  // namespace coulomb
