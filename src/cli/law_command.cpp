#include "cli/law_command.hpp"

#include <coulomb/laws/law_table.hpp>

#include <fmt/format.h>
#include <cstdio>
#include <cstdlib>

namespace coulomb::cli {

void add_law_command(CLI::App& app) {
  CLI::App* law = app.add_subcommand("law", "Tabulate a contact law to CSV (stdout)");
  law->footer(law_table_help());
  // Everything after `law` (the law's name and its --key value options) goes to tabulate_law.
  law->prefix_command();
  law->allow_extras();
  law->callback([law]() {
    std::vector<std::string> args = law->remaining();
    try {
      const std::string csv = tabulate_law(args);
      std::fwrite(csv.data(), 1, csv.size(), stdout);
      std::fflush(stdout);
    } catch (const std::exception& e) {
      fmt::print(stderr, "coulomb law: {}\n", e.what());
      std::fflush(stderr);
      std::exit(2);
    }
  });
}

}  // namespace coulomb::cli
