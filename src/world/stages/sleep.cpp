// Stages wake and sleep: sleeping islands (SolverSettings::sleep, off by default;
// docs/nonsmooth.md, "Sleeping islands").
//
// An island is a set of free bodies linked by the step's contact points (every point within the
// contact margin, active or not). A body is still when |v| ≤ v_s and |ω| ≤ ω_s (SleepSettings's
// linear_velocity and angular_velocity) at the end of a step; State::still_time counts how long it
// has been still. An island whose every body has been still for SleepSettings::time falls asleep at
// the end of the step: its velocities are set to zero, their kinetic energy
//   ΔE = Σ ½ m |v|² + ½ ωᵀ I_W ω   [J]
// is added to State::slept (energy.csv's `slept`, counted in `total`), and each of its bodies
// records the island (State::asleep = the island's least body index). A body that is driven,
// loaded (a force, torque or damping), on a spring or in a joint never sleeps, nor does an island
// holding one or touching a driven body.
//
// While asleep, a body is held as a fixed body (free_motion: kBodyFixed | kBodyAsleep): its shapes
// pair with no fixed or sleeping shape in the broadphase, so a sleeping island costs no contact
// point, no solve and no integration; the memory of its contacts is kept (integrate). After the
// broadphase, `wake` wakes whole every island that a moving body (free and awake, or driven)
// reaches with a candidate pair — its box grown by the contact margin and the step's sweep, so
// before any contact can close — and every island one of whose bodies was given a velocity
// (State filled by a caller); world.cpp then runs free_motion and the broadphase again, until no
// island wakes. The woken bodies enter the step's contact problem with their contact memory (the
// impulses that held them, as warm start).
//
// Every loop runs in body, pair or point order, and an island's root is its least body index (the
// union–find keeps the smaller root): the result does not depend on the threads.
#include <coulomb/dynamics/rigid_body.hpp>

#include <algorithm>
#include <limits>

#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

// Sizes the sleep fields of a State filled by hand (State::resize sizes them).
void size_sleep_state(const Model& model, State& state) {
  const std::size_t n = model.bodies.size();
  if (state.asleep.size() != n) state.asleep.assign(n, -1);
  if (state.still_time.size() != n) state.still_time.assign(n, 0.0);
}

// A free body awake in this step.
bool free_awake(std::uint8_t flags) { return (flags & kBodyFixed) == 0; }

// A body that moves in this step: free and awake, or driven.
bool moving(std::uint8_t flags) { return (flags & (kBodyFixed | kBodyDriven)) != kBodyFixed; }

std::int32_t find(std::vector<std::int32_t>& parent, std::int32_t b) {
  while (parent[static_cast<std::size_t>(b)] != b) {
    auto& p = parent[static_cast<std::size_t>(b)];
    p = parent[static_cast<std::size_t>(p)];  // path halving
    b = p;
  }
  return b;
}

void unite(std::vector<std::int32_t>& parent, std::int32_t a, std::int32_t b) {
  a = find(parent, a);
  b = find(parent, b);
  if (a == b) return;
  if (a < b)
    parent[static_cast<std::size_t>(b)] = a;
  else
    parent[static_cast<std::size_t>(a)] = b;
}

}  // namespace

void wake(const Model& model, const FreeMotion& motion, const ShapeFrames& frames, State& state,
          Islands& islands, StepReport& report) {
  if (!model.solver.sleep.enabled) return;
  size_sleep_state(model, state);
  const std::size_t n = model.bodies.size();
  const std::vector<std::uint8_t>& flags = motion.body_flags;
  islands.waking.clear();
  // A sleeping body given a velocity is awake in free_motion: its island wakes.
  for (std::size_t b = 0; b < n; ++b)
    if (state.asleep[b] >= 0 && (flags[b] & kBodyAsleep) == 0)
      islands.waking.push_back(state.asleep[b]);
  // A moving body within reach of a sleeping one.
  for (const ShapePair& p : frames.pairs) {
    const auto b1 = static_cast<std::size_t>(model.shape_body[static_cast<std::size_t>(p.a)]);
    const auto b2 = static_cast<std::size_t>(model.shape_body[static_cast<std::size_t>(p.b)]);
    if ((flags[b1] & kBodyAsleep) != 0 && moving(flags[b2]))
      islands.waking.push_back(state.asleep[b1]);
    if ((flags[b2] & kBodyAsleep) != 0 && moving(flags[b1]))
      islands.waking.push_back(state.asleep[b2]);
  }
  if (islands.waking.empty()) return;
  std::sort(islands.waking.begin(), islands.waking.end());
  islands.waking.erase(std::unique(islands.waking.begin(), islands.waking.end()),
                       islands.waking.end());
  report.woken += state.wake_islands(islands.waking);
}

