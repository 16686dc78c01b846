// Tests of the proximal-point solver and of the dispatcher (src/nonsmooth/prox.cpp): it must solve
// the FCLIB problems that NSGS cannot (redundant contact sets), from r = 0, to 1e-8.
#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/prox.hpp>

#include <gtest/gtest.h>

#include "nonsmooth/fclib_data.hpp"

namespace coulomb {
namespace {

ContactProblem file_problem(const std::string& name) {
  return read_fclib_local(testing::fclib_dir() + "/" + name);
}

class ProxFclib : public ::testing::TestWithParam<const char*> {};

TEST_P(ProxFclib, FromZeroReaches1e8) {
  const ContactProblem p = file_problem(GetParam());
  std::vector<Vec3> r, u;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 300;
  const SolverResult res = solve_prox(p, r, u, o);
  EXPECT_EQ(res.status, SolverStatus::converged) << GetParam() << " error " << res.error;
  std::vector<Vec3> u2;
  p.velocity(r, u2);
  EXPECT_EQ(res.error, contact_error(p, r, u2));
  EXPECT_LE(res.error, 1e-8);
}

// The four small problems NSGS cannot finish (nsgs_test.cpp) and two that it can.
INSTANTIATE_TEST_SUITE_P(Files, ProxFclib,
                         ::testing::Values("OneObject-i100000-316.hdf5",
                                           "OneObject-i100000-499.hdf5",
                                           "fclib_local_problem_test.hdf5",
                                           "BoxesStack1-i100000-32.hdf5", "Rover4144.hdf5",
                                           "NESpheres_10_1.hdf5"));

TEST(Solve, AutomaticFallsBackToProx) {
  const ContactProblem p = file_problem("OneObject-i100000-499.hdf5");
  std::vector<Vec3> r, u;
  SolverWorkspace ws;
  SolverOptions o;
  o.tolerance = 1e-8;
  o.max_iterations = 200;
  const SolverResult nsgs_only = solve(p, r, u, o, ws, SolverKind::nsgs);
  EXPECT_EQ(nsgs_only.status, SolverStatus::max_iterations);
  r.clear();
  const SolverResult res = solve(p, r, u, o, ws, SolverKind::automatic);
  EXPECT_EQ(res.status, SolverStatus::converged);
  EXPECT_LE(res.error, 1e-8);
  EXPECT_GT(res.iterations, 200);  // the NSGS sweeps are counted too
}

TEST(Solve, NonFiniteIsReported) {
  ContactProblem p = file_problem("Rover4144.hdf5");
  p.q[0][1] = std::nan("");
  std::vector<Vec3> r, u;
  EXPECT_EQ(solve_prox(p, r, u, SolverOptions{}).status, SolverStatus::non_finite);
}

}  // namespace
}  // namespace coulomb
