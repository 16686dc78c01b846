// Stage 2: contact points of the candidate pairs.
#include <coulomb/collision/narrowphase.hpp>

#include "stages/stages.hpp"

namespace coulomb::stages {

void narrowphase(const Model& model, const State& /*state*/, Workspace& ws) {
  ws.points.clear();
  for (const ShapePair& pair : ws.pairs) {
    const std::size_t first = ws.points.size();
    collide(model.shapes[pair.a].geometry, ws.X_WS[pair.a], model.shapes[pair.b].geometry,
            ws.X_WS[pair.b],
            model.solver.contact_margin + ws.shape_sweep[pair.a] + ws.shape_sweep[pair.b], ws.points);
    // The narrowphase fills geometry; the indices are ours (shape a is shape 1).
    for (std::size_t k = first; k < ws.points.size(); ++k) {
      ContactPoint& c = ws.points[k];
      c.shape1 = pair.a;
      c.shape2 = pair.b;
      c.body1 = model.shape_body[pair.a];
      c.body2 = model.shape_body[pair.b];
    }
  }
  ws.report.contact_points = static_cast<int>(ws.points.size());
}

}  // namespace coulomb::stages
