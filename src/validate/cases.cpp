// The validation cases and their registry. Each case loads its scene (scenes/validation/,
// embedded), steps it, and compares what it measures with a closed form, a published number or a
// peer's output (reference/contensou.md §3 numbers the closed-form cases).
//
// Adding a case: write a function `std::vector<Check> NAME(const CaseContext&)` below and add one
// entry to the table in validation_cases().
#include <coulomb/laws/law_table.hpp>
#include <coulomb/scene/scene.hpp>
#include <coulomb/validate/validate.hpp>
#include <coulomb/world/world.hpp>

#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace coulomb::validate {

namespace {

constexpr double kPi = std::numbers::pi;

// A scene being stepped: model, state and workspace.
struct Sim {
  Scene scene;
  Workspace ws;
  Model& model() { return scene.model; }
  State& state() { return scene.state; }
};

Sim load(const std::string& file) {
  Sim s{load_scene_text(validation_scene_text(file), "scenes/validation/" + file), {}};
  prepare(s.scene.model, s.ws);
  return s;
}

// Steps to time `end` [s], calling after(report) after every step; a non-finite state throws.
template <class After>
void run_to(Sim& s, double end, After&& after) {
  const double h = s.model().time_step;
  while (s.state().time < end - 0.5 * h) {
    const StepReport& r = step(s.model(), s.state(), s.ws);
    if (!r.finite)
      throw std::runtime_error(
          fmt::format("the state became non-finite at t = {} s", s.state().time));
    after(r);
  }
}

int body(const Model& model, const std::string& name) {
  const int b = model.body_index(name);
  if (b < 0) throw std::runtime_error(fmt::format("the scene has no body '{}'", name));
  return b;
}

double friction_mu(const Model& model) {
  if (model.contacts.empty()) throw std::runtime_error("the scene has no contact specification");
  return model.contacts.front().friction.get("mu", std::nan(""));
}

// Total normal force the ground (body 0, fixed) exerts in the last step [N]: Σ N impulses / h.
double ground_reaction(Sim& s, int ground) {
  double sum = 0.0;
  for (std::size_t k = 0; k < s.ws.points.size(); ++k) {
    const ContactPoint& p = s.ws.points[k];
    if (p.body1 == ground || p.body2 == ground) sum += s.ws.impulse[k].x();
  }
  return sum / s.model().time_step;
}

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

// ---------------------------------------------------------------------------------------------
// Bouncing ball against Siconos' BouncingBallTS, row by row (the same scheme: θ = 1/2, γ = 1/2).
std::vector<Check> bouncing_ball_siconos(const CaseContext&) {
  std::istringstream in{std::string(siconos_bouncing_ball_reference())};
  int rows = 0, cols = 0;
  in >> rows >> cols;
  if (!in || cols != 5 || rows < 2)
    throw std::runtime_error("BouncingBallTS.ref: unexpected header");
  std::vector<std::array<double, 5>> ref(static_cast<std::size_t>(rows));
  for (auto& row : ref)
    for (double& x : row) in >> x;
  if (!in) throw std::runtime_error("BouncingBallTS.ref: truncated");

  Sim s = load("bouncing-ball-siconos.yaml");
  const int ball = body(s.model(), "ball");
  const double R =
      std::get<Sphere>(s.model().shapes[s.model().bodies[ball].first_shape].geometry).radius;
  // Worst absolute difference per column (gap, velocity, impulse) and the row where it occurs.
  std::array<double, 3> worst{0, 0, 0};
  std::array<int, 3> at{0, 0, 0};
  std::array<double, 3> got_at{0, 0, 0}, ref_at{0, 0, 0};
  int k = 0;
  run_to(s, ref.back()[0], [&](const StepReport&) {
    ++k;
    if (k >= rows) return;
    const double impulse = s.ws.active.empty() ? 0.0 : s.ws.r[0].x();
    const double got[3] = {s.state().x_WC[ball].z() - R, s.state().v_WC[ball].z(), impulse};
    for (int c = 0; c < 3; ++c) {
      const double d = std::abs(got[c] - ref[k][c + 1]);
      if (k == 1 || d > worst[c]) {
        worst[c] = d;
        at[c] = k;
        got_at[c] = got[c];
        ref_at[c] = ref[k][c + 1];
      }
    }
  });
  if (k != rows - 1)
    throw std::runtime_error(fmt::format("ran {} steps, the reference has {}", k, rows - 1));
  const std::string reason =
      "the same scheme (theta = 1/2, Siconos' active-set rule g + (h/2) g' <= 0, Newton impact "
      "law) "
      "reproduces the peer to round-off; the reference prints 16 digits";
  const char* names[3] = {"gap [m]", "normal velocity [m/s]", "impulse [N s]"};
  std::vector<Check> checks;
  for (int c = 0; c < 3; ++c) {
    checks.push_back(make_check(
        fmt::format("{}, worst of {} rows (row {})", names[c], rows - 1, at[c]),
        "Siconos BouncingBallTS.ref, peer output", got_at[c], ref_at[c], false, 1e-9, reason));
  }
  return checks;
}

// Bouncing ball under the default active-set rule: every apex is e² times the previous one.
std::vector<Check> bouncing_ball_apex(const CaseContext&) {
  Sim s = load("bouncing-ball.yaml");
  const Model& m = s.model();
  const int ball = body(m, "ball");
  const double R = std::get<Sphere>(m.shapes[m.bodies[ball].first_shape].geometry).radius;
  const double e = m.contacts.front().normal.get("restitution", std::nan(""));
  const double g = m.gravity.norm(), h = m.time_step;
  // Apexes: the initial height, then the highest gap between two bounces (velocity + → −).
  std::vector<double> apex{s.state().x_WC[ball].z() - R};
  double previous_v = s.state().v_WC[ball].z();
  double highest = -1.0;
  run_to(s, m.end_time, [&](const StepReport&) {
    const double v = s.state().v_WC[ball].z(), gap = s.state().x_WC[ball].z() - R;
    if (v > 0.0) highest = std::max(highest, gap);
    if (previous_v > 0.0 && v <= 0.0) {
      apex.push_back(highest);
      highest = -1.0;
    }
    previous_v = v;
  });
  if (apex.size() < 3) throw std::runtime_error("fewer than two bounces in the run");
  std::vector<Check> checks;
  for (std::size_t i = 1; i < apex.size(); ++i) {
    // The impact is caught at a gap between 0 and |v| h: the ball rebounds from up to |v| h above
    // the ground, so H_next = e² H + g_i (1 − e²) and the ratio is off by at most
    // (1 − e²)/e² · |v| h / H with |v| = √(2 g H): the tolerance (times 2 for the θ-step's
    // displacement during the impact step and the discrete apex).
    const double H = apex[i - 1];
    const double bound = 2.0 * (1.0 - e * e) / (e * e) * std::sqrt(2.0 * g * H) * h / H;
    checks.push_back(
        make_check(fmt::format("apex {} / apex {}", i, i - 1), "e^2, Newton's impact law",
                   apex[i] / H, e * e, true, bound,
                   fmt::format("the impact is caught within one step: the rebound starts "
                               "up to |v| h above the ground, bound 2 (1 - e^2)/e^2 |v| h / H "
                               "= {:.2g}",
                               bound)));
  }
  return checks;
}

// ---------------------------------------------------------------------------------------------
// Resting boxes: every centre of mass stays put (drift ≤ 1e-6 m over 10 s, 2 s in the quick form)
// and the ground carries the whole weight.
std::vector<Check> resting(const std::string& file, const CaseContext& ctx) {
  Sim s = load(file);
  const Model& m = s.model();
  const int ground = body(m, "ground");
  const std::vector<Vec3> x0 = s.state().x_WC;
  const double end = ctx.quick ? 2.0 : m.end_time;
  run_to(s, end, [](const StepReport&) {});
  double drift = 0.0, weight = 0.0;
  for (std::size_t b = 0; b < m.bodies.size(); ++b) {
    drift = std::max(drift, (s.state().x_WC[b] - x0[b]).norm());
    weight += m.bodies[b].mass * m.gravity.norm();
  }
  return {
      make_check(fmt::format("largest drift of a centre of mass over {} s [m]", s.state().time),
                 "0: at rest", drift, 0.0, false, 1e-6,
                 "the issue's bound for resting contact (exact stick, no penetration drift)"),
      make_check("ground reaction [N]", "total weight sum m g", ground_reaction(s, ground), weight,
                 true, 1e-8,
                 "static equilibrium; the solver tolerance (1e-10 relative) bounds the impulses"),
  };
}

// ---------------------------------------------------------------------------------------------
// Dzhanibekov: a torque-free body keeps its kinetic energy and angular momentum, and its rotation
// about the intermediate axis flips every 2 K(k)/λ (Euler's equations, Landau & Lifshitz §37:
// for I1 < I2 < I3 and L² > 2 E I2, ω2 ∝ sn(λ t, k), λ² = (I3 − I2)(L² − 2 E I1)/(I1 I2 I3),
// k² = (I2 − I1)(2 E I3 − L²)/((I3 − I2)(L² − 2 E I1))).
std::vector<Check> dzhanibekov(const CaseContext&) {
  Sim s = load("dzhanibekov.yaml");
  const Model& m = s.model();
  const int b = 0;
  const Mat3& I = m.bodies[b].inertia_B;
  auto omega_B = [&] { return Vec3(s.state().q_WB[b].conjugate() * s.state().w_W[b]); };
  auto momentum = [&] { return Vec3(s.state().q_WB[b] * (I * omega_B())); };
  const double e0 = energy(m, s.state()).kinetic;
  const Vec3 L0 = momentum();

  // Closed-form time between flips (principal axes along the body axes, I1 < I2 < I3).
  const double I1 = I(0, 0), I2 = I(1, 1), I3 = I(2, 2);
  const double E2 = 2.0 * e0, L2 = L0.squaredNorm();
  if (!(I1 < I2 && I2 < I3 && L2 > E2 * I2))
    throw std::runtime_error("the scene is not the case L^2 > 2 E I2, I1 < I2 < I3");
  const double lambda = std::sqrt((I3 - I2) * (L2 - E2 * I1) / (I1 * I2 * I3));
  const double k = std::sqrt((I2 - I1) * (E2 * I3 - L2) / ((I3 - I2) * (L2 - E2 * I1)));
  const double half_period = 2.0 * std::comp_ellint_1(k) / lambda;

  // Flip times: sign changes of ω_B,y, located by linear interpolation within the step.
  std::vector<double> flips;
  double last = omega_B().y(), t_last = s.state().time;
  run_to(s, m.end_time, [&](const StepReport&) {
    const double now = omega_B().y(), t = s.state().time;
    if (now * last < 0.0) flips.push_back(t_last + (t - t_last) * last / (last - now));
    last = now;
    t_last = t;
  });
  if (flips.size() < 2)
    throw std::runtime_error(fmt::format("{} flips in {} s, need 2", flips.size(), s.state().time));
  const double mean_interval =
      (flips.back() - flips.front()) / static_cast<double>(flips.size() - 1);
  const double h = m.time_step;
  return {
      make_check("kinetic energy at the end [J]", "initial energy (invariant)",
                 energy(m, s.state()).kinetic, e0, true, 1e-9,
                 "the free rotation update conserves energy to round-off"),
      make_check("|L(T) - L0| / |L0|", "0: angular momentum is invariant",
                 (momentum() - L0).norm() / L0.norm(), 0.0, false, 1e-9,
                 "the free rotation update conserves angular momentum to round-off"),
      make_check(fmt::format("mean time between {} flips [s]", flips.size()),
                 "2 K(k)/lambda, closed form", mean_interval, half_period, true,
                 0.1 * h * h * lambda * lambda,
                 fmt::format("the rotation update is second order: the relative error measured at "
                             "h = 4e-3 ... 5e-4 s is -0.0404 (lambda h)^2 (order 2.00); tolerance "
                             "0.1 (lambda h)^2 = {:.2g}",
                             0.1 * h * h * lambda * lambda)),
  };
}

// ---------------------------------------------------------------------------------------------
// Contensou table (reference/contensou.md §1, a = 1): the exact resultants through the law
// tabulation that `coulomb law contensou` prints.
std::vector<Check> contensou_table(const CaseContext&) {
  const std::vector<double> eps = {0, 0.25, 0.5, 1, 2, 4, 10};
  // Columns: F uniform, m uniform, F Hertz, m Hertz.
  const double table[7][4] = {
      {0, 0.666666666667, 0, 0.589048622548},
      {0.248031309761, 0.635786123608, 0.289922368910, 0.553095947832},
      {0.483843755630, 0.547748354772, 0.552233083639, 0.455592294002},
      {0.848826363157, 0.282942121052, 0.883572933822, 0.220893233456},
      {0.967687511260, 0.127809198284, 0.974278579257, 0.101909332919},
      {0.992125239044, 0.0628313968234, 0.993707402084, 0.0502267870948},
      {0.9987484326, 0.02502089217, 0.9989989256, 0.02001432156},
  };
  std::vector<Check> checks;
  const char* pressures[2] = {"uniform", "hertz"};
  for (int p = 0; p < 2; ++p) {
    const std::string csv = tabulate_law({"contensou", "--model", "exact", "--pressure",
                                          pressures[p], "--eps", "0,0.25,0.5,1,2,4,10"});
    // Parse "eps,F,m" rows.
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    std::vector<std::array<double, 3>> rows;
    while (std::getline(in, line)) {
      std::array<double, 3> r{};
      if (std::sscanf(line.c_str(), "%lf,%lf,%lf", &r[0], &r[1], &r[2]) != 3)
        throw std::runtime_error("unexpected law table row: " + line);
      rows.push_back(r);
    }
    if (rows.size() != eps.size())
      throw std::runtime_error("the law table has the wrong number of rows");
    // One check per column: the worst ε.
    for (int c = 0; c < 2; ++c) {
      std::size_t worst = 0;
      for (std::size_t i = 0; i < eps.size(); ++i)
        if (std::abs(rows[i][c + 1] - table[i][2 * p + c]) >
            std::abs(rows[worst][c + 1] - table[worst][2 * p + c]))
          worst = i;
      checks.push_back(make_check(fmt::format("{} {} (worst of eps = 0 ... 10, at eps = {})",
                                              c == 0 ? "F" : "m", pressures[p], eps[worst]),
                                  "reference/contensou.md §1 table", rows[worst][c + 1],
                                  table[worst][2 * p + c], false, 1e-9,
                                  "the table prints 12 digits (10 at eps = 10); the closed forms "
                                  "are evaluated in double precision"));
    }
  }
  return checks;
}

}  // namespace

