// The step pipeline: an ordered list of named, timed stages (see stages/stages.hpp).
#include <coulomb/world/world.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <stdexcept>
#include <variant>

#include "stages/stages.hpp"

namespace coulomb {

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::free_motion:
      return "free_motion";
    case Stage::broadphase:
      return "broadphase";
    case Stage::wake:
      return "wake";
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
    case Stage::activate:
      return "activate";
    case Stage::sleep:
      return "sleep";
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
  FreeMotion& motion = ws.free_motion;
  motion.x_c.resize(nbodies);
  motion.q_c.resize(nbodies);
  motion.L_start.resize(nbodies);
  motion.w_pre.resize(nbodies);
  motion.v_free.resize(nbodies);
  motion.w_free.resize(nbodies);
  motion.inv_inertia_W.resize(nbodies);
  motion.L_free.resize(nbodies);
  motion.body_flags.assign(nbodies, 0);
  motion.inv_mass.resize(nbodies);
  motion.load_force.assign(nbodies, Vec3::Zero());
  motion.load_torque.assign(nbodies, Vec3::Zero());
  motion.spring_force.assign(nbodies, Vec3::Zero());
  motion.spring_torque.assign(nbodies, Vec3::Zero());
  motion.damping_force.assign(nbodies, Vec3::Zero());
  motion.damping_torque.assign(nbodies, Vec3::Zero());
  ShapeFrames& frames = ws.shape_frames;
  frames.X_WS.resize(nshapes);
  frames.aabbs.resize(nshapes);
  frames.shape_sweep.assign(nshapes, 0.0);
  StepResults& results = ws.step_results;
  results.L_end.assign(nbodies, Vec3::Zero());
  results.impulse_force.resize(nbodies);
  results.impulse_torque.resize(nbodies);
  results.v_mean.assign(nbodies, Vec3::Zero());
  results.w_mean.assign(nbodies, Vec3::Zero());
  ws.position.dx.resize(nbodies);
  ws.position.dtheta.resize(nbodies);
  // The contact problem's size; buffers of the right size kept if present.
  const int unknowns = model.compiled.unknowns;
  if (unknowns == kWrench && ws.unknowns() != kWrench)
    ws.contact.emplace<ContactBuffers<kWrench>>();
  if (unknowns == kForce && ws.unknowns() != kForce) ws.contact.emplace<ContactBuffers<kForce>>();
}

namespace {

// Whether prepare(model, ws) has sized the workspace for the model's bodies, shapes and contact
// problem.
bool sized_for(const Model& model, const Workspace& ws) {
  return ws.free_motion.x_c.size() == model.bodies.size() &&
         ws.shape_frames.X_WS.size() == model.shapes.size() &&
         ws.unknowns() == model.compiled.unknowns;
}

// The stages read Model::compiled: refuse a model whose compiled part is missing or stale.
void require_compiled(const Model& model, const char* who) {
  if (!model.compiled_for_sizes())
    throw std::logic_error(
        fmt::format("{}: the model is not compiled for its bodies, shapes and contacts; call "
                    "Model::finalize() after building or changing it",
                    who));
}

}  // namespace

