// Validation cases of driven bodies, springs and dampers (issue 11): a block on a conveyor belt,
// stick–slip on a belt of sinusoidal speed, a cone rolling on a turntable, a ball on a vertically
// vibrating platform (lift-off; the bouncing-ball map's period-1 orbit and its period doubling),
// and a mass on a spring (with and without a damper) against their closed forms.
#include <coulomb/io/output.hpp>
#include <coulomb/laws/dis_choc.hpp>
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
// A cone rolling without slipping on a turntable (a driven body turning at Ω about the vertical z
// through O), its apex held at O by the motion itself. Solid cone of mass m, base radius r,
// height H, half-angle β = atan(r/H), slant length L = √(H² + r²); inertia about its apex
// I_a = (3/10) m r² about the axis, I_t = m (3/5 H² + 3/20 r²) across it; centre of mass 3H/4
// from the apex on the axis.
//
// The steady motion. Let e_c = (cos ψ, sin ψ, 0) be the contact generator, e_p = z × e_c, the
// axis a = cos β e_c + sin β z. No slip along the whole generator, (ω − Ω z) × e_c = 0, gives
//   ω = Ω z + W e_c          (the relative angular velocity W e_c lies on the contact line),
// and the axis moving with the body, ȧ = ω × a = (Ω cos β − W sin β) e_p = ψ̇ cos β e_p, gives
//   ψ̇ = ν = Ω − W tan β      (ν − Ω = −W tan β relative to the table).
// The apex is at rest; everything turns rigidly at ν about z, so the angular momentum about the
// apex, L_O = I_a ω_a a + I_t ω_b b (b = −sin β e_c + cos β z, ω_a = Ω sin β + W cos β,
// ω_b = ν cos β), obeys dL_O/dt = ν z × L_O = ν cos β (I_a ω_a − I_t ν sin β) e_p. The moments
// about O: gravity m g (3H/4) cos β e_p; the normal forces along the generator −M_N e_p with
// M_N = Σ s_i N_i (s_i the distance from the apex); friction along ±e_c has none (and it has no
// e_p part: m a_G = −m ν² (3H/4) cos β e_c has none, nor dL_O/dt a z part). So
//   Σ N_i = m g,   M_N = m g (3H/4) cos β − ν cos β (I_a ω_a − I_t ν sin β),
// the centre of pressure s_p = M_N/(m g) must lie on the generator (0 ≤ s_p ≤ L), and friction
// supplies the centripetal force, F_t = −m ν² (3H/4) cos β e_c, so the motion needs
// μ ≥ ν² (3H/4) cos β / g. The friction is along the generator and the table's points move along
// e_p: the table does no work; the kinetic energy is constant, nothing dissipates. The relative
// angular velocity at every contact point is W e_c: pivoting ω·n = 0, rolling ω_t = W e_c.
// The scene: r = 5 cm, H = 20 cm, Ω = 2, W = −8 rad/s: ν = 4 rad/s, s_p = 0.157 m = 0.762 L,
// μ_required = 0.237 < μ = 0.5. The rates are read as contacts.csv writes them (contact_row).
namespace {

struct ConeTurntable {
  int steps = 0, fewest_points = 1 << 30, most_points = 0;
  double slip = 0.0;        // largest tangential slip speed of a point [m/s]
  double gap = 0.0;         // largest |gap| of a point [m]
  double line_world = 0.0;  // largest distance of a point from the closed-form one, world [m]
  double line_table = 0.0;  // the same in the table's frame [m]
  double spin = 0.0;        // largest |pivoting rate| [rad/s]
  double roll = 0.0;        // largest |rolling vector − W e_c| [rad/s]
  double roll_rate = 0.0;   // largest | |rolling| − |W| | [rad/s]
  double pressure = 0.0;    // largest |centre of pressure − s_p| [m]
  double normal = 0.0;      // largest |Σ N − m g| / (m g)
  double friction = 0.0;    // largest |Σ F_t − F_t closed form| / (m g)
  double apex = 0.0;        // largest apex displacement [m]
  double precession = 0.0;  // mean rate of the axis' azimuth [rad/s]
  double audit = 0.0;       // audited total at the end − at the start [J]
  double driven = 0.0;      // largest |work of the table| [J]
  double kinetic = 0.0;     // largest |change of kinetic energy| [J]
  double dissipated = 0.0;  // dissipated energy at the end [J]
};

ConeTurntable run_cone_turntable(double h, double end) {
  Sim s = load_edited("cone-turntable.yaml", [&](Scene& sc) { sc.model.time_step = h; });
  const Model& m = s.model();
  const int table = body(m, "table"), cone = body(m, "cone");
  const Shape& shape = m.shapes[m.bodies[cone].first_shape];
  const Cone& geo = std::get<Cone>(shape.geometry);
  const double Omega = m.bodies[table].motion.angular_velocity.z(), g = m.gravity.norm();
  const double beta = std::atan(geo.radius / geo.height), L = std::hypot(geo.radius, geo.height);
  const double mass = m.bodies[cone].mass, W = s.state().w_W[cone].x();
  const double Ia = 0.3 * mass * geo.radius * geo.radius;
  const double It = mass * (0.6 * geo.height * geo.height + 0.15 * geo.radius * geo.radius);
  const double nu = Omega - W * std::tan(beta);
  const double wa = Omega * std::sin(beta) + W * std::cos(beta);
  const double xg = 0.75 * geo.height * std::cos(beta);  // horizontal distance of G from O
  const double sp = xg - nu * std::cos(beta) * (Ia * wa - It * nu * std::sin(beta)) / (mass * g);
  const Vec3 apex_B = shape.pose_BS.apply(Vec3(0, 0, 0.5 * geo.height));
  auto e_c = [&](double t) { return Vec3(std::cos(nu * t), std::sin(nu * t), 0.0); };
  const double kinetic0 = energy(m, s.state()).kinetic, total0 = audited(s);
  ConeTurntable r;
  Azimuth azimuth;
  azimuth.add(-(s.state().q_WB[cone] * Vec3::UnitZ()));  // apex-to-base axis
  const bool midpoint = m.solver.scheme == TimeScheme::midpoint;
  run_to(s, end, [&](const StepReport&) {
    const Workspace& ws = s.workspace();
    const double t = s.state().time;
    const double tc = midpoint ? t - 0.5 * h : t - h;  // the contact configuration's time
    const Vec3 rim = L * e_c(tc);
    const Eigen::AngleAxisd to_table(-Omega * tc, Vec3::UnitZ());
    const Vec3 rim_table = L * Vec3(std::cos((nu - Omega) * tc), std::sin((nu - Omega) * tc), 0);
    // Measured: the first step ends with the angular velocity turned by ν h/2 less than the
    // exact one (0.016 rad/s of rolling, 3.8e-5 rad/s of pivoting at h = 1 ms), which the second
    // step corrects (the first step's points have no contact memory, so its start velocity is
    // taken at the contact configuration, docs/nonsmooth.md; not investigated further): the
    // rates and forces are compared from the third step on.
    const bool steady = ++r.steps > 2;
    double normal = 0.0, moment = 0.0;
    Vec3 friction = Vec3::Zero();
    int points = 0;
    for (std::size_t k = 0; k < contact_row_count(ws); ++k) {
      const ContactRow row = contact_row(m, ws, k);
      const ContactPoint& c = ws.contact_points.points[k];
      ++points;
      r.slip = std::max(r.slip, row.velocity.tail<2>().norm());
      r.gap = std::max(r.gap, std::abs(row.gap));
      // The closed-form contact points: the apex O and the rim's end of the generator.
      const Vec3 p = row.point;
      r.line_world = std::max(r.line_world, std::min(p.norm(), (p - rim).norm()));
      const Vec3 q = to_table * p;
      r.line_table = std::max(r.line_table, std::min(q.norm(), (q - rim_table).norm()));
      const Vec3 rolling = row.rates.y() * c.t1_W + row.rates.z() * c.t2_W;
      if (steady) {
        r.spin = std::max(r.spin, std::abs(row.rates.x()));
        r.roll = std::max(r.roll, (rolling - W * e_c(t)).norm());
        r.roll_rate = std::max(r.roll_rate, std::abs(rolling.norm() - std::abs(W)));
      }
      normal += row.force.x();
      moment += row.force.x() * Vec3(p.x(), p.y(), 0.0).norm();
      friction += row.force.y() * c.t1_W + row.force.z() * c.t2_W;
    }
    r.apex = std::max(r.apex, Vec3(body_frame_pose(m, s.state(), cone).apply(apex_B)).norm());
    azimuth.add(-(s.state().q_WB[cone] * Vec3::UnitZ()));
    r.driven = std::max(r.driven, std::abs(s.state().driven_work));
    r.kinetic = std::max(r.kinetic, std::abs(energy(m, s.state()).kinetic - kinetic0));
    r.fewest_points = std::min(r.fewest_points, points);
    r.most_points = std::max(r.most_points, points);
    if (!steady) return;
    r.normal = std::max(r.normal, std::abs(normal - mass * g) / (mass * g));
    r.pressure = std::max(r.pressure, std::abs(moment / normal - sp));
    const Vec3 centripetal = -mass * nu * nu * xg * e_c(tc);
    r.friction = std::max(r.friction, (friction - centripetal).norm() / (mass * g));
  });
  r.precession = azimuth.total / s.state().time;
  r.audit = audited(s) - total0;
  r.dissipated = s.state().dissipated;  // never decreases
  return r;
}

}  // namespace

