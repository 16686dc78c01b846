#include <coulomb/laws/viscous.hpp>

#include "laws/params.hpp"

namespace coulomb {

ViscousLaw::ViscousLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::friction);
  damping_ = p.required("damping");
  p.finish();
}

ViscousLaw::ViscousLaw(double damping)
    : ViscousLaw(LawSpec{"viscous", {{"damping", damping}}, {}, {}}) {}

TangentialResult ViscousLaw::evaluate(const TangentialInput& in,
                                      const FrictionMemory& memory) const {
  TangentialResult r;
  r.memory = memory;
  r.memory.previous_slip = in.slip;
  r.force = -damping_ * in.slip;
  r.d_slip = -damping_ * Mat2::Identity();
  r.power = damping_ * in.slip.squaredNorm();
  return r;
}

}  // namespace coulomb
