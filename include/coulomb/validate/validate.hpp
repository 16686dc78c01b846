#pragma once
/// @file
/// Validation: the reference cases of coulomb rerun on demand (`coulomb validate`,
/// `coulomb.validate()` in Python), each compared with a closed form, a published number or a
/// peer's output, with a stated tolerance and the reason for it. See docs/validation.md.
///
/// A case is one entry of a registry (validation_cases()): a name, a one-line description, the
/// scene it runs (a file under scenes/validation/, embedded in the library at build time, or
/// "-" for a case that evaluates laws only) and a function that runs it and returns its checks.
/// Adding a case is writing that function (in the src/validate/cases_*.cpp of its topic) and adding
/// one entry to the table in src/validate/cases.cpp.
///
/// Every check reports the measured value, the reference value, the error (absolute or relative,
/// as the check says), the tolerance and why that tolerance. A case passes when all its checks do.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace coulomb::validate {

/// One compared quantity.
struct Check {
  std::string quantity;   ///< what is measured, with its unit ("final speed [m/s]")
  std::string reference;  ///< where the reference comes from ("(5 v0 + 2 R w0)/7, closed form")
  double measured = 0.0;
  double expected = 0.0;
  double error = 0.0;  ///< |measured − expected| (absolute) or divided by |expected| (relative)
  bool relative = false;   ///< error is relative
  double tolerance = 0.0;  ///< pass: error ≤ tolerance
  std::string reason;      ///< why that tolerance
  bool passed = false;
};

/// Builds a check; error and passed are computed from the values (a non-finite error fails).
[[nodiscard]] Check make_check(std::string quantity, std::string reference, double measured,
                               double expected, bool relative, double tolerance,
                               std::string reason);

/// What a case function is given.
struct CaseContext {
  bool quick = false;  ///< the short form for CI (shorter runs where the case allows)
};

/// The result of one case.
struct CaseResult {
  std::string name;
  std::string description;
  std::string scene;  ///< scene file (relative to the repository) or "-"
  std::vector<Check> checks;
  bool passed = false;       ///< all checks passed (and there is at least one)
  std::string error;         ///< an exception's message if the case could not run (then failed)
  double wall_time_s = 0.0;  ///< [s]
};

/// A registered case.
struct Case {
  std::string name;         ///< kebab-case identifier (`--case NAME`)
  std::string description;  ///< one line
  std::string scene;        ///< scenes/validation/NAME.yaml, or "-" for a law-only case
  std::function<std::vector<Check>(const CaseContext&)> run;
};

/// The registry, in report order.
[[nodiscard]] const std::vector<Case>& validation_cases();

/// The text of an embedded validation scene by file name ("billiard.yaml"); throws
/// std::invalid_argument listing the valid names.
[[nodiscard]] std::string_view validation_scene_text(std::string_view file);

/// The Siconos BouncingBallTS reference output
/// (tests/data/siconos-bouncing-ball/BouncingBallTS.ref), embedded at build time.
[[nodiscard]] std::string_view siconos_bouncing_ball_reference();

/// A validation run: all cases, or those named.
struct Options {
  bool quick = false;
  std::vector<std::string> cases;  ///< empty: all; unknown names throw std::invalid_argument
  /// Called before each case with its name (progress).
  std::function<void(const std::string&)> on_case;
};

struct Report {
  bool quick = false;
  bool passed = false;  ///< every case passed
  std::vector<CaseResult> cases;
  double wall_time_s = 0.0;  ///< [s]
};

/// Runs the selected cases. Exceptions from a case are caught and recorded as its failure;
/// std::invalid_argument is thrown only for an unknown case name.
[[nodiscard]] Report run(const Options& options);

/// The report as Markdown (a summary table, then every check of every case with its reason).
[[nodiscard]] std::string report_markdown(const Report& report);

/// The report as JSON text: {"quick", "passed", "wall_time_s", "cases": [{"name", "description",
/// "scene", "passed", "error", "wall_time_s", "checks": [{"quantity", "reference", "measured",
/// "expected", "error", "relative", "tolerance", "reason", "passed"}]}]}.
[[nodiscard]] std::string report_json(const Report& report);

/// Writes report.md and report.json into `directory` (created if needed). Throws
/// std::runtime_error if a file cannot be written.
void write_report(const Report& report, const std::string& directory);

}  // namespace coulomb::validate
