#include <coulomb/laws/law.hpp>

#include <coulomb/laws/coulomb.hpp>
#include <coulomb/laws/dis_choc.hpp>
#include <coulomb/laws/elastic_stick.hpp>
#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/hunt_crossley.hpp>
#include <coulomb/laws/linear.hpp>
#include <coulomb/laws/pivoting.hpp>
#include <coulomb/laws/regularized.hpp>
#include <coulomb/laws/rolling.hpp>
#include <coulomb/laws/signorini.hpp>
#include <coulomb/laws/stribeck.hpp>
#include <coulomb/laws/viscous.hpp>

#include "laws/params.hpp"

#include <fmt/format.h>

namespace coulomb {

std::string_view energy_kind_name(EnergyKind kind) {
  const auto k = static_cast<std::size_t>(kind);
  return k < kEnergyKindCount ? kEnergyKindNames[k] : "unknown";
}

namespace {
// The error for an unknown law name, pointing at the map's `law` key.
LawError unknown_law(const LawSpec& spec, const char* section, const char* names) {
  auto it = spec.marks.find("law");
  const SourceMark mark = it == spec.marks.end() ? SourceMark{} : it->second;
  const std::string key = fmt::format("{}.law", section);
  return LawError(key, fmt::format("{}: must be one of {}, got '{}'", key, names, spec.law), mark);
}
}  // namespace

std::unique_ptr<NormalLaw> make_normal_law(const LawSpec& spec, const Material& m1,
                                           const Material& m2) {
  if (spec.law == "signorini") return std::make_unique<SignoriniLaw>(spec);
  if (spec.law == "linear") return std::make_unique<LinearNormalLaw>(spec);
  if (spec.law == "hertz") return std::make_unique<HertzNormalLaw>(spec, m1, m2);
  if (spec.law == "hunt_crossley") return std::make_unique<HuntCrossleyLaw>(spec, m1, m2);
  if (spec.law == "dis_choc") return std::make_unique<DisChocNormalLaw>(spec);
  throw unknown_law(spec, "normal", "signorini|linear|hertz|hunt_crossley|dis_choc");
}

std::unique_ptr<FrictionLaw> make_friction_law(const LawSpec& spec) {
  if (spec.law == "coulomb") return std::make_unique<CoulombLaw>(spec);
  if (spec.law == "viscous") return std::make_unique<ViscousLaw>(spec);
  if (spec.law == "regularized") return std::make_unique<RegularizedCoulombLaw>(spec);
  if (spec.law == "stribeck") return std::make_unique<StribeckLaw>(spec);
  if (spec.law == "elastic_stick") return std::make_unique<ElasticStickLaw>(spec);
  throw unknown_law(spec, "friction", "coulomb|viscous|regularized|stribeck|elastic_stick");
}

std::unique_ptr<RollingLaw> make_rolling_law(const LawSpec& spec) {
  return std::make_unique<RollingFrictionLaw>(spec);
}

std::unique_ptr<PivotingLaw> make_pivoting_law(const LawSpec& spec) {
  return std::make_unique<PivotingFrictionLaw>(spec);
}

std::unique_ptr<PivotingLaw> make_soft_finger_law(const LawSpec& spec, double mu) {
  return std::make_unique<PivotingFrictionLaw>(spec, mu);
}

}  // namespace coulomb
