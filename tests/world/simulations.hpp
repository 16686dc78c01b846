#pragma once
// Simulations of scene text for the world tests (the scene loader's YAML, as a user writes it).

#include <coulomb/scene/scene.hpp>
#include <coulomb/world/simulation.hpp>
#include <coulomb/world/world.hpp>

#include <string>
#include <utility>

namespace coulomb::testing {

/// A Simulation of the scene `text` (YAML), loaded as from a file "t.yaml".
inline Simulation load(const std::string& text) {
  Scene s = load_scene_text(text, "t.yaml");
  return Simulation(std::move(s.model), std::move(s.state));
}

/// energy.csv's `total` of the simulation's state (docs/outputs.md).
inline double audited(const Simulation& s) {
  return audited_total(s.model(), energy(s.model(), s.state()), s.state());
}

}  // namespace coulomb::testing
