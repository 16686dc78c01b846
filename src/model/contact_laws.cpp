// Resolution of a contact spec into the set-valued laws of the nonsmooth formulation: every law
// is built through the registry (coulomb/laws/registry.hpp), which also says what this
// formulation accepts.
#include <coulomb/model/contact_laws.hpp>

#include <coulomb/laws/coulomb.hpp>
#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/law.hpp>
#include <coulomb/laws/registry.hpp>
#include <coulomb/laws/signorini.hpp>
#include <coulomb/model/model.hpp>

#include <fmt/format.h>

#include <limits>
#include <set>
#include <stdexcept>

namespace coulomb {

namespace {

std::string pair_name(const ContactSpec& spec, const Model& model) {
  auto name = [&](int m) {
    return m >= 0 && m < static_cast<int>(model.materials.size()) ? model.materials[m].name
                                                                  : std::string("default");
  };
  return fmt::format("contact between '{}' and '{}'", name(spec.material1), name(spec.material2));
}

}  // namespace

void check_compliant_laws(const ContactSpec& spec, const Model& model) {
  for (std::size_t i = 0; i < kLawSectionCount; ++i) {
    const auto section = static_cast<LawSection>(i);
    if (const LawSpec* s = spec.law(section)) {
      const FormulationError e = formulation_error(section, *s, kCompliant);
      if (!e.empty())
        throw std::invalid_argument(fmt::format("{}: {}", pair_name(spec, model), e.message));
    }
  }
}

bool materials_can_meet(const Model& model, int a, int b) {
  int count_a = 0, count_b = 0, free_a = 0, free_b = 0;
  for (const Body& body : model.bodies) {
    if (body.material == a) {
      ++count_a;
      if (!body.fixed) ++free_a;
    }
    if (body.material == b) {
      ++count_b;
      if (!body.fixed) ++free_b;
    }
  }
  if (a == b) return count_a >= 2 && free_a >= 1;
  return (free_a >= 1 && count_b >= 1) || (count_a >= 1 && free_b >= 1);
}

bool default_contact_serves_a_pair(const Model& model) {
  std::set<int> used;
  for (const Body& b : model.bodies) used.insert(b.material);
  for (int a : used)
    for (int b : used)
      if (b >= a && model.contact_spec_index(a, b) < 0 && materials_can_meet(model, a, b))
        return true;
  return false;
}

NonsmoothLaws resolve_nonsmooth_laws(const ContactSpec& spec, const Model& model) {
  NonsmoothLaws laws;
  const std::string where = pair_name(spec, model);
  // What this formulation cannot run (the scene loader reports the same at the key).
  for (std::size_t i = 0; i < kLawSectionCount; ++i) {
    const auto section = static_cast<LawSection>(i);
    if (const LawSpec* s = spec.law(section)) {
      const FormulationError e = formulation_error(section, *s, kNonsmooth);
      if (!e.empty()) throw std::invalid_argument(fmt::format("{}: {}", where, e.message));
    }
  }
  const Material none;
  const Material& m1 = spec.material1 >= 0 ? model.materials[spec.material1] : none;
  const Material& m2 = spec.material2 >= 0 ? model.materials[spec.material2] : none;

  // Normal: Signorini with Newton restitution.
  const SignoriniLaw normal(spec.normal);
  laws.e_n = normal.restitution();
  laws.e_t = normal.tangential_restitution();

  // Friction: Coulomb on the exact circular cone, μ_s / μ_k; no slip is its limit μ = +∞
  // (coulomb/laws/no_slip.hpp), without moment laws.
  if (spec.friction.law == "no_slip") {
    laws.mu_s = laws.mu_k = std::numeric_limits<double>::infinity();
    if (spec.rolling || spec.pivoting || spec.soft_finger || spec.contensou)
      throw std::invalid_argument(fmt::format(
          "{}: friction law 'no_slip' takes no moment law (rolling, pivoting, soft_finger, "
          "contensou)",
          where));
    return laws;
  }
  const CoulombLaw friction(spec.friction);
  laws.mu_s = friction.mu_s();
  laws.mu_k = friction.mu_k();

  // Moments.
  if (spec.rolling) laws.k = make_rolling_law(*spec.rolling)->coefficient();
  if (spec.pivoting) laws.h = make_pivoting_law(*spec.pivoting)->coefficient();
  if (spec.soft_finger) laws.h = make_soft_finger_law(*spec.soft_finger, laws.mu_s)->coefficient();
  if (spec.contensou) {
    const LawSpec& c = *spec.contensou;
    const LawOption* model_key = find_law(LawSection::contensou, "contensou")->option("model");
    auto it = c.options.find("model");
    const std::string model_name =
        it == c.options.end() ? std::string(model_key->default_for(kNonsmooth)) : it->second;
    laws.coupling =
        model_name == "exact" ? NonsmoothLaws::Coupling::exact : NonsmoothLaws::Coupling::ellipsoid;
    auto p = c.options.find("pressure");
    laws.pressure = p != c.options.end() && p->second == "uniform" ? contensou::Pressure::uniform
                                                                   : contensou::Pressure::hertz;
    laws.patch_radius = c.get("radius", 0.0);
    if (!(laws.patch_radius > 0.0)) {
      // Radius from Hertz theory: needs both materials' E and ν.
      if (!elastic_material(m1) || !elastic_material(m2))
        throw std::invalid_argument(fmt::format(
            "{}: contensou without radius takes the patch radius from Hertz theory and needs "
            "young_modulus and poisson_ratio on both materials",
            where));
      laws.e_star = effective_modulus(m1, m2);
    }
    if (spec.pivoting || spec.soft_finger)
      throw std::invalid_argument(fmt::format(
          "{}: contensou already couples pivoting with sliding; remove pivoting/soft_finger",
          where));
  }
  return laws;
}

}  // namespace coulomb
