#include <coulomb/laws/hunt_crossley.hpp>

#include "laws/params.hpp"

#include <fmt/format.h>

#include <cmath>

namespace coulomb {

double hunt_crossley_damping(double e, double v_in, RestitutionRelation relation) {
  if (relation == RestitutionRelation::hunt_crossley) return 3.0 * (1.0 - e) / (2.0 * v_in);
  return 8.0 * (1.0 - e) / (5.0 * e * v_in);
}

HuntCrossleyLaw::HuntCrossleyLaw(const LawSpec& spec, const Material& m1, const Material& m2) {
  detail::Params p(spec, LawSection::normal);
  exponent_ = p.number("exponent");
  // Stiffness: explicit, or Hertz's from the materials and the geometry.
  if (!p.has("stiffness") && exponent_ != 1.5)
    throw p.error("stiffness", "required when exponent ≠ 1.5");
  stiffness_ = detail::read_hertz_stiffness(p, m1, m2);
  // Damping: explicit χ, or from a restitution coefficient by the chosen relation.
  const std::string relation = p.option("relation");
  if (p.has("damping")) {
    if (p.has("restitution"))
      throw p.error("restitution", "give either damping or restitution, not both");
    damping_ = p.number("damping");
  } else if (p.has("restitution")) {
    const bool flores = relation == "flores";
    const double e = p.number("restitution");
    if (flores && !(e > 0.0))
      throw p.error("restitution",
                    fmt::format("must be in (0, 1] with relation flores, got {}", e));
    const double v_in = p.required("impact_velocity");
    damping_ = hunt_crossley_damping(
        e, v_in, flores ? RestitutionRelation::flores : RestitutionRelation::hunt_crossley);
  }
  p.finish();
}

HuntCrossleyLaw::HuntCrossleyLaw(double stiffness, double exponent, double damping)
    : HuntCrossleyLaw(
          LawSpec{"hunt_crossley",
                  {{"stiffness", stiffness}, {"exponent", exponent}, {"damping", damping}},
                  {},
                  {}},
          {}, {}) {}

double HuntCrossleyLaw::stiffness(const NormalGeometry& geometry) const {
  return stiffness_.at(geometry);
}

NormalResult HuntCrossleyLaw::evaluate(double delta, double delta_rate,
                                       const NormalGeometry& geometry) const {
  NormalResult r;
  if (delta <= 0.0) return r;
  // Elastic part K δ^n and the damping factor (1 + χ δ̇), which may not go negative.
  const double k = stiffness(geometry);
  const double elastic = k * std::pow(delta, exponent_);
  const double factor = 1.0 + damping_ * delta_rate;
  if (factor <= 0.0) {
    r.power = -elastic * delta_rate;  // N = 0 while δ̇ < −1/χ
    return r;
  }
  r.force = elastic * factor;
  r.d_delta = exponent_ * elastic / delta * factor;
  r.d_rate = elastic * damping_;
  r.power = elastic * damping_ * delta_rate * delta_rate;
  return r;
}

double HuntCrossleyLaw::potential(double delta, const NormalGeometry& geometry) const {
  if (delta <= 0.0) return 0.0;
  return stiffness(geometry) * std::pow(delta, exponent_ + 1.0) / (exponent_ + 1.0);
}

}  // namespace coulomb
