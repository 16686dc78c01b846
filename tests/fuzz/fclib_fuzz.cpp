// Fuzz target: the FCLIB readers on arbitrary bytes. HDF5 reads files, so the bytes are written to
// one temporary file per process, then every reader runs on it. Each must return or throw
// std::runtime_error / std::invalid_argument (coulomb/nonsmooth/fclib_io.hpp) with a one-line
// message; a problem it returns must pass validate_structure(). Anything else (a crash, a
// sanitizer report, a leak, another exception) is a finding.
#include <coulomb/nonsmooth/fclib_io.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace {

// The temporary file of this process, removed at exit.
struct TempFile {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("coulomb-fclib-fuzz-" + std::to_string(::getpid()) + ".hdf5"))
                         .string();
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

const std::string& temp_file() {
  static const TempFile file;
  return file.path;
}

[[noreturn]] void finding(const char* what, const char* message) {
  std::fprintf(stderr, "fclib_fuzz: %s: %s\n", what, message);
  std::abort();
}

template <class F>
void run(const char* what, const F& read) {
  try {
    read();
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) finding(what, e.what());
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) finding(what, e.what());
  } catch (const std::exception& e) {
    finding(what, (std::string("undocumented exception: ") + e.what()).c_str());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coulomb;
  const std::string& path = temp_file();
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) finding("setup", "cannot write the temporary file");
    if (size > 0 && std::fwrite(data, 1, size, f) != size) finding("setup", "short write");
    std::fclose(f);
  }
  run("fclib_unknowns", [&] { (void)fclib_unknowns(path); });
  run("read_problem<kForce>", [&] { read_problem<kForce>(path).validate_structure(); });
  run("read_problem<kWrench>", [&] { read_problem<kWrench>(path).validate_structure(); });
  run("read_solution<kForce>", [&] { (void)read_solution<kForce>(path); });
  run("read_solution<kWrench>", [&] { (void)read_solution<kWrench>(path); });
  return 0;
}
