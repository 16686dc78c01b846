// CSV outputs written in whole rows (see coulomb/io/output.hpp).
#include <coulomb/io/output.hpp>
#include <coulomb/world/world.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include <fcntl.h>
#include <unistd.h>

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
  // Impulses over the step become mean forces; the compliant formulation stores forces.
  const double inv_h = ws.step_results.forces ? 1.0 : 1.0 / model.time_step;
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

namespace {

// A buffer this large is written out at the next flush_if_due, whatever the time [bytes].
constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

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

std::uint32_t crc32(std::uint32_t crc, const void* data, std::size_t size) {
  // The table of the reflected polynomial 0xEDB88320, built once.
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  // Pre- and post-inverted, so that crc32(crc32(0, a), b) is the CRC of a followed by b.
  const auto* p = static_cast<const unsigned char*>(data);
  crc = ~crc;
  for (std::size_t i = 0; i < size; ++i) crc = table[(crc ^ p[i]) & 0xFFU] ^ (crc >> 8);
  return ~crc;
}

RowFile::RowFile(const std::string& path, std::string label) : label_(std::move(label)) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0)
    throw std::runtime_error(fmt::format("{}: cannot create: {}", label_, std::strerror(errno)));
}

RowFile::~RowFile() {
  if (fd_ >= 0) ::close(fd_);
}

void RowFile::flush() {
  write_all(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void RowFile::write_all(const char* data, std::size_t size) {
  const char* p = data;
  std::size_t left = size;
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(fmt::format("{}: cannot write: {}", label_, std::strerror(errno)));
    }
    // A short write is followed by another, which reports the reason (ENOSPC, EFBIG).
    mark_.crc = crc32(mark_.crc, p, static_cast<std::size_t>(n));
    mark_.bytes += static_cast<std::uint64_t>(n);
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

void RowFile::sync() {
  flush();
  if (::fdatasync(fd_) != 0 && errno != EINVAL)  // EINVAL: a file that cannot be synced (a pipe)
    throw std::runtime_error(fmt::format("{}: cannot write: {}", label_, std::strerror(errno)));
}

void RowFile::copy_prefix(const std::string& source, const std::string& source_label,
                          const FileMark& mark) {
  // The earlier run's file, read in chunks up to the mark; each chunk checked and written here.
  const int in = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    const int e = errno;
    if (e == ENOENT)
      throw std::invalid_argument(fmt::format(
          "{}: missing; a restart continues the files of the run that wrote the checkpoint, "
          "beside it",
          source_label));
    throw std::runtime_error(fmt::format("{}: cannot read: {}", source_label, std::strerror(e)));
  }
  std::string chunk(std::size_t{1} << 20, '\0');
  std::uint64_t left = mark.bytes;
  std::uint32_t crc = 0;
  try {
    while (left > 0) {
      const std::size_t want =
          static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
      const ssize_t n = ::read(in, chunk.data(), want);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(
            fmt::format("{}: cannot read: {}", source_label, std::strerror(errno)));
      }
      if (n == 0)
        throw std::invalid_argument(fmt::format(
            "{}: holds {} bytes, the checkpoint {}; it is not the file the checkpoint was "
            "written with",
            source_label, mark.bytes - left, mark.bytes));
      crc = crc32(crc, chunk.data(), static_cast<std::size_t>(n));
      write_all(chunk.data(), static_cast<std::size_t>(n));
      left -= static_cast<std::uint64_t>(n);
    }
  } catch (...) {
    ::close(in);
    throw;
  }
  ::close(in);
  // The same length, other bytes: the file was changed after the checkpoint (or another run's).
  if (crc != mark.crc)
    throw std::invalid_argument(
        fmt::format("{}: its first {} bytes differ from those the checkpoint recorded (CRC-32 "
                    "{:08x}, expected {:08x}); it is not the file the checkpoint was written with",
                    source_label, mark.bytes, crc, mark.crc));
}

