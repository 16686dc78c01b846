#pragma once
/// @file
/// Scene files: YAML (or JSON, which yaml-cpp also reads) → a validated Model and its initial
/// State.
///
/// The format, every key with its unit, default and valid range, is documented in
/// docs/scene-format.md. Every problem in a file (YAML syntax, unknown key, wrong type, missing
/// key, value out of range, inconsistent body, ...) is reported by throwing SceneError, whose
/// what() is one line
///
///     FILE:LINE:COL: error: MESSAGE
///
/// with 1-based LINE and COL of the offending node (the key itself for unknown or duplicate keys,
/// the map for a missing key, the value otherwise). MESSAGE names the key and says what is valid.
///
/// Conventions (DESIGN §1): SI units; quaternions (w, x, y, z) body→world, normalised on load;
/// `velocity` is that of the centre of mass, `angular_velocity` is in the world frame;
/// State::x_WC holds the centre-of-mass position (p_WB + R_WB com_B).

#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace coulomb {

/// A loaded scene: the model, its initial state, and where it came from.
struct Scene {
  Model model;
  State state;
  std::string source;  ///< the full text of the scene as read (for outputs that embed it)
  std::string file;    ///< the name used as FILE in error messages (path, or "builtin:NAME")
};

/// An error in a scene file, located at a 1-based line and column.
class SceneError : public std::runtime_error {
 public:
  /// what() becomes "file:line:column: error: message", one line: control characters of the file
  /// name and message are escaped (coulomb/laws/one_line.hpp), as message() is.
  SceneError(std::string file, int line, int column, std::string message);

  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] int line() const { return line_; }      ///< 1-based
  [[nodiscard]] int column() const { return column_; }  ///< 1-based
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  int column_;
  std::string message_;
};

/// Loads a scene file (YAML or JSON). Throws SceneError (also when the file cannot be read).
[[nodiscard]] Scene load_scene_file(const std::string& path);

/// Checks that the scene's laws fit its formulation: the nonsmooth one takes the set-valued laws
/// (Signorini, isotropic Coulomb, Contensou ellipsoid or exact, rolling/pivoting/soft finger);
/// the compliant one the force laws (docs/laws.md), built for every pair of the bodies'
/// materials. A nonsmooth scene may hold compliant laws, which load (for `coulomb law` and the
/// Python module) but do not run. Throws SceneError at the offending key.
void require_runnable(const Scene& scene);

/// Bounds on what a scene (and Python's set_state) may give (docs/scene-format.md, "Bounds"):
/// with them every derived quantity (½ m v², m g z, impulses) stays below ~1e25, far from
/// overflow, and positions keep a double spacing (1.2e-10 m at 1e6 m) well below the position
/// tolerance (1e-8 m).
inline constexpr double kMaxPosition = 1e6;  ///< |x|, |y|, |z| of a body [m]
inline constexpr double kMaxSpeed = 1e6;     ///< components of v [m/s] and ω [rad/s]
inline constexpr double kMaxMass = 1e12;     ///< a body's mass [kg]
inline constexpr double kMaxGravity = 1e6;   ///< components of gravity [m/s²]

/// The most steps a run may take (time.end / time.step): 1e8. Beyond it a run writes more than
/// ~15 GB of per-step solver statistics and takes days; a finer step is almost always a typo.
inline constexpr double kMaxSteps = 1e8;
/// Why the time range (end time, step) [s] cannot run, or "" when it can: both finite and > 0,
/// step ≤ end, end/step ≤ kMaxSteps. The scene loader applies it to `time`, `coulomb run` to
/// `--end`/`--dt`.
[[nodiscard]] std::string time_range_error(double end_time, double time_step);

/// Loads a scene from text; `name` is used as FILE in error messages.
[[nodiscard]] Scene load_scene_text(std::string_view text, const std::string& name);

/// The built-in scene a name stands for: the alias "default" is "tippe-top" (what `coulomb run`
/// and `make run` run without a scene); any other name is itself. The one definition of the alias.
[[nodiscard]] std::string_view builtin_scene_name(std::string_view name);

/// The text of a built-in scene, embedded in the library at build time from scenes/*.yaml (the name
/// is the file stem, e.g. "billiard"; "default" as builtin_scene_name). Throws
/// std::invalid_argument for an unknown name, listing the valid ones.
[[nodiscard]] std::string_view builtin_scene_text(std::string_view name);

/// Names of the built-in scenes, sorted (without the alias "default").
[[nodiscard]] std::vector<std::string_view> builtin_scene_names();

/// Loads a built-in scene; FILE in error messages is "builtin:NAME".
[[nodiscard]] Scene load_builtin_scene(std::string_view name);

}  // namespace coulomb
