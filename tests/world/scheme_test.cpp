// The midpoint scheme's properties in general 3-D motion (stages free_motion, kinematics,
// assemble, integrate): impulses on the world angular momentum, the start-of-step velocity
// estimated from the contact memory, the predicted end-of-step gap, second order, both schemes
// on the rotation cases of issue 6.
#include <coulomb/collision/narrowphase.hpp>
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <cmath>

#include "world/builders.hpp"

namespace coulomb {
namespace {

using testing::add_body;

constexpr double kG = 9.81;

Vec3 world_momentum(const Model& m, const State& s, int b) {
  const Mat3 R = s.q_WB[b].toRotationMatrix();
  return R * (m.bodies[b].inertia_B * (R.transpose() * s.w_W[b]));
}

// ---------------------------------------------------------------------------------------------
// A ball sliding with spin about the vertical only stays on its line and keeps its spin, in both
// schemes (the impulse goes to the world angular momentum; issue 6 measured 4.7 mm off the line).
class VerticalSpin : public ::testing::TestWithParam<TimeScheme> {};

TEST_P(VerticalSpin, BallStaysOnItsLineAndKeepsItsSpin) {
  const double R = 0.028575, m = 0.17;
  Model model = testing::make_model(0.2, 0.0, 1e-3, 0.6);
  model.solver.scheme = GetParam();
  model.solver.position_correction = GetParam() == TimeScheme::midpoint;
  State state;
  add_body(model, state, {.name = "table", .fixed = true}, {testing::plane_shape()});
  const int ball = add_body(model, state,
                            {.name = "ball",
                             .mass = m,
                             .inertia_B = testing::solid_sphere_inertia(m, R),
                             .x = Vec3(0, 0, R),
                             .v = Vec3(2, 0, 0),
                             .w = Vec3(0, 0, 60)},
                            {testing::sphere_shape(R)});
  model.finalize();
  Workspace ws;
  double worst_y = 0.0, worst_wz = 0.0;
  for (int i = 0; i < 600; ++i) {
    step(model, state, ws);
    worst_y = std::max(worst_y, std::abs(state.x_WC[ball].y()));
    worst_wz = std::max(worst_wz, std::abs(state.w_W[ball].z() - 60.0));
  }
  EXPECT_LE(worst_y, 1e-12);          // round-off (the issue asks 1e-9 m)
  EXPECT_LE(worst_wz, 1e-10 * 60.0);  // no vertical moment, no gyroscopic term: round-off
}

INSTANTIATE_TEST_SUITE_P(BothSchemes, VerticalSpin,
                         ::testing::Values(TimeScheme::midpoint, TimeScheme::moreau_jean));

// ---------------------------------------------------------------------------------------------
// A box spinning about a tilted axis while it slides and tumbles on the floor: every step changes
// the world angular momentum by exactly Σ r × P of the impulses (the drifts conserve it).
TEST(Midpoint, ImpulsesChangeTheWorldAngularMomentumExactly) {
  const Vec3 half(0.2, 0.1, 0.05);
  Model model = testing::make_model(0.4, 0.3, 1e-3, 1.0);
  State state;
  add_body(model, state, {.name = "floor", .fixed = true}, {testing::plane_shape()});
  const Quat q(Eigen::AngleAxisd(0.3, Vec3(1, 2, 0.5).normalized()));
  const int box = add_body(model, state,
                           {.name = "box",
                            .mass = 2.0,
                            .inertia_B = testing::box_inertia(2.0, half),
                            .x = Vec3(0, 0, 0.25),
                            .q = q,
                            .v = Vec3(1.0, 0.3, -0.5),
                            .w = Vec3(3.0, -7.0, 11.0)},
                           {testing::box_shape(half)});
  model.finalize();
  Workspace ws;
  int contact_steps = 0;
  for (int i = 0; i < 1000; ++i) {
    const Vec3 L0 = world_momentum(model, state, box);
    step(model, state, ws);
    const Vec3 L1 = world_momentum(model, state, box);
    // Σ (I_c − x_c) × P + M of the step, from the impulses the integrate stage applied.
    const Vec3 dL = ws.step_results.impulse_torque[box];
    if (dL.norm() > 0.0) ++contact_steps;
    // Round-off of R I Rᵀ ω and of the Newton solves of the two half drifts (to 4 ε).
    EXPECT_LE((L1 - L0 - dL).norm(), 1e-13 * (L0.norm() + 1.0)) << "step " << i;
  }
  EXPECT_GT(contact_steps, 100);  // the box did hit and slide on the floor
}

// ---------------------------------------------------------------------------------------------
// Kinematics against finite differences: the start-of-step velocity u_0 the midpoint scheme
// estimates from the contact memory, and the end-of-step gap the position stage predicts,
// compared with the narrowphase run at the start and at the end of the step, for a rocking and
// rolling ellipsoid (a curved persistent contact whose point and normal move). u_0 = J(q_k) ν_k is
// estimated as the mean of J at the last and at this step's midpoint: error O(h²); the gap
// g(q_{k+1}) is predicted to O(h³).
struct RollingEllipsoid {
  Model model;
  State state;
  int egg = -1;
  RollingEllipsoid(double h) {
    model = testing::make_model(1.0, 0.0, h, 1.0);
    add_body(model, state, {.name = "floor", .fixed = true}, {testing::plane_shape()});
    const Vec3 axes(0.1, 0.08, 0.05);
    // Solid ellipsoid of mass 1: I = diag(b² + c², a² + c², a² + b²)/5.
    const Vec3 a2 = axes.cwiseProduct(axes);
    const Mat3 I = Vec3(a2.y() + a2.z(), a2.x() + a2.z(), a2.x() + a2.y()).asDiagonal() * 0.2;
    // Tilted by 0.3 rad about a skew axis, spinning, and rolling from the start: the lowest
    // point x_B = −A² n_B / sqrt(n_Bᵀ A² n_B) (n_B the body-frame down direction) touches the
    // floor and is at rest, v = −ω × r.
    const Quat q(Eigen::AngleAxisd(0.3, Vec3(0.3, 1, 0.1).normalized()));
    const Vec3 n_B = q.conjugate() * Vec3(0, 0, -1);
    const Vec3 r = q * Vec3(a2.cwiseProduct(n_B) / std::sqrt(n_B.dot(a2.cwiseProduct(n_B))));
    const Vec3 w(0.5, 0.2, 3.0);
    egg = add_body(model, state,
                   {.name = "egg",
                    .mass = 1.0,
                    .inertia_B = I,
                    .x = Vec3(0, 0, -r.z()),
                    .q = q,
                    .v = -w.cross(r),
                    .w = w},
                   {Shape{Ellipsoid{axes}, Pose{}}});
  }
  // The single contact point of the egg on the floor in the state's configuration.
  ContactPoint contact_now() const {
    std::vector<ContactPoint> out;
    const Pose X_floor{};
    collide(model.shapes[0].geometry, X_floor, model.shapes[1].geometry,
            body_frame_pose(model, state, egg), 1.0, out);
    EXPECT_EQ(out.size(), 1u);
    return out.at(0);
  }
};

TEST(Midpoint, StartVelocityAndEndGapAgainstTheNarrowphase) {
  double u0_error[2], gap_error[2];
  for (int run = 0; run < 2; ++run) {
    const double h = run == 0 ? 2e-3 : 1e-3;
    RollingEllipsoid e(h);
    // The prediction itself: no correction between it and the narrowphase at the step's end.
    e.model.solver.position_correction = false;
    e.model.finalize();
    Workspace ws;
    // Let the rolling establish itself (the first steps start from no memory).
    while (e.state.time < 0.1 - 0.5 * h) step(e.model, e.state, ws);
    double worst_u0 = 0.0, worst_gap = 0.0;
    for (int i = 0; i < static_cast<int>(std::lround(0.05 / h)); ++i) {
      // The relative normal velocity at the start of the step, from the narrowphase there.
      const ContactPoint c0 = e.contact_now();
      const Vec3 r = c0.point() - e.state.x_WC[e.egg];
      const double u0_true = c0.n_W.dot(e.state.v_WC[e.egg] + e.state.w_W[e.egg].cross(r));
      step(e.model, e.state, ws);
      ASSERT_EQ(ws.active_set.active.size(), 1u);
      const int k = ws.active_set.active[0];
      worst_u0 = std::max(worst_u0, std::abs(ws.contact_points.u_zero[k](0) - u0_true));
      // The gap the position stage predicted against the narrowphase at the end of the step.
      worst_gap = std::max(worst_gap, std::abs(ws.step_results.end_gap[0] - e.contact_now().gap));
    }
    u0_error[run] = worst_u0;
    gap_error[run] = worst_gap;
  }
  RecordProperty("u0_errors", std::to_string(u0_error[0]) + " " + std::to_string(u0_error[1]));
  RecordProperty("gap_errors", std::to_string(gap_error[0]) + " " + std::to_string(gap_error[1]));
  // Halving h divides the u_0 error by 4 (second order) and the gap error by 8 (third order);
  // the bounds leave 25 % for the higher-order terms at these steps.
  EXPECT_GT(u0_error[0] / u0_error[1], 3.0) << u0_error[0] << " " << u0_error[1];
  EXPECT_GT(gap_error[0] / gap_error[1], 6.0) << gap_error[0] << " " << gap_error[1];
  // And the sizes: v ≈ 0.3 m/s, curvature 1/R* ≈ 20/m: u_0 within (h ω)² v, gap within h³ v² κ.
  EXPECT_LT(u0_error[1], 1e-5);
  EXPECT_LT(gap_error[1], 1e-8);
}

// ---------------------------------------------------------------------------------------------
// Second order on a smooth case without a closed form: the orientation of the rolling ellipsoid
// after 0.5 s at h, h/2, h/4: successive differences shrink by 4.
TEST(Midpoint, RollingIsSecondOrder) {
  Quat q[3];
  double h = 2e-3;
  for (Quat& qi : q) {
    RollingEllipsoid e(h);
    e.model.finalize();
    Workspace ws;
    while (e.state.time < 0.5 - 0.5 * h) step(e.model, e.state, ws);
    qi = e.state.q_WB[e.egg];
    h *= 0.5;
  }
  const double d1 = q[0].angularDistance(q[1]), d2 = q[1].angularDistance(q[2]);
  // Order log2(d1/d2) = 2 within 0.3 (the asymptotic regime at ω h ≤ 0.006).
  EXPECT_NEAR(std::log2(d1 / d2), 2.0, 0.3) << d1 << " " << d2;
}

// ---------------------------------------------------------------------------------------------
// A block sliding to a stop: the friction direction is that of the step's mean velocity while it
// slides, and the step in which it stops takes the end-of-step law, so the velocity never
// reverses and the stop is exact (no one-step overshoot of the midpoint rule).
TEST(Midpoint, SlidingBlockStopsWithoutOvershoot) {
  const double mu = 0.3, v0 = 1.0, h = 1e-3;
  Model model = testing::make_model(mu, 0.0, h, 1.0);
  State state;
  add_body(model, state, {.name = "floor", .fixed = true}, {testing::plane_shape()});
  const Vec3 half(0.1, 0.1, 0.05);
  const int box = add_body(model, state,
                           {.name = "box",
                            .mass = 1.0,
                            .inertia_B = testing::box_inertia(1.0, half),
                            .x = Vec3(0, 0, 0.05),
                            .v = Vec3(v0, 0, 0)},
                           {testing::box_shape(half)});
  model.finalize();
  Workspace ws;
  double min_v = 0.0;
  while (state.time < 0.6 - 0.5 * h) {
    step(model, state, ws);
    min_v = std::min(min_v, state.v_WC[box].x());
  }
  EXPECT_GE(min_v, -1e-12);                         // never moves backwards (solver tolerance)
  EXPECT_LE(std::abs(state.v_WC[box].x()), 1e-12);  // stopped
  // Stop distance v0²/(2 μ g): exact for the constant deceleration up to the stopping step,
  // which moves at most h v_k/2 with v_k ≤ μ g h.
  EXPECT_NEAR(state.x_WC[box].x(), v0 * v0 / (2 * mu * kG), mu * kG * h * h);
}

// The same stop in general 3-D motion: a ball on the floor sliding at v0 = (1, 0.4, 0) m/s with a
// spin ω0 = (3, −25, 12) rad/s along no axis of its velocity, with a pivoting part. The slip
// s = v + ω × (−r n) keeps its direction (ds/dt = −(7/2) μ g ŝ), so the friction force is constant
// until s = 0 at t* = 2 |s0| / (7 μ g) = 0.337 s, and the ball then rolls at v0 − (2/7) s0 (a
// closed form independent of μ); the spin about the normal takes no moment from a point contact.
// The stopping step is decided on the solver's provisional answer and solved to the tolerance
// with Moreau's end-of-step law (src/world/stages/solve.cpp): the slip never reverses and is zero
// after the stop. Bounds 1e-9 m/s: the solve's velocity residual is below 1e-10 ‖q‖, ‖q‖ ~ 2 m/s.
TEST(Midpoint, SpinningBallStopsSlippingWithoutOvershootIn3D) {
  const double mu = 0.2, r = 0.05, m = 0.2, h = 1e-3;
  const Vec3 v0(1.0, 0.4, 0.0), w0(3.0, -25.0, 12.0);
  Model model = testing::make_model(mu, 0.0, h, 1.0);
  State state;
  add_body(model, state, {.name = "floor", .fixed = true}, {testing::plane_shape()});
  const int ball = add_body(model, state,
                            {.name = "ball",
                             .mass = m,
                             .inertia_B = testing::solid_sphere_inertia(m, r),
                             .x = Vec3(0, 0, r),
                             .v = v0,
                             .w = w0},
                            {testing::sphere_shape(r)});
  model.finalize();
  const auto slip = [&] { return Vec3(state.v_WC[ball] + state.w_W[ball].cross(Vec3(0, 0, -r))); };
  const Vec3 s0 = slip();
  const Vec3 dir = s0.normalized();
  const double t_stop = 2.0 * s0.norm() / (7.0 * mu * kG);
  Workspace ws;
  double min_along = s0.norm(), stopped_at = -1.0;
  while (state.time < 0.6 - 0.5 * h) {
    step(model, state, ws);
    const Vec3 s = slip();
    min_along = std::min(min_along, s.dot(dir));
    EXPECT_LE(s.cross(dir).norm(), 1e-9) << "t = " << state.time;  // the slip keeps its direction
    if (stopped_at < 0.0 && s.norm() <= 1e-9) stopped_at = state.time;
  }
  EXPECT_GE(min_along, -1e-9);  // never reverses
  EXPECT_NEAR(stopped_at, t_stop, h);
  EXPECT_LE(slip().norm(), 1e-9);  // rolls
  const Vec3 v_roll = v0 - (2.0 / 7.0) * s0;
  EXPECT_LE((state.v_WC[ball] - v_roll).norm(), 1e-9);
  // No moment about the normal: ω_z kept to the round-off of 600 steps of the rotation and
  // inertia updates (measured 2.1e-12 rad/s).
  EXPECT_NEAR(state.w_W[ball].z(), w0.z(), 1e-10);
}

}  // namespace
}  // namespace coulomb