void RowFile::close() {
  flush();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0)
    throw std::runtime_error(fmt::format("{}: cannot write: {}", label_, std::strerror(errno)));
}

std::vector<std::pair<std::string_view, double>> wear_values(const ShockPointStatistics& p) {
  auto d = [](std::int64_t n) { return static_cast<double>(n); };
  return {{"samples", d(p.samples)},
          {"contact_samples", d(p.contact_samples)},
          {"fn_mean", p.fn_mean},
          {"fn_mean_contact", p.fn_mean_contact},
          {"fn_rms", p.fn_rms},
          {"fn_rms_contact", p.fn_rms_contact},
          {"fn_max", p.fn_max},
          {"ft_mean", p.ft_mean},
          {"ft_mean_contact", p.ft_mean_contact},
          {"ft_rms", p.ft_rms},
          {"ft_rms_contact", p.ft_rms_contact},
          {"ft_max", p.ft_max},
          {"shocks", d(p.shocks)},
          {"rebounds", d(p.rebounds)},
          {"shocks_per_second", p.shocks_per_second},
          {"rebounds_per_shock", p.rebounds_per_shock},
          {"shock_duration_mean", p.shock_duration_mean},
          {"shock_duration_max", p.shock_duration_max},
          {"shock_duration_min", p.shock_duration_min},
          {"rebound_duration_mean", p.rebound_duration_mean},
          {"contact_time_percent", p.contact_time_percent},
          {"impulse_mean", p.impulse_mean},
          {"wear_power", p.wear_power}};
}

std::string wear_csv(const Model& model, const std::vector<ShockPointStatistics>& points) {
  std::string out = kWearHeader;
  out.push_back('\n');
  for (const ShockPointStatistics& p : points) {
    append_field(out, model.bodies[p.body1].name);
    fmt::format_to(std::back_inserter(out), ",{},", p.shape1 - model.bodies[p.body1].first_shape);
    append_field(out, model.bodies[p.body2].name);
    fmt::format_to(std::back_inserter(out), ",{}", p.shape2 - model.bodies[p.body2].first_shape);
    for (const auto& [name, value] : wear_values(p)) {
      out.push_back(',');
      append(out, value);
    }
    out.push_back('\n');
  }
  return out;
}

const std::vector<std::string>& OutputWriter::output_names() {
  static const std::vector<std::string> names = {"trajectory.csv", "contacts.csv", "energy.csv",
                                                 "solver.csv"};
  return names;
}

OutputWriter::OutputWriter(const Model& model, const std::string& directory,
                           const std::string& label, const OutputResume* resume)
    : directory_(directory),
      label_(label),
      solver_rows_(model.output.solver),
      compliant_(model.solver.formulation == Formulation::compliant),
      actuated_(model.has_actuation()),
      sleeping_(model.solver.sleep.enabled) {
  names_ = output_names();
  const std::string energy_header = std::string(kEnergyHeader) +
                                    (actuated_ ? kEnergyActuationColumns : "") +
                                    (sleeping_ ? kEnergySleepColumns : "");
  std::vector<std::string> headers = {kTrajectoryHeader, kContactsHeader, energy_header,
                                      compliant_                               ? kIntegratorHeader
                                      : solver_rows_ == SolverRows::every_step ? kSolverStepHeader
                                                                               : kSolverHeader};
  // joints.csv (docs/outputs.md): the reactions of the joints, when the model has joints.
  if (!model.joints.empty()) {
    joints_file_ = static_cast<int>(names_.size());
    names_.emplace_back("joints.csv");
    headers.emplace_back("time,joint,fx,fy,fz,mx,my,mz");
  }
  // driven.csv (docs/outputs.md): each driven body's power and work, when the model has driven
  // bodies (nonsmooth formulation: the compliant one does not count them body by body).
  if (!compliant_ && std::any_of(model.bodies.begin(), model.bodies.end(),
                                 [](const Body& b) { return b.driven(); })) {
    driven_file_ = static_cast<int>(names_.size());
    names_.emplace_back("driven.csv");
    headers.emplace_back(kDrivenHeader);
  }
  const std::vector<std::string>& names = names_;
  // A restart names the same files as this writer, in any order.
  if (resume != nullptr) {
    std::vector<std::string> listed;
    for (const auto& [name, mark] : resume->files) listed.push_back(name);
    std::sort(listed.begin(), listed.end());
    std::vector<std::string> expected = names;
    std::sort(expected.begin(), expected.end());
    if (listed != expected)
      throw std::invalid_argument(
          fmt::format("{}: the checkpoint lists the files {}, this version of coulomb writes {}",
                      resume->label, fmt::join(listed, ", "), fmt::join(expected, ", ")));
    interval_ = resume->interval;
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    files_.push_back(std::make_unique<RowFile>((fs::path(directory_) / names[i]).string(),
                                               (fs::path(label_) / names[i]).string()));
    if (resume == nullptr) {
      files_.back()->rows() = headers[i];
      files_.back()->rows().push_back('\n');
      continue;
    }
    // Restart: the earlier run's rows up to the checkpoint, header included.
    for (const auto& [name, mark] : resume->files)
      if (name == names[i])
        files_.back()->copy_prefix((fs::path(resume->directory) / name).string(),
                                   (fs::path(resume->label) / name).string(), mark);
  }
  summary_path_ = (fs::path(directory_) / "summary.json").string();
  last_flush_ = now_s();
}

