#pragma once
/// @file
/// One-line error messages.

#include <string>
#include <string_view>

namespace coulomb {

/// `text` with every control character (bytes below 0x20 and 0x7F, line breaks included) written
/// as an escape (\n, \r, \t, \xNN); other bytes unchanged. Error messages quote their input (a
/// scene's scalar, a command-line argument) and must stay one line whatever that input holds.
[[nodiscard]] std::string one_line(std::string_view text);

}  // namespace coulomb
