#pragma once
/// @file
/// The plain values a contact law is built from: a law chosen by name with its parameters as
/// written in a scene file (LawSpec, with the SourceMark of every key for errors), the materials
/// of the two bodies (Material: E, ν, ρ), and the kinds of energy a law dissipates (EnergyKind).
/// They live in the laws module, below the model (docs/architecture.md): the model holds them,
/// the laws build themselves from them.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>

namespace coulomb {

/// The law sections of a contact, in the order of a `contacts:` entry.
enum class LawSection : std::uint8_t {
  normal,
  friction,
  rolling,
  pivoting,
  soft_finger,
  contensou,
  rolling_resistance,
  count
};
inline constexpr std::size_t kLawSectionCount = static_cast<std::size_t>(LawSection::count);

/// Where a value came from in a scene file (1-based line and column; 0 = not from a file).
struct SourceMark {
  int line = 0;
  int column = 0;
};

/// A material: a name and optional physical properties (NaN = not given).
struct Material {
  std::string name;
  double young_modulus = std::numeric_limits<double>::quiet_NaN();  ///< E [Pa]
  double poisson_ratio = std::numeric_limits<double>::quiet_NaN();  ///< ν [-]
  double density = std::numeric_limits<double>::quiet_NaN();        ///< ρ [kg/m³]
};

/// A law chosen by name with its parameters, as written in a scene file, e.g.
/// `friction: {law: coulomb, mu: 0.2}`. The law registry (coulomb/laws/registry.hpp) turns it
/// into a validated law object; `marks` lets errors point back at the file.
struct LawSpec {
  std::string law;                             ///< e.g. "signorini", "coulomb"
  std::map<std::string, double> params;        ///< numeric parameters by key
  std::map<std::string, std::string> options;  ///< string parameters by key (e.g. model: exact)
  std::map<std::string, SourceMark> marks;  ///< key -> where it was written ("" = the map itself)

  [[nodiscard]] double get(const std::string& key, double fallback) const {
    auto it = params.find(key);
    return it == params.end() ? fallback : it->second;
  }
  [[nodiscard]] bool has(const std::string& key) const { return params.count(key) != 0; }
};

/// The kinds of energy the contacts and the position stage remove, in the order of
/// State::dissipated_by_kind and of the columns of energy.csv.
enum class EnergyKind : std::uint8_t {
  normal,      ///< work of the normal impulses (impacts)
  friction,    ///< work of the tangential impulses
  rolling,     ///< work of the rolling moments
  pivoting,    ///< work of the pivoting moments
  correction,  ///< minus the energy the position correction adds (docs/nonsmooth.md)
  count
};
inline constexpr std::size_t kEnergyKindCount = static_cast<std::size_t>(EnergyKind::count);
/// Names of the kinds (energy.csv columns "dissipated_<name>", summary.json keys).
inline constexpr std::array<const char*, kEnergyKindCount> kEnergyKindNames = {
    "normal", "friction", "rolling", "pivoting", "correction"};

}  // namespace coulomb
