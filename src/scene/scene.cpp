/// @file
/// Scene files → Model + State. The reading order follows the file format of
/// docs/scene-format.md: settings, materials, contacts, then bodies (shapes, mass properties,
/// initial state). Each section is one function; every check throws SceneError at the offending
/// node.

#include <coulomb/geometry/mass_properties.hpp>
#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/law.hpp>
#include <coulomb/laws/registry.hpp>
#include <coulomb/scene/scene.hpp>

#include "scene/yaml_reader.hpp"

#include <fmt/format.h>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace coulomb {

SceneError::SceneError(std::string file, int line, int column, std::string message)
    : std::runtime_error(fmt::format("{}:{}:{}: error: {}", file, line, column, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      message_(std::move(message)) {}

namespace {

using namespace scene_detail;

// Valid names (the scene-file vocabulary).
const std::vector<std::string> kTopKeys = {
    "name",      "description", "gravity",         "time",  "solver", "output",
    "materials", "contacts",    "default_contact", "bodies"};
const std::vector<std::string> kShapeTypes = {"plane",    "sphere",    "box",  "capsule",
                                              "cylinder", "ellipsoid", "cone", "convex"};
const std::vector<std::string> kBodyKeys = {
    "name",    "fixed",          "material", "shapes",      "mass",     "density",
    "inertia", "center_of_mass", "position", "orientation", "velocity", "angular_velocity"};

// Default output interval when the scene gives neither output.every nor output.interval [s].
constexpr double kDefaultOutputInterval = 0.01;

// ---------------------------------------------------------------------------------------------
// Settings: gravity, time, solver, output.

void read_time(const Reporter& r, const Field& f, Model& m) {
  const MapView map(r, f);
  map.allow({"end", "step"});
  std::optional<Field> end_f = map.get("end");
  std::optional<Field> step_f = map.get("step");
  if (end_f) m.end_time = positive(r, *end_f, number(r, *end_f));
  if (step_f) m.time_step = positive(r, *step_f, number(r, *step_f));
  if (m.time_step > m.end_time) {
    const Field& at = step_f ? *step_f : *end_f;
    r.fail(at,
           fmt::format("time.step ({}) must not exceed time.end ({})", m.time_step, m.end_time));
  }
}

void read_solver(const Reporter& r, const Field& f, SolverSettings& s) {
  const MapView map(r, f);
  map.allow({"formulation", "scheme", "name", "tolerance", "max_iterations", "theta", "active_set",
             "contact_margin", "activation_distance", "position_correction", "position_tolerance"});
  if (auto v = map.get("scheme")) {
    s.scheme = one_of(r, *v, "time-stepping scheme", {"midpoint", "moreau_jean"}) == "midpoint"
                   ? TimeScheme::midpoint
                   : TimeScheme::moreau_jean;
    // Moreau–Jean as Siconos runs it: no position stage unless asked for.
    if (s.scheme == TimeScheme::moreau_jean) s.position_correction = false;
  }
  if (auto v = map.get("name")) s.name = one_of(r, *v, "solver", {"nsgs", "prox", "auto"});
  if (auto v = map.get("formulation")) {
    s.formulation = one_of(r, *v, "formulation", {"nonsmooth", "compliant"});
    // The compliant laws exist (coulomb law, the Python module); their ODE integrator does not yet.
    if (s.formulation == "compliant")
      r.fail(*v,
             "solver.formulation: 'compliant' (ODE integration of the compliant laws) is not "
             "available yet; use nonsmooth");
  }
  if (auto v = map.get("tolerance")) s.tolerance = positive(r, *v, number(r, *v));
  if (auto v = map.get("max_iterations")) {
    s.max_iterations = integer(r, *v);
    if (s.max_iterations < 1) {
      r.fail(*v, fmt::format("{} must be >= 1, got {}", v->path, v->node.Scalar()));
    }
  }
  if (auto v = map.get("theta")) s.theta = in_range(r, *v, number(r, *v), 0.5, 1.0);
  if (auto v = map.get("active_set")) {
    s.active_set = one_of(r, *v, "active-set rule", {"predicted", "siconos"});
  }
  if (auto v = map.get("contact_margin")) s.contact_margin = non_negative(r, *v, number(r, *v));
  if (auto v = map.get("activation_distance"))
    s.activation_distance = non_negative(r, *v, number(r, *v));
  if (auto v = map.get("position_correction")) s.position_correction = boolean(r, *v);
  if (auto v = map.get("position_tolerance")) s.position_tolerance = positive(r, *v, number(r, *v));
  // θ and the Siconos active-set rule belong to the Moreau–Jean scheme.
  if (s.scheme == TimeScheme::midpoint) {
    if (auto v = map.get("theta"))
      r.fail(*v, "solver.theta applies to scheme: moreau_jean only (the midpoint scheme has none)");
    if (auto v = map.get("active_set"); v && s.active_set != "predicted")
      r.fail(*v, "solver.active_set: 'siconos' applies to scheme: moreau_jean only");
  }
}

void read_output(const Reporter& r, const Field& f, OutputSettings& o) {
  const MapView map(r, f);
  map.allow({"every", "interval"});
  auto every = map.get("every");
  auto interval = map.get("interval");
  if (every && interval) {
    r.fail(interval->key_loc,
           "give either output.every (steps) or output.interval (seconds), not "
           "both");
  }
  if (every) {
    o.every = integer(r, *every);
    o.interval = 0.0;
    if (o.every < 1) {
      r.fail(*every,
             fmt::format("output.every must be >= 1 (steps), got {}", every->node.Scalar()));
    }
  }
  if (interval) {
    o.every = 0;
    o.interval = positive(r, *interval, number(r, *interval));
  }
}

// ---------------------------------------------------------------------------------------------
// Materials.

void read_materials(const Reporter& r, const Field& f, Model& m, std::vector<Loc>& name_locs) {
  for (const Field& e : sequence(r, f)) {
    Material mat;
    Field name_f = e;
    if (e.node.IsMap()) {
      const MapView map(r, e);
      map.allow({"name", "young_modulus", "poisson_ratio", "density"});
      name_f = map.require("name");
      if (auto v = map.get("young_modulus")) mat.young_modulus = positive(r, *v, number(r, *v));
      if (auto v = map.get("poisson_ratio")) {
        mat.poisson_ratio = number(r, *v);
        if (!valid_poisson_ratio(mat.poisson_ratio)) {
          r.fail(*v, fmt::format("{} must be in (-1, 0.5], got {}", v->path, v->node.Scalar()));
        }
      }
      if (auto v = map.get("density")) mat.density = positive(r, *v, number(r, *v));
    } else if (!e.node.IsScalar()) {
      r.fail(e, fmt::format("{} must be a material name or a map {{name, young_modulus, "
                            "poisson_ratio, density}}, got {}",
                            e.path, describe(e.node)));
    }
    mat.name = string(r, name_f);
    const int previous = m.material_index(mat.name);
    if (previous >= 0) {
      r.fail(name_f, fmt::format("duplicate material name '{}' (first defined at line {})",
                                 mat.name, name_locs[static_cast<std::size_t>(previous)].line));
    }
    name_locs.push_back(name_f.loc);
    m.materials.push_back(mat);
  }
}

// ---------------------------------------------------------------------------------------------
// Contact laws.

// A law map of `section`: `law` (normal, friction) plus parameters. Which keys the law takes and
// which of them are numbers is the registry's (coulomb/laws/registry.hpp); their ranges are
// checked when the law is built (validate_laws), at their key.
LawSpec read_law(const Reporter& r, const Field& f, LawSection section) {
  const MapView map(r, f);
  const std::string name(section_name(section));
  LawSpec spec;
  spec.marks[""] = SourceMark{map.loc().line, map.loc().column};
  const LawInfo* info = nullptr;
  if (has_named_laws(section)) {
    std::vector<std::string> names;
    for (const LawInfo& l : law_registry())
      if (l.section == section) names.emplace_back(l.name);
    spec.law = one_of(r, map.require("law"), name + " law", names);
    info = find_law(section, spec.law);
  } else {
    spec.law = name;
    info = find_law(section, spec.law);
    std::vector<std::string> keys;
    for (const LawKey& k : info->keys) keys.emplace_back(k.key);
    for (const LawOption& o : info->options) keys.emplace_back(o.key);
    map.allow(keys);
  }
  for (const auto& [key, v] : map.entries()) {
    spec.marks[key] = SourceMark{v.key_loc.line, v.key_loc.column};
    if (key == "law") continue;
    if (!v.node.IsScalar())
      r.fail(v, fmt::format("{} must be a number or a name, got {}", v.path, describe(v.node)));
    // A key of the law is a number unless the registry lists it as an option; a key the law does
    // not take is kept as written, and its factory names the valid keys.
    const bool numeric =
        info->key(key) != nullptr || (info->option(key) == nullptr && is_number(v.node));
    if (numeric)
      spec.params[key] = number(r, v);
    else
      spec.options[key] = v.node.Scalar();
  }
  return spec;
}

// The law sections of a contact (`contacts` entry or `default_contact`).
void read_laws(const Reporter& r, const MapView& map, ContactSpec& c) {
  for (std::size_t i = 0; i < kLawSectionCount; ++i) {
    const auto section = static_cast<LawSection>(i);
    const std::optional<Field> v = map.get(std::string(section_name(section)));
    if (!v) continue;
    LawSpec spec = read_law(r, *v, section);
    c.set_law(section, std::move(spec));
  }
}

std::vector<std::string> law_section_keys() {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < kLawSectionCount; ++i)
    keys.emplace_back(section_name(static_cast<LawSection>(i)));
  return keys;
}

// ---------------------------------------------------------------------------------------------
// Contact laws through the laws module: every law of a contact is built once by its factory, so
// that each bad or unknown parameter is reported at its key.

// The law map of a section ("normal", "friction", ...) of a contact, or null.
const LawSpec* section_spec(const ContactSpec& c, const std::string& section) {
  return c.law(section_of(section));
}

// Where a section was written: its map, else the contact entry.
Loc section_loc(const ContactSpec& c, const std::string& section) {
  if (const LawSpec* s = section_spec(c, section)) {
    auto it = s->marks.find("");
    if (it != s->marks.end() && it->second.line > 0) return {it->second.line, it->second.column};
  }
  return {c.mark.line > 0 ? c.mark.line : 1, c.mark.column > 0 ? c.mark.column : 1};
}

// Builds every law of contact `c` (`path` names it in messages, e.g. "contacts[0]") between
// materials m1 and m2; throws SceneError at the offending key.
void validate_laws(const Reporter& r, const ContactSpec& c, const std::string& path,
                   const Material& m1, const Material& m2) {
  try {
    (void)make_normal_law(c.normal, m1, m2);
    const std::unique_ptr<FrictionLaw> friction = make_friction_law(c.friction);
    if (c.rolling) (void)make_rolling_law(*c.rolling);
    if (c.pivoting) (void)make_pivoting_law(*c.pivoting);
    const double mu = friction->isotropic_coefficient();
    for (const char* section : {"soft_finger", "contensou"}) {
      if (section_spec(c, section) != nullptr && std::isnan(mu)) {
        r.fail(
            section_loc(c, section),
            fmt::format("{}.{} needs an isotropic friction law with a finite coefficient "
                        "(coulomb, regularized, stribeck or elastic_stick, without mu_t1/mu_t2), "
                        "got friction law '{}'",
                        path, section, c.friction.law));
      }
    }
    if (c.soft_finger) (void)make_soft_finger_law(*c.soft_finger, mu);
    if (c.contensou) {
      (void)make_contensou_law(*c.contensou, mu, m1, m2,
                               c.rolling_resistance ? &*c.rolling_resistance : nullptr);
    }
  } catch (const LawError& e) {
    const std::string section = e.key().substr(0, e.key().find('.'));
    Loc loc = section_loc(c, section);
    if (e.mark().line > 0) loc = Loc{e.mark().line, e.mark().column};
    std::string message = fmt::format("{}.{}", path, e.what());
    // Missing material properties: name the materials.
    if (e.mark().line == 0 && message.find("materials") != std::string::npos) {
      auto name = [](const Material& mat) {
        return mat.name.empty() ? std::string("the default material")
                                : fmt::format("material '{}'", mat.name);
      };
      message += fmt::format(" (contact between {} and {})", name(m1), name(m2));
    }
    r.fail(loc, message);
  }
  // Sections that would give the same moment twice, or a distortion without a patch.
  auto clash = [&](const char* a, const char* b, const char* why) {
    if (section_spec(c, a) != nullptr && section_spec(c, b) != nullptr) {
      r.fail(section_loc(c, b),
             fmt::format("{}.{} cannot be combined with {}.{}: {}", path, b, path, a, why));
    }
  };
  clash("pivoting", "soft_finger", "both give the pivoting moment M_n; keep one");
  clash("pivoting", "contensou", "contensou gives the pivoting moment M_n with the friction force");
  clash("soft_finger", "contensou",
        "contensou gives the pivoting moment M_n with the friction force");
  clash("rolling", "rolling_resistance", "both give the rolling moment M_t; keep one");
  if (c.rolling_resistance && !c.contensou) {
    r.fail(section_loc(c, "rolling_resistance"),
           fmt::format("{}.rolling_resistance needs {}.contensou: the pressure distortion acts on "
                       "the Contensou patch",
                       path, path));
  }
}

// default_contact serves every pair of the bodies' materials (−1: the default material) without
// a `contacts` entry: its laws are built for each such pair. With no such pair, the laws' own
// parameters are still checked, with placeholder elastic materials.
void validate_default_contact(const Reporter& r, const Model& m) {
  std::set<int> used;
  for (const Body& b : m.bodies) used.insert(b.material);
  const Material none{"", std::numeric_limits<double>::quiet_NaN(),
                      std::numeric_limits<double>::quiet_NaN(),
                      std::numeric_limits<double>::quiet_NaN()};
  auto material = [&](int i) { return i < 0 ? none : m.materials[static_cast<std::size_t>(i)]; };
  bool any = false;
  for (int i : used) {
    for (int j : used) {
      if (j < i || m.contact_spec_index(i, j) >= 0) continue;
      any = true;
      validate_laws(r, m.default_contact, "default_contact", material(i), material(j));
    }
  }
  if (!any) {
    const Material placeholder{"placeholder", 1.0, 0.0, 1.0};
    validate_laws(r, m.default_contact, "default_contact", placeholder, placeholder);
  }
}

void read_contacts(const Reporter& r, const Field& f, Model& m) {
  std::vector<std::string> defined;
  for (const Material& mat : m.materials) defined.push_back(mat.name);
  std::vector<std::string> keys = law_section_keys();
  keys.insert(keys.begin(), "between");
  for (const Field& e : sequence(r, f)) {
    const MapView map(r, e);
    map.allow(keys);
    ContactSpec c;
    c.mark = SourceMark{map.loc().line, map.loc().column};
    // The material pair.
    const Field between = map.require("between");
    if (!between.node.IsSequence() || between.node.size() != 2) {
      r.fail(between, fmt::format("{} must be a pair of material names [m1, m2], got {}",
                                  between.path, describe(between.node)));
    }
    const std::vector<Field> names = sequence(r, between);
    int idx[2] = {-1, -1};
    for (int k = 0; k < 2; ++k) {
      const std::string name = string(r, names[static_cast<std::size_t>(k)]);
      idx[k] = m.material_index(name);
      if (idx[k] < 0) {
        const std::string valid = defined.empty()
                                      ? "no materials are defined (add a 'materials' list)"
                                      : "defined materials: " + join(defined);
        const std::string best = closest(name, defined);
        r.fail(
            names[static_cast<std::size_t>(k)],
            fmt::format("{}: unknown material '{}'{}; {}", names[static_cast<std::size_t>(k)].path,
                        name, best.empty() ? "" : " (did you mean '" + best + "'?)", valid));
      }
    }
    const int previous = m.contact_spec_index(idx[0], idx[1]);
    if (previous >= 0) {
      r.fail(between, fmt::format("{}: the pair ({}, {}) is already given by contacts[{}] "
                                  "(line {})",
                                  between.path, m.materials[static_cast<std::size_t>(idx[0])].name,
                                  m.materials[static_cast<std::size_t>(idx[1])].name, previous,
                                  m.contacts[static_cast<std::size_t>(previous)].mark.line));
    }
    c.material1 = idx[0];
    c.material2 = idx[1];
    read_laws(r, map, c);
    validate_laws(r, c, e.path, m.materials[static_cast<std::size_t>(idx[0])],
                  m.materials[static_cast<std::size_t>(idx[1])]);
    m.contacts.push_back(std::move(c));
  }
}

// ---------------------------------------------------------------------------------------------
// Shapes.

// A convex hull needs 4 points not all in one plane: the smallest principal spread of the points
// must exceed 1e-9 of the largest.
void check_hull(const Reporter& r, const Field& f, const std::vector<Vec3>& pts) {
  if (pts.size() < 4) {
    r.fail(f, fmt::format("{} must have at least 4 points, got {}", f.path, pts.size()));
  }
  Vec3 mean = Vec3::Zero();
  for (const Vec3& p : pts) mean += p;
  mean /= static_cast<double>(pts.size());
  Mat3 cov = Mat3::Zero();
  for (const Vec3& p : pts) cov += (p - mean) * (p - mean).transpose();
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(cov, Eigen::EigenvaluesOnly);
  const Vec3 l = eig.eigenvalues().cwiseMax(0.0).cwiseSqrt();
  if (!(l(0) > 1e-9 * l(2))) {
    r.fail(f, fmt::format("{}: the points are all in one plane (or line); a convex shape needs "
                          "volume",
                          f.path));
  }
}

// Reads one shape; `type_loc` receives where its type was written.
Shape read_shape(const Reporter& r, const Field& f, bool body_fixed) {
  const MapView map(r, f);
  const Field type_f = map.require("type");
  const std::string type = one_of(r, type_f, "shape type", kShapeTypes);
  Shape shape;
  std::vector<std::string> keys = {"type", "position", "orientation"};
  auto len = [&](const char* key) {
    const Field v = map.require(key);
    return positive(r, v, number(r, v));
  };
  auto positive3 = [&](const char* key) {
    const Field v = map.require(key);
    const Vec3 x = vec3(r, v);
    if (!(x.minCoeff() > 0.0)) {
      r.fail(v, fmt::format("{} must have 3 values > 0, got [{}, {}, {}]", v.path, x.x(), x.y(),
                            x.z()));
    }
    return x;
  };
  // Keys of each type, checked before the values are read.
  if (type == "plane") keys.insert(keys.end(), {"normal", "offset"});
  if (type == "sphere") keys.insert(keys.end(), {"radius"});
  if (type == "box") keys.insert(keys.end(), {"half_extents"});
  if (type == "capsule" || type == "cylinder") keys.insert(keys.end(), {"radius", "half_length"});
  if (type == "ellipsoid") keys.insert(keys.end(), {"semi_axes"});
  if (type == "cone") keys.insert(keys.end(), {"radius", "height"});
  if (type == "convex") keys.insert(keys.end(), {"points"});
  map.allow(keys);
  if (type == "plane") {
    if (!body_fixed) {
      r.fail(type_f, fmt::format("{}: a plane is unbounded and only allowed on a fixed body "
                                 "(add 'fixed: true' to the body)",
                                 f.path));
    }
    Plane p;
    if (auto v = map.get("normal")) {
      p.normal = vec3(r, *v);
      if (!(p.normal.norm() > 0.0)) r.fail(*v, fmt::format("{} must not be zero", v->path));
      p.normal.normalize();
    }
    if (auto v = map.get("offset")) p.offset = number(r, *v);
    shape.geometry = p;
  } else if (type == "sphere") {
    shape.geometry = Sphere{len("radius")};
  } else if (type == "box") {
    shape.geometry = Box{positive3("half_extents")};
  } else if (type == "capsule") {
    const double radius = len("radius");
    shape.geometry = Capsule{radius, len("half_length")};
  } else if (type == "cylinder") {
    const double radius = len("radius");
    shape.geometry = Cylinder{radius, len("half_length")};
  } else if (type == "ellipsoid") {
    shape.geometry = Ellipsoid{positive3("semi_axes")};
  } else if (type == "cone") {
    const double radius = len("radius");
    shape.geometry = Cone{radius, len("height")};
  } else {
    const Field pts_f = map.require("points");
    std::vector<Vec3> points;
    for (const Field& p : sequence(r, pts_f)) points.push_back(vec3(r, p));
    check_hull(r, pts_f, points);
    // The hull proper (vertices, faces, normals): the narrowphase needs its faces for contact
    // manifolds (a face resting on a face gives the clipped polygon, not one point).
    try {
      shape.geometry = make_convex_hull(points);
    } catch (const std::exception& e) {
      r.fail(pts_f, fmt::format("{}: {}", pts_f.path, e.what()));
    }
  }
  if (auto v = map.get("position")) shape.pose_BS.p = vec3(r, *v);
  if (auto v = map.get("orientation")) shape.pose_BS.q = orientation(r, *v);
  return shape;
}

// ---------------------------------------------------------------------------------------------
// Bodies.

// Inertia: [Ixx, Iyy, Izz] or a 3×3 matrix, checked to be a physical inertia tensor.
Mat3 read_inertia(const Reporter& r, const Field& f) {
  Mat3 inertia = Mat3::Zero();
  const bool rows = f.node.IsSequence() && f.node.size() == 3 && f.node[0].IsSequence();
  if (rows) {
    const std::vector<Field> e = sequence(r, f);
    for (int i = 0; i < 3; ++i) inertia.row(i) = vec3(r, e[static_cast<std::size_t>(i)]);
  } else if (f.node.IsSequence() && f.node.size() == 3) {
    inertia.diagonal() = vec3(r, f);
  } else {
    r.fail(f, fmt::format("{} must be 3 principal moments [Ixx, Iyy, Izz] or a 3x3 matrix "
                          "[[..], [..], [..]] (kg m^2), got {}",
                          f.path, describe(f.node)));
  }
  std::string why;
  if (!is_physical_inertia(inertia, &why)) {
    r.fail(f, fmt::format("{} (kg m^2) is not a physical inertia: {}", f.path, why));
  }
  return inertia;
}

// Mass properties of the shapes with a uniform density, in the body frame.
MassProperties shapes_mass(const Reporter& r, const std::vector<Shape>& shapes,
                           const std::vector<Field>& fields, double density) {
  MassProperties total;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    try {
      const MassProperties mp =
          transform(shape_mass_properties(shapes[i].geometry, density), shapes[i].pose_BS);
      total = i == 0 ? mp : combine(total, mp);
    } catch (const std::invalid_argument& e) {
      r.fail(fields[i],
             fmt::format("{}: cannot compute its mass properties: {}", fields[i].path, e.what()));
    }
  }
  return total;
}

struct InitialState {
  Vec3 p_WB = Vec3::Zero();
  Quat q_WB = Quat::Identity();
  Vec3 v_WC = Vec3::Zero();
  Vec3 w_W = Vec3::Zero();
};

void read_body(const Reporter& r, const Field& f, Model& m, InitialState& init) {
  const MapView map(r, f);
  map.allow(kBodyKeys);
  Body body;
  body.mark = SourceMark{map.loc().line, map.loc().column};
  // Name (unique) and material.
  const Field name_f = map.require("name");
  body.name = string(r, name_f);
  const int previous = m.body_index(body.name);
  if (previous >= 0) {
    r.fail(name_f, fmt::format("duplicate body name '{}' (first defined at line {})", body.name,
                               m.bodies[static_cast<std::size_t>(previous)].mark.line));
  }
  if (auto v = map.get("fixed")) body.fixed = boolean(r, *v);
  if (auto v = map.get("material")) {
    const std::string name = string(r, *v);
    body.material = m.material_index(name);
    if (body.material < 0) {
      std::vector<std::string> defined;
      for (const Material& mat : m.materials) defined.push_back(mat.name);
      const std::string best = closest(name, defined);
      r.fail(*v, fmt::format("{}: unknown material '{}'{}; {}", v->path, name,
                             best.empty() ? "" : " (did you mean '" + best + "'?)",
                             defined.empty() ? "no materials are defined (add a 'materials' list)"
                                             : "defined materials: " + join(defined)));
    }
  }
  // Shapes.
  std::vector<Shape> shapes;
  std::vector<Field> shape_fields;
  if (auto v = map.get("shapes")) {
    shape_fields = sequence(r, *v);
    for (const Field& s : shape_fields) shapes.push_back(read_shape(r, s, body.fixed));
  }
  // Pose and twist (the velocity is that of the centre of mass).
  if (auto v = map.get("position")) init.p_WB = vec3(r, *v);
  if (auto v = map.get("orientation")) init.q_WB = orientation(r, *v);
  std::optional<Field> vel = map.get("velocity");
  std::optional<Field> ang = map.get("angular_velocity");
  if (vel) init.v_WC = vec3(r, *vel);
  if (ang) init.w_W = vec3(r, *ang);
  std::optional<Field> com_f = map.get("center_of_mass");
  if (com_f) body.com_B = vec3(r, *com_f);

  std::optional<Field> mass_f = map.get("mass");
  std::optional<Field> density_f = map.get("density");
  std::optional<Field> inertia_f = map.get("inertia");
  if (body.fixed) {
    // A fixed body has no mass and does not move.
    for (const auto& key : {"mass", "density", "inertia"}) {
      if (auto v = map.get(key)) {
        r.fail(v->key_loc, fmt::format("{} is fixed: it has no mass properties, remove '{}' (or "
                                       "set 'fixed: false')",
                                       map.path(), key));
      }
    }
    if (vel && init.v_WC != Vec3::Zero()) {
      r.fail(*vel, fmt::format("{} is fixed: its velocity must be zero", map.path()));
    }
    if (ang && init.w_W != Vec3::Zero()) {
      r.fail(*ang, fmt::format("{} is fixed: its angular velocity must be zero", map.path()));
    }
  } else {
    // Mass: given, or from a density (the body's or its material's) and the shapes.
    if (mass_f && density_f) {
      r.fail(density_f->key_loc,
             fmt::format("{}: give either 'mass' or 'density', not both", map.path()));
    }
    double density = 0.0;
    if (density_f) {
      density = positive(r, *density_f, number(r, *density_f));
    } else if (!mass_f && body.material >= 0 &&
               std::isfinite(m.materials[static_cast<std::size_t>(body.material)].density)) {
      density = m.materials[static_cast<std::size_t>(body.material)].density;
    }
    if (shapes.empty()) {
      if (density_f) {
        r.fail(density_f->key_loc, fmt::format("{} has no shapes: a density cannot give its mass; "
                                               "give 'mass' and 'inertia'",
                                               map.path()));
      }
      if (!mass_f || !inertia_f) {
        r.fail(map.loc(), fmt::format("{} has no shapes: give 'mass' (kg) and 'inertia' (kg m^2)",
                                      map.path()));
      }
    } else if (!mass_f && density == 0.0) {
      r.fail(map.loc(), fmt::format("{} needs 'mass' (kg) or 'density' (kg/m^3), or a material "
                                    "with a density",
                                    map.path()));
    }
    if (mass_f) {
      body.mass = positive(r, *mass_f, number(r, *mass_f));
      if (!inertia_f) {
        // Shapes' inertia (about their own centroid) scaled to the given mass.
        const MassProperties unit = shapes_mass(r, shapes, shape_fields, 1.0);
        body.inertia_B = unit.inertia * (body.mass / unit.mass);
      }
    } else {
      const MassProperties mp = shapes_mass(r, shapes, shape_fields, density);
      body.mass = mp.mass;
      body.inertia_B = mp.inertia;
      if (!com_f) body.com_B = mp.com;
    }
    if (inertia_f) body.inertia_B = read_inertia(r, *inertia_f);
  }
  // Store the shapes body by body.
  body.first_shape = static_cast<int>(m.shapes.size());
  body.shape_count = static_cast<int>(shapes.size());
  for (Shape& s : shapes) {
    m.shapes.push_back(std::move(s));
    m.shape_body.push_back(static_cast<int>(m.bodies.size()));
  }
  m.bodies.push_back(std::move(body));
}

// ---------------------------------------------------------------------------------------------
// The whole scene.

// The nonsmooth formulation (the only one runnable so far) takes the laws, keys and option values
// the registry marks nonsmooth: Signorini, isotropic Coulomb, rolling/pivoting/soft finger, the
// Contensou ellipsoid or exact limit set. The others are valid scene text but are rejected here,
// at their key, rather than at run time.
void check_nonsmooth_laws(const Reporter& r, const ContactSpec& c, const std::string& path) {
  for (std::size_t i = 0; i < kLawSectionCount; ++i) {
    const auto section = static_cast<LawSection>(i);
    const LawSpec* spec = section_spec(c, std::string(section_name(section)));
    if (spec == nullptr) continue;
    const FormulationError e = formulation_error(section, *spec, kNonsmooth);
    if (e.empty()) continue;
    auto it = spec->marks.find(e.key);
    if (it == spec->marks.end()) it = spec->marks.find("");
    const Loc at = it == spec->marks.end() ? Loc{} : Loc{it->second.line, it->second.column};
    std::string message = fmt::format("{}.{}", path, e.message);
    if (section == LawSection::rolling_resistance)
      message += "; use rolling: {k: } in the nonsmooth formulation";
    r.fail(at, message);
  }
}

// PROX solves the three-unknown problem only: `solver: {name: prox}` with a moment law in any
// contact spec is an error at solver.name (never a silent switch to NSGS), naming the law and
// where it was written. Model::finalize makes the same check for models built from code.
void check_solver_fits_laws(const Reporter& r, const MapView& top, const Model& m) {
  if (m.solver.name != "prox") return;
  auto check = [&](const ContactSpec& c, const std::string& path) {
    const char* law = c.moment_law();
    if (law == nullptr) return;
    const std::optional<Field> solver_f = top.get("solver");
    const std::optional<Field> name_f = MapView(r, *solver_f).get("name");
    const Loc at = section_loc(c, law);
    r.fail(*name_f, fmt::format("solver.name: 'prox' cannot solve contacts with moments, and "
                                "{}.{} (line {}) is a moment law; the six-unknown problem is "
                                "solved by nsgs or auto",
                                path, law, at.line));
  };
  for (std::size_t i = 0; i < m.contacts.size(); ++i)
    check(m.contacts[i], fmt::format("contacts[{}]", i));
  check(m.default_contact, "default_contact");
}

void read_scene(const Reporter& r, const YAML::Node& root, const std::string& default_name,
                Scene& scene) {
  if (!root.IsDefined() || root.IsNull()) {
    r.fail(Loc{}, "the scene is empty; expected a map with at least 'bodies'");
  }
  const MapView top(r, Field{root, "", loc_of(root), loc_of(root)});
  top.allow(kTopKeys);
  Model& m = scene.model;
  m.name = default_name;
  m.output.every = 0;
  m.output.interval = kDefaultOutputInterval;
  if (auto v = top.get("name")) m.name = string(r, *v);
  if (auto v = top.get("description")) (void)string(r, *v);
  if (auto v = top.get("gravity")) m.gravity = vec3(r, *v);
  if (auto v = top.get("time")) read_time(r, *v, m);
  if (auto v = top.get("solver")) read_solver(r, *v, m.solver);
  if (auto v = top.get("output")) read_output(r, *v, m.output);
  std::vector<Loc> material_locs;
  if (auto v = top.get("materials")) read_materials(r, *v, m, material_locs);
  if (auto v = top.get("contacts")) read_contacts(r, *v, m);
  if (auto v = top.get("default_contact")) {
    const MapView map(r, *v);
    map.allow(law_section_keys());
    read_laws(r, map, m.default_contact);
  }
  // Bodies and their initial state.
  const Field bodies_f = top.require("bodies");
  const std::vector<Field> bodies = sequence(r, bodies_f);
  if (bodies.empty()) r.fail(bodies_f, "bodies must list at least one body");
  std::vector<InitialState> init(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) read_body(r, bodies[i], m, init[i]);
  validate_default_contact(r, m);
  check_solver_fits_laws(r, top, m);
  // Invariants (all checked above already; a failure here is a bug of the loader).
  try {
    m.finalize();
  } catch (const std::invalid_argument& e) {
    r.fail(Loc{}, fmt::format("internal error: {}", e.what()));
  }
  State& s = scene.state;
  s.resize(m);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    s.q_WB[i] = init[i].q_WB;
    s.x_WC[i] = init[i].p_WB + init[i].q_WB * m.bodies[i].com_B;
    s.v_WC[i] = init[i].v_WC;
    s.w_W[i] = init[i].w_W;
  }
}

