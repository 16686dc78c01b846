/// @file
/// State sizing, waking sleeping islands, and the body-frame pose helper.

#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

#include <algorithm>

namespace coulomb {

void State::resize(const Model& model) {
  const std::size_t n = model.bodies.size();
  time = 0.0;
  time_carry = 0.0;
  step = 0;
  // Body frames at the origin: the centre of mass sits at com_B.
  x_WC.resize(n);
  for (std::size_t i = 0; i < n; ++i) x_WC[i] = model.bodies[i].com_B;
  q_WB.assign(n, Quat::Identity());
  v_WC.assign(n, Vec3::Zero());
  w_W.assign(n, Vec3::Zero());
  contacts.clear();
  dissipated = 0.0;
  dissipated_by_kind.fill(0.0);
  driven_work = 0.0;
  driven_work_by_body.assign(n, 0.0);
  force_work = 0.0;
  damping = 0.0;
  compliant = CompliantState{};
  asleep.assign(n, -1);
  still_time.assign(n, 0.0);
  slept = 0.0;
}

void State::wake_island(std::size_t b) {
  if (!sleeping(b)) return;
  const std::int32_t island = asleep[b];
  (void)wake_islands(std::span<const std::int32_t>(&island, 1));
}

int State::wake_islands(std::span<const std::int32_t> sorted) {
  int woken = 0;
  for (std::size_t k = 0; k < asleep.size(); ++k) {
    if (asleep[k] < 0 || !std::binary_search(sorted.begin(), sorted.end(), asleep[k])) continue;
    asleep[k] = -1;
    if (k < still_time.size()) still_time[k] = 0.0;
    ++woken;
  }
  return woken;
}

void set_driven_body_state(const Body& body, std::size_t b, State& state, double t) {
  const DrivenPose d = driven_pose(body.motion, t);
  const Vec3 arm = d.q_WB * body.com_B;
  state.x_WC[b] = d.p_WB + arm;
  state.q_WB[b] = d.q_WB;
  state.v_WC[b] = d.v_WB + d.w_W.cross(arm);
  state.w_W[b] = d.w_W;
}

void set_driven_state(const Model& model, State& state, double t) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.driven()) set_driven_body_state(body, b, state, t);
  }
}

Pose body_frame_pose(const Model& model, const State& state, int body) {
  const auto b = static_cast<std::size_t>(body);
  const Quat& q = state.q_WB[b];
  return Pose{state.x_WC[b] - q * model.bodies[b].com_B, q};
}

}  // namespace coulomb
