/// @file
/// Typed, located reading of yaml-cpp nodes (see yaml_reader.hpp).

#include "scene/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace coulomb::scene_detail {

Loc loc_of(const YAML::Node& node) {
  const YAML::Mark m = node.Mark();
  if (m.is_null() || m.line < 0 || m.column < 0) return {};
  return {m.line + 1, m.column + 1};
}

void Reporter::fail(Loc loc, const std::string& message) const {
  throw SceneError(file_, loc.line, loc.column, message);
}

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return node.size() == 1 ? "a sequence of 1 element"
                              : fmt::format("a sequence of {} elements", node.size());
    case YAML::NodeType::Scalar:
      return "'" + node.Scalar() + "'";
    default:
      return "nothing";
  }
}

namespace {

// Levenshtein distance (small strings only: key and law names).
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// " (did you mean 'x'?)" or "".
std::string suggestion(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string best = closest(word, candidates);
  return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

}  // namespace

std::string closest(std::string_view word, const std::vector<std::string>& candidates) {
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  std::string best;
  std::size_t best_d = limit + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += ", ";
    out += words[i];
  }
  return out;
}

std::string child_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

MapView::MapView(const Reporter& reporter, const Field& field)
    : reporter_(&reporter), path_(field.path), loc_(field.loc) {
  if (!field.node.IsMap()) {
    reporter.fail(field, fmt::format("{} must be a map, got {}", name(), describe(field.node)));
  }
  for (auto it = field.node.begin(); it != field.node.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) {
      reporter.fail(loc_of(key),
                    fmt::format("a key in {} must be a plain name, got {}", name(), describe(key)));
    }
    const std::string text = key.Scalar();
    // Duplicate keys: yaml-cpp keeps both; the second would silently be ignored.
    for (const auto& [k, f] : entries_) {
      if (k == text) {
        reporter.fail(loc_of(key), fmt::format("duplicate key '{}' in {} (first given at line {})",
                                               text, name(), f.key_loc.line));
      }
    }
    const YAML::Node value = it->second;
    Field f{value, child_path(path_, text), loc_of(value), loc_of(key)};
    if (!value.IsDefined() || value.IsNull()) f.loc = f.key_loc;
    entries_.emplace_back(text, std::move(f));
  }
}

void MapView::allow(const std::vector<std::string>& allowed) const {
  for (const auto& [key, f] : entries_) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      reporter_->fail(f.key_loc, fmt::format("unknown key '{}' in {}{}; valid keys: {}", key,
                                             name(), suggestion(key, allowed), join(allowed)));
    }
  }
}

std::optional<Field> MapView::get(std::string_view key) const {
  for (const auto& [k, f] : entries_) {
    if (k == key) return f;
  }
  return std::nullopt;
}

Field MapView::require(std::string_view key) const {
  auto f = get(key);
  if (!f) reporter_->fail(loc_, fmt::format("{} is missing the required key '{}'", name(), key));
  return *f;
}

std::vector<Field> sequence(const Reporter& r, const Field& f) {
  if (!f.node.IsSequence()) {
    r.fail(f, fmt::format("{} must be a sequence, got {}", f.path, describe(f.node)));
  }
  std::vector<Field> out;
  out.reserve(f.node.size());
  for (std::size_t i = 0; i < f.node.size(); ++i) {
    const YAML::Node e = f.node[i];
    Loc loc = loc_of(e);
    if (e.IsNull()) loc = f.loc;  // an empty element has no mark: point at the sequence
    out.push_back(Field{e, fmt::format("{}[{}]", f.path, i), loc, loc});
  }
  return out;
}

bool is_number(const YAML::Node& node) {
  double v = 0.0;
  return node.IsScalar() && node.Tag() != "!" && YAML::convert<double>::decode(node, v);
}

double number(const Reporter& r, const Field& f) {
  double v = 0.0;
  if (!is_number(f.node)) {
    if (f.node.IsScalar() && f.node.Tag() == "!") {
      r.fail(f, fmt::format("{} must be a number, got the quoted string \"{}\"", f.path,
                            f.node.Scalar()));
    }
    r.fail(f, fmt::format("{} must be a number, got {}", f.path, describe(f.node)));
  }
  v = f.node.as<double>();
  if (!std::isfinite(v)) {
    r.fail(f, fmt::format("{} must be a finite number, got {}", f.path, f.node.Scalar()));
  }
  return v;
}

int integer(const Reporter& r, const Field& f) {
  long long v = 0;
  if (!f.node.IsScalar() || f.node.Tag() == "!" || !YAML::convert<long long>::decode(f.node, v) ||
      v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
    r.fail(f, fmt::format("{} must be an integer, got {}", f.path, describe(f.node)));
  }
  return static_cast<int>(v);
}

