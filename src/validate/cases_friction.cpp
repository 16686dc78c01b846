// Validation cases of Coulomb friction against closed forms: the billiard ball that slides, then
// rolls (reference/contensou.md §3 case 1), and the block on an incline that sticks or slides with
// one coefficient (case 8) or with static and kinetic coefficients (§3.8).
#include "validate/cases_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace coulomb::validate {

// ---------------------------------------------------------------------------------------------
// Billiard ball (reference/contensou.md §3 case 1): slides until t* = 2|v0 − Rω0|/(7μg), then rolls
// at (5v0 + 2Rω0)/7 with zero slip.
std::vector<Check> billiard(const std::string& file, const CaseContext&) {
  Sim s = load(file);
  const Model& m = s.model();
  const int ball = body(m, "ball");
  const double R = std::get<Sphere>(m.shapes[m.bodies[ball].first_shape].geometry).radius;
  const double mu = friction_mu(m), g = -m.gravity.z(), h = m.time_step;
  const double v0 = s.state().v_WC[ball].x(), w0 = s.state().w_W[ball].y();
  const double t_star = 2.0 * std::abs(v0 - R * w0) / (7.0 * mu * g);
  auto slip = [&] { return s.state().v_WC[ball].x() - R * s.state().w_W[ball].y(); };

  // The time the slip first vanishes, and the largest slip from the step after t* on.
  double t_stop = std::nan(""), worst_slip = 0.0;
  run_to(s, m.end_time, [&](const StepReport&) {
    if (std::isnan(t_stop) && std::abs(slip()) <= 1e-12) t_stop = s.state().time;
    if (s.state().time > t_star + 2.0 * h) worst_slip = std::max(worst_slip, std::abs(slip()));
  });

  const double v_final = (5.0 * v0 + 2.0 * R * w0) / 7.0;
  return {
      make_check(
          "final speed [m/s]", "(5 v0 + 2 R w0)/7, closed form", s.state().v_WC[ball].x(), v_final,
          true, 1e-9,
          "the discrete friction impulses conserve the angular momentum about the contact "
          "line exactly; only round-off over 1e4 steps and the solver tolerance (1e-12) remain"),
      make_check("time the slip stops [s]", "t* = 2|v0 - R w0|/(7 mu g), closed form", t_stop,
                 t_star, false, h,
                 "the slide ends inside the step that contains t*: one step h is the resolution"),
      make_check("largest |slip| after t* + 2h [m/s]", "0: rolling without slipping", worst_slip,
                 0.0, false, 1e-12,
                 "sticking is exact in the set-valued law; 1e-12 is the solver tolerance"),
  };
}

namespace {

// ---------------------------------------------------------------------------------------------
// Incline (case 8): the plane's tilt α from its normal; the block sticks iff tan α ≤ μ, and slides
// at a = g(sin α − μ cos α) otherwise.
struct Incline {
  double alpha = 0.0;
  Vec3 n, down;  // plane normal, downhill unit vector
};
Incline incline_of(const Model& m) {
  const int ramp = body(m, "ramp");
  const Plane& plane = std::get<Plane>(m.shapes[m.bodies[ramp].first_shape].geometry);
  Incline in;
  in.n = plane.normal.normalized();
  in.alpha = std::acos(in.n.z());
  const Vec3 gt = m.gravity - m.gravity.dot(in.n) * in.n;
  in.down = gt.normalized();
  return in;
}

}  // namespace