// The file name's stem ("scenes/billiard.yaml" -> "billiard").
std::string stem(const std::string& path) {
  const std::size_t slash = path.find_last_of("/\\");
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t dot = base.find_last_of('.');
  if (dot != std::string::npos && dot > 0) base.resize(dot);
  return base.empty() ? std::string("scene") : base;
}

Scene load(std::string_view text, const std::string& file, const std::string& default_name) {
  const Reporter r(file);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    const Loc loc = e.mark.is_null() ? Loc{} : Loc{e.mark.line + 1, e.mark.column + 1};
    r.fail(loc, "YAML syntax: " + e.msg);
  }
  Scene scene;
  scene.source = std::string(text);
  scene.file = file;
  read_scene(r, root, default_name, scene);
  return scene;
}

}  // namespace

void require_runnable(const Scene& scene) {
  const Reporter r(scene.file);
  const Model& m = scene.model;
  for (std::size_t i = 0; i < m.contacts.size(); ++i)
    check_nonsmooth_laws(r, m.contacts[i], fmt::format("contacts[{}]", i));
  check_nonsmooth_laws(r, m.default_contact, "default_contact");
}

Scene load_scene_text(std::string_view text, const std::string& name) {
  return load(text, name, stem(name));
}

Scene load_scene_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path, 1, 1, "cannot open the scene file");
  std::ostringstream text;
  text << in.rdbuf();
  return load(text.str(), path, stem(path));
}

Scene load_builtin_scene(std::string_view name) {
  const std::string_view text = builtin_scene_text(name);
  const std::string n(builtin_scene_name(name));
  return load(text, "builtin:" + n, n);
}

}  // namespace coulomb
