#include <coulomb/laws/signorini.hpp>

#include "laws/params.hpp"

namespace coulomb {

SignoriniLaw::SignoriniLaw(const LawSpec& spec) {
  detail::Params p(spec, "normal");
  restitution_ = p.number("restitution", 0.0, 0.0, 1.0);
  tangential_restitution_ = p.number("tangential_restitution", 0.0, -1.0, 1.0);
  p.finish();
}

SignoriniLaw::SignoriniLaw(double restitution)
    : SignoriniLaw(LawSpec{"signorini", {{"restitution", restitution}}, {}, {}}) {}

}  // namespace coulomb
