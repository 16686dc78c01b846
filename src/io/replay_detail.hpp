#pragma once
// Internal to the io module (src/io/replay.cpp), exposed to its tests: the encoders replay.html's
// data elements are written with.
#include <string>
#include <string_view>
#include <vector>

namespace coulomb::replay_detail {

/// Base64 (RFC 4648, with padding) of raw bytes.
[[nodiscard]] std::string base64(std::string_view bytes);
/// Little-endian bytes of floats.
[[nodiscard]] std::string le_bytes(const std::vector<float>& values);

}  // namespace coulomb::replay_detail
