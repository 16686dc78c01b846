// The compliant formulation's driver (coulomb/compliant/engine.hpp), through the Simulation that
// owns it: a ball resting on a damped Hertz contact (static indentation), a bounce without
// damping (onset and release events, energy), the three integrators on one scene, determinism,
// a state edited between steps, and the elastic stick holding below μ_s N and slipping above.
#include <coulomb/compliant/engine.hpp>
#include <coulomb/scene/scene.hpp>
#include <coulomb/world/simulation.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace coulomb {
namespace {

Simulation load(const std::string& text) {
  Scene scene = load_scene_text(text, "engine.yaml");
  return Simulation(std::move(scene.model), std::move(scene.state));
}

double total_energy(const Simulation& s) {
  const Energy e = energy(s.model(), s.state());
  return e.mechanical() + s.state().dissipated;
}

// A steel ball (R = 1 cm, 1 kg given) dropped from `height` (gap) on a plane.
std::string drop(const std::string& normal, const std::string& integrator, double height,
                 double end) {
  return R"(
time: {end: )" +
         std::to_string(end) + R"(, step: 1.0e-3}
solver: {formulation: compliant, integrator: )" +
         integrator + R"(, rtol: 1.0e-9, atol: 1.0e-12}
materials: [{name: steel, young_modulus: 2.0e11, poisson_ratio: 0.3}]
contacts: [{between: [steel, steel], normal: )" +
         normal + R"(}]
bodies:
  - {name: ground, fixed: true, material: steel, shapes: [{type: plane}]}
  - {name: ball, material: steel, mass: 1.0, shapes: [{type: sphere, radius: 0.01}],
     position: [0, 0, )" +
         std::to_string(0.01 + height) + R"(]}
)";
}

TEST(CompliantEngine, DampedBallSettlesAtTheStaticIndentation) {
  // A linear spring–dashpot (ζ = 0.5) comes to rest where k δ = m g.
  Simulation s = load(drop("{law: linear, stiffness: 1.0e6, damping: 1000}", "bdf", 0.001, 0.5));
  const double e0 = total_energy(s);
  s.run_to(0.5);
  ASSERT_TRUE(s.finite()) << s.non_finite();
  const double delta = 9.81 / 1.0e6;
  // Settled: the vibration decays as exp(−ζ ω t) = exp(−500 t), nothing left at 0.5 s.
  EXPECT_NEAR(0.01 - s.state().x_WC[1].z(), delta, 1e-6 * delta);
  EXPECT_NEAR(s.state().v_WC[1].norm(), 0.0, 1e-9);
  // The audit closes: what the contact removed went to the normal kind; the spring holds
  // ½ k δ².
  EXPECT_NEAR(total_energy(s), e0, 1e-6 * e0);
  EXPECT_GT(s.state().dissipated_by_kind[static_cast<std::size_t>(EnergyKind::normal)], 0.0);
  EXPECT_NEAR(s.state().compliant.elastic, 0.5 * 1.0e6 * delta * delta,
              1e-6 * 0.5 * 1e6 * delta * delta);
  // The integrator's statistics reach the workspace's report.
  EXPECT_GT(s.workspace().report.integrator.steps, 0);
  EXPECT_GT(s.workspace().report.integrator.jacobian_evaluations, 0);
  EXPECT_EQ(s.workspace().report.active_contacts, 1);
}

TEST(CompliantEngine, BounceWithoutDampingReturnsToItsHeight) {
  // Hertz without damping: onset and release are events; the ball comes back to its height.
  const double h = 0.002;
  Simulation s = load(drop("{law: hertz}", "erk", h, 0.05));
  const double e0 = total_energy(s);
  double apex = 0.0, t_apex = 0.0;
  bool up = false;
  s.run_to(0.05, [&](const StepReport&) {
    if (s.state().v_WC[1].z() > 0.0) up = true;
    if (up && s.state().x_WC[1].z() > apex) {
      apex = s.state().x_WC[1].z();
      t_apex = s.state().time;
    }
  });
  const auto& events = s.compliant()->events();
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[0].kind, CompliantEvent::Kind::onset);
  EXPECT_EQ(events[1].kind, CompliantEvent::Kind::release);
  // Free fall to the contact: t = √(2h/g).
  EXPECT_NEAR(events[0].time, std::sqrt(2 * h / 9.81), 1e-9);
  // Apex at 2 √(2h/g) plus the contact time, sampled every 1 ms: the height within g h_s²/2.
  EXPECT_NEAR(apex, 0.01 + h, 0.5 * 9.81 * 1e-6 + 1e-9);
  EXPECT_GT(t_apex, 2 * events[0].time);
  EXPECT_NEAR(total_energy(s), e0, 1e-7 * e0);
  EXPECT_EQ(s.compliant()->event_counts()[0], s.compliant()->event_counts()[1]);
}

TEST(CompliantEngine, TheThreeIntegratorsAgree) {
  // A bounce with damping: the state at 40 ms from erk, dirk and bdf within their tolerances.
  Vec3 x[3], v[3];
  const char* names[3] = {"erk", "dirk", "bdf"};
  for (int k = 0; k < 3; ++k) {
    Simulation s = load(drop("{law: hunt_crossley, damping: 0.5}", names[k], 0.002, 0.04));
    s.run_to(0.04);
    ASSERT_TRUE(s.finite()) << names[k] << ": " << s.non_finite();
    x[k] = s.state().x_WC[1];
    v[k] = s.state().v_WC[1];
  }
  for (int k = 1; k < 3; ++k) {
    EXPECT_NEAR((x[k] - x[0]).norm(), 0.0, 1e-7) << names[k];
    EXPECT_NEAR((v[k] - v[0]).norm(), 0.0, 1e-5) << names[k];
  }
}

TEST(CompliantEngine, SameInputGivesBitIdenticalStates) {
  auto run = [] {
    Simulation s = load(drop("{law: hunt_crossley, damping: 0.5}", "erk", 0.002, 0.03));
    s.run_to(0.03);
    return s.state();
  };
  const State a = run(), b = run();
  EXPECT_EQ(a.x_WC[1], b.x_WC[1]);
  EXPECT_EQ(a.v_WC[1], b.v_WC[1]);
  EXPECT_EQ(a.dissipated, b.dissipated);
}

TEST(CompliantEngine, AStateChangedBetweenStepsRestartsTheIntegrator) {
  Simulation s = load(drop("{law: hertz}", "erk", 0.01, 0.1));
  s.run_to(0.01);
  const std::int64_t restarts = s.compliant()->statistics().restarts;
  // Thrown upwards from where it is: it rises as a free body would.
  s.state().v_WC[1] = Vec3(0.0, 0.0, 1.0);
  const double z0 = s.state().x_WC[1].z();
  s.run_to(0.02);
  EXPECT_EQ(s.compliant()->statistics().restarts, restarts + 1);
  EXPECT_NEAR(s.state().x_WC[1].z(), z0 + 0.01 - 0.5 * 9.81 * 1e-4, 1e-9);
}

// A ball (1 kg, inertia large enough not to roll) resting on a plane with code_aster's DIS_CHOC
// laws, pulled sideways by a spring whose force ramps up as the anchor is far: force k d.
std::string pulled(double pull) {
  const double k = 100.0;
  const double d = pull / k;
  return R"(
time: {end: 0.2, step: 1.0e-3}
solver: {formulation: compliant, integrator: bdf, rtol: 1.0e-8, atol: 1.0e-12}
gravity: [0, 0, -10]
materials: [{name: steel}]
contacts:
  - between: [steel, steel]
    normal: {law: dis_choc, stiffness: 1.0e6, damping: 2000}
    friction: {law: elastic_stick, mu_s: 0.5, mu_k: 0.3, stiffness: 1.0e5, damping: 600}
bodies:
  - {name: ground, fixed: true, material: steel, shapes: [{type: plane}]}
  - {name: ball, material: steel, mass: 1.0, inertia: [100, 100, 100],
     shapes: [{type: sphere, radius: 0.01}], position: [0, 0, 0.00999]}
springs:
  - {body: ball, anchor: [)" +
         std::to_string(d) + R"(, 0, 0.00999], stiffness: )" + std::to_string(k) + R"(}
)";
}

TEST(CompliantEngine, ElasticStickHoldsBelowTheCapAndSlipsAbove) {
  // Below μ_s N = 5 N (4 N): it sticks from the start; the stick spring takes the load, the ball
  // moves by about 4 N / K_t.
  {
    Simulation s = load(pulled(4.0));
    s.run_to(0.2);
    ASSERT_TRUE(s.finite()) << s.non_finite();
    ASSERT_EQ(s.state().compliant.contacts.size(), 1u);
    EXPECT_NEAR(s.state().x_WC[1].x(), 4.0 / 1.0e5, 0.05 * 4.0 / 1.0e5);
    EXPECT_NEAR(s.state().v_WC[1].x(), 0.0, 1e-6);
    EXPECT_EQ(s.compliant()->event_counts()[3], 0);  // no slip
  }
  // Above it (6 N): the cap breaks at once, the ball slides with μ_k N = 3 N against it.
  {
    Simulation s = load(pulled(6.0));
    s.run_to(0.05);
    ASSERT_TRUE(s.finite()) << s.non_finite();
    EXPECT_GE(s.compliant()->event_counts()[3], 1);  // slipped
    EXPECT_TRUE(s.state().compliant.contacts.empty());
    // m ẍ = k (d − x) − μ_k N: x = (d − μ_k N/k)(1 − cos ωt), ω = √(k/m) = 10 rad/s, so
    // v = (d − μ_k N/k) ω sin ωt; 1 % covers the short stick phase at the start (the stick
    // spring loads to μ_s N in ~0.1 ms) and the normal compliance.
    const double w = 10.0, amplitude = 0.06 - 3.0 / 100.0;
    EXPECT_NEAR(s.state().v_WC[1].x(), amplitude * w * std::sin(w * 0.05),
                0.01 * amplitude * w * std::sin(w * 0.05));
    // The slip dissipates μ_k N ∫ v dt (friction kind).
    EXPECT_GT(s.state().dissipated_by_kind[static_cast<std::size_t>(EnergyKind::friction)], 0.0);
  }
}

}  // namespace
}  // namespace coulomb
