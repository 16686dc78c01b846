// Stage 3: contact points of the candidate pairs at the contact configuration.
#include <coulomb/collision/narrowphase.hpp>
#include <coulomb/math/parallel.hpp>

#include <algorithm>

#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

// The resolved laws of the material pair of a shape pair.
const NonsmoothLaws& laws_of_pair(const Model& model, const ShapePair& pair) {
  const int ma = model.compiled.body_material[static_cast<std::size_t>(model.shape_body[pair.a])];
  const int mb = model.compiled.body_material[static_cast<std::size_t>(model.shape_body[pair.b])];
  return model.compiled.laws[static_cast<std::size_t>(model.compiled.law_index(ma, mb))];
}

// The points of one candidate pair, appended to `points`.
void collide_pair(const Model& model, const ShapeFrames& frames, const ShapePair& pair,
                  std::vector<ContactPoint>& points) {
  const std::size_t first = points.size();
  collide(model.shapes[pair.a].geometry, frames.X_WS[pair.a], model.shapes[pair.b].geometry,
          frames.X_WS[pair.b],
          model.solver.contact_margin + frames.shape_sweep[pair.a] + frames.shape_sweep[pair.b],
          points);
  // The narrowphase fills geometry; the indices are ours (shape a is shape 1).
  for (std::size_t k = first; k < points.size(); ++k) {
    ContactPoint& c = points[k];
    c.shape1 = pair.a;
    c.shape2 = pair.b;
    c.body1 = model.shape_body[pair.a];
    c.body2 = model.shape_body[pair.b];
  }
  // A Coulomb–Contensou patch law models the whole contact patch of the pair: its points become
  // one at their centroid.
  if (laws_of_pair(model, pair).coupling != NonsmoothLaws::Coupling::none)
    merge_into_centroid(points, first);
}

}  // namespace

void narrowphase(const Model& model, const ShapeFrames& frames, ContactPoints& out,
                 StepReport& report) {
  const std::size_t npairs = frames.pairs.size();
  if (!runs_parallel(static_cast<std::ptrdiff_t>(npairs), model.solver.parallel_loop_min)) {
    out.points.clear();
    for (const ShapePair& pair : frames.pairs) collide_pair(model, frames, pair, out.points);
  } else {
    // Contiguous ranges of pairs, one per chunk, each into its own buffer; the buffers joined in
    // chunk order give the points in pair order, as the serial loop does, whatever the threads.
    const std::size_t chunks = std::max<std::size_t>(1, std::min<std::size_t>(64, npairs / 256));
    out.chunk_points.resize(chunks);
    const auto nchunks = static_cast<std::ptrdiff_t>(chunks);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::ptrdiff_t t = 0; t < nchunks; ++t) {
      std::vector<ContactPoint>& buffer = out.chunk_points[static_cast<std::size_t>(t)];
      buffer.clear();
      const std::size_t begin = npairs * static_cast<std::size_t>(t) / chunks;
      const std::size_t end = npairs * static_cast<std::size_t>(t + 1) / chunks;
      for (std::size_t i = begin; i < end; ++i)
        collide_pair(model, frames, frames.pairs[i], buffer);
    }
    // Joined on every core: each buffer copied to its place (its offset, in chunk order).
    std::size_t total = 0;
    out.chunk_offset.resize(chunks);
    for (std::size_t t = 0; t < chunks; ++t) {
      out.chunk_offset[t] = total;
      total += out.chunk_points[t].size();
    }
    // (Resized from the last step's points: only the new slots are constructed, serially.)
    out.points.resize(total);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t t = 0; t < nchunks; ++t) {
      const std::vector<ContactPoint>& buffer = out.chunk_points[static_cast<std::size_t>(t)];
      std::copy(buffer.begin(), buffer.end(),
                out.points.begin() +
                    static_cast<std::ptrdiff_t>(out.chunk_offset[static_cast<std::size_t>(t)]));
    }
  }
  report.contact_points = static_cast<int>(out.points.size());
}

}  // namespace coulomb::stages
