// The contact laws in Python (laws.hpp): the registry's rows as dicts, laws built through the
// rows' factories, and their evaluation over numpy arrays.
#include "laws.hpp"

#include <coulomb/laws/law.hpp>
#include <coulomb/laws/registry.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace py = pybind11;

namespace coulomb::python {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---------------------------------------------------------------------------------------------
// The registry's rows as Python values.

py::list formulation_list(Formulations f) {
  py::list names;
  if ((f & kNonsmooth) != 0) names.append("nonsmooth");
  if ((f & kCompliant) != 0) names.append("compliant");
  return names;
}

// The row's example "k=v k=v" as a dict: numbers for the row's numeric keys, names otherwise
// (as tests/laws/registry_test.cpp reads it).
py::dict example_of(const LawInfo& info) {
  py::dict example;
  std::istringstream in{std::string(info.example)};
  std::string item;
  while (in >> item) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (info.key(key) != nullptr)
      example[py::str(key)] = std::stod(value);
    else
      example[py::str(key)] = value;
  }
  return example;
}

py::dict describe(const LawInfo& info) {
  py::dict d;
  d["section"] = std::string(section_name(info.section));
  d["name"] = std::string(info.name);
  d["summary"] = std::string(info.summary);
  d["header"] = std::string(info.header);
  d["formulations"] = formulation_list(info.formulations);
  d["standalone"] = info.make != nullptr;  // rolling_resistance is built with contensou
  py::list keys;
  for (const LawKey& k : info.keys) {
    py::dict key;
    key["key"] = std::string(k.key);
    key["meaning"] = std::string(k.meaning);
    key["unit"] = std::string(k.unit);
    key["range"] = k.range_text();
    key["lo"] = k.lo;
    key["hi"] = k.hi;
    key["open_lo"] = k.open_lo;
    key["integer"] = k.integer;
    if (std::isnan(k.fallback))
      key["default"] = py::none();
    else
      key["default"] = k.fallback;
    key["default_text"] = k.default_column();
    key["formulations"] = formulation_list(k.formulations);
    keys.append(key);
  }
  d["keys"] = keys;
  py::list options;
  for (const LawOption& o : info.options) {
    py::dict option;
    option["key"] = std::string(o.key);
    option["meaning"] = std::string(o.meaning);
    py::list values;
    py::dict value_formulations;
    for (const OptionValue& v : o.values) {
      values.append(std::string(v.name));
      value_formulations[py::str(std::string(v.name))] = formulation_list(v.formulations);
    }
    option["values"] = values;
    option["default"] = std::string(o.fallback);
    option["nonsmooth_default"] = std::string(o.default_for(kNonsmooth));
    option["formulations"] = value_formulations;
    options.append(option);
  }
  d["options"] = options;
  d["example"] = example_of(info);
  return d;
}

