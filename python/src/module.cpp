// Python bindings of coulomb (module coulomb._coulomb; the public API is coulomb/__init__.py).
// State and contacts cross as numpy arrays built in C++: no per-element Python loop.
#include <coulomb/io/law_table.hpp>
#include <coulomb/io/output.hpp>
#include <coulomb/io/run.hpp>
#include <coulomb/scene/scene.hpp>
#include <coulomb/validate/validate.hpp>
#include <coulomb/world/world.hpp>

#include "laws.hpp"
#include "sweep.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace coulomb;

namespace {

// A scene being simulated: model, state and workspace together.
class PySimulation {
 public:
  // The warnings of some steps as (kind, text) pairs (run_warnings: "rotation", "position",
  // "activation", "convergence", in the order `coulomb run` prints them), none for what did not
  // occur; the Python layer raises each as its category.
  using Warnings = std::vector<std::pair<std::string, std::string>>;
  static Warnings warnings(const SolverStatistics& solver, const StepStatistics& stages,
                           std::int64_t steps, double position_tolerance) {
    Warnings out;
    for (const RunWarning& w : run_warnings(solver, stages, steps, position_tolerance))
      out.emplace_back(to_string(w.kind), w.text);
    return out;
  }
  explicit PySimulation(Scene scene) : file_(scene.file), sim_(runnable(scene)) {}

  // Takes n steps; returns their warnings (the texts `coulomb run` prints, for the Python layer to
  // raise as a RotationWarning, PositionWarning, ActivationWarning or ConvergenceWarning).
  // The GIL is released while stepping: other Python threads run meanwhile.
  Warnings step(long n) {
    if (n < 0) throw std::invalid_argument("step: n must be >= 0, got " + std::to_string(n));
    SolverStatistics call;
    StepStatistics stages;
    std::string non_finite;
    {
      const py::gil_scoped_release release;
      for (long i = 0; i < n; ++i) {
        const StepReport& r = sim_.step();
        if (r.solved()) call.add(r.solver, sim_.state().time);
        stages.add(r, sim_.state().time);
        if (!sim_.finite()) {
          non_finite = sim_.non_finite();
          break;
        }
      }
    }
    stepped_ = true;
    if (!non_finite.empty()) throw std::runtime_error(non_finite);
    return warnings(call, stages, n, sim_.model().solver.position_tolerance);
  }
  Warnings run(std::optional<double> end) {
    const double t = end.value_or(sim_.model().end_time);
    if (!std::isfinite(t) || t < sim_.state().time) {
      throw std::invalid_argument("run: end must be a finite time >= the current time " +
                                  std::to_string(sim_.state().time) + " s, got " +
                                  std::to_string(t));
    }
    const auto n = sim_.steps_to(t);
    if (static_cast<double>(n) > kMaxSteps) {
      throw std::invalid_argument("run: " + std::to_string(n) + " steps to t = " +
                                  std::to_string(t) + " s, more than the 1e8 a run may take");
    }
    return n > 0 ? step(static_cast<long>(n)) : Warnings();
  }
  // Runs to the scene's end time writing the usual output files into `directory`; returns the
  // summary (JSON text) and the run's warnings (as step's).
  // Ctrl-C (a Python signal handler that raises, KeyboardInterrupt by default) stops the run after
  // its step: the files are written up to there, summary.json names the exception, and the
  // exception is raised once they are in place. Python's own handlers, none installed here.
  std::pair<std::string, Warnings> write(const std::string& directory) {
    RunOptions options;
    options.output_directory = directory;
    options.scene_source = file_;
    options.stop = [] {
      if (PyErr_CheckSignals() == 0) return std::string();
      PyObject* type = PyErr_Occurred();
      return std::string(type != nullptr && PyType_Check(type)
                             ? reinterpret_cast<PyTypeObject*>(type)->tp_name
                             : "signal");
    };
    const RunResult result = coulomb::run(sim_, options);
    stepped_ = true;
    if (!result.interrupted.empty() && PyErr_Occurred() != nullptr) throw py::error_already_set();
    return {result.summary_json, warnings(result.solver, result.stages, result.steps,
                                          sim_.model().solver.position_tolerance)};
  }

