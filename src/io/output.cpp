// CSV outputs written through temporary files (see coulomb/io/output.hpp).
#include <coulomb/io/output.hpp>
#include <coulomb/world/world.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace coulomb {

namespace fs = std::filesystem;

const char* status_name(ContactStatus s) {
  switch (s) {
    case ContactStatus::separated:
      return "separated";
    case ContactStatus::sticking:
      return "sticking";
    case ContactStatus::sliding:
      return "sliding";
  }
  return "?";
}

std::size_t contact_row_count(const Workspace& ws) {
  return std::min(ws.contact_points.points.size(), ws.step_results.impulse.size());
}

ContactRow contact_row(const Model& model, const Workspace& ws, std::size_t k) {
  const ContactPoint& c = ws.contact_points.points[k];
  const double inv_h = 1.0 / model.time_step;
  const Vec3& w = ws.step_results.w_rel_end[k];
  ContactRow row;
  row.body1 = c.body1;
  row.body2 = c.body2;
  row.point = c.point();
  row.normal = c.n_W;
  row.gap = c.gap;
  row.force = ws.step_results.impulse[k] * inv_h;
  row.moment =
      k < ws.step_results.moment.size() ? Vec3(ws.step_results.moment[k] * inv_h) : Vec3::Zero();
  row.velocity = ws.step_results.u_end[k];
  row.rates = Vec3(w.dot(c.n_W), w.dot(c.t1_W), w.dot(c.t2_W));
  row.status = ws.step_results.status[k];
  return row;
}

struct OutputWriter::File {
  std::string final_path;
  std::string temp_path;
  std::FILE* f = nullptr;
};

namespace {

constexpr const char* kTempSuffix = ".partial";

// Shortest representation that reads back to the same double (bit-identical round trip).
void append(std::string& out, double x) { fmt::format_to(std::back_inserter(out), "{}", x); }

void append_vec(std::string& out, const Vec3& v) {
  for (int i = 0; i < 3; ++i) {
    out.push_back(',');
    append(out, v[i]);
  }
}

// A text field of a CSV row per RFC 4180: as it is, or, when it holds a comma, a double quote,
// a CR or an LF, enclosed in double quotes with each inner double quote doubled (a body named
// `a,b` cannot add a column, nor a name with a newline a row).
void append_field(std::string& out, std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += text;
    return;
  }
  out.push_back('"');
  for (const char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

}  // namespace

OutputWriter::OutputWriter(const Model& /*model*/, std::string directory)
    : directory_(std::move(directory)) {
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec)
    throw std::runtime_error(
        fmt::format("{}: cannot create the output folder: {}", directory_, ec.message()));
  const char* names[] = {"trajectory.csv", "contacts.csv", "energy.csv", "summary.json",
                         "solver.csv"};
  const char* headers[] = {kTrajectoryHeader, kContactsHeader, kEnergyHeader, nullptr,
                           kSolverHeader};
  for (int i = 0; i < 5; ++i) {
    auto file = std::make_unique<File>();
    file->final_path = (fs::path(directory_) / names[i]).string();
    file->temp_path = file->final_path + kTempSuffix;
    file->f = std::fopen(file->temp_path.c_str(), "wb");
    if (!file->f)
      throw std::runtime_error(
          fmt::format("{}: cannot write: {}", file->temp_path, std::strerror(errno)));
    if (headers[i]) std::fprintf(file->f, "%s\n", headers[i]);
    files_.push_back(std::move(file));
  }
}

OutputWriter::~OutputWriter() {
  if (committed_) return;
  // An interrupted or failed run: remove what would look like output.
  for (auto& file : files_) {
    if (file->f) std::fclose(file->f);
    std::error_code ec;
    fs::remove(file->temp_path, ec);
  }
  for (const auto& name : extra_) {
    std::error_code ec;
    fs::remove(fs::path(directory_) / (name + kTempSuffix), ec);
  }
}

std::string OutputWriter::temporary_path(const std::string& name) {
  extra_.push_back(name);
  return (fs::path(directory_) / (name + kTempSuffix)).string();
}