void OutputWriter::sync() {
  for (auto& file : files_) file->sync();
  last_flush_ = now_s();
  ++flushes_;
}

std::vector<std::pair<std::string, FileMark>> OutputWriter::marks() const {
  std::vector<std::pair<std::string, FileMark>> out;
  for (std::size_t i = 0; i < files_.size(); ++i) out.emplace_back(names_[i], files_[i]->mark());
  return out;
}

OutputWriter::~OutputWriter() = default;

void OutputWriter::flush() {
  for (auto& file : files_) file->flush();
  last_flush_ = now_s();
  ++flushes_;
}

void OutputWriter::flush_if_due() {
  bool large = false;
  for (const auto& file : files_) large = large || file->buffered() >= kFlushBytes;
  if (large || now_s() - last_flush_ >= kFlushInterval) flush();
}

void OutputWriter::finish(const std::string& summary_json) {
  for (auto& file : files_) file->close();
  RowFile summary(summary_path_, (fs::path(label_) / "summary.json").string());
  summary.rows() = summary_json;
  summary.rows().push_back('\n');
  summary.close();
}

void OutputWriter::write_frame(const Model& model, const State& state, const Workspace& ws,
                               bool with_contacts) {
  if (compliant_ && !integrator_started_) {
    integrator_now_ = ws.report.integrator;
    integrator_last_ = integrator_now_;
    integrator_started_ = true;
  }
  // trajectory.csv: one row per body, centre of mass, body-frame orientation.
  scratch_.clear();
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    append(scratch_, state.time);
    scratch_.push_back(',');
    append_field(scratch_, model.bodies[b].name);
    append_vec(scratch_, state.x_WC[b]);
    const Quat& q = state.q_WB[b];
    for (double c : {q.w(), q.x(), q.y(), q.z()}) {
      scratch_.push_back(',');
      append(scratch_, c);
    }
    append_vec(scratch_, state.v_WC[b]);
    append_vec(scratch_, state.w_W[b]);
    scratch_.push_back('\n');
  }
  files_[0]->rows() += scratch_;

  // contacts.csv: every point of the last step, forces as impulse / h in the contact frame.
  if (with_contacts) {
    scratch_.clear();
    for (std::size_t k = 0; k < contact_row_count(ws); ++k) {
      const ContactRow row = contact_row(model, ws, k);
      append(scratch_, state.time);
      scratch_.push_back(',');
      append_field(scratch_, model.bodies[row.body1].name);
      scratch_.push_back(',');
      append_field(scratch_, model.bodies[row.body2].name);
      append_vec(scratch_, row.point);
      append_vec(scratch_, row.normal);
      scratch_.push_back(',');
      append(scratch_, row.gap);
      append_vec(scratch_, row.force);
      append_vec(scratch_, row.moment);
      append_vec(scratch_, row.velocity);
      append_vec(scratch_, row.rates);
      scratch_.push_back(',');
      scratch_ += status_name(row.status);
      scratch_.push_back('\n');
    }
    files_[1]->rows() += scratch_;
    write_solver_interval(state);
    // joints.csv: the reaction on body 2 of each joint over the last step, world: force [N] and
    // moment about its anchor on body 2 [N m] (zero before the first step).
    if (joints_file_ >= 0) {
      scratch_.clear();
      const StepResults& res = ws.step_results;
      for (std::size_t j = 0; j < model.joints.size(); ++j) {
        append(scratch_, state.time);
        scratch_.push_back(',');
        append_field(scratch_, model.joints[j].name);
        const bool have = j < res.joint_force.size();
        append_vec(scratch_, have ? res.joint_force[j] : Vec3::Zero());
        append_vec(scratch_, have ? res.joint_moment[j] : Vec3::Zero());
        scratch_.push_back('\n');
      }
      files_[static_cast<std::size_t>(joints_file_)]->rows() += scratch_;
    }
  }
  if (driven_file_ >= 0) write_driven(model, state, ws, with_contacts);

  // energy.csv
  const Energy e = energy(model, state);
  scratch_.clear();
  append(scratch_, state.time);
  for (double x :
       {e.kinetic, e.potential, e.elastic, state.dissipated, audited_total(model, e, state)}) {
    scratch_.push_back(',');
    append(scratch_, x);
  }
  for (double x : state.dissipated_by_kind) {
    scratch_.push_back(',');
    append(scratch_, x);
  }
  if (actuated_) {
    for (double x : {state.driven_work, state.force_work, state.damping}) {
      scratch_.push_back(',');
      append(scratch_, x);
    }
  }
  if (sleeping_) {
    scratch_.push_back(',');
    append(scratch_, state.slept);
  }
  scratch_.push_back('\n');
  files_[2]->rows() += scratch_;
}