  py::array_t<double> vec_rows(const std::vector<Vec3>& v) const {
    py::array_t<double> a({static_cast<py::ssize_t>(v.size()), py::ssize_t{3}});
    auto m = a.mutable_unchecked<2>();
    for (std::size_t i = 0; i < v.size(); ++i)
      for (int c = 0; c < 3; ++c) m(i, c) = v[i][c];
    return a;
  }
  py::array_t<double> positions() const { return vec_rows(sim_.state().x_WC); }
  py::array_t<double> velocities() const { return vec_rows(sim_.state().v_WC); }
  py::array_t<double> angular_velocities() const { return vec_rows(sim_.state().w_W); }
  py::array_t<double> orientations() const {
    const auto& q = sim_.state().q_WB;
    py::array_t<double> a({static_cast<py::ssize_t>(q.size()), py::ssize_t{4}});
    auto m = a.mutable_unchecked<2>();
    for (std::size_t i = 0; i < q.size(); ++i) {
      m(i, 0) = q[i].w();
      m(i, 1) = q[i].x();
      m(i, 2) = q[i].y();
      m(i, 3) = q[i].z();
    }
    return a;
  }

  // Sets any part of the state; arrays have one row per body in scene order. Atomic: every
  // array is checked (shape, finite values within the loader's bounds, non-zero quaternions, a
  // fixed body left where it is) before anything is changed.
  void set_state(std::optional<py::array_t<double>> x, std::optional<py::array_t<double>> q,
                 std::optional<py::array_t<double>> v, std::optional<py::array_t<double>> w,
                 std::optional<double> time) {
    State& s = sim_.state();
    const Model& model = sim_.model();
    const auto nb = static_cast<py::ssize_t>(s.body_count());
    // Rows of an (nb, cols) array, checked.
    auto rows = [&](const py::array_t<double>& a, py::ssize_t cols, const char* what,
                    double limit) {
      if (a.ndim() != 2 || a.shape(0) != nb || a.shape(1) != cols)
        throw std::invalid_argument(std::string(what) + ": expected an array of shape (" +
                                    std::to_string(nb) + ", " + std::to_string(cols) + ")");
      auto m = a.unchecked<2>();
      std::vector<double> out(static_cast<std::size_t>(nb * cols));
      for (py::ssize_t i = 0; i < nb; ++i) {
        for (py::ssize_t c = 0; c < cols; ++c) {
          const double value = m(i, c);
          if (!std::isfinite(value) || std::abs(value) > limit) {
            throw std::invalid_argument(std::string(what) + ": body '" + model.bodies[i].name +
                                        "' has " + std::to_string(value) +
                                        ", not a finite number within ±" +
                                        fmt::format("{:g}", limit));
          }
          out[static_cast<std::size_t>(i * cols + c)] = value;
        }
      }
      return out;
    };
    constexpr double kAny = std::numeric_limits<double>::max();
    std::vector<Vec3> new_x = s.x_WC, new_v = s.v_WC, new_w = s.w_W;
    std::vector<Quat> new_q = s.q_WB;
    auto fixed_moved = [&](py::ssize_t i, bool changed, const char* what) {
      if (model.bodies[i].fixed && changed) {
        throw std::invalid_argument(std::string(what) + ": body '" + model.bodies[i].name +
                                    "' is fixed; its value cannot change");
      }
    };
    if (x) {
      const std::vector<double> d = rows(*x, 3, "positions", kMaxPosition);
      for (py::ssize_t i = 0; i < nb; ++i) {
        const Vec3 xi(d[3 * i], d[3 * i + 1], d[3 * i + 2]);
        fixed_moved(i, xi != s.x_WC[i], "positions");
        new_x[i] = xi;
      }
    }
    if (q) {
      const std::vector<double> d = rows(*q, 4, "orientations", kAny);
      for (py::ssize_t i = 0; i < nb; ++i) {
        const Quat qi(d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]);
        if (!(qi.norm() > 0.0))
          throw std::invalid_argument("orientations: body '" + model.bodies[i].name +
                                      "' has a zero quaternion");
        const Quat unit = qi.normalized();
        // The same rotation (q or −q, to round-off of the normalisation) leaves a fixed body be.
        fixed_moved(i, std::abs(unit.dot(s.q_WB[i])) < 1.0 - 1e-12, "orientations");
        new_q[i] = model.bodies[i].fixed ? s.q_WB[i] : unit;
      }
    }
    if (v) {
      const std::vector<double> d = rows(*v, 3, "velocities", kMaxSpeed);
      for (py::ssize_t i = 0; i < nb; ++i) {
        const Vec3 vi(d[3 * i], d[3 * i + 1], d[3 * i + 2]);
        fixed_moved(i, vi != s.v_WC[i], "velocities");
        new_v[i] = vi;
      }
    }
    if (w) {
      const std::vector<double> d = rows(*w, 3, "angular_velocities", kMaxSpeed);
      for (py::ssize_t i = 0; i < nb; ++i) {
        const Vec3 wi(d[3 * i], d[3 * i + 1], d[3 * i + 2]);
        fixed_moved(i, wi != s.w_W[i], "angular_velocities");
        new_w[i] = wi;
      }
    }
    if (time && (!std::isfinite(*time) || *time < 0.0))
      throw std::invalid_argument("time: must be finite and >= 0, got " + std::to_string(*time));
    // Everything checked: apply.
    s.x_WC = std::move(new_x);
    s.q_WB = std::move(new_q);
    s.v_WC = std::move(new_v);
    s.w_W = std::move(new_w);
    if (time) {
      s.time = *time;
      s.time_carry = 0.0;  // the compensated time sum starts afresh from the given time
    }
    s.contacts.clear();            // a new state: no warm start from the old one
    s.compliant.contacts.clear();  // nor the anchors of sticking contacts (compliant formulation)
  }

