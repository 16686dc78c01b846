// Validation cases of general 3-D motion (issue 6): spin not parallel to the velocity, rolling on
// curved edges and surfaces, line contacts, the position stage, and orders of convergence measured
// by halving the step where no closed form exists. Each compares with a closed form (derived in
// the scene file's header and below) or with the scheme's own convergence.
#include <coulomb/dynamics/rigid_body.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

#include "validate/cases_common.hpp"

namespace coulomb::validate {

namespace {

// Rotation angle about y of a body turned only about y (planar rocking): 2 atan2(q_y, q_w).
double angle_about_y(const Quat& q) { return 2.0 * std::atan2(q.y(), q.w()); }

// ---------------------------------------------------------------------------------------------
// A ball sliding with spin about the vertical only: the friction impulses lie in the xz plane
// and their moment r × P has no vertical part; a sphere has no gyroscopic term. So the ball stays
// on the x axis and keeps ω_z, exactly, while it slides and then rolls at 5 v0/7.
std::vector<Check> ball_vertical_spin(const CaseContext&) {
  Sim s = load("ball-vertical-spin.yaml");
  const Model& m = s.model();
  const int ball = body(m, "ball");
  const double v0 = s.state().v_WC[ball].x(), wz0 = s.state().w_W[ball].z();
  double worst_y = 0.0, worst_wz = 0.0;
  run_to(s, m.end_time, [&](const StepReport&) {
    worst_y = std::max(worst_y, std::abs(s.state().x_WC[ball].y()));
    worst_wz = std::max(worst_wz, std::abs(s.state().w_W[ball].z() - wz0));
  });
  return {
      make_check("largest |y| of the centre [m]", "0: the motion stays in the xz plane", worst_y,
                 0.0, false, 1e-9,
                 "the issue's bound; the impulses have no y component and no vertical moment, so "
                 "only round-off can move the ball off the line (the first-order rotation update "
                 "this replaces moved it 4.7 mm in 0.6 s)"),
      make_check("largest |w_z - w_z0| [rad/s]", "0: no vertical moment, no gyroscopic term",
                 worst_wz, 0.0, false, 1e-9 * std::abs(wz0),
                 "the world angular momentum receives r x P exactly, which has no vertical part; "
                 "1e-9 relative is round-off over 600 steps with a margin"),
      make_check("final speed [m/s]", "5 v0/7 (rolling; the spin about the normal plays no part)",
                 s.state().v_WC[ball].x(), 5.0 * v0 / 7.0, true, 1e-9,
                 "the friction impulses conserve the angular momentum about the contact point "
                 "exactly; round-off and the solver tolerance 1e-12 remain"),
  };
}

// ---------------------------------------------------------------------------------------------
// A billiard ball with its spin not parallel to its velocity: the angular momentum about the
// contact point, m R n × v + I ω, is conserved by the friction impulses (its horizontal part) and
// ω·n by the absence of a vertical moment; rolling v = R ω × n then gives
// v = (5 v0 + 2 R ω0 × n)/7 (I = 2 m R²/5).
std::vector<Check> billiard_tilted_spin(const CaseContext&) {
  Sim s = load("billiard-tilted-spin.yaml");
  const Model& m = s.model();
  const int ball = body(m, "ball");
  const double R = std::get<Sphere>(m.shapes[m.bodies[ball].first_shape].geometry).radius;
  const double mu = friction_mu(m), g = -m.gravity.z(), h = m.time_step;
  const Vec3 n = Vec3::UnitZ();
  const Vec3 v0 = s.state().v_WC[ball], w0 = s.state().w_W[ball];
  const Vec3 slip0 = v0 - R * w0.cross(n);
  const double t_star = 2.0 * slip0.norm() / (7.0 * mu * g);
  auto slip = [&] { return Vec3(s.state().v_WC[ball] - R * s.state().w_W[ball].cross(n)); };
  double worst_slip = 0.0;
  run_to(s, m.end_time, [&](const StepReport&) {
    if (s.state().time > t_star + 2.0 * h) worst_slip = std::max(worst_slip, slip().norm());
  });
  const Vec3 v_final = (5.0 * v0 + 2.0 * R * w0.cross(n)) / 7.0;
  return {
      make_check("|v - (5 v0 + 2 R w0 x n)/7| / |(5 v0 + 2 R w0 x n)/7|",
                 "0: closed form of the rolling velocity in 3-D",
                 (s.state().v_WC[ball] - v_final).norm() / v_final.norm(), 0.0, false, 1e-8,
                 "the issue's bound (the first-order rotation update missed by ~1e-6 at h = 5e-4 "
                 "s); the impulses conserve the angular momentum about the contact point exactly"),
      make_check("w_z at the end [rad/s]", "w_z0: no moment about the normal",
                 s.state().w_W[ball].z(), w0.z(), true, 1e-9,
                 "no vertical moment, no gyroscopic term; round-off"),
      make_check("largest |slip| after t* + 2h [m/s]", "0: rolling without slipping", worst_slip,
                 0.0, false, 1e-12,
                 "sticking is exact in the set-valued law; 1e-12 is the solver tolerance"),
  };
}

// ---------------------------------------------------------------------------------------------
// Euler's disk in steady motion (euler-disk.yaml): the precession rate Ω_p of the closed form,
// the tilt α kept, no penetration; the error of Ω_p at h, h/2, h/4 measures the order.
struct DiskRun {
  double precession = 0.0;    // measured Ω [rad/s]
  double worst_tilt = 0.0;    // largest |tilt − α| [rad]
  double worst_depth = 0.0;   // deepest rim point below the table [m]
  double energy_drift = 0.0;  // |E(T) − E(0)| / E(0), E = kinetic + potential
};

DiskRun run_disk(double h, double end) {
  Sim s = load_edited("euler-disk.yaml", [&](Scene& sc) { sc.model.time_step = h; });
  const Model& m = s.model();
  const int disk = body(m, "disk");
  const Cylinder& cyl = std::get<Cylinder>(m.shapes[m.bodies[disk].first_shape].geometry);
  const Vec3 axis0 = s.state().q_WB[disk] * Vec3::UnitZ();
  const double alpha = std::acos(axis0.z());
  const Energy e0 = energy(m, s.state());
  DiskRun r;
  Azimuth azimuth;
  azimuth.add(axis0);
  run_to(s, end, [&](const StepReport&) {
    const Vec3 axis = s.state().q_WB[disk] * Vec3::UnitZ();
    azimuth.add(axis);
    r.worst_tilt =
        std::max(r.worst_tilt, std::abs(std::acos(std::clamp(axis.z(), -1.0, 1.0)) - alpha));
    // Lowest point of the lower rim: centre − t |n_z| − a sqrt(1 − n_z²).
    const double low = s.state().x_WC[disk].z() - cyl.half_length * std::abs(axis.z()) -
                       cyl.radius * std::sqrt(std::max(0.0, 1.0 - axis.z() * axis.z()));
    r.worst_depth = std::max(r.worst_depth, -low);
  });
  r.precession = azimuth.total / s.state().time;
  const Energy e1 = energy(m, s.state());
  r.energy_drift =
      std::abs(e1.kinetic + e1.potential - e0.kinetic - e0.potential) / (e0.kinetic + e0.potential);
  return r;
}

std::vector<Check> euler_disk(const CaseContext& ctx) {
  Sim s = load("euler-disk.yaml");
  const Model& m = s.model();
  const int disk = body(m, "disk");
  const Cylinder& cyl = std::get<Cylinder>(m.shapes[m.bodies[disk].first_shape].geometry);
  const double a = cyl.radius, t = cyl.half_length, mass = m.bodies[disk].mass;
  const double I1 = m.bodies[disk].inertia_B(0, 0), I3 = m.bodies[disk].inertia_B(2, 2);
  const double g = -m.gravity.z();
  const double alpha = std::acos((s.state().q_WB[disk] * Vec3::UnitZ()).z());
  const double sa = std::sin(alpha), ca = std::cos(alpha);
  const double omega_p =
      std::sqrt(mass * g * (a * ca - t * sa) / (sa * (I1 * ca - I3 * (t / a) * sa)));
  // The scene must start in the steady motion: centre at rest, ω = Ω_p e_z + s n_d.
  const Vec3 nd = s.state().q_WB[disk] * Vec3::UnitZ();
  const Vec3 w_steady = omega_p * Vec3::UnitZ() + omega_p * (t * sa / a - ca) * nd;
  if ((s.state().w_W[disk] - w_steady).norm() > 1e-9 * w_steady.norm() ||
      s.state().v_WC[disk].norm() != 0.0)
    throw std::runtime_error("euler-disk.yaml does not start in the steady motion");

  const double h = m.time_step, end = ctx.quick ? 0.5 : m.end_time;
  const DiskRun r = run_disk(h, end);
  std::vector<Check> checks = {
      make_check(fmt::format("precession rate over {} s [rad/s]", end),
                 "Omega_p^2 sin a (I1 cos a - I3 (t/a) sin a) = m g (a cos a - t sin a)",
                 r.precession, omega_p, true, 0.01,
                 "the issue's bound at h = 2.5e-4 s (measured 1.3e-5: the scheme is second "
                 "order, see the order check; Moreau-Jean gave 7.8e-2, first order with a drift)"),
      make_check("largest |tilt - alpha| [deg]", "0: steady motion", r.worst_tilt * 180.0 / kPi,
                 0.0, false, 0.5, "the issue's bound (measured 1e-3 deg)"),
      make_check("deepest rim point below the table [m]", "0: Signorini", r.worst_depth, 0.0, false,
                 1e-5,
                 "the issue's bound; the closed contact of the midpoint scheme drifts by O(h^2) "
                 "and the position stage closes what exceeds 1e-8 m (measured 2.2e-7 m)"),
      make_check(
          "|E(T) - E(0)| / E(0), E = kinetic + potential", "0: rolling dissipates nothing",
          r.energy_drift, 0.0, false, 1e-4,
          "the symmetric law does no work on a sticking contact; what is left is O(h^2): "
          "the normal impulses' work on the O(h^2) normal velocity at the step's start and "
          "the position stage (measured 2.7e-4, 6.9e-5, 1.7e-5 at h = 1e-3, 5e-4, 2.5e-4 s)"),
  };
  if (!ctx.quick) {
    // Order: the error of Ω_p at h = 1e-3, 5e-4, 2.5e-4 s.
    double err[3];
    double hh = 1e-3;
    for (double& e : err) {
      e = std::abs(run_disk(hh, m.end_time).precession - omega_p);
      hh *= 0.5;
    }
    const double p = std::log2(std::sqrt(err[0] / err[2]));
    checks.push_back(make_check(
        fmt::format("observed order of the precession error (errors {:.3g}, {:.3g}, {:.3g} rad/s "
                    "at h = 1e-3, 5e-4, 2.5e-4 s)",
                    err[0], err[1], err[2]),
        "2: the midpoint scheme is second order in smooth phases", p, 2.0, false, 0.75,
        "log2 of the error ratio per halving, averaged over two halvings; at these steps the h^2 "
        "term dominates but the h^3 term still counts (measured 2.5); a first-order scheme gives "
        "1 (Moreau-Jean: 0.6, 0.8)"));
  }
  return checks;
}

// ---------------------------------------------------------------------------------------------
// The rocking ellipsoid (rocking-ellipsoid*.yaml), frictionless or rolling. Planar motion about y
// with the support function h(θ) = sqrt(a² sin²θ + c² cos²θ): potential m g h(θ), kinetic
// ½ K(θ) θ̇² with K = I_y + m h'² (frictionless: the centre moves only vertically) or
// K = I_y + m (h² + h'²) (rolling: about the contact point). Period at amplitude θ0: the energy
// integral T = 4 ∫0^θ0 sqrt(K(θ) / (2 m g (h(θ0) − h(θ)))) dθ, with θ = θ0 sin φ to remove the
// endpoint singularity; the small-oscillation limit is 2π sqrt(K(0) c / (m g (a² − c²))).
struct Rocking {
  double a, c, mass, Iy, g, theta0;
  bool rolling;
  double h(double th) const {
    return std::sqrt(a * a * std::sin(th) * std::sin(th) + c * c * std::cos(th) * std::cos(th));
  }
  double dh(double th) const { return (a * a - c * c) * std::sin(th) * std::cos(th) / h(th); }
  double K(double th) const {
    const double d = dh(th);
    return Iy + mass * (rolling ? h(th) * h(th) + d * d : d * d);
  }
  double small_period() const {
    return 2.0 * kPi * std::sqrt(K(0.0) * c / (mass * g * (a * a - c * c)));
  }
  // Gauss–Legendre on [0, π/2] in φ, composite over 64 panels of 8 nodes: the integrand is smooth
  // in φ, so this is exact to round-off (checked against 32 panels: the same to 1e-14).
  double period() const {
    static constexpr double x[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267,
                                    0.9602898564975363};
    static constexpr double w[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745,
                                    0.1012285362903763};
    const int panels = 64;
    const double width = 0.5 * kPi / panels;
    double sum = 0.0;
    for (int p = 0; p < panels; ++p) {
      const double mid = (p + 0.5) * width;
      for (int i = 0; i < 4; ++i)
        for (double sgn : {-1.0, 1.0}) {
          const double phi = mid + sgn * 0.5 * width * x[i];
          const double th = theta0 * std::sin(phi);
          const double dv = mass * g * (h(theta0) - h(th));
          sum += w[i] * 0.5 * width * std::sqrt(K(th) / (2.0 * dv)) * theta0 * std::cos(phi);
        }
    }
    return 4.0 * sum;
  }
};

struct RockRun {
  double period = std::nan("");  // mean interval between upward zero crossings [s]
  double amplitude = 0.0;        // largest |θ| over the last small-oscillation period [s]
  double theta_end = 0.0;        // θ at the end
};

RockRun run_rocking(const std::string& file, double h, double end, double last_period) {
  Sim s = load_edited(file, [&](Scene& sc) { sc.model.time_step = h; });
  const int egg = body(s.model(), "egg");
  RockRun r;
  double previous = angle_about_y(s.state().q_WB[egg]);
  double first = std::nan(""), last = std::nan("");
  int crossings = 0;
  run_to(s, end, [&](const StepReport&) {
    const double now = angle_about_y(s.state().q_WB[egg]);
    const double t = s.state().time;
    if (previous < 0.0 && now >= 0.0) {
      const double tc = t - h * now / (now - previous);
      if (crossings == 0) first = tc;
      last = tc;
      ++crossings;
    }
    if (t > end - last_period) r.amplitude = std::max(r.amplitude, std::abs(now));
    previous = now;
  });
  if (crossings > 1) r.period = (last - first) / (crossings - 1);
  r.theta_end = previous;
  return r;
}

std::vector<Check> rocking_ellipsoid(const std::string& file, bool rolling,
                                     const CaseContext& ctx) {
  Sim s = load(file);
  const Model& m = s.model();
  const int egg = body(m, "egg");
  const Vec3 axes = std::get<Ellipsoid>(m.shapes[m.bodies[egg].first_shape].geometry).semi_axes;
  const Rocking model{axes.x(),
                      axes.z(),
                      m.bodies[egg].mass,
                      m.bodies[egg].inertia_B(1, 1),
                      -m.gravity.z(),
                      angle_about_y(s.state().q_WB[egg]),
                      rolling};
  const double T_small = model.small_period(), T_exact = model.period();
  const double h = m.time_step, end = ctx.quick ? 2.0 : m.end_time;
  const RockRun r = run_rocking(file, h, end, T_small);
  std::vector<Check> checks = {
      make_check("period [s]", "2 pi / w, small oscillations", r.period, T_small, true, 0.01,
                 "the issue's bound; at 0.05 rad the finite amplitude lengthens the period by "
                 "0.76 % (frictionless) / 0.57 % (rolling), see the next check"),
      make_check("period [s]", "energy integral at the amplitude theta0 (quadrature)", r.period,
                 T_exact, true, 1e-4,
                 "a second-order scheme: the phase error is about (w h)^2/12 = 1.4e-5 per "
                 "period at h = 1e-3 s (w = 13 rad/s); 1e-4 leaves the crossing interpolation "
                 "(linear, O(h^2) per crossing) its share"),
      make_check(fmt::format("largest |theta| over the last period of {} s [rad]", end),
                 "theta0: nothing dissipates", r.amplitude, model.theta0, true, 0.03,
                 "the issue's bound (measured 3e-5; the velocity-level scheme sank and grew the "
                 "amplitude 0.05 -> 0.186 rad in 10 s)"),
  };
  if (!ctx.quick) {
    // Order: θ at 2 s for h, h/2, h/4 (no closed form for θ(t) at this amplitude).
    double th[3];
    double hh = 2e-3;
    for (double& x : th) {
      x = run_rocking(file, hh, 2.0, T_small).theta_end;
      hh *= 0.5;
    }
    checks.push_back(make_check(
        fmt::format("observed order of theta(2 s) (h = 2e-3, 1e-3, 5e-4 s: {:.9f}, {:.9f}, {:.9f})",
                    th[0], th[1], th[2]),
        "2: second order in smooth phases", observed_order(th[0], th[1], th[2]), 2.0, false, 0.3,
        "log2 of the ratio of successive differences; the asymptotic h^2 regime holds at w h "
        "<= 0.026 to a few per cent of the ratio"));
  }
  return checks;
}

// ---------------------------------------------------------------------------------------------
// A cone rolling on its side around its apex: Ω = W r/H with W = |ω| along the contact line.
std::vector<Check> cone_rolling(const CaseContext& ctx) {
  Sim s = load("cone-rolling.yaml");
  const Model& m = s.model();
  const int cone = body(m, "cone");
  const Cone& shape = std::get<Cone>(m.shapes[m.bodies[cone].first_shape].geometry);
  const double W = s.state().w_W[cone].norm();
  const double Omega = W * shape.radius / shape.height;
  const Vec3 apex_B =
      m.shapes[m.bodies[cone].first_shape].pose_BS.apply(Vec3(0, 0, 0.5 * shape.height));
  auto apex = [&] { return Vec3(body_frame_pose(m, s.state(), cone).apply(apex_B)); };
  const Vec3 apex0 = apex();
  const double end = ctx.quick ? 0.5 : m.end_time;
  Azimuth azimuth;
  azimuth.add(s.state().q_WB[cone] * Vec3::UnitZ());
  double worst_apex = 0.0, worst_w = 0.0, worst_slip = 0.0;
  run_to(s, end, [&](const StepReport&) {
    azimuth.add(s.state().q_WB[cone] * Vec3::UnitZ());
    worst_apex = std::max(worst_apex, (apex() - apex0).norm());
    worst_w = std::max(worst_w, std::abs(s.state().w_W[cone].norm() - W));
    for (std::size_t k = 0; k < s.workspace().contact_points.points.size(); ++k)
      if (s.workspace().active_set.active_of_point[k] >= 0)
        worst_slip = std::max(worst_slip, std::hypot(s.workspace().step_results.u_end[k].y(),
                                                     s.workspace().step_results.u_end[k].z()));
  });
  const double measured = std::abs(azimuth.total) / s.state().time;
  return {
      make_check(fmt::format("precession rate of the axis over {} s [rad/s]", end),
                 "W r / H: rolling without slipping about the apex", measured, Omega, true, 1e-4,
                 "second order: the error is O((W h)^2) = 1e-4 at h = 1e-3 s (measured 2.5e-5)"),
      make_check("largest apex displacement [m]", "0: the apex is on the instantaneous axis",
                 worst_apex, 0.0, false, 1e-5,
                 "the O(h^2) error of the rolling constraint: measured 5.9e-6, 1.5e-6, 3.7e-7 m at "
                 "h = 1e-3, 5e-4, 2.5e-4 s (a factor 4.0 per halving)"),
      make_check("largest | |w| - W | [rad/s]", "0: steady rolling", worst_w, 0.0, false, 1e-3 * W,
                 "second order, as the precession (measured 7.7e-5 rad/s)"),
      make_check(
          "largest slip speed of a contact point [m/s]",
          "0: rolling without slipping (W h r = 5e-4 m/s would be the size of a slip)", worst_slip,
          0.0, false, 1e-6,
          "the friction along the contact line is statically indeterminate for a rigid cone "
          "(its two points' slips along the generator are equal up to the gap), so the solve "
          "may put the apex on its cone, where the nearly redundant rows leave a slip of "
          "1e-8 m/s; a real slip is of order W h r"),
  };
}

// ---------------------------------------------------------------------------------------------
// The position stage (box-drop.yaml): a cube dropped onto a cube rests at its height; a cube that
// starts inside its support is moved out in the first step, and the energy this adds is booked.
std::vector<Check> position_stage(const CaseContext&) {
  Sim s = load("box-drop.yaml");
  const Model& m = s.model();
  const int cube = body(m, "cube");
  const double rest = 1.1;  // top of the 1 m base + half the 0.2 m cube
  const Energy e0 = energy(m, s.state());
  run_to(s, m.end_time, [](const StepReport&) {});
  const Energy e1 = energy(m, s.state());
  const double dropped_height = s.state().x_WC[cube].z();
  const double audit = e1.kinetic + e1.potential + s.state().dissipated - e0.kinetic - e0.potential;

  // The same cube started 5 mm inside the base.
  const double depth = 5e-3;
  Sim o = load_edited("box-drop.yaml", [&](Scene& sc) {
    sc.state.x_WC[static_cast<std::size_t>(cube)].z() = rest - depth;
  });
  o.step();
  const double after_one = o.state().x_WC[cube].z();
  const double booked =
      o.state().dissipated_by_kind[static_cast<std::size_t>(EnergyKind::correction)];
  const double weight = m.bodies[cube].mass * -m.gravity.z();
  run_to(o, 1.0, [](const StepReport&) {});
  return {
      make_check("height of the dropped cube after 2 s [m]", "1.1: resting on the base",
                 dropped_height, rest, false, 2e-5,
                 "the issue's bound; the position stage leaves at most its trigger, 1e-8 m "
                 "(velocity-level Moreau-Jean left it 1.5e-4 m inside for ever)"),
      make_check("energy audit after the drop [J]",
                 "0: kinetic + potential + dissipated (including the position stage) constant",
                 audit, 0.0, false, 1e-9,
                 "the dissipated energy is the work of the impulses plus minus the energy the "
                 "position stage adds, so the audit closes to round-off and the solver tolerance"),
      make_check("height after the first step of a cube started 5 mm inside [m]",
                 "1.1: the overlap removed in one step", after_one, rest, false, 1e-9,
                 "the contact is active in the first step, so the impulse holds the cube (no "
                 "fall); the correction is linear and exact for a translation normal to a face: "
                 "round-off of the 4-point complementarity solve"),
      make_check("energy booked by the position stage [J]", "-m g depth (the lift it gave)", booked,
                 -weight * depth, true, 1e-6,
                 "the lift is the depth exactly (see above); round-off of the projected "
                 "Gauss-Seidel solve of the four corners"),
      make_check("height of that cube after 1 s [m]", "1.1", o.state().x_WC[cube].z(), rest, false,
                 2e-5, "as for the dropped cube"),
  };
}

// ---------------------------------------------------------------------------------------------
// The point-Coulomb tippe top: once the contact point stops slipping, the top rolls; rolling
// dissipates nothing, so the mechanical energy stays constant and the top keeps rolling.
std::vector<Check> tippe_top_point(const CaseContext& ctx) {
  Sim s = load("tippe-top-point.yaml");
  const Model& m = s.model();
  const double end = ctx.quick ? 1.5 : m.end_time;
  double t_roll = std::nan(""), e_roll = 0.0, worst_drift = 0.0;
  int slid_after = 0;
  run_to(s, end, [&](const StepReport& r) {
    if (r.active_contacts == 0) return;
    bool sticking = true;
    for (std::size_t k = 0; k < s.workspace().step_results.status.size(); ++k)
      if (s.workspace().active_set.active_of_point[k] >= 0 &&
          s.workspace().step_results.status[k] != ContactStatus::sticking)
        sticking = false;
    const Energy e = energy(m, s.state());
    if (std::isnan(t_roll)) {
      if (sticking) {
        t_roll = s.state().time;
        e_roll = e.kinetic + e.potential;
      }
      return;
    }
    if (!sticking) ++slid_after;
    worst_drift = std::max(worst_drift, std::abs(e.kinetic + e.potential - e_roll) / e_roll);
  });
  if (std::isnan(t_roll)) throw std::runtime_error("the top never stopped slipping");
  return {
      make_check(
          fmt::format("steps with slip after rolling began at {:.4f} s (to {} s)", t_roll, end),
          "0: rolling without slipping persists", slid_after, 0.0, false, 0.5,
          "an integer count (Moreau-Jean leaves the rolling at 0.725, 1.415, 2.795 s for h = "
          "1e-3, 5e-4, 2.5e-4 s: a time of order 1/h)"),
      make_check("largest relative change of kinetic + potential energy while rolling",
                 "0: rolling without slipping dissipates nothing", worst_drift, 0.0, false, 1e-6,
                 "the symmetric law does no work on a sticking contact; the friction impulses' "
                 "work on the O(h^2) slip at the step's start is left, O(h^3) in all (measured "
                 "1.3e-6, 1.4e-7, 1.8e-8 over 0.5 ... 2 s at h = 1e-3, 5e-4, 2.5e-4 s)"),
  };
}

// ---------------------------------------------------------------------------------------------
// Every general convex pair resting (resting-pairs.yaml): each free body stays at its height; and
// dropped from 1 cm, comes to rest there.
std::vector<Check> resting_pairs(const CaseContext& ctx) {
  const double end = ctx.quick ? 1.0 : 2.0;
  std::vector<Check> checks;
  for (const double drop : {0.0, 0.01}) {
    Sim s = load_edited("resting-pairs.yaml", [&](Scene& sc) {
      for (std::size_t b = 0; b < sc.model.bodies.size(); ++b)
        if (!sc.model.bodies[b].fixed) sc.state.x_WC[b].z() += drop;
    });
    const Model& m = s.model();
    std::vector<double> z0(m.bodies.size()), worst(m.bodies.size(), 0.0);
    std::vector<Quat> q0 = s.state().q_WB;
    for (std::size_t b = 0; b < m.bodies.size(); ++b) z0[b] = s.state().x_WC[b].z() - drop;
    run_to(s, end, [&](const StepReport&) {
      // Resting from the start: the whole run; dropped: the last half second.
      if (drop == 0.0 || s.state().time > end - 0.5)
        for (std::size_t b = 0; b < m.bodies.size(); ++b)
          worst[b] = std::max(worst[b], std::abs(s.state().x_WC[b].z() - z0[b]));
    });
    for (std::size_t b = 0; b < m.bodies.size(); ++b) {
      if (m.bodies[b].fixed) continue;
      const double turned = q0[b].angularDistance(s.state().q_WB[b]);
      checks.push_back(make_check(
          fmt::format("{}: largest |z - z_rest| {} [m]", m.bodies[b].name,
                      drop == 0.0 ? fmt::format("over {} s", end)
                                  : fmt::format("over the last 0.5 s, dropped from 1 cm")),
          "0: resting on its support", worst[b], 0.0, false, 2e-5,
          drop == 0.0
              ? "the issue's bound; a line or face contact of one point sank 1-6 cm/s"
              : "the issue's bound; the impact ends its step inside the support by up to h v/2 "
                "= 0.2 mm and the position stage closes it"));
      if (drop == 0.0)
        checks.push_back(
            make_check(fmt::format("{}: rotation over {} s [rad]", m.bodies[b].name, end),
                       "0: it neither tips nor rolls", turned, 0.0, false, 1e-6,
                       "a symmetric manifold holds the body; round-off and the "
                       "solver tolerance move it by 1e-8 rad at most (measured)"));
    }
  }
  return checks;
}

// ---------------------------------------------------------------------------------------------
// Impacts in a chain (chain.yaml), with every solver and e = 0 and 1: Moreau's simultaneous-impact
// velocities, the energy never increases, every step converges in a few sweeps.
std::vector<Check> chain(const CaseContext&) {
  std::vector<Check> checks;
  for (const SolverKind kind : {SolverKind::nsgs, SolverKind::prox, SolverKind::automatic}) {
    const char* solver = to_string(kind);
    for (const double e : {0.0, 1.0}) {
      Sim s = load_edited("chain.yaml", [&](Scene& sc) {
        sc.model.solver.kind = kind;
        sc.model.contacts[0].normal.params["restitution"] = e;
      });
      const Model& m = s.model();
      const int first = body(m, "ball0");
      const int n = 6;
      const double v = s.state().v_WC[first].x();
      Energy en = energy(m, s.state());
      double previous = en.kinetic + en.potential, worst_gain = 0.0, worst_v = 0.0;
      std::int64_t sweeps = 0, steps = 0, not_converged = 0;
      run_to(s, m.end_time, [&](const StepReport& r) {
        en = energy(m, s.state());
        worst_gain = std::max(worst_gain, en.kinetic + en.potential - previous);
        previous = en.kinetic + en.potential;
        ++steps;
        sweeps += r.solver.iterations;
        not_converged += r.active_contacts > 0 && r.solver.status != SolverStatus::converged;
        // After the impact: Moreau's velocities.
        const double common = (1.0 + e) * v / n;
        worst_v = std::abs(s.state().v_WC[first].x() - (common - e * v));
        for (int i = 1; i < n; ++i)
          worst_v = std::max(worst_v, std::abs(s.state().v_WC[first + i].x() - common));
      });
      const std::string tag = fmt::format("{}, e = {}", solver, e);
      checks.push_back(make_check(
          fmt::format("{}: largest |v - Moreau's velocity| at the end [m/s]", tag),
          "(1 + e) v/n for the struck five, (1 + e) v/n - e v for the first", worst_v, 0.0, false,
          1e-8,
          "the impact step is solved to 1e-10 of |q| = 2 m/s; the row then moves as one (e = 0) "
          "or keeps exchanging round-off rebounds (e = 1); measured 9.6e-11 (NSGS) to 3.4e-9 "
          "(PROX)"));
      checks.push_back(make_check(
          fmt::format("{}: largest one-step increase of kinetic + potential energy [J]", tag),
          "0: Moreau's law with e <= 1 dissipates or keeps energy (Glocker)", worst_gain, 0.0,
          false, 1e-9,
          "the impulses are exact to the solver tolerance: 1e-10 of 2 N s on velocities of "
          "1 m/s is 2e-10 J a step"));
      checks.push_back(make_check(fmt::format("{}: mean sweeps per step", tag),
                                  "a few: each step's problem is solved to 1e-10",
                                  static_cast<double>(sweeps) / static_cast<double>(steps), 1.0,
                                  false, 1.0,
                                  "one sweep a step once the row moves (the step takes at least "
                                  "one) plus the impact step's Gauss-Seidel (rate 3/4: about 80 "
                                  "sweeps) over 500 steps; before the mu = 0 cone was fixed, 500 "
                                  "a step"));
      checks.push_back(make_check(fmt::format("{}: steps not converged", tag), "0",
                                  static_cast<double>(not_converged), 0.0, false, 0.5,
                                  "an integer count"));
    }
  }
  return checks;
}

}  // namespace

std::vector<Case> motion_cases() {
  return {
      {"ball-vertical-spin",
       "Ball sliding with spin about the vertical only: stays on its line, keeps w_z (3-D "
       "rotation)",
       "scenes/validation/ball-vertical-spin.yaml", ball_vertical_spin},
      {"billiard-tilted-spin",
       "Billiard ball with spin not parallel to its velocity: rolls at (5 v0 + 2 R w0 x n)/7",
       "scenes/validation/billiard-tilted-spin.yaml", billiard_tilted_spin},
      {"euler-disk",
       "Euler's disk in steady motion: precession rate, tilt, no penetration, second order",
       "scenes/validation/euler-disk.yaml", euler_disk},
      {"rocking-ellipsoid",
       "Ellipsoid rocking without friction: period (small and finite amplitude), amplitude kept",
       "scenes/validation/rocking-ellipsoid.yaml",
       [](const CaseContext& c) { return rocking_ellipsoid("rocking-ellipsoid.yaml", false, c); }},
      {"rocking-ellipsoid-rolling",
       "Ellipsoid rocking and rolling without slipping: period, amplitude, second order",
       "scenes/validation/rocking-ellipsoid-rolling.yaml",
       [](const CaseContext& c) {
         return rocking_ellipsoid("rocking-ellipsoid-rolling.yaml", true, c);
       }},
      {"cone-rolling", "Cone rolling on its side about its apex: Omega = W r / H",
       "scenes/validation/cone-rolling.yaml", cone_rolling},
      {"position-stage",
       "Cube dropped onto a cube rests at its height; a cube started inside is moved out",
       "scenes/validation/box-drop.yaml", position_stage},
      {"resting-pairs",
       "Every general convex pair (capsule, cylinder, cone, hull, box on box, hull, cylinder) "
       "rests, "
       "also dropped from 1 cm",
       "scenes/validation/resting-pairs.yaml", resting_pairs},
      {"chain",
       "Row of touching balls hit by the first one, every solver, e = 0 and 1: Moreau's "
       "velocities, "
       "no energy gain, a few sweeps a step",
       "scenes/validation/chain.yaml", chain},
      {"tippe-top-point",
       "Point-Coulomb tippe top: once rolling, it keeps rolling with constant energy",
       "scenes/validation/tippe-top-point.yaml", tippe_top_point},
  };
}

}  // namespace coulomb::validate
