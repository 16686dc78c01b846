#pragma once
// Internal to the laws module: what the Coulomb–Contensou sources share (π and the setup-time
// check of a constant).
#include <cmath>
#include <stdexcept>
#include <string>

namespace coulomb::contensou::detail {

inline constexpr double kPi = 3.141592653589793238462643383279502884;
inline constexpr double kHalfPi = 0.5 * kPi;

// Setup-time check of one constant: finite and above its bound.
inline void require(const char* what, double value, double lower, bool strict) {
  const bool ok = std::isfinite(value) && (strict ? value > lower : value >= lower);
  if (!ok)
    throw std::invalid_argument(std::string(what) + ": must be " + (strict ? "> " : ">= ") +
                                std::to_string(lower) + " and finite, got " +
                                std::to_string(value));
}

}  // namespace coulomb::contensou::detail
