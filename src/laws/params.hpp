#pragma once
/// @file
/// Reading and validating the parameters of one LawSpec (private to the laws module). The range,
/// default and allowed values of every key come from the law's row of the registry
/// (coulomb/laws/registry.hpp); every check throws LawError("SECTION.KEY: must be ..., got VALUE")
/// carrying the key's SourceMark.

#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/law.hpp>
#include <coulomb/laws/registry.hpp>

#include <set>
#include <string>

namespace coulomb::detail {

class Params {
 public:
  /// The spec of a law of `section`; its row is looked up by `spec.law` (one-law sections: the
  /// section's law whatever spec.law says).
  Params(const LawSpec& spec, LawSection section);

  /// True when the numeric key was given.
  [[nodiscard]] bool has(const std::string& key) const;
  /// The key's value, checked against its row's range; the row's default if absent.
  double number(const std::string& key);
  /// The same with a default computed by the law (e.g. mu_s defaults to mu).
  double number(const std::string& key, double fallback);
  /// A number that must be given.
  double required(const std::string& key);
  /// A string option among its row's values; the row's default (compliant) if absent.
  std::string option(const std::string& key);
  /// Throws for keys that were never read (misspelt or not a parameter of this law).
  void finish() const;
  /// A LawError for `key` (section-qualified) with `what` appended to "SECTION.KEY: ".
  [[nodiscard]] LawError error(const std::string& key, const std::string& what) const;
  /// The law's row.
  [[nodiscard]] const LawInfo& info() const { return info_; }

 private:
  const LawKey& row(const std::string& key) const;

  const LawSpec& spec_;
  const LawInfo& info_;
  std::string section_;
  std::set<std::string> used_;
};

/// E* [Pa] from a normal-law map and two materials (Hertz, Hunt–Crossley): `young_modulus` and
/// `poisson_ratio` in the map override both materials. Throws LawError naming what is missing.
double read_effective_modulus(Params& p, const Material& m1, const Material& m2);

/// `stiffness` from the map, else E* by read_effective_modulus (Hertz, Hunt–Crossley, Tsuji).
HertzStiffness read_hertz_stiffness(Params& p, const Material& m1, const Material& m2);

}  // namespace coulomb::detail