void sleep(const Model& model, const FreeMotion& motion, const ContactPoints& points, State& state,
           Islands& islands, StepReport& report) {
  report.sleeping = 0;
  if (!model.solver.sleep.enabled) return;
  size_sleep_state(model, state);
  const SleepSettings& settings = model.solver.sleep;
  const std::size_t n = model.bodies.size();
  const std::vector<std::uint8_t>& flags = motion.body_flags;
  const double h = model.time_step;
  // Still times of the free bodies awake in the step.
  std::vector<std::int32_t>& parent = islands.parent;
  parent.resize(n);
  for (std::size_t b = 0; b < n; ++b) {
    parent[b] = static_cast<std::int32_t>(b);
    if (!free_awake(flags[b])) continue;
    const bool still = state.v_WC[b].norm() <= settings.linear_velocity &&
                       state.w_W[b].norm() <= settings.angular_velocity;
    state.still_time[b] = still ? state.still_time[b] + h : 0.0;
  }
  // The islands: free awake bodies linked by the step's points.
  for (const ContactPoint& c : points.points)
    if (free_awake(flags[static_cast<std::size_t>(c.body1)]) &&
        free_awake(flags[static_cast<std::size_t>(c.body2)]))
      unite(parent, c.body1, c.body2);
  // Each island's least still time; −1 where a body may not sleep.
  constexpr double kNever = -1.0;
  std::vector<double>& still = islands.still;
  still.assign(n, std::numeric_limits<double>::infinity());
  auto forbid = [&](int b) {
    if (b >= 0 && free_awake(flags[static_cast<std::size_t>(b)]))
      still[static_cast<std::size_t>(find(parent, b))] = kNever;
  };
  for (std::size_t b = 0; b < n; ++b) {
    if (!free_awake(flags[b])) continue;
    double& s = still[static_cast<std::size_t>(find(parent, static_cast<std::int32_t>(b)))];
    s = (flags[b] & (kBodyLoaded | kBodyDamped)) != 0 ? kNever : std::min(s, state.still_time[b]);
  }
  for (const Spring& sp : model.springs) {
    forbid(sp.body);
    forbid(sp.body2);
  }
  for (const Joint& j : model.joints) {
    forbid(j.body1);
    forbid(j.body2);
  }
  for (const ContactPoint& c : points.points) {
    if ((flags[static_cast<std::size_t>(c.body1)] & kBodyDriven) != 0) forbid(c.body2);
    if ((flags[static_cast<std::size_t>(c.body2)] & kBodyDriven) != 0) forbid(c.body1);
  }
  // The islands still long enough fall asleep, their kinetic energy booked.
  for (std::size_t b = 0; b < n; ++b) {
    if (!free_awake(flags[b])) {
      if (state.asleep[b] >= 0) ++report.sleeping;
      continue;
    }
    const std::int32_t root = find(parent, static_cast<std::int32_t>(b));
    if (!(still[static_cast<std::size_t>(root)] >= settings.time)) continue;
    const Body& body = model.bodies[b];
    state.slept +=
        0.5 * body.mass * state.v_WC[b].squaredNorm() +
        rotational_kinetic_energy(body.inertia_B, state.q_WB[b].conjugate() * state.w_W[b]);
    state.v_WC[b].setZero();
    state.w_W[b].setZero();
    state.asleep[b] = root;
    ++report.sleeping;
  }
}

}  // namespace coulomb::stages
