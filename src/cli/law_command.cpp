#include "cli/law_command.hpp"

#include <coulomb/io/law_table.hpp>
#include <coulomb/laws/registry.hpp>

#include <fmt/format.h>
#include <cstdio>
#include <cstdlib>

namespace coulomb::cli {

void add_law_command(CLI::App& app) {
  CLI::App* law = app.add_subcommand(
      "law", "Tabulate a contact law to CSV (stdout); --list: every law and its keys");
  law->footer(law_table_help());
  // Everything after `law` (the law's name and its --key value options) goes to tabulate_law.
  law->prefix_command();
  law->allow_extras();
  law->callback([law]() {
    std::vector<std::string> args = law->remaining();
    // The registry: every law, its keys and formulations (--list), or the docs tables
    // (--markdown: the key tables of docs/laws.md, generated from the same rows).
    if (args.size() == 1 && (args[0] == "--list" || args[0] == "--markdown")) {
      std::string text;
      if (args[0] == "--list") {
        text = registry_listing();
      } else {
        text = fmt::format("<!-- registry.summary -->\n{}\n", markdown_summary());
        for (const LawInfo& info : law_registry()) {
          if (info.keys.empty() && info.options.empty()) continue;
          text += fmt::format("<!-- {}.{} -->\n{}\n", section_name(info.section), info.name,
                              markdown_table(info));
        }
      }
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
      return;
    }
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
