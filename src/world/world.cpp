// The step pipeline: an ordered list of named, timed stages (see stages/stages.hpp).
#include <coulomb/world/world.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <variant>

#include "stages/stages.hpp"

namespace coulomb {

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::free_motion:
      return "free_motion";
    case Stage::broadphase:
      return "broadphase";
    case Stage::narrowphase:
      return "narrowphase";
    case Stage::kinematics:
      return "kinematics";
    case Stage::assemble:
      return "assemble";
    case Stage::solve:
      return "solve";
    case Stage::integrate:
      return "integrate";
    case Stage::correct:
      return "correct";
    case Stage::count:
      break;
  }
  return "?";
}

const char* to_string(StateQuantity q) {
  switch (q) {
    case StateQuantity::none:
      return "none";
    case StateQuantity::position:
      return "position";
    case StateQuantity::orientation:
      return "orientation";
    case StateQuantity::velocity:
      return "velocity";
    case StateQuantity::angular_velocity:
      return "angular velocity";
  }
  return "?";
}

void prepare(const Model& model, Workspace& ws) {
  const std::size_t nbodies = model.bodies.size();
  const std::size_t nshapes = model.shapes.size();
  ws.X_WS.resize(nshapes);
  ws.aabbs.resize(nshapes);
  ws.shape_fixed.resize(nshapes);
  ws.shape_reach.resize(nshapes);
  ws.shape_sweep.assign(nshapes, 0.0);
  for (std::size_t s = 0; s < nshapes; ++s) {
    const Body& body = model.bodies[model.shape_body[s]];
    ws.shape_fixed[s] = body.fixed ? 1 : 0;
    // Reach: farthest corner of the shape's AABB in the body frame from the centre of mass.
    const Aabb box = compute_aabb(model.shapes[s].geometry, model.shapes[s].pose_BS, 0.0);
    double reach = 0.0;
    for (int corner = 0; corner < 8; ++corner) {
      const Vec3 p((corner & 1) ? box.hi.x() : box.lo.x(), (corner & 2) ? box.hi.y() : box.lo.y(),
                   (corner & 4) ? box.hi.z() : box.lo.z());
      reach = std::max(reach, (p - body.com_B).norm());
    }
    ws.shape_reach[s] = reach;
  }
  ws.x_c.resize(nbodies);
  ws.q_c.resize(nbodies);
  ws.L_start.resize(nbodies);
  ws.L_end.assign(nbodies, Vec3::Zero());
  ws.w_pre.resize(nbodies);
  ws.v_free.resize(nbodies);
  ws.w_free.resize(nbodies);
  ws.dx.resize(nbodies);
  ws.dtheta.resize(nbodies);
  ws.inv_inertia_W.resize(nbodies);
  ws.inv_inertia_B.resize(nbodies);
  ws.impulse_force.resize(nbodies);
  ws.impulse_torque.resize(nbodies);
  ws.v_mean.assign(nbodies, Vec3::Zero());
  ws.w_mean.assign(nbodies, Vec3::Zero());
  for (std::size_t b = 0; b < nbodies; ++b)
    ws.inv_inertia_B[b] =
        model.bodies[b].fixed ? Mat3::Zero() : Mat3(model.bodies[b].inertia_B.inverse());
  // Contact spec per (material, material), the default material mapped to the last index.
  const int nm = static_cast<int>(model.materials.size());
  ws.material_count = nm;
  ws.spec_of_materials.assign(static_cast<std::size_t>((nm + 1) * (nm + 1)), -1);
  for (int a = 0; a <= nm; ++a)
    for (int b = 0; b <= nm; ++b)
      ws.spec_of_materials[a * (nm + 1) + b] =
          model.contact_spec_index(a == nm ? -1 : a, b == nm ? -1 : b);
  // The laws of every contact spec, resolved (and checked) once.
  ws.laws.clear();
  ws.laws.push_back(resolve_nonsmooth_laws(model.default_contact, model));
  for (const ContactSpec& spec : model.contacts)
    ws.laws.push_back(resolve_nonsmooth_laws(spec, model));
  // Six unknowns per contact when a law has moments; buffers of the right size kept if present.
  const bool moments = std::any_of(ws.laws.begin(), ws.laws.end(),
                                   [](const NonsmoothLaws& l) { return l.has_moments(); });
  if (moments && ws.unknowns() != kWrench) ws.contact.emplace<ContactBuffers<kWrench>>();
  if (!moments && ws.unknowns() != kForce) ws.contact.emplace<ContactBuffers<kForce>>();
  ws.time_step = model.time_step;
  ws.prepared = true;
}

const StepReport& step(const Model& model, State& state, Workspace& ws) {
  if (!ws.prepared) prepare(model, ws);
  using clock = std::chrono::steady_clock;
  auto timed = [&ws](Stage s, auto&& fn) {
    const auto t0 = clock::now();
    fn();
    ws.profile.seconds[static_cast<std::size_t>(s)] +=
        std::chrono::duration<double>(clock::now() - t0).count();
  };
  timed(Stage::free_motion, [&] { stages::free_motion(model, state, ws); });
  timed(Stage::broadphase, [&] { stages::broadphase(model, state, ws); });
  timed(Stage::narrowphase, [&] { stages::narrowphase(model, state, ws); });
  timed(Stage::kinematics, [&] { stages::kinematics(model, state, ws); });
  // The one dispatch on the size of the contact problem (3 or 6 unknowns per contact).
  std::visit(
      [&](auto& contact) {
        timed(Stage::assemble, [&] { stages::assemble(model, state, ws, contact); });
        timed(Stage::solve, [&] { stages::solve(model, state, ws, contact); });
        timed(Stage::integrate, [&] { stages::integrate(model, state, ws, contact); });
        timed(Stage::correct, [&] { stages::correct(model, state, ws, contact); });
      },
      ws.contact);
  ++ws.profile.steps;
  return ws.report;
}

Energy energy(const Model& model, const State& state) {
  Energy e;
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.fixed) continue;
    const Vec3 omega_B = state.q_WB[b].conjugate() * state.w_W[b];
    e.kinetic +=
        0.5 * body.mass * state.v_WC[b].squaredNorm() + 0.5 * omega_B.dot(body.inertia_B * omega_B);
    e.potential -= body.mass * model.gravity.dot(state.x_WC[b]);
  }
  return e;
}

std::string non_finite_message(const Model& model, const State& state, const StepReport& report) {
  const int b = report.non_finite_body;
  const std::string who = b >= 0 && b < static_cast<int>(model.bodies.size())
                              ? fmt::format("body '{}'", model.bodies[b].name)
                              : std::string("the state");
  return fmt::format("{}: its {} is not finite at t = {} s (step {})", who,
                     to_string(report.non_finite_quantity), state.time, state.step);
}

std::vector<Overlap> find_overlaps(const Model& model, const State& state, double min_depth) {
  // The broadphase and narrowphase stages at the state's own configuration.
  Workspace ws;
  prepare(model, ws);
  ws.x_c = state.x_WC;
  ws.q_c = state.q_WB;
  stages::broadphase(model, state, ws);
  stages::narrowphase(model, state, ws);
  std::map<std::pair<int, int>, double> deepest;
  for (const ContactPoint& c : ws.points) {
    if (!(-c.gap > min_depth)) continue;
    const auto key = std::minmax(c.body1, c.body2);
    double& d = deepest[{key.first, key.second}];
    d = std::max(d, -c.gap);
  }
  std::vector<Overlap> out;
  for (const auto& [pair, depth] : deepest) out.push_back({pair.first, pair.second, depth});
  return out;
}

}  // namespace coulomb
