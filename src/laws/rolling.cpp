#include <coulomb/laws/rolling.hpp>

#include "laws/isotropic.hpp"
#include "laws/params.hpp"

namespace coulomb {

RollingFrictionLaw::RollingFrictionLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::rolling);
  k_ = p.required("k");
  w_r_ = p.number("regularization");
  tanh_ = p.option("form") == "tanh";
  p.finish();
}

RollingFrictionLaw::RollingFrictionLaw(double k, double regularization)
    : RollingFrictionLaw(
          LawSpec{"rolling", {{"k", k}, {"regularization", regularization}}, {}, {}}) {}

RollingResult RollingFrictionLaw::evaluate(const Vec2& omega_t, double normal_force) const {
  // Same algebra as isotropic friction with φ(w) = k N s(w).
  const double w = omega_t.norm();
  const detail::Saturation s = detail::saturate(w, w_r_, tanh_);
  const double n = normal_force;
  TangentialResult t;
  detail::isotropic_friction(omega_t, w,
                             {k_ * n * s.s, k_ * n * s.ds, k_ * n * s.s_over_u, k_ * s.s}, t);
  return {t.force, t.d_slip, t.d_normal, t.power};
}

}  // namespace coulomb
