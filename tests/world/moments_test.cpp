// Moment laws in the Moreau–Jean step (six unknowns per contact) against the closed forms of
// reference/contensou.md §3: pivoting decay (point law and Contensou patch), rolling resistance,
// sliding + spinning sphere, disk sliding and spinning flat on a plane.
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <cmath>

#include "world/builders.hpp"

namespace coulomb {
namespace {

using testing::add_body;

constexpr double kG = 9.81;

// A ball of radius R on a plane with the given contact spec tweaks.
struct Ball {
  Model model;
  State state;
  int ball = -1;
  double R = 0.05, m = 1.0, mu = 0.3;
  Ball(const Vec3& v0, const Vec3& w0, double h = 1e-3) {
    model = testing::make_model(mu, 0.0, h, 10.0);
    model.solver.tolerance = 1e-12;
    add_body(model, state, {.name = "ground", .fixed = true}, {testing::plane_shape()});
    ball = add_body(model, state,
                    {.name = "ball",
                     .mass = m,
                     .inertia_B = testing::solid_sphere_inertia(m, R),
                     .x = Vec3(0, 0, R),
                     .v = v0,
                     .w = w0},
                    {testing::sphere_shape(R)});
  }
  ContactSpec& spec() { return model.contacts[0]; }
};

// Runs until the spin about n stops (or t_max), returning the measured rate before the stop.
void check_spin_decay(Ball& b, double expected_rate) {
  b.model.finalize();
  Workspace ws;
  const double h = b.model.time_step;
  const double w0 = b.state.w_W[b.ball].z();
  const double t_stop = w0 / expected_rate;
  // While spinning: ω_z falls by exactly rate·h per step (the moment is at its bound).
  step(b.model, b.state, ws);
  const double w1 = b.state.w_W[b.ball].z();
  step(b.model, b.state, ws);
  const double w2 = b.state.w_W[b.ball].z();
  // 1e-9: the solve is exact, the bound μN ā (or hN) is reached to the solver tolerance.
  EXPECT_NEAR((w1 - w2) / h, expected_rate, 1e-9 * expected_rate);
  while (b.state.time < t_stop + 0.1)
    ASSERT_EQ(step(b.model, b.state, ws).solver.status, SolverStatus::converged);
  // It stops in finite time, at the predicted instant (within a step), and stays stopped.
  EXPECT_LE(std::abs(b.state.w_W[b.ball].z()), 1e-12);
  for (int i = 0; i < 500; ++i) step(b.model, b.state, ws);
  EXPECT_LE(std::abs(b.state.w_W[b.ball].z()), 1e-12);
  EXPECT_LE(b.state.v_WC[b.ball].norm(), 1e-12);  // pure spin never makes the ball move
}

TEST(MomentLaws, PivotingDecayPointLaw) {
  // |M_n| ≤ h N: dω_n/dt = −h m g / I = −5 h g / (2R²).
  Ball b(Vec3::Zero(), Vec3(0, 0, 20.0));
  const double h_piv = 1e-3;
  b.spec().pivoting = LawSpec{"pivoting", {{"h", h_piv}}, {}, {}};
  check_spin_decay(b, 5.0 * h_piv * kG / (2.0 * b.R * b.R));
}

TEST(MomentLaws, SoftFingerIsPivotingWithHEqualMuR) {
  // Soft finger |τ_n| ≤ r_t μ N: the pivoting law with h = μ r_t.
  Ball b(Vec3::Zero(), Vec3(0, 0, 20.0));
  const double r_t = 4e-3;
  b.spec().soft_finger = LawSpec{"soft_finger", {{"radius", r_t}}, {}, {}};
  check_spin_decay(b, 5.0 * b.mu * r_t * kG / (2.0 * b.R * b.R));
}

TEST(MomentLaws, ContensouPivotingDecayHertzPatch) {
  // Hertz patch of radius a: dω/dt = −(15π/32) μ g a / R², for the ellipsoid and the exact law
  // (they agree in pure spin: m(0) = 3π/16). The issue asks 0.1 %; the solve is exact.
  for (const char* model : {"ellipsoid", "exact"}) {
    Ball b(Vec3::Zero(), Vec3(0, 0, 20.0));
    const double a = 2e-3;
    b.spec().contensou =
        LawSpec{"contensou", {{"radius", a}}, {{"model", model}, {"pressure", "hertz"}}, {}};
    SCOPED_TRACE(model);
    check_spin_decay(b, (15.0 * kPi / 32.0) * b.mu * kG * a / (b.R * b.R));
  }
}

TEST(MomentLaws, ContensouPivotingDecayUniformPatch) {
  // Uniform patch: dω/dt = −(5/3) μ g a / R².
  Ball b(Vec3::Zero(), Vec3(0, 0, 20.0));
  const double a = 2e-3;
  b.spec().contensou =
      LawSpec{"contensou", {{"radius", a}}, {{"model", "exact"}, {"pressure", "uniform"}}, {}};
  check_spin_decay(b, (5.0 / 3.0) * b.mu * kG * a / (b.R * b.R));
}

TEST(MomentLaws, RollingResistanceDeceleratesAndStops) {
  // ‖M_t‖ ≤ k N: dv/dt = −(5/7) g k / R; stops at t = 7 R v0/(5 g k) after 7 R v0²/(10 g k).
  const double v0 = 1.0, k = 1e-3;
  Ball b(Vec3(v0, 0, 0), Vec3(0, v0 / 0.05, 0));
  b.spec().rolling = LawSpec{"rolling", {{"k", k}}, {}, {}};
  b.model.finalize();
  Workspace ws;
  const double decel = 5.0 / 7.0 * kG * k / b.R;
  const double t_stop = v0 / decel, distance = 7.0 * b.R * v0 * v0 / (10.0 * kG * k);
  step(b.model, b.state, ws);
  const double v1 = b.state.v_WC[b.ball].x();
  step(b.model, b.state, ws);
  EXPECT_NEAR((v1 - b.state.v_WC[b.ball].x()) / b.model.time_step, decel, 1e-9 * decel);
  while (b.state.time < t_stop + 0.2)
    ASSERT_EQ(step(b.model, b.state, ws).solver.status, SolverStatus::converged);
  EXPECT_LE(std::abs(b.state.v_WC[b.ball].x()), 1e-12);
  // Distance within one step of travel (the stop falls inside a step).
  EXPECT_NEAR(b.state.x_WC[b.ball].x(), distance, v0 * b.model.time_step);
  const double x_stop = b.state.x_WC[b.ball].x();
  for (int i = 0; i < 1000; ++i) step(b.model, b.state, ws);
  EXPECT_EQ(b.state.x_WC[b.ball].x(), x_stop);  // stays
  // All the energy went into rolling resistance (and none into sliding: it rolled all along).
  EXPECT_NEAR(b.state.dissipated_by_kind[2], b.state.dissipated, 1e-9 * b.state.dissipated);
}

TEST(MomentLaws, SlidingAndSpinningSphereRollsOnlyAsymptotically) {
  // Point contact: the slide ends at t* = 2 v0/(7 μ g). With a Hertz Contensou patch and a fast
  // spin the slip decays exponentially instead (contensou.md §3.3): still slipping at 3 t*, with
  // a decay that does not accelerate towards a finite-time stop.
  const double v0 = 0.5, spin = 200.0, a = 1e-3;
  Ball b(Vec3(v0, 0, 0), Vec3(0, 0, spin), 1e-4);
  b.spec().contensou =
      LawSpec{"contensou", {{"radius", a}}, {{"model", "exact"}, {"pressure", "hertz"}}, {}};
  b.model.finalize();
  Workspace ws;
  const double t_star = 2.0 * v0 / (7.0 * b.mu * kG);
  auto slip = [&] {
    const Vec3 v = b.state.v_WC[b.ball] + b.state.w_W[b.ball].cross(Vec3(0, 0, -b.R));
    return Vec3(v.x(), v.y(), 0).norm();
  };
  std::vector<double> samples, spins;
  for (int k = 1; k <= 3; ++k) {
    while (b.state.time < k * t_star - 0.5e-4)
      ASSERT_EQ(step(b.model, b.state, ws).solver.status, SolverStatus::converged);
    samples.push_back(slip());
    spins.push_back(b.state.w_W[b.ball].z());
  }
  EXPECT_GT(samples[2], 1e-6 * v0);  // not rolling yet at 3 t*
  EXPECT_LT(samples[1], samples[0]);
  EXPECT_LT(samples[2], samples[1]);
  // Exponential, not linear-to-zero: equal time intervals shrink the slip by similar factors.
  const double f1 = samples[1] / samples[0], f2 = samples[2] / samples[1];
  EXPECT_NEAR(f2, f1, 0.5 * f1);
  // The decay rate over [2t*, 3t*] (ε = v/(aω) < 0.02 there) against the derived small-ε rate
  // λ = (7/2)(3π/8) μ g/(a ω_z) at the interval's mean spin. The implicit step shrinks the slip by
  // 1/(1 + λh) per step, a rate λ(1 − λh/2): tolerance 2λh (λh ≈ 6e-3 here).
  const double h = b.model.time_step;
  const double rate = std::log(samples[1] / samples[2]) / t_star;
  const double lambda = 3.5 * (3.0 * kPi / 8.0) * b.mu * kG / (a * 0.5 * (spins[1] + spins[2]));
  EXPECT_NEAR(rate, lambda, 2.0 * lambda * h * lambda);
}

TEST(MomentLaws, DiskStopsSlidingAndSpinningTogether) {
  // A thin disk flat on a plane, uniform pressure, exact limit surface: sliding and spinning stop
  // at the same step, with v/(aω) → 0.653 (Weidman & Malhotra 2005; contensou.md §3.5).
  const double a = 0.1, m = 1.0, half = 0.002, mu = 0.3;
  Model model = testing::make_model(mu, 0.0, 1e-4, 10.0);
  // The default 1e-10: the exact limit surface is found by a 1-D root search that resolves the
  // local error to about 1e-12, so a 1e-12 tolerance can stall in the last step before the stop.
  model.solver.tolerance = 1e-10;
  model.contacts[0].contensou =
      LawSpec{"contensou", {{"radius", a}}, {{"model", "exact"}, {"pressure", "uniform"}}, {}};
  // The patch law replaces the rim points by one point at the centre; a flat disk can still take
  // a tipping moment up to a N (the pressure centre anywhere in the disk): a rolling bound k = a
  // is exactly that set, so the disk does not tip over on its single point.
  model.contacts[0].rolling = LawSpec{"rolling", {{"k", a}}, {}, {}};
  State state;
  add_body(model, state, {.name = "ground", .fixed = true}, {testing::plane_shape()});
  const Mat3 I = Vec3(m * (3 * a * a + 4 * half * half) / 12,
                      m * (3 * a * a + 4 * half * half) / 12, m * a * a / 2)
                     .asDiagonal();
  const int disk = add_body(model, state,
                            {.name = "disk",
                             .mass = m,
                             .inertia_B = I,
                             .x = Vec3(0, 0, half),
                             .v = Vec3(1.0, 0, 0),
                             .w = Vec3(0, 0, 1.0 / a)},
                            {Shape{Cylinder{a, half}, Pose{}}});
  model.finalize();
  Workspace ws;
  double ratio = 0.0;
  std::int64_t slide_stop = -1, spin_stop = -1;
  while (state.time < 2.0 && (slide_stop < 0 || spin_stop < 0)) {
    const double v = state.v_WC[disk].head<2>().norm(), w = std::abs(state.w_W[disk].z());
    if (v > 0.0 && w > 0.0) ratio = v / (a * w);  // the last value before the stop
    ASSERT_EQ(step(model, state, ws).solver.status, SolverStatus::converged);
    if (slide_stop < 0 && state.v_WC[disk].head<2>().norm() <= 1e-12) slide_stop = state.step;
    if (spin_stop < 0 && std::abs(state.w_W[disk].z()) <= 1e-12) spin_stop = state.step;
  }
  ASSERT_GT(slide_stop, 0);
  EXPECT_EQ(slide_stop, spin_stop);
  EXPECT_NEAR(ratio, 0.653, 0.005);
}

}  // namespace
}  // namespace coulomb
