// The law registry: one row per law (coulomb/laws/registry.hpp). The rows are the only list of
// laws, keys, units, ranges and defaults in the program.
#include <coulomb/laws/registry.hpp>

#include <coulomb/laws/contensou_law.hpp>
#include <coulomb/laws/coulomb.hpp>
#include <coulomb/laws/dis_choc.hpp>
#include <coulomb/laws/elastic_stick.hpp>
#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/hunt_crossley.hpp>
#include <coulomb/laws/linear.hpp>
#include <coulomb/laws/no_slip.hpp>
#include <coulomb/laws/pivoting.hpp>
#include <coulomb/laws/regularized.hpp>
#include <coulomb/laws/rolling.hpp>
#include <coulomb/laws/signorini.hpp>
#include <coulomb/laws/stribeck.hpp>
#include <coulomb/laws/tsuji.hpp>
#include <coulomb/laws/viscous.hpp>

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace coulomb {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// Shorthands for the rows: a key ≥ lo, a key > lo, a key in [lo, hi].
constexpr LawKey at_least(std::string_view key, std::string_view meaning, std::string_view unit,
                          double lo, double fallback = kNone, std::string_view text = "") {
  return LawKey{key, meaning, unit, lo, kInf, false, fallback, text};
}
constexpr LawKey above(std::string_view key, std::string_view meaning, std::string_view unit,
                       double lo, double fallback = kNone, std::string_view text = "") {
  return LawKey{key, meaning, unit, lo, kInf, true, fallback, text};
}

// A friction coefficient: in [0, kMaxFriction]. Beyond 1e4 the cone is numerically a half-space
// and the solve loses digits in proportion to μ (a box resting on a plane, default tolerance
// 1e-10: error 1.7e-12 at μ = 1e4, 1e-10 at 1e6, half the steps unconverged at 1e8 — see
// docs/scene-format.md); no measured dry-friction coefficient comes near it.
constexpr double kMaxFriction = 1e4;
constexpr LawKey coefficient(std::string_view key, std::string_view meaning,
                             std::string_view text = "required",
                             Formulations formulations = kBoth) {
  return LawKey{key, meaning, "-", 0.0, kMaxFriction, false, kNone, text, false, formulations};
}

// ---- option values ------------------------------------------------------------------------
constexpr std::array kForms{OptionValue{"linear"}, OptionValue{"tanh"}};
constexpr std::array kPressures{OptionValue{"hertz"}, OptionValue{"uniform"}};
constexpr std::array kRelations{OptionValue{"flores"}, OptionValue{"hunt_crossley"}};
constexpr std::array kContensouModels{OptionValue{"ellipsoid"},
                                      OptionValue{"exact"},
                                      OptionValue{"pade11", kCompliant},
                                      OptionValue{"pade22", kCompliant},
                                      OptionValue{"generalized", kCompliant},
                                      OptionValue{"quadrature", kCompliant}};

// ---- normal laws --------------------------------------------------------------------------
constexpr std::array kSignoriniKeys{
    LawKey{"restitution", "Newton restitution e_n", "-", 0.0, 1.0, false, 0.0},
    LawKey{"tangential_restitution", "Newton tangential restitution e_t", "-", -1.0, 1.0, false,
           0.0},
};
constexpr std::array kLinearKeys{
    at_least("stiffness", "k", "N/m", 0.0, kNone, "required"),
    at_least("damping", "c", "N s/m", 0.0, 0.0),
    above("frequency", "f (with damping_ratio, mass: instead of k, c)", "Hz", 0.0, kNone, "—"),
    at_least("damping_ratio", "ζ", "-", 0.0, 0.0),
    above("mass", "m", "kg", 0.0, kNone, "—"),
};
constexpr LawKey kYoung = above("young_modulus", "E of both bodies (overrides the materials)", "Pa",
                                0.0, kNone, "materials");
constexpr LawKey kPoisson{
    "poisson_ratio", "ν of both bodies (overrides the materials)", "-", -1.0, 0.5, true, kNone,
    "materials"};
constexpr std::array kHertzKeys{
    at_least("stiffness", "explicit K (the geometry is ignored)", "N/m^{3/2}", 0.0, kNone,
             "from E*, R*"),
    kYoung,
    kPoisson,
};
constexpr std::array kHuntCrossleyKeys{
    at_least("stiffness", "K", "N/m^n", 0.0, kNone, "Hertz's (n = 1.5)"),
    above("exponent", "n", "-", 0.0, 1.5),
    at_least("damping", "χ", "s/m", 0.0, 0.0),
    LawKey{"restitution", "e (instead of χ; > 0 with relation flores)", "-", 0.0, 1.0, false, kNone,
           "—"},
    above("impact_velocity", "v_in (with restitution)", "m/s", 0.0, kNone, "—"),
    kYoung,
    kPoisson,
};
constexpr std::array kHuntCrossleyOptions{
    LawOption{"relation", "damping from restitution", kRelations, "flores", ""}};
constexpr std::array kTsujiKeys{
    at_least("stiffness", "K (the geometry is ignored)", "N/m^{3/2}", 0.0, kNone, "from E*, R*"),
    at_least("damping", "η", "N s/m^{5/4}", 0.0, 0.0),
    kYoung,
    kPoisson,
};
constexpr std::array kDisChocKeys{
    above("stiffness", "K_n (RIGI_NOR)", "N/m", 0.0, kNone, "required"),
    at_least("damping", "C_n (AMOR_NOR)", "N s/m", 0.0, 0.0),
};

// ---- friction laws ------------------------------------------------------------------------
constexpr std::array kCoulombKeys{
    coefficient("mu", "μ: both coefficients", "required (or mu_s and mu_k)"),
    coefficient("mu_s", "static coefficient (a contact that stuck, or is new)", "mu"),
    coefficient("mu_k", "kinetic coefficient (a contact that slid)", "mu"),
    coefficient("mu_t1", "anisotropic coefficient along t1, elliptic cone", "—", kCompliant),
    coefficient("mu_t2", "anisotropic coefficient along t2", "—", kCompliant),
    LawKey{"regularization", "v_r: the slip law is scaled by min(1, ‖v_t‖/v_r) (compliant)", "m/s",
           0.0, kInf, true, 1e-4, "", false, kCompliant},
};
constexpr std::array kViscousKeys{
    at_least("damping", "c: F_t = −c v_t", "N s/m", 0.0, kNone, "required"),
};
constexpr std::array kRegularizedKeys{
    coefficient("mu", "μ"),
    above("regularization", "v_r", "m/s", 0.0, kNone, "required"),
};
constexpr std::array kRegularizedOptions{
    LawOption{"form", "saturation function", kForms, "tanh", ""}};
constexpr std::array kStribeckKeys{
    coefficient("mu_s", "static coefficient"),
    coefficient("mu_k", "kinetic coefficient"),
    above("stribeck_velocity", "v_s", "m/s", 0.0, kNone, "required"),
    above("exponent", "δ", "-", 0.0, 2.0),
    at_least("viscous", "c_v", "N s/m", 0.0, 0.0),
    above("regularization", "v_r", "m/s", 0.0, 1e-4),
};
constexpr std::array kElasticStickKeys{
    at_least("stiffness", "K_t (RIGI_TAN)", "N/m", 0.0, 0.0),
    at_least("damping", "C_t (AMOR_TAN)", "N s/m", 0.0, 0.0),
    coefficient("mu", "COULOMB", "required (or mu_s and mu_k)"),
    coefficient("mu_s", "COULOMB_STAT", "mu"),
    coefficient("mu_k", "COULOMB_DYNA", "mu"),
    above("threshold", "ε: slip speed below which the contact sticks", "m/s", 0.0, 1e-6),
};

// ---- moment laws --------------------------------------------------------------------------
constexpr std::array kRollingKeys{
    at_least("k", "rolling-friction length: ‖M_t‖ ≤ k N", "m", 0.0, kNone, "required"),
    above("regularization", "ω_r (compliant form)", "rad/s", 0.0, 1e-3),
};
constexpr std::array kPivotingKeys{
    at_least("h", "pivoting length: |M_n| ≤ h N", "m", 0.0, kNone, "required"),
    above("regularization", "ω_r (compliant form)", "rad/s", 0.0, 1e-3),
};
constexpr std::array kSoftFingerKeys{
    at_least("radius", "r_t: |M_n| ≤ μ r_t N", "m", 0.0, kNone, "required"),
    above("regularization", "ω_r (compliant form)", "rad/s", 0.0, 1e-3),
};
constexpr std::array kMomentOptions{
    LawOption{"form", "saturation function (compliant form)", kForms, "linear", ""}};

// ---- Coulomb–Contensou --------------------------------------------------------------------
constexpr std::array kContensouKeys{
    above("radius", "patch radius a", "m", 0.0, kNone, "Hertz theory"),
    above("regularization", "v_r: the law is scaled by min(1, ρ/v_r) (compliant)", "m/s", 0.0,
          1e-4),
    above("b", "approximant constant (pade11, generalized)", "-", 0.0, kNone, "per pressure"),
    above("c", "approximant constant (pade11, generalized)", "-", 0.0, kNone, "per pressure"),
    above("m0", "m(0) (pade11, pade22, generalized)", "-", 0.0, kNone, "per pressure"),
    at_least("c1", "approximant constant (pade22)", "-", 0.0, kNone, "per pressure"),
    above("c3", "approximant constant (pade22)", "-", 0.0, kNone, "per pressure"),
    at_least("d", "approximant constant (pade22)", "-", 0.0, kNone, "per pressure"),
    above("e", "approximant constant (pade22)", "-", 0.0, kNone, "per pressure"),
    at_least("n", "exponent (generalized; ≥ 1: finite Jacobian at ε = 0)", "-", 1.0, kNone,
             "per pressure"),
    at_least("k", "exponent (generalized; ≥ 1)", "-", 1.0, kNone, "per pressure"),
    LawKey{"n_angle", "quadrature nodes per panel in angle (quadrature)", "-", 2.0, 1000.0, false,
           12.0, "", true},
    LawKey{"n_chord", "quadrature nodes per panel along a chord (quadrature)", "-", 2.0, 1000.0,
           false, 16.0, "", true},
};
constexpr std::array kContensouOptions{
    LawOption{"model", "F(ε), m(ε): exact or an approximant (docs/laws.md)", kContensouModels,
              "exact", "ellipsoid"},
    LawOption{"pressure", "pressure over the patch", kPressures, "hertz", ""},
};
constexpr std::array kRollingResistanceKeys{
    LawKey{"kappa", "κ: pressure distortion", "-", 0.0, 1.0, false, kNone, "required"},
    above("regularization", "ω_r", "rad/s", 0.0, 1e-3),
};

// ---- factories ----------------------------------------------------------------------------
template <class T>
AnyLaw normal_of(const LawSpec& s, const LawContext&) {
  return std::unique_ptr<NormalLaw>(std::make_unique<T>(s));
}
template <class T>
AnyLaw normal_with_materials(const LawSpec& s, const LawContext& c) {
  return std::unique_ptr<NormalLaw>(std::make_unique<T>(s, c.material1, c.material2));
}
template <class T>
AnyLaw friction_of(const LawSpec& s, const LawContext&) {
  return std::unique_ptr<FrictionLaw>(std::make_unique<T>(s));
}
AnyLaw rolling_of(const LawSpec& s, const LawContext&) {
  return std::unique_ptr<RollingLaw>(std::make_unique<RollingFrictionLaw>(s));
}
AnyLaw pivoting_of(const LawSpec& s, const LawContext&) {
  return std::unique_ptr<PivotingLaw>(std::make_unique<PivotingFrictionLaw>(s));
}
AnyLaw soft_finger_of(const LawSpec& s, const LawContext& c) {
  return std::unique_ptr<PivotingLaw>(std::make_unique<PivotingFrictionLaw>(s, c.mu));
}
AnyLaw contensou_of(const LawSpec& s, const LawContext& c) {
  return std::unique_ptr<ContensouLaw>(std::make_unique<ContensouFrictionLaw>(
      s, c.mu, c.material1, c.material2, c.rolling_resistance));
}

using S = LawSection;
const std::array kRegistry{
    LawInfo{S::normal,
            "signorini",
            "coulomb/laws/signorini.hpp",
            "unilateral contact, Newton restitution at impacts",
            kSignoriniKeys,
            {},
            kNonsmooth,
            &normal_of<SignoriniLaw>,
            ""},
    LawInfo{S::normal,
            "linear",
            "coulomb/laws/linear.hpp",
            "spring–dashpot N = k δ + c δ̇",
            kLinearKeys,
            {},
            kCompliant,
            &normal_of<LinearNormalLaw>,
            "stiffness=1e5"},
    LawInfo{S::normal,
            "hertz",
            "coulomb/laws/hertz.hpp",
            "N = (4/3) E* √R* δ^{3/2}",
            kHertzKeys,
            {},
            kCompliant,
            &normal_with_materials<HertzNormalLaw>,
            "young_modulus=2e11 poisson_ratio=0.3"},
    LawInfo{S::normal, "hunt_crossley", "coulomb/laws/hunt_crossley.hpp",
            "N = K δ^n (1 + χ δ̇), χ from a restitution relation", kHuntCrossleyKeys,
            kHuntCrossleyOptions, kCompliant, &normal_with_materials<HuntCrossleyLaw>,
            "stiffness=1e9 damping=0.5"},
    LawInfo{S::normal,
            "dis_choc",
            "coulomb/laws/dis_choc.hpp",
            "code_aster's shock law: linear, non-pulling damping",
            kDisChocKeys,
            {},
            kCompliant,
            &normal_of<DisChocNormalLaw>,
            "stiffness=1e6"},
    LawInfo{S::normal,
            "tsuji",
            "coulomb/laws/tsuji.hpp",
            "N = K δ^{3/2} + η δ^{1/4} δ̇ (DEM)",
            kTsujiKeys,
            {},
            kCompliant,
            &normal_with_materials<TsujiLaw>,
            "stiffness=1e9 damping=100"},
    LawInfo{S::friction,
            "coulomb",
            "coulomb/laws/coulomb.hpp",
            "exact circular cone, static and kinetic coefficients",
            kCoulombKeys,
            {},
            kBoth,
            &friction_of<CoulombLaw>,
            "mu=0.3"},
    LawInfo{S::friction,
            "viscous",
            "coulomb/laws/viscous.hpp",
            "F_t = −c v_t",
            kViscousKeys,
            {},
            kCompliant,
            &friction_of<ViscousLaw>,
            "damping=2"},
    LawInfo{S::friction, "regularized", "coulomb/laws/regularized.hpp",
            "Coulomb with a smooth saturation at v_r", kRegularizedKeys, kRegularizedOptions,
            kCompliant, &friction_of<RegularizedCoulombLaw>, "mu=0.3 regularization=1e-3"},
    LawInfo{S::friction, "stribeck", "coulomb/laws/stribeck.hpp",
            "μ(v) = μ_k + (μ_s − μ_k) exp(−(v/v_s)^δ), plus viscous", kStribeckKeys,
            kRegularizedOptions, kCompliant, &friction_of<StribeckLaw>,
            "mu_s=0.5 mu_k=0.3 stribeck_velocity=0.01"},
    LawInfo{S::friction,
            "elastic_stick",
            "coulomb/laws/elastic_stick.hpp",
            "code_aster's DIS_CHOC tangential law: a stick spring with an anchor",
            kElasticStickKeys,
            {},
            kCompliant,
            &friction_of<ElasticStickLaw>,
            "mu=0.3"},
    LawInfo{S::friction,
            "no_slip",
            "coulomb/laws/no_slip.hpp",
            "rolling without slipping: u_T = 0 while closed (the limit μ → ∞)",
            {},
            {},
            kNonsmooth,
            &friction_of<NoSlipLaw>,
            ""},
    LawInfo{S::rolling, "rolling", "coulomb/laws/rolling.hpp", "rolling friction ‖M_t‖ ≤ k N",
            kRollingKeys, kMomentOptions, kBoth, &rolling_of, "k=0.001"},
    LawInfo{S::pivoting, "pivoting", "coulomb/laws/pivoting.hpp", "pivoting friction |M_n| ≤ h N",
            kPivotingKeys, kMomentOptions, kBoth, &pivoting_of, "h=0.001"},
    LawInfo{S::soft_finger, "soft_finger", "coulomb/laws/pivoting.hpp",
            "pivoting friction of a patch of radius r_t: h = μ r_t", kSoftFingerKeys,
            kMomentOptions, kBoth, &soft_finger_of, "radius=0.01"},
    LawInfo{S::contensou, "contensou", "coulomb/laws/contensou_law.hpp",
            "coupled sliding and spinning friction of a patch (Coulomb–Contensou)", kContensouKeys,
            kContensouOptions, kBoth, &contensou_of, "radius=0.01"},
    LawInfo{S::rolling_resistance,
            "rolling_resistance",
            "coulomb/laws/contensou_law.hpp",
            "rolling resistance by pressure distortion (with contensou)",
            kRollingResistanceKeys,
            {},
            kCompliant,
            nullptr,
            "kappa=0.1"},
};

constexpr std::array<std::string_view, kLawSectionCount> kSectionNames = {
    "normal", "friction", "rolling", "pivoting", "soft_finger", "contensou", "rolling_resistance"};

std::string number_text(double x) { return fmt::format("{}", x); }

}  // namespace

