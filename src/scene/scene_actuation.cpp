/// @file
/// Scene files: driven bodies (`motion`), applied loads (`force`, `torque`, `load_frame`,
/// `force_point`, `load_table`, `damping`) and `springs` (docs/scene-format.md, "Driven bodies",
/// "Forces and damping", "Springs").

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "scene/readers.hpp"

namespace coulomb::scene_detail {

namespace {

// The directory of the scene file ("" for a text scene or a built-in one: paths stay as given).
std::string scene_directory(const std::string& file) {
  if (file.rfind("builtin:", 0) == 0) return "";
  const std::size_t slash = file.find_last_of("/\\");
  return slash == std::string::npos ? "" : file.substr(0, slash + 1);
}

// A CSV table of numbers with a header row: the header's column names and the rows. Every
// problem is reported at the scene key `f` naming the table's file and line.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  std::vector<int> lines;  // (rows) 1-based line of each row in the file
};

Csv read_csv(const Reporter& r, const Field& f, std::string& path_out) {
  const std::string name = string(r, f);
  const std::string path = name.empty() || name[0] == '/' ? name : scene_directory(r.file()) + name;
  path_out = name;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    r.fail(f, fmt::format("{}: cannot open the table '{}' (relative to the scene file)", f.path,
                          name));
  Csv csv;
  std::string line;
  int number_of_line = 0;
  auto split = [](const std::string& s) {
    std::vector<std::string> cells;
    std::stringstream ss(s);
    std::string cell;
    while (std::getline(ss, cell, ',')) {
      const auto b = cell.find_first_not_of(" \t\r");
      const auto e = cell.find_last_not_of(" \t\r");
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    return cells;
  };
  while (std::getline(in, line)) {
    ++number_of_line;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    const std::vector<std::string> cells = split(line);
    if (csv.header.empty()) {
      csv.header = cells;
      continue;
    }
    if (cells.size() != csv.header.size())
      r.fail(f, fmt::format("{}: {} line {}: {} values, the header has {}", f.path, name,
                            number_of_line, cells.size(), csv.header.size()));
    std::vector<double> row;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      char* end = nullptr;
      const double v = std::strtod(cells[i].c_str(), &end);
      if (cells[i].empty() || end != cells[i].c_str() + cells[i].size() || !std::isfinite(v))
        r.fail(f, fmt::format("{}: {} line {}: column '{}' is not a finite number: '{}'", f.path,
                              name, number_of_line, csv.header[i], cells[i]));
      row.push_back(v);
    }
    if (!csv.rows.empty() && !(row[0] > csv.rows.back()[0]))
      r.fail(f, fmt::format("{}: {} line {}: time {} must be after the row before ({})", f.path,
                            name, number_of_line, row[0], csv.rows.back()[0]));
    csv.rows.push_back(std::move(row));
    csv.lines.push_back(number_of_line);
  }
  if (csv.rows.size() < 2)
    r.fail(f, fmt::format("{}: the table '{}' needs a header and at least two rows", f.path, name));
  return csv;
}

// The header must be exactly one of `forms` (each a list of column names).
std::size_t header_form(const Reporter& r, const Field& f, const std::string& path, const Csv& csv,
                        const std::vector<std::vector<std::string>>& forms) {
  for (std::size_t i = 0; i < forms.size(); ++i)
    if (csv.header == forms[i]) return i;
  std::vector<std::string> valid;
  for (const auto& form : forms) valid.push_back(join(form));
  r.fail(f, fmt::format("{}: the table '{}' must have the header '{}'", f.path, path,
                        fmt::join(valid, "' or '")));
}

std::shared_ptr<const MotionTable> read_motion_table(const Reporter& r, const Field& f) {
  std::string path;
  const Csv csv = read_csv(r, f, path);
  const std::size_t form = header_form(r, f, path, csv,
                                       {{"t", "x", "y", "z"},
                                        {"t", "x", "y", "z", "qw", "qx", "qy", "qz"},
                                        {"t", "vx", "vy", "vz"},
                                        {"t", "vx", "vy", "vz", "wx", "wy", "wz"}});
  auto table = std::make_shared<MotionTable>();
  if (form >= 2) {
    // A velocity table: from t = 0 (the scene's pose), the pose integrated exactly.
    if (csv.rows.front()[0] != 0.0)
      r.fail(f, fmt::format("{}: {} line {}: a velocity table starts at t = 0 (the scene's pose), "
                            "got {}",
                            f.path, path, csv.lines.front(), csv.rows.front()[0]));
    table->velocities = true;
    for (std::size_t k = 0; k < csv.rows.size(); ++k) {
      const std::vector<double>& row = csv.rows[k];
      table->t.push_back(row[0]);
      table->v.emplace_back(row[1], row[2], row[3]);
      table->w.push_back(form == 3 ? Vec3(row[4], row[5], row[6]) : Vec3::Zero());
      if (table->v.back().cwiseAbs().maxCoeff() > kMaxSpeed ||
          table->w.back().cwiseAbs().maxCoeff() > kMaxSpeed)
        r.fail(f, fmt::format("{}: {} line {}: a velocity beyond {:g}", f.path, path, csv.lines[k],
                              kMaxSpeed));
    }
    const int turned = table->integrate_velocities();
    if (turned >= 0)
      r.fail(f, fmt::format("{}: {} line {}: the angular velocity turns its axis since the row "
                            "before (a velocity table keeps w on one axis over each segment; add "
                            "a row where it is zero, or use a pose table)",
                            f.path, path, csv.lines[static_cast<std::size_t>(turned)]));
    return table;
  }
  for (std::size_t k = 0; k < csv.rows.size(); ++k) {
    const std::vector<double>& row = csv.rows[k];
    table->t.push_back(row[0]);
    table->d.emplace_back(row[1], row[2], row[3]);
    Quat q = Quat::Identity();
    if (form == 1) {
      q = Quat(row[4], row[5], row[6], row[7]);
      if (!(q.norm() > 1e-12))
        r.fail(f, fmt::format("{}: {} line {}: a zero quaternion", f.path, path, csv.lines[k]));
      q.normalize();
      // The shorter way from the row before.
      if (k > 0 && q.dot(table->q.back()) < 0.0) q.coeffs() = -q.coeffs();
    }
    if (table->d.back().cwiseAbs().maxCoeff() > kMaxPosition)
      r.fail(f, fmt::format("{}: {} line {}: displacement beyond {:g} m", f.path, path,
                            csv.lines[k], kMaxPosition));
    table->q.push_back(q);
  }
  return table;
}

std::shared_ptr<const LoadTable> read_load_table(const Reporter& r, const Field& f) {
  std::string path;
  const Csv csv = read_csv(r, f, path);
  const std::size_t form = header_form(
      r, f, path, csv, {{"t", "fx", "fy", "fz"}, {"t", "fx", "fy", "fz", "tx", "ty", "tz"}});
  auto table = std::make_shared<LoadTable>();
  for (const std::vector<double>& row : csv.rows) {
    table->t.push_back(row[0]);
    table->force.emplace_back(row[1], row[2], row[3]);
    table->torque.push_back(form == 1 ? Vec3(row[4], row[5], row[6]) : Vec3::Zero());
  }
  return table;
}

}  // namespace

