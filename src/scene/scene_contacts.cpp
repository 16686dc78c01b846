/// @file
/// Scene files: the `materials`, `contacts` and `default_contact` sections (docs/scene-format.md).
/// Every law of a contact is built once through the law registry, so a bad value is reported at
/// its key by the law itself.

#include <coulomb/compliant/contact_laws.hpp>
#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/law.hpp>
#include <coulomb/laws/registry.hpp>

#include "scene/readers.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

namespace coulomb::scene_detail {

// ---------------------------------------------------------------------------------------------
// Materials.

void read_materials(const Reporter& r, const Field& f, Model& m, std::vector<Loc>& name_locs) {
  for (const Field& e : sequence(r, f)) {
    Material mat;
    Field name_f = e;
    if (e.node.IsMap()) {
      const MapView map(r, e);
      map.allow({"name", "young_modulus", "poisson_ratio", "density"});
      name_f = map.require("name");
      if (auto v = map.get("young_modulus")) mat.young_modulus = positive(r, *v, number(r, *v));
      if (auto v = map.get("poisson_ratio")) {
        mat.poisson_ratio = number(r, *v);
        if (!valid_poisson_ratio(mat.poisson_ratio)) {
          r.fail(*v, fmt::format("{} must be in (-1, 0.5], got {}", v->path, v->node.Scalar()));
        }
      }
      if (auto v = map.get("density")) mat.density = positive(r, *v, number(r, *v));
    } else if (!e.node.IsScalar()) {
      r.fail(e, fmt::format("{} must be a material name or a map {{name, young_modulus, "
                            "poisson_ratio, density}}, got {}",
                            e.path, describe(e.node)));
    }
    mat.name = string(r, name_f);
    const int previous = m.material_index(mat.name);
    if (previous >= 0) {
      r.fail(name_f, fmt::format("duplicate material name '{}' (first defined at line {})",
                                 mat.name, name_locs[static_cast<std::size_t>(previous)].line));
    }
    name_locs.push_back(name_f.loc);
    m.materials.push_back(mat);
  }
}

// ---------------------------------------------------------------------------------------------
// Contact laws.

namespace {

// A law map of `section`: `law` (normal, friction) plus parameters. Which keys the law takes and
// which of them are numbers is the registry's (coulomb/laws/registry.hpp); their ranges are
// checked when the law is built (validate_laws), at their key.
LawSpec read_law(const Reporter& r, const Field& f, LawSection section) {
  const MapView map(r, f);
  const std::string name(section_name(section));
  LawSpec spec;
  spec.marks[""] = SourceMark{map.loc().line, map.loc().column};
  const LawInfo* info = nullptr;
  if (has_named_laws(section)) {
    std::vector<std::string> names;
    for (const LawInfo& l : law_registry())
      if (l.section == section) names.emplace_back(l.name);
    spec.law = one_of(r, map.require("law"), name + " law", names);
    info = find_law(section, spec.law);
  } else {
    spec.law = name;
    info = find_law(section, spec.law);
    std::vector<std::string> keys;
    for (const LawKey& k : info->keys) keys.emplace_back(k.key);
    for (const LawOption& o : info->options) keys.emplace_back(o.key);
    map.allow(keys);
  }
  for (const auto& [key, v] : map.entries()) {
    spec.marks[key] = SourceMark{v.key_loc.line, v.key_loc.column};
    if (key == "law") continue;
    if (!v.node.IsScalar())
      r.fail(v, fmt::format("{} must be a number or a name, got {}", v.path, describe(v.node)));
    // A key of the law is a number unless the registry lists it as an option; a key the law does
    // not take is kept as written, and its factory names the valid keys.
    const bool numeric =
        info->key(key) != nullptr || (info->option(key) == nullptr && is_number(v.node));
    if (numeric)
      spec.params[key] = number(r, v);
    else
      spec.options[key] = v.node.Scalar();
  }
  return spec;
}

}  // namespace

// The law sections of a contact (`contacts` entry or `default_contact`).
void read_laws(const Reporter& r, const MapView& map, ContactSpec& c) {
  for (std::size_t i = 0; i < kLawSectionCount; ++i) {
    const auto section = static_cast<LawSection>(i);
    const std::optional<Field> v = map.get(std::string(section_name(section)));
    if (!v) continue;
    LawSpec spec = read_law(r, *v, section);
    c.set_law(section, std::move(spec));
  }
}

std::vector<std::string> law_section_keys() {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < kLawSectionCount; ++i)
    keys.emplace_back(section_name(static_cast<LawSection>(i)));
  return keys;
}

// ---------------------------------------------------------------------------------------------
// Contact laws through the laws module: every law of a contact is built once by its factory, so
// that each bad or unknown parameter is reported at its key.

namespace {

// The law map of a section ("normal", "friction", ...) of a contact, or null.
const LawSpec* section_spec(const ContactSpec& c, const std::string& section) {
  return c.law(section_of(section));
}

}  // namespace

