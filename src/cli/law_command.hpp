#pragma once
/// @file
/// `coulomb law NAME [options]`: tabulates a contact law to CSV on stdout
/// (coulomb/io/law_table.hpp).
#include <CLI/CLI.hpp>

namespace coulomb::cli {

/// Adds the `law` subcommand. Everything after `law` is passed to tabulate_law(); `coulomb law
/// --help` lists the laws. On bad arguments it prints one line to stderr and exits with status 2.
void add_law_command(CLI::App& app);

}  // namespace coulomb::cli
