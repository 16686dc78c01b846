#pragma once
/// @file
/// Reading and validating the parameters of one LawSpec (private to the laws module). Every check
/// throws LawError("SECTION.KEY: must be ..., got VALUE") carrying the key's SourceMark.

#include <coulomb/laws/law.hpp>

#include <initializer_list>
#include <set>
#include <string>

namespace coulomb::detail {

class Params {
 public:
  /// `section` is the scene key of the law's map: normal, friction, rolling, ...
  Params(const LawSpec& spec, std::string section);

  /// True when the numeric key was given.
  [[nodiscard]] bool has(const std::string& key) const;
  /// A number that must satisfy lo ≤ x ≤ hi (bounds inclusive unless open_lo); `fallback` if
  /// absent.
  double number(const std::string& key, double fallback, double lo, double hi,
                bool open_lo = false);
  /// A number that must be given.
  double required(const std::string& key, double lo, double hi, bool open_lo = false);
  /// A string option among `allowed`; `fallback` if absent.
  std::string option(const std::string& key, const std::string& fallback,
                     std::initializer_list<const char*> allowed);
  /// Throws for keys that were never read (misspelt or not a parameter of this law).
  void finish() const;
  /// A LawError for `key` (section-qualified) with `what` appended to "SECTION.KEY: ".
  [[nodiscard]] LawError error(const std::string& key, const std::string& what) const;

 private:
  const LawSpec& spec_;
  std::string section_;
  std::set<std::string> used_;
};

/// E* [Pa] from a normal-law map and two materials (Hertz, Hunt–Crossley): `young_modulus` and
/// `poisson_ratio` in the map override both materials. Throws LawError naming what is missing.
double read_effective_modulus(Params& p, const Material& m1, const Material& m2);

}  // namespace coulomb::detail