std::string_view section_name(LawSection section) {
  const auto i = static_cast<std::size_t>(section);
  return i < kLawSectionCount ? kSectionNames[i] : "unknown";
}

LawSection section_of(std::string_view name) {
  for (std::size_t i = 0; i < kLawSectionCount; ++i)
    if (kSectionNames[i] == name) return static_cast<LawSection>(i);
  return LawSection::count;
}

std::string_view formulation_name(Formulations f) {
  switch (f) {
    case kNonsmooth:
      return "nonsmooth";
    case kCompliant:
      return "compliant";
    default:
      return "nonsmooth, compliant";
  }
}

std::string LawKey::range_text() const {
  std::string text;
  if (std::isinf(hi))
    text = fmt::format("{} {}", open_lo ? ">" : "≥", number_text(lo));
  else
    text = fmt::format("{}{}, {}]", open_lo ? "(" : "[", number_text(lo), number_text(hi));
  return integer ? "integer in " + text : text;
}

std::string LawKey::requirement() const {
  const std::string range = range_text();
  if (integer) return "an " + range;
  return range.front() == '[' || range.front() == '(' ? "in " + range : range;
}

std::string LawKey::default_column() const {
  return std::isnan(fallback) ? std::string(default_text) : number_text(fallback);
}

bool LawKey::accepts(double x) const {
  if (!std::isfinite(x) || !(open_lo ? x > lo : x >= lo) || !(x <= hi)) return false;
  return !integer || x == std::floor(x);
}

