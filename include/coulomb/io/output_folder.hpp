#pragma once
/// @file
/// The output folder of a run (docs/outputs.md, "Interrupted runs, write errors and reruns" in
/// docs/reliability.md): a run writes into a working folder beside its output folder,
/// `OUT.partial-PID`, and `commit` puts it in place of OUT when the run ends (finished, stopped on
/// a non-finite state, or interrupted). A run that fails removes its working folder and leaves
/// OUT as it was; a killed process leaves the working folder, holding whole rows.
///
/// Only a folder coulomb wrote is ever replaced: OUT must be absent, an empty folder, or hold
/// nothing but coulomb's output files with a summary.json that coulomb wrote
/// (`is_coulomb_output`); anything else is refused before the run starts.

#include <string>
#include <vector>

namespace coulomb {

/// The names a run writes into its output folder (and `plots/`, written by `coulomb plot`): the
/// CSV files (wear.csv included), summary.json, replay.html, and the checkpoint (coulomb/io/checkpoint.hpp).
[[nodiscard]] const std::vector<std::string>& output_file_names();

/// Empty when `folder` may be replaced by a run's outputs (absent, an empty folder, or one that
/// holds only coulomb's output files and a summary.json written by coulomb); else why not, as
/// the end of a sentence naming the folder ("holds 'notes.txt', which coulomb did not write").
[[nodiscard]] std::string replace_refusal(const std::string& folder);

class OutputFolder {
 public:
  /// Checks that `target` may be replaced (else std::invalid_argument: "TARGET: REASON; ..."),
  /// creates its parent folders and the working folder beside it (else std::runtime_error).
  explicit OutputFolder(const std::string& target);
  /// Without `commit`: removes the working folder and the parent folders this object created
  /// (if empty), so a failed run leaves nothing behind and the target as it was.
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  /// The output folder as given (for messages).
  [[nodiscard]] const std::string& target() const { return target_; }
  /// The working folder, where the files are written.
  [[nodiscard]] const std::string& working() const { return working_; }

  /// Puts the working folder in place of the target: renamed into place when the target is absent;
  /// its files moved in when the target is an empty folder (the folder itself is kept); exchanged
  /// with the target in one atomic rename (renameat2 RENAME_EXCHANGE) when the target holds a
  /// coulomb run, the old run then removed. Where the file system cannot exchange, the old run is
  /// renamed aside (`OUT.old-PID`) first: between the two renames OUT does not exist.
  /// Throws std::runtime_error (the working folder is then kept and named in the message, since
  /// it holds the results).
  void commit();
  /// Leaves the working folder where it is when this object is destroyed without commit(): a
  /// failed run whose working folder holds a checkpoint to restart from.
  void keep();

 private:
  std::string target_;                ///< as given
  std::string path_;                  ///< the target, absolute and normalised
  std::string working_;               ///< OUT.partial-PID
  std::vector<std::string> created_;  ///< parent folders created here, deepest last
  bool committed_ = false;
};

}  // namespace coulomb
