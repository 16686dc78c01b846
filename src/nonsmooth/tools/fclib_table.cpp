/// @file
/// Prints a CSV table of the solvers on FCLIB files: file, contacts, solver, status, iterations,
/// error, time (one row per file and solver, from r = 0; the error is recomputed from the returned
/// r). Usage:
///   coulomb_fclib_table [--solvers nsgs,prox,auto] [--tolerance T] [--max-iterations N]
///                       [--max-time S] [--check-interval K] [--shuffle SEED] [--omega W] FILE...
/// (used for the tables of docs/nonsmooth-solvers.md).

#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/solver.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  using namespace coulomb;
  SolverOptions options;
  options.tolerance = 1e-8;
  options.max_iterations = 10000;
  options.error_check_interval = 1;
  std::vector<SolverKind> kinds = {SolverKind::nsgs, SolverKind::prox};
  std::vector<std::string> files;
  // Arguments.
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--tolerance" && has_value) {
      options.tolerance = std::atof(argv[++i]);
    } else if (a == "--max-iterations" && has_value) {
      options.max_iterations = std::atoi(argv[++i]);
    } else if (a == "--max-time" && has_value) {
      options.max_time_s = std::atof(argv[++i]);
    } else if (a == "--check-interval" && has_value) {
      options.error_check_interval = std::atoi(argv[++i]);
    } else if (a == "--omega" && has_value) {
      options.over_relaxation = std::atof(argv[++i]);
    } else if (a == "--shuffle" && has_value) {
      options.shuffle = true;
      options.shuffle_seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--solvers" && has_value) {
      kinds.clear();
      std::stringstream ss(argv[++i]);
      std::string name;
      while (std::getline(ss, name, ',')) {
        SolverKind k{};
        if (!parse_solver_kind(name, k)) {
          std::fprintf(stderr, "unknown solver '%s' (nsgs, prox, auto)\n", name.c_str());
          return 2;
        }
        kinds.push_back(k);
      }
    } else {
      files.push_back(a);
    }
  }
  // One row per file and solver, from r = 0.
  std::printf("file,contacts,solver,status,iterations,error,time_s\n");
  for (const std::string& f : files) {
    const ForceProblem p = read_problem<kForce>(f);
    const std::string name = std::filesystem::path(f).filename().string();
    SolverWorkspace<kForce> ws;
    for (const SolverKind kind : kinds) {
      std::vector<Vec3> r, u;
      const SolverResult res = solve(p, r, u, options, ws, kind);
      std::vector<Vec3> u2;
      p.velocity(r, u2);
      std::printf("%s,%d,%s,%s,%d,%.3e,%.4f\n", name.c_str(), p.contact_count, res.method,
                  to_string(res.status), res.iterations, contact_error(p, r, u2), res.time_s);
      std::fflush(stdout);
    }
  }
  return 0;
}
