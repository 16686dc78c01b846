#pragma once
// `coulomb fclib FILE...`: solves FCLIB local problems and prints one CSV row per file.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace coulomb::cli {

struct FclibArgs {
  std::vector<std::string> files;                             ///< FCLIB HDF5 files
  std::string solver = "auto";                                ///< nsgs, prox or auto
  double tolerance = 1e-8;                                    ///< error tolerance [-]
  double max_time = std::numeric_limits<double>::infinity();  ///< per file [s]
  int max_iterations = 10000;      ///< NSGS sweeps / PROX Newton iterations (each)
  int check_interval = 20;         ///< NSGS: at most this many sweeps between error evaluations
  double over_relaxation = 1.0;    ///< NSGS ω, in (0, 2)
  int anderson_depth = 0;          ///< NSGS: Anderson acceleration depth (0: none)
  bool no_drift_jump = false;      ///< NSGS: plain sweeps, no drift jump
  std::int64_t shuffle_seed = -1;  ///< NSGS shuffled order with this seed (< 0: fixed order)
  int repeat = 1;                  ///< solves per file (benchmarks); time_s is the fastest
};
void add_fclib_command(CLI::App& app, FclibArgs& args);
int run_fclib_command(const FclibArgs& args);

}  // namespace coulomb::cli
