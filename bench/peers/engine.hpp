#pragma once
// The engines of the peer benchmark behind one small interface, so that the driver times them
// alike and measures their results with the same engine-independent code (metrics.hpp).
//
// Each engine is built from a coulomb scene (bench/scenes.hpp): the same bodies, masses,
// inertias, shapes, positions, velocities, friction and time step. It steps by h and reports
// its state back into a coulomb State (positions of the centres of mass, orientations,
// velocities, world angular velocities, in body order), which is all the metrics read.
#include <coulomb/model/model.hpp>
#include <coulomb/model/state.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "scenes.hpp"

namespace coulomb::bench {

/// An engine could not be built for a scene (a shape it does not have, an allocation it cannot
/// make); what() says why, in a phrase the table prints.
class PeerUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One simulator stepping one scene.
class Engine {
 public:
  virtual ~Engine() = default;
  /// Advances by one time step h. False when the engine cannot go on (a failure that
  /// failure() describes); the step is then not counted.
  virtual bool step() = 0;
  /// Solver iterations (sweeps) of the last step.
  [[nodiscard]] virtual int iterations() const = 0;
  /// The engine's state in coulomb's layout; `out` was copied from the scene's state once, so an
  /// engine writes only x_WC, q_WB, v_WC and w_W of the free bodies.
  virtual void read(State& out) const = 0;
  /// Why step() returned false ("" while it has not).
  [[nodiscard]] virtual std::string failure() const { return {}; }
  /// Anything the table should say about this run (a buffer that overflowed, solves that did not
  /// converge), "" if nothing.
  [[nodiscard]] virtual std::string notes() const { return {}; }
};

/// The engines the benchmark knows, in the order the table lists them.
enum class EngineKind {
  coulomb,         ///< coulomb, its defaults (exact laws, tolerance 1e-10, `auto` solver)
  coulomb_nsgs10,  ///< coulomb, NSGS capped at 10 sweeps a step (per-sweep cost)
  bullet,          ///< Bullet 3.24 (double precision), sequential impulses
  mujoco,          ///< MuJoCo 2.2.2, PGS on its soft elliptic-cone problem
  coulomb_sleep,   ///< coulomb with sleeping islands (solver.sleep at its default thresholds)
  bullet_sleep,    ///< Bullet with deactivation, at coulomb's sleep thresholds
};

/// Settings a peer is run with (command-line options of bench_peers).
struct PeerSettings {
  int bullet_iterations = 10;       ///< btContactSolverInfo::m_numIterations
  double bullet_box_margin = 0.01;  ///< collision margin of Bullet's boxes [m]
  int mujoco_iterations = 100;      ///< mjOption::iterations (PGS sweeps at most)
  double mujoco_tolerance = 1e-8;   ///< mjOption::tolerance (relative cost decrease) [-]
  int mujoco_contacts = 0;          ///< contact list size (nconmax; 0: estimated from the bodies)
};

/// "coulomb", "coulomb-nsgs10", "bullet", "mujoco", "coulomb-sleep", "bullet-sleep".
[[nodiscard]] const char* engine_name(EngineKind kind);
/// Whether this build has the engine (the peers are optional at build time).
[[nodiscard]] bool engine_available(EngineKind kind);
/// One line stating the engine's settings, for the report.
[[nodiscard]] std::string engine_settings(EngineKind kind, const PeerSettings& settings);

/// Builds an engine for `scene` (its model finalized). Throws PeerUnavailable when the engine
/// cannot run the scene.
[[nodiscard]] std::unique_ptr<Engine> make_engine(EngineKind kind, const Scene& scene,
                                                  const PeerSettings& settings);

// The constructors of each engine, defined in their own files (the peers only when found).
[[nodiscard]] std::unique_ptr<Engine> make_coulomb_engine(const Scene& scene, bool nsgs10,
                                                          bool sleep);
[[nodiscard]] std::unique_ptr<Engine> make_bullet_engine(const Scene& scene,
                                                         const PeerSettings& settings, bool sleep);
[[nodiscard]] std::unique_ptr<Engine> make_mujoco_engine(const Scene& scene,
                                                         const PeerSettings& settings);
[[nodiscard]] std::string bullet_settings(const PeerSettings& settings, bool sleep);
[[nodiscard]] std::string mujoco_settings(const PeerSettings& settings);

/// The friction coefficient μ [-] and restitution e [-] of a benchmark scene (one contact spec:
/// every pair has the same law). Throws PeerUnavailable for a scene with other laws.
struct SceneLaw {
  double mu = 0.0;
  double restitution = 0.0;
};
[[nodiscard]] SceneLaw scene_law(const Model& model);

/// Throws PeerUnavailable unless every body of `model` can be given to a peer as it is: one
/// shape at the body's origin (pose identity), centre of mass at the origin, diagonal inertia,
/// shapes that are spheres, boxes or planes (planes on fixed bodies only).
void check_peer_compatible(const Model& model);

}  // namespace coulomb::bench
