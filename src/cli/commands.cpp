// Registration and dispatch of the subcommands other than `run`.
#include "cli/commands.hpp"

#include "cli/fclib_command.hpp"
#include "cli/law_command.hpp"
#include "cli/plot_command.hpp"
#include "cli/sweep_command.hpp"
#include "cli/validate_command.hpp"

namespace coulomb::cli {

namespace {
PlotArgs g_plot_args;  // parsed-argument storage of the program's single App (CLI layer only)
FclibArgs g_fclib_args;
ValidateArgs g_validate_args;
SweepArgs g_sweep_args;
}  // namespace

void add_commands(CLI::App& app) {
  add_law_command(app);
  add_plot_command(app, g_plot_args);
  add_fclib_command(app, g_fclib_args);
  add_validate_command(app, g_validate_args);
  add_sweep_command(app, g_sweep_args);
}

int dispatch(const CLI::App& app) {
  if (app.got_subcommand("plot")) return run_plot_command(g_plot_args);
  if (app.got_subcommand("fclib")) return run_fclib_command(g_fclib_args);
  if (app.got_subcommand("validate")) return run_validate_command(g_validate_args);
  if (app.got_subcommand("sweep")) return run_sweep_command(g_sweep_args);
  return 0;
}

}  // namespace coulomb::cli
