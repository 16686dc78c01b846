#pragma once
// `coulomb sweep SCENE --set KEY=SPEC ... --out DIR`: parameter studies (docs/sweeps.md).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <coulomb/sweep/sweep.hpp>

namespace coulomb::cli {

struct SweepArgs {
  std::string scene;
  std::vector<std::string> sets;
  std::vector<std::string> metrics;
  std::int64_t samples = 0;
  std::uint64_t seed = 0;
  std::string combine = "grid";
  bool summary_only = false;
  std::string out;
  int jobs = 0;
  double checkpoint_every = 0.0;
  bool quiet = false;
  bool list = false;
  std::int64_t show_variant = -1;
};
void add_sweep_command(CLI::App& app, SweepArgs& args);
int run_sweep_command(const SweepArgs& args);

/// The sweep over MPI (sweep_mpi.cpp; only when built with MPI): rank 0 hands out variant ids on
/// request and gathers the rows. Returns the exit status. `prepared` is false on ranks > 0 until
/// rank 0 has validated the sweep and prepared DIR.
int run_sweep_mpi(const coulomb::sweep::SweepSpec& spec, const std::string& dir, bool quiet);
/// Whether this process was started by mpirun/mpiexec (OpenMPI, MPICH, Slurm's PMI).
bool launched_by_mpi();

}  // namespace coulomb::cli
