#include <coulomb/laws/signorini.hpp>

#include "laws/params.hpp"

namespace coulomb {

SignoriniLaw::SignoriniLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::normal);
  restitution_ = p.number("restitution");
  tangential_restitution_ = p.number("tangential_restitution");
  p.finish();
}

SignoriniLaw::SignoriniLaw(double restitution)
    : SignoriniLaw(LawSpec{"signorini", {{"restitution", restitution}}, {}, {}}) {}

}  // namespace coulomb
