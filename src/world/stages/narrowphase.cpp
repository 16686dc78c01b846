// Stage 3: contact points of the candidate pairs at the contact configuration.
#include <coulomb/collision/narrowphase.hpp>

#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

// The resolved laws of the material pair of a shape pair.
const NonsmoothLaws& laws_of_pair(const Model& model, const ShapePair& pair) {
  const int ma = model.bodies[model.shape_body[pair.a]].material;
  const int mb = model.bodies[model.shape_body[pair.b]].material;
  return model.compiled.laws[static_cast<std::size_t>(model.compiled.law_index(ma, mb))];
}

}  // namespace

void narrowphase(const Model& model, const ShapeFrames& frames, ContactPoints& out,
                 StepReport& report) {
  out.points.clear();
  for (const ShapePair& pair : frames.pairs) {
    const std::size_t first = out.points.size();
    collide(model.shapes[pair.a].geometry, frames.X_WS[pair.a], model.shapes[pair.b].geometry,
            frames.X_WS[pair.b],
            model.solver.contact_margin + frames.shape_sweep[pair.a] + frames.shape_sweep[pair.b],
            out.points);
    // The narrowphase fills geometry; the indices are ours (shape a is shape 1).
    for (std::size_t k = first; k < out.points.size(); ++k) {
      ContactPoint& c = out.points[k];
      c.shape1 = pair.a;
      c.shape2 = pair.b;
      c.body1 = model.shape_body[pair.a];
      c.body2 = model.shape_body[pair.b];
    }
    // A Coulomb–Contensou patch law models the whole contact patch of the pair: the points of a
    // flat contact (a disk lying on a plane gives its rim) become one point at their centroid.
    const std::size_t count = out.points.size() - first;
    if (count > 1 && laws_of_pair(model, pair).coupling != NonsmoothLaws::Coupling::none) {
      ContactPoint merged = out.points[first];
      Vec3 p1 = Vec3::Zero(), p2 = Vec3::Zero();
      double gap = 0.0;
      for (std::size_t k = first; k < out.points.size(); ++k) {
        p1 += out.points[k].p1_W;
        p2 += out.points[k].p2_W;
        gap += out.points[k].gap;
      }
      const double inv = 1.0 / static_cast<double>(count);
      merged.p1_W = p1 * inv;
      merged.p2_W = p2 * inv;
      merged.gap = gap * inv;
      merged.feature = 0;
      out.points.resize(first + 1);
      out.points[first] = merged;
    }
  }
  report.contact_points = static_cast<int>(out.points.size());
}

}  // namespace coulomb::stages