// Where a section was written: its map, else the contact entry.
Loc section_loc(const ContactSpec& c, const std::string& section) {
  if (const LawSpec* s = section_spec(c, section)) {
    auto it = s->marks.find("");
    if (it != s->marks.end() && it->second.line > 0) return {it->second.line, it->second.column};
  }
  return {c.mark.line > 0 ? c.mark.line : 1, c.mark.column > 0 ? c.mark.column : 1};
}

namespace {

// Builds every law of contact `c` (`path` names it in messages, e.g. "contacts[0]") between
// materials m1 and m2; throws SceneError at the offending key.
void validate_laws(const Reporter& r, const ContactSpec& c, const std::string& path,
                   const Material& m1, const Material& m2) {
  try {
    (void)make_normal_law(c.normal, m1, m2);
    const std::unique_ptr<FrictionLaw> friction = make_friction_law(c.friction);
    if (c.rolling) (void)make_rolling_law(*c.rolling);
    if (c.pivoting) (void)make_pivoting_law(*c.pivoting);
    const double mu = friction->isotropic_coefficient();
    for (const char* section : {"soft_finger", "contensou"}) {
      if (section_spec(c, section) != nullptr && std::isnan(mu)) {
        r.fail(
            section_loc(c, section),
            fmt::format("{}.{} needs an isotropic friction law with a finite coefficient "
                        "(coulomb, regularized, stribeck or elastic_stick, without mu_t1/mu_t2), "
                        "got friction law '{}'",
                        path, section, c.friction.law));
      }
    }
    if (c.soft_finger) (void)make_soft_finger_law(*c.soft_finger, mu);
    if (c.contensou) {
      (void)make_contensou_law(*c.contensou, mu, m1, m2,
                               c.rolling_resistance ? &*c.rolling_resistance : nullptr);
    }
  } catch (const LawError& e) {
    const std::string section = e.key().substr(0, e.key().find('.'));
    Loc loc = section_loc(c, section);
    if (e.mark().line > 0) loc = Loc{e.mark().line, e.mark().column};
    std::string message = fmt::format("{}.{}", path, e.what());
    // Missing material properties: name the materials.
    if (e.mark().line == 0 && message.find("materials") != std::string::npos) {
      auto name = [](const Material& mat) {
        return mat.name.empty() ? std::string("the default material")
                                : fmt::format("material '{}'", mat.name);
      };
      message += fmt::format(" (contact between {} and {})", name(m1), name(m2));
    }
    r.fail(loc, message);
  }
  // Sections that would give the same moment twice, or a distortion without a patch.
  auto clash = [&](const char* a, const char* b, const char* why) {
    if (section_spec(c, a) != nullptr && section_spec(c, b) != nullptr) {
      r.fail(section_loc(c, b),
             fmt::format("{}.{} cannot be combined with {}.{}: {}", path, b, path, a, why));
    }
  };
  clash("pivoting", "soft_finger", "both give the pivoting moment M_n; keep one");
  clash("pivoting", "contensou", "contensou gives the pivoting moment M_n with the friction force");
  clash("soft_finger", "contensou",
        "contensou gives the pivoting moment M_n with the friction force");
  clash("rolling", "rolling_resistance", "both give the rolling moment M_t; keep one");
  // No slip is the 3-unknown limit of Coulomb (coulomb/laws/no_slip.hpp): no moment law.
  if (c.friction.law == "no_slip") {
    for (const char* section : {"rolling", "pivoting"}) {
      if (section_spec(c, section) != nullptr)
        r.fail(section_loc(c, section),
               fmt::format("{}.{} cannot be combined with friction law 'no_slip': the no-slip "
                           "constraint leaves pivoting and rolling free and takes no moment law",
                           path, section));
    }
  }
  if (c.rolling_resistance && !c.contensou) {
    r.fail(section_loc(c, "rolling_resistance"),
           fmt::format("{}.rolling_resistance needs {}.contensou: the pressure distortion acts on "
                       "the Contensou patch",
                       path, path));
  }
}

}  // namespace

// default_contact serves every pair of the bodies' materials (−1: the default material) without
// a `contacts` entry: its laws are built for each such pair. With no such pair, the laws' own
// parameters are still checked, with placeholder elastic materials.
void validate_default_contact(const Reporter& r, const Model& m) {
  std::set<int> used;
  for (const Body& b : m.bodies) used.insert(b.material);
  const Material none{"", std::numeric_limits<double>::quiet_NaN(),
                      std::numeric_limits<double>::quiet_NaN(),
                      std::numeric_limits<double>::quiet_NaN()};
  auto material = [&](int i) { return i < 0 ? none : m.materials[static_cast<std::size_t>(i)]; };
  bool any = false;
  for (int i : used) {
    for (int j : used) {
      if (j < i || m.contact_spec_index(i, j) >= 0) continue;
      any = true;
      validate_laws(r, m.default_contact, "default_contact", material(i), material(j));
    }
  }
  if (!any) {
    const Material placeholder{"placeholder", 1.0, 0.0, 1.0};
    validate_laws(r, m.default_contact, "default_contact", placeholder, placeholder);
  }
}