  // The contacts of the last step as arrays keyed by the contacts.csv columns.
  // Joint reactions of the last step (docs/joints.md): force on body 2 [N] and moment about its
  // anchor [N m], world, (njoints, 3) each; zeros before the first step.
  py::dict joints() const {
    const std::size_t n = sim_.model().joints.size();
    const StepResults& res = sim_.workspace().step_results;
    std::vector<Vec3> force(n, Vec3::Zero()), moment(n, Vec3::Zero());
    if (stepped_ && res.joint_force.size() == n) {
      force = res.joint_force;
      moment = res.joint_moment;
    }
    py::list names;
    for (const Joint& j : sim_.model().joints) names.append(j.name);
    py::dict d;
    d["name"] = names;
    d["force"] = vec_rows(force);
    d["moment"] = vec_rows(moment);
    return d;
  }
  py::dict contacts() const {
    const std::size_t n = stepped_ ? contact_row_count(sim_.workspace()) : 0;
    const char* names[] = {"px", "py",  "pz",  "nx", "ny",  "nz",  "gap",  "fn",    "ft1",  "ft2",
                           "mn", "mt1", "mt2", "vn", "vt1", "vt2", "spin", "roll1", "roll2"};
    constexpr int kColumns = 19;
    std::vector<py::array_t<double>> cols;
    for (int c = 0; c < kColumns; ++c) cols.emplace_back(static_cast<py::ssize_t>(n));
    py::array_t<double> time(static_cast<py::ssize_t>(n));
    py::array_t<long> body1(static_cast<py::ssize_t>(n)), body2(static_cast<py::ssize_t>(n));
    py::list state;
    for (std::size_t k = 0; k < n; ++k) {
      const ContactRow row = contact_row(sim_.model(), sim_.workspace(), k);
      const double values[kColumns] = {
          row.point.x(),    row.point.y(),  row.point.z(),  row.normal.x(),   row.normal.y(),
          row.normal.z(),   row.gap,        row.force.x(),  row.force.y(),    row.force.z(),
          row.moment.x(),   row.moment.y(), row.moment.z(), row.velocity.x(), row.velocity.y(),
          row.velocity.z(), row.rates.x(),  row.rates.y(),  row.rates.z()};
      for (int c = 0; c < kColumns; ++c) cols[c].mutable_at(k) = values[c];
      time.mutable_at(k) = sim_.state().time;
      body1.mutable_at(k) = row.body1;
      body2.mutable_at(k) = row.body2;
      state.append(status_name(row.status));
    }
    py::dict d;
    d["time"] = time;
    d["body1_index"] = body1;
    d["body2_index"] = body2;
    for (int c = 0; c < kColumns; ++c) d[names[c]] = cols[c];
    d["state"] = state;
    return d;
  }

