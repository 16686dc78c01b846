#pragma once
/// @file
/// The law registry: the one place that says which contact laws exist, which scene keys each
/// takes (unit, range, default, meaning) and which formulation can run it, and that builds them.
///
/// One row per law (LawInfo). Everything else reads the rows:
/// - the laws' constructors read their parameters through detail::Params, which takes the range,
///   the default and the allowed option values of every key from the row (a key a constructor
///   reads that its row does not list is a programming error, caught by the registry test);
/// - the scene loader takes the law names of a section, the keys of a law and which of them are
///   numbers from the rows, builds every law through its row's factory (so a bad value is
///   reported at its key by the law itself), and asks `formulation_error` whether the run can
///   take it;
/// - compiling the model resolves a contact's laws through the same factories
///   (model/contact_laws.cpp);
/// - `coulomb law --list` prints the rows; docs/laws.md's key tables are `markdown_table(row)`
///   verbatim (tests/laws/registry_test.cpp compares them).
///
/// Adding a law: its class (one header, one source) and one row in src/laws/registry.cpp.
///
/// Sections are the keys of a `contacts:` entry: `normal` and `friction` hold a named law
/// (`{law: NAME, ...}`); the other sections are one law each, named like the section.

#include <coulomb/laws/law.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace coulomb {

/// The scene key of a section ("normal", "friction", ...).
[[nodiscard]] std::string_view section_name(LawSection section);
/// The section of a scene key, or LawSection::count if it is none.
[[nodiscard]] LawSection section_of(std::string_view name);

/// The formulations that can run a law (a bit set).
enum Formulations : std::uint8_t {
  kNonsmooth = 1,  ///< time stepping with set-valued laws (Moreau–Jean, midpoint)
  kCompliant = 2,  ///< ODE integration of force laws (not runnable yet: `coulomb law`, Python)
  kBoth = 3,
};
[[nodiscard]] std::string_view formulation_name(Formulations f);  ///< "nonsmooth", "compliant"

/// A numeric key of a law: lo ≤ x ≤ hi (strict where open), finite.
struct LawKey {
  std::string_view key;
  std::string_view meaning;
  std::string_view unit;  ///< "-" for dimensionless
  double lo = 0.0;
  double hi = std::numeric_limits<double>::infinity();
  bool open_lo = false;  ///< x > lo instead of x ≥ lo
  /// The value when the key is absent (NaN: none — the law requires the key, or derives the
  /// value from other keys or the materials; `default_text` says which).
  double fallback = std::numeric_limits<double>::quiet_NaN();
  /// The default column of the docs when `fallback` is NaN ("required", "mu", "materials", ...).
  std::string_view default_text = "";
  bool integer = false;  ///< must be an integer
  /// The formulations that accept the key (e.g. the anisotropic coefficients: compliant only).
  Formulations formulations = kBoth;

  /// "≥ 0", "> 0", "[0, 1]", "(-1, 0.5]", "integer in [2, 1000]".
  [[nodiscard]] std::string range_text() const;
  /// The range as an error says it: "in [0, 1]", "≥ 0", "an integer in [2, 1000]".
  [[nodiscard]] std::string requirement() const;
  /// "0", "1e-4", or default_text.
  [[nodiscard]] std::string default_column() const;
  /// True if x is finite, in range and (if `integer`) an integer.
  [[nodiscard]] bool accepts(double x) const;
};

/// A value of a string option and the formulations that accept it.
struct OptionValue {
  std::string_view name;
  Formulations formulations = kBoth;
};

/// A string key of a law (a choice among names).
struct LawOption {
  std::string_view key;
  std::string_view meaning;
  std::span<const OptionValue> values;
  std::string_view fallback;            ///< the value when the key is absent
  std::string_view nonsmooth_fallback;  ///< the same in the nonsmooth formulation ("" = fallback)