py::list all_laws() {
  py::list rows;
  for (const LawInfo& info : law_registry()) rows.append(describe(info));
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Python values into the plain values a law is built from.

std::string type_name(py::handle value) {
  return py::str(py::type::handle_of(value).attr("__name__"));
}

bool is_real(py::handle value) {
  if (py::isinstance<py::bool_>(value) ||
      py::isinstance(value, py::module_::import("numpy").attr("bool_")))
    return false;
  return py::isinstance(value, py::module_::import("numbers").attr("Real"));
}

bool is_mapping(py::handle value) {
  return py::isinstance(value, py::module_::import("collections.abc").attr("Mapping"));
}

// One law parameter: a number into params, a name into options (the scene reader's split).
void put_parameter(LawSpec& spec, const std::string& section, const std::string& key,
                   py::handle value) {
  if (py::isinstance<py::str>(value))
    spec.options[key] = value.cast<std::string>();
  else if (is_real(value))
    spec.params[key] = py::cast<double>(value);
  else
    throw py::value_error(section + "." + key + ": must be a number or a name, got " +
                          type_name(value));
}

// A material: a mapping with the scene's material keys.
Material material_of(py::handle value) {
  if (!is_mapping(value))
    throw py::value_error(
        "materials: expected a mapping (young_modulus, poisson_ratio, ...) or a "
        "pair of them, got " +
        type_name(value));
  Material m;
  for (auto item : py::reinterpret_borrow<py::object>(value).attr("items")()) {
    const auto pair = item.cast<py::tuple>();
    const std::string key = py::str(pair[0]);
    const py::handle v = pair[1];
    if (key == "name") {
      m.name = py::str(v);
      continue;
    }
    double* slot = key == "young_modulus"   ? &m.young_modulus
                   : key == "poisson_ratio" ? &m.poisson_ratio
                   : key == "density"       ? &m.density
                                            : nullptr;
    if (slot == nullptr)
      throw py::value_error("materials: unknown key '" + key +
                            "' (the keys: name, young_modulus, poisson_ratio, density)");
    if (!is_real(v))
      throw py::value_error("materials." + key + ": must be a number, got " + type_name(v));
    *slot = py::cast<double>(v);
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// Broadcasting: every input is an array of numbers whose last axis holds one element's vector
// (width 2: slip, ω_t, ...) or nothing (width 0: a scalar per element). The leading axes of all
// inputs broadcast against each other like numpy's; outputs have the broadcast shape followed by
// their own trailing axes. The loop runs without the GIL.

using Shape = std::vector<py::ssize_t>;

std::string shape_text(const Shape& shape) {
  std::string t = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    t += std::to_string(shape[i]) + (shape.size() == 1 ? "," : i + 1 < shape.size() ? ", " : "");
  return t + ")";
}

class Batch {
 public:
  // Adds an input (any array-like of numbers; None is refused).
  void add(const std::string& name, py::handle value, int width) {
    if (value.is_none()) throw py::value_error(name + ": expected numbers, got None");
    auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
    if (!array)
      throw py::value_error(name + ": expected an array-like of numbers, got " + type_name(value));
    Shape shape(array.shape(), array.shape() + array.ndim());
    const std::string described = name + " of shape " + shape_text(shape);
    if (width > 0) {
      if (shape.empty() || shape.back() != width)
        throw py::value_error(name + ": expected an array of shape (..., " + std::to_string(width) +
                              "), got shape " + shape_text(shape));
      shape.pop_back();
    }
    broadcast(described, shape);
    inputs_.push_back({described, array, shape, std::max(width, 1), constant_});
  }
  // Adds a constant input (an optional argument left out).
  void add_constant(const std::string& name, double value, int width) {
    py::array_t<double> array(width == 0 ? Shape{} : Shape{width});
    for (py::ssize_t i = 0; i < array.size(); ++i) array.mutable_data()[i] = value;
    constant_ = true;
    add(name, array, width);
    constant_ = false;
  }
  // A new output: the broadcast shape followed by `trailing`.
  template <class T = double>
  py::array_t<T> output(const Shape& trailing = {}) {
    Shape shape = shape_;
    shape.insert(shape.end(), trailing.begin(), trailing.end());
    return py::array_t<T>(shape);
  }
  // Calls f(k, in) for every element k of the broadcast shape (row-major order), in[i] pointing
  // at input i's values for that element.
  template <class F>
  void run(F&& f) {
    const std::size_t n = inputs_.size(), nd = shape_.size();
    py::ssize_t count = 1;
    for (py::ssize_t s : shape_) count *= s;
    // Element strides (in doubles) of every input along every axis of the broadcast shape;
    // 0 where the input is broadcast.
    std::vector<std::vector<py::ssize_t>> strides(n, std::vector<py::ssize_t>(nd, 0));
    std::vector<const double*> data(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Input& in = inputs_[i];
      data[i] = in.array.data();
      py::ssize_t stride = in.width;
      for (std::size_t a = 0; a < in.shape.size(); ++a) {
        const std::size_t own = in.shape.size() - 1 - a, axis = nd - 1 - a;
        if (in.shape[own] != 1) strides[i][axis] = stride;
        stride *= in.shape[own];
      }
    }
    py::gil_scoped_release release;
    std::vector<py::ssize_t> index(nd, 0), offset(n, 0);
    std::vector<const double*> at(n);
    for (py::ssize_t k = 0; k < count; ++k) {
      for (std::size_t i = 0; i < n; ++i) at[i] = data[i] + offset[i];
      f(k, at.data());
      for (std::size_t axis = nd; axis-- > 0;) {
        for (std::size_t i = 0; i < n; ++i) offset[i] += strides[i][axis];
        if (++index[axis] < shape_[axis]) break;
        for (std::size_t i = 0; i < n; ++i) offset[i] -= strides[i][axis] * shape_[axis];
        index[axis] = 0;
      }
    }
  }

 private:
  struct Input {
    std::string described;  // "slip of shape (3, 2)", for errors
    py::array_t<double> array;
    Shape shape;    // leading (broadcast) axes
    int width;      // values per element
    bool constant;  // an argument left out
  };

  void broadcast(const std::string& described, const Shape& shape) {
    Shape result(std::max(shape.size(), shape_.size()), 1);
    for (std::size_t a = 0; a < result.size(); ++a) {
      const py::ssize_t mine = a < shape.size() ? shape[shape.size() - 1 - a] : 1;
      const py::ssize_t theirs = a < shape_.size() ? shape_[shape_.size() - 1 - a] : 1;
      if (mine != theirs && mine != 1 && theirs != 1) {
        std::string others;
        for (const Input& in : inputs_)
          if (!in.constant) others += (others.empty() ? "" : ", ") + in.described;
        throw py::value_error(described + " does not broadcast with " + others);
      }
      result[result.size() - 1 - a] = mine == 1 ? theirs : mine;
    }
    shape_ = result;
  }

  std::vector<Input> inputs_;
  Shape shape_;            // the broadcast shape of the inputs added so far
  bool constant_ = false;  // the input being added is a left-out argument
};

// Writes a 2-vector and a 2×2 matrix (row-major: [..., i, j] = M(i, j)) at element k.
void put2(double* out, py::ssize_t k, const Vec2& v) {
  out[2 * k] = v.x();
  out[2 * k + 1] = v.y();
}
void put22(double* out, py::ssize_t k, const Mat2& m) {
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) out[4 * k + 2 * i + j] = m(i, j);
}

// ---------------------------------------------------------------------------------------------
// Built laws.

class PyLaw {
 public:
  PyLaw(const LawInfo& info, LawSpec spec, std::string context)
      : info_(&info), spec_(std::move(spec)), context_(std::move(context)) {}
  virtual ~PyLaw() = default;
  PyLaw(PyLaw&&) = default;
  PyLaw(const PyLaw&) = delete;
  PyLaw& operator=(const PyLaw&) = delete;

  [[nodiscard]] const LawInfo& info() const { return *info_; }
  [[nodiscard]] std::string section() const { return std::string(section_name(info_->section)); }
  [[nodiscard]] std::string name() const { return std::string(info_->name); }
  // The parameters as given: numbers and names.
  [[nodiscard]] py::dict params() const {
    py::dict d;
    for (const auto& [k, v] : spec_.params) d[py::str(k)] = v;
    for (const auto& [k, v] : spec_.options) d[py::str(k)] = v;
    return d;
  }
  [[nodiscard]] std::string repr(const std::string& type) const {
    std::string r = type + "('" + section() + "', '" + name() + "'";
    for (const auto& [k, v] : spec_.params)
      r += ", " + k + "=" + std::string(py::repr(py::float_(v)));
    for (const auto& [k, v] : spec_.options)
      r += ", " + k + "=" + std::string(py::repr(py::str(v)));
    return r + context_ + ")";
  }

 private:
  const LawInfo* info_;
  LawSpec spec_;
  std::string context_;  // ", materials=..., friction=..." as given, for repr
};

class PyNormalLaw : public PyLaw {
 public:
  PyNormalLaw(PyLaw base, std::unique_ptr<NormalLaw> law)
      : PyLaw(std::move(base)), law_(std::move(law)) {}
  [[nodiscard]] const NormalLaw& law() const { return *law_; }

  py::dict evaluate(const py::object& delta, const py::object& rate,
                    const py::object& radius) const {
    Batch b;
    b.add("delta", delta, 0);
    b.add("rate", rate, 0);
    b.add("equivalent_radius", radius, 0);
    auto force = b.output(), d_delta = b.output(), d_rate = b.output(), power = b.output(),
         potential = b.output();
    double *f = force.mutable_data(), *dd = d_delta.mutable_data(), *dr = d_rate.mutable_data(),
           *p = power.mutable_data(), *u = potential.mutable_data();
    b.run([&](py::ssize_t k, const double* const* in) {
      const NormalGeometry g{in[2][0]};
      const NormalResult r = law_->evaluate(in[0][0], in[1][0], g);
      f[k] = r.force;
      dd[k] = r.d_delta;
      dr[k] = r.d_rate;
      p[k] = r.power;
      u[k] = law_->potential(in[0][0], g);
    });
    py::dict d;
    d["force"] = force;
    d["d_delta"] = d_delta;
    d["d_rate"] = d_rate;
    d["power"] = power;
    d["potential"] = potential;
    return d;
  }

 private:
  std::unique_ptr<NormalLaw> law_;
};

// The friction memory's inputs: each field given in `memory` (a mapping) or its default.
void add_memory(Batch& b, py::handle memory) {
  const char* fields[] = {"sticking", "anchor_force", "anchor", "previous_slip"};
  py::dict given;
  if (!memory.is_none()) {
    if (!is_mapping(memory))
      throw py::value_error(
          "memory: expected a mapping with the keys sticking, anchor_force, "
          "anchor, previous_slip, got " +
          type_name(memory));
    given = py::dict(py::reinterpret_borrow<py::object>(memory));
    for (auto item : given) {
      const std::string key = py::str(item.first);
      bool known = false;
      for (const char* f : fields) known = known || key == f;
      if (!known)
        throw py::value_error("memory: unknown key '" + key +
                              "' (the keys: sticking, anchor_force, anchor, previous_slip)");
    }
  }
  for (const char* f : fields) {
    const int width = std::string(f) == "sticking" ? 0 : 2;
    const std::string name = std::string("memory['") + f + "']";
    if (given.contains(f))
      b.add(name, given[f], width);
    else
      b.add_constant(name, 0.0, width);
  }
}

FrictionMemory memory_at(const double* const* in) {
  FrictionMemory m;
  m.sticking = in[0][0] != 0.0;
  m.anchor_force = Vec2(in[1][0], in[1][1]);
  m.anchor = Vec2(in[2][0], in[2][1]);
  m.previous_slip = Vec2(in[3][0], in[3][1]);
  return m;
}

class PyFrictionLaw : public PyLaw {
 public:
  PyFrictionLaw(PyLaw base, std::unique_ptr<FrictionLaw> law)
      : PyLaw(std::move(base)), law_(std::move(law)) {}
  [[nodiscard]] const FrictionLaw& law() const { return *law_; }

  py::dict evaluate(const py::object& slip, const py::object& normal_force,
                    const py::object& displacement, const py::object& memory) const {
    Batch b;
    add_memory(b, memory);  // inputs 0..3
    b.add("slip", slip, 2);
    b.add("normal_force", normal_force, 0);
    if (displacement.is_none())
      b.add_constant("displacement", 0.0, 2);
    else
      b.add("displacement", displacement, 2);
    auto force = b.output({2}), d_slip = b.output({2, 2}), d_normal = b.output({2}),
         d_displacement = b.output({2, 2}), power = b.output(), stored = b.output();
    auto sticking = b.output<bool>();
    auto anchor_force = b.output({2}), anchor = b.output({2}), previous_slip = b.output({2});
    double *f = force.mutable_data(), *ds = d_slip.mutable_data(), *dn = d_normal.mutable_data(),
           *dx = d_displacement.mutable_data(), *p = power.mutable_data(),
           *e = stored.mutable_data(), *af = anchor_force.mutable_data(),
           *an = anchor.mutable_data(), *ps = previous_slip.mutable_data();
    bool* st = sticking.mutable_data();
    b.run([&](py::ssize_t k, const double* const* in) {
      const TangentialInput input{Vec2(in[4][0], in[4][1]), in[5][0], Vec2(in[6][0], in[6][1])};
      const TangentialResult r = law_->evaluate(input, memory_at(in));
      put2(f, k, r.force);
      put22(ds, k, r.d_slip);
      put2(dn, k, r.d_normal);
      put22(dx, k, r.d_displacement);
      p[k] = r.power;
      e[k] = r.stored;
      st[k] = r.memory.sticking;
      put2(af, k, r.memory.anchor_force);
      put2(an, k, r.memory.anchor);
      put2(ps, k, r.memory.previous_slip);
    });
    py::dict out_memory;
    out_memory["sticking"] = sticking;
    out_memory["anchor_force"] = anchor_force;
    out_memory["anchor"] = anchor;
    out_memory["previous_slip"] = previous_slip;
    py::dict d;
    d["force"] = force;
    d["d_slip"] = d_slip;
    d["d_normal"] = d_normal;
    d["d_displacement"] = d_displacement;
    d["power"] = power;
    d["stored"] = stored;
    d["memory"] = out_memory;
    return d;
  }

  py::array_t<double> cone_coefficients(const py::object& memory) const {
    Batch b;
    add_memory(b, memory);
    auto mu = b.output({2});
    double* out = mu.mutable_data();
    b.run([&](py::ssize_t k, const double* const* in) {
      put2(out, k, law_->cone_coefficients(memory_at(in)));
    });
    return mu;
  }

 private:
  std::unique_ptr<FrictionLaw> law_;
};

class PyRollingLaw : public PyLaw {
 public:
  PyRollingLaw(PyLaw base, std::unique_ptr<RollingLaw> law)
      : PyLaw(std::move(base)), law_(std::move(law)) {}
  [[nodiscard]] const RollingLaw& law() const { return *law_; }

  py::dict evaluate(const py::object& omega, const py::object& normal_force) const {
    Batch b;
    b.add("omega", omega, 2);
    b.add("normal_force", normal_force, 0);
    auto moment = b.output({2}), d_omega = b.output({2, 2}), d_normal = b.output({2}),
         power = b.output();
    double *m = moment.mutable_data(), *dw = d_omega.mutable_data(), *dn = d_normal.mutable_data(),
           *p = power.mutable_data();
    b.run([&](py::ssize_t k, const double* const* in) {
      const RollingResult r = law_->evaluate(Vec2(in[0][0], in[0][1]), in[1][0]);
      put2(m, k, r.moment);
      put22(dw, k, r.d_omega);
      put2(dn, k, r.d_normal);
      p[k] = r.power;
    });
    py::dict d;
    d["moment"] = moment;
    d["d_omega"] = d_omega;
    d["d_normal"] = d_normal;
    d["power"] = power;
    return d;
  }

 private:
  std::unique_ptr<RollingLaw> law_;
};

class PyPivotingLaw : public PyLaw {
 public:
  PyPivotingLaw(PyLaw base, std::unique_ptr<PivotingLaw> law)
      : PyLaw(std::move(base)), law_(std::move(law)) {}
  [[nodiscard]] const PivotingLaw& law() const { return *law_; }

  py::dict evaluate(const py::object& omega, const py::object& normal_force) const {
    Batch b;
    b.add("omega", omega, 0);
    b.add("normal_force", normal_force, 0);
    auto moment = b.output(), d_omega = b.output(), d_normal = b.output(), power = b.output();
    double *m = moment.mutable_data(), *dw = d_omega.mutable_data(), *dn = d_normal.mutable_data(),
           *p = power.mutable_data();
    b.run([&](py::ssize_t k, const double* const* in) {
      const PivotingResult r = law_->evaluate(in[0][0], in[1][0]);
      m[k] = r.moment;
      dw[k] = r.d_omega;
      dn[k] = r.d_normal;
      p[k] = r.power;
    });
    py::dict d;
    d["moment"] = moment;
    d["d_omega"] = d_omega;
    d["d_normal"] = d_normal;
    d["power"] = power;
    return d;
  }

 private:
  std::unique_ptr<PivotingLaw> law_;
};

class PyContensouLaw : public PyLaw {
 public:
  PyContensouLaw(PyLaw base, std::unique_ptr<ContensouLaw> law)
      : PyLaw(std::move(base)), law_(std::move(law)) {}
  [[nodiscard]] const ContensouLaw& law() const { return *law_; }

  py::dict evaluate(const py::object& slip, const py::object& spin, const py::object& normal_force,
                    const py::object& rolling, const py::object& radius) const {
    Batch b;
    b.add("slip", slip, 2);
    b.add("spin", spin, 0);
    b.add("normal_force", normal_force, 0);
    if (rolling.is_none())
      b.add_constant("rolling", 0.0, 2);
    else
      b.add("rolling", rolling, 2);
    b.add("equivalent_radius", radius, 0);
    // The PatchResult fields, in its order.
    struct Field {
      const char* name;
      Shape trailing;
    };
    const Field fields[] = {{"force", {2}},
                            {"moment", {}},
                            {"rolling_moment", {2}},
                            {"patch_radius", {}},
                            {"dforce_dslip", {2, 2}},
                            {"dforce_dspin", {2}},
                            {"dforce_drolling", {2, 2}},
                            {"dforce_dnormal", {2}},
                            {"dmoment_dslip", {2}},
                            {"dmoment_dspin", {}},
                            {"dmoment_drolling", {2}},
                            {"dmoment_dnormal", {}},
                            {"drolling_drolling", {2, 2}},
                            {"drolling_dnormal", {2}},
                            {"friction_power", {}},
                            {"pivoting_power", {}},
                            {"rolling_power", {}}};
    constexpr std::size_t kFields = std::size(fields);
    std::vector<py::array_t<double>> arrays;
    std::vector<double*> out;
    for (const Field& field : fields) {
      arrays.push_back(b.output(field.trailing));
      out.push_back(arrays.back().mutable_data());
    }
    auto set_valued = b.output<bool>();
    bool* sv = set_valued.mutable_data();
    b.run([&](py::ssize_t k, const double* const* in) {
      const PatchInput input{Vec2(in[0][0], in[0][1]), in[1][0], Vec2(in[3][0], in[3][1]),
                             in[2][0]};
      const PatchResult r = law_->evaluate(input, NormalGeometry{in[4][0]});
      put2(out[0], k, r.force);
      out[1][k] = r.moment;
      put2(out[2], k, r.rolling_moment);
      out[3][k] = r.patch_radius;
      put22(out[4], k, r.dforce_dslip);
      put2(out[5], k, r.dforce_dspin);
      put22(out[6], k, r.dforce_drolling);
      put2(out[7], k, r.dforce_dnormal);
      put2(out[8], k, r.dmoment_dslip);
      out[9][k] = r.dmoment_dspin;
      put2(out[10], k, r.dmoment_drolling);
      out[11][k] = r.dmoment_dnormal;
      put22(out[12], k, r.drolling_drolling);
      put2(out[13], k, r.drolling_dnormal);
      out[14][k] = r.friction_power;
      out[15][k] = r.pivoting_power;
      out[16][k] = r.rolling_power;
      sv[k] = r.set_valued;
    });
    py::dict d;
    for (std::size_t i = 0; i < kFields; ++i) d[fields[i].name] = arrays[i];
    d["set_valued"] = set_valued;
    return d;
  }

  py::array_t<double> patch_radius(const py::object& normal_force, const py::object& radius) const {
    Batch b;
    b.add("normal_force", normal_force, 0);
    b.add("equivalent_radius", radius, 0);
    auto a = b.output();
    double* out = a.mutable_data();
    b.run([&](py::ssize_t k, const double* const* in) {
      out[k] = law_->patch_radius(in[0][0], NormalGeometry{in[1][0]});
    });
    return a;
  }

 private:
  std::unique_ptr<ContensouLaw> law_;
};

// ---------------------------------------------------------------------------------------------
// make_law: the registry's factory with Python arguments.

std::string section_list() {
  std::string names;
  for (std::size_t i = 0; i < kLawSectionCount; ++i)
    names += (i ? ", " : "") + std::string(section_name(static_cast<LawSection>(i)));
  return names;
}

std::unique_ptr<PyLaw> make(const std::string& section_text, const std::optional<std::string>& name,
                            const py::object& materials, const py::object& friction,
                            const py::object& rolling_resistance, const py::kwargs& params) {
  const LawSection section = section_of(section_text);
  if (section == LawSection::count)
    throw py::value_error("unknown law section '" + section_text + "' (one of " + section_list() +
                          ")");
  for (const char* positional : {"section", "name"})
    if (params.contains(positional))
      throw py::value_error(std::string("make_law: ") + positional +
                            " is positional: make_law(section, name, **params), e.g. "
                            "make_law('normal', 'hertz', stiffness=1e9)");
  LawSpec spec;
  // The law's name: the argument, or `law=` as in a scene map; a one-law section's own name.
  std::optional<std::string> law = name;
  if (params.contains("law")) {
    const py::object given = params["law"];
    if (!py::isinstance<py::str>(given))
      throw py::value_error(section_text + ".law: must be a name, got " + type_name(given));
    if (law && *law != given.cast<std::string>())
      throw py::value_error(section_text + ".law: the law is named twice, '" + *law + "' and '" +
                            given.cast<std::string>() + "'");
    law = given.cast<std::string>();
  }
  spec.law = law ? *law : has_named_laws(section) ? std::string() : section_text;
  const LawInfo* row = find_law(section, spec.law);  // null: the factory names the valid laws
  for (auto item : params) {
    const std::string key = py::str(item.first);
    if (key == "law") continue;
    // A numeric key of the law given a name: refused here (the scene reader's rule: the row's
    // keys are numbers), in the words of the law's own checks.
    if (row != nullptr && row->key(key) != nullptr && py::isinstance<py::str>(item.second))
      throw py::value_error(section_text + "." + key + ": must be a number, got '" +
                            item.second.cast<std::string>() + "'");
    put_parameter(spec, section_text, key, item.second);
  }

  LawContext context;
  std::string context_text;
  if (!materials.is_none()) {
    context_text += ", materials=" + std::string(py::repr(materials));
    if (is_mapping(materials)) {
      context.material1 = context.material2 = material_of(materials);
    } else {
      const py::sequence pair = py::reinterpret_borrow<py::sequence>(materials);
      if (!py::isinstance<py::sequence>(materials) || py::isinstance<py::str>(materials) ||
          pair.size() != 2)
        throw py::value_error(
            "materials: expected a mapping (both bodies) or a pair of mappings, got " +
            type_name(materials));
      context.material1 = material_of(pair[0]);
      context.material2 = material_of(pair[1]);
    }
  }
  if (!friction.is_none()) {
    context_text += ", friction=" + std::string(py::repr(friction));
    if (py::isinstance<PyFrictionLaw>(friction))
      context.mu = friction.cast<const PyFrictionLaw&>().law().isotropic_coefficient();
    else if (is_real(friction))
      context.mu = py::cast<double>(friction);
    else
      throw py::value_error(
          "friction: expected the contact's friction coefficient μ (a number) or a FrictionLaw, "
          "got " +
          type_name(friction));
  }
  LawSpec rr;
  if (!rolling_resistance.is_none()) {
    context_text += ", rolling_resistance=" + std::string(py::repr(rolling_resistance));
    if (section != LawSection::contensou)
      throw py::value_error(
          "rolling_resistance: only the contensou law takes it (the pressure "
          "distortion of its patch), not " +
          section_text);
    if (!is_mapping(rolling_resistance))
      throw py::value_error("rolling_resistance: expected a mapping (kappa, regularization), got " +
                            type_name(rolling_resistance));
    rr.law = "rolling_resistance";
    for (auto item : py::reinterpret_borrow<py::object>(rolling_resistance).attr("items")()) {
      const auto pair = item.cast<py::tuple>();
      put_parameter(rr, "rolling_resistance", py::str(pair[0]), pair[1]);
    }
    context.rolling_resistance = &rr;
  }

  // Through the row's factory (LawError, a std::invalid_argument, becomes ValueError).
  AnyLaw built = make_law(section, spec, context);
  PyLaw base(law_of(section, spec), spec, context_text);
  return std::visit(
      [&](auto& p) -> std::unique_ptr<PyLaw> {
        using T = typename std::decay_t<decltype(p)>::element_type;
        if constexpr (std::is_same_v<T, NormalLaw>)
          return std::make_unique<PyNormalLaw>(std::move(base), std::move(p));
        else if constexpr (std::is_same_v<T, FrictionLaw>)
          return std::make_unique<PyFrictionLaw>(std::move(base), std::move(p));
        else if constexpr (std::is_same_v<T, RollingLaw>)
          return std::make_unique<PyRollingLaw>(std::move(base), std::move(p));
        else if constexpr (std::is_same_v<T, PivotingLaw>)
          return std::make_unique<PyPivotingLaw>(std::move(base), std::move(p));
        else
          return std::make_unique<PyContensouLaw>(std::move(base), std::move(p));
      },
      built);
}

}  // namespace

void bind_laws(py::module_& m) {
  m.def("laws", &all_laws,
        "The law registry: one dict per law (section, name, summary, header, formulations, "
        "standalone, keys with unit/range/default/meaning, options, example), in registry order.");
  py::class_<PyLaw>(m, "Law", "A contact law built by make_law (base class).")
      .def_property_readonly("section", &PyLaw::section)
      .def_property_readonly("name", &PyLaw::name)
      .def_property_readonly("params", &PyLaw::params)
      .def_property_readonly("description", [](const PyLaw& l) { return describe(l.info()); })
      .def("__repr__", [](py::handle self) {
        return self.cast<const PyLaw&>().repr(py::str(py::type::handle_of(self).attr("__name__")));
      });

  const py::object inf = py::float_(kInfinity);
  py::class_<PyNormalLaw, PyLaw>(m, "NormalLaw", "A normal law: N(δ, δ̇, R*).")
      .def_property_readonly("set_valued",
                             [](const PyNormalLaw& l) { return l.law().set_valued(); })
      .def_property_readonly("restitution",
                             [](const PyNormalLaw& l) { return l.law().restitution(); })
      .def("evaluate", &PyNormalLaw::evaluate, py::arg("delta"), py::arg("rate") = 0.0,
           py::arg("equivalent_radius") = inf,
           "Penetration δ = −gap [m], its rate δ̇ [m/s] and the equivalent radius R* [m] (Hertz "
           "laws without stiffness), broadcast; returns {force, d_delta, d_rate, power, "
           "potential} arrays of the broadcast shape.");
  py::class_<PyFrictionLaw, PyLaw>(m, "FrictionLaw", "A friction law: F_t(v_t, N, x_t, memory).")
      .def_property_readonly("set_valued",
                             [](const PyFrictionLaw& l) { return l.law().set_valued(); })
      .def_property_readonly("isotropic_coefficient",
                             [](const PyFrictionLaw& l) { return l.law().isotropic_coefficient(); })
      .def("cone_coefficients", &PyFrictionLaw::cone_coefficients, py::arg("memory") = py::none(),
           "(μ along t1, μ along t2) of the admissible cone given the memory: shape (..., 2).")
      .def("evaluate", &PyFrictionLaw::evaluate, py::arg("slip"), py::arg("normal_force"),
           py::arg("displacement") = py::none(), py::arg("memory") = py::none(),
           "Slip v_t (..., 2) [m/s], normal force N [N], tangential displacement x_t (..., 2) [m] "
           "and memory {sticking, anchor_force, anchor, previous_slip} (default: a new "
           "contact), broadcast; returns {force (..., 2), d_slip (..., 2, 2), d_normal, "
           "d_displacement, power, stored, memory}, [..., i, j] = ∂F_i/∂v_j.");
  py::class_<PyRollingLaw, PyLaw>(m, "RollingLaw", "A rolling law: M_t(ω_t, N).")
      .def_property_readonly("coefficient",
                             [](const PyRollingLaw& l) { return l.law().coefficient(); })
      .def("evaluate", &PyRollingLaw::evaluate, py::arg("omega"), py::arg("normal_force"),
           "Rolling rate ω_t (..., 2) [rad/s] and N [N], broadcast; returns {moment (..., 2), "
           "d_omega (..., 2, 2), d_normal (..., 2), power}.");
  py::class_<PyPivotingLaw, PyLaw>(m, "PivotingLaw", "A pivoting or soft-finger law: M_n(ω_n, N).")
      .def_property_readonly("coefficient",
                             [](const PyPivotingLaw& l) { return l.law().coefficient(); })
      .def("evaluate", &PyPivotingLaw::evaluate, py::arg("omega"), py::arg("normal_force"),
           "Spin ω_n [rad/s] and N [N], broadcast; returns {moment, d_omega, d_normal, power}.");
  py::class_<PyContensouLaw, PyLaw>(
      m, "ContensouLaw", "Coupled sliding and spinning: F_t, M_n, M_t(v_t, ω_n, ω_t, N).")
      .def_property_readonly("model",
                             [](const PyContensouLaw& l) { return std::string(l.law().name()); })
      .def_property_readonly("friction_coefficient",
                             [](const PyContensouLaw& l) { return l.law().friction_coefficient(); })
      .def("patch_radius", &PyContensouLaw::patch_radius, py::arg("normal_force"),
           py::arg("equivalent_radius") = inf,
           "Patch radius a [m]: the given radius, or Hertz's (3 N R*/(4 E*))^{1/3}.")
      .def("evaluate", &PyContensouLaw::evaluate, py::arg("slip"), py::arg("spin"),
           py::arg("normal_force"), py::arg("rolling") = py::none(),
           py::arg("equivalent_radius") = inf,
           "Slip v_t (..., 2) [m/s], spin ω_n [rad/s], N [N], rolling rate ω_t (..., 2) [rad/s] "
           "and R* [m], broadcast; returns the PatchResult fields (force, moment, "
           "rolling_moment, patch_radius, their derivatives, the three powers, set_valued).");

  m.def("make_law", &make, py::arg("section"), py::arg("name") = py::none(), py::pos_only(),
        py::kw_only(), py::arg("materials") = py::none(), py::arg("friction") = py::none(),
        py::arg("rolling_resistance") = py::none(),
        "Builds a law through the registry's factory, e.g. make_law('normal', 'hertz', "
        "stiffness=1e9): the section, the law's name (one-law sections: optional) and its "
        "scene-file keys; materials (a mapping, or a pair, with young_modulus and "
        "poisson_ratio), friction (the contact's μ, or its FrictionLaw) and rolling_resistance "
        "(a mapping, contensou only) are the contact's context. Bad parameters raise ValueError "
        "with the law's message.");
}

}  // namespace coulomb::python
