#pragma once
/// @file
/// The browser replay of a run: `replay.html`, one self-contained file (no server, no network)
/// showing the bodies and their shapes in 3-D (three.js), with play/pause, a time slider, speed
/// control, contact points and force arrows, trails and time plots. See docs/replay.md.
///
/// The recorder keeps a decimated copy of the run's frames; `write()` fills the HTML template
/// bundled from viewer/ at build time (embedded in the library) with the model and the frames.
/// When the viewer was not built (no node/npm), `write()` emits a minimal page that says so and
/// still embeds the same data.
///
/// Frame data conventions (DESIGN §1): body poses are those of the body FRAME B (not the centre of
/// mass), quaternions (w, x, y, z) body-to-world; contact normal from body 1 to body 2; force is
/// the action of body 1 on body 2, in world axes [N]; slip speed ‖v_t‖ [m/s]; spin ω·n [rad/s].
///
/// Size control (what makes a 10^4-body, 10^3-frame run load in a few seconds): poses of fixed
/// bodies are written once; moving bodies' poses and the contacts are little-endian Float32 arrays,
/// base64-encoded in their own <script> elements (no JSON number parsing); frames are decimated
/// (every k-th kept, k doubling) so that at most `max_frames` frames and at most `max_bytes` of
/// frame data are kept; the last frame received is always written.

#include <coulomb/model/model.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace coulomb {

/// Floats per contact in ReplayFrame::contacts: point xyz [m], normal xyz [-], force of 1 on 2 xyz
/// [N] (world), body1, body2 (indices, as floats), slip speed [m/s], spin ω·n [rad/s].
inline constexpr std::size_t kReplayContactStride = 13;
/// Floats per body in ReplayFrame::poses: body-frame origin x, y, z [m] then qw, qx, qy, qz.
inline constexpr std::size_t kReplayPoseStride = 7;

/// One recorded instant of a run.
struct ReplayFrame {
  double time = 0.0;            ///< [s]
  std::vector<float> poses;     ///< (nbodies * 7) body-frame origin x, y, z, then qw, qx, qy, qz
  std::vector<float> contacts;  ///< (ncontacts * 13), layout of kReplayContactStride
  double kinetic = 0.0;         ///< kinetic energy [J]
  double potential = 0.0;       ///< gravitational potential energy [J]
  double dissipated = 0.0;      ///< cumulative energy removed by contacts [J]
  /// The actuation's works since the start (State; drawn for models with actuation) [J]: of the
  /// driven bodies on the others, of the applied forces, and the energy removed by damping.
  double driven_work = 0.0;
  double force_work = 0.0;  ///< [J]
  double damping = 0.0;     ///< [J]
};

/// What a ReplayRecorder holds between frames, as plain data: what a checkpoint saves and a restart
/// gives back (ReplayRecorder::recording, restore), so that a restarted run writes the
/// replay.html of the uninterrupted run.
struct ReplayRecording {
  /// A recorded frame, reduced to the moving bodies.
  struct Frame {
    std::uint64_t index = 0;      ///< its number among the frames received
    double time = 0.0;            ///< [s]
    std::vector<float> moving;    ///< (nmoving * 7) poses of the moving bodies (ReplayFrame)
    std::vector<float> contacts;  ///< (ncontacts * 13), layout of kReplayContactStride
    double kinetic = 0.0;         ///< [J]
    double potential = 0.0;       ///< [J]
    double dissipated = 0.0;      ///< [J]
    double driven_work = 0.0;     ///< [J] (ReplayFrame)
    double force_work = 0.0;      ///< [J]
    double damping = 0.0;         ///< [J]
    friend bool operator==(const Frame&, const Frame&) = default;
  };
  std::vector<float> base_poses;  ///< (nbodies * 7) the first frame's poses; empty before it
  std::vector<Frame> kept;        ///< the decimated frames, by increasing index
  Frame last;                     ///< the most recent frame received (if any)
  std::uint64_t received = 0;     ///< frames received
  std::uint64_t stride = 1;       ///< decimation stride k (a power of two)
  friend bool operator==(const ReplayRecording&, const ReplayRecording&) = default;
};

