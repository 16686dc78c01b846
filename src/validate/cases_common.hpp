#pragma once
// Internal to the validation module: what every case file uses to load, edit and step a scene of
// scenes/validation/, and the case functions the registry (cases.cpp) lists, by file.
#include <coulomb/scene/scene.hpp>
#include <coulomb/validate/validate.hpp>
#include <coulomb/world/simulation.hpp>
#include <coulomb/world/world.hpp>

#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace coulomb::validate {

inline constexpr double kPi = std::numbers::pi;

// Observed order of convergence from three results at h, h/2, h/4 (no reference value):
// log2(|x(h) − x(h/2)| / |x(h/2) − x(h/4)|).
inline double observed_order(double x_h, double x_h2, double x_h4) {
  return std::log2(std::abs(x_h - x_h2) / std::abs(x_h2 - x_h4));
}

// Azimuth of a unit vector's horizontal projection, accumulated continuously over the run.
struct Azimuth {
  double total = 0.0;
  double last = std::nan("");
  void add(const Vec3& d) {
    const double a = std::atan2(d.y(), d.x());
    if (!std::isnan(last)) total += std::remainder(a - last, 2.0 * kPi);
    last = a;
  }
};

// A scene being stepped: the one driver of the step loop.
using Sim = Simulation;

inline Sim load(const std::string& file) {
  Scene scene = load_scene_text(validation_scene_text(file), "scenes/validation/" + file);
  return Sim(std::move(scene.model), std::move(scene.state));
}

// Steps to time `end` [s], calling after(report) after every step; a non-finite state throws
// (with its location: body, quantity, time, step).
template <class After>
void run_to(Sim& s, double end, After&& after) {
  s.run_to(end, [&](const StepReport& r) {
    if (!s.finite()) throw std::runtime_error(s.non_finite());
    after(r);
  });
}

inline int body(const Model& model, const std::string& name) {
  const int b = model.body_index(name);
  if (b < 0) throw std::runtime_error(fmt::format("the scene has no body '{}'", name));
  return b;
}

inline double friction_mu(const Model& model) {
  if (model.contacts.empty()) throw std::runtime_error("the scene has no contact specification");
  return model.contacts.front().friction.get("mu", std::nan(""));
}

// A step whose solve did not reach the scene's tolerance makes the case fail with where it
// happened (cases that compare exact solves with closed forms).
inline void require_converged(const Sim& s, const StepReport& r) {
  if (r.solver.status != SolverStatus::converged)
    throw std::runtime_error(
        fmt::format("the solver did not converge in the step ending at t = {} s", s.state().time));
}

// One step that must converge: the moment-law cases compare exact solves with closed forms, so a
// step the solver leaves unconverged makes the case fail with where it happened.
inline const StepReport& step_converged(Sim& s) {
  const StepReport& r = s.step();
  if (!s.finite()) throw std::runtime_error(s.non_finite());
  require_converged(s, r);
  return r;
}

// A scene edited before it is prepared (another model option, a time step, a tilt).
template <class Edit>
Sim load_edited(const std::string& file, Edit&& edit) {
  Scene scene = load_scene_text(validation_scene_text(file), "scenes/validation/" + file);
  edit(scene);
  return Sim(std::move(scene.model), std::move(scene.state));
}

// The case functions, by file; the registry (cases.cpp) lists them in its order.

// cases_friction.cpp: Coulomb friction against closed forms.
[[nodiscard]] std::vector<Check> billiard(const std::string& file, const CaseContext& ctx);
[[nodiscard]] std::vector<Check> incline_stick(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> incline_slide(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> incline_static_kinetic(const CaseContext& ctx);

// cases_impacts.cpp: impacts and Painlevé's rod.
[[nodiscard]] std::vector<Check> bouncing_ball_siconos(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> bouncing_ball_apex(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> painleve_rod(const CaseContext& ctx);

// cases_rigid.cpp: bodies at rest, free rotation.
[[nodiscard]] std::vector<Check> resting(const std::string& file, const CaseContext& ctx);
[[nodiscard]] std::vector<Check> dzhanibekov(const CaseContext& ctx);

// cases_moments.cpp: the moment laws (Contensou, pivoting, rolling resistance).
[[nodiscard]] std::vector<Check> contensou_table(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> pivoting_decay(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> contensou_decay(const std::string& file, const CaseContext& ctx);
[[nodiscard]] std::vector<Check> rolling_resistance(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> sliding_spinning(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> contensou_disk(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> tippe_top(const CaseContext& ctx);

/// The 3-D motion cases (cases_motion.cpp): rotation, rolling on curved bodies, the position
/// stage, orders of convergence.
[[nodiscard]] std::vector<Case> motion_cases();

/// The compliant formulation's cases (cases_compliant.cpp): impacts, Contensou patches against an
/// independent ODE, stick–slip, agreement with the nonsmooth closed forms.
[[nodiscard]] std::vector<Case> compliant_cases();
// cases_joints.cpp: joints (pendulums, frictional hinge, Newton's cradle on strings).
[[nodiscard]] std::vector<Case> joint_cases();

// cases_driven.cpp: driven bodies, springs and dampers (issue 11).
[[nodiscard]] std::vector<Check> conveyor_belt(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> belt_sinusoid(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> cone_turntable(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> vibrating_platform(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> period_doubling(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> spring_mass(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> wear_power_check(const CaseContext& ctx);

// cases_shocks.cpp: code_aster's shock statistics of DIS_CHOC contacts (issue 11).
[[nodiscard]] std::vector<Check> dis_choc_impact(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> dis_choc_periodic(const CaseContext& ctx);
[[nodiscard]] std::vector<Check> tube_support(const CaseContext& ctx);

/// The no-slip law's cases (cases_no_slip.cpp): a ball on a turntable, a ball on an incline.
[[nodiscard]] std::vector<Case> no_slip_cases();

}  // namespace coulomb::validate
