// Whole scenes of scenes/: the tippe top (issue 4: inversion and its convergence in h), Painlevé's
// rod, a stack of ten boxes.
#include <coulomb/scene/scene.hpp>
#include <coulomb/world/simulation.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace coulomb {
namespace {

Scene load(const char* name) {
  return load_scene_file(std::string(COULOMB_SOURCE_DIR "/scenes/") + name);
}

// The scene as a simulation, after `edit` (a time step, ...).
template <class Edit>
Simulation simulate(const char* name, Edit&& edit) {
  Scene scene = load(name);
  edit(scene.model);
  return Simulation(std::move(scene.model), std::move(scene.state));
}
Simulation simulate(const char* name) {
  return simulate(name, [](Model&) {});
}

// Angle between the tippe top's axis (body z, towards the stem) and the vertical [rad].
double axis_angle(const State& s, int b) {
  const Vec3 axis = s.q_WB[b] * Vec3::UnitZ();
  return std::acos(std::clamp(axis.z(), -1.0, 1.0));
}

// Time at which the axis angle first crosses `level` (linear interpolation between steps), and
// the largest angle reached before `end`.
struct Flip {
  double crossing = -1.0;
  double max_angle = 0.0;
};
Flip run_tippe_top(double h, double level, double end) {
  Simulation sim = simulate("tippe-top.yaml", [h](Model& m) { m.time_step = h; });
  const int top = sim.model().body_index("top");
  Flip flip;
  double previous = axis_angle(sim.state(), top);
  sim.run_to(end, [&](const StepReport& r) {
    EXPECT_EQ(r.solver.status, SolverStatus::converged);
    const double now = axis_angle(sim.state(), top);
    if (flip.crossing < 0.0 && previous < level && now >= level)
      flip.crossing = sim.state().time - h + h * (level - previous) / (now - previous);
    flip.max_angle = std::max(flip.max_angle, now);
    previous = now;
  });
  EXPECT_TRUE(sim.finite()) << sim.non_finite();
  return flip;
}

TEST(Scenes, TippeTopInverts) {
  // Leine & Glocker's top turns over onto its stem: the axis passes 0.9 π.
  const Flip flip = run_tippe_top(2.5e-4, 0.9 * kPi, 2.0);
  EXPECT_GT(flip.max_angle, 0.9 * kPi);
  EXPECT_GT(flip.crossing, 0.5);
}

TEST(Scenes, TippeTopInversionTimeConvergesInH) {
  // The inversion time (axis through the horizontal, the middle of the flip) as h halves from
  // 1e-3 to 1.25e-4: successive differences shrink (Moreau–Jean is first order). The crossing of
  // 0.9 π is ill-conditioned for this check: the axis creeps near its highest angle there, so a
  // tiny change of the angle moves the crossing by milliseconds (see docs/validation notes).
  double t[4];
  double h = 1e-3;
  for (double& ti : t) {
    ti = run_tippe_top(h, 0.5 * kPi, 1.2).crossing;
    ASSERT_GT(ti, 0.0);
    h *= 0.5;
  }
  const double d1 = std::abs(t[1] - t[0]), d2 = std::abs(t[2] - t[1]), d3 = std::abs(t[3] - t[2]);
  RecordProperty("inversion_times", std::to_string(t[0]) + " " + std::to_string(t[1]) + " " +
                                        std::to_string(t[2]) + " " + std::to_string(t[3]));
  EXPECT_LT(d2, d1);
  EXPECT_LT(d3, d2);
}

TEST(Scenes, PainleveRodPassesThroughTheParadox) {
  // μ = 5/3 > 4/3: the lower end jams; impulsive time stepping passes through without blow-up,
  // and the mechanical energy never increases (to round-off).
  Simulation sim = simulate("painleve-rod.yaml");
  Energy e = energy(sim.model(), sim.state());
  double previous = e.kinetic + e.potential;
  double worst_increase = 0.0;
  sim.run_to(sim.model().end_time, [&](const StepReport& r) {
    EXPECT_NE(r.solver.status, SolverStatus::non_finite);
    e = energy(sim.model(), sim.state());
    worst_increase = std::max(worst_increase, e.kinetic + e.potential - previous);
    previous = e.kinetic + e.potential;
  });
  ASSERT_TRUE(sim.finite()) << sim.non_finite();
  EXPECT_LE(worst_increase, 1e-9 * 455.0);  // round-off of a 455 J budget
  EXPECT_LT(previous, 455.0);               // friction dissipated energy
}

TEST(Scenes, SpinningTopStaysUpAtCoarseStep) {
  // A cone top at 200 rad/s on its apex, h = 1e-3 (issue 2): the implicit gyroscopic step keeps
  // it stable: it precesses with a bounded tilt, never gains energy, keeps its spin.
  Simulation sim = simulate("spinning-top.yaml", [](Model& m) { m.time_step = 1e-3; });
  const int top = sim.model().body_index("top");
  Energy e = energy(sim.model(), sim.state());
  double previous = e.kinetic + e.potential, worst_increase = 0.0, max_tilt = 0.0;
  sim.run_to(2.0, [&](const StepReport&) {
    e = energy(sim.model(), sim.state());
    worst_increase = std::max(worst_increase, e.kinetic + e.potential - previous);
    previous = e.kinetic + e.potential;
    max_tilt = std::max(max_tilt, axis_angle(sim.state(), top));
  });
  ASSERT_TRUE(sim.finite()) << sim.non_finite();
  EXPECT_LE(worst_increase, 1e-12);
  EXPECT_LT(max_tilt, 0.2);  // started at 0.1 rad
  EXPECT_GT(sim.state().w_W[top].norm(), 150.0);
}

TEST(Scenes, StackOfTenBoxesStaysAtRest) {
  // Ten unit cubes, μ = 0.5, 10 s at h = 1e-3: every cube within 1e-6 m of where it started.
  Simulation sim = simulate("box-stack-10.yaml");
  const std::vector<Vec3> x0 = sim.state().x_WC;
  sim.run_to(sim.model().end_time,
             [](const StepReport& r) { EXPECT_EQ(r.solver.status, SolverStatus::converged); });
  for (std::size_t b = 0; b < x0.size(); ++b)
    EXPECT_LE((sim.state().x_WC[b] - x0[b]).norm(), 1e-6) << sim.model().bodies[b].name;
}

}  // namespace
}  // namespace coulomb
