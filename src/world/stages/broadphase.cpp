// Stage 1: shape poses in the world, bounding boxes, candidate pairs.
#include "stages/stages.hpp"

namespace coulomb::stages {

void broadphase(const Model& model, const State& state, Workspace& ws) {
  const double margin = model.solver.contact_margin;
  const std::size_t nshapes = model.shapes.size();
  // World pose and AABB of every shape (fixed bodies are recomputed too: cheap, and it keeps
  // the stage free of caching rules).
  for (std::size_t s = 0; s < nshapes; ++s) {
    const int b = model.shape_body[s];
    ws.X_WS[s] = body_pose(model, state, b) * model.shapes[s].pose_BS;
    ws.aabbs[s] = compute_aabb(model.shapes[s].geometry, ws.X_WS[s], margin);
  }
  const BroadphaseInput input{ws.aabbs, model.shape_body, ws.shape_fixed};
  ws.broadphase.find_pairs(input, ws.pairs);
  ws.report.candidate_pairs = static_cast<int>(ws.pairs.size());
}

}  // namespace coulomb::stages
