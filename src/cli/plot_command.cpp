// `coulomb plot OUTDIR`: PNG figures of a run, drawn by the Python module (coulomb.plot,
// matplotlib).
#include "cli/plot_command.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <vector>

namespace coulomb::cli {

namespace fs = std::filesystem;

namespace {

// The folder holding the `coulomb` Python package: next to the build tree's binary, or installed.
std::string python_package_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path dir = exe.parent_path();
  for (const fs::path& candidate :
       {dir / ".." / ".." / "python", dir / ".." / "lib" / "python3" / "dist-packages"}) {
    if (fs::exists(candidate / "coulomb" / "plot.py"))
      return fs::weakly_canonical(candidate).string();
  }
  return {};
}

}  // namespace

void add_plot_command(CLI::App& app, PlotArgs& args) {
  CLI::App* cmd =
      app.add_subcommand("plot", "Write PNG figures of a run's outputs (needs python3-matplotlib)");
  cmd->add_option("outdir", args.outdir,
                  "Folder written by `coulomb run`, or by `coulomb sweep` (then each metric over "
                  "the parameters that vary: lines over one, a heat map over two)")
      ->required();
  cmd->add_option("--out", args.plots, "Folder for the figures (default: OUTDIR/plots)");
  cmd->add_option("--metric", args.metrics, "A sweep's column to draw (default: every metric)");
}

int run_plot_command(const PlotArgs& args) {
  const std::string package = python_package_dir();
  if (package.empty())
    throw std::runtime_error(
        "plot: the coulomb Python package was not found next to this program (build it with "
        "pybind11-dev)");
  const char* env_python = std::getenv("COULOMB_PYTHON");
  const std::string python =
      env_python ? env_python : (fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3");
  std::vector<std::string> argv_s = {python, "-m", "coulomb.plot", args.outdir};
  if (!args.plots.empty()) {
    argv_s.push_back("--out");
    argv_s.push_back(args.plots);
  }
  for (const std::string& m : args.metrics) {
    argv_s.push_back("--metric");
    argv_s.push_back(m);
  }
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("plot: cannot start python");
  if (pid == 0) {
    const char* old = std::getenv("PYTHONPATH");
    const std::string path = old && *old ? package + ":" + old : package;
    setenv("PYTHONPATH", path.c_str(), 1);
    std::vector<char*> argv;
    for (auto& s : argv_s) argv.push_back(s.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    fmt::print(stderr, "error: plot: cannot run {}\n", python);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace coulomb::cli
