#pragma once
/// @file
/// Typed, located reading of yaml-cpp nodes for the scene loader (private to src/scene).
///
/// Every read either returns a valid value or throws SceneError at the 1-based line and column of
/// the offending node, with a message naming the key by its path (e.g.
/// `bodies[1].shapes[0].radius`) and saying what would be valid. yaml-cpp marks are 0-based; a null
/// node has no mark of its own, so errors about a missing value point at its key.

#include <coulomb/math/types.hpp>
#include <coulomb/model/model.hpp>
#include <coulomb/scene/scene.hpp>

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coulomb::scene_detail {

/// A 1-based position in the file.
struct Loc {
  int line = 1;
  int column = 1;
};

/// The 1-based location of a node (1:1 for a node without a mark).
[[nodiscard]] Loc loc_of(const YAML::Node& node);

/// A value found under a key: the node, its path for messages and where to point at.
struct Field {
  YAML::Node node;
  std::string path;  ///< e.g. "bodies[1].mass"
  Loc loc;           ///< the value's location, or the key's when the value is empty
  Loc key_loc;       ///< the key's location (== loc for sequence elements)
};

/// Throws SceneErrors located in one file.
class Reporter {
 public:
  explicit Reporter(std::string file) : file_(std::move(file)) {}
  [[noreturn]] void fail(Loc loc, const std::string& message) const;
  [[noreturn]] void fail(const Field& field, const std::string& message) const {
    fail(field.loc, message);
  }
  [[nodiscard]] const std::string& file() const { return file_; }

 private:
  std::string file_;
};

/// "a map", "a sequence", "nothing" or the quoted scalar text: what a node holds, for messages.
[[nodiscard]] std::string describe(const YAML::Node& node);

/// The closest of `candidates` to `word` by edit distance if it is close enough to be a likely typo
/// (distance <= max(1, |word| / 3)), else "".
[[nodiscard]] std::string closest(std::string_view word,
                                  const std::vector<std::string>& candidates);

/// "a, b, c".
[[nodiscard]] std::string join(const std::vector<std::string>& words);

/// A map node checked for duplicate keys and (optionally) unknown keys.
class MapView {
 public:
  /// `path` names the map in messages ("" for the root, shown as "the scene").
  /// Throws if `field.node` is not a map, or has a duplicate or non-scalar key.
  MapView(const Reporter& reporter, const Field& field);

  /// Throws at the first key not in `allowed`, listing the valid keys.
  void allow(const std::vector<std::string>& allowed) const;

  /// The value under `key`, if given.
  [[nodiscard]] std::optional<Field> get(std::string_view key) const;
  /// The value under `key`; throws at the map if it is absent.
  [[nodiscard]] Field require(std::string_view key) const;
  [[nodiscard]] bool has(std::string_view key) const { return get(key).has_value(); }

  /// All entries in file order: key text and value field.
  [[nodiscard]] const std::vector<std::pair<std::string, Field>>& entries() const {
    return entries_;
  }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] Loc loc() const { return loc_; }
  /// "the scene" for the root, else the path.
  [[nodiscard]] std::string name() const { return path_.empty() ? "the scene" : path_; }

 private:
  const Reporter* reporter_;
  std::string path_;
  Loc loc_;
  std::vector<std::pair<std::string, Field>> entries_;
};

/// Path of a child: "a.b", or "b" at the root.
[[nodiscard]] std::string child_path(const std::string& parent, std::string_view key);

/// The elements of a sequence field (throws if it is not a sequence), each with path "p[i]".
[[nodiscard]] std::vector<Field> sequence(const Reporter& r, const Field& f);

/// True if the node is a plain (unquoted) scalar that reads as a floating-point number.
[[nodiscard]] bool is_number(const YAML::Node& node);

// Typed reads. Numbers must be plain scalars and finite (.nan and .inf are rejected).
[[nodiscard]] double number(const Reporter& r, const Field& f);
[[nodiscard]] int integer(const Reporter& r, const Field& f);
[[nodiscard]] bool boolean(const Reporter& r, const Field& f);
[[nodiscard]] std::string string(const Reporter& r, const Field& f);
/// A sequence of exactly 3 finite numbers.
[[nodiscard]] Vec3 vec3(const Reporter& r, const Field& f);

// Range checks on a number already read; the message quotes the scalar as written.
/// A vector whose components lie within ±limit (`unit` names it in the message); the reason for
/// the bound is in docs/scene-format.md ("Bounds").
Vec3 bounded_vec3(const Reporter& r, const Field& f, double limit, const char* unit);
double positive(const Reporter& r, const Field& f, double value);                        // > 0
double non_negative(const Reporter& r, const Field& f, double value);                    // >= 0
double in_range(const Reporter& r, const Field& f, double value, double lo, double hi);  // [lo, hi]

/// One of `valid` (e.g. a law name); the message lists them under the noun `what`.
[[nodiscard]] std::string one_of(const Reporter& r, const Field& f, const std::string& what,
                                 const std::vector<std::string>& valid);

/// A unit quaternion from [w, x, y, z] (normalised; a zero one is rejected) or from
/// {axis: [x, y, z], angle: rad} (axis normalised; a zero axis is rejected).
[[nodiscard]] Quat orientation(const Reporter& r, const Field& f);

}  // namespace coulomb::scene_detail
