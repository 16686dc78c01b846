#pragma once
/// @file
/// Output files of a run (docs/outputs.md): trajectory.csv, contacts.csv, energy.csv, solver.csv,
/// summary.json. They are written in whole rows into the run's working folder, which replaces the
/// output folder when the run ends (coulomb/io/output_folder.hpp).

#include <coulomb/compliant/shock_statistics.hpp>
#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>
#include <coulomb/world/workspace.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coulomb {

/// Column headers of the CSV files (also the keys of the Python module's arrays).
inline constexpr const char* kTrajectoryHeader = "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";
inline constexpr const char* kContactsHeader =
    "time,body1,body2,px,py,pz,nx,ny,nz,gap,fn,ft1,ft2,mn,mt1,mt2,vn,vt1,vt2,spin,roll1,roll2,"
    "state";
inline constexpr const char* kEnergyHeader =
    "time,kinetic,potential,elastic,dissipated,total,normal,friction,rolling,pivoting,correction";
/// The columns energy.csv appends for a model with actuation (Model::has_actuation): the work of
/// the driven bodies on the others, of the applied forces, and the energy removed by damping [J].
inline constexpr const char* kEnergyActuationColumns = ",driven_work,force_work,damping";
/// The column energy.csv appends (after those of actuation) for a model with sleeping islands
/// (SolverSettings::sleep): the kinetic energy set to zero when islands fell asleep [J].
inline constexpr const char* kEnergySleepColumns = ",slept";
/// driven.csv (models with driven bodies, nonsmooth formulation): one row per driven body and
/// output time, the mean power it delivered to the other bodies over the last step [W] and its
/// work since the start [J] (State::driven_work_by_body; docs/outputs.md).
inline constexpr const char* kDrivenHeader = "time,body,power,work";
/// solver.csv with one row per output time (SolverRows::per_output, the default): aggregates over
/// the steps since the last row (docs/outputs.md).
inline constexpr const char* kSolverHeader =
    "time,steps,solves,not_converged,max_points,max_active,max_iterations,total_iterations,"
    "max_error,worst_status,methods,local_failures,fell_back";
/// solver.csv with one row per step (SolverRows::every_step).
inline constexpr const char* kSolverStepHeader =
    "time,points,active,iterations,error,status,method,local_failures,fell_back";
/// solver.csv of the compliant formulation: the integrator's counts since the last row (one row
/// per output time, or per step with SolverRows::every_step), its last step, and the most points
/// and closed contacts of the steps covered (docs/outputs.md).
inline constexpr const char* kIntegratorHeader =
    "time,steps,rejected_steps,rhs_evaluations,jacobian_evaluations,newton_iterations,"
    "newton_failures,root_stops,restarts,step_size,max_points,max_active";

/// Columns of wear.csv: one row per shock point (compliant/shock_statistics.hpp, docs/outputs.md).
inline constexpr const char* kWearHeader =
    "body1,shape1,body2,shape2,samples,contact_samples,fn_mean,fn_mean_contact,fn_rms,"
    "fn_rms_contact,fn_max,ft_mean,ft_mean_contact,ft_rms,ft_rms_contact,ft_max,shocks,rebounds,"
    "shocks_per_second,rebounds_per_shock,shock_duration_mean,shock_duration_max,"
    "shock_duration_min,rebound_duration_mean,contact_time_percent,impulse_mean,wear_power";
/// The file wear.csv of these statistics: the header, then one row per shock point (bodies by
/// name, shapes by their index in the body's `shapes`).
[[nodiscard]] std::string wear_csv(const Model& model,
                                   const std::vector<ShockPointStatistics>& points);
/// The values of a wear.csv row after its four naming columns, in kWearHeader's order (also
/// summary.json's "shock_points" and the Python module's dictionaries).
[[nodiscard]] std::vector<std::pair<std::string_view, double>> wear_values(
    const ShockPointStatistics& p);

/// Name of a contact status in contacts.csv.
[[nodiscard]] const char* status_name(ContactStatus s);

