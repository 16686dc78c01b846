// Resolution of a contact spec into the set-valued laws of the nonsmooth formulation.
#include <coulomb/world/contact_laws.hpp>

#include <coulomb/laws/coulomb.hpp>
#include <coulomb/laws/law.hpp>
#include <coulomb/laws/signorini.hpp>

#include <fmt/format.h>

#include <cmath>
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

NonsmoothLaws resolve_nonsmooth_laws(const ContactSpec& spec, const Model& model) {
  NonsmoothLaws laws;
  const std::string where = pair_name(spec, model);
  const Material none;
  const Material& m1 = spec.material1 >= 0 ? model.materials[spec.material1] : none;
  const Material& m2 = spec.material2 >= 0 ? model.materials[spec.material2] : none;

  // Normal: Signorini with Newton restitution.
  if (spec.normal.law != "signorini")
    throw std::invalid_argument(fmt::format(
        "{}: normal law '{}' is a compliant law; the nonsmooth formulation takes 'signorini' "
        "(the compliant formulation is not available yet)",
        where, spec.normal.law));
  const SignoriniLaw normal(spec.normal);
  laws.e_n = normal.restitution();
  laws.e_t = normal.tangential_restitution();

  // Friction: Coulomb on the exact circular cone, μ_s / μ_k.
  if (spec.friction.law != "coulomb")
    throw std::invalid_argument(fmt::format(
        "{}: friction law '{}' is a compliant law; the nonsmooth formulation takes 'coulomb'",
        where, spec.friction.law));
  const CoulombLaw friction(spec.friction);
  if (friction.anisotropic())
    throw std::invalid_argument(fmt::format(
        "{}: anisotropic Coulomb friction (mu_t1, mu_t2) is not available in the nonsmooth "
        "formulation yet; give mu or mu_s/mu_k",
        where));
  laws.mu_s = friction.mu_s();
  laws.mu_k = friction.mu_k();

  // Moments.
  if (spec.rolling) laws.k = make_rolling_law(*spec.rolling)->coefficient();
  if (spec.pivoting) laws.h = make_pivoting_law(*spec.pivoting)->coefficient();
  if (spec.soft_finger) laws.h = make_soft_finger_law(*spec.soft_finger, laws.mu_s)->coefficient();
  if (spec.contensou) {
    const LawSpec& c = *spec.contensou;
    auto option = [&](const char* key, const char* fallback) {
      auto it = c.options.find(key);
      return it == c.options.end() ? std::string(fallback) : it->second;
    };
    const std::string model_name = option("model", "ellipsoid");
    if (model_name == "ellipsoid")
      laws.coupling = NonsmoothLaws::Coupling::ellipsoid;
    else if (model_name == "exact")
      laws.coupling = NonsmoothLaws::Coupling::exact;
    else
      throw std::invalid_argument(fmt::format(
          "{}: contensou.model '{}' is a smooth approximant for the compliant formulation; the "
          "nonsmooth formulation takes ellipsoid or exact",
          where, model_name));
    const std::string pressure = option("pressure", "hertz");
    laws.pressure =
        pressure == "uniform" ? contensou::Pressure::uniform : contensou::Pressure::hertz;
    laws.patch_radius = c.get("radius", 0.0);
    if (!(laws.patch_radius > 0.0)) {
      // Radius from Hertz theory: needs both materials' E and ν.
      const double E1 = m1.young_modulus, E2 = m2.young_modulus;
      const double n1 = m1.poisson_ratio, n2 = m2.poisson_ratio;
      if (!(E1 > 0.0 && E2 > 0.0 && std::isfinite(n1) && std::isfinite(n2)))
        throw std::invalid_argument(fmt::format(
            "{}: contensou without radius takes the patch radius from Hertz theory and needs "
            "young_modulus and poisson_ratio on both materials",
            where));
      laws.e_star = 1.0 / ((1.0 - n1 * n1) / E1 + (1.0 - n2 * n2) / E2);
    }
    if (spec.pivoting || spec.soft_finger)
      throw std::invalid_argument(fmt::format(
          "{}: contensou already couples pivoting with sliding; remove pivoting/soft_finger",
          where));
  }
  if (spec.rolling_resistance)
    throw std::invalid_argument(
        fmt::format("{}: rolling_resistance (pressure distortion) is a compliant law; use rolling: "
                    "{{k: }} in the "
                    "nonsmooth formulation",
                    where));
  return laws;
}

}  // namespace coulomb
