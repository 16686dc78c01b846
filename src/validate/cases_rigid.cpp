// Validation cases without sliding contact: boxes and stacks at rest (static equilibrium, the
// ground carries the weight) and Dzhanibekov's free rotation (Euler's equations in closed form).
#include "validate/cases_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace coulomb::validate {

namespace {

// Total normal force the ground (body 0, fixed) exerts in the last step [N]: Σ N impulses / h.
double ground_reaction(Sim& s, int ground) {
  double sum = 0.0;
  for (std::size_t k = 0; k < s.workspace().contact_points.points.size(); ++k) {
    const ContactPoint& p = s.workspace().contact_points.points[k];
    if (p.body1 == ground || p.body2 == ground) sum += s.workspace().step_results.impulse[k].x();
  }
  return sum / s.model().time_step;
}

}  // namespace

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

}  // namespace coulomb::validate