const std::vector<Case>& validation_cases() {
  static const std::vector<Case> cases = {
      {"billiard",
       "Billiard ball struck without spin: slides, then rolls at 5 v0/7 (contensou.md §3.1)",
       "scenes/validation/billiard.yaml",
       [](const CaseContext& c) { return billiard("billiard.yaml", c); }},
      {"billiard-topspin",
       "Billiard ball with top spin w0 = 4/R: rolls at (5 v0 + 2 R w0)/7 = 9 v0/7",
       "scenes/validation/billiard-topspin.yaml",
       [](const CaseContext& c) { return billiard("billiard-topspin.yaml", c); }},
      {"billiard-backspin",
       "Billiard ball with back spin w0 = -30 rad/s: rolls at (5 v0 + 2 R w0)/7",
       "scenes/validation/billiard-backspin.yaml",
       [](const CaseContext& c) { return billiard("billiard-backspin.yaml", c); }},
      {"incline-stick",
       "Block on a 20 deg incline, mu = 0.5 > tan(alpha): it sticks (contensou.md §3.8)",
       "scenes/validation/incline-stick.yaml", incline_stick},
      {"incline-slide",
       "Block on a 30 deg incline, mu = 0.3 < tan(alpha): a = g (sin a - mu cos a)",
       "scenes/validation/incline-slide.yaml", incline_slide},
      {"bouncing-ball-siconos", "Bouncing ball, e = 0.9, against Siconos BouncingBallTS row by row",
       "scenes/validation/bouncing-ball-siconos.yaml", bouncing_ball_siconos},
      {"bouncing-ball-apex",
       "Bouncing ball, e = 0.9, default active-set rule: apexes shrink by e^2",
       "scenes/validation/bouncing-ball.yaml", bouncing_ball_apex},
      {"box-rest", "A unit cube resting on the ground stays put", "scenes/validation/box-rest.yaml",
       [](const CaseContext& c) { return resting("box-rest.yaml", c); }},
      {"box-stack", "A stack of five unit cubes stays put", "scenes/validation/box-stack.yaml",
       [](const CaseContext& c) { return resting("box-stack.yaml", c); }},
      {"dzhanibekov",
       "Free asymmetric body spun near its intermediate axis: invariants and flip period",
       "scenes/validation/dzhanibekov.yaml", dzhanibekov},
      {"contensou-table",
       "Exact Coulomb-Contensou resultants F(eps), m(eps) against the reference table", "-",
       contensou_table},
  };
  return cases;
}

}  // namespace coulomb::validate
