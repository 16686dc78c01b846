#pragma once
// The regression inputs of the fuzz targets, tests/data/fuzz/TARGET/: every input a fuzzer found
// to fail, NAME, with NAME.expect holding the one-line message reading it must now give. The
// module tests replay them through the normal build (tests/data/fuzz/README.md); the same inputs
// are in the fuzz corpora (tests/fuzz/corpus/TARGET/).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace coulomb::testing {

struct FuzzRegression {
  std::string path;    ///< the input file
  std::string bytes;   ///< its content
  std::string expect;  ///< the first line of NAME.expect
};

inline std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::vector<FuzzRegression> fuzz_regressions(const std::string& target) {
  namespace fs = std::filesystem;
  std::vector<FuzzRegression> out;
  const fs::path dir = fs::path(COULOMB_SOURCE_DIR) / "tests" / "data" / "fuzz" / target;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".expect") continue;
    fs::path expect = e.path();
    expect += ".expect";
    EXPECT_TRUE(fs::exists(expect)) << e.path() << " has no .expect";
    std::string first = read_bytes(expect);
    first = first.substr(0, first.find('\n'));
    out.push_back({e.path().string(), read_bytes(e.path()), first});
  }
  std::sort(out.begin(), out.end(),
            [](const FuzzRegression& a, const FuzzRegression& b) { return a.path < b.path; });
  EXPECT_FALSE(out.empty()) << "no regression inputs in " << dir;
  return out;
}

}  // namespace coulomb::testing