  // The statistics of summary.json's "solver" section over the steps taken (docs/outputs.md).
  py::dict solver_statistics() const {
    py::dict d;
    const SolverStatistics& stats_ = sim_.solver_statistics();
    d["steps"] = sim_.steps();
    d["solves"] = stats_.solves;
    d["not_converged"] = stats_.not_converged;
    d["first_not_converged_time"] = stats_.first_not_converged_time;
    d["worst_error"] = stats_.worst_error;
    d["worst_error_time"] = stats_.worst_error_time;
    d["mean_error"] = stats_.mean_error;
    d["max_iterations"] = stats_.max_iterations;
    d["mean_iterations"] = stats_.mean_iterations;
    py::dict methods;
    for (const auto& [name, count] : stats_.methods) methods[py::str(name)] = count;
    d["methods"] = methods;
    d["auto_switches"] = stats_.auto_switches;
    d["fell_back"] = stats_.fell_back;
    d["cold_starts"] = stats_.cold_starts;
    d["local_failures"] = stats_.local_failures;
    d["solves_with_local_failures"] = stats_.solves_with_local_failures;
    return d;
  }

  // The compliant formulation's integrator statistics (summary.json's "integrator"), or None.
  py::object integrator_statistics() const {
    const CompliantEngine* engine = sim_.compliant();
    if (engine == nullptr) return py::none();
    const IntegratorStatistics st = engine->statistics();
    py::dict d;
    d["name"] = to_string(sim_.model().solver.compliant.integrator);
    d["steps"] = st.steps;
    d["rejected_steps"] = st.rejected_steps;
    d["rhs_evaluations"] = st.rhs_evaluations;
    d["jacobian_evaluations"] = st.jacobian_evaluations;
    d["newton_iterations"] = st.newton_iterations;
    d["newton_failures"] = st.newton_failures;
    d["root_stops"] = st.root_stops;
    d["restarts"] = st.restarts;
    d["last_step"] = st.last_step;
    const auto& events = engine->event_counts();
    py::dict ev;
    for (std::size_t k = 0; k < events.size(); ++k)
      ev[to_string(static_cast<CompliantEvent::Kind>(k))] = events[k];
    d["events"] = ev;
    return d;
  }

  // code_aster's shock statistics per shock point (wear.csv's rows, summary.json's
  // "shock_points"), or None when the scene has no dis_choc contact.
  py::object shock_statistics() const {
    const ShockStatistics* shocks = sim_.shock_statistics();
    if (shocks == nullptr) return py::none();
    const Model& m = sim_.model();
    py::list out;
    for (const ShockPointStatistics& p : shocks->results()) {
      py::dict d;
      d["body1"] = m.bodies[p.body1].name;
      d["shape1"] = p.shape1 - m.bodies[p.body1].first_shape;
      d["body2"] = m.bodies[p.body2].name;
      d["shape2"] = p.shape2 - m.bodies[p.body2].first_shape;
      for (const auto& [name, value] : wear_values(p)) d[py::str(std::string(name))] = value;
      d["samples"] = p.samples;
      d["contact_samples"] = p.contact_samples;
      d["shocks"] = p.shocks;
      d["rebounds"] = p.rebounds;
      out.append(d);
    }
    return out;
  }

  // A body's index by name (throws listing none: the name is the user's).
  int body_named(const std::string& name) const {
    const int b = sim_.model().body_index(name);
    if (b < 0) throw std::invalid_argument("no body named '" + name + "'");
    return b;
  }