void OutputWriter::write_driven(const Model& model, const State& state, const Workspace& ws,
                                bool after_step) {
  // driven.csv: per driven body, the mean power it delivered to the others over the last step,
  // P = ΔW / h with ΔW = −(P_d·v̄_d + ΔL_d·ω̄_d) the step's share of State::driven_work
  // (stages/integrate.cpp), and its work since the start (zero power before the first step).
  const StepResults& res = ws.step_results;
  scratch_.clear();
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    if (!model.bodies[b].driven()) continue;
    const bool have = after_step && b < res.driven_work.size();
    append(scratch_, state.time);
    scratch_.push_back(',');
    append_field(scratch_, model.bodies[b].name);
    scratch_.push_back(',');
    append(scratch_, have ? -res.driven_work[b] / model.time_step : 0.0);
    scratch_.push_back(',');
    append(scratch_, b < state.driven_work_by_body.size() ? state.driven_work_by_body[b] : 0.0);
    scratch_.push_back('\n');
  }
  files_[static_cast<std::size_t>(driven_file_)]->rows() += scratch_;
}

void OutputWriter::write_integrator_row(const State& state, const IntegratorStatistics& now) {
  const IntegratorStatistics& a = integrator_last_;
  std::string& out = files_[3]->rows();
  append(out, state.time);
  fmt::format_to(std::back_inserter(out), ",{},{},{},{},{},{},{},{},", now.steps - a.steps,
                 now.rejected_steps - a.rejected_steps, now.rhs_evaluations - a.rhs_evaluations,
                 now.jacobian_evaluations - a.jacobian_evaluations,
                 now.newton_iterations - a.newton_iterations,
                 now.newton_failures - a.newton_failures, now.root_stops - a.root_stops,
                 now.restarts - a.restarts);
  append(out, now.last_step);
  fmt::format_to(std::back_inserter(out), ",{},{}\n", interval_.max_points, interval_.max_active);
  integrator_last_ = now;
  interval_ = SolverInterval{};
}