  /// "a|b|c".
  [[nodiscard]] std::string values_text(Formulations f = kBoth) const;
  /// The value when absent in formulation f.
  [[nodiscard]] std::string_view default_for(Formulations f) const;
  [[nodiscard]] const OptionValue* find(std::string_view value) const;
};

/// What a factory needs besides the law's own map.
struct LawContext {
  Material material1;  ///< E, ν for the Hertz laws and the Hertz patch radius
  Material material2;
  /// μ of the contact's friction law (kinetic; soft finger and Contensou take it; NaN: the
  /// friction law has no single finite coefficient — viscous or anisotropic).
  double mu = std::numeric_limits<double>::quiet_NaN();
  /// The contact's `rolling_resistance` map (Contensou with pressure distortion), or null.
  const LawSpec* rolling_resistance = nullptr;
};

/// A built law of any section.
using AnyLaw = std::variant<std::unique_ptr<NormalLaw>, std::unique_ptr<FrictionLaw>,
                            std::unique_ptr<RollingLaw>, std::unique_ptr<PivotingLaw>,
                            std::unique_ptr<ContensouLaw>>;

/// One law: its section, name, keys and factory.
struct LawInfo {
  LawSection section;
  std::string_view name;     ///< scene name (`law:` value; the section name for one-law sections)
  std::string_view header;   ///< where it is documented, e.g. "coulomb/laws/hertz.hpp"
  std::string_view summary;  ///< one line
  std::span<const LawKey> keys;
  std::span<const LawOption> options;
  Formulations formulations;
  /// Builds the law (throws LawError at the offending key). Null for rolling_resistance, which
  /// the Contensou law builds (LawContext::rolling_resistance).
  AnyLaw (*make)(const LawSpec& spec, const LawContext& context) = nullptr;
  /// A minimal valid map, as scene text ("mu: 0.3"): the registry test builds every law from it.
  std::string_view example;

  [[nodiscard]] const LawKey* key(std::string_view k) const;
  [[nodiscard]] const LawOption* option(std::string_view k) const;
  [[nodiscard]] bool accepts(Formulations f) const { return (formulations & f) != 0; }
};

/// Every law, section by section.
[[nodiscard]] std::span<const LawInfo> law_registry();
/// The law `name` of `section`, or null.
[[nodiscard]] const LawInfo* find_law(LawSection section, std::string_view name);
/// The law a spec names in `section` (LawError "SECTION.law: must be one of ..." at the `law`
/// key when unknown).
[[nodiscard]] const LawInfo& law_of(LawSection section, const LawSpec& spec);
/// The names of a section's laws, "a|b|c" (only those accepted by `f`).
[[nodiscard]] std::string law_names(LawSection section, Formulations f = kBoth);
/// True for `normal` and `friction`, whose map names its law with `law:`.
[[nodiscard]] bool has_named_laws(LawSection section);

/// Builds the law of `spec` in `section` through its row (LawError on bad parameters).
[[nodiscard]] AnyLaw make_law(LawSection section, const LawSpec& spec, const LawContext& context);

/// Why formulation `f` cannot run `spec` in `section` (its law, one of its keys, or an option
/// value), or an empty error. `key` is "law" or the offending key.
struct FormulationError {
  std::string key;
  std::string message;  ///< "SECTION.KEY: ..." (one line)
  [[nodiscard]] bool empty() const { return message.empty(); }
};
[[nodiscard]] FormulationError formulation_error(LawSection section, const LawSpec& spec,
                                                 Formulations f);

/// The docs table of a law: "| key | meaning | unit | default | range |" rows, keys then options.
[[nodiscard]] std::string markdown_table(const LawInfo& law);
/// The docs table of all laws: "| section | law | formulations | summary |", in registry order.
[[nodiscard]] std::string markdown_summary();
/// Every law as text for `coulomb law --list`: section, name, formulations, keys.
[[nodiscard]] std::string registry_listing();

}  // namespace coulomb