const StepReport& step(const Model& model, State& state, Workspace& ws) {
  require_compiled(model, "step");
  if (!sized_for(model, ws)) prepare(model, ws);
  using clock = std::chrono::steady_clock;
  auto timed = [&ws](Stage s, auto&& fn) {
    const auto t0 = clock::now();
    fn();
    ws.profile.seconds[static_cast<std::size_t>(s)] +=
        std::chrono::duration<double>(clock::now() - t0).count();
  };
  // What each stage reads (const) and writes is in its signature (stages/stages.hpp).
  FreeMotion& motion = ws.free_motion;
  ShapeFrames& frames = ws.shape_frames;
  ContactPoints& points = ws.contact_points;
  ActiveSet& active = ws.active_set;
  StepReport& report = ws.report;
  timed(Stage::free_motion, [&] { stages::free_motion(model, state, motion, report); });
  timed(Stage::broadphase, [&] { stages::broadphase(model, state, motion, frames, report); });
  // Sleeping islands a moving body reaches wake; free motion and pairs again while any does.
  report.woken = 0;
  if (model.solver.sleep.enabled) {
    for (;;) {
      const int woken = report.woken;
      timed(Stage::wake, [&] { stages::wake(model, motion, frames, state, ws.islands, report); });
      if (report.woken == woken) break;
      timed(Stage::free_motion, [&] { stages::free_motion(model, state, motion, report); });
      timed(Stage::broadphase, [&] { stages::broadphase(model, state, motion, frames, report); });
    }
  }
  timed(Stage::narrowphase, [&] { stages::narrowphase(model, frames, points, report); });
  timed(Stage::kinematics,
        [&] { stages::kinematics(model, state, motion, points, active, report); });
  // The one dispatch on the size of the contact problem (3 or 6 unknowns per contact).
  std::visit(
      [&](auto& contact) {
        timed(Stage::assemble,
              [&] { stages::assemble(model, state, motion, points, active, contact); });
        // Points the impulses close join the problem, which is solved again from the answer
        // found (the new points start from their contact memory). While points can still join,
        // a solve is provisional (kProvisionalTolerance, no stopping pass: its answer only tells
        // which points close); the last problem is then solved to the model's tolerance from its
        // provisional answer, and checked once more for points it closes.
        const bool rule_activates = model.solver.scheme == TimeScheme::midpoint ||
                                    model.solver.active_set != ActiveSetRule::siconos;
        auto may_grow = [&](int pass) {
          return rule_activates && pass < model.solver.activation_passes &&
                 points.points.size() > active.active.size();
        };
        // Budget mode (solver.max_step_iterations): the solves of the step share the budget; spent,
        // the step applies the answer it has (a provisional one judged at the model's tolerance).
        const int budget = model.solver.max_step_iterations > 0 ? model.solver.max_step_iterations
                                                                : std::numeric_limits<int>::max();
        bool provisional = may_grow(0);
        timed(Stage::solve, [&] {
          stages::solve(model, state, active, points, contact, report, provisional, budget);
        });
        report.activated = 0;
        report.provisional_solves = provisional ? 1 : 0;
        report.provisional_iterations = provisional ? report.solver.iterations : 0;
        // Whether the answer in hand has been tested for the points it closes (and none joined).
        bool tested = false;
        for (int pass = 0;;) {
          const int iterations = report.solver.iterations;
          const int jumps = report.solver.drift_jumps;
          if (iterations >= budget) break;
          if (pass < model.solver.activation_passes) {
            const int before = report.activated;
            timed(Stage::activate,
                  [&] { stages::activate(model, points, contact, active, report, false); });
            tested = report.activated == before;
            if (!tested) {
              ++pass;
              contact.r_kept.assign(contact.r.begin(), contact.r.end());
              timed(Stage::assemble,
                    [&] { stages::assemble(model, state, motion, points, active, contact); });
              // The answer kept: the contacts' impulses first, the joint blocks' at the end.
              const std::size_t joints = contact.joint_of_block.size();
              std::copy(contact.r_kept.begin(), contact.r_kept.end() - joints, contact.r.begin());
              std::copy(contact.r_kept.end() - joints, contact.r_kept.end(),
                        contact.r.end() - joints);
              provisional = may_grow(pass);
              timed(Stage::solve, [&] {
                stages::solve(model, state, active, points, contact, report, provisional,
                              budget - iterations);
              });
              if (provisional) {
                ++report.provisional_solves;
                report.provisional_iterations += report.solver.iterations;
              }
              report.solver.iterations += iterations;
              report.solver.drift_jumps += jumps;
              continue;
            }
          }
          if (!provisional) break;
          // No point joined: the same problem to the model's tolerance, from the answer found.
          provisional = false;
          timed(Stage::solve, [&] {
            stages::solve(model, state, active, points, contact, report, false,
                          budget - iterations);
          });
          report.solver.iterations += iterations;
          report.solver.drift_jumps += jumps;
          tested = false;
        }
        if (provisional && report.solver.error > model.solver.tolerance)
          report.solver.status = SolverStatus::max_iterations;
        // The answer applied, if no pass tested it: the points it closes are left out (counted).
        report.left_out = 0;
        report.left_out_overlap = 0.0;
        if (rule_activates && !tested && points.points.size() > active.active.size())
          timed(Stage::activate,
                [&] { stages::activate(model, points, contact, active, report, true); });
        timed(Stage::integrate, [&] {
          stages::integrate(model, motion, points, active, contact, state, ws.step_results, report);
        });
        timed(Stage::correct, [&] {
          stages::correct(model, frames, active, points, contact, ws.step_results, state,
                          ws.position, report);
        });
        timed(Stage::sleep,
              [&] { stages::sleep(model, motion, points, state, ws.islands, report); });
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
  e.elastic = state.compliant.elastic;
  // The springs' energy (the compliant formulation's elastic holds it already).
  if (model.solver.formulation == Formulation::nonsmooth) {
    for (const Spring& sp : model.springs) {
      auto end = [&](int body, const Vec3& point_B, const Vec3& anchor_W) -> Vec3 {
        if (body < 0) return anchor_W;
        const auto b = static_cast<std::size_t>(body);
        return state.x_WC[b] + state.q_WB[b] * (point_B - model.bodies[b].com_B);
      };
      const double stretch =
          (end(sp.body, sp.point_B, Vec3::Zero()) - end(sp.body2, sp.point2_B, sp.anchor_W))
              .norm() -
          sp.rest_length;
      e.elastic += 0.5 * sp.stiffness * stretch * stretch;
    }
  }
  return e;
}

double audited_total(const Model& model, const Energy& e, const State& state) {
  // (Sleeping islands: the kinetic energy set to zero when they fell asleep.)
  const double total =
      e.mechanical() + state.dissipated + (model.solver.sleep.enabled ? state.slept : 0.0);
  if (!model.has_actuation()) return total;
  return total + state.damping - state.driven_work - state.force_work;
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
  require_compiled(model, "find_overlaps");
  Workspace ws;
  prepare(model, ws);
  ws.free_motion.x_c = state.x_WC;
  ws.free_motion.q_c = state.q_WB;
  stages::broadphase(model, state, ws.free_motion, ws.shape_frames, ws.report);
  stages::narrowphase(model, ws.shape_frames, ws.contact_points, ws.report);
  std::map<std::pair<int, int>, double> deepest;
  for (const ContactPoint& c : ws.contact_points.points) {
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
