// Python bindings of the sweep (coulomb._coulomb.SweepPlan): the definition of a sweep and one
// variant's run, for coulomb.sweep (python/coulomb/_sweep.py) to hand out to Dask workers.
#include "sweep.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <coulomb/sweep/sweep.hpp>

namespace py = pybind11;

namespace coulomb::python {

namespace {

// A sweep's definition, rebuilt from the same arguments in every worker.
sweep::SweepSpec make_spec(const std::string& scene_text, const std::string& scene_file,
                           const std::vector<std::string>& sets,
                           const std::vector<std::string>& metrics, std::int64_t samples,
                           std::uint64_t seed, const std::string& combine, bool summary_only,
                           double checkpoint_every) {
  sweep::SweepSpec s;
  s.scene_text = scene_text;
  s.scene_file = scene_file;
  s.samples = samples;
  s.seed = seed;
  if (combine != "grid" && combine != "zip")
    throw std::invalid_argument("combine: 'grid' or 'zip', got '" + combine + "'");
  s.combine = combine == "zip" ? sweep::Combine::zip : sweep::Combine::grid;
  for (std::size_t p = 0; p < sets.size(); ++p)
    s.parameters.push_back(sweep::parse_parameter(sets[p], p, samples, seed));
  for (const std::string& m : metrics) s.metrics.push_back(sweep::parse_metric(m));
  s.summary_only = summary_only;
  s.checkpoint_every = checkpoint_every;
  return s;
}

struct PySweepPlan {
  sweep::SweepSpec spec;
  std::vector<sweep::Variant> list;
};

}  // namespace

void bind_sweep(py::module_& m) {
  py::class_<PySweepPlan>(m, "SweepPlan")
      .def(
          py::init([](const std::string& scene_text, const std::string& scene_file,
                      const std::vector<std::string>& sets, const std::vector<std::string>& metrics,
                      std::int64_t samples, std::uint64_t seed, const std::string& combine,
                      bool summary_only, double checkpoint_every) {
            PySweepPlan p{make_spec(scene_text, scene_file, sets, metrics, samples, seed, combine,
                                    summary_only, checkpoint_every),
                          {}};
            p.list = sweep::variants(p.spec);
            return p;
          }),
          py::arg("scene_text"), py::arg("scene_file"), py::arg("sets"), py::arg("metrics"),
          py::arg("samples"), py::arg("seed"), py::arg("combine"), py::arg("summary_only"),
          py::arg("checkpoint_every"))
      .def("__len__", [](const PySweepPlan& p) { return p.list.size(); })
      .def("header", [](const PySweepPlan& p) { return sweep::table_header(p.spec); })
      .def("validate", [](const PySweepPlan& p) { sweep::validate(p.spec); })
      .def(
          "prepare",
          [](const PySweepPlan& p, const std::string& dir) {
            sweep::prepare_directory(p.spec, dir);
          },
          py::arg("dir"))
      // One variant's run into DIR/runs/ID; its row (the GIL released meanwhile).
      .def(
          "run_variant",
          [](const PySweepPlan& p, std::int64_t id, const std::string& dir) {
            if (id < 0 || id >= static_cast<std::int64_t>(p.list.size()))
              throw std::out_of_range("run_variant: no variant " + std::to_string(id));
            const py::gil_scoped_release release;
            return sweep::run_variant(p.spec, p.list[static_cast<std::size_t>(id)], dir);
          },
          py::arg("id"), py::arg("dir"))
      .def(
          "write_table",
          [](const PySweepPlan& p, const std::string& dir, const std::vector<std::string>& rows) {
            sweep::write_table(p.spec, dir, rows);
          },
          py::arg("dir"), py::arg("rows"));
}

}  // namespace coulomb::python