void OutputWriter::write_frame(const Model& model, const State& state, const Workspace& ws,
                               bool with_contacts) {
  // trajectory.csv: one row per body, centre of mass, body-frame orientation.
  buffer_.clear();
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    append(buffer_, state.time);
    buffer_.push_back(',');
    append_field(buffer_, model.bodies[b].name);
    append_vec(buffer_, state.x_WC[b]);
    const Quat& q = state.q_WB[b];
    for (double c : {q.w(), q.x(), q.y(), q.z()}) {
      buffer_.push_back(',');
      append(buffer_, c);
    }
    append_vec(buffer_, state.v_WC[b]);
    append_vec(buffer_, state.w_W[b]);
    buffer_.push_back('\n');
  }
  std::fwrite(buffer_.data(), 1, buffer_.size(), files_[0]->f);

  // contacts.csv: every point of the last step, forces as impulse / h in the contact frame.
  if (with_contacts) {
    buffer_.clear();
    for (std::size_t k = 0; k < contact_row_count(ws); ++k) {
      const ContactRow row = contact_row(model, ws, k);
      append(buffer_, state.time);
      buffer_.push_back(',');
      append_field(buffer_, model.bodies[row.body1].name);
      buffer_.push_back(',');
      append_field(buffer_, model.bodies[row.body2].name);
      append_vec(buffer_, row.point);
      append_vec(buffer_, row.normal);
      buffer_.push_back(',');
      append(buffer_, row.gap);
      append_vec(buffer_, row.force);
      append_vec(buffer_, row.moment);
      append_vec(buffer_, row.velocity);
      append_vec(buffer_, row.rates);
      buffer_.push_back(',');
      buffer_ += status_name(row.status);
      buffer_.push_back('\n');
    }
    std::fwrite(buffer_.data(), 1, buffer_.size(), files_[1]->f);
  }

  // energy.csv
  const Energy e = energy(model, state);
  buffer_.clear();
  append(buffer_, state.time);
  for (double x :
       {e.kinetic, e.potential, state.dissipated, e.kinetic + e.potential + state.dissipated}) {
    buffer_.push_back(',');
    append(buffer_, x);
  }
  for (double x : state.dissipated_by_kind) {
    buffer_.push_back(',');
    append(buffer_, x);
  }
  buffer_.push_back('\n');
  std::fwrite(buffer_.data(), 1, buffer_.size(), files_[2]->f);
}

void OutputWriter::write_solver_row(const State& state, const StepReport& report) {
  buffer_.clear();
  append(buffer_, state.time);
  fmt::format_to(std::back_inserter(buffer_), ",{},{},{},", report.contact_points,
                 report.active_contacts, report.solver.iterations);
  append(buffer_, report.solver.error);
  buffer_.push_back(',');
  const bool solved = report.active_contacts > 0;
  buffer_ += solved ? to_string(report.solver.status) : "none";
  // What produced the answer, the local solves short of their tolerance in the last sweep, and
  // whether the solver fell back to an earlier iterate (docs/outputs.md).
  fmt::format_to(std::back_inserter(buffer_), ",{},{},{}\n", solved ? report.solver.method : "none",
                 solved ? report.solver.local_failures : 0,
                 solved && report.solver.fell_back ? 1 : 0);
  std::fwrite(buffer_.data(), 1, buffer_.size(), files_[4]->f);
}

void OutputWriter::commit(const std::string& summary_json) {
  std::fwrite(summary_json.data(), 1, summary_json.size(), files_[3]->f);
  std::fputc('\n', files_[3]->f);
  for (auto& file : files_) {
    const bool ok = std::fflush(file->f) == 0 && !std::ferror(file->f);
    std::fclose(file->f);
    file->f = nullptr;
    if (!ok) throw std::runtime_error(fmt::format("{}: write failed", file->temp_path));
  }
  for (auto& file : files_) fs::rename(file->temp_path, file->final_path);
  for (const auto& name : extra_) {
    const fs::path temp = fs::path(directory_) / (name + kTempSuffix);
    if (fs::exists(temp)) fs::rename(temp, fs::path(directory_) / name);
  }
  committed_ = true;
}

}  // namespace coulomb
