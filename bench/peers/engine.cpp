// The engine table of the peer benchmark (names, availability in this build, settings lines) and
// the checks that a scene can be handed to a peer unchanged.
#include "peers/engine.hpp"

#include <fmt/format.h>

#include <variant>

namespace coulomb::bench {

const char* engine_name(EngineKind kind) {
  switch (kind) {
    case EngineKind::coulomb:
      return "coulomb";
    case EngineKind::coulomb_nsgs10:
      return "coulomb-nsgs10";
    case EngineKind::bullet:
      return "bullet";
    case EngineKind::mujoco:
      return "mujoco";
    case EngineKind::coulomb_sleep:
      return "coulomb-sleep";
    case EngineKind::bullet_sleep:
      return "bullet-sleep";
  }
  return "?";
}

bool engine_available(EngineKind kind) {
  // The peers are compiled in only when CMake found their Debian packages.
  switch (kind) {
    case EngineKind::bullet:
    case EngineKind::bullet_sleep:
#ifdef COULOMB_PEER_BULLET
      return true;
#else
      return false;
#endif
    case EngineKind::mujoco:
#ifdef COULOMB_PEER_MUJOCO
      return true;
#else
      return false;
#endif
    default:
      return true;
  }
}

std::string engine_settings(EngineKind kind, const PeerSettings& settings) {
  switch (kind) {
    case EngineKind::coulomb: {
      // The model's defaults, read from where they are set.
      const SolverSettings d;
      return fmt::format(
          "{} scheme, exact Signorini + Coulomb cone, solver {} (NSGS, PROX when it stalls), "
          "tolerance {:g} (relative error), at most {} sweeps, position correction above {:g} m",
          to_string(d.scheme), to_string(d.kind), d.tolerance, d.max_iterations,
          d.position_tolerance);
    }
    case EngineKind::coulomb_nsgs10:
      return "as coulomb, solver nsgs capped at 10 sweeps a step (the error left is reported)";
    case EngineKind::coulomb_sleep: {
      const SleepSettings d;
      return fmt::format(
          "as coulomb, with sleeping islands: an island still (|v| <= {:g} m/s, |w| <= {:g} "
          "rad/s) for {:g} s is held still until a moving body reaches it",
          d.linear_velocity, d.angular_velocity, d.time);
    }
    case EngineKind::bullet:
    case EngineKind::bullet_sleep:
#ifdef COULOMB_PEER_BULLET
      return bullet_settings(settings, kind == EngineKind::bullet_sleep);
#else
      return "not built (libbullet-dev not found)";
#endif
    case EngineKind::mujoco:
#ifdef COULOMB_PEER_MUJOCO
      return mujoco_settings(settings);
#else
      return "not built (libmujoco-dev not found)";
#endif
  }
  return {};
}

std::unique_ptr<Engine> make_engine(EngineKind kind, const Scene& scene,
                                    const PeerSettings& settings) {
  switch (kind) {
    case EngineKind::coulomb:
      return make_coulomb_engine(scene, false, false);
    case EngineKind::coulomb_nsgs10:
      return make_coulomb_engine(scene, true, false);
    case EngineKind::coulomb_sleep:
      return make_coulomb_engine(scene, false, true);
    case EngineKind::bullet:
    case EngineKind::bullet_sleep:
#ifdef COULOMB_PEER_BULLET
      return make_bullet_engine(scene, settings, kind == EngineKind::bullet_sleep);
#else
      break;
#endif
    case EngineKind::mujoco:
#ifdef COULOMB_PEER_MUJOCO
      return make_mujoco_engine(scene, settings);
#else
      break;
#endif
  }
  (void)settings;
  throw PeerUnavailable(fmt::format("{} is not in this build", engine_name(kind)));
}

SceneLaw scene_law(const Model& model) {
  // One contact spec with the default laws (the bench scenes' Signorini + Coulomb), and no
  // moment law: what every peer here has too.
  const ContactSpec defaults;
  if (model.contacts.size() != 1) throw PeerUnavailable("the scene has several contact specs");
  const ContactSpec& spec = model.contacts.front();
  if (spec.normal.law != defaults.normal.law || spec.friction.law != defaults.friction.law ||
      spec.moment_law() != nullptr)
    throw PeerUnavailable("the scene's contact laws are not Signorini + Coulomb");
  return {spec.friction.get("mu", 0.0), spec.normal.get("restitution", 0.0)};
}

void check_peer_compatible(const Model& model) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    // A driven body (the drum): boxes anywhere in its frame, turning about its origin at a
    // constant rate (a constant twist without drift).
    if (body.driven()) {
      if (body.motion.kind != BodyMotion::Kind::twist || !body.motion.velocity.isZero())
        throw PeerUnavailable(
            fmt::format("body {} is driven other than by a constant rotation", b));
      for (int k = 0; k < body.shape_count; ++k)
        if (!std::holds_alternative<Box>(
                model.shapes[static_cast<std::size_t>(body.first_shape + k)].geometry))
          throw PeerUnavailable(fmt::format("driven body {} has shapes other than boxes", b));
      continue;
    }
    // One shape per body, at the body frame, the body frame at the centre of mass.
    if (body.shape_count != 1)
      throw PeerUnavailable(fmt::format("body {} has {} shapes", b, body.shape_count));
    const Shape& shape = model.shapes[static_cast<std::size_t>(body.first_shape)];
    if (!shape.pose_BS.p.isZero() || !shape.pose_BS.q.coeffs().isApprox(Quat::Identity().coeffs()))
      throw PeerUnavailable(fmt::format("body {}'s shape is offset from its frame", b));
    if (!body.com_B.isZero())
      throw PeerUnavailable(fmt::format("body {}'s centre of mass is offset", b));
    // Principal axes along the body frame.
    const Mat3 off = body.inertia_B - Mat3(body.inertia_B.diagonal().asDiagonal());
    if (!off.isZero()) throw PeerUnavailable(fmt::format("body {}'s inertia is not diagonal", b));
    // Spheres, boxes, planes on fixed bodies.
    const bool ok = std::holds_alternative<Sphere>(shape.geometry) ||
                    std::holds_alternative<Box>(shape.geometry) ||
                    (std::holds_alternative<Plane>(shape.geometry) && body.fixed);
    if (!ok)
      throw PeerUnavailable(
          fmt::format("body {} is a {} (the peers here take spheres, boxes and "
                      "fixed planes)",
                      b, shape_kind_name(shape.kind())));
  }
}

}  // namespace coulomb::bench
