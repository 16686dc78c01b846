#pragma once
// The section readers of the scene loader (internal): scene.cpp reads the settings and drives
// them; scene_contacts.cpp reads materials and contact laws, scene_bodies.cpp bodies and shapes.
// Each throws SceneError at the offending node (Reporter::fail).

#include <coulomb/model/model.hpp>

#include "scene/yaml_reader.hpp"

#include <string>
#include <vector>

namespace coulomb::scene_detail {

/// The initial state of one body as the scene gives it (body frame B).
struct InitialState {
  Vec3 p_WB = Vec3::Zero();
  Quat q_WB = Quat::Identity();
  Vec3 v_WC = Vec3::Zero();
  Vec3 w_W = Vec3::Zero();
};

/// `materials`: appends to m.materials; `name_locs` receives where each name was written.
void read_materials(const Reporter& r, const Field& f, Model& m, std::vector<Loc>& name_locs);
/// `contacts`: appends a ContactSpec per entry, every law built and checked.
void read_contacts(const Reporter& r, const Field& f, Model& m);
/// The law sections of a contact map (a `contacts` entry or `default_contact`).
void read_laws(const Reporter& r, const MapView& map, ContactSpec& c);
/// The law sections a contact map may hold (a `contacts` entry adds `between`).
std::vector<std::string> law_section_keys();
/// Builds and checks the default contact's laws (after the bodies, which give its materials).
void validate_default_contact(const Reporter& r, const Model& m);
/// Where a section of a contact was written: its map, else the contact entry.
Loc section_loc(const ContactSpec& c, const std::string& section);
/// Rejects, at its key, a law, key or option value that the nonsmooth formulation cannot run.
void check_nonsmooth_laws(const Reporter& r, const ContactSpec& c, const std::string& path);
/// True when the nonsmooth formulation takes every law of `c` (check_nonsmooth_laws would pass).
[[nodiscard]] bool nonsmooth_laws(const ContactSpec& c);
/// One `bodies` entry: appends the body and its shapes to m, its initial state to init.
void read_body(const Reporter& r, const Field& f, Model& m, InitialState& init);
/// `springs`: appends a Spring per entry (after the bodies; scene_actuation.cpp).
void read_springs(const Reporter& r, const Field& f, Model& m);
/// `joints` (nonsmooth formulation): appends a Joint per entry (after the bodies;
/// scene_joints.cpp).
void read_joints(const Reporter& r, const Field& f, Model& m);
/// A body's `motion` (the body is fixed; its pose at the centre of the motion is `init`'s).
void read_motion(const Reporter& r, const Field& f, Body& body, const InitialState& init);
/// A free body's `force`, `torque`, `load_frame`, `force_point`, `load_table`, `damping`.
void read_load(const Reporter& r, const MapView& map, Body& body);
/// Rejects, at its key, a law, key or option value that the compliant formulation cannot run
/// (the registry), or whose force laws cannot be built (build_compliant_laws).
void check_compliant_laws(const Reporter& r, const ContactSpec& c, const std::string& path,
                          const Material& m1, const Material& m2);
/// True when the compliant formulation takes every law of `c` (the registry's formulations).
[[nodiscard]] bool compliant_laws(const ContactSpec& c);

}  // namespace coulomb::scene_detail