std::vector<Check> incline_stick(const CaseContext& ctx) {
  Sim s = load("incline-stick.yaml");
  const Model& m = s.model();
  const int block = body(m, "block");
  const Incline in = incline_of(m);
  const double mu = friction_mu(m);
  if (!(std::tan(in.alpha) < mu))
    throw std::runtime_error("the scene does not satisfy tan(alpha) < mu");
  const Vec3 x0 = s.state().x_WC[block];
  double worst = 0.0;
  run_to(s, ctx.quick ? 1.0 : m.end_time,
         [&](const StepReport&) { worst = std::max(worst, (s.state().x_WC[block] - x0).norm()); });
  return {make_check(fmt::format("largest displacement over {} s [m]", s.state().time),
                     fmt::format("0: tan(alpha) = {:.4f} < mu = {}", std::tan(in.alpha), mu), worst,
                     0.0, false, 1e-9,
                     "sticking is exact in the set-valued Coulomb law; velocities are zero to the "
                     "solver tolerance (1e-12), far below 1e-9 m over the run")};
}

std::vector<Check> incline_slide(const CaseContext&) {
  Sim s = load("incline-slide.yaml");
  const Model& m = s.model();
  const int block = body(m, "block");
  const Incline in = incline_of(m);
  const double mu = friction_mu(m), g = m.gravity.norm();
  double worst_vn = 0.0;
  run_to(s, m.end_time, [&](const StepReport&) {
    worst_vn = std::max(worst_vn, std::abs(s.state().v_WC[block].dot(in.n)));
  });
  const double a = g * (std::sin(in.alpha) - mu * std::cos(in.alpha));
  const double measured = s.state().v_WC[block].dot(in.down) / s.state().time;
  return {
      make_check(
          "downhill acceleration v(T)/T [m/s^2]", "g (sin a - mu cos a), closed form", measured, a,
          true, 1e-6,
          "constant acceleration makes the discrete velocity exactly a t; what remains is the "
          "solver tolerance (1e-12) accumulated over 1000 steps and round-off"),
      make_check("largest |normal velocity| [m/s]", "0: the block stays on the plane", worst_vn,
                 0.0, false, 1e-9,
                 "Signorini at velocity level keeps v_n = 0 to the solver tolerance"),
  };
}

namespace {

// Incline with static and kinetic coefficients (contensou.md §3.8): sticks iff tan α ≤ μ_s,
// slides at g (sin α − μ_k cos α); launched uphill it decelerates at g (sin α + μ_k cos α),
// stops and sticks.
struct TiltedIncline {
  Sim sim;
  Vec3 n, down;
  int block = -1;
};
TiltedIncline tilted_incline(double tan_alpha, double v_down) {
  const double alpha = std::atan(tan_alpha);
  const Quat q(Eigen::AngleAxisd(alpha, Vec3::UnitY()));
  const Vec3 n = q * Vec3::UnitZ(), down = q * Vec3::UnitX();
  Sim s = load_edited("incline-static-kinetic.yaml", [&](Scene& sc) {
    Model& m = sc.model;
    const int ramp = body(m, "ramp"), block = body(m, "block");
    std::get<Plane>(m.shapes[m.bodies[ramp].first_shape].geometry).normal = n;
    const double half =
        std::get<Box>(m.shapes[m.bodies[block].first_shape].geometry).half_extents.z();
    sc.state.q_WB[block] = q;
    sc.state.x_WC[block] = half * n;
    sc.state.v_WC[block] = v_down * down;
  });
  TiltedIncline t{std::move(s), n, down, -1};
  t.block = body(t.sim.model(), "block");
  return t;
}

}  // namespace

