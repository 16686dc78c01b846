// Fuzz target: the arguments of `coulomb law` (tabulate_law) and its range parser (parse_samples)
// on arbitrary bytes. The input is split at NUL bytes into the argument list (law name first); the
// whole input is also given to parse_samples as one range. Both must return or throw
// std::invalid_argument (LawError is one) with a one-line message; anything else (a crash, a
// sanitizer report, a leak, another exception) is a finding.
//
// The arguments are separated by NUL bytes (as argv holds them), so that one may hold anything
// else, line breaks included.
//
// A range may legitimately hold up to 1e7 samples and tabulate_law evaluates the law at each (for
// normal laws, at each pair of --delta and --rate samples): inputs whose ranges hold more than
// kMaxSamples samples are only parsed, not tabulated, so that the time per input stays small.
#include <coulomb/io/law_table.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kMaxSamples = 64;

[[noreturn]] void finding(const char* what, const char* message) {
  std::fprintf(stderr, "law_fuzz: %s: %s\n", what, message);
  std::abort();
}

template <class F>
bool run(const char* what, const F& call) {
  try {
    call();
    return true;
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) finding(what, e.what());
  } catch (const std::exception& e) {
    finding(what, (std::string("undocumented exception: ") + e.what()).c_str());
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  run("parse_samples", [&] { (void)coulomb::parse_samples(text); });

  std::vector<std::string> args;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find('\0', begin), text.size());
    args.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  // Bound the work: every argument that parses as a range holds at most kMaxSamples samples.
  for (const std::string& a : args) {
    std::size_t n = 0;
    if (run("parse_samples", [&] { n = coulomb::parse_samples(a).size(); }) && n > kMaxSamples)
      return 0;
  }
  run("tabulate_law", [&] { (void)coulomb::tabulate_law(args); });
  return 0;
}
