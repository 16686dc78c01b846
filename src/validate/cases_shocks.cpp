// code_aster's shock statistics of DIS_CHOC contacts (issue 11), read from the accumulator that
// writes wear.csv (Simulation::shock_statistics, coulomb/compliant/shock_statistics.hpp).

#include <coulomb/compliant/shock_statistics.hpp>
#include <coulomb/model/actuation.hpp>

#include "validate/cases_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace coulomb::validate {

namespace {

// The statistics of the scene's one shock point after the run.
ShockPointStatistics only_shock_point(const Sim& s) {
  const ShockStatistics* stats = s.shock_statistics();
  if (stats == nullptr) throw std::runtime_error("the scene has no dis_choc contact");
  const std::vector<ShockPointStatistics> points = stats->results();
  if (points.size() != 1)
    throw std::runtime_error(fmt::format("{} shock points, the scene has one", points.size()));
  return points[0];
}

double law_parameter(const Model& m, const char* key) {
  return m.contacts.at(0).normal.params.at(key);
}

double audited(const Sim& s) {
  return audited_total(s.model(), energy(s.model(), s.state()), s.state());
}

}  // namespace

// One impact on DIS_CHOC's undamped spring: the contact is half a period of the oscillator of
// mass m and stiffness K_n, δ(t) = (v/ω) sin ω t, ω = √(K_n/m): duration π/ω, peak K_n v/ω =
// v √(K_n m), impulse ∫K_n δ dt = 2 m v; one shock made of one rebound (code_aster's compt counts
// the contact episode itself as a rebound). Without friction the tangential slip v_t stays, so the
// wear power is ‖v_t‖ 2 m v / (t_N − t_1).
std::vector<Check> dis_choc_impact(const CaseContext&) {
  Sim s = load("dis-choc-impact.yaml");
  const Model& m = s.model();
  const int ball = body(m, "ball");
  const double mass = m.bodies[ball].mass;
  const double k = law_parameter(m, "stiffness");
  // The normal of the support's top face and the ball's speed along it.
  const int support = body(m, "support");
  const Vec3 n = s.state().q_WB[support] * Vec3::UnitZ();
  const Vec3 v0 = s.state().v_WC[ball];
  const double v = -v0.dot(n);
  const double slip = (v0 + v * n).norm();
  run_to(s, m.end_time, [](const StepReport&) {});
  const ShockPointStatistics p = only_shock_point(s);
  const double h = m.time_step;
  const double duration = kPi * std::sqrt(mass / k);
  return {
      make_check("shocks", "1", static_cast<double>(p.shocks), 1.0, false, 0.5,
                 "an integer: 0.5 tells any other count"),
      make_check("rebounds", "1: no second contact", static_cast<double>(p.rebounds), 1.0, false,
                 0.5, "an integer"),
      make_check("shock duration [s]", "pi sqrt(m/K_n)", p.shock_duration_mean, duration, false,
                 1.01 * h,
                 "code_aster measures it between samples (first contact sample to first free "
                 "sample): within one sample interval"),
      make_check("largest normal force [N]", "v sqrt(K_n m)", p.fn_max, v * std::sqrt(k * mass),
                 true, 1e-4,
                 "the largest sample: within (omega h)^2/8 = 1.3e-5 of the peak between samples"),
      make_check("impulse of the rebound [N s]", "2 m v", p.impulse_mean, 2.0 * mass * v, true,
                 1e-4,
                 "trapezoid of the samples: (omega h)^2/12 = 8e-6 of a half sine, plus the kinks "
                 "at onset and release inside their intervals (6e-6)"),
      make_check("Archard wear power [W]", "|v_t| 2 m v / (t_N - t_1) (no friction: v_t stays)",
                 p.wear_power, slip * 2.0 * mass * v / p.duration, true, 1e-4,
                 "as the impulse (the slip speed is constant)"),
  };
}

