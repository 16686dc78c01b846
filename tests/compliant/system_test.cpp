// The state ODE of the compliant formulation (coulomb/compliant/system.hpp): layout and round
// trip, the right-hand side against hand-computed values (free body, gravity, a Hertz contact,
// a spring), the stored energy, the root functions, and the analytic Jacobian against central
// differences of the right-hand side, column by column.
#include <coulomb/compliant/system.hpp>
#include <coulomb/scene/scene.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace coulomb {
namespace {

// A compliant scene: a ball of radius 0.1 m, 2 kg, resting slightly inside a fixed plane, with
// the contact laws given (YAML for the contacts entry).
std::string ball_on_plane(const std::string& laws, const std::string& ball_extra = "") {
  return R"(
solver: {formulation: compliant}
materials:
  - {name: steel, young_modulus: 2.0e11, poisson_ratio: 0.3}
contacts:
  - between: [steel, steel]
)" + laws +
         R"(
bodies:
  - {name: ground, fixed: true, material: steel, shapes: [{type: plane}]}
  - name: ball
    material: steel
    mass: 2.0
    inertia: [0.008, 0.009, 0.011]
    shapes: [{type: sphere, radius: 0.1}]
    position: [0, 0, 0.099999]
    velocity: [0.3, -0.2, -0.05]
    angular_velocity: [1.5, 2.0, -3.0]
)" + ball_extra;
}

struct Fixture {
  Scene scene;
  CompliantLawTable laws;
  CompliantSystem system;
  std::vector<double> y;
  explicit Fixture(const std::string& text)
      : scene(load_scene_text(text, "test.yaml")), laws(scene.model), system(scene.model, laws) {
    system.begin_segment(scene.state, y);
  }
  std::vector<double> f(const std::vector<double>& at) {
    std::vector<double> d(at.size());
    EXPECT_EQ(system.rhs(0.0, at, d), 0);
    return d;
  }
};

// Central differences of the right-hand side against the analytic Jacobian, over the columns
// `cols`; step h_j per column, tolerance relative to the largest entry of the column (and an
// absolute floor for columns that are zero).
void expect_jacobian_columns(Fixture& fx, const std::vector<int>& cols,
                             const std::vector<double>& steps, double tol) {
  const auto n = static_cast<int>(fx.y.size());
  std::vector<double> jac(static_cast<std::size_t>(n * n), 0.0);
  ASSERT_EQ(fx.system.jacobian(0.0, fx.y, jac), 0);
  for (std::size_t c = 0; c < cols.size(); ++c) {
    const int j = cols[c];
    std::vector<double> yp = fx.y, ym = fx.y;
    yp[static_cast<std::size_t>(j)] += steps[c];
    ym[static_cast<std::size_t>(j)] -= steps[c];
    const std::vector<double> fp = fx.f(yp), fm = fx.f(ym);
    double scale = 0.0;
    for (int i = 0; i < n - CompliantSystem::kEnergies; ++i)
      scale = std::max(scale, std::abs((fp[i] - fm[i]) / (2 * steps[c])));
    // The energy rows are not in the Jacobian (documented): skip them.
    for (int i = 0; i < n - CompliantSystem::kEnergies; ++i) {
      const double fd = (fp[i] - fm[i]) / (2 * steps[c]);
      EXPECT_NEAR(jac[static_cast<std::size_t>(i + j * n)], fd, tol * std::max(scale, 1e-6))
          << "row " << i << " column " << j;
    }
  }
}

// Column indices of the ball (the only free body: slot 0) for x, q, v, L.
std::vector<int> range(int first, int count) {
  std::vector<int> v;
  for (int i = 0; i < count; ++i) v.push_back(first + i);
  return v;
}