void read_motion(const Reporter& r, const Field& f, Body& body, const InitialState& init) {
  const MapView map(r, f);
  map.allow({"velocity", "angular_velocity", "sinusoid", "table"});
  BodyMotion& m = body.motion;
  m.kind = BodyMotion::Kind::twist;
  m.p0 = init.p_WB;
  m.q0 = init.q_WB;
  if (auto v = map.get("velocity")) m.velocity = bounded_vec3(r, *v, kMaxSpeed, "m/s");
  if (auto v = map.get("angular_velocity"))
    m.angular_velocity = bounded_vec3(r, *v, kMaxSpeed, "rad/s");
  if (auto v = map.get("sinusoid")) {
    const MapView s(r, *v);
    s.allow({"amplitude", "angular_amplitude", "frequency", "phase"});
    m.kind = BodyMotion::Kind::sinusoid;
    if (auto a = s.get("amplitude")) m.amplitude = bounded_vec3(r, *a, kMaxPosition, "m");
    if (auto a = s.get("angular_amplitude")) {
      m.angular_amplitude = bounded_vec3(r, *a, 1e3, "rad");
      // A fixed axis: Θ parallel to ω (so that ω_W = ω + Θ ṡ exactly).
      const Vec3 cross = m.angular_amplitude.cross(m.angular_velocity);
      if (cross.norm() > 1e-12 * m.angular_amplitude.norm() * m.angular_velocity.norm())
        r.fail(*a, fmt::format("{}: the rotation's amplitude must be parallel to "
                               "motion.angular_velocity (a fixed axis)",
                               a->path));
    }
    const Field freq = s.require("frequency");
    m.frequency = in_range(r, freq, number(r, freq), 0.0, 1e6);
    if (auto p = s.get("phase")) m.phase = in_range(r, *p, number(r, *p), -1e3, 1e3);
  }
  if (auto v = map.get("table")) {
    if (map.has("sinusoid") || map.has("velocity") || map.has("angular_velocity"))
      r.fail(v->key_loc, fmt::format("{}: a table gives the whole motion; remove 'velocity', "
                                     "'angular_velocity' and 'sinusoid'",
                                     v->path));
    m.kind = BodyMotion::Kind::table;
    m.table = read_motion_table(r, *v);
  }
}