// A support driven along its normal as A sin ωt against a (1e10 kg) ball at the gap g0: the spring
// is compressed by A sin ωt − g0 while that is positive, from θ0 = asin(g0/A) to π − θ0 of each
// period. Shocks: one a period; each lasting T (π − 2θ0)/(2π); the largest force K_n (A − g0);
// the mean force over whole periods K_n [2 A cos θ0 − g0 (π − 2θ0)]/(2π); the time in contact
// 100 (π − 2θ0)/(2π) %.
std::vector<Check> dis_choc_periodic(const CaseContext&) {
  Sim s = load("dis-choc-periodic.yaml");
  const Model& m = s.model();
  const int support = body(m, "support");
  const BodyMotion& motion = m.bodies[support].motion;
  const double a = motion.amplitude.norm();
  const double f = motion.frequency;
  const double k = law_parameter(m, "stiffness");
  // The gap at rest: the initial state's contact point (within the contact margin).
  const double g0 = s.workspace().contact_points.points.at(0).gap;
  run_to(s, m.end_time, [](const StepReport&) {});
  const ShockPointStatistics p = only_shock_point(s);
  const double h = m.time_step;
  const double period = 1.0 / f;
  const double th0 = std::asin(g0 / a);
  const double fraction = (kPi - 2.0 * th0) / (2.0 * kPi);
  const double periods = std::round(m.end_time * f);
  return {
      make_check("shocks", "one a period", static_cast<double>(p.shocks), periods, false, 0.5,
                 "an integer: 0.5 tells any other count"),
      make_check("rebounds", "one a shock", static_cast<double>(p.rebounds), periods, false, 0.5,
                 "an integer"),
      make_check("mean shock duration [s]", "T (pi - 2 asin(g0/A)) / (2 pi)", p.shock_duration_mean,
                 fraction * period, false, 1.01 * h,
                 "each duration is measured between samples: within one sample interval"),
      make_check("time in contact [%]", "100 (pi - 2 asin(g0/A)) / (2 pi)", p.contact_time_percent,
                 100.0 * fraction, false, 100.0 * (periods * h / m.end_time + 2.0 * h),
                 "each shock within one sample interval, and code_aster's acquisition time N dt "
                 "= T_run + dt"),
      make_check("largest normal force [N]", "K_n (A - g0)", p.fn_max, k * (a - g0), true, 1e-4,
                 "the largest sample: within (omega h)^2/8 = 5e-6 of the peak"),
      make_check("mean normal force over the run [N]",
                 "K_n [2 A cos th0 - g0 (pi - 2 th0)] / (2 pi)", p.fn_mean,
                 k * (2.0 * a * std::cos(th0) - g0 * (kPi - 2.0 * th0)) / (2.0 * kPi), true, 2e-4,
                 "code_aster's mean is over the N + 1 samples of whole periods: N/(N + 1) of the "
                 "time mean (1e-4); the kinks at onset and release between samples (1.3e-5); "
                 "the ball's drift (5e-10 m: 2e-6)"),
  };
}

// code_aster's tube–support case: a tube on springs from a driven base hits a support bar with
// DIS_CHOC and friction, in 3-D. No closed form: the statistics are reported, the audit must close
// and the tube must hit the support in every period.
std::vector<Check> tube_support(const CaseContext& ctx) {
  Sim s = load("tube-support.yaml");
  const Model& m = s.model();
  const double end = ctx.quick ? 0.25 : m.end_time;
  const double total0 = audited(s);
  run_to(s, end, [](const StepReport&) {});
  const ShockPointStatistics p = only_shock_point(s);
  const State& st = s.state();
  const double flow = st.dissipated + std::abs(st.driven_work) + st.damping;
  const int base = body(m, "base");
  const double periods = std::floor(end * m.bodies[base].motion.frequency);
  const std::string figures = fmt::format(
      "F_n mean {:.4g} N (in contact {:.4g}), RMS {:.4g} N, max {:.4g} N; |F_t| mean {:.4g} N, "
      "max {:.4g} N; {} shocks, {} rebounds, mean shock {:.4g} ms, {:.4g} % of the time in "
      "contact, mean impulse {:.4g} N s; wear power {:.4g} W",
      p.fn_mean, p.fn_mean_contact, p.fn_rms, p.fn_max, p.ft_mean, p.ft_max, p.shocks, p.rebounds,
      1e3 * p.shock_duration_mean, p.contact_time_percent, p.impulse_mean, p.wear_power);
  return {
      make_check("shocks per period of the drive, at least one (min(shocks / periods, 1))",
                 "1: at least as many shocks as periods",
                 std::min(static_cast<double>(p.shocks) / periods, 1.0), 1.0, false, 0.5 / periods,
                 "one shock fewer than periods is 1/periods away. " + figures),
      make_check("audited energy drift / (dissipated + |driven work| + damping)",
                 "0: kinetic + potential + elastic + dissipated + damping - driven work is "
                 "constant",
                 (audited(s) - total0) / flow, 0.0, false, 1e-6,
                 "the integrator's error control (rtol 1e-8, atol 1e-11) over 50 onsets and "
                 "releases located by root finding; measured 6e-8"),
  };
}

}  // namespace coulomb::validate
