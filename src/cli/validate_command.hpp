#pragma once
// `coulomb validate [--quick] [--out DIR] [--case NAME...]`: reruns the reference cases
// (coulomb/validate/validate.hpp) and writes report.md and report.json.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace coulomb::cli {

struct ValidateArgs {
  bool quick = false;              ///< the short form (CI)
  std::string out;                 ///< report folder (default: coulomb-out/validation)
  std::vector<std::string> cases;  ///< empty: all
  bool list = false;               ///< list the cases and exit
  bool quiet = false;              ///< no per-case lines
};
void add_validate_command(CLI::App& app, ValidateArgs& args);
/// Exit status: 0 if every case passes, 1 if one fails (2 for bad arguments, by the caller).
int run_validate_command(const ValidateArgs& args);

}  // namespace coulomb::cli
