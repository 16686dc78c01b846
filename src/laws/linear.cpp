#include <coulomb/laws/linear.hpp>

#include "laws/params.hpp"

namespace coulomb {

SpringDamper spring_damper_from_frequency(double frequency, double damping_ratio, double mass) {
  const double omega = 2.0 * kPi * frequency;  // [rad/s]
  return {mass * omega * omega, 2.0 * damping_ratio * mass * omega};
}

LinearNormalLaw::LinearNormalLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::normal);
  const bool physical = p.has("frequency") || p.has("damping_ratio") || p.has("mass");
  if (physical) {
    if (p.has("stiffness"))
      throw p.error("stiffness",
                    "give either stiffness/damping or frequency/damping_ratio/mass, not both");
    if (p.has("damping"))
      throw p.error("damping",
                    "give either stiffness/damping or frequency/damping_ratio/mass, not both");
    const double f = p.required("frequency");
    const double zeta = p.number("damping_ratio");
    const double m = p.required("mass");
    sd_ = spring_damper_from_frequency(f, zeta, m);
  } else {
    sd_.stiffness = p.required("stiffness");
    sd_.damping = p.number("damping");
  }
  p.finish();
}

LinearNormalLaw::LinearNormalLaw(double stiffness, double damping)
    : LinearNormalLaw(LawSpec{"linear", {{"stiffness", stiffness}, {"damping", damping}}, {}, {}}) {
}

NormalResult LinearNormalLaw::evaluate(double delta, double delta_rate,
                                       const NormalGeometry& /*geometry*/) const {
  NormalResult r;
  if (delta <= 0.0) return r;
  // Spring plus dashpot; the dashpot alone may not make N negative.
  const double elastic = sd_.stiffness * delta;
  const double n = elastic + sd_.damping * delta_rate;
  if (n <= 0.0) {
    r.power = -elastic * delta_rate;  // N = 0: the clamp removes the spring's power (δ̇ < 0)
    return r;
  }
  r.force = n;
  r.d_delta = sd_.stiffness;
  r.d_rate = sd_.damping;
  r.power = sd_.damping * delta_rate * delta_rate;
  return r;
}

double LinearNormalLaw::potential(double delta, const NormalGeometry& /*geometry*/) const {
  return delta > 0.0 ? 0.5 * sd_.stiffness * delta * delta : 0.0;
}

}  // namespace coulomb
