// Stage 2: shape poses at the contact configuration, bounding boxes, candidate pairs.
#include <coulomb/math/parallel.hpp>

#include <cmath>
#include <span>

#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

// How many shapes ahead the loop over the shapes prefetches their Body's fields.
constexpr std::size_t kShapePrefetch = 4;

}  // namespace

void broadphase(const Model& model, const State& state, const FreeMotion& motion, ShapeFrames& out,
                StepReport& report) {
  const double margin = model.solver.contact_margin;
  const std::size_t nshapes = model.shapes.size();
  const double h = model.time_step;
  // World pose and AABB of every shape, grown by the contact margin plus the distance its surface
  // can travel in one step (h (|v| + |ω| reach)), so that the active-set rule sees every contact
  // that could close during the step. Fixed bodies are recomputed too: cheap, no caching rules.
  const auto n = static_cast<std::ptrdiff_t>(nshapes);
  parallel_for(n, model.solver.parallel_loop_min, [&](std::ptrdiff_t i) {
    const auto s = static_cast<std::size_t>(i);
    const int b = model.shape_body[s];
    // A body asleep at the pose of the last step: its shapes' frames and boxes are those.
    if ((motion.body_flags[static_cast<std::size_t>(b)] & kBodyUnmoved) != 0) return;
    // The Body's lines read here (com_B, fixed; the motion's kind) for a shape a few indices on:
    // the hardware does not fetch them ahead on its own (free_motion.cpp).
    if (s + kShapePrefetch < nshapes) {
      const Body& next = model.bodies[model.shape_body[s + kShapePrefetch]];
      __builtin_prefetch(&next.com_B);
      __builtin_prefetch(&next.motion);
    }
    const Pose X_WB{motion.x_c[b] - motion.q_c[b] * model.bodies[b].com_B, motion.q_c[b]};
    out.X_WS[s] = X_WB * model.shapes[s].pose_BS;
    const double reach = model.compiled.shape_reach[s];
    // A driven body sweeps at most its motion's bounds (rotation about its frame's origin).
    const Body& body = model.bodies[b];
    out.shape_sweep[s] = !std::isfinite(reach) || (body.fixed && !body.driven()) ? 0.0
                         : body.driven()
                             ? h * (max_speed(body.motion) +
                                    max_angular_speed(body.motion) * (reach + body.com_B.norm()))
                             : h * (state.v_WC[b].norm() + state.w_W[b].norm() * reach);
    out.aabbs[s] = compute_aabb(model.shapes[s].geometry, out.X_WS[s], margin + out.shape_sweep[s]);
  });
  // With sleeping islands, a sleeping body's shapes are still too: they pair with free and driven
  // bodies' shapes only (bit masks: fixed 3, driven 1, sleeping 2; two sharing a bit never pair).
  std::span<const std::uint8_t> still = model.compiled.shape_fixed;
  if (model.solver.sleep.enabled) {
    out.still.resize(nshapes);
    for (std::size_t s = 0; s < nshapes; ++s) {
      const std::uint8_t flags = motion.body_flags[static_cast<std::size_t>(model.shape_body[s])];
      out.still[s] = (flags & kBodyAsleep) != 0   ? 2
                     : (flags & kBodyDriven) != 0 ? 1
                     : (flags & kBodyFixed) != 0  ? 3
                                                  : 0;
    }
    still = out.still;
  }
  const BroadphaseInput input{out.aabbs, model.shape_body, still};
  out.broadphase.find_pairs(input, out.pairs);
  report.candidate_pairs = static_cast<int>(out.pairs.size());
}

}  // namespace coulomb::stages
