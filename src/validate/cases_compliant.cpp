// Validation cases of the compliant formulation (issue 10): Hertz's impact of two spheres, the
// Hunt–Crossley restitution, the Kudra et al. ball and ellipsoid on Coulomb–Contensou patches
// against an independent ODE of the integral model, belt-driven stick–slip, and the pivoting
// decay and rolling resistance against the nonsmooth formulation's closed forms.
#include <coulomb/compliant/engine.hpp>
#include <coulomb/io/output.hpp>
#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/hunt_crossley.hpp>

#include "validate/cases_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace coulomb::validate {

namespace {

// The engine of a compliant simulation (throws for a nonsmooth one).
const CompliantEngine& engine(const Sim& s) {
  if (s.compliant() == nullptr)
    throw std::runtime_error("the scene does not run the compliant formulation");
  return *s.compliant();
}

// Times of the first onset and the first release after it, of any contact point [s].
std::pair<double, double> first_contact(const CompliantEngine& e) {
  double onset = -1.0, release = -1.0;
  for (const CompliantEvent& ev : e.events()) {
    if (onset < 0.0 && ev.kind == CompliantEvent::Kind::onset) onset = ev.time;
    if (onset >= 0.0 && ev.kind == CompliantEvent::Kind::release) {
      release = ev.time;
      break;
    }
  }
  if (onset < 0.0 || release < 0.0)
    throw std::runtime_error("the contact did not close and open again");
  return {onset, release};
}

// Kinetic + potential + stored elastic + dissipated energy [J].
double total_energy(const Sim& s) {
  const Energy e = energy(s.model(), s.state());
  return e.kinetic + e.potential + s.state().compliant.elastic + s.state().dissipated;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Hertz impact (Johnson 1985 §11.4): two spheres meeting head-on at closing speed v, Hertz's law
// N = (4/3) E* √R* δ^{3/2} without damping. Energy: ½ m* δ̇² + (8/15) E* √R* δ^{5/2} = ½ m* v², so
//   δ_max = (15 m* v² / (16 E* √R*))^{2/5},
//   T = 2 (δ_max/v) ∫₀¹ dx/√(1 − x^{5/2}) = 2 (δ_max/v) (2/5) B(2/5, 1/2) = 2.9433 δ_max/v
//     = 2.8683 (m*²/(R* E*² v))^{1/5}   (Johnson's 2.87; the 2.868),
// and the spheres leave at the closing speed (restitution 1).
std::vector<Check> hertz_impact(const CaseContext&) {
  Sim s = load("hertz-impact.yaml");
  const Model& m = s.model();
  const int left = body(m, "left"), right = body(m, "right");
  const double m1 = m.bodies[left].mass, m2 = m.bodies[right].mass;
  const double m_star = m1 * m2 / (m1 + m2);
  const double r1 = std::get<Sphere>(m.shapes[m.bodies[left].first_shape].geometry).radius;
  const double r2 = std::get<Sphere>(m.shapes[m.bodies[right].first_shape].geometry).radius;
  const double r_star = r1 * r2 / (r1 + r2);
  const double e_star = effective_modulus(m.materials[0], m.materials[0]);
  const double v = (s.state().v_WC[left] - s.state().v_WC[right]).x();
  const double e0 = total_energy(s);
  // Step to the end: deepest indentation over the samples, the energy audit during contact.
  double deepest = 0.0, audit = 0.0;
  run_to(s, m.end_time, [&](const StepReport&) {
    for (std::size_t k = 0; k < contact_row_count(s.workspace()); ++k)
      deepest = std::max(deepest, -s.workspace().contact_points.points[k].gap);
    audit = std::max(audit, std::abs(total_energy(s) - e0) / e0);
  });
  const auto [onset, release] = first_contact(engine(s));
  const double v_after = (s.state().v_WC[right] - s.state().v_WC[left]).x();
  // Closed forms.
  const double group = std::pow(m_star * m_star / (r_star * e_star * e_star * v), 0.2);
  const double delta_max =
      std::pow(15.0 * m_star * v * v / (16.0 * e_star * std::sqrt(r_star)), 0.4);
  const double integral = 0.4 * std::tgamma(0.4) * std::sqrt(kPi) / std::tgamma(0.9);
  const double duration = 2.0 * integral * delta_max / v;
  const double h = m.time_step;
  return {
      make_check("contact duration [s]", "2.868 (m*^2/(R* E*^2 v))^(1/5) (the issue's constant)",
                 release - onset, 2.868 * group, true, 5e-3,
                 "the issue's 0.5 %; 2.868 rounds Hertz's 2.94328 (15/16)^(2/5) = 2.86830"),
      make_check("contact duration [s]",
                 "2 (delta_max/v) (2/5) B(2/5, 1/2), Hertz's energy integral", release - onset,
                 duration, true, 1e-7,
                 "onset and release are roots of the gap located to round-off in time; rtol "
                 "1e-10 over ~50 steps"),
      make_check("largest indentation [m]", "(15 m* v^2/(16 E* sqrt(R*)))^(2/5)", deepest,
                 delta_max, true, 5e-3, "the issue's 0.5 %"),
      make_check("largest indentation [m]", "(15 m* v^2/(16 E* sqrt(R*)))^(2/5), sampled", deepest,
                 delta_max, true, 1e-6,
                 fmt::format("samples every h = {:g} s miss the peak by at most (pi h/T)^2/2 = "
                             "{:.1e}",
                             h, 0.5 * std::pow(kPi * h / duration, 2))),
      make_check("restitution (separation / approach speed) [-]", "1: Hertz's law stores and "
                 "returns all the energy", v_after / v, 1.0, true, 1e-6, "the issue's 1e-6"),
      make_check("energy after the impact, relative [-]", "E0 (kinetic + elastic + dissipated)",
                 total_energy(s) / e0, 1.0, true, 1e-6, "the issue's 1e-6"),
      make_check("largest energy error during the run, relative [-]",
                 "0 (kinetic + stored elastic energy constant)", audit, 0.0, false, 1e-6,
                 "the issue's 1e-6, at every sample (the elastic column of energy.csv)"),
  };
}

// ---------------------------------------------------------------------------------------------
// Hunt–Crossley restitution. With N = K δ^n (1 + χ δ̇) and m δ̈ = −N, the energy integral
// m u du/(1 + χ u) = −K δ^n dδ over the compression (u: v → 0) and the restitution (u: 0 → −v')
// gives, with x = χ v and y = χ v' (independent of K, n and m):
//     x − ln(1 + x) = −y − ln(1 − y),   e = y/x,
// the model's exact restitution (the dashpot never pulls here: 1 + χ u ≥ 1 − y > 0). The
// relations that choose χ for a target e (laws/hunt_crossley.hpp) are approximations of it.
namespace {

// The exact restitution of the Hunt–Crossley model at x = χ v (bisection on y ∈ (0, 1)).
double hunt_crossley_exact_restitution(double x) {
  const double lhs = x - std::log1p(x);
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 200; ++i) {
    const double y = 0.5 * (lo + hi);
    if (-y - std::log1p(-y) < lhs)
      lo = y;
    else
      hi = y;
  }
  return 0.5 * (lo + hi) / x;
}

}  // namespace

std::vector<Check> hunt_crossley_restitution(const CaseContext& ctx) {
  std::vector<Check> checks;
  const std::vector<double> targets = ctx.quick ? std::vector<double>{0.3, 0.7, 0.95}
                                                : std::vector<double>{0.3, 0.4, 0.5, 0.6, 0.7,
                                                                      0.8, 0.9, 0.95};
  double worst_exact = 0.0, worst_flores = 0.0, worst_hc = 0.0;
  double at_exact = 0.0, at_flores = 0.0, at_hc = 0.0;
  for (const char* relation : {"flores", "hunt_crossley"}) {
    for (double e : targets) {
      Sim s = load_edited("hunt-crossley.yaml", [&](Scene& scene) {
        LawSpec& n = scene.model.contacts[0].normal;
        n.params["restitution"] = e;
        n.options["relation"] = relation;
      });
      const int ball = body(s.model(), "ball");
      const double v_in = -s.state().v_WC[ball].z();
      run_to(s, s.model().end_time, [](const StepReport&) {});
      (void)first_contact(engine(s));  // it closed and opened again
      const double measured = s.state().v_WC[ball].z() / v_in;
      const double chi = hunt_crossley_damping(e, v_in, std::string(relation) == "flores"
                                                            ? RestitutionRelation::flores
                                                            : RestitutionRelation::hunt_crossley);
      const double exact = hunt_crossley_exact_restitution(chi * v_in);
      const double err_exact = std::abs(measured - exact);
      if (err_exact > worst_exact) {
        worst_exact = err_exact;
        at_exact = e;
      }
      // The relation's own error, in units of 1 − e.
      const double rel = std::abs((1.0 - measured) - (1.0 - e)) / (1.0 - e);
      if (std::string(relation) == "flores" && rel >= worst_flores) {
        worst_flores = rel;
        at_flores = e;
      }
      if (std::string(relation) == "hunt_crossley" && rel >= worst_hc) {
        worst_hc = rel;
        at_hc = e;
      }
    }
  }
  checks.push_back(make_check(
      fmt::format("restitution against the model's exact one, worst of e = 0.3 ... 0.95, both "
                  "relations (at e = {})",
                  at_exact),
      "x - ln(1 + x) = -y - ln(1 - y), e = y/x, x = chi v", worst_exact, 0.0, false, 1e-7,
      "the release located by root finding; rtol 1e-10"));
  checks.push_back(make_check(
      fmt::format("1 - e measured against 1 - e targeted, relation flores, worst (at e = {}) "
                  "[relative]",
                  at_flores),
      "Flores et al. 2011: chi = 8 (1 - e)/(5 e v)", worst_flores, 0.0, false, 0.07,
      "the relation's accuracy stated in docs/laws.md (7 % of 1 - e over [0.3, 0.95])"));
  checks.push_back(make_check(
      fmt::format("1 - e measured against 1 - e targeted, relation hunt_crossley, worst (at e = "
                  "{}) [relative]",
                  at_hc),
      "Hunt & Crossley 1975: chi = 3 (1 - e)/(2 v), first order in 1 - e", worst_hc, 0.0, false,
      0.5, "first order in 1 - e: its error grows like 1 - e (0.35 at e = 0.3)"));
  return checks;
}

std::vector<Case> compliant_cases() {
  return {
      {"hertz-impact",
       "Two steel spheres meet at 1 m/s, Hertz's law (compliant): duration, indentation, "
       "restitution 1",
       "scenes/validation/hertz-impact.yaml", hertz_impact},
      {"hunt-crossley",
       "Ball on a plane, Hunt-Crossley damping from a target e in [0.3, 0.95]: the model's "
       "exact restitution and the relations' targets",
       "scenes/validation/hunt-crossley.yaml", hunt_crossley_restitution},
  };
}

}  // namespace coulomb::validate