  // Between steps: a free body's force, torque (world or body frame, the force at a point) and
  // viscous damping; what is not given keeps its value.
  void set_load(const std::string& name, std::optional<std::array<double, 3>> force,
                std::optional<std::array<double, 3>> torque, std::optional<std::string> frame,
                std::optional<std::array<double, 3>> point, std::optional<double> linear_damping,
                std::optional<double> angular_damping) {
    const int b = body_named(name);
    BodyLoad load = sim_.model().bodies[static_cast<std::size_t>(b)].load;
    auto vec = [](const std::array<double, 3>& a) { return Vec3(a[0], a[1], a[2]); };
    if (force) load.force = vec(*force);
    if (torque) load.torque = vec(*torque);
    if (frame) {
      if (*frame != "world" && *frame != "body")
        throw std::invalid_argument("set_load: frame must be 'world' or 'body', got '" + *frame +
                                    "'");
      load.body_frame = *frame == "body";
    }
    if (point) {
      load.at_point = true;
      load.point_B = vec(*point);
    }
    if (linear_damping) load.linear_damping = *linear_damping;
    if (angular_damping) load.angular_damping = *angular_damping;
    sim_.set_load(b, load);
  }

  // Between steps: a driven body's constant twist from its present pose.
  void set_motion(const std::string& name, std::array<double, 3> velocity,
                  std::array<double, 3> angular_velocity) {
    sim_.set_driven_twist(body_named(name), Vec3(velocity[0], velocity[1], velocity[2]),
                          Vec3(angular_velocity[0], angular_velocity[1], angular_velocity[2]));
  }

  py::dict energy() const {
    const Energy e = coulomb::energy(sim_.model(), sim_.state());
    py::dict d;
    d["kinetic"] = e.kinetic;
    d["potential"] = e.potential;
    d["elastic"] = e.elastic;
    d["dissipated"] = sim_.state().dissipated;
    d["total"] = audited_total(sim_.model(), e, sim_.state());
    // The actuation's works (energy.csv's last columns for an actuated model).
    d["driven_work"] = sim_.state().driven_work;
    d["force_work"] = sim_.state().force_work;
    d["damping"] = sim_.state().damping;
    // The kinetic energy set to zero by sleeping islands (in the total with solver.sleep).
    d["slept"] = sim_.state().slept;
    // Each driven body's share of driven_work (summary.json's driven_work_by_body; nonsmooth
    // formulation: the compliant one leaves it zero).
    py::dict by_body;
    const auto& works = sim_.state().driven_work_by_body;
    for (std::size_t b = 0; b < sim_.model().bodies.size(); ++b)
      if (sim_.model().bodies[b].driven())
        by_body[py::str(sim_.model().bodies[b].name)] = b < works.size() ? works[b] : 0.0;
    d["driven_work_by_body"] = by_body;
    // The same split as energy.csv: dissipation by kind of law.
    for (std::size_t k = 0; k < kEnergyKindCount; ++k)
      d[kEnergyKindNames[k]] = sim_.state().dissipated_by_kind[k];
    return d;
  }

  // The scene's model and state, once checked runnable.
  static Simulation runnable(Scene& scene) {
    require_runnable(scene);
    return Simulation(std::move(scene.model), std::move(scene.state));
  }
  const Model& model() const { return sim_.model(); }
  const State& state() const { return sim_.state(); }

 private:
  std::string file_;  // the scene's source, for summary.json
  Simulation sim_;
  bool stepped_ = false;
};

// A law tabulated by the C++ code (`coulomb law` ARGS), its CSV columns as numpy arrays keyed by
// the header names. Errors raise ValueError with the CLI's message.
py::dict tabulate(const std::vector<std::string>& args) {
  std::string csv;
  try {
    csv = tabulate_law(args);
  } catch (const std::exception& e) {
    throw py::value_error(e.what());
  }
  // The header names the columns; every row holds as many numbers.
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  for (std::size_t begin = 0; begin <= line.size();) {
    const std::size_t end = std::min(line.find(',', begin), line.size());
    names.push_back(line.substr(begin, end - begin));
    begin = end + 1;
  }
  std::vector<std::vector<double>> columns(names.size());
  while (std::getline(in, line)) {
    const char* p = line.c_str();
    for (std::size_t c = 0; c < names.size(); ++c) {
      char* end = nullptr;
      columns[c].push_back(std::strtod(p, &end));
      if (end == p) throw std::runtime_error("law table: unexpected row '" + line + "'");
      p = *end == ',' ? end + 1 : end;
    }
  }
  py::dict d;
  for (std::size_t c = 0; c < names.size(); ++c) {
    py::array_t<double> a(static_cast<py::ssize_t>(columns[c].size()));
    std::copy(columns[c].begin(), columns[c].end(), a.mutable_data());
    d[py::str(names[c])] = a;
  }
  return d;
}

