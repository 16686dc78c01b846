#pragma once
/// @file
/// Checkpoints of a run: everything `coulomb run` needs to continue a run so that its final state
/// and every output row after the checkpoint are bit-identical to those of the run had it not
/// stopped (`coulomb run --checkpoint-every T`, `coulomb run --restart FILE`; docs/reliability.md,
/// "Checkpoint and restart", gives the format field by field and the restart's rules).
///
/// What it holds: the State (time and its compensation carry, step, poses, velocities, contact
/// memory, dissipated energy by kind, the actuation's works); what the run driver carries from step
/// to step (the start of the run, its initial energy, the next output time, whether the state is
/// already the last output frame, the solver.csv aggregates since the last row, the replay's
/// recorded frames); the statistics that summary.json reports (solver, position stage, free
/// rotation, wall times); and, for each output file, how many bytes the run had written when the
/// checkpoint was taken with their CRC-32, so that a restart can continue those files.
///
/// The file: a 40-byte header (signature, format version, payload length, scene hash), the
/// payload (little-endian integers, IEEE-754 doubles and floats, counts before arrays), a CRC-32
/// of everything before it. It is written to FILE.tmp, synced to the disk, and renamed over FILE,
/// so a process killed while writing leaves the previous checkpoint whole. Reading checks the
/// signature, version, length and CRC before anything else, and every count against the bytes
/// left before sizing an array from it: a truncated, corrupted or foreign file is one line,
/// never a crash.
///
/// Not stored, because it is rebuilt identically: the Workspace (scratch of the step: contact
/// points, the contact problem, the broadphase's tree, whose output does not depend on its
/// history) and the flush timers of the output files (they decide when rows reach the disk, not
/// what the rows are). No random-number generator runs during a step (the NSGS shuffle is seeded
/// afresh by every solve), so none is stored.

#include <coulomb/io/output.hpp>
#include <coulomb/io/replay.hpp>
#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>
#include <coulomb/world/simulation.hpp>
#include <coulomb/world/workspace.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coulomb {

/// The format version this build writes. Bump it whenever a field is added, removed or changed
/// (State, ContactMemory, the statistics, ...), with the new row in docs/reliability.md.
/// Format 3 added the actuation's works (State::driven_work, force_work, damping,
/// driven_work_by_body) and the replay frames' works; format 4 the sleeping islands
/// (State::asleep, still_time, slept); format 5 the activation's points left out
/// (StepStatistics::left_out, left_out_steps, deepest_left_out, deepest_left_out_time); format 6
/// the position stage's overlaps left above its tolerance (StepStatistics::unclosed_steps,
/// largest_unclosed, largest_unclosed_time).
inline constexpr std::uint32_t kCheckpointVersion = 6;
/// The oldest format this build reads: a format 2 file reads with those works zero (the runs that
/// wrote format 2 refused actuated scenes, whose works are the only ones that are not zero).
inline constexpr std::uint32_t kOldestCheckpointVersion = 2;
/// The 16-byte signature a checkpoint file starts with.
inline constexpr std::string_view kCheckpointMagic{"COULOMB-CKPT\r\n\x1a\n", 16};
/// The name of the checkpoint file in a run's output folder.
inline constexpr const char* kCheckpointFileName = "checkpoint.bin";

/// Everything a restarted run takes from the run that wrote the checkpoint.
struct Checkpoint {
  /// scene_hash() of the scene and settings of the run; a restart refuses another scene.
  std::uint64_t scene_hash = 0;
  State state;  ///< the state reached (after a whole step)

  // The run as it started (the first run, for a run restarted before).
  double start_time = 0.0;            ///< time of the state the run started from [s]
  std::int64_t start_step = 0;        ///< its step count
  double initial_total = 0.0;         ///< its total energy (kinetic + potential + dissipated) [J]
  std::int64_t checkpoint_every = 0;  ///< steps between checkpoints (a restart keeps it)
  double next_output_time = 0.0;      ///< next output time of `output.interval` [s]
  bool frame_written = true;          ///< the state is the last frame of the files

  // The statistics summary.json reports, of the steps from the start to the checkpoint.
  std::int64_t steps = 0;
  SolverStatistics solver;
  StepStatistics stages;
  double wall_time_s = 0.0;  ///< wall time of the run up to the checkpoint [s]
  /// (stage name, wall time [s]) of each stage of the step pipeline
  std::vector<std::pair<std::string, double>> stage_seconds;
  std::int64_t checkpoints_written = 0;  ///< this one included
  double checkpoint_seconds = 0.0;       ///< wall time spent writing them [s] (this one excluded)

  // The output files (none for a run without files).
  /// (file name, bytes written and their CRC-32) of each CSV file, at the checkpoint
  std::vector<std::pair<std::string, FileMark>> files;
  SolverInterval solver_interval;  ///< the next solver.csv row's aggregates so far
  bool has_replay = false;         ///< the run records replay.html
  ReplayRecording replay;          ///< its recorded frames
};

/// The hash that ties a checkpoint to its scene: 64-bit FNV-1a of the scene's text (`source`, as
/// loaded) followed by the settings a command line may change that decide the rows (time step,
/// output times, solver.csv layout). The end time is not in it: a restart may run further.
[[nodiscard]] std::uint64_t scene_hash(std::string_view source, const Model& model);

/// The bytes of a checkpoint file (header, payload, CRC-32), into `out` (replaced).
void encode_checkpoint(const Checkpoint& checkpoint, std::string& out);

/// Reads the bytes of a checkpoint file. Throws std::invalid_argument with one line
/// "LABEL: ..." when they are not a checkpoint of this format version, are truncated or
/// corrupted, or hold a value that no run writes (a count past the end, an unknown status, a
/// non-finite state).
[[nodiscard]] Checkpoint decode_checkpoint(std::string_view bytes, const std::string& label);

/// Writes `checkpoint` to `path` atomically: into `path`.tmp, synced (fdatasync), then renamed
/// over `path`, so `path` is always a whole checkpoint (the previous one until the rename).
/// `scratch` holds the encoded bytes (reused from call to call). Throws std::runtime_error
/// "LABEL: cannot write: REASON" (`label` names the file in messages) and leaves no .tmp file.
void write_checkpoint(const std::string& path, const std::string& label,
                      const Checkpoint& checkpoint, std::string& scratch);

/// Reads a checkpoint file. Throws std::invalid_argument with one line "PATH: ..." when it
/// cannot be read or is not a valid checkpoint (decode_checkpoint).
[[nodiscard]] Checkpoint read_checkpoint(const std::string& path);

}  // namespace coulomb
