#include "laws/params.hpp"

#include <fmt/format.h>

#include <cmath>

namespace coulomb::detail {

Params::Params(const LawSpec& spec, std::string section)
    : spec_(spec), section_(std::move(section)) {}

bool Params::has(const std::string& key) const { return spec_.params.count(key) != 0; }

LawError Params::error(const std::string& key, const std::string& what) const {
  auto it = spec_.marks.find(key);
  const SourceMark mark = it == spec_.marks.end() ? SourceMark{} : it->second;
  const std::string full = key.empty() ? section_ : section_ + "." + key;
  return LawError(full, fmt::format("{}: {}", full, what), mark);
}

// Validates lo ≤ x ≤ hi with a message naming the range.
static std::string range_text(double lo, double hi, bool open_lo) {
  const char* lo_op = open_lo ? ">" : "≥";
  if (std::isinf(hi)) return fmt::format("must be {} {}", lo_op, lo);
  if (std::isinf(lo)) return fmt::format("must be ≤ {}", hi);
  return fmt::format("must be in {}{}, {}]", open_lo ? "(" : "[", lo, hi);
}

double Params::number(const std::string& key, double fallback, double lo, double hi, bool open_lo) {
  used_.insert(key);
  if (spec_.options.count(key) != 0) {
    throw error(key, fmt::format("must be a number, got '{}'", spec_.options.at(key)));
  }
  auto it = spec_.params.find(key);
  if (it == spec_.params.end()) return fallback;
  const double x = it->second;
  const bool ok = std::isfinite(x) && (open_lo ? x > lo : x >= lo) && x <= hi;
  if (!ok) throw error(key, fmt::format("{}, got {}", range_text(lo, hi, open_lo), x));
  return x;
}

double Params::required(const std::string& key, double lo, double hi, bool open_lo) {
  if (!has(key)) {
    throw error(key,
                fmt::format("required for law '{}' ({})", spec_.law, range_text(lo, hi, open_lo)));
  }
  return number(key, 0.0, lo, hi, open_lo);
}

std::string Params::option(const std::string& key, const std::string& fallback,
                           std::initializer_list<const char*> allowed) {
  used_.insert(key);
  auto it = spec_.options.find(key);
  if (it == spec_.options.end()) {
    if (has(key)) throw error(key, "must be one of the names listed in docs/laws.md, got a number");
    return fallback;
  }
  std::string list;
  for (const char* a : allowed) {
    if (it->second == a) return it->second;
    list += list.empty() ? a : fmt::format("|{}", a);
  }
  throw error(key, fmt::format("must be one of {}, got '{}'", list, it->second));
}

void Params::finish() const {
  for (const auto& [key, value] : spec_.params) {
    if (used_.count(key) == 0)
      throw error(key, fmt::format("not a parameter of law '{}'", spec_.law));
  }
  for (const auto& [key, value] : spec_.options) {
    if (key == "law") continue;
    if (used_.count(key) == 0)
      throw error(key, fmt::format("not a parameter of law '{}'", spec_.law));
  }
}

}  // namespace coulomb::detail