/// One row of contacts.csv for contact point k of the last step (also the Python module's arrays).
struct ContactRow {
  int body1 = -1, body2 = -1;
  Vec3 point, normal;  ///< I and n in the world frame [m], [-]
  double gap = 0.0;    ///< [m]
  Vec3 force;          ///< (fn, ft1, ft2) of body 1 on body 2, impulse / h [N]
  Vec3 moment;         ///< (mn, mt1, mt2) [N m]
  Vec3 velocity;       ///< (vn, vt1, vt2) at the end of the step [m/s]
  Vec3 rates;          ///< (spin, roll1, roll2) [rad/s]
  ContactStatus status = ContactStatus::separated;
};
[[nodiscard]] ContactRow contact_row(const Model& model, const Workspace& ws, std::size_t k);
/// Number of rows `contact_row` can give for the last step.
[[nodiscard]] std::size_t contact_row_count(const Workspace& ws);

/// CRC-32 of `size` bytes at `data`, continued from `crc` (0 to start): the IEEE 802.3
/// polynomial, reflected, as zlib's crc32() and Python's zlib.crc32 compute it.
[[nodiscard]] std::uint32_t crc32(std::uint32_t crc, const void* data, std::size_t size);

/// How far a RowFile has reached the disk: the bytes written and their CRC-32. A checkpoint
/// records it for each output file; a restart checks the file against it (docs/reliability.md).
struct FileMark {
  std::uint64_t bytes = 0;  ///< bytes written to the file (whole rows)
  std::uint32_t crc = 0;    ///< CRC-32 of those bytes (crc32)
  friend bool operator==(const FileMark&, const FileMark&) = default;
};

/// A file written in whole rows: rows are appended to a memory buffer and written with one
/// write(2) per flush, so the file on disk always ends at a row boundary (a killed process leaves
/// whole rows) and a write error (a full disk) is seen by the flush that meets it.
class RowFile {
 public:
  /// Creates (truncates) `path`; `label` names the file in error messages. Throws
  /// std::runtime_error("LABEL: cannot create: REASON").
  RowFile(const std::string& path, std::string label);
  ~RowFile();  ///< closes the file, without reporting errors (a failed run)
  RowFile(const RowFile&) = delete;
  RowFile& operator=(const RowFile&) = delete;

  /// The buffer: append whole rows only.
  [[nodiscard]] std::string& rows() { return buffer_; }
  [[nodiscard]] std::size_t buffered() const { return buffer_.size(); }
  /// Writes the buffer. Throws std::runtime_error("LABEL: cannot write: REASON").
  void flush();
  /// Flushes and closes; throws as flush and close(2) do.
  void close();
  /// Flushes and asks the system to put the file's data on the disk (fdatasync), so a checkpoint
  /// that records mark() survives a power loss with the file. Throws as flush does.
  void sync();
  /// What has been written so far (the buffer not included).
  [[nodiscard]] FileMark mark() const { return mark_; }
  /// Writes the first `mark.bytes` bytes of the file `source` (named `source_label` in messages)
  /// into this empty file, checking them against `mark`: a restart continues the files of the run
  /// that wrote its checkpoint. Throws std::invalid_argument when `source` is shorter or its bytes
  /// differ ("SOURCE: ...; it is not the file the checkpoint was written with"), and
  /// std::runtime_error when it cannot be read or this file cannot be written.
  void copy_prefix(const std::string& source, const std::string& source_label,
                   const FileMark& mark);

 private:
  // Writes `size` bytes at `data` to the file, counting them in mark_.
  void write_all(const char* data, std::size_t size);

  int fd_ = -1;
  std::string label_;
  std::string buffer_;
  FileMark mark_;
};

/// The aggregates of the next per-output row of solver.csv (SolverRows::per_output): the steps
/// since the last row. A checkpoint between two output times holds them.
struct SolverInterval {
  std::int64_t steps = 0, solves = 0, not_converged = 0, total_iterations = 0;
  std::int64_t local_failures = 0, fell_back = 0;
  int max_points = 0, max_active = 0, max_iterations = 0;
  double max_error = 0.0;
  /// The status of the worst step (not converged first, then the larger error); empty while no
  /// step solved (a status name: at most 15 characters, so assigning it does not allocate).
  std::string worst_status;
  bool worst_converged = true;
  std::string methods;  ///< methods used, in order of first use, joined by ';'
  friend bool operator==(const SolverInterval&, const SolverInterval&) = default;
};

/// The files of an earlier run that an OutputWriter continues (a restart, docs/reliability.md):
/// the folder holding them, the marks a checkpoint recorded, the solver.csv aggregates.
struct OutputResume {
  std::string directory;  ///< where the earlier run's files are
  std::string label;      ///< that folder as named in messages
  /// (file name, mark) of each file the checkpoint recorded: the names of output_names()
  std::vector<std::pair<std::string, FileMark>> files;
  SolverInterval interval;
};

