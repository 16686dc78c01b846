/// @file
/// Scene files → Model + State. The reading order follows the file format of
/// docs/scene-format.md: settings, materials, contacts, then bodies (shapes, mass properties,
/// initial state). Each section is one function: the settings here, materials and contact laws in
/// scene_contacts.cpp, bodies and shapes in scene_bodies.cpp (readers.hpp); every check throws
/// SceneError at the offending node.

#include <coulomb/laws/law.hpp>
#include <coulomb/laws/one_line.hpp>
#include <coulomb/laws/registry.hpp>
#include <coulomb/model/contact_laws.hpp>
#include <coulomb/scene/scene.hpp>

#include "scene/readers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace coulomb {

// One line whatever the message quotes (a multi-line scalar, a name with a line break).
SceneError::SceneError(std::string file, int line, int column, std::string message)
    : std::runtime_error(
          fmt::format("{}:{}:{}: error: {}", one_line(file), line, column, one_line(message))),
      file_(std::move(file)),
      line_(line),
      column_(column),
      message_(one_line(message)) {}

namespace {

using namespace scene_detail;

// Valid names (the scene-file vocabulary).
const std::vector<std::string> kTopKeys = {
    "name",      "description", "gravity",         "time",   "solver",  "output",
    "materials", "contacts",    "default_contact", "bodies", "springs", "joints"};

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
  if (const std::string e = time_range_error(m.end_time, m.time_step); !e.empty())
    r.fail(step_f ? *step_f : *end_f, e);
}

void read_solver(const Reporter& r, const Field& f, SolverSettings& s) {
  const MapView map(r, f);
  map.allow({"formulation",
             "scheme",
             "name",
             "tolerance",
             "max_iterations",
             "max_step_iterations",
             "anderson",
             "drift_jump",
             "theta",
             "active_set",
             "contact_margin",
             "activation_distance",
             "activation_passes",
             "position_correction",
             "position_tolerance",
             "integrator",
             "rtol",
             "atol",
             "max_step",
             "jacobian",
             "sharp_radius",
             "sleep"});
  if (auto v = map.get("formulation")) {
    s.formulation = one_of(r, *v, "formulation", {"nonsmooth", "compliant"}) == "nonsmooth"
                        ? Formulation::nonsmooth
                        : Formulation::compliant;
  }
  // Each formulation's own keys (contact_margin is both's).
  const bool compliant = s.formulation == Formulation::compliant;
  for (const char* key : {"scheme", "name", "tolerance", "max_iterations", "max_step_iterations",
                          "anderson", "drift_jump", "theta", "active_set", "activation_distance",
                          "activation_passes", "position_correction", "position_tolerance",
                          "integrator", "rtol", "atol", "max_step", "jacobian", "sleep"}) {
    const bool compliant_key = std::string_view(key) == "integrator" ||
                               std::string_view(key) == "rtol" || std::string_view(key) == "atol" ||
                               std::string_view(key) == "max_step" ||
                               std::string_view(key) == "jacobian";
    if (compliant_key == compliant) continue;
    if (auto v = map.get(key))
      r.fail(v->key_loc, fmt::format("solver.{} applies to formulation: {} only", key,
                                     compliant_key ? "compliant" : "nonsmooth"));
  }
  CompliantSettings& c = s.compliant;
  if (auto v = map.get("integrator")) {
    const std::string name = one_of(r, *v, "integrator", {"erk", "dirk", "bdf"});
    c.integrator = name == "erk"    ? Integrator::erk
                   : name == "dirk" ? Integrator::dirk
                                    : Integrator::bdf;
  }
  if (auto v = map.get("rtol")) c.rtol = positive(r, *v, number(r, *v));
  if (auto v = map.get("atol")) c.atol = positive(r, *v, number(r, *v));
  if (auto v = map.get("max_step")) c.max_step = non_negative(r, *v, number(r, *v));
  if (auto v = map.get("jacobian"))
    c.analytic_jacobian = one_of(r, *v, "Jacobian", {"analytic", "difference"}) == "analytic";
  if (auto v = map.get("sharp_radius")) s.sharp_radius = positive(r, *v, number(r, *v));
  if (auto v = map.get("scheme")) {
    s.scheme = one_of(r, *v, "time-stepping scheme", {"midpoint", "moreau_jean"}) == "midpoint"
                   ? TimeScheme::midpoint
                   : TimeScheme::moreau_jean;
    // Moreau–Jean as Siconos runs it: no position stage unless asked for.
    if (s.scheme == TimeScheme::moreau_jean) s.position_correction = false;
  }
  if (auto v = map.get("name")) {
    const std::string name = one_of(r, *v, "solver", {"nsgs", "prox", "auto"});
    [[maybe_unused]] const bool known = parse_solver_kind(name, s.kind);  // one of the three
  }
  if (auto v = map.get("tolerance")) s.tolerance = positive(r, *v, number(r, *v));
  if (auto v = map.get("max_iterations")) {
    s.max_iterations = integer(r, *v);
    if (s.max_iterations < 1) {
      r.fail(*v, fmt::format("{} must be >= 1, got {}", v->path, v->node.Scalar()));
    }
  }
  if (auto v = map.get("max_step_iterations")) {
    s.max_step_iterations = integer(r, *v);
    if (s.max_step_iterations < 1) {
      r.fail(*v, fmt::format("{} must be >= 1, got {}", v->path, v->node.Scalar()));
    }
  }
  if (auto v = map.get("anderson")) {
    s.anderson_depth = integer(r, *v);
    if (s.anderson_depth < 0 || s.anderson_depth > AndersonAcceleration::kMaxDepth) {
      r.fail(*v, fmt::format("{} must be an integer from 0 to {}, got {}", v->path,
                             AndersonAcceleration::kMaxDepth, v->node.Scalar()));
    }
  }
  if (auto v = map.get("drift_jump")) s.drift_jump = boolean(r, *v);
  if (auto v = map.get("theta")) s.theta = in_range(r, *v, number(r, *v), 0.5, 1.0);
  if (auto v = map.get("active_set")) {
    s.active_set = one_of(r, *v, "active-set rule", {"predicted", "siconos"}) == "predicted"
                       ? ActiveSetRule::predicted
                       : ActiveSetRule::siconos;
  }
  if (auto v = map.get("contact_margin")) s.contact_margin = non_negative(r, *v, number(r, *v));
  if (auto v = map.get("activation_distance"))
    s.activation_distance = non_negative(r, *v, number(r, *v));
  if (auto v = map.get("activation_passes")) {
    s.activation_passes = integer(r, *v);
    if (s.activation_passes < 0 || s.activation_passes > kMaxActivationPasses) {
      r.fail(*v, fmt::format("{} must be an integer from 0 to {}, got {}", v->path,
                             kMaxActivationPasses, v->node.Scalar()));
    }
  }
  if (auto v = map.get("position_correction")) s.position_correction = boolean(r, *v);
  if (auto v = map.get("position_tolerance")) s.position_tolerance = positive(r, *v, number(r, *v));
  // Sleeping islands: `sleep: true` (the default thresholds) or a map of them.
  if (auto v = map.get("sleep")) {
    if (!v->node.IsMap()) {
      s.sleep.enabled = boolean(r, *v);
    } else {
      const MapView sleep(r, *v);
      sleep.allow({"linear_velocity", "angular_velocity", "time"});
      s.sleep.enabled = true;
      if (auto w = sleep.get("linear_velocity"))
        s.sleep.linear_velocity = non_negative(r, *w, number(r, *w));
      if (auto w = sleep.get("angular_velocity"))
        s.sleep.angular_velocity = non_negative(r, *w, number(r, *w));
      if (auto w = sleep.get("time")) s.sleep.time = positive(r, *w, number(r, *w));
    }
  }
  // θ and the Siconos active-set rule belong to the Moreau–Jean scheme.
  if (s.scheme == TimeScheme::midpoint) {
    if (auto v = map.get("theta"))
      r.fail(*v, "solver.theta applies to scheme: moreau_jean only (the midpoint scheme has none)");
    if (auto v = map.get("active_set"); v && s.active_set != ActiveSetRule::predicted)
      r.fail(*v, "solver.active_set: 'siconos' applies to scheme: moreau_jean only");
  }
}

