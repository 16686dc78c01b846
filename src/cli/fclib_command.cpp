// `coulomb fclib FILE...`: each FCLIB local problem solved from r = 0 with the chosen solver, one
// CSV row per file on stdout: file,contacts,solver,status,iterations,error,time_s. The error is
// recomputed here from the returned r (u = W r + q, contact_error), independently of the solver's
// own stopping test. With --repeat N each file is solved N times and the fastest time is reported
// (the solves are deterministic, so the other columns are those of every repetition). Every file is
// read before any is solved: a file that cannot be read gives one line on stderr naming it and exit
// status 2, with nothing on stdout.
#include "cli/fclib_command.hpp"

#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <variant>
#include <vector>

namespace coulomb::cli {

void add_fclib_command(CLI::App& app, FclibArgs& args) {
  CLI::App* cmd = app.add_subcommand(
      "fclib", "Solve FCLIB local problems (HDF5) from r = 0; one CSV row per file on stdout");
  cmd->add_option("files", args.files, "FCLIB HDF5 files")->required();
  cmd->add_option("--solver", args.solver, "nsgs, prox or auto (NSGS, PROX when NSGS stalls)")
      ->check(CLI::IsMember({"nsgs", "prox", "auto"}));
  cmd->add_option("--tolerance", args.tolerance, "Error tolerance (default 1e-8)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-time", args.max_time, "Wall-clock limit per file [s] (default none)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-iterations", args.max_iterations,
                  "NSGS sweeps and PROX Newton iterations, each (default 10000)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--check-interval", args.check_interval,
                  "NSGS: at most this many sweeps between error evaluations (default 20)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--over-relaxation", args.over_relaxation, "NSGS relaxation ω (default 1)")
      ->check(CLI::Range(1e-3, 1.999));
  cmd->add_option("--anderson", args.anderson_depth,
                  "NSGS: depth of the Anderson acceleration of the sweeps (default 0: none)")
      ->check(CLI::Range(0, AndersonAcceleration::kMaxDepth));
  cmd->add_flag("--no-drift-jump", args.no_drift_jump,
                "NSGS: no drift jump (plain sweeps where they drift with the error standing)");
  cmd->add_option("--shuffle", args.shuffle_seed,
                  "NSGS: visit the contacts in a shuffled order, seeded (default fixed order)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--repeat", args.repeat,
                  "Solve each file N times from r = 0 and report the fastest time (benchmarks)")
      ->check(CLI::PositiveNumber);
}

int run_fclib_command(const FclibArgs& args) {
  SolverKind kind = SolverKind::automatic;
  if (!parse_solver_kind(args.solver, kind)) {
    fmt::print(stderr, "error: --solver: '{}' is not nsgs, prox or auto\n", args.solver);
    return 2;
  }
  SolverOptions options;
  options.tolerance = args.tolerance;
  options.max_time_s = args.max_time;
  options.max_iterations = args.max_iterations;
  options.error_check_interval = args.check_interval;
  options.over_relaxation = args.over_relaxation;
  options.anderson_depth = args.anderson_depth;
  options.drift_jump = !args.no_drift_jump;
  options.shuffle = args.shuffle_seed >= 0;
  options.shuffle_seed = options.shuffle ? static_cast<std::uint64_t>(args.shuffle_seed) : 0U;

  // Read every file first: a bad one stops the command before any row is printed. A file holds
  // a force problem (/fclib_local, 3 unknowns per contact) or a wrench problem (/fclib_local6).
  using AnyProblem = std::variant<ForceProblem, WrenchProblem>;
  std::vector<AnyProblem> problems;
  problems.reserve(args.files.size());
  for (const std::string& file : args.files) {
    try {
      if (fclib_unknowns(file) == kWrench) {
        problems.emplace_back(read_problem<kWrench>(file));
        if (!solver_supports(kind, kWrench)) {
          throw std::invalid_argument(fmt::format(
              "holds a problem with moments (6 unknowns per contact), which --solver {} does not "
              "solve; use nsgs or auto",
              args.solver));
        }
      } else {
        problems.emplace_back(read_problem<kForce>(file));
      }
      std::visit([](const auto& p) { p.validate_structure(); }, problems.back());
    } catch (const std::exception& e) {
      // One line that names the file (the reader's messages usually do already).
      const std::string what = e.what();
      if (what.find(file) != std::string::npos) {
        fmt::print(stderr, "error: {}\n", what);
      } else {
        fmt::print(stderr, "error: {}: {}\n", file, what);
      }
      return 2;
    }
  }

  // Solve each from r = 0; the error is recomputed from the returned r.
  fmt::print("file,contacts,solver,status,iterations,error,time_s\n");
  SolverWorkspace<kForce> force_workspace;
  SolverWorkspace<kWrench> wrench_workspace;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    std::visit(
        [&](const auto& p) {
          constexpr int N = std::decay_t<decltype(p)>::kUnknowns;
          auto& workspace = [&]() -> SolverWorkspace<N>& {
            if constexpr (N == kForce) {
              return force_workspace;
            } else {
              return wrench_workspace;
            }
          }();
          std::vector<VecN<N>> r, u, u_check;
          SolverResult res;
          double fastest = 0.0;
          for (int k = 0; k < args.repeat; ++k) {
            r.assign(static_cast<std::size_t>(p.contact_count), VecN<N>::Zero());
            res = solve(p, r, u, options, workspace, kind);
            fastest = k == 0 ? res.time_s : std::min(fastest, res.time_s);
          }
          res.time_s = fastest;
          p.velocity(r, u_check);
          const double error = contact_error(p, r, u_check);
          fmt::print("{},{},{},{},{},{:.3e},{:.6f}\n", args.files[i], p.contact_count, res.method,
                     to_string(res.status), res.iterations, error, res.time_s);
        },
        problems[i]);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace coulomb::cli
