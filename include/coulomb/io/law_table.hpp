#pragma once
/// @file
/// Tabulation of a law to CSV, for plotting and comparison (`coulomb law NAME [options]`).
///
///   tabulate_law({"stribeck", "--mu-s", "0.5", "--mu-k", "0.3", "--vs", "0.01", "--v",
///   "0:0.1:0.001"})
///     → "v,mu\n0,0.5\n..."
///   tabulate_law({"contensou", "--model", "exact", "--pressure", "hertz", "--eps", "0:10:0.01"})
///     → "eps,F,m\n..." (dimensionless, a = 1)
///
/// Options are `--key value`; the key is the law's scene-file key with '-' for '_' (`--mu-s` is
/// `mu_s`), so the same validation and messages apply. The sampled variable takes a range
/// `start:stop:step` (stop included within round-off, 1e-9 steps) or a comma list. Numbers are
/// printed with 17 significant digits. The laws and their columns are listed by law_table_help().

#include <string>
#include <vector>

namespace coulomb {

/// The CSV text (header then rows). Throws std::invalid_argument (LawError for law parameters)
/// with a one-line message for bad arguments.
[[nodiscard]] std::string tabulate_law(const std::vector<std::string>& args);

/// The list of tabulated laws with their options and columns (for `coulomb law --help`).
[[nodiscard]] std::string law_table_help();

/// Parses `start:stop:step` (inclusive of stop within 1e-9 step) or a comma list of numbers.
[[nodiscard]] std::vector<double> parse_samples(const std::string& text);

}  // namespace coulomb
