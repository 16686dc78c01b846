// Registration of the subcommands other than `run`.
#include "cli/commands.hpp"

namespace coulomb::cli {

void add_commands(CLI::App& /*app*/) {}

int dispatch(const CLI::App& /*app*/) { return 0; }

}  // namespace coulomb::cli
