#pragma once
// Subcommands other than `run`, each in its own file: registration and dispatch.
#include <CLI/CLI.hpp>

namespace coulomb::cli {

/// Registers the subcommands (law, ...) on `app`.
void add_commands(CLI::App& app);
/// Runs the subcommand that was parsed; returns the exit status.
int dispatch(const CLI::App& app);

}  // namespace coulomb::cli
