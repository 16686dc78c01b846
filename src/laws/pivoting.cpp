#include <coulomb/laws/pivoting.hpp>

#include "laws/isotropic.hpp"
#include "laws/params.hpp"

#include <fmt/format.h>
#include <cmath>

namespace coulomb {

PivotingFrictionLaw::PivotingFrictionLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::pivoting);
  h_ = p.required("h");
  w_r_ = p.number("regularization");
  tanh_ = p.option("form") == "tanh";
  p.finish();
}

PivotingFrictionLaw::PivotingFrictionLaw(const LawSpec& spec, double mu) {
  detail::Params p(spec, LawSection::soft_finger);
  if (!(mu >= 0.0) || !std::isfinite(mu)) {
    throw p.error(
        "", fmt::format("the contact's friction coefficient must be ≥ 0 and finite, got {}", mu));
  }
  h_ = p.required("radius") * mu;
  w_r_ = p.number("regularization");
  tanh_ = p.option("form") == "tanh";
  p.finish();
}

PivotingFrictionLaw::PivotingFrictionLaw(double h, double regularization)
    : PivotingFrictionLaw(
          LawSpec{"pivoting", {{"h", h}, {"regularization", regularization}}, {}, {}}) {}

PivotingResult PivotingFrictionLaw::evaluate(double omega_n, double normal_force) const {
  // M_n = −h N s(|ω_n|) sign(ω_n).
  const double w = std::abs(omega_n);
  const detail::Saturation s = detail::saturate(w, w_r_, tanh_);
  const double sign = omega_n > 0.0 ? 1.0 : (omega_n < 0.0 ? -1.0 : 0.0);
  PivotingResult r;
  r.moment = -h_ * normal_force * s.s * sign;
  r.d_omega = -h_ * normal_force * s.ds;
  r.d_normal = -h_ * s.s * sign;
  r.power = h_ * normal_force * s.s * w;
  return r;
}

}  // namespace coulomb
