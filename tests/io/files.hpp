#pragma once
// What the io tests share: a file's bytes.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace coulomb::testing {

/// The whole file at p, as bytes ("" if it cannot be read).
inline std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace coulomb::testing
