#pragma once
// A helper of stages kinematics and activate (not a stage: the step does not time it).
#include <coulomb/model/model.hpp>
#include <coulomb/world/workspace.hpp>

namespace coulomb::stages {

/// The active contacts of each dynamic body (ActiveSet's CSR) from `out.active` (kinematics.cpp).
void body_contacts(const Model& model, const ContactPoints& points, ActiveSet& out);

}  // namespace coulomb::stages
