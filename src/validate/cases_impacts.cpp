// Validation cases of impacts: the bouncing ball against Siconos' output row by row and against
// Newton's impact law (apexes shrink by e²), and Painlevé's rod (contensou.md §3.11), which
// impulsive time stepping passes through without an energy gain.
#include "validate/cases_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <variant>

namespace coulomb::validate {

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
    const Workspace& ws = s.workspace();
    const double impulse =
        ws.active_set.active.empty()
            ? 0.0
            : std::visit([](const auto& contact) { return contact.r[0].x(); }, ws.contact);
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

// Painlevé's rod (contensou.md §3.11): impulsive time stepping passes through the paradox; the
// state stays finite and the mechanical energy never increases.
std::vector<Check> painleve_rod(const CaseContext&) {
  Sim s = load("painleve-rod.yaml");
  const Model& m = s.model();
  Energy e = energy(m, s.state());
  const double e0 = e.kinetic + e.potential;
  double previous = e0, worst_increase = 0.0;
  run_to(s, m.end_time, [&](const StepReport& r) {
    if (r.solver.status == SolverStatus::non_finite)
      throw std::runtime_error(fmt::format("the solver broke down at t = {} s", s.state().time));
    e = energy(m, s.state());
    worst_increase = std::max(worst_increase, e.kinetic + e.potential - previous);
    previous = e.kinetic + e.potential;
  });
  return {
      make_check(fmt::format("largest one-step increase of kinetic + potential energy over {} s "
                             "(from {:.2f} J) [J]",
                             s.state().time, e0),
                 "0: friction and inelastic impacts only dissipate", worst_increase, 0.0, false,
                 1e-9 * e0,
                 "the issue's round-off budget 1e-9 E0: a 455 J sum carries about 1e-13 J of "
                 "round-off, and the impulses, exact to the solver tolerance 1e-12, do at most "
                 "1e-12 (30 N s)(30 m/s) = 1e-9 J of spurious work a step"),
      make_check("final mechanical energy + dissipated [J]", "initial mechanical energy",
                 previous + s.state().dissipated, e0, true, 1e-10,
                 "the dissipated energy is the work of the same impulses, so the audit closes to "
                 "round-off: 1e4 steps of 2.2e-16 relative at most 2.2e-12, and the solver "
                 "tolerance (1e-12)"),
  };
}

}  // namespace coulomb::validate