void read_contacts(const Reporter& r, const Field& f, Model& m) {
  std::vector<std::string> defined;
  for (const Material& mat : m.materials) defined.push_back(mat.name);
  std::vector<std::string> keys = law_section_keys();
  keys.insert(keys.begin(), "between");
  for (const Field& e : sequence(r, f)) {
    const MapView map(r, e);
    map.allow(keys);
    ContactSpec c;
    c.mark = SourceMark{map.loc().line, map.loc().column};
    // The material pair.
    const Field between = map.require("between");
    if (!between.node.IsSequence() || between.node.size() != 2) {
      r.fail(between, fmt::format("{} must be a pair of material names [m1, m2], got {}",
                                  between.path, describe(between.node)));
    }
    const std::vector<Field> names = sequence(r, between);
    int idx[2] = {-1, -1};
    for (int k = 0; k < 2; ++k) {
      const std::string name = string(r, names[static_cast<std::size_t>(k)]);
      idx[k] = m.material_index(name);
      if (idx[k] < 0) {
        const std::string valid = defined.empty()
                                      ? "no materials are defined (add a 'materials' list)"
                                      : "defined materials: " + join(defined);
        const std::string best = closest(name, defined);
        r.fail(
            names[static_cast<std::size_t>(k)],
            fmt::format("{}: unknown material '{}'{}; {}", names[static_cast<std::size_t>(k)].path,
                        name, best.empty() ? "" : " (did you mean '" + best + "'?)", valid));
      }
    }
    const int previous = m.contact_spec_index(idx[0], idx[1]);
    if (previous >= 0) {
      r.fail(between, fmt::format("{}: the pair ({}, {}) is already given by contacts[{}] "
                                  "(line {})",
                                  between.path, m.materials[static_cast<std::size_t>(idx[0])].name,
                                  m.materials[static_cast<std::size_t>(idx[1])].name, previous,
                                  m.contacts[static_cast<std::size_t>(previous)].mark.line));
    }
    c.material1 = idx[0];
    c.material2 = idx[1];
    read_laws(r, map, c);
    validate_laws(r, c, e.path, m.materials[static_cast<std::size_t>(idx[0])],
                  m.materials[static_cast<std::size_t>(idx[1])]);
    m.contacts.push_back(std::move(c));
  }
}

// The nonsmooth formulation (the only one runnable so far) takes the laws, keys and option values
// the registry marks nonsmooth: Signorini, isotropic Coulomb, rolling/pivoting/soft finger, the
// Contensou ellipsoid or exact limit set. The others are valid scene text but are rejected here,
// at their key, rather than at run time.
bool nonsmooth_laws(const ContactSpec& c) {
  for (std::size_t i = 0; i < kLawSectionCount; ++i) {
    const auto section = static_cast<LawSection>(i);
    const LawSpec* spec = section_spec(c, std::string(section_name(section)));
    if (spec != nullptr && !formulation_error(section, *spec, kNonsmooth).empty()) return false;
  }
  return true;
}

void check_nonsmooth_laws(const Reporter& r, const ContactSpec& c, const std::string& path) {
  for (std::size_t i = 0; i < kLawSectionCount; ++i) {
    const auto section = static_cast<LawSection>(i);
    const LawSpec* spec = section_spec(c, std::string(section_name(section)));
    if (spec == nullptr) continue;
    const FormulationError e = formulation_error(section, *spec, kNonsmooth);
    if (e.empty()) continue;
    auto it = spec->marks.find(e.key);
    if (it == spec->marks.end()) it = spec->marks.find("");
    const Loc at = it == spec->marks.end() ? Loc{} : Loc{it->second.line, it->second.column};
    std::string message = fmt::format("{}.{}", path, e.message);
    if (section == LawSection::rolling_resistance)
      message += "; use rolling: {k: } in the nonsmooth formulation";
    r.fail(at, message);
  }
}

bool compliant_laws(const ContactSpec& c) {
  for (std::size_t i = 0; i < kLawSectionCount; ++i) {
    const auto section = static_cast<LawSection>(i);
    const LawSpec* spec = c.law(section);
    if (spec != nullptr && !formulation_error(section, *spec, kCompliant).empty()) return false;
  }
  return true;
}

void check_compliant_laws(const Reporter& r, const ContactSpec& c, const std::string& path,
                          const Material& m1, const Material& m2) {
  try {
    (void)build_compliant_laws(c, m1, m2);
  } catch (const LawError& e) {
    const std::string section = e.key().substr(0, e.key().find('.'));
    Loc loc = section_loc(c, section);
    if (e.mark().line > 0) loc = Loc{e.mark().line, e.mark().column};
    r.fail(loc, fmt::format("{}.{}", path, e.what()));
  }
}

}  // namespace coulomb::scene_detail
