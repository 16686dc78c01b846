#pragma once
/// @file
/// Output files of a run (docs/outputs.md): trajectory.csv, contacts.csv, energy.csv, summary.json.
/// Every file is written under a temporary name (`NAME.partial`) and renamed when the run
/// finishes, so an interrupted run never leaves a file that looks complete.

#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>
#include <coulomb/world/workspace.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace coulomb {

/// Column headers of the CSV files (also the keys of the Python module's arrays).
inline constexpr const char* kTrajectoryHeader = "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";
inline constexpr const char* kContactsHeader =
    "time,body1,body2,px,py,pz,nx,ny,nz,gap,fn,ft1,ft2,mn,mt1,mt2,vn,vt1,vt2,spin,roll1,roll2,"
    "state";
inline constexpr const char* kEnergyHeader =
    "time,kinetic,potential,dissipated,total,normal,friction,rolling,pivoting,correction";
inline constexpr const char* kSolverHeader =
    "time,points,active,iterations,error,status,method,local_failures,fell_back";

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

/// Writes the CSV outputs of a run, frame by frame, through temporary files.
class OutputWriter {
 public:
  /// Creates `directory` if needed and opens the temporary files. Throws std::runtime_error.
  OutputWriter(const Model& model, std::string directory);
  ~OutputWriter();  ///< removes the temporary files if `commit` was not called
  OutputWriter(const OutputWriter&) = delete;
  OutputWriter& operator=(const OutputWriter&) = delete;

  /// Appends one output time: every body to trajectory.csv, the energies, and (after a step,
  /// `with_contacts`) every contact point of the last step to contacts.csv.
  void write_frame(const Model& model, const State& state, const Workspace& ws, bool with_contacts);
  /// Appends the solver's report of the step that just ended to solver.csv (every step).
  void write_solver_row(const State& state, const StepReport& report);
  /// Writes `summary_json` to summary.json, closes every file and renames them to their final
  /// names.
  void commit(const std::string& summary_json);
  /// Extra files written next to the CSVs (e.g. replay.html), renamed at commit.
  [[nodiscard]] std::string temporary_path(const std::string& name);

  [[nodiscard]] const std::string& directory() const { return directory_; }

 private:
  struct File;
  std::string directory_;
  std::vector<std::unique_ptr<File>> files_;
  std::vector<std::string> extra_;  ///< final names of extra files
  std::string buffer_;
  bool committed_ = false;
};

}  // namespace coulomb