TEST(CompliantSystem, LayoutAndRoundTrip) {
  Fixture fx(ball_on_plane("    normal: {law: hertz}"));
  EXPECT_EQ(fx.system.size(), 13u + 4u);
  EXPECT_EQ(fx.system.slot(0), -1);
  EXPECT_EQ(fx.system.slot(1), 0);
  State back = fx.scene.state;
  back.x_WC[1].setZero();
  back.w_W[1].setZero();
  fx.system.unpack(fx.y, back);
  EXPECT_NEAR((back.x_WC[1] - fx.scene.state.x_WC[1]).norm(), 0.0, 1e-15);
  // ω → L = I_W ω → ω: round-off of the inertia's inverse.
  EXPECT_NEAR((back.w_W[1] - fx.scene.state.w_W[1]).norm(), 0.0, 1e-14);
  EXPECT_NEAR(back.q_WB[1].angularDistance(fx.scene.state.q_WB[1]), 0.0, 1e-15);
}

TEST(CompliantSystem, FreeBodyAndGravity) {
  // Far above the plane: no contact. ẋ = v, v̇ = g, L̇ = 0, q̇ = ½ (0, ω) ⊗ q.
  Fixture fx(ball_on_plane("    normal: {law: hertz}", "    \n"));
  fx.y[2] = 1.0;  // z of the ball
  const std::vector<double> d = fx.f(fx.y);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(d[i], fx.y[7 + i]);
  EXPECT_EQ(d[7], 0.0);
  EXPECT_EQ(d[9], -9.81);
  for (int i = 10; i < 13; ++i) EXPECT_EQ(d[i], 0.0);
  const Vec3 w = fx.scene.state.w_W[1];
  const Quat q(fx.y[3], fx.y[4], fx.y[5], fx.y[6]);
  const Quat dq = Quat(0.0, 0.5 * w.x(), 0.5 * w.y(), 0.5 * w.z()) * q;
  EXPECT_NEAR(d[3], dq.w(), 1e-15);
  EXPECT_NEAR(d[4], dq.x(), 1e-15);
  EXPECT_NEAR(d[6], dq.z(), 1e-15);
  EXPECT_TRUE(fx.system.contacts().empty());
}

TEST(CompliantSystem, HertzContactForceAndStoredEnergy) {
  // Frictionless Hertz sphere on a plane: N = (4/3) E* √R δ^{3/2} along +z at the ball, stored
  // (2/5) K δ^{5/2}; the root function of the listed point is its gap.
  Fixture fx(ball_on_plane("    normal: {law: hertz}\n    friction: {law: coulomb, mu: 0}"));
  fx.y[7] = fx.y[8] = fx.y[9] = 0.0;  // at rest
  const std::vector<double> d = fx.f(fx.y);
  const double delta = 0.1 - fx.y[2];
  const double e_star = 1.0 / (2.0 * (1.0 - 0.09) / 2e11);
  const double k = 4.0 / 3.0 * e_star * std::sqrt(0.1);
  EXPECT_NEAR(d[9], k * std::pow(delta, 1.5) / 2.0 - 9.81, 1e-9 * k * std::pow(delta, 1.5));
  EXPECT_NEAR(fx.system.elastic_energy(), 0.4 * k * std::pow(delta, 2.5), 1e-12);
  // Root functions: onset gap − ε (decreasing), release gap + ε (increasing), the new-point root
  // (the margin: none), the switching function (1: no hybrid law).
  ASSERT_EQ(fx.system.listed().size(), 1u);
  std::vector<double> g(fx.system.root_directions().size());
  ASSERT_EQ(g.size(), 4u);
  ASSERT_EQ(fx.system.roots(0.0, fx.y, g), 0);
  EXPECT_NEAR(g[0], -delta - 1e-12, 1e-15);
  EXPECT_NEAR(g[1], -delta + 1e-12, 1e-15);
  EXPECT_EQ(g[2], fx.scene.model.solver.contact_margin);
  EXPECT_EQ(g[3], 1.0);
  const std::vector<int> directions(fx.system.root_directions().begin(),
                                    fx.system.root_directions().end());
  EXPECT_EQ(directions, (std::vector<int>{-1, 1, -1, -1}));
}

