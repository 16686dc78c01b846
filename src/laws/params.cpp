#include "laws/params.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace coulomb::detail {

namespace {
const LawInfo& row_of(const LawSpec& spec, LawSection section) {
  if (has_named_laws(section)) return law_of(section, spec);
  for (const LawInfo& info : law_registry())
    if (info.section == section) return info;
  throw std::logic_error("law registry: no law for a section");
}
}  // namespace

Params::Params(const LawSpec& spec, LawSection section)
    : spec_(spec), info_(row_of(spec, section)), section_(section_name(section)) {}

bool Params::has(const std::string& key) const { return spec_.params.count(key) != 0; }

LawError Params::error(const std::string& key, const std::string& what) const {
  auto it = spec_.marks.find(key);
  const SourceMark mark = it == spec_.marks.end() ? SourceMark{} : it->second;
  const std::string full = key.empty() ? section_ : section_ + "." + key;
  return LawError(full, fmt::format("{}: {}", full, what), mark);
}

const LawKey& Params::row(const std::string& key) const {
  const LawKey* k = info_.key(key);
  // A key the law reads but its registry row does not list: a programming error
  // (tests/laws/registry_test.cpp builds every law).
  if (k == nullptr)
    throw std::logic_error(
        fmt::format("law registry: {} '{}' reads key '{}' that its row does not list", section_,
                    info_.name, key));
  return *k;
}

double Params::number(const std::string& key) { return number(key, row(key).fallback); }

double Params::number(const std::string& key, double fallback) {
  const LawKey& k = row(key);
  used_.insert(key);
  if (spec_.options.count(key) != 0) {
    throw error(key, fmt::format("must be a number, got '{}'", spec_.options.at(key)));
  }
  auto it = spec_.params.find(key);
  if (it == spec_.params.end()) return fallback;
  const double x = it->second;
  if (!k.accepts(x)) throw error(key, fmt::format("must be {}, got {}", k.requirement(), x));
  return x;
}

double Params::required(const std::string& key) {
  const LawKey& k = row(key);
  if (!has(key)) {
    throw error(key,
                fmt::format("required for law '{}' (must be {})", info_.name, k.requirement()));
  }
  return number(key);
}

std::string Params::option(const std::string& key) {
  const LawOption* o = info_.option(key);
  if (o == nullptr)
    throw std::logic_error(
        fmt::format("law registry: {} '{}' reads option '{}' that its row "
                    "does not list",
                    section_, info_.name, key));
  used_.insert(key);
  auto it = spec_.options.find(key);
  if (it == spec_.options.end()) {
    if (has(key))
      throw error(key, fmt::format("must be one of {}, got a number", o->values_text()));
    return std::string(o->fallback);
  }
  if (o->find(it->second) == nullptr)
    throw error(key, fmt::format("must be one of {}, got '{}'", o->values_text(), it->second));
  return it->second;
}

void Params::finish() const {
  auto unknown = [&](const std::string& key) {
    std::string valid;
    for (const LawKey& k : info_.keys)
      valid += fmt::format("{}{}", valid.empty() ? "" : ", ", k.key);
    for (const LawOption& o : info_.options)
      valid += fmt::format("{}{}", valid.empty() ? "" : ", ", o.key);
    return error(key, fmt::format("not a parameter of law '{}' (its keys: {})", info_.name,
                                  valid.empty() ? "none" : valid));
  };
  for (const auto& [key, value] : spec_.params)
    if (used_.count(key) == 0) throw unknown(key);
  for (const auto& [key, value] : spec_.options) {
    if (key == "law") continue;
    if (used_.count(key) == 0) throw unknown(key);
  }
}

}  // namespace coulomb::detail
