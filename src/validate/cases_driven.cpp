// Validation cases of driven bodies, springs and dampers (issue 11): a block on a conveyor belt,
// stick–slip on a belt of sinusoidal speed, a ball on a vertically vibrating platform, and a
// mass on a spring (with and without a damper) against their closed forms.
#include <coulomb/model/actuation.hpp>

#include "validate/cases_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace coulomb::validate {

namespace {

// The audited energy total (energy.csv's `total`) of a simulation [J].
double audited(const Sim& s) {
  return audited_total(s.model(), energy(s.model(), s.state()), s.state());
}

// A root of f in [a, b] (f(a), f(b) of opposite signs) by bisection to round-off.
double bisect(const std::function<double(double)>& f, double a, double b) {
  double fa = f(a);
  for (int i = 0; i < 200 && b - a > 1e-15 * std::max(1.0, std::abs(b)); ++i) {
    const double m = 0.5 * (a + b), fm = f(m);
    if ((fm > 0.0) == (fa > 0.0)) {
      a = m;
      fa = fm;
    } else {
      b = m;
    }
  }
  return 0.5 * (a + b);
}

// True when every point between the two bodies has the status, and there is at least one.
bool all_points(const Sim& s, int b1, int b2, ContactStatus status) {
  const Workspace& ws = s.workspace();
  int n = 0;
  for (std::size_t k = 0; k < ws.contact_points.points.size(); ++k) {
    const ContactPoint& c = ws.contact_points.points[k];
    if (!((c.body1 == b1 && c.body2 == b2) || (c.body1 == b2 && c.body2 == b1))) continue;
    if (ws.step_results.status[k] != status) return false;
    ++n;
  }
  return n > 0;
}

// The normal impulse of all the points of the last step [N s].
double normal_impulse(const Sim& s) {
  double n = 0.0;
  for (const Vec3& p : s.workspace().step_results.impulse) n += p.x();
  return n;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Block on a conveyor belt (a driven body of constant velocity V): Coulomb friction with the
// slip u = v − V opposed, so du/dt = −μ g u/|u| keeps u's direction and |u| falls at μ g: the
// block rides with the belt from t* = |V − v0|/(μ g). In the belt's frame its kinetic energy
// ½ m |V − v0|² is dissipated; the belt does the work m V·(V − v0) (the change of kinetic energy
// plus the dissipation). General 3-D: v0 not along V, neither along an axis.
std::vector<Check> conveyor_belt(const CaseContext&) {
  Sim s = load("conveyor-belt.yaml");
  const Model& m = s.model();
  const int belt = body(m, "belt"), block = body(m, "block");
  const double mu = friction_mu(m), g = m.gravity.norm(), mass = m.bodies[block].mass;
  const Vec3 V = m.bodies[belt].motion.velocity, v0 = s.state().v_WC[block];
  const double total0 = audited(s);
  double t_stick = -1.0, worst_vz = 0.0;
  Vec3 v_half = Vec3::Zero();
  const double t_star = (V - v0).norm() / (mu * g);
  const double h = m.time_step;
  const auto half_step = static_cast<std::int64_t>(std::llround(0.5 * t_star / h));
  run_to(s, m.end_time, [&](const StepReport&) {
    if (s.state().step == half_step) v_half = s.state().v_WC[block];
    if (t_stick < 0.0 && all_points(s, belt, block, ContactStatus::sticking))
      t_stick = s.state().time;
    worst_vz = std::max(worst_vz, std::abs(s.state().v_WC[block].z()));
  });
  const double t_half = static_cast<double>(half_step) * h;
  const Vec3 expected_half = v0 + (mu * g * t_half / (V - v0).norm()) * (V - v0);
  return {
      make_check("time the block starts riding with the belt [s]", "|V - v0|/(mu g), closed form",
                 t_stick, t_star, false, 1.01 * h,
                 "the step in which the slip ends is the first whose contacts stick: within one "
                 "step h"),
      make_check("velocity at t*/2, error [m/s]", "v0 + mu g t (V - v0)/|V - v0|",
                 (v_half - expected_half).norm(), 0.0, false, 1e-10,
                 "constant acceleration is exact for the scheme; the solver tolerance remains"),
      make_check("final velocity, error [m/s]", "V (the belt)", (s.state().v_WC[block] - V).norm(),
                 0.0, false, 1e-10,
                 "sticking: the law's slip is zero to the solver tolerance (1e-12)"),
      make_check("dissipated energy [J]", "1/2 m |V - v0|^2", s.state().dissipated,
                 0.5 * mass * (V - v0).squaredNorm(), true, 1e-9,
                 "the midpoint work of the impulses is exact; the solver tolerance remains"),
      make_check("work of the belt (driven_work) [J]", "m V.(V - v0)", s.state().driven_work,
                 mass * V.dot(V - v0), true, 1e-9, "as the dissipated energy"),
      make_check("audited energy total drift [J]",
                 "0: kinetic + potential + dissipated - driven "
                 "work is constant",
                 audited(s) - total0, 0.0, false, 1e-12,
                 "exact energy identity of the scheme; round-off of ~500 steps"),
      make_check("largest |vertical velocity| [m/s]", "0: the block stays on the belt", worst_vz,
                 0.0, false, 1e-9, "Signorini at velocity level, solver tolerance"),
  };
}

// ---------------------------------------------------------------------------------------------
// Stick–slip on a belt of sinusoidal speed V(t) = A ω (1 − cos ω t) along e (a driven body: a
// constant velocity plus a sinusoid). Along e the block's velocity w obeys: stick (w = V) while
// |V̇| = |A ω² sin ω t| ≤ μ g; slip with ẇ = μ g sign(V − w) until w = V. The instants are roots
// of closed-form functions (sin ω t = ±μ g/(A ω²); A ω (1 − cos ω t) − w1 − s μ g (t − t1) = 0),
// found here by bisection; the first four are compared with the simulation's (the first step
// whose points all slide, then all stick, ...).
std::vector<Check> belt_sinusoid(const CaseContext&) {
  Sim s = load("belt-sinusoid.yaml");
  const Model& m = s.model();
  const int belt = body(m, "belt"), block = body(m, "block");
  const double mu = friction_mu(m), g = m.gravity.norm(), h = m.time_step;
  const BodyMotion& motion = m.bodies[belt].motion;
  const double A = motion.amplitude.norm(), w = 2.0 * kPi * motion.frequency;
  const Vec3 e = motion.amplitude / A;
  auto V = [&](double t) { return A * w * (1.0 - std::cos(w * t)); };
  auto acc = [&](double t) { return A * w * w * std::sin(w * t); };
  // The closed-form sequence of switches.
  std::vector<double> expected;
  {
    double t = 0.0, wb = 0.0;
    bool sticking = true;
    const double dt = 1e-5;  // scan for sign changes, then bisect
    while (expected.size() < 4 && t < m.end_time) {
      if (sticking) {
        auto f = [&](double x) { return std::abs(acc(x)) - mu * g; };
        double a = t;
        while (f(a + dt) <= 0.0) a += dt;
        t = bisect(f, a, a + dt);
        wb = V(t);
        sticking = false;
      } else {
        const double sgn = acc(t) > 0.0 ? 1.0 : -1.0;
        const double t1 = t, w1 = wb;
        auto f = [&](double x) { return V(x) - (w1 + sgn * mu * g * (x - t1)); };
        double a = t1 + dt;
        while ((f(a + dt) > 0.0) == (sgn > 0.0)) a += dt;
        t = bisect(f, a, a + dt);
        wb = V(t);
        // It sticks only if the belt's acceleration is within the cone there.
        sticking = std::abs(acc(t)) <= mu * g;
        if (!sticking) continue;  // slips on with the other sign: not a switch to stick
      }
      expected.push_back(t);
    }
  }
  std::vector<double> measured;
  bool sliding = false;
  double worst_dir = 0.0;
  run_to(s, m.end_time, [&](const StepReport&) {
    const bool slides = all_points(s, belt, block, ContactStatus::sliding);
    const bool sticks = all_points(s, belt, block, ContactStatus::sticking);
    if (!sliding && slides) {
      measured.push_back(s.state().time - h);
      sliding = true;
    } else if (sliding && sticks) {
      measured.push_back(s.state().time);
      sliding = false;
    }
    // The block moves along e only (its slip keeps the belt's direction).
    const Vec3 v = s.state().v_WC[block];
    worst_dir = std::max(worst_dir, (v - v.dot(e) * e).norm());
  });
  if (expected.size() < 4 || measured.size() < 4)
    throw std::runtime_error(fmt::format("expected 4 switches, closed form {}, simulation {}",
                                         expected.size(), measured.size()));
  const char* names[] = {"first slip", "first stick", "second slip", "second stick"};
  std::vector<Check> checks;
  for (int i = 0; i < 4; ++i)
    checks.push_back(make_check(
        fmt::format("{} [s]", names[i]),
        i % 2 == 0 ? "|A w^2 sin w t| = mu g, closed form"
                   : "A w (1 - cos w t) = w1 + mu g (t - t1), closed form",
        measured[static_cast<std::size_t>(i)], expected[static_cast<std::size_t>(i)], false,
        1.01 * h, "a switch is seen in the step in which it happens: within one step h"));
  checks.push_back(make_check("largest velocity across the belt's direction [m/s]",
                              "0: slip and stick along e = (0.6, 0.8, 0)", worst_dir, 0.0, false,
                              1e-9, "solver tolerance"));
  return checks;
}

// ---------------------------------------------------------------------------------------------
// A ball on a platform oscillating vertically, z_p = −A cos ω t (a driven body): the ball rides
// while the platform's acceleration A ω² cos ω t exceeds −g, and leaves it when it first reaches
// −g: t_L = acos(−g/(A ω²))/ω (the bouncing-ball map's condition A ω² > g, e.g. Luck & Mehta,
// Phys. Rev. E 48 (1993) 3988); then it keeps bouncing (restitution e = 0.5).
std::vector<Check> vibrating_platform(const CaseContext& ctx) {
  Sim s = load("vibrating-platform.yaml");
  const Model& m = s.model();
  const int platform = body(m, "platform");
  const BodyMotion& motion = m.bodies[platform].motion;
  const double A = motion.amplitude.z(), w = 2.0 * kPi * motion.frequency, g = m.gravity.norm();
  const double h = m.time_step;
  const double t_lift = std::acos(-g / (A * w * w)) / w;
  // The first flight: the ball leaves the top face −A cos ω t at t_L with its velocity
  // A ω sin ω t_L and falls freely until the face meets it again (the first root after t_L of
  // the gap, which starts with three zero derivatives: scanned from t_L + 1 ms, then bisected).
  const double v_lift = A * w * std::sin(w * t_lift);
  auto gap = [&](double t) {
    const double tau = t - t_lift;
    return -A * std::cos(w * t_lift) + v_lift * tau - 0.5 * g * tau * tau + A * std::cos(w * t);
  };
  double a = t_lift + 1e-3;
  while (gap(a + 1e-5) > 0.0) a += 1e-5;
  const double t_land = bisect(gap, a, a + 1e-5);
  const double end = ctx.quick ? 0.5 : m.end_time;
  const double total0 = audited(s);
  double measured_lift = -1.0, measured_land = -1.0;
  int impacts = 0;
  bool in_contact = true;
  run_to(s, end, [&](const StepReport&) {
    const bool touching = normal_impulse(s) > 0.0;
    // The step in which the ball leaves (no impulse) or lands again (an impulse) starts at
    // time − h.
    if (measured_lift < 0.0 && !touching) measured_lift = s.state().time - h;
    if (measured_lift >= 0.0 && measured_land < 0.0 && touching) measured_land = s.state().time - h;
    if (!in_contact && touching && s.state().time > 0.5 * end) ++impacts;
    in_contact = touching;
  });
  return {
      make_check("lift-off time [s]", "acos(-g/(A w^2))/w, closed form", measured_lift, t_lift,
                 false, 1.01 * h,
                 "the first step without a normal impulse starts within one step of t_L"),
      make_check("first landing [s]",
                 "free flight from t_L at A w sin(w t_L) meets the face -A cos w t (root of the "
                 "closed form)",
                 measured_land, t_land, false, 1.01 * h,
                 "the impact is caught in the step in which it happens"),
      make_check("impacts in the second half of the run, at least one (min(count, 1))",
                 "1: the bouncing continues", std::min(impacts, 1), 1.0, false, 0.5,
                 fmt::format("an integer: 0 fails, 1 passes; {} impacts counted", impacts)),
      make_check("audited energy total drift [J]",
                 "0: kinetic + potential + dissipated - driven work is constant",
                 audited(s) - total0, 0.0, false, 1e-12,
                 "exact energy identity of the scheme with the driven body's mean twist; "
                 "round-off"),
  };
}

// ---------------------------------------------------------------------------------------------
// A body on a zero-rest-length spring (k, c) to the world, no gravity: the centre of mass obeys
// m ẍ = −k x − c ẋ in 3-D. Undamped: x(t) = x0 cos ω t + (v0/ω) sin ω t, ω = √(k/m); damped
// (ζ = c/(2 √(k m)) < 1): x(t) = e^{−ζωt} (x0 cos ω_d t + (v0 + ζ ω x0)/ω_d sin ω_d t),
// ω_d = ω √(1 − ζ²). The scheme is second order (Störmer–Verlet kick at the midpoint; the damper
// by the implicit midpoint rule): the error at t = 3T falls by 4 when h halves.
std::vector<Check> spring_mass(const CaseContext&) {
  const Model m0 = load("spring-mass.yaml").model();
  const int bob = body(m0, "bob");
  const double mass = m0.bodies[bob].mass, k = m0.springs.front().stiffness;
  const double omega = std::sqrt(k / mass), period = 2.0 * kPi / omega;
  const double end = 3.0 * period;
  // Position error at `end` and the audited energy drift, for a step and a damping: none, the
  // body's viscous damping −c v (isotropic: the 3-D closed form), or the spring's damper
  // −c (u·ẋ) u, which is −c ẋ when the motion stays on a line through the anchor (x0 ∥ v0).
  enum class Damper { none, body, spring };
  struct Result {
    double error = 0.0, drift = 0.0, damping = 0.0;
  };
  const double c = 0.4;  // ζ = c/(2 √(k m)) = 0.1
  auto run = [&](double h, Damper damper) {
    Sim s = load_edited("spring-mass.yaml", [&](Scene& sc) {
      sc.model.time_step = h;
      if (damper == Damper::body) sc.model.bodies[bob].load.linear_damping = c;
      if (damper == Damper::spring) {
        sc.model.springs.front().damping = c;
        const Vec3 line = Vec3(1, 2, 2) / 3.0;
        sc.state.x_WC[bob] = 0.12 * line;
        sc.state.v_WC[bob] = -0.25 * line;
      }
    });
    const Vec3 x0 = s.state().x_WC[bob], v0 = s.state().v_WC[bob];
    const double total0 = audited(s);
    run_to(s, end, [](const StepReport&) {});
    const double t = s.state().time;
    const double zeta = damper == Damper::none ? 0.0 : c / (2.0 * std::sqrt(k * mass));
    const double wd = omega * std::sqrt(1.0 - zeta * zeta);
    const Vec3 exact = std::exp(-zeta * omega * t) *
                       (x0 * std::cos(wd * t) + (v0 + zeta * omega * x0) / wd * std::sin(wd * t));
    return Result{(s.state().x_WC[bob] - exact).norm() / x0.norm(), audited(s) - total0,
                  s.state().damping};
  };
  const double h = 3.0 * period / 1000.0;  // 1000 steps to 3T (whole steps)
  const Result u1 = run(h, Damper::none), u2 = run(h / 2, Damper::none),
               u4 = run(h / 4, Damper::none);
  const Result d1 = run(h, Damper::body), d2 = run(h / 2, Damper::body),
               d4 = run(h / 4, Damper::body);
  const Result s1 = run(h, Damper::spring), s2 = run(h / 2, Damper::spring),
               s4 = run(h / 4, Damper::spring);
  const double energy0 = energy(m0, load("spring-mass.yaml").state()).mechanical();
  std::vector<Check> checks = {
      make_check("undamped: relative position error at 3T, h = 3T/1000", "x0 cos wt + v0/w sin wt",
                 u1.error, 0.0, false, 2e-3,
                 "Stormer-Verlet's phase error (w h)^2/24 per radian, 6 pi (0.0189)^2/24 = 3e-4 "
                 "at 3T at most, and the amplitude's: bounded by 2e-3"),
      make_check("undamped: order of convergence log2(e(h)/e(h/2))", "2 (second-order scheme)",
                 std::log2(u1.error / u2.error), 2.0, false, 0.05,
                 "asymptotic range: the next halving must agree within 0.05"),
      make_check("undamped: order log2(e(h/2)/e(h/4))", "2", std::log2(u2.error / u4.error), 2.0,
                 false, 0.05, "as above"),
      make_check("undamped: energy drift at 3T / initial energy", "0 to O((w h)^2)",
                 std::abs(u1.drift) / energy0, 0.0, false, 1e-3,
                 "the symplectic scheme's energy error oscillates with amplitude O((w h)^2) = "
                 "3.6e-4 and does not drift"),
  };
  auto damped = [&](const char* what, const Result& r1, const Result& r2, const Result& r4) {
    checks.push_back(make_check(fmt::format("{} (zeta = 0.1): relative position error at 3T", what),
                                "damped closed form", r1.error, 0.0, false, 2e-3, "as undamped"));
    checks.push_back(make_check(fmt::format("{}: order log2(e(h)/e(h/2))", what),
                                "2 (implicit midpoint damper)", std::log2(r1.error / r2.error), 2.0,
                                false, 0.05, "as undamped"));
    checks.push_back(make_check(fmt::format("{}: order log2(e(h/2)/e(h/4))", what), "2",
                                std::log2(r2.error / r4.error), 2.0, false, 0.05, "as undamped"));
    checks.push_back(make_check(
        fmt::format("{}: audited energy drift (with the damping column) / damping", what),
        "0 to O((w h)^2)", std::abs(r1.drift) / r1.damping, 0.0, false, 1e-3,
        "the damper's impulse times the mean velocity is counted exactly; the spring's "
        "O((w h)^2) energy error remains"));
  };
  damped("body damping, 3-D", d1, d2, d4);
  damped("spring damper, along a line", s1, s2, s4);
  return checks;
}

// ---------------------------------------------------------------------------------------------
// code_aster's DIS_CHOC wear power check (issue 11): constant F_n, sliding speed V0 sin(2π f t)
// (the support is a driven body), Archard's wear power as code_aster's `pusure` computes it
// (the trapezoid of |F_n| ‖v_t‖ over the slipping samples, divided by the run's duration, read
// from the accumulator that writes wear.csv: Simulation::shock_statistics) against its mean F_n V0
// ⟨|sin|⟩ = F_n (2/π) V0 over whole periods. Compliant formulation.
std::vector<Check> wear_power_check(const CaseContext&) {
  Sim s = load("wear-power.yaml");
  const Model& m = s.model();
  const int support = body(m, "support"), tube = body(m, "tube");
  const BodyMotion& motion = m.bodies[support].motion;
  const double v0 = 2.0 * kPi * motion.frequency * motion.amplitude.norm();
  const double fn = -m.bodies[tube].load.force.z();
  double worst_fn = 0.0;
  run_to(s, m.end_time, [&](const StepReport&) {
    const Workspace& ws = s.workspace();
    double n = 0.0;  // forces in the compliant formulation
    for (std::size_t k = 0; k < ws.contact_points.points.size(); ++k)
      n += ws.step_results.impulse[k].x();
    worst_fn = std::max(worst_fn, std::abs(n - fn));
  });
  // The accumulator that writes wear.csv (one shock point: the ball and the support).
  const std::vector<ShockPointStatistics> points = s.shock_statistics()->results();
  if (points.size() != 1)
    throw std::runtime_error(fmt::format("{} shock points, the scene has one", points.size()));
  const double expected = fn * (2.0 / kPi) * v0;
  return {
      make_check("Archard wear power (mean |F_n| ||v_t||) [W]", "F_n (2/pi) V0 (code_aster)",
                 points[0].wear_power, expected, true, 5e-3,
                 "the issue's 0.5 %: the trapezoid over 2000 samples a period (2e-7), the ball's "
                 "own motion under mu F_n (3e-4 of V0) and the regularisation's lag"),
      make_check("largest |F_n - 10 N| [N]", "0: the normal force stays F_n", worst_fn, 0.0, false,
                 1e-3, "the ball starts at its equilibrium penetration; friction moves it by 1e-6"),
  };
}

}  // namespace coulomb::validate
