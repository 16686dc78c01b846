// The force laws of the compliant formulation per pair of materials
// (coulomb/compliant/contact_laws.hpp).
#include <coulomb/compliant/contact_laws.hpp>

#include <coulomb/laws/coulomb.hpp>
#include <coulomb/laws/registry.hpp>
#include <coulomb/model/contact_laws.hpp>

#include <fmt/format.h>

#include <set>
#include <stdexcept>

namespace coulomb {

CompliantLaws build_compliant_laws(const ContactSpec& spec, const Material& m1,
                                   const Material& m2) {
  // What the compliant formulation does not run, at its key.
  for (std::size_t i = 0; i < kLawSectionCount; ++i) {
    const auto section = static_cast<LawSection>(i);
    if (const LawSpec* s = spec.law(section)) {
      const FormulationError e = formulation_error(section, *s, kCompliant);
      if (!e.empty()) {
        auto it = s->marks.find(e.key);
        if (it == s->marks.end()) it = s->marks.find("");
        throw LawError(fmt::format("{}.{}", section_name(section), e.key), e.message,
                       it == s->marks.end() ? SourceMark{} : it->second);
      }
    }
  }
  CompliantLaws laws;
  laws.normal = make_normal_law(spec.normal, m1, m2);
  laws.friction = make_friction_law(spec.friction);
  // Coulomb's compliant form has no stick branch: a static coefficient would be ignored.
  if (const auto* c = dynamic_cast<const CoulombLaw*>(laws.friction.get());
      c != nullptr && c->static_coefficient_differs() && !spec.contensou) {
    const auto it = spec.friction.marks.find("mu_s");
    throw LawError("friction.mu_s",
                   "friction.mu_s: the compliant formulation runs coulomb as its regularised slip "
                   "law with mu_k, which has no stick branch; a static coefficient needs stribeck "
                   "(smooth) or elastic_stick (a stick spring)",
                   it == spec.friction.marks.end() ? SourceMark{} : it->second);
  }
  const double mu = laws.friction->isotropic_coefficient();
  if (spec.rolling) laws.rolling = make_rolling_law(*spec.rolling);
  if (spec.pivoting) laws.pivoting = make_pivoting_law(*spec.pivoting);
  if (spec.soft_finger) laws.pivoting = make_soft_finger_law(*spec.soft_finger, mu);
  if (spec.contensou)
    laws.contensou = make_contensou_law(
        *spec.contensou, mu, m1, m2, spec.rolling_resistance ? &*spec.rolling_resistance : nullptr);
  return laws;
}

CompliantLawTable::CompliantLawTable(const Model& model) {
  count_ = static_cast<int>(model.materials.size());
  const int n = count_ + 1;
  pair_.assign(static_cast<std::size_t>(n * n), 0);
  std::set<int> used;
  for (const Body& b : model.bodies) used.insert(b.material);
  // One law set per unordered pair of materials that can meet (two bodies, one free); the other
  // pairs share a placeholder, never read (the narrowphase pairs only such bodies).
  laws_.push_back(std::make_unique<CompliantLaws>());
  const Material none;
  auto material = [&](int m) -> const Material& {
    return m < 0 ? none : model.materials[static_cast<std::size_t>(m)];
  };
  for (int a : used) {
    for (int b : used) {
      if (b < a || !materials_can_meet(model, a, b)) continue;
      const ContactSpec& spec =
          model.contact_spec_index(a, b) < 0
              ? model.default_contact
              : model.contacts[static_cast<std::size_t>(model.contact_spec_index(a, b))];
      try {
        laws_.push_back(
            std::make_unique<CompliantLaws>(build_compliant_laws(spec, material(a), material(b))));
      } catch (const LawError& e) {
        throw std::invalid_argument(fmt::format("contact between '{}' and '{}': {}",
                                                a < 0 ? "default" : material(a).name,
                                                b < 0 ? "default" : material(b).name, e.what()));
      }
      const std::size_t k = laws_.size() - 1;
      pair_[static_cast<std::size_t>(index(a) * n + index(b))] = k;
      pair_[static_cast<std::size_t>(index(b) * n + index(a))] = k;
    }
  }
}

}  // namespace coulomb