/// Writes the CSV outputs of a run and its summary.json into a folder (the run's working folder,
/// io/output_folder.hpp), frame by frame. Rows are buffered and written out in whole rows when
/// `flush_if_due` finds the last flush `flush_interval` ago or a buffer over 1 MiB, and at
/// `finish`.
class OutputWriter {
 public:
  /// Wall time between flushes [s]: what a killed run may lose.
  static constexpr double kFlushInterval = 2.0;

  /// Creates the files in `directory` (which must exist) and writes their headers; `label` is
  /// the folder named in error messages (where the files will be). Throws std::runtime_error.
  /// With `resume`, the files instead start with the earlier run's files up to their marks
  /// (RowFile::copy_prefix, which may also throw std::invalid_argument) and the solver.csv
  /// aggregates continue from resume->interval.
  OutputWriter(const Model& model, const std::string& directory, const std::string& label,
               const OutputResume* resume = nullptr);
  ~OutputWriter();
  OutputWriter(const OutputWriter&) = delete;
  OutputWriter& operator=(const OutputWriter&) = delete;

  /// Appends one output time: every body to trajectory.csv, the energies, and (after a step,
  /// `with_contacts`) every contact point of the last step to contacts.csv and, unless solver.csv
  /// has a row per step (SolverRows::every_step), the solver.csv row of the steps since the last.
  void write_frame(const Model& model, const State& state, const Workspace& ws, bool with_contacts);
  /// Takes the solver's report of the step that just ended: a solver.csv row (every_step) or
  /// into the aggregates of the next row (per_output).
  void add_step(const State& state, const StepReport& report);
  /// Writes the buffered rows when the last flush is kFlushInterval old or a buffer is large.
  void flush_if_due();
  /// Writes every buffered row to disk. Throws std::runtime_error naming the file and the reason.
  void flush();
  /// Flushes, writes `summary_json` to summary.json and closes every file. Throws.
  void finish(const std::string& summary_json);
  /// Flushes done so far (the first after the headers and the initial frame counts).
  [[nodiscard]] std::int64_t flushes() const { return flushes_; }
  /// Flushes every file and puts its data on the disk (RowFile::sync): before a checkpoint.
  void sync();
  /// (file name, mark) of every CSV file, in output_names() order: what a checkpoint records.
  [[nodiscard]] std::vector<std::pair<std::string, FileMark>> marks() const;
  /// The aggregates of the next solver.csv row (per_output).
  [[nodiscard]] const SolverInterval& interval() const { return interval_; }
  /// The CSV files an OutputWriter writes, in order (then joints.csv when the model has joints
  /// and driven.csv when it has driven bodies: docs/outputs.md).
  [[nodiscard]] static const std::vector<std::string>& output_names();

 private:
  void write_solver_interval(const State& state);
  // driven.csv rows of an output time (`after_step`: the last step's powers, else zero).
  void write_driven(const Model& model, const State& state, const Workspace& ws, bool after_step);
  // A compliant solver.csv row: the integrator's counts since `integrator_last_`.
  void write_integrator_row(const State& state, const IntegratorStatistics& now);

  std::string directory_;
  std::string label_;
  SolverRows solver_rows_;
  std::vector<std::unique_ptr<RowFile>> files_;  ///< trajectory, contacts, energy, solver, ...
  /// The names of files_: output_names(), then joints.csv and driven.csv when the model has them
  std::vector<std::string> names_;
  int joints_file_ = -1;  ///< index of joints.csv in files_ (-1: none)
  int driven_file_ = -1;  ///< index of driven.csv in files_ (-1: none)
  std::string summary_path_;
  SolverInterval interval_;
  bool compliant_ = false;                ///< the compliant formulation's solver.csv
  bool actuated_ = false;                 ///< energy.csv carries the actuation columns
  bool sleeping_ = false;                 ///< energy.csv carries the column of sleeping islands
  bool integrator_started_ = false;       ///< integrator_last_ holds the counts of the last row
  IntegratorStatistics integrator_last_;  ///< the integrator's counts at the last row
  IntegratorStatistics integrator_now_;   ///< ... and at the last step taken
  std::string scratch_;
  double last_flush_ = 0.0;  ///< steady clock [s]
  std::int64_t flushes_ = 0;
};

}  // namespace coulomb
