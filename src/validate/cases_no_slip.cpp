// Validation cases of the no-slip law (coulomb/laws/no_slip.hpp): a ball rolling on a turntable
// (Routh's circle at (2/7) Omega, the scheme's order in h, agreement with Coulomb friction while it
// sticks) and a ball rolling down an incline with a spin about the normal (acceleration (5/7) g_t
// whatever that spin; no work done by the constraint).
#include "validate/cases_common.hpp"

#include <Eigen/Geometry>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <variant>

namespace coulomb::validate {

namespace {

// The audited energy total (energy.csv's `total`) of a simulation [J].
double audited(const Sim& s) {
  return audited_total(s.model(), energy(s.model(), s.state()), s.state());
}

// The largest slip speed |u_T| the law saw at the ball's contacts in the last step [m/s] (the
// law's velocity: the step's mean velocity for the midpoint scheme).
double law_slip(const Sim& s) {
  const auto& c = std::get<ContactBuffers<kForce>>(s.workspace().contact);
  double worst = 0.0;
  for (std::size_t a = 0; a < c.u.size(); ++a)
    worst = std::max(worst, std::hypot(c.u[a][1], c.u[a][2]));
  return worst;
}

// A run of the turntable scene with time step h and the scene's friction law, or Coulomb of
// coefficient mu when mu > 0.
struct TurntableRun {
  Vec3 x = Vec3::Zero();  ///< the ball's centre at the end [m]
  double w_z = 0.0;       ///< its spin about the vertical at the end [rad/s]
  double worst_slip = 0.0;
  double dissipated = 0.0;
  double drift = 0.0;  ///< audited energy total, end − start [J]
};

TurntableRun run_turntable(double h, double mu) {
  Sim s = load_edited("ball-turntable.yaml", [&](Scene& scene) {
    scene.model.time_step = h;
    if (mu > 0.0) scene.model.contacts.front().friction = LawSpec{"coulomb", {{"mu", mu}}, {}, {}};
  });
  const int ball = body(s.model(), "ball");
  const double total0 = audited(s);
  TurntableRun out;
  run_to(s, s.model().end_time, [&](const StepReport& r) {
    require_converged(s, r);
    out.worst_slip = std::max(out.worst_slip, law_slip(s));
  });
  out.x = s.state().x_WC[ball];
  out.w_z = s.state().w_W[ball].z();
  out.dissipated = s.state().dissipated;
  out.drift = audited(s) - total0;
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Ball on a turntable (scenes/validation/ball-turntable.yaml): the centre on Routh's circle,
// x(T) = c + Rz((2/7) Omega T) (x0 − c), c = x0 + e_z × v0 / ((2/7) Omega). The midpoint scheme
// turns the velocity by a Cayley rotation each step (angle 2 atan(w h / 2) instead of w h), a
// phase error of second order: measured at h, h/2, h/4. Coulomb friction with mu = 1 (the
// friction needed is ~0.03 m g) sticks throughout and gives the same motion.
std::vector<Check> ball_turntable(const CaseContext&) {
  Sim s = load("ball-turntable.yaml");
  const Model& m = s.model();
  const int table = body(m, "table"), ball = body(m, "ball");
  const double omega = m.bodies[table].motion.angular_velocity.z();
  const double rate = 2.0 / 7.0 * omega;
  const Vec3 x0 = s.state().x_WC[ball], v0 = s.state().v_WC[ball];
  const double w_z0 = s.state().w_W[ball].z(), T = m.end_time, h = m.time_step;
  const Vec3 c = x0 + Vec3::UnitZ().cross(v0) / rate;
  const Vec3 expected = c + Eigen::AngleAxisd(rate * T, Vec3::UnitZ()) * (x0 - c);

  const TurntableRun r1 = run_turntable(h, 0.0), r2 = run_turntable(h / 2, 0.0),
                     r4 = run_turntable(h / 4, 0.0), coulomb = run_turntable(h, 1.0);
  const double e1 = (r1.x - expected).norm(), e2 = (r2.x - expected).norm(),
               e4 = (r4.x - expected).norm();
  const double order = std::log2(e2 / e4);
  const double worst_slip = std::max({r1.worst_slip, r2.worst_slip, r4.worst_slip});
  return {
      make_check(fmt::format("centre at T = {} s, error at h/4 = {} s [m]", T, h / 4),
                 "Routh: circle at (2/7) Omega about x0 + e_z x v0/((2/7) Omega)", e4, 0.0, false,
                 1e-6, "second-order phase error of the midpoint scheme, ~(w h)^2 w T |v0| / 12"),
      make_check("observed order in h (errors at h/2 and h/4)", "2 (the midpoint scheme)", order,
                 2.0, false, 0.05, "the asymptotic order; h/2 -> h/4 is in that range"),
      make_check(fmt::format("error ratio h -> h/2 (h = {} s)", h), "4 (second order)", e1 / e2,
                 4.0, true, 0.02, "as the order"),
      make_check("largest slip speed the law saw, all runs [m/s]", "0: no slip", worst_slip, 0.0,
                 false, 1e-10, "the constraint holds to the solver tolerance (1e-12)"),
      make_check("spin about the vertical at T [rad/s]", "w_z0: no torque about the vertical",
                 r4.w_z, w_z0, false, 1e-9, "pivoting free; the solver tolerance remains"),
      make_check("dissipated energy, h/4 [J]", "0: no-slip does no work (as h -> 0)", r4.dissipated,
                 0.0, false, 2e-9,
                 "the audit charges r.J v_mean, and on the turning table v_mean differs from the "
                 "law's velocity (zero slip) by O(h^2): measured 1.7e-8, 4.3e-9, 1.1e-9 J at h, "
                 "h/2, h/4 (the table's work is 0.043 J)"),
      make_check("dissipation ratio h/2 -> h/4", "4: second order, vanishing with h",
                 r2.dissipated / r4.dissipated, 4.0, true, 0.01, "as the order"),
      make_check("audited energy total drift, h/4 [J]",
                 "0: kinetic + potential + dissipated - driven work is constant", r4.drift, 0.0,
                 false, 1e-9, "exact energy identity of the scheme; round-off of 4000 steps"),
      make_check(
          "Coulomb mu = 1 vs no slip, centre at T [m]", "0: the same motion while Coulomb sticks",
          (coulomb.x - r1.x).norm(), 0.0, false, 1e-9,
          "both solve the stick branch exactly, r = -W^-1 q (measured: bit-identical, the same "
          "arithmetic); the solver tolerance remains"),
  };
}

// ---------------------------------------------------------------------------------------------
// Ball on an incline with a spin about the normal (scenes/validation/ball-incline-no-slip.yaml):
// v(t) = v0 + (5/7) g_t t, x(t) = x0 + v0 t + (5/14) g_t t², w.n = w_n0; the constant
// acceleration is exact for the midpoint scheme. Energy: kinetic + potential constant, nothing
// dissipated.
std::vector<Check> ball_incline_no_slip(const CaseContext&) {
  Sim s = load("ball-incline-no-slip.yaml");
  const Model& m = s.model();
  const int ramp = body(m, "ramp"), ball = body(m, "ball");
  // The ramp's plane, at the identity pose: its normal in the world.
  const Vec3 n = std::get<Plane>(m.shapes[m.bodies[ramp].first_shape].geometry).normal.normalized();
  const Vec3 g = m.gravity, g_t = g - g.dot(n) * n;
  const Vec3 x0 = s.state().x_WC[ball], v0 = s.state().v_WC[ball];
  const double w_n0 = s.state().w_W[ball].dot(n);
  const double total0 = audited(s);
  double worst_slip = 0.0;
  run_to(s, m.end_time, [&](const StepReport& r) {
    require_converged(s, r);
    worst_slip = std::max(worst_slip, law_slip(s));
  });
  const double t = s.state().time;
  const Vec3 x = x0 + v0 * t + (5.0 / 14.0) * g_t * t * t, v = v0 + (5.0 / 7.0) * g_t * t;
  return {
      make_check(fmt::format("centre at t = {} s, error [m]", t), "x0 + v0 t + (5/14) g_t t^2",
                 (s.state().x_WC[ball] - x).norm(), 0.0, false, 1e-9,
                 "constant acceleration is exact for the scheme; the solver tolerance remains"),
      make_check("velocity at the end, error [m/s]", "v0 + (5/7) g_t t",
                 (s.state().v_WC[ball] - v).norm(), 0.0, false, 1e-9, "as the centre"),
      make_check("spin about the normal at the end [rad/s]", "w.n0: pivoting free",
                 s.state().w_W[ball].dot(n), w_n0, false, 1e-9, "as the centre"),
      make_check("largest slip speed the law saw [m/s]", "0: no slip", worst_slip, 0.0, false,
                 1e-10, "the constraint holds to the solver tolerance (1e-12)"),
      make_check("dissipated energy [J]", "0: no-slip does no work", s.state().dissipated, 0.0,
                 false, 1e-10, "the impulses' work on the law's velocity, zero to round-off"),
      make_check("audited energy total drift [J]", "0: kinetic + potential constant",
                 audited(s) - total0, 0.0, false, 1e-10, "round-off of 1000 steps"),
  };
}

std::vector<Case> no_slip_cases() {
  return {
      {"ball-turntable",
       "Ball rolling without slip on a turntable (no_slip): Routh's circle at (2/7) Omega, second "
       "order in h, same motion as Coulomb while it sticks, no dissipation",
       "scenes/validation/ball-turntable.yaml", ball_turntable},
      {"ball-incline-no-slip",
       "Ball rolling without slip down an incline with a spin about the normal: (5/7) g_t, spin "
       "kept, energy conserved",
       "scenes/validation/ball-incline-no-slip.yaml", ball_incline_no_slip},
  };
}

}  // namespace coulomb::validate