std::vector<Check> cone_turntable(const CaseContext& ctx) {
  const Sim s0 = load("cone-turntable.yaml");
  const Model& m = s0.model();
  const int table = body(m, "table"), cone = body(m, "cone");
  const Cone& geo = std::get<Cone>(m.shapes[m.bodies[cone].first_shape].geometry);
  const double Omega = m.bodies[table].motion.angular_velocity.z(), g = m.gravity.norm();
  const double beta = std::atan(geo.radius / geo.height), W = s0.state().w_W[cone].x();
  const double nu = Omega - W * std::tan(beta), mu = friction_mu(m);
  const double mu_required = nu * nu * 0.75 * geo.height * std::cos(beta) / g;
  const double h = m.time_step;
  // Full: 2π s, two turns of the table, four of the generator in the world, two relative to the
  // table; quick: a quarter of it (one turn of the generator in the world).
  const double end = ctx.quick ? 0.25 * m.end_time : m.end_time;
  const ConeTurntable r = run_cone_turntable(h, end);
  const std::string o2 = "O(h^2), measured at h, h/2, h/4 (full form): ";
  std::vector<Check> checks = {
      make_check("required friction mu_req / mu (closed form; inside the cone when in [0, 1])",
                 "nu^2 (3H/4) cos(beta) / g over mu: 0.5 +- 0.5", mu_required / mu, 0.5, false, 0.5,
                 fmt::format("mu_req = {:.4f}, mu = {}", mu_required, mu)),
      make_check("fewest contact points along the generator in a step",
                 "2: the line contact gives (at least) the apex and the rim's end", r.fewest_points,
                 2.0, false, 0.5,
                 fmt::format("an integer (0.5 tolerance); at most {} points", r.most_points)),
      make_check("largest |gap| of a contact point [m]", "0: the cone neither sinks nor lifts",
                 r.gap, 0.0, false, 6e-6,
                 o2 + "2.3e-6, 5.7e-7, 1.4e-7 m (the contact configuration, half a step ahead, "
                      "moves the centre of mass along a straight line)"),
      make_check("largest slip speed of a contact point [m/s]",
                 "0: rolling without slipping on the table", r.slip, 0.0, false, 1e-6,
                 "the friction along the contact line is statically indeterminate (two points, "
                 "one direction): 1.3e-8, 1.6e-9, 2.1e-10 m/s at h, h/2, h/4; a real slip is of "
                 "order |w| h L = 1.7e-3 m/s"),
      make_check("largest distance of a contact point from O or L e_c(nu t) (world) [m]",
                 "the generator turns at nu = Omega - W tan(beta)", r.line_world, 0.0, false, 3e-4,
                 o2 + "9.2e-5, 2.3e-5, 5.7e-6 m (the precession's phase error, growing "
                      "with t)"),
      make_check("largest distance from O or L e_c((nu - Omega) t) in the table's frame [m]",
                 "the generator turns at -W tan(beta) relative to the table", r.line_table, 0.0,
                 false, 3e-4, "as in the world (the table's pose is exact)"),
      make_check("largest |pivoting rate w.n| (contacts.csv's spin) [rad/s]",
                 "0: the relative angular velocity lies on the contact line", r.spin, 0.0, false,
                 4e-5, o2 + "1.3e-5, 3.3e-6, 8.3e-7 rad/s"),
      make_check("largest |rolling vector - W e_c(nu t)| (roll1 t1 + roll2 t2) [rad/s]", "W e_c",
                 r.roll, 0.0, false, 1e-2,
                 o2 + "3.6e-3, 9.0e-4, 2.2e-4 rad/s (|W| times the phase error)"),
      make_check("largest | |rolling rate| - |W| | [rad/s]", "|W| = 8 rad/s", r.roll_rate, 0.0,
                 false, 1e-3, o2 + "2.4e-4, 6.0e-5, 1.5e-5 rad/s"),
      make_check(fmt::format("precession rate of the axis over {:.3f} s [rad/s]", end),
                 "nu = Omega - W tan(beta)", r.precession, nu, true, 1e-4,
                 o2 + "1.8e-5, 4.4e-6, 1.1e-6 relative"),
      make_check("largest apex displacement [m]", "0: the apex stays at the table's axis", r.apex,
                 0.0, false, 3e-5, o2 + "9.0e-6, 2.2e-6, 5.6e-7 m"),
      make_check("largest |sum N - m g| / (m g)", "0: the centre of mass keeps its height",
                 r.normal, 0.0, false, 1e-6, o2 + "2.4e-7, 5.9e-8, 1.5e-8"),
      make_check("largest |centre of pressure - s_p| [m]",
                 "s_p = (3H/4) cos(beta) - nu cos(beta) (I_a w_a - I_t nu sin(beta))/(m g)",
                 r.pressure, 0.0, false, 3e-5, o2 + "9.8e-6, 2.4e-6, 6.1e-7 m (s_p = 0.157 m)"),
      make_check("largest |sum F_t + m nu^2 (3H/4) cos(beta) e_c| / (m g)",
                 "the centripetal force, along the generator", r.friction, 0.0, false, 3e-4,
                 "1.1e-4, 3.7e-5, 1.8e-5 at h, h/2, h/4 (0.237 m g itself)"),
      make_check("audited energy total drift [J]",
                 "0: kinetic + potential + dissipated - driven work is constant", r.audit, 0.0,
                 false, 1e-12, "exact energy identity of the scheme; round-off (3.8e-14 J)"),
      make_check("largest |work of the table| (driven_work) [J]",
                 "0: radial friction on points moving across the radius", r.driven, 0.0, false,
                 3e-5, o2 + "9.2e-6, 2.3e-6, 5.7e-7 J (it oscillates with the generator's turn)"),
      make_check("largest |change of kinetic energy| [J]", "0: steady motion", r.kinetic, 0.0,
                 false, 2.5e-5, o2 + "7.4e-6, 1.8e-6, 4.6e-7 J (of 0.106 J)"),
      make_check("dissipated energy [J]", "0: no slip, no impact", r.dissipated, 0.0, false, 6e-7,
                 o2 + "1.8e-7, 4.1e-8, 9.8e-9 J"),
  };
  if (!ctx.quick) {
    // The order of three of the errors, h against h/2.
    const ConeTurntable r2 = run_cone_turntable(0.5 * h, end);
    const std::pair<const char*, double ConeTurntable::*> orders[] = {
        {"pivoting rate", &ConeTurntable::spin},
        {"centre of pressure", &ConeTurntable::pressure},
        {"contact point position", &ConeTurntable::line_world}};
    for (const auto& [what, field] : orders)
      checks.push_back(
          make_check(fmt::format("observed order of the {} error, log2(e(h)/e(h/2))", what),
                     "2: a second-order scheme", std::log2(r.*field / r2.*field), 2.0, false, 0.2,
                     "asymptotic range at |w| h = 8e-3: the measured orders are 2.00 +- 0.01"));
  }
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
// The bouncing-ball map (Holmes, J. Sound Vib. 84 (1982) 173; Luck & Mehta, Phys. Rev. E 48
// (1993) 3988; Tufillaro, Abbott & Reilly, "An Experimental Approach to Nonlinear Dynamics and
// Chaos" (1992), ch. 2): a ball bouncing on a table whose face moves as s(t) = A sin(w t + φ),
// restitution e, Γ = A w²/g. The exact map takes an impact (t_k, ball velocity v_k after it) to
// the first root t_{k+1} > t_k of s(t_k) + v_k τ − g τ²/2 = s(t_{k+1}), τ = t_{k+1} − t_k, and
// v_{k+1} = (1 + e) s'(t_{k+1}) − e (v_k − g τ).
//
// Period-1 orbit (one impact a period T = 2π/w): the ball comes back to the height it left,
// v = g T/2 and −g T/2 before the impact, so (1 − e) g T/2 = (1 + e) s', i.e. at the phase θ* of
// the impact A w cos θ* = g T (1 − e)/(2 (1 + e)):
//   cos θ* = Γ_1/Γ,   Γ_1 = π (1 − e)/(1 + e)        (exact: no high-bounce approximation).
// Its stability: perturbing (t_k, v_k), implicit differentiation of the flight gives
// δt_{k+1} = δt_k + (T/D) δv_k with D = g T/2 + s'* = g T/(1 + e) the approach speed, and
// δv_{k+1} = (1 + e) s''* δt_{k+1} − e δv_k + e g (δt_{k+1} − δt_k); the Jacobian has
// det = e² and trace 1 + e² + (1 + e)² s''*/g, s''* = −g Γ sin θ*. It has the eigenvalue −1 (a
// flip) when 1 + trace + det = 0, Γ sin θ* = 2 (1 + e²)/(1 + e)²; with Γ cos θ* = Γ_1:
//   Γ_2 = √(Γ_1² + (2 (1 + e²)/(1 + e)²)²)            (exact map; derived here).
// The high-bounce approximation (the table's displacement neglected in the flight: Holmes'
// map, Tufillaro's book) has det = e, trace 1 + e + 2 (1 + e) s''*/g and flips at Γ sin θ* = 1,
// Γ_2 = √(1 + Γ_1²); the two agree as e → 1. The scene moves the platform exactly, so the
// simulation follows the exact map: with e = 0.5, Γ_1 = 1.0472, Γ_2 = 1.52682 (high-bounce
// 1.44797 = 0.948 Γ_2). The iterated exact map (exact_map below, an independent integration of
// the closed-form flights) converges to θ* below Γ_2 and to a 2-cycle above it, which confirms
// the formulas; above Γ_2 it gives the 2-cycle's two phases, which have no closed form.
//
// The case runs period-doubling.yaml at Γ = 0.96 Γ_2 (the ball leaves the platform at its
// impact phase θ* at 1.01 g T/2) and the same scene at Γ = 1.04 Γ_2 (A, the phase θ*(Γ) and the
// ball's height edited): one impact a period at θ*, then a 2-cycle: the simulation brackets Γ_2
// within ±4 % and excludes the high-bounce threshold (−5.2 %); the exact map alone brackets it
// within ±0.5 %. The impact instant is the middle of the step whose normal impulse follows a
// flight.
namespace {

struct BouncingRun {
  double gamma = 0.0, theta_star = 0.0;  // Γ and the closed-form period-1 phase θ*
  std::vector<double> impacts;           // the simulation's impact instants [s]
  std::vector<double> dissipated;        // the dissipated energy after each impact [J]
  std::vector<double> driven;            // the platform's work after each impact [J]
  std::vector<double> reference;         // the exact map's impact instants, same start [s]
  double impact_loss = 0.0;  // (1/2) m (1 − e²) (g T/(1 + e))²: one period-1 impact's loss [J]
  double audit = 0.0;        // audited energy total at the end − at the start [J]
};

// The exact map from an impact at t0 with the ball leaving at v0, n impacts (closed-form flights;
// the first root of the gap after t_k is scanned in steps of T/2000, then bisected).
std::vector<double> exact_map(double A, double w, double phase, double e, double g, double t0,
                              double v0, int n) {
  auto s = [&](double t) { return A * std::sin(w * t + phase); };
  const double dt = (2.0 * kPi / w) / 2000.0;
  std::vector<double> times;
  double t = t0, v = v0;
  for (int k = 0; k < n; ++k) {
    const double tk = t, vk = v;
    auto gap = [&](double x) {
      const double tau = x - tk;
      return s(tk) + vk * tau - 0.5 * g * tau * tau - s(x);
    };
    double a = tk + dt;
    while (gap(a + dt) > 0.0) a += dt;
    t = bisect(gap, a, a + dt);
    v = (1.0 + e) * A * w * std::cos(w * t + phase) - e * (vk - g * (t - tk));
    times.push_back(t);
  }
  return times;
}

// The scene at Γ = factor Γ_2: the platform starts at the impact phase θ*(Γ), the ball on its
// face (amplitude, phase and the ball's height edited; its velocity kept).
struct BouncingSetup {
  double A = 0.0, w = 0.0, phase = 0.0, e = 0.0, g = 0.0, v0 = 0.0;
  double gamma = 0.0, theta_star = 0.0;  // Γ and the closed-form period-1 phase θ*
};

BouncingSetup bouncing_setup(Scene& sc, double factor) {
  Model& m = sc.model;
  BodyMotion& motion = m.bodies[body(m, "platform")].motion;
  const int ball = body(m, "ball");
  BouncingSetup b;
  b.g = m.gravity.norm();
  b.w = 2.0 * kPi * motion.frequency;
  b.e = m.contacts.front().normal.get("restitution", std::nan(""));
  const double gamma1 = kPi * (1.0 - b.e) / (1.0 + b.e);
  const double gamma2 = std::hypot(gamma1, 2.0 * (1.0 + b.e * b.e) / ((1.0 + b.e) * (1.0 + b.e)));
  b.gamma = factor * gamma2;
  b.theta_star = std::acos(gamma1 / b.gamma);
  const double top0 = sc.state.x_WC[ball].z() - motion.amplitude.z() * std::sin(motion.phase);
  motion.amplitude.z() = b.gamma * b.g / (b.w * b.w);
  motion.phase = b.theta_star;
  sc.state.x_WC[ball].z() = top0 + motion.amplitude.z() * std::sin(b.theta_star);
  set_driven_state(m, sc.state, 0.0);
  b.A = motion.amplitude.z();
  b.phase = motion.phase;
  b.v0 = sc.state.v_WC[ball].z();
  return b;
}

BouncingRun run_bouncing(double gamma_factor, double end, double step) {
  BouncingRun r;
  BouncingSetup b;
  Sim s = load_edited("period-doubling.yaml", [&](Scene& sc) {
    b = bouncing_setup(sc, gamma_factor);
    sc.model.time_step = step;
  });
  r.gamma = b.gamma;
  r.theta_star = b.theta_star;
  const double mass = s.model().bodies[body(s.model(), "ball")].mass;
  const double approach = b.g * (2.0 * kPi / b.w) / (1.0 + b.e);
  r.impact_loss = 0.5 * mass * (1.0 - b.e * b.e) * approach * approach;
  const double total0 = audited(s);
  bool in_flight = false;
  run_to(s, end, [&](const StepReport&) {
    const bool touching = normal_impulse(s) > 0.0;
    if (touching && in_flight) {
      r.impacts.push_back(s.state().time - 0.5 * step);
      r.dissipated.push_back(s.state().dissipated);
      r.driven.push_back(s.state().driven_work);
    }
    in_flight = !touching;
  });
  r.audit = audited(s) - total0;
  r.reference =
      exact_map(b.A, b.w, b.phase, b.e, b.g, 0.0, b.v0, static_cast<int>(r.impacts.size()));
  return r;
}

// The exact map alone at Γ = factor Γ_2 from the scene's start: |θ_n − θ_{n−1}| after n impacts
// (0 on a period-1 orbit, the 2-cycle's width on a 2-cycle).
double map_alternation(double factor, int n) {
  Scene sc = load_scene_text(validation_scene_text("period-doubling.yaml"),
                             "scenes/validation/period-doubling.yaml");
  const BouncingSetup b = bouncing_setup(sc, factor);
  const std::vector<double> t = exact_map(b.A, b.w, b.phase, b.e, b.g, 0.0, b.v0, n);
  return std::abs(std::remainder(b.w * (t[t.size() - 1] - t[t.size() - 2]), 2.0 * kPi));
}

// The phase of an instant, w t + φ, in (−π, π] relative to `around`.
double phase_of(double t, double w, double phase, double around) {
  return around + std::remainder(w * t + phase - around, 2.0 * kPi);
}

}  // namespace

// The checks of one step h: the last ten impacts of the run below Γ_2 (one a period at θ*) and
// of the run above (a 2-cycle, against the exact map's).
void period_doubling_checks(const BouncingRun& below, const BouncingRun& above, double w, double h,
                            std::vector<Check>& checks) {
  constexpr std::size_t kLast = 10;
  // Why the impact phases are within 3 w h.
  static constexpr const char* kGridReason =
      "an impact is caught in the step it happens in and the ball leaves from the step's end: "
      "up to one step (w h of phase) of error per impact, which the map's multiplier (-0.68 "
      "at 0.96 Gamma_2) sums to 1/(1 - 0.68) = 3.1 steps at most; the simulated impacts dither "
      "on the step grid (measured 0.5, 1.5, 0.5, 0.5 w h at h = 2e-5, 1e-5, 5e-6, 2e-6 s below "
      "Gamma_2, 0.2, 1.9, 2.2, 1.4 w h from the map's 2-cycle above)";
  for (const BouncingRun* r : {&below, &above})
    if (r->impacts.size() < 2 * kLast)
      throw std::runtime_error(fmt::format("{} impacts at Gamma = {}, expected at least {}",
                                           r->impacts.size(), r->gamma, 2 * kLast));
  const double T = 2.0 * kPi / w;
  const std::string at = fmt::format("h = {:g} s", h);
  // Below Γ_2: the phases, their mean, the alternation and the intervals.
  {
    const std::vector<double>& t = below.impacts;
    const double th = below.theta_star;
    double worst = 0.0, mean = 0.0, alternation = 0.0, interval = 0.0;
    for (std::size_t k = t.size() - kLast; k < t.size(); ++k) {
      const double p = phase_of(t[k], w, th, th);
      worst = std::max(worst, std::abs(p - th));
      mean += p / static_cast<double>(kLast);
      alternation = std::max(alternation, std::abs(p - phase_of(t[k - 1], w, th, th)));
      interval = std::max(interval, std::abs(t[k] - t[k - 1] - T));
    }
    const std::string g = fmt::format("Gamma = {:.5f} (0.96 Gamma_2), {}", below.gamma, at);
    checks.push_back(make_check(
        fmt::format("{}: largest |impact phase - theta*| over the last 10 impacts [rad]", g),
        "theta* = acos(Gamma_1/Gamma), Gamma_1 = pi (1 - e)/(1 + e) (exact period-1 orbit)", worst,
        0.0, false, 3.0 * w * h, kGridReason));
    checks.push_back(make_check(
        fmt::format("{}: mean impact phase, last 10 [rad]", g), "theta*", mean, th, false,
        0.5 * w * h,
        "the start puts the exact orbit's impacts on the step grid (T = 5000 h) and the "
        "simulated ones dither on the grid about them: a bias of the scheme would move the mean "
        "by a half step at least"));
    checks.push_back(make_check(
        fmt::format("{}: largest |phase_k - phase_k-1|, last 10 [rad]", g),
        "0: one impact a period (period 1; the high-bounce map would double at 0.948 Gamma_2)",
        alternation, 0.0, false, 6.0 * w * h,
        "two phases, each within 3 w h (above); a 2-cycle here would differ by ~0.5 rad"));
    // On the period-1 orbit the ball meets the platform at D = g T/(1 + e) and leaves at e D
    // relative to it: each impact dissipates (1/2) m (1 − e²) D², which the platform's work
    // replaces (the ball's energy repeats every period).
    const std::size_t n = t.size();
    const double per_period =
        (below.dissipated[n - 1] - below.dissipated[n - 1 - kLast]) / static_cast<double>(kLast);
    const double work_per_period =
        (below.driven[n - 1] - below.driven[n - 1 - kLast]) / static_cast<double>(kLast);
    checks.push_back(make_check(
        fmt::format("{}: dissipation per period, last 10 [J]", g),
        "(1/2) m (1 - e^2) (g T/(1 + e))^2: one impact at the approach speed g T/(1 + e)",
        per_period, below.impact_loss, true, 3e-5,
        "the impacts dither about the orbit's instant in pairs (D + d, D - d), whose losses "
        "average to D^2 + d^2: the first order cancels; measured 5.1e-6 and 2.6e-6 relative at "
        "h and h/2 (an O(h) bias)"));
    checks.push_back(make_check(fmt::format("{}: platform's work per period, last 10 [J]", g),
                                "the dissipation per period (closed form, above)", work_per_period,
                                below.impact_loss, true, 3e-5,
                                "as the dissipation (measured 3.9e-7 and 4.7e-7 relative)"));
    checks.push_back(make_check(fmt::format("{}: audited energy total drift [J]", g),
                                "0: kinetic + potential + dissipated - driven work is constant",
                                below.audit, 0.0, false, 1e-12,
                                "exact energy identity of the scheme; round-off"));
    checks.push_back(make_check(fmt::format("{}: largest |t_k - t_k-1 - T|, last 10 [s]", g),
                                "0: one impact a period T", interval, 0.0, false, 6.0 * h,
                                "two instants, each within 3 h (the phase's bound)"));
  }
  // Above Γ_2: the two phases of the 2-cycle and its intervals against the exact map's.
  {
    const std::vector<double>& t = above.impacts;
    const std::vector<double>& ref = above.reference;
    const double th = above.theta_star;
    double phase_error = 0.0, interval_error = 0.0, alternation = 0.0, ref_alternation = 0.0;
    for (std::size_t k = t.size() - kLast; k < t.size(); ++k) {
      const double p = phase_of(t[k], w, th, th), q = phase_of(ref[k], w, th, th);
      phase_error = std::max(phase_error, std::abs(p - q));
      interval_error =
          std::max(interval_error, std::abs((t[k] - t[k - 1]) - (ref[k] - ref[k - 1])));
      alternation = std::max(alternation, std::abs(p - phase_of(t[k - 1], w, th, th)));
      ref_alternation = std::max(ref_alternation, std::abs(q - phase_of(ref[k - 1], w, th, th)));
    }
    const std::size_t n = t.size();
    const double p1 = phase_of(ref[n - 2], w, th, th), p2 = phase_of(ref[n - 1], w, th, th);
    const std::string g = fmt::format("Gamma = {:.5f} (1.04 Gamma_2), {}", above.gamma, at);
    checks.push_back(
        make_check(fmt::format("{}: phase difference of successive impacts, last 10 [rad]", g),
                   "the exact map's 2-cycle (iterated from the same start; no closed form)",
                   alternation, ref_alternation, false, 6.0 * w * h,
                   fmt::format("two phases, each within 3 w h (the map's 2-cycle: {:.6f} and "
                               "{:.6f} rad; theta* = {:.6f} is unstable)",
                               std::min(p1, p2), std::max(p1, p2), th)));
    checks.push_back(make_check(
        fmt::format("{}: largest |impact phase - the map's|, last 10 [rad]", g),
        "0: the exact map's 2-cycle", phase_error, 0.0, false, 3.0 * w * h, kGridReason));
    checks.push_back(
        make_check(fmt::format("{}: largest |interval - the map's|, last 10 [s]", g),
                   fmt::format("0: the intervals alternate {:.6f} T and {:.6f} T (the map's)",
                               (ref[n - 1] - ref[n - 2]) / T, (ref[n - 2] - ref[n - 3]) / T),
                   interval_error, 0.0, false, 6.0 * h, "two instants, each within 3 h"));
    checks.push_back(make_check(fmt::format("{}: audited energy total drift [J]", g),
                                "0: kinetic + potential + dissipated - driven work is constant",
                                above.audit, 0.0, false, 1e-12,
                                "exact energy identity of the scheme; round-off"));
  }
}

std::vector<Check> period_doubling(const CaseContext& ctx) {
  const Sim s0 = load("period-doubling.yaml");
  const Model& m = s0.model();
  const double w = 2.0 * kPi * m.bodies[body(m, "platform")].motion.frequency;
  const double h = m.time_step, end = m.end_time;
  const BouncingRun below = run_bouncing(0.96, end, h), above = run_bouncing(1.04, end, h);
  std::vector<Check> checks;
  // The closed forms against the iterated exact map: at 0.96 Γ_2 it converges to θ*.
  double map_worst = 0.0;
  for (std::size_t k = below.reference.size() - 10; k < below.reference.size(); ++k)
    map_worst = std::max(
        map_worst, std::abs(phase_of(below.reference[k], w, below.theta_star, below.theta_star) -
                            below.theta_star));
  checks.push_back(make_check(
      "exact map at 0.96 Gamma_2: largest |phase - theta*| over its last 10 impacts [rad]",
      "theta* = acos(Gamma_1/Gamma): the closed-form orbit is the map's attractor", map_worst, 0.0,
      false, 1e-5,
      "the map's slowest multiplier at 0.96 Gamma_2 is -0.68 (closed form of the Jacobian): the "
      "start's 0.05 rad decays to 1e-6 rad in 30 impacts (measured 2.2e-6 over impacts 30-39)"));
  // The map brackets its own threshold tightly: period 1 at 0.995 Γ_2, period 2 at 1.005 Γ_2.
  checks.push_back(make_check(
      "exact map at 0.995 Gamma_2: |phase_n - phase_n-1| after 1000 impacts [rad]",
      "0: period 1 below Gamma_2", map_alternation(0.995, 1000), 0.0, false, 1e-6,
      "its multiplier -0.968 (closed form) takes the start's 0.05 rad to 1e-15 in 1000 impacts; "
      "the bisection's round-off remains (measured 1.1e-11)"));
  checks.push_back(make_check(
      "exact map at 1.005 Gamma_2: |phase_n - phase_n-1| after 1000 impacts [rad] (in [0.1, 0.5])",
      "a 2-cycle above Gamma_2 (supercritical flip: width grows as sqrt(Gamma/Gamma_2 - 1))",
      map_alternation(1.005, 1000), 0.3, false, 0.2,
      "a period-1 orbit gives 0; measured 0.26 rad (0.725 rad at 1.04 Gamma_2)"));
  period_doubling_checks(below, above, w, h, checks);
  if (!ctx.quick) {
    // h/2: the phases' error halves with the step (the grid's w h/2).
    const BouncingRun below2 = run_bouncing(0.96, end, 0.5 * h),
                      above2 = run_bouncing(1.04, end, 0.5 * h);
    period_doubling_checks(below2, above2, w, 0.5 * h, checks);
  }
  return checks;
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