std::vector<Check> incline_static_kinetic(const CaseContext&) {
  std::vector<Check> checks;
  Sim probe = load("incline-static-kinetic.yaml");
  const LawSpec& friction = probe.model().contacts.front().friction;
  const double mu_s = friction.get("mu_s", std::nan("")), mu_k = friction.get("mu_k", std::nan(""));
  const double g = probe.model().gravity.norm(), h = probe.model().time_step;

  {  // A millionth below μ_s: sticks.
    TiltedIncline t = tilted_incline(mu_s * (1.0 - 1e-6), 0.0);
    const Vec3 x0 = t.sim.state().x_WC[t.block];
    double worst = 0.0;
    while (t.sim.state().time < 2.0 - 0.5 * h) {
      step_converged(t.sim);
      worst = std::max(worst, (t.sim.state().x_WC[t.block] - x0).norm());
    }
    checks.push_back(make_check(
        "largest displacement over 2 s at tan(alpha) = mu_s (1 - 1e-6) [m]", "0: tan(alpha) < mu_s",
        worst, 0.0, false, 1e-9,
        "sticking is exact in the set-valued law; velocities are zero to the solver tolerance "
        "(1e-12)"));
  }
  {  // A millionth above μ_s: breaks loose at once, then slides with μ_k.
    const double tan_alpha = mu_s * (1.0 + 1e-6), alpha = std::atan(tan_alpha);
    TiltedIncline t = tilted_incline(tan_alpha, 0.0);
    step_converged(t.sim);
    const double v1 = t.sim.state().v_WC[t.block].dot(t.down), t1 = t.sim.state().time;
    while (t.sim.state().time < 1.0 - 0.5 * h) step_converged(t.sim);
    const double a = (t.sim.state().v_WC[t.block].dot(t.down) - v1) / (t.sim.state().time - t1);
    checks.push_back(make_check(
        "acceleration after the first step at tan(alpha) = mu_s (1 + 1e-6) [m/s^2]",
        "g (sin a - mu_k cos a), closed form", a, g * (std::sin(alpha) - mu_k * std::cos(alpha)),
        true, 1e-6,
        "constant acceleration makes the discrete velocity exactly linear in t; the solver "
        "tolerance (1e-12) over 1000 steps and round-off remain"));
  }
  {  // tan α = 0.4 (μ_k < tan α < μ_s), launched uphill at 1 m/s.
    const double alpha = std::atan(0.4), v0 = 1.0;
    TiltedIncline t = tilted_incline(0.4, -v0);
    const double decel = g * (std::sin(alpha) + mu_k * std::cos(alpha));
    const Vec3 x0 = t.sim.state().x_WC[t.block];
    while (t.sim.state().time < 0.1 - 0.5 * h) step_converged(t.sim);
    const double v_01 = t.sim.state().v_WC[t.block].dot(t.down);
    double t_stop = std::nan(""), worst = 0.0;
    Vec3 x_stop = Vec3::Constant(std::nan(""));
    while (t.sim.state().time < 1.0 - 0.5 * h) {
      step_converged(t.sim);
      if (std::isnan(t_stop) && t.sim.state().v_WC[t.block].norm() <= 1e-12) {
        t_stop = t.sim.state().time;
        x_stop = t.sim.state().x_WC[t.block];
      }
      if (!std::isnan(t_stop))
        worst = std::max(worst, (t.sim.state().x_WC[t.block] - x_stop).norm());
    }
    checks.push_back(make_check(
        "downhill velocity at 0.1 s, launched uphill at 1 m/s, tan(alpha) = 0.4 [m/s]",
        "-v0 + g (sin a + mu_k cos a) t, closed form", v_01, -v0 + decel * 0.1, false, 1e-9,
        "constant deceleration: the discrete velocity is exact to the solver tolerance"));
    checks.push_back(make_check("time it stops [s]", "v0 / (g (sin a + mu_k cos a))", t_stop,
                                v0 / decel, false, h,
                                "the slide ends inside the step that contains the stop: one step"));
    checks.push_back(make_check("distance to the stop [m]", "v0^2 / (2 g (sin a + mu_k cos a))",
                                (x_stop - x0).norm(), v0 * v0 / (2.0 * decel), false, v0 * h,
                                "the stop falls inside a step: one step of travel v0 h"));
    checks.push_back(make_check(
        "largest displacement from the stop to 1 s [m]", "0: mu_s = 0.5 > tan(alpha) holds it",
        worst, 0.0, false, 1e-9,
        "sticking is exact in the set-valued law; velocities are zero to the solver tolerance"));
  }
  return checks;
}

}  // namespace coulomb::validate
