#include <coulomb/laws/no_slip.hpp>

#include "laws/params.hpp"

namespace coulomb {

NoSlipLaw::NoSlipLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::friction);
  p.finish();
}

TangentialResult NoSlipLaw::evaluate(const TangentialInput&, const FrictionMemory& memory) const {
  TangentialResult r;
  r.memory = memory;
  return r;
}

}  // namespace coulomb