// Runs validation cases and returns the report as JSON text (optionally also writes it).
std::string run_validation(const std::vector<std::string>& cases, bool quick,
                           const std::optional<std::string>& out) {
  validate::Options options;
  options.quick = quick;
  options.cases = cases;
  validate::Report report;
  {
    py::gil_scoped_release release;
    report = validate::run(options);
  }
  if (out) validate::write_report(report, *out);
  return validate::report_json(report);
}

}  // namespace

PYBIND11_MODULE(_coulomb, m) {
  m.doc() = "coulomb: rigid bodies in frictional contact (C++ core)";
  py::register_exception<SceneError>(m, "SceneError", PyExc_ValueError);
  coulomb::python::bind_laws(m);
  coulomb::python::bind_sweep(m);

  m.def(
      "load_file", [](const std::string& path) { return PySimulation(load_scene_file(path)); },
      py::arg("path"));
  m.def(
      "load_text",
      [](const std::string& text, const std::string& name) {
        return PySimulation(load_scene_text(text, name));
      },
      py::arg("text"), py::arg("name"));
  m.def("law", &tabulate, py::arg("args"),
        "Tabulates a law like `coulomb law ARGS...`; returns {column: array}");
  m.def("validate", &run_validation, py::arg("cases"), py::arg("quick"),
        py::arg("out") = py::none(), "Runs validation cases; returns the report as JSON text");
  m.def("validation_cases", [] {
    std::vector<std::string> names;
    for (const auto& c : validate::validation_cases()) names.push_back(c.name);
    return names;
  });
  m.def(
      "builtin_scene_text",
      [](const std::string& name) { return std::string(builtin_scene_text(name)); },
      py::arg("name"));

  py::class_<PySimulation>(m, "Simulation")
      .def("step", &PySimulation::step, py::arg("n") = 1)
      .def("run", &PySimulation::run, py::arg("end") = py::none())
      .def("write", &PySimulation::write, py::arg("directory"))
      .def_property_readonly("time", [](const PySimulation& s) { return s.state().time; })
      .def_property_readonly("time_step", [](const PySimulation& s) { return s.model().time_step; })
      .def_property_readonly("end_time", [](const PySimulation& s) { return s.model().end_time; })
      .def_property_readonly("name", [](const PySimulation& s) { return s.model().name; })
      .def_property_readonly("bodies",
                             [](const PySimulation& s) {
                               std::vector<std::string> names;
                               for (const auto& b : s.model().bodies) names.push_back(b.name);
                               return names;
                             })
      .def("positions", &PySimulation::positions)
      .def("orientations", &PySimulation::orientations)
      .def("velocities", &PySimulation::velocities)
      .def("angular_velocities", &PySimulation::angular_velocities)
      .def("contacts", &PySimulation::contacts)
      .def("joints", &PySimulation::joints)
      .def("energy", &PySimulation::energy)
      .def("solver_statistics", &PySimulation::solver_statistics)
      .def("integrator_statistics", &PySimulation::integrator_statistics)
      .def("shock_statistics", &PySimulation::shock_statistics)
      .def("set_load", &PySimulation::set_load, py::arg("body"), py::arg("force") = py::none(),
           py::arg("torque") = py::none(), py::arg("frame") = py::none(),
           py::arg("point") = py::none(), py::arg("linear_damping") = py::none(),
           py::arg("angular_damping") = py::none())
      .def("set_motion", &PySimulation::set_motion, py::arg("body"),
           py::arg("velocity") = std::array<double, 3>{0, 0, 0},
           py::arg("angular_velocity") = std::array<double, 3>{0, 0, 0})
      .def("set_state", &PySimulation::set_state, py::arg("positions") = py::none(),
           py::arg("orientations") = py::none(), py::arg("velocities") = py::none(),
           py::arg("angular_velocities") = py::none(), py::arg("time") = py::none());
}