/// Collects frames during a run and writes replay.html.
///
/// Decimation: frames are kept with a stride k (initially 1). When keeping one more frame would
/// exceed `max_frames` frames or `max_bytes` bytes of frame data, every other kept frame is dropped
/// and k doubles, so that the kept frames stay evenly spaced in the sequence received. The most
/// recent frame is held aside and written as the last frame if the stride skipped it.
/// Fixed bodies' poses are taken from the first frame and stored once.
class ReplayRecorder {
 public:
  /// Default bound on the bytes of kept frame data (poses of moving bodies and contacts, as
  /// Float32): 48 MiB, i.e. ~64 MiB of base64 in the page, which Chromium loads in about 2 s.
  static constexpr std::size_t kDefaultMaxBytes = std::size_t{48} << 20;

  /// At most `max_frames` (>= 3, std::invalid_argument otherwise) frames are written.
  explicit ReplayRecorder(const Model& model, std::size_t max_frames = 1000);
  /// As above with an explicit bound on the written frame data [bytes]. The first, the last and
  /// at most one more frame are written whatever the bound.
  ReplayRecorder(const Model& model, std::size_t max_frames, std::size_t max_bytes);

  /// Records a frame. `frame.poses` must hold 7 floats per body of the model and `frame.contacts`
  /// a multiple of 13 floats (std::invalid_argument otherwise); times must not decrease.
  void add_frame(const ReplayFrame& frame);

  /// Writes the replay page to `path` (through `path` + ".tmp" and a rename). Throws
  /// std::runtime_error("LABEL: cannot write: REASON") when the file cannot be written (`label`:
  /// the file named in the message, `path` if empty), leaving no temporary file.
  void write(const std::string& path, const std::string& label = {}) const;

  /// The page as a string (what write() writes).
  [[nodiscard]] std::string html() const;

  /// Frames that write() would emit (kept frames plus the held-aside last one).
  [[nodiscard]] std::size_t frame_count() const;
  /// Frames received by add_frame().
  [[nodiscard]] std::size_t frames_received() const { return received_; }
  /// Current decimation stride k (every k-th received frame is kept).
  [[nodiscard]] std::size_t stride() const { return stride_; }
  /// What the recorder holds (a copy), for a checkpoint.
  [[nodiscard]] ReplayRecording recording() const;
  /// Continues from `recording` (of a recorder of the same model and bounds): the frames added
  /// next, and the page written, are those the recorder that gave it would have. Throws
  /// std::invalid_argument ("replay: ...") when it does not fit this model and these bounds (array
  /// sizes, indices, stride, frame count); the recorder is then unchanged.
  void restore(const ReplayRecording& recording);
  /// Whether the bundled viewer is embedded in this build (false: the minimal page is written).
  [[nodiscard]] static bool viewer_available();

 private:
  struct Kept {
    std::size_t index = 0;  // index among the frames received
    double time = 0.0;
    std::vector<float> moving;    // (nmoving * 7) poses of the moving bodies
    std::vector<float> contacts;  // (ncontacts * 13)
    double kinetic = 0.0, potential = 0.0, dissipated = 0.0;
    double driven_work = 0.0, force_work = 0.0, damping = 0.0;
    [[nodiscard]] std::size_t bytes() const { return 4 * (moving.size() + contacts.size()); }
  };
  void fill(Kept& kept, const ReplayFrame& frame, std::size_t index) const;
  void halve();

  const Model& model_;
  std::size_t max_frames_;
  std::size_t max_bytes_;
  std::vector<int> moving_;        // (nmoving) indices of the non-fixed bodies
  std::vector<float> base_poses_;  // (nbodies * 7) poses of the first frame (fixed bodies' poses)
  std::vector<Kept> kept_;         // evenly decimated frames
  std::vector<Kept> pool_;         // dropped frames whose buffers are reused
  Kept last_;                      // the most recent frame received
  std::size_t kept_bytes_ = 0;
  std::size_t received_ = 0;
  std::size_t stride_ = 1;
};

}  // namespace coulomb
