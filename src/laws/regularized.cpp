#include <coulomb/laws/regularized.hpp>

#include "laws/isotropic.hpp"
#include "laws/params.hpp"

namespace coulomb {

RegularizedCoulombLaw::RegularizedCoulombLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::friction);
  mu_ = p.required("mu");
  v_r_ = p.required("regularization");
  tanh_ = p.option("form") == "tanh";
  p.finish();
}

RegularizedCoulombLaw::RegularizedCoulombLaw(double mu, double regularization, bool tanh_form)
    : RegularizedCoulombLaw(LawSpec{"regularized",
                                    {{"mu", mu}, {"regularization", regularization}},
                                    {{"form", tanh_form ? "tanh" : "linear"}},
                                    {}}) {}

TangentialResult RegularizedCoulombLaw::evaluate(const TangentialInput& in,
                                                 const FrictionMemory& memory) const {
  TangentialResult r;
  r.memory = memory;
  r.memory.previous_slip = in.slip;
  // φ(u) = μ N s(u).
  const double u = in.slip.norm();
  const detail::Saturation s = detail::saturate(u, v_r_, tanh_);
  const double n = in.normal_force;
  detail::isotropic_friction(in.slip, u,
                             {mu_ * n * s.s, mu_ * n * s.ds, mu_ * n * s.s_over_u, mu_ * s.s}, r);
  return r;
}

}  // namespace coulomb
