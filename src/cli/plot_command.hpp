#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace coulomb::cli {

struct PlotArgs {
  std::string outdir;
  std::string plots;
  std::vector<std::string> metrics;  ///< a sweep's columns to draw
};
void add_plot_command(CLI::App& app, PlotArgs& args);
int run_plot_command(const PlotArgs& args);

}  // namespace coulomb::cli