// The laws whose derivatives the Jacobian composes, one scene each.
const std::vector<std::string> kLawSets = {
    "    normal: {law: hertz}\n    friction: {law: regularized, mu: 0.3, regularization: 1.0}",
    "    normal: {law: hunt_crossley, restitution: 0.6, impact_velocity: 1}\n"
    "    friction: {law: stribeck, mu_s: 0.5, mu_k: 0.3, stribeck_velocity: 0.2, regularization: "
    "0.5, viscous: 2}\n    rolling: {k: 0.002, regularization: 10, form: tanh}\n"
    "    pivoting: {h: 0.003, regularization: 10, form: tanh}",
    "    normal: {law: linear, stiffness: 1.0e7, damping: 300}\n"
    "    friction: {law: viscous, damping: 40}",
    "    normal: {law: dis_choc, stiffness: 1.0e7, damping: 300}\n"
    "    friction: {law: coulomb, mu_t1: 0.4, mu_t2: 0.2, regularization: 2.0}",
    "    normal: {law: hertz}\n    friction: {law: coulomb, mu: 0.3}\n"
    "    contensou: {model: pade22, regularization: 1.0e-3}",
    "    normal: {law: hertz}\n    friction: {law: coulomb, mu: 0.3}\n"
    "    contensou: {model: exact, radius: 0.002}",
    "    normal: {law: tsuji, damping: 1000}\n    friction: {law: coulomb, mu: 0.3}\n"
    "    contensou: {model: generalized, regularization: 1.0e-3}\n"
    "    rolling_resistance: {kappa: 0.3, regularization: 100}",
};

TEST(CompliantSystem, JacobianVelocityColumnsMatchDifferences) {
  // ∂f/∂v and ∂f/∂L are exact (the contact geometry does not depend on the velocities): every
  // law set, a sliding, spinning and rolling ball. Central differences with h = 1e-7 (relative
  // to 0.1–3 m/s, kg m²/s): truncation ~h² f''' ≪ 1e-6 of the column.
  for (const std::string& laws : kLawSets) {
    SCOPED_TRACE(laws);
    Fixture fx(ball_on_plane(laws));
    std::vector<int> cols = range(7, 6);
    expect_jacobian_columns(fx, cols, std::vector<double>(cols.size(), 1e-7), 2e-6);
  }
}

TEST(CompliantSystem, JacobianConfigurationColumnsOfFrictionlessContacts) {
  // Frictionless sphere on a plane: the lever arm is along n, so the neglected geometric terms
  // vanish and ∂f/∂(x, q) is exact: the normal law's ∂N/∂δ through the gap's first variation,
  // and the exact ∂q̇/∂q and ∂ω/∂q of the body rows.
  for (const char* laws : {"    normal: {law: hertz}\n    friction: {law: coulomb, mu: 0}",
                           "    normal: {law: hunt_crossley, damping: 0.8}\n"
                           "    friction: {law: coulomb, mu: 0}"}) {
    SCOPED_TRACE(laws);
    Fixture fx(ball_on_plane(laws));
    std::vector<int> cols = range(0, 7);
    std::vector<double> steps = {1e-9, 1e-9, 1e-10, 1e-7, 1e-7, 1e-7, 1e-7};
    expect_jacobian_columns(fx, cols, steps, 2e-5);
  }
}