void read_output(const Reporter& r, const Field& f, OutputSettings& o) {
  const MapView map(r, f);
  map.allow({"every", "interval", "solver"});
  if (auto v = map.get("solver")) {
    o.solver = one_of(r, *v, "solver.csv row rule", {"per_output", "every_step"}) == "every_step"
                   ? SolverRows::every_step
                   : SolverRows::per_output;
  }
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
// The whole scene.

// PROX solves the three-unknown problem only: `solver: {name: prox}` with a moment law in any
// contact spec is an error at solver.name (never a silent switch to NSGS), naming the law and
// where it was written. Model::finalize makes the same check for models built from code.
void check_solver_fits_laws(const Reporter& r, const MapView& top, const Model& m) {
  if (m.solver.kind != SolverKind::prox) return;
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
  if (auto v = top.get("name")) {
    // The name is the output folder's (coulomb-out/NAME): a plain file name, never a path.
    m.name = string(r, *v);
    const bool control = std::any_of(m.name.begin(), m.name.end(),
                                     [](char c) { return static_cast<unsigned char>(c) < 0x20; });
    if (m.name == "." || m.name == ".." || m.name.find_first_of("/\\") != std::string::npos ||
        control || m.name.size() > 255) {
      r.fail(*v, fmt::format("name must be a plain file name (the output folder coulomb-out/NAME): "
                             "no '/', '\\', control character, '.' or '..', at most 255 bytes; "
                             "got '{}'",
                             m.name));
    }
  }
  if (auto v = top.get("description")) (void)string(r, *v);
  if (auto v = top.get("gravity")) m.gravity = bounded_vec3(r, *v, kMaxGravity, "m/s^2");
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
  if (auto v = top.get("springs")) read_springs(r, *v, m);
  if (auto v = top.get("joints")) read_joints(r, *v, m);
  // The analytic Jacobian of the compliant formulation has no terms for state-dependent loads,
  // damping or springs between bodies (docs/compliant.md): the implicit integrators then need
  // SUNDIALS' difference quotients.
  if (m.solver.formulation == Formulation::compliant &&
      m.solver.compliant.integrator != Integrator::erk && m.solver.compliant.analytic_jacobian) {
    const int who = actuation_without_jacobian(m);
    if (who >= 0) {
      const bool body = who < static_cast<int>(m.bodies.size());
      const SourceMark mark = body
                                  ? m.bodies[static_cast<std::size_t>(who)].mark
                                  : m.springs[static_cast<std::size_t>(who) - m.bodies.size()].mark;
      r.fail(
          Loc{mark.line, mark.column},
          fmt::format("{}: damping, body-frame or off-centre loads and springs between bodies "
                      "or with a damper have no analytic Jacobian in the compliant "
                      "formulation; set solver.jacobian: difference (or integrator: erk)",
                      body ? fmt::format("bodies[{}]", who)
                           : fmt::format("springs[{}]", who - static_cast<int>(m.bodies.size()))));
    }
  }
  validate_default_contact(r, m);
  check_solver_fits_laws(r, top, m);
  // A compliant scene runs force laws: a default contact that serves a pair of the bodies'
  // materials must be written (its default is Signorini); the laws themselves are checked by
  // require_runnable, at their keys.
  if (m.solver.formulation == Formulation::compliant && default_contact_serves_a_pair(m) &&
      !top.get("default_contact")) {
    const Field formulation = *MapView(r, *top.get("solver")).get("formulation");
    r.fail(formulation,
           "solver.formulation: 'compliant' runs force laws, and the default contact (not given: "
           "Signorini, the nonsmooth law) serves a pair of the bodies' materials; give "
           "default_contact: {normal: {law: hertz}} (or linear, hunt_crossley, dis_choc, tsuji) "
           "or a contacts entry for every pair");
  }
  // Invariants (all checked above already; a failure here is a bug of the loader), and the
  // compiled model when the scene's formulation runs every law. A scene with laws it does not
  // run (compliant laws in a nonsmooth scene, for `coulomb law` and the Python module) loads
  // uncompiled: require_runnable says why at the key, and a Simulation would refuse it.
  const bool compliant = m.solver.formulation == Formulation::compliant;
  auto runs = [compliant](const ContactSpec& c) {
    return compliant ? compliant_laws(c) : nonsmooth_laws(c);
  };
  const bool runnable =
      (runs(m.default_contact) || (compliant && !default_contact_serves_a_pair(m))) &&
      std::all_of(m.contacts.begin(), m.contacts.end(), runs);
  try {
    if (runnable)
      m.finalize();
    else
      m.validate();
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
  set_driven_state(m, s, 0.0);
  // Joints carry their anchor and frame in each body's frame from the poses at t = 0.
  attach_joints(m, s);
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

std::string time_range_error(double end_time, double time_step) {
  if (!(end_time > 0.0) || !std::isfinite(end_time))
    return fmt::format("time.end must be finite and > 0, got {}", end_time);
  if (!(time_step > 0.0) || !std::isfinite(time_step))
    return fmt::format("time.step must be finite and > 0, got {}", time_step);
  if (time_step > end_time)
    return fmt::format("time.step ({}) must not exceed time.end ({})", time_step, end_time);
  if (end_time / time_step > kMaxSteps) {
    return fmt::format("time.end / time.step = {:.3g} steps, more than the {:.0e} a run may take",
                       end_time / time_step, kMaxSteps);
  }
  return "";
}

void require_runnable(const Scene& scene) {
  const Reporter r(scene.file);
  const Model& m = scene.model;
  if (m.solver.formulation == Formulation::compliant) {
    // The force laws of every contacts entry, and of the default contact for every pair of
    // materials that can meet without an entry, built as the run builds them.
    const Material none;
    auto material = [&](int i) -> const Material& {
      return i < 0 ? none : m.materials[static_cast<std::size_t>(i)];
    };
    for (std::size_t i = 0; i < m.contacts.size(); ++i)
      check_compliant_laws(r, m.contacts[i], fmt::format("contacts[{}]", i),
                           material(m.contacts[i].material1), material(m.contacts[i].material2));
    std::set<int> used;
    for (const Body& b : m.bodies) used.insert(b.material);
    for (int a : used)
      for (int b : used)
        if (b >= a && m.contact_spec_index(a, b) < 0 && materials_can_meet(m, a, b))
          check_compliant_laws(r, m.default_contact, "default_contact", material(a), material(b));
    return;
  }
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