void OutputWriter::add_step(const State& state, const StepReport& report) {
  if (compliant_) {
    // The integrator's counts since the last row (cumulative in the report).
    if (!integrator_started_) {
      integrator_last_ = integrator_now_;
      integrator_started_ = true;
    }
    integrator_now_ = report.integrator;
    interval_.max_points = std::max(interval_.max_points, report.contact_points);
    interval_.max_active = std::max(interval_.max_active, report.active_contacts);
    if (solver_rows_ == SolverRows::every_step) write_integrator_row(state, integrator_now_);
    return;
  }
  const bool solved = report.solved();
  const char* status = solved ? to_string(report.solver.status) : "none";
  const char* method = solved ? report.solver.method : "none";
  if (solver_rows_ == SolverRows::every_step) {
    std::string& out = files_[3]->rows();
    append(out, state.time);
    fmt::format_to(std::back_inserter(out), ",{},{},{},", report.contact_points,
                   report.active_contacts, report.solver.iterations);
    append(out, report.solver.error);
    out.push_back(',');
    out += status;
    // What produced the answer, the local solves short of their tolerance in the last sweep, and
    // whether the solver fell back to an earlier iterate (docs/outputs.md).
    fmt::format_to(std::back_inserter(out), ",{},{},{}\n", method,
                   solved ? report.solver.local_failures : 0,
                   solved && report.solver.fell_back ? 1 : 0);
    return;
  }
  SolverInterval& a = interval_;
  ++a.steps;
  a.max_points = std::max(a.max_points, report.contact_points);
  a.max_active = std::max(a.max_active, report.active_contacts);
  if (!solved) return;
  ++a.solves;
  const bool converged = report.solver.status == SolverStatus::converged;
  if (!converged) ++a.not_converged;
  a.max_iterations = std::max(a.max_iterations, report.solver.iterations);
  a.total_iterations += report.solver.iterations;
  a.local_failures += report.solver.local_failures;
  if (report.solver.fell_back) ++a.fell_back;
  // The worst step: one that did not converge before one that did, then the larger error.
  const bool worse = a.worst_status.empty() || (a.worst_converged && !converged) ||
                     (a.worst_converged == converged && report.solver.error > a.max_error);
  if (worse) {
    a.worst_status = status;
    a.worst_converged = converged;
  }
  a.max_error = std::max(a.max_error, report.solver.error);
  // Methods in order of first use ("nsgs", "nsgs;nsgs+prox"); the names hold no ';'.
  const std::string_view m(method);
  std::size_t pos = 0;
  bool seen = false;
  while (pos <= a.methods.size() && !seen) {
    const std::size_t end = std::min(a.methods.find(';', pos), a.methods.size());
    seen = std::string_view(a.methods).substr(pos, end - pos) == m;
    pos = end + 1;
  }
  if (!seen) {
    if (!a.methods.empty()) a.methods.push_back(';');
    a.methods += m;
  }
}

void OutputWriter::write_solver_interval(const State& state) {
  if (solver_rows_ == SolverRows::every_step) return;
  if (compliant_) {
    write_integrator_row(state, integrator_now_);
    return;
  }
  const SolverInterval& a = interval_;
  std::string& out = files_[3]->rows();
  append(out, state.time);
  fmt::format_to(std::back_inserter(out), ",{},{},{},{},{},{},{},", a.steps, a.solves,
                 a.not_converged, a.max_points, a.max_active, a.max_iterations, a.total_iterations);
  append(out, a.max_error);
  fmt::format_to(std::back_inserter(out), ",{},{},{},{}\n",
                 a.worst_status.empty() ? "none" : a.worst_status.c_str(),
                 a.methods.empty() ? "none" : a.methods.c_str(), a.local_failures, a.fell_back);
  interval_ = SolverInterval{};
}

}  // namespace coulomb