bool boolean(const Reporter& r, const Field& f) {
  bool v = false;
  if (!f.node.IsScalar() || f.node.Tag() == "!" || !YAML::convert<bool>::decode(f.node, v)) {
    r.fail(f, fmt::format("{} must be true or false, got {}", f.path, describe(f.node)));
  }
  return v;
}

namespace {
// The offset of the first byte that does not start a well-formed UTF-8 sequence (shortest form,
// no surrogates, at most U+10FFFF: RFC 3629 §4), or npos.
std::size_t invalid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = 0;
    unsigned lo = 0x80, hi = 0xBF;  // bounds of the second byte
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      if (c == 0xE0) lo = 0xA0;  // no overlong form
      if (c == 0xED) hi = 0x9F;  // no surrogate
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      if (c == 0xF0) lo = 0x90;  // no overlong form
      if (c == 0xF4) hi = 0x8F;  // at most U+10FFFF
    } else {
      return i;
    }
    if (i + static_cast<std::size_t>(extra) >= s.size()) return i;  // truncated sequence
    for (int k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return i;
    }
    i += static_cast<std::size_t>(extra) + 1;
  }
  return std::string_view::npos;
}
}  // namespace

std::string string(const Reporter& r, const Field& f) {
  if (!f.node.IsScalar() || f.node.Scalar().empty()) {
    r.fail(f, fmt::format("{} must be a non-empty string, got {}", f.path, describe(f.node)));
  }
  const std::string& text = f.node.Scalar();
  if (const std::size_t at = invalid_utf8(text); at != std::string_view::npos) {
    r.fail(f, fmt::format("{} must be UTF-8 text; byte {} (0x{:02X}) is not", f.path, at,
                          static_cast<unsigned char>(text[at])));
  }
  return text;
}

Vec3 vec3(const Reporter& r, const Field& f) {
  if (!f.node.IsSequence() || f.node.size() != 3) {
    r.fail(f, fmt::format("{} must be a sequence of 3 numbers [x, y, z], got {}", f.path,
                          describe(f.node)));
  }
  const std::vector<Field> e = sequence(r, f);
  return {number(r, e[0]), number(r, e[1]), number(r, e[2])};
}

Vec3 bounded_vec3(const Reporter& r, const Field& f, double limit, const char* unit) {
  const Vec3 v = vec3(r, f);
  if (!(v.cwiseAbs().maxCoeff() <= limit)) {
    r.fail(f, fmt::format("{} must have components within ±{:g} {}, got [{}, {}, {}]", f.path,
                          limit, unit, v.x(), v.y(), v.z()));
  }
  return v;
}

double positive(const Reporter& r, const Field& f, double value) {
  if (!(value > 0.0)) r.fail(f, fmt::format("{} must be > 0, got {}", f.path, f.node.Scalar()));
  return value;
}

double non_negative(const Reporter& r, const Field& f, double value) {
  if (!(value >= 0.0)) r.fail(f, fmt::format("{} must be >= 0, got {}", f.path, f.node.Scalar()));
  return value;
}

double in_range(const Reporter& r, const Field& f, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {
    r.fail(f, fmt::format("{} must be in [{}, {}], got {}", f.path, lo, hi, f.node.Scalar()));
  }
  return value;
}

std::string one_of(const Reporter& r, const Field& f, const std::string& what,
                   const std::vector<std::string>& valid) {
  const std::string s = string(r, f);
  if (std::find(valid.begin(), valid.end(), s) == valid.end()) {
    r.fail(f, fmt::format("{}: unknown {} '{}'{}; valid: {}", f.path, what, s, suggestion(s, valid),
                          join(valid)));
  }
  return s;
}

Quat orientation(const Reporter& r, const Field& f) {
  // Axis-angle form.
  if (f.node.IsMap()) {
    const MapView m(r, f);
    m.allow({"axis", "angle"});
    const Field axis_f = m.require("axis");
    const Vec3 axis = vec3(r, axis_f);
    const double angle = number(r, m.require("angle"));
    if (!(axis.norm() > 0.0)) r.fail(axis_f, fmt::format("{} must not be zero", axis_f.path));
    return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
  }
  // Quaternion form (w, x, y, z).
  if (!f.node.IsSequence() || f.node.size() != 4) {
    r.fail(f,
           fmt::format("{} must be a quaternion [w, x, y, z] or {{axis: [x, y, z], angle: rad}}, "
                       "got {}",
                       f.path, describe(f.node)));
  }
  const std::vector<Field> e = sequence(r, f);
  Quat q(number(r, e[0]), number(r, e[1]), number(r, e[2]), number(r, e[3]));
  const double n = q.norm();
  if (!(n > 1e-12)) {
    r.fail(f, fmt::format("{} is a zero quaternion; give a non-zero [w, x, y, z] "
                          "(it is normalised), e.g. [1, 0, 0, 0]",
                          f.path));
  }
  q.coeffs() /= n;
  return q;
}

}  // namespace coulomb::scene_detail
