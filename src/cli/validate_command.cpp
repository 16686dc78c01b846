// `coulomb validate`: runs the validation cases, prints one line per case, writes the report.
#include "cli/validate_command.hpp"

#include <coulomb/validate/validate.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

namespace coulomb::cli {

void add_validate_command(CLI::App& app, ValidateArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "validate", "Rerun the validation cases against closed forms, published numbers and peers");
  cmd->add_flag("--quick", args.quick, "Short form for CI (shorter runs where a case allows)");
  cmd->add_option("--out", args.out, "Report folder (default: coulomb-out/validation)");
  cmd->add_option("--case", args.cases, "Run only these cases (repeatable; see --list)");
  cmd->add_flag("--list", args.list, "List the cases and exit");
  cmd->add_flag("--quiet,-q", args.quiet, "Only the summary line");
}

int run_validate_command(const ValidateArgs& args) {
  // --list: name, scene and description of every case.
  if (args.list) {
    for (const validate::Case& c : validate::validation_cases())
      fmt::print("{:<24} {:<44} {}\n", c.name, c.scene, c.description);
    return 0;
  }
  validate::Options options;
  options.quick = args.quick;
  options.cases = args.cases;
  const validate::Report report = validate::run(options);

  // One line per case, then where the report is.
  const std::string out =
      args.out.empty() ? (std::filesystem::path("coulomb-out") / "validation").string() : args.out;
  validate::write_report(report, out);
  int passed = 0;
  for (const validate::CaseResult& r : report.cases) {
    passed += r.passed ? 1 : 0;
    if (args.quiet) continue;
    fmt::print("{:<4} {:<24} {:6.2f} s  {}\n", r.passed ? "PASS" : "FAIL", r.name, r.wall_time_s,
               r.error.empty() ? "" : r.error);
    for (const validate::Check& c : r.checks) {
      if (c.passed) continue;
      fmt::print("       {}: measured {:.10g}, expected {:.10g}, error {:.3g} > tolerance {:.3g}\n",
                 c.quantity, c.measured, c.expected, c.error, c.tolerance);
    }
  }
  fmt::print("validation: {} of {} cases pass{} in {:.1f} s; report: {}/report.md, report.json\n",
             passed, report.cases.size(), report.quick ? " (quick)" : "", report.wall_time_s, out);
  std::fflush(stdout);
  return report.passed ? 0 : 1;
}

}  // namespace coulomb::cli