std::string LawOption::values_text(Formulations f) const {
  std::string text;
  for (const OptionValue& v : values) {
    if ((v.formulations & f) == 0) continue;
    if (!text.empty()) text += '|';
    text += v.name;
  }
  return text;
}

std::string_view LawOption::default_for(Formulations f) const {
  return f == kNonsmooth && !nonsmooth_fallback.empty() ? nonsmooth_fallback : fallback;
}

const OptionValue* LawOption::find(std::string_view value) const {
  for (const OptionValue& v : values)
    if (v.name == value) return &v;
  return nullptr;
}

const LawKey* LawInfo::key(std::string_view k) const {
  for (const LawKey& x : keys)
    if (x.key == k) return &x;
  return nullptr;
}

const LawOption* LawInfo::option(std::string_view k) const {
  for (const LawOption& x : options)
    if (x.key == k) return &x;
  return nullptr;
}

std::span<const LawInfo> law_registry() { return kRegistry; }

const LawInfo* find_law(LawSection section, std::string_view name) {
  for (const LawInfo& info : kRegistry)
    if (info.section == section && info.name == name) return &info;
  return nullptr;
}

bool has_named_laws(LawSection section) {
  return section == LawSection::normal || section == LawSection::friction;
}

std::string law_names(LawSection section, Formulations f) {
  std::string text;
  for (const LawInfo& info : kRegistry) {
    if (info.section != section || !info.accepts(f)) continue;
    if (!text.empty()) text += '|';
    text += info.name;
  }
  return text;
}

