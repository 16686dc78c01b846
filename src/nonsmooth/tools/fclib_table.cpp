/// @file
/// Prints a CSV table of the solvers on FCLIB files: file, contacts, solver, status, iterations,
/// error, time. Usage: coulomb_fclib_table [--tolerance T] [--max-iterations N] [--prox-iterations N]
/// [--prox-max-contacts N] FILE...
/// (used for the table of docs/nonsmooth-solvers.md).

#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/prox.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  using namespace coulomb;
  SolverOptions options;
  options.tolerance = 1e-8;
  options.max_iterations = 10000;
  int prox_iterations = 300;
  int prox_max_contacts = 120;  // dense Newton: larger problems are skipped for PROX
  std::vector<std::string> files;
  // Arguments.
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--tolerance" && i + 1 < argc) {
      options.tolerance = std::atof(argv[++i]);
    } else if (a == "--max-iterations" && i + 1 < argc) {
      options.max_iterations = std::atoi(argv[++i]);
    } else if (a == "--prox-max-contacts" && i + 1 < argc) {
      prox_max_contacts = std::atoi(argv[++i]);
    } else if (a == "--prox-iterations" && i + 1 < argc) {
      prox_iterations = std::atoi(argv[++i]);
    } else {
      files.push_back(a);
    }
  }
  // One row per file and solver, from r = 0.
  std::printf("file,contacts,solver,status,iterations,error,time_s\n");
  for (const std::string& f : files) {
    const ContactProblem p = read_fclib_local(f);
    const std::string name = std::filesystem::path(f).filename().string();
    SolverWorkspace ws;
    for (const SolverKind kind : {SolverKind::nsgs, SolverKind::prox}) {
      if (kind == SolverKind::prox && p.contact_count > prox_max_contacts) {
        std::printf("%s,%d,prox,skipped,0,,\n", name.c_str(), p.contact_count);
        continue;
      }
      std::vector<Vec3> r, u;
      SolverOptions o = options;
      if (kind == SolverKind::prox) o.max_iterations = prox_iterations;
      const SolverResult res = solve(p, r, u, o, ws, kind);
      std::printf("%s,%d,%s,%s,%d,%.3e,%.4f\n", name.c_str(), p.contact_count,
                  kind == SolverKind::nsgs ? "nsgs" : "prox", to_string(res.status),
                  res.iterations, res.error, res.time_s);
      std::fflush(stdout);
    }
  }
  return 0;
}
