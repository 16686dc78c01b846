// The output folder of a run: a working folder beside it, put in its place at the end (see
// coulomb/io/output_folder.hpp).
#include <coulomb/io/checkpoint.hpp>
#include <coulomb/io/output_folder.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <fcntl.h>
#include <stdio.h>  // renameat2
#include <unistd.h>

namespace coulomb {

namespace fs = std::filesystem;

const std::vector<std::string>& output_file_names() {
  // (joints.csv, driven.csv, wear.csv: scenes with joints, with driven bodies, with dis_choc)
  static const std::vector<std::string> names = {
      "trajectory.csv", "contacts.csv", "energy.csv",   "solver.csv",  "joints.csv",
      "driven.csv",     "wear.csv",     "summary.json", "replay.html", kCheckpointFileName};
  return names;
}

namespace {

// A name coulomb writes into an output folder: its files, the temporary names of earlier
// versions (NAME.partial) and of the replay (replay.html.tmp).
bool coulomb_file_name(const std::string& name) {
  for (const std::string& n : output_file_names())
    if (name == n || name == n + ".partial" || name == n + ".tmp") return true;
  return false;
}

// `plots/` as `coulomb plot` writes it: PNG files only.
bool coulomb_plots_folder(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".png") return false;
  }
  return !ec;
}

// summary.json as coulomb writes it: "generator": "coulomb", or (earlier versions) the keys every
// coulomb summary has.
bool coulomb_summary(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  const nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return false;
  if (const auto g = j.find("generator"); g != j.end()) return *g == "coulomb";
  return j.contains("scene") && j.contains("version") && j.contains("stage_times_s") &&
         j.contains("final_state");
}

std::string errno_text(int e) { return std::strerror(e); }

}  // namespace

std::string replace_refusal(const std::string& folder) {
  std::error_code ec;
  const fs::file_status st = fs::status(folder, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    return fmt::format("cannot be read: {}", ec.message());
  if (!fs::exists(st)) return {};
  if (!fs::is_directory(st)) return "is not a folder";
  bool any = false;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    any = true;
    const std::string name = it->path().filename().string();
    std::error_code ec2;
    if (name == "plots" && it->is_directory(ec2) && coulomb_plots_folder(it->path())) continue;
    if (!coulomb_file_name(name) || !it->is_regular_file(ec2))
      return fmt::format("holds '{}', which coulomb did not write", name);
  }
  if (ec) return fmt::format("cannot be read: {}", ec.message());
  if (!any) return {};
  if (!coulomb_summary(fs::path(folder) / "summary.json"))
    return "holds no summary.json written by coulomb";
  return {};
}

OutputFolder::OutputFolder(const std::string& target) : target_(target) {
  if (target.empty()) throw std::invalid_argument("the output folder name is empty");
  fs::path p = fs::absolute(fs::path(target)).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();  // a trailing separator
  std::error_code ec;
  p = fs::weakly_canonical(p, ec);  // symbolic links resolved: the folder they lead to
  if (ec)
    throw std::runtime_error(fmt::format("{}: cannot resolve the path: {}", target, ec.message()));
  const std::string name = p.filename().string();
  if (name.empty() || name == "." || name == ".." || p == p.root_path())
    throw std::invalid_argument(fmt::format("{}: cannot be an output folder", target));
  path_ = p.string();
  if (const std::string why = replace_refusal(path_); !why.empty()) {
    throw std::invalid_argument(fmt::format(
        "{}: {}; not replacing it (choose another output folder, or remove it)", target, why));
  }
  // Parent folders: those missing are created and remembered, to be removed after a failure.
  const fs::path parent = p.parent_path();
  for (fs::path a = parent; !a.empty() && !fs::exists(a, ec); a = a.parent_path()) {
    created_.insert(created_.begin(), a.string());
    if (a == a.root_path()) break;
  }
  fs::create_directories(parent, ec);
  if (ec)
    throw std::runtime_error(fmt::format("{}: cannot create the folder: {}",
                                         fs::path(target).parent_path().string(), ec.message()));
  for (int k = 0;; ++k) {
    const std::string suffix = k == 0 ? fmt::format(".partial-{}", ::getpid())
                                      : fmt::format(".partial-{}-{}", ::getpid(), k);
    const fs::path w = parent / (name + suffix);
    if (fs::create_directory(w, ec)) {
      working_ = w.string();
      break;
    }
    if (ec || k == 100)
      throw std::runtime_error(fmt::format("{}: cannot create the folder: {}", w.string(),
                                           ec ? ec.message() : "it exists"));
  }
}

void OutputFolder::keep() { committed_ = true; }

OutputFolder::~OutputFolder() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(working_, ec);
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
    if (!fs::remove(*it, ec)) break;  // not empty (or gone): leave it and its parents
  }
}

void OutputFolder::commit() {
  // The results stay in the working folder when they cannot be put in place.
  auto fail = [&](const std::string& why) {
    committed_ = true;  // keep the working folder: it holds the results
    throw std::runtime_error(fmt::format("{}: {}; the results are in {}", target_, why, working_));
  };
  if (const std::string why = replace_refusal(path_); !why.empty())
    fail(why + " (it changed during the run)");
  std::error_code ec;
  if (!fs::exists(path_, ec)) {
    if (::rename(working_.c_str(), path_.c_str()) != 0)
      fail(fmt::format("cannot rename the results into place: {}", errno_text(errno)));
    committed_ = true;
    return;
  }
  if (fs::is_empty(path_, ec)) {
    // An empty folder (made by the user, or a shell's current folder): keep it, move the files in.
    for (const auto& e : fs::directory_iterator(working_)) {
      const fs::path to = fs::path(path_) / e.path().filename();
      if (::rename(e.path().c_str(), to.c_str()) != 0)
        fail(fmt::format("cannot move {} into place: {}", e.path().filename().string(),
                         errno_text(errno)));
    }
    fs::remove(working_, ec);
    committed_ = true;
    return;
  }
  // A folder of an earlier run: exchanged with the working folder in one atomic rename, the old
  // run then removed.
#ifdef RENAME_EXCHANGE
  if (::renameat2(AT_FDCWD, working_.c_str(), AT_FDCWD, path_.c_str(), RENAME_EXCHANGE) == 0) {
    committed_ = true;
    fs::remove_all(working_, ec);
    return;
  }
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
    fail(fmt::format("cannot exchange the results with the earlier run: {}", errno_text(errno)));
#endif
  // No atomic exchange on this file system: the old run aside, the new one in, the old removed.
  const fs::path p(path_);
  const std::string aside =
      (p.parent_path() / fmt::format("{}.old-{}", p.filename().string(), ::getpid())).string();
  fs::remove_all(aside, ec);
  if (::rename(path_.c_str(), aside.c_str()) != 0)
    fail(fmt::format("cannot move the earlier run aside: {}", errno_text(errno)));
  if (::rename(working_.c_str(), path_.c_str()) != 0) {
    const int e = errno;
    (void)::rename(aside.c_str(), path_.c_str());
    fail(fmt::format("cannot rename the results into place: {}", errno_text(e)));
  }
  committed_ = true;
  fs::remove_all(aside, ec);
}

}  // namespace coulomb