const LawInfo& law_of(LawSection section, const LawSpec& spec) {
  if (const LawInfo* info = find_law(section, spec.law)) return *info;
  auto it = spec.marks.find("law");
  const SourceMark mark = it == spec.marks.end() ? SourceMark{} : it->second;
  const std::string key = fmt::format("{}.law", section_name(section));
  throw LawError(
      key, fmt::format("{}: must be one of {}, got '{}'", key, law_names(section), spec.law), mark);
}

AnyLaw make_law(LawSection section, const LawSpec& spec, const LawContext& context) {
  const LawInfo& info = law_of(section, spec);
  if (info.make == nullptr)
    throw LawError(
        std::string(section_name(section)),
        fmt::format("{}: is built with the contensou law, not on its own", section_name(section)));
  return info.make(spec, context);
}

FormulationError formulation_error(LawSection section, const LawSpec& spec, Formulations f) {
  const std::string_view sec = section_name(section);
  const LawInfo* info = find_law(section, spec.law);
  if (info == nullptr) return {};  // unknown names are the factory's error
  if (!info->accepts(f)) {
    if (has_named_laws(section))
      return {"law", fmt::format("{}.law: '{}' is a {} law; the {} formulation takes {}", sec,
                                 spec.law, formulation_name(info->formulations),
                                 formulation_name(f), law_names(section, f))};
    return {"", fmt::format("{}: is a {} law; the {} formulation does not take it", sec,
                            formulation_name(info->formulations), formulation_name(f))};
  }
  for (const auto& [key, value] : spec.params) {
    const LawKey* k = info->key(key);
    if (k != nullptr && (k->formulations & f) == 0)
      return {key,
              fmt::format("{}.{} ({}): a {} parameter; the {} formulation does not take it", sec,
                          key, k->meaning, formulation_name(k->formulations), formulation_name(f))};
  }
  for (const auto& [key, value] : spec.options) {
    const LawOption* o = info->option(key);
    if (o == nullptr) continue;
    const OptionValue* v = o->find(value);
    if (v != nullptr && (v->formulations & f) == 0)
      return {key, fmt::format("{}.{}: '{}' is a {} choice; the {} formulation takes {}", sec, key,
                               value, formulation_name(v->formulations), formulation_name(f),
                               o->values_text(f))};
  }
  return {};
}

