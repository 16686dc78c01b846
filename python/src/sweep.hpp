#pragma once
// Python bindings of the sweep: coulomb._coulomb.SweepPlan (python/src/sweep.cpp).
#include <pybind11/pybind11.h>

namespace coulomb::python {

void bind_sweep(pybind11::module_& m);

}  // namespace coulomb::python