TEST(CompliantSystem, JacobianOfTwoFreeSpheresAndASpring) {
  // Two free spheres pressed together (frictionless Hertz) and a spring from a point off the
  // centre of mass of one. Exact: every velocity and momentum column, the columns of the
  // positions along the line of centres, every column of the spring. Neglected (documented): a
  // sideways displacement turns the normal by δy/d, a force N δy/d (the geometric stiffness,
  // N/d ≈ 5e3 N/m here against ∂N/∂δ ≈ 2e8 N/m): those columns are not compared.
  const std::string text = R"(
solver: {formulation: compliant}
gravity: [0, 0, -9.81]
materials: [{name: steel, young_modulus: 2.0e11, poisson_ratio: 0.3}]
contacts: [{between: [steel, steel], normal: {law: hertz}}]
bodies:
  - {name: a, material: steel, mass: 1.0, inertia: [0.004, 0.005, 0.006],
     shapes: [{type: sphere, radius: 0.1}], position: [0, 0, 0], velocity: [0.2, 0, 0.1],
     angular_velocity: [0.5, -1, 2]}
  - {name: b, material: steel, mass: 3.0, inertia: [0.012, 0.011, 0.013],
     shapes: [{type: sphere, radius: 0.1}], position: [0.19999, 0, 0],
     velocity: [-0.1, 0.05, 0], angular_velocity: [-1, 0.3, 0.7],
     orientation: {axis: [1, 2, 3], angle: 0.7}}
  - {name: c, material: steel, mass: 2.0, inertia: [0.01, 0.02, 0.025], position: [3, 0, 0],
     orientation: {axis: [0, 1, 1], angle: 0.4}, angular_velocity: [0.3, 0.2, -0.4]}
springs:
  - {body: b, point: [0.05, 0.02, -0.03], anchor: [1, 1, 1], stiffness: 500, rest_length: 0.4}
  - {body: c, point: [0.1, -0.2, 0.05], anchor: [3, 1, 2], stiffness: 800, rest_length: 0.3}
)";
  Fixture fx(text);
  ASSERT_EQ(fx.system.size(), 39u + 4u);
  std::vector<int> cols = {0, 13};  // x of a and b: along the line of centres
  std::vector<double> steps = {1e-9, 1e-9};
  for (int b = 0; b < 2; ++b) {
    for (int i = 7; i < 13; ++i) {
      cols.push_back(13 * b + i);
      steps.push_back(1e-7);
    }
  }
  // Body c: only the spring and gravity act on it: every column.
  for (int i = 0; i < 13; ++i) {
    cols.push_back(26 + i);
    steps.push_back(i < 3 ? 1e-7 : 1e-7);
  }
  expect_jacobian_columns(fx, cols, steps, 2e-5);
}

TEST(CompliantSystem, JacobianOfAStickingElasticStick) {
  // DIS_CHOC elastic stick held in its stick branch: ∂f/∂s (the spring) and ∂ṡ/∂(v, L).
  Fixture probe(
      ball_on_plane("    normal: {law: dis_choc, stiffness: 1.0e7}\n"
                    "    friction: {law: elastic_stick, mu: 0.5, stiffness: 2.0e5, "
                    "damping: 30}"));
  ASSERT_EQ(probe.system.contacts().size(), 1u);
  const ContactPoint& c = probe.system.contacts()[0].point;
  State state = probe.scene.state;
  state.compliant.contacts = {
      {{c.shape1, c.shape2, c.feature}, Vec3(0.4, -0.3, 0.0), Vec3(1e-5, 2e-5, 0.0)}};
  Fixture fx(
      ball_on_plane("    normal: {law: dis_choc, stiffness: 1.0e7}\n"
                    "    friction: {law: elastic_stick, mu: 0.5, stiffness: 2.0e5, "
                    "damping: 30}"));
  fx.system.begin_segment(state, fx.y);
  ASSERT_EQ(fx.system.size(), 13u + 3u + 4u);
  ASSERT_EQ(fx.system.contacts()[0].stick, 0);
  std::vector<int> cols = range(7, 6);
  for (int i = 0; i < 3; ++i) cols.push_back(13 + i);
  std::vector<double> steps(6, 1e-7);
  for (int i = 0; i < 3; ++i) steps.push_back(1e-9);
  expect_jacobian_columns(fx, cols, steps, 2e-6);
  // The stick spring stores ½ K |s|² − F0·s (relative to its anchor).
  const Vec3 s(1e-5, 2e-5, 0.0);
  EXPECT_NEAR(fx.system.contacts()[0].stick_elastic,
              0.5 * 2.0e5 * s.squaredNorm() - Vec3(0.4, -0.3, 0.0).dot(s), 1e-15);
}

}  // namespace
}  // namespace coulomb