namespace {
// A table cell with '|' escaped, so that a meaning like "|M_n| ≤ h N" stays one cell.
std::string cell(std::string_view text) {
  std::string escaped;
  for (char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return escaped;
}
}  // namespace

std::string markdown_table(const LawInfo& law) {
  std::string t = "| key | meaning | unit | default | range |\n|---|---|---|---|---|\n";
  for (const LawKey& k : law.keys)
    t += fmt::format("| `{}` | {} | {} | {} | {} |\n", k.key, cell(k.meaning), cell(k.unit),
                     cell(k.default_column()), cell(k.range_text()));
  for (const LawOption& o : law.options) {
    std::string fallback(o.fallback);
    if (!o.nonsmooth_fallback.empty())
      fallback = fmt::format("{} (nonsmooth: {})", o.fallback, o.nonsmooth_fallback);
    std::string values = o.values_text();
    if (o.values_text(kNonsmooth) != values)
      values += fmt::format(" (nonsmooth: {})", o.values_text(kNonsmooth));
    t += fmt::format("| `{}` | {} | - | {} | {} |\n", o.key, cell(o.meaning), cell(fallback),
                     cell(values));
  }
  return t;
}

std::string markdown_summary() {
  std::string t = "| section | law | formulations | summary |\n|---|---|---|---|\n";
  for (const LawInfo& info : kRegistry)
    t += fmt::format("| `{}` | `{}` | {} | {} |\n", section_name(info.section), info.name,
                     formulation_name(info.formulations), cell(info.summary));
  return t;
}

std::string registry_listing() {
  std::string out;
  for (const LawInfo& info : kRegistry) {
    out += fmt::format("{}.{}  ({})  {}\n", section_name(info.section), info.name,
                       formulation_name(info.formulations), info.summary);
    for (const LawKey& k : info.keys)
      out += fmt::format("    {:<24} {:<10} default {:<28} {}\n", k.key, k.unit, k.default_column(),
                         k.range_text());
    for (const LawOption& o : info.options)
      out += fmt::format("    {:<24} {:<10} default {:<28} {}\n", o.key, "-", o.fallback,
                         o.values_text());
  }
  return out;
}

}  // namespace coulomb
