#pragma once
// The contact laws in Python, driven by the law registry (coulomb/laws/registry.hpp): laws() lists
// the rows, make_law() builds a law through its row's factory, and each built law evaluates over
// numpy arrays (broadcast like numpy, the GIL released in the loop). No law is bound by hand: a
// law added to the registry appears here with its section's evaluation.

#include <pybind11/pybind11.h>

namespace coulomb::python {

/// Adds laws, make_law and the classes Law, NormalLaw, FrictionLaw, RollingLaw, PivotingLaw and
/// ContensouLaw to the module.
void bind_laws(pybind11::module_& m);

}  // namespace coulomb::python
