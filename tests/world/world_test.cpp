// Moreau–Jean with Signorini–Coulomb against closed forms (reference/contensou.md §3) and a peer
// (Siconos' bouncing ball).
#include <coulomb/world/world.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "world/builders.hpp"

namespace coulomb {
namespace {

using testing::add_body;
using testing::BodyInit;

constexpr double kG = 9.81;

// ---------------------------------------------------------------------------------------------
// Billiard ball, point contact: slides until t* = 2|v0 − Rω0|/(7μg), then rolls at (5v0 + 2Rω0)/7.
struct Billiard {
  Model model;
  State state;
  int ball = -1;
  double R = 0.028575, m = 0.17, mu = 0.2, v0 = 2.0;
  Billiard(double omega0, double h) {
    model = testing::make_model(mu, 0.0, h, 1.0);
    add_body(model, state, {.name = "table", .fixed = true}, {testing::plane_shape()});
    ball = add_body(model, state,
                    {.name = "ball",
                     .mass = m,
                     .inertia_B = testing::solid_sphere_inertia(m, R),
                     .x = Vec3(0, 0, R),
                     .v = Vec3(v0, 0, 0),
                     .w = Vec3(0, omega0, 0)},
                    {testing::sphere_shape(R)});
  }
  // Slip velocity of the ball at the contact point (ball is body 2, table body 1).
  double slip() const { return state.v_WC[ball].x() - R * state.w_W[ball].y(); }
};

void check_billiard(double omega0) {
  Billiard b(omega0, 1e-4);
  b.model.finalize();
  Workspace ws;
  const double t_star = 2.0 * std::abs(b.v0 - b.R * omega0) / (7.0 * b.mu * kG);
  const double e0 = energy(b.model, b.state).kinetic + energy(b.model, b.state).potential;
  double worst_slip_after = 0.0;
  while (b.state.time < 1.0 - 0.5 * b.model.time_step) {
    const StepReport& r = step(b.model, b.state, ws);
    ASSERT_EQ(r.solver.status, SolverStatus::converged);
    // The slide ends inside the step that contains t*; from the next step on the slip is zero.
    if (b.state.time > t_star + 2 * b.model.time_step)
      worst_slip_after = std::max(worst_slip_after, std::abs(b.slip()));
    // The ball stays on the table: no vertical motion at all.
    ASSERT_EQ(b.state.x_WC[b.ball].z(), b.R);
  }
  const double v_final = (5.0 * b.v0 + 2.0 * b.R * omega0) / 7.0;
  // 1e-9: the discrete impulses conserve the angular momentum about the contact line exactly,
  // so only round-off separates the result from the closed form.
  EXPECT_NEAR(b.state.v_WC[b.ball].x(), v_final, 1e-9 * std::abs(v_final));
  EXPECT_LE(worst_slip_after, 1e-12);  // rolling without slipping: exact stick
  // Energy audit: kinetic + potential + dissipated constant to round-off (θ = 1/2).
  const Energy e1 = energy(b.model, b.state);
  EXPECT_NEAR(e1.kinetic + e1.potential + b.state.dissipated, e0, 1e-12 * e0 + 1e-15);
  EXPECT_GT(b.state.dissipated, 0.0);
  // All of it by friction (no impact: the ball rests on the table), and the split adds up.
  EXPECT_NEAR(b.state.dissipated_by_kind[1], b.state.dissipated, 1e-12 * b.state.dissipated);
  EXPECT_NEAR(b.state.dissipated_by_kind[0], 0.0,
              1e-12 * e0);  // round-off of u_N ≈ 1e-16 m/s over 10^4 steps
  // The closed form: the slide dissipates (1/2) m v0² − (1/2)(m + I/R²) v_final² with I = 2/5 m R²
  // (rolling kinetic energy), for ω0 = 0; in general compare against the kinetic energy drop.
  EXPECT_NEAR(b.state.dissipated, e0 - e1.kinetic - e1.potential, 1e-12 * e0);
}

TEST(MoreauJean, BilliardNoSpinRollsAtFiveSevenths) { check_billiard(0.0); }
TEST(MoreauJean, BilliardTopSpin) { check_billiard(30.0); }
TEST(MoreauJean, BilliardBackSpin) { check_billiard(-30.0); }

TEST(MoreauJean, BilliardSlipShrinksLinearlyThenStops) {
  Billiard b(0.0, 1e-4);
  b.model.finalize();
  Workspace ws;
  // While sliding: d(slip)/dt = −(7/2) μ g exactly per step (friction impulse μ N h, N = m g).
  step(b.model, b.state, ws);
  const double s1 = b.slip();
  step(b.model, b.state, ws);
  const double s2 = b.slip();
  EXPECT_NEAR((s1 - s2) / b.model.time_step, 3.5 * b.mu * kG, 1e-9 * 3.5 * b.mu * kG);
}

// ---------------------------------------------------------------------------------------------
// Block on an incline (plane through the origin with normal tilted by α about y).
struct Incline {
  Model model;
  State state;
  int box = -1;
  Vec3 n, down;  // plane normal, downhill direction
  Incline(double alpha, double mu, double h, double end) {
    model = testing::make_model(mu, 0.0, h, end);
    const Quat q(Eigen::AngleAxisd(alpha, Vec3::UnitY()));
    n = q * Vec3::UnitZ();
    down = q * Vec3(1, 0, 0);  // downhill: gravity projected on the plane points along +x_B
    const Vec3 half(0.1, 0.1, 0.05);
    add_body(model, state, {.name = "ground", .fixed = true}, {testing::plane_shape(n, 0.0)});
    box = add_body(model, state,
                   {.name = "box",
                    .mass = 1.0,
                    .inertia_B = testing::box_inertia(1.0, half),
                    .x = half.z() * n,
                    .q = q},
                   {testing::box_shape(half)});
  }
};

TEST(MoreauJean, InclineSticksBelowFrictionAngle) {
  const double mu = 0.5, alpha = std::atan(0.4);
  Incline s(alpha, mu, 1e-3, 2.0);
  s.model.solver.tolerance = 1e-12;
  s.model.finalize();
  Workspace ws;
  const Vec3 x0 = s.state.x_WC[s.box];
  while (s.state.time < 2.0 - 0.5e-3)
    ASSERT_EQ(step(s.model, s.state, ws).solver.status, SolverStatus::converged);
  EXPECT_LE((s.state.x_WC[s.box] - x0).norm(), 1e-9);  // sticks: the bound
}

TEST(MoreauJean, InclineSlidesAtCoulombAcceleration) {
  const double mu = 0.5, alpha = std::atan(0.6);
  Incline s(alpha, mu, 1e-3, 1.0);
  s.model.solver.tolerance = 1e-12;
  s.model.finalize();
  Workspace ws;
  while (s.state.time < 1.0 - 0.5e-3)
    ASSERT_EQ(step(s.model, s.state, ws).solver.status, SolverStatus::converged);
  const double a = kG * (std::sin(alpha) - mu * std::cos(alpha));
  const double v = s.state.v_WC[s.box].dot(s.down);
  // Constant acceleration: the discrete velocity is exactly a t up to the solver tolerance.
  EXPECT_NEAR(v / s.state.time, a, 1e-6 * a);
  EXPECT_NEAR(s.state.v_WC[s.box].dot(s.n), 0.0, 1e-9);
}

// Static and kinetic coefficients (μ_s = 0.5, μ_k = 0.3) on the incline.
struct InclineStaticKinetic : Incline {
  InclineStaticKinetic(double tan_alpha, double v0, double end)
      : Incline(std::atan(tan_alpha), 0.0, 1e-3, end) {
    model.contacts[0].friction.params = {{"mu_s", 0.5}, {"mu_k", 0.3}};
    model.solver.tolerance = 1e-12;
    state.v_WC[box] = v0 * down;
    model.finalize();
  }
  void run_to(double t, Workspace& ws) {
    while (state.time < t - 0.5e-3)
      ASSERT_EQ(step(model, state, ws).solver.status, SolverStatus::converged);
  }
};

TEST(MoreauJean, StaticThresholdIsExactBelow) {
  // tan α a millionth below μ_s: a body at rest sticks.
  InclineStaticKinetic s(0.5 * (1.0 - 1e-6), 0.0, 2.0);
  Workspace ws;
  const Vec3 x0 = s.state.x_WC[s.box];
  s.run_to(2.0, ws);
  EXPECT_LE((s.state.x_WC[s.box] - x0).norm(), 1e-9);
}

TEST(MoreauJean, StaticThresholdIsExactAbove) {
  // tan α a millionth above μ_s: it breaks loose at the first step (μ_s), then slides with μ_k.
  const double tan_alpha = 0.5 * (1.0 + 1e-6), alpha = std::atan(tan_alpha), h = 1e-3;
  InclineStaticKinetic s(tan_alpha, 0.0, 1.0);
  Workspace ws;
  s.run_to(1.0, ws);
  const double a_s = kG * (std::sin(alpha) - 0.5 * std::cos(alpha));
  const double a_k = kG * (std::sin(alpha) - 0.3 * std::cos(alpha));
  const double expected = a_s * h + a_k * (s.state.time - h);
  EXPECT_NEAR(s.state.v_WC[s.box].dot(s.down), expected, 1e-6 * expected);
}

TEST(MoreauJean, SlidingBodyDeceleratesWithKineticThenSticks) {
  // μ_k < tan α < μ_s, launched uphill at 1 m/s: decelerates at g (sin α + μ_k cos α), stops at
  // t* = v0 / that, then sticks for good (μ_s holds it).
  const double tan_alpha = 0.4, alpha = std::atan(tan_alpha), v0 = 1.0;
  InclineStaticKinetic s(tan_alpha, -v0, 1.0);
  Workspace ws;
  const Vec3 x0 = s.state.x_WC[s.box];
  const double decel = kG * (std::sin(alpha) + 0.3 * std::cos(alpha));
  const double t_stop = v0 / decel;
  s.run_to(0.1, ws);
  EXPECT_NEAR(s.state.v_WC[s.box].dot(s.down), -v0 + decel * 0.1, 1e-9);
  s.run_to(t_stop + 0.01, ws);
  const Vec3 x_stop = s.state.x_WC[s.box];
  // Distance to the stop: v0²/(2 decel), up to the step's discretisation (one step of travel).
  EXPECT_NEAR((x_stop - x0).norm(), v0 * v0 / (2.0 * decel), v0 * 1e-3);
  s.run_to(1.0, ws);
  EXPECT_LE((s.state.x_WC[s.box] - x_stop).norm(), 1e-9);  // sticks after stopping
}

// Tangential restitution: a ball hitting the ground with e_n = 1, e_t = 1 and ample friction
// leaves with its normal velocity and its contact-point slip both reversed (a "superball").
TEST(MoreauJean, TangentialRestitutionReversesSlip) {
  const double R = 0.1, m = 1.0;
  Model model = testing::make_model(10.0, 1.0, 1e-4, 1.0);
  model.contacts[0].normal.params["tangential_restitution"] = 1.0;
  model.gravity.setZero();
  State state;
  add_body(model, state, {.name = "ground", .fixed = true}, {testing::plane_shape()});
  const int ball = add_body(model, state,
                            {.name = "ball",
                             .mass = m,
                             .inertia_B = testing::solid_sphere_inertia(m, R),
                             .x = Vec3(0, 0, R + 1e-4),
                             .v = Vec3(1.0, 0, -2.0)},
                            {testing::sphere_shape(R)});
  model.finalize();
  Workspace ws;
  const double slip0 = state.v_WC[ball].x() - R * state.w_W[ball].y();
  // The midpoint scheme evaluates the contact half a step in (h/2 · 2 m/s = 1e-4 m lower): the
  // ball starts 1e-4 m up, so it touches (gap 0) at the first step's midpoint and the impact acts
  // at the sphere's lowest point exactly.
  for (int i = 0; i < 20; ++i) step(model, state, ws);
  const double slip1 = state.v_WC[ball].x() - R * state.w_W[ball].y();
  EXPECT_NEAR(state.v_WC[ball].z(), 2.0, 1e-12);
  EXPECT_NEAR(slip1, -slip0, 1e-12);
  // Energy: e_n = e_t = 1 and a sticking impulse conserve kinetic energy.
  EXPECT_NEAR(energy(model, state).kinetic, 0.5 * m * 5.0, 1e-12);
}

// ---------------------------------------------------------------------------------------------
// Bouncing ball: Siconos' BouncingBallTS (θ = 1/2, γ = 1/2 active set, e = 0.9, h = 0.005).
TEST(MoreauJean, BouncingBallMatchesSiconos) {
  std::ifstream in(COULOMB_SOURCE_DIR "/tests/data/siconos-bouncing-ball/BouncingBallTS.ref");
  ASSERT_TRUE(in.good());
  int rows = 0, cols = 0;
  in >> rows >> cols;
  ASSERT_EQ(cols, 5);
  std::vector<std::array<double, 5>> ref(rows);
  for (auto& row : ref)
    for (double& x : row) in >> x;

  const double R = 0.1, h = 0.005;
  Model model = testing::make_model(0.0, 0.9, h, 10.0);
  model.solver.scheme = TimeScheme::moreau_jean;  // Siconos' MoreauJeanOSI, no position stage
  model.solver.position_correction = false;
  model.solver.active_set = ActiveSetRule::siconos;
  model.solver.tolerance = 1e-14;
  State state;
  add_body(model, state, {.name = "ground", .fixed = true}, {testing::plane_shape()});
  const int ball = add_body(model, state,
                            {.name = "ball",
                             .mass = 1.0,
                             .inertia_B = testing::solid_sphere_inertia(1.0, R),
                             .x = Vec3(0, 0, 1.0 + R)},
                            {testing::sphere_shape(R)});
  model.finalize();
  Workspace ws;
  double worst = 0.0;
  for (int k = 1; k < rows; ++k) {
    step(model, state, ws);
    const double impulse =
        ws.active_set.active.empty() ? 0.0 : std::get<ContactBuffers<kForce>>(ws.contact).r[0].x();
    const double got[4] = {state.time, state.x_WC[ball].z() - R, state.v_WC[ball].z(), impulse};
    for (int c = 0; c < 4; ++c) worst = std::max(worst, std::abs(got[c] - ref[k][c]));
    ASSERT_NEAR(got[1], ref[k][1], 1e-9) << "row " << k;
    ASSERT_NEAR(got[2], ref[k][2], 1e-9) << "row " << k;
    ASSERT_NEAR(got[3], ref[k][3], 1e-9) << "row " << k;
  }
  std::ostringstream out;
  out << std::scientific << worst;
  RecordProperty("worst_abs_difference", out.str());
}

// ---------------------------------------------------------------------------------------------
// Resting boxes: a box on a plane and a stack of 5 boxes stay put.
void check_stack(int count) {
  const Vec3 half(0.5, 0.5, 0.5);
  Model model = testing::make_model(0.5, 0.0, 1e-3, 10.0);
  State state;
  add_body(model, state, {.name = "ground", .fixed = true}, {testing::plane_shape()});
  std::vector<int> boxes;
  for (int i = 0; i < count; ++i)
    boxes.push_back(add_body(model, state,
                             {.name = "box" + std::to_string(i),
                              .mass = 1.0,
                              .inertia_B = testing::box_inertia(1.0, half),
                              .x = Vec3(0, 0, 0.5 + i)},
                             {testing::box_shape(half)}));
  model.finalize();
  Workspace ws;
  std::vector<Vec3> x0 = state.x_WC;
  while (state.time < 10.0 - 0.5e-3)
    ASSERT_NE(step(model, state, ws).solver.status, SolverStatus::non_finite);
  for (int b : boxes) EXPECT_LE((state.x_WC[b] - x0[b]).norm(), 1e-6) << model.bodies[b].name;
}

TEST(MoreauJean, BoxRestsOnPlane) { check_stack(1); }
TEST(MoreauJean, StackOfFiveBoxesStaysPut) { check_stack(5); }

// ---------------------------------------------------------------------------------------------
// Torque-free asymmetric body through the whole pipeline: energy and angular momentum.
TEST(MoreauJean, DzhanibekovConservesEnergyAndMomentum) {
  Model model = testing::make_model(0.0, 0.0, 1e-3, 10.0);
  model.gravity.setZero();
  State state;
  const int b = add_body(model, state,
                         {.name = "t",
                          .mass = 1.0,
                          .inertia_B = Vec3(1.0, 2.0, 2.8).asDiagonal(),
                          .w = Vec3(0.1, 10.0, 0.1)},
                         {});
  model.finalize();
  Workspace ws;
  auto momentum = [&] {
    return Vec3(state.q_WB[b] *
                (model.bodies[b].inertia_B * (state.q_WB[b].conjugate() * state.w_W[b])));
  };
  const double e0 = energy(model, state).kinetic;
  const Vec3 L0 = momentum();
  int flips = 0;
  double last = (state.q_WB[b].conjugate() * state.w_W[b]).y();
  while (state.time < 10.0 - 0.5e-3) {
    step(model, state, ws);
    const double now = (state.q_WB[b].conjugate() * state.w_W[b]).y();
    if (now * last < 0) ++flips;
    last = now;
  }
  EXPECT_GE(flips, 2);  // it flips periodically
  EXPECT_NEAR(energy(model, state).kinetic, e0, 1e-9 * e0);
  EXPECT_LE((momentum() - L0).norm(), 1e-9 * L0.norm());
}

// ---------------------------------------------------------------------------------------------
// Determinism: the same model stepped twice gives bit-identical states.
// The active-set rule is a setting the step reads: a ball at rest 1 µm above the plane, h = 1 ms.
// "predicted" takes the contact into the step (end gap 1e-6 − h²g/2 < 0: the contact holds the
// ball), Siconos' rule does not (g + (h/2) ġ_k = 1e-6 > 0: the ball falls freely for a step).
TEST(MoreauJean, ActiveSetRuleDecidesWhichContactsJoinTheStep) {
  for (const ActiveSetRule rule : {ActiveSetRule::predicted, ActiveSetRule::siconos}) {
    SCOPED_TRACE(to_string(rule));
    const double R = 0.1, h = 1e-3, g0 = 1e-6;
    Model model = testing::make_model(0.0, 0.0, h, 1.0);
    model.solver.scheme = TimeScheme::moreau_jean;
    model.solver.position_correction = false;
    model.solver.active_set = rule;
    State state;
    add_body(model, state, {.name = "ground", .fixed = true}, {testing::plane_shape()});
    const int ball = add_body(model, state,
                              {.name = "ball",
                               .mass = 1.0,
                               .inertia_B = testing::solid_sphere_inertia(1.0, R),
                               .x = Vec3(0, 0, R + g0)},
                              {testing::sphere_shape(R)});
    model.finalize();
    Workspace ws;
    const StepReport& r = step(model, state, ws);
    EXPECT_EQ(r.contact_points, 1);
    if (rule == ActiveSetRule::predicted) {
      EXPECT_EQ(r.active_contacts, 1);
      EXPECT_NEAR(state.v_WC[ball].z(), 0.0, 1e-9);
    } else {
      EXPECT_EQ(r.active_contacts, 0);
      EXPECT_DOUBLE_EQ(state.v_WC[ball].z(), -kG * h);
    }
  }
}

// The step reads the compiled part of the model: one built in code and never finalized (or
// resized after finalize()) is refused, not stepped on stale numbers.
TEST(World, StepRefusesAModelThatIsNotCompiled) {
  Billiard b(0.0, 1e-3);
  Workspace ws;
  EXPECT_THROW(step(b.model, b.state, ws), std::logic_error);
  b.model.finalize();
  EXPECT_NO_THROW(step(b.model, b.state, ws));
  b.model.materials.push_back(Material{"new"});
  EXPECT_THROW(step(b.model, b.state, ws), std::logic_error);
}

TEST(MoreauJean, BitIdenticalRuns) {
  auto run_once = [] {
    Billiard b(10.0, 1e-4);
    b.model.finalize();
    Workspace ws;
    for (int i = 0; i < 3000; ++i) step(b.model, b.state, ws);
    return b.state;
  };
  const State a = run_once(), c = run_once();
  ASSERT_EQ(a.x_WC.size(), c.x_WC.size());
  for (std::size_t i = 0; i < a.x_WC.size(); ++i) {
    EXPECT_EQ(std::memcmp(a.x_WC[i].data(), c.x_WC[i].data(), sizeof(Vec3)), 0);
    EXPECT_EQ(std::memcmp(a.w_W[i].data(), c.w_W[i].data(), sizeof(Vec3)), 0);
    EXPECT_EQ(std::memcmp(a.q_WB[i].coeffs().data(), c.q_WB[i].coeffs().data(), 4 * sizeof(double)),
              0);
  }
}

// Budget mode (solver.max_step_iterations): a tower of 10 boxes from rest, NSGS (its cold first
// steps take hundreds of sweeps, docs/benchmarks.md): no step's solves take more sweeps than the
// budget, a step stopped by it reports status max_iterations with the true error of the answer it
// applied, and the steps converge again once the warm start holds the answer. Without the budget
// the first step takes more than it (the scene does need it).
TEST(Budget, StepSweepsStayWithinTheBudgetAndTheErrorIsReported) {
  const auto tower = [](int budget, Model& model, State& state) {
    const Vec3 half(0.5, 0.5, 0.5);
    model = testing::make_model(0.5, 0.0, 1e-3, 1.0);
    ASSERT_TRUE(parse_solver_kind("nsgs", model.solver.kind));
    model.solver.max_step_iterations = budget;
    add_body(model, state, {.name = "ground", .fixed = true}, {testing::plane_shape()});
    for (int i = 0; i < 10; ++i)
      add_body(model, state,
               {.name = "box" + std::to_string(i),
                .mass = 1.0,
                .inertia_B = testing::box_inertia(1.0, half),
                .x = Vec3(0, 0, 0.5 + i)},
               {testing::box_shape(half)});
    model.finalize();
  };
  constexpr int kBudget = 20;
  {
    Model model;
    State state;
    tower(0, model, state);
    Workspace ws;
    EXPECT_GT(step(model, state, ws).solver.iterations, kBudget);
  }
  Model model;
  State state;
  tower(kBudget, model, state);
  Workspace ws;
  int stopped = 0, converged = 0;
  for (int k = 0; k < 300; ++k) {
    const StepReport& report = step(model, state, ws);
    ASSERT_TRUE(report.finite);
    EXPECT_LE(report.solver.iterations, kBudget) << "step " << k;
    if (report.solver.status == SolverStatus::max_iterations) {
      ++stopped;
      EXPECT_GT(report.solver.error, model.solver.tolerance) << "step " << k;
    } else {
      EXPECT_EQ(report.solver.status, SolverStatus::converged) << "step " << k;
      EXPECT_LE(report.solver.error, model.solver.tolerance) << "step " << k;
      ++converged;
    }
  }
  EXPECT_GT(stopped, 0);
  EXPECT_GT(converged, 0);
}

}  // namespace
}  // namespace coulomb