void read_load(const Reporter& r, const MapView& map, Body& body) {
  BodyLoad& load = body.load;
  if (auto v = map.get("force")) load.force = bounded_vec3(r, *v, 1e12, "N");
  if (auto v = map.get("torque")) load.torque = bounded_vec3(r, *v, 1e12, "N m");
  if (auto v = map.get("load_frame"))
    load.body_frame = one_of(r, *v, "frame", {"world", "body"}) == "body";
  if (auto v = map.get("force_point")) {
    load.at_point = true;
    load.point_B = bounded_vec3(r, *v, kMaxPosition, "m");
  }
  if (auto v = map.get("load_table")) load.table = read_load_table(r, *v);
  if (auto v = map.get("damping")) {
    const MapView d(r, *v);
    d.allow({"linear", "angular"});
    if (auto c = d.get("linear")) load.linear_damping = non_negative(r, *c, number(r, *c));
    if (auto c = d.get("angular")) load.angular_damping = non_negative(r, *c, number(r, *c));
  }
}

void read_springs(const Reporter& r, const Field& f, Model& m) {
  std::vector<std::string> names;
  for (const Body& b : m.bodies) names.push_back(b.name);
  // A body by name ("world": -1).
  auto body_named = [&](const Field& bf) {
    const std::string name = string(r, bf);
    if (name == "world") return -1;
    const int b = m.body_index(name);
    if (b < 0) {
      const std::string best = closest(name, names);
      r.fail(bf, fmt::format("{}: unknown body '{}'{}", bf.path, name,
                             best.empty() ? "" : " (did you mean '" + best + "'?)"));
    }
    return b;
  };
  for (const Field& e : sequence(r, f)) {
    const MapView map(r, e);
    map.allow(
        {"body", "point", "anchor", "bodies", "points", "stiffness", "damping", "rest_length"});
    Spring spring;
    spring.mark = SourceMark{map.loc().line, map.loc().column};
    if (auto bodies_f = map.get("bodies")) {
      // Two ends: bodies [a, b] (either may be 'world'), points in their body frames (the
      // world's in the world frame).
      for (const char* key : {"body", "point", "anchor"})
        if (auto v = map.get(key))
          r.fail(v->key_loc, fmt::format("{}: give either 'bodies' and 'points', or 'body', "
                                         "'point' and 'anchor'",
                                         map.path()));
      const std::vector<Field> ends = sequence(r, *bodies_f);
      if (ends.size() != 2)
        r.fail(*bodies_f,
               fmt::format("{} must name two bodies, got {}", bodies_f->path, ends.size()));
      int b[2] = {body_named(ends[0]), body_named(ends[1])};
      Vec3 p[2] = {Vec3::Zero(), Vec3::Zero()};
      if (auto pf = map.get("points")) {
        const std::vector<Field> pts = sequence(r, *pf);
        if (pts.size() != 2)
          r.fail(*pf, fmt::format("{} must give two points, got {}", pf->path, pts.size()));
        for (int i = 0; i < 2; ++i) p[i] = bounded_vec3(r, pts[i], kMaxPosition, "m");
      }
      if (b[0] == b[1])
        r.fail(*bodies_f, fmt::format("{}: a spring joins two different bodies", bodies_f->path));
      // The pulled end is a free body.
      const auto is_free = [&](int i) { return b[i] >= 0 && !m.bodies[b[i]].fixed; };
      if (!is_free(0) && !is_free(1))
        r.fail(*bodies_f, fmt::format("{}: at least one end must be a free body", bodies_f->path));
      const int first = is_free(0) ? 0 : 1;
      spring.body = b[first];
      spring.point_B = p[first];
      spring.body2 = b[1 - first];
      if (spring.body2 < 0)
        spring.anchor_W = p[1 - first];
      else
        spring.point2_B = p[1 - first];
    } else {
      // One body to a point of the world (the original form).
      const Field body_f = map.require("body");
      spring.body = body_named(body_f);
      if (spring.body < 0 || m.bodies[static_cast<std::size_t>(spring.body)].fixed)
        r.fail(body_f, fmt::format("{}: body '{}' is fixed; a spring pulls a free body",
                                   body_f.path, string(r, body_f)));
      if (auto v = map.get("point")) spring.point_B = bounded_vec3(r, *v, kMaxPosition, "m");
      spring.anchor_W = bounded_vec3(r, map.require("anchor"), kMaxPosition, "m");
    }
    const Field k = map.require("stiffness");
    spring.stiffness = non_negative(r, k, number(r, k));
    if (auto v = map.get("damping")) spring.damping = non_negative(r, *v, number(r, *v));
    if (auto v = map.get("rest_length")) spring.rest_length = non_negative(r, *v, number(r, *v));
    m.springs.push_back(spring);
  }
}

}  // namespace coulomb::scene_detail
