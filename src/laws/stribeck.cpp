#include <coulomb/laws/stribeck.hpp>

#include "laws/isotropic.hpp"
#include "laws/params.hpp"

#include <cmath>

namespace coulomb {

double stribeck_mu(double u, double mu_s, double mu_k, double v_s, double exponent) {
  return mu_k + (mu_s - mu_k) * std::exp(-std::pow(std::abs(u) / v_s, exponent));
}

StribeckLaw::StribeckLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::friction);
  mu_s_ = p.required("mu_s");
  mu_k_ = p.required("mu_k");
  v_s_ = p.required("stribeck_velocity");
  exponent_ = p.number("exponent");
  viscous_ = p.number("viscous");
  v_r_ = p.number("regularization");
  tanh_ = p.option("form") == "tanh";
  p.finish();
}

TangentialResult StribeckLaw::evaluate(const TangentialInput& in,
                                       const FrictionMemory& memory) const {
  TangentialResult r;
  r.memory = memory;
  r.memory.previous_slip = in.slip;
  const double u = in.slip.norm();
  const double n = in.normal_force;
  // μ(u) and μ'(u) (μ' s → 0 at u = 0 for any δ > 0).
  const double mu_u = mu(u);
  double dmu = 0.0;
  if (u > 0.0) {
    const double x = u / v_s_;
    dmu = -(mu_s_ - mu_k_) * exponent_ * std::pow(x, exponent_ - 1.0) / v_s_ *
          std::exp(-std::pow(x, exponent_));
  }
  // φ(u) = μ(u) N s(u) + c_v u.
  const detail::Saturation s = detail::saturate(u, v_r_, tanh_);
  detail::Magnitude m;
  m.phi = mu_u * n * s.s + viscous_ * u;
  m.dphi = dmu * n * s.s + mu_u * n * s.ds + viscous_;
  m.phi_over_u = mu_u * n * s.s_over_u + viscous_;
  m.dphi_dn = mu_u * s.s;
  detail::isotropic_friction(in.slip, u, m, r);
  return r;
}

}  // namespace coulomb
