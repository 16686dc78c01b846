// The typed factories of law.hpp, through the registry's rows (coulomb/laws/registry.hpp).
#include <coulomb/laws/law.hpp>
#include <coulomb/laws/one_line.hpp>

#include <coulomb/laws/registry.hpp>

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace coulomb {

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7F) {
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += fmt::format("\\x{:02X}", c);
    }
  }
  return out;
}

std::string_view energy_kind_name(EnergyKind kind) {
  const auto k = static_cast<std::size_t>(kind);
  return k < kEnergyKindCount ? kEnergyKindNames[k] : "unknown";
}

double FrictionLaw::isotropic_coefficient() const {
  FrictionMemory slid;
  slid.previous_slip = Vec2(1.0, 0.0);
  const Vec2 mu = cone_coefficients(slid);
  if (mu.x() != mu.y() || !std::isfinite(mu.x())) return std::numeric_limits<double>::quiet_NaN();
  return mu.x();
}

namespace {
template <class Law>
std::unique_ptr<Law> build(LawSection section, const LawSpec& spec, const LawContext& context) {
  return std::get<std::unique_ptr<Law>>(make_law(section, spec, context));
}
// One-law sections: the spec's `law` is the section name whatever the caller wrote.
LawSpec named(const LawSpec& spec, LawSection section) {
  LawSpec s = spec;
  s.law = std::string(section_name(section));
  return s;
}
}  // namespace

std::unique_ptr<NormalLaw> make_normal_law(const LawSpec& spec, const Material& m1,
                                           const Material& m2) {
  return build<NormalLaw>(LawSection::normal, spec, LawContext{m1, m2});
}

std::unique_ptr<FrictionLaw> make_friction_law(const LawSpec& spec) {
  return build<FrictionLaw>(LawSection::friction, spec, {});
}

std::unique_ptr<RollingLaw> make_rolling_law(const LawSpec& spec) {
  return build<RollingLaw>(LawSection::rolling, named(spec, LawSection::rolling), {});
}

std::unique_ptr<PivotingLaw> make_pivoting_law(const LawSpec& spec) {
  return build<PivotingLaw>(LawSection::pivoting, named(spec, LawSection::pivoting), {});
}

std::unique_ptr<PivotingLaw> make_soft_finger_law(const LawSpec& spec, double mu) {
  LawContext context;
  context.mu = mu;
  return build<PivotingLaw>(LawSection::soft_finger, named(spec, LawSection::soft_finger), context);
}

}  // namespace coulomb
