// Bullet 3.24 (double precision) as an engine of the peer benchmark, built from a coulomb scene.
//
// A btDiscreteDynamicsWorld with the dynamic-AABB-tree broadphase (btDbvtBroadphase) and the
// sequential-impulse solver (btSequentialImpulseConstraintSolver, projected Gauss–Seidel on
// per-contact normal and two friction rows, friction box coupled to the normal impulse), stepped
// with a fixed h and no substeps. Every body is kept awake (DISABLE_DEACTIVATION): a sleeping body
// is not simulated, and counting its skipped work as speed would not be equal work.
//
// Mapping of the scene: spheres → btSphereShape (the margin is the radius: exact); boxes →
// btBoxShape with the given margin inside the half extents (its edges and corners rounded by that
// radius); the ground plane → btStaticPlaneShape; fixed boxes (walls) → static bodies; a driven
// body turning at a constant rate (the drum) → a kinematic body with a btCompoundShape of its
// boxes, its pose set at the end of each step before the step (Bullet derives the velocity the
// contacts see from the change of pose over h: the mean twist of the step). Bullet
// combines two bodies' friction as the product, so each body gets √μ and a pair μ; restitution 0.
#include <btBulletDynamicsCommon.h>

#include <fmt/format.h>

#include <cmath>
#include <variant>

#include "peers/engine.hpp"

namespace coulomb::bench {
namespace {

btVector3 to_bt(const Vec3& v) { return {v.x(), v.y(), v.z()}; }
Vec3 from_bt(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

// The pose of a driven body at a time, as Bullet reads a kinematic body's: from its motion state
// (the body frame is the centre of mass frame: check_peer_compatible).
class DrivenMotionState final : public btMotionState {
 public:
  explicit DrivenMotionState(const BodyMotion& motion) : motion_(motion) {}
  void set_time(double t) { t_ = t; }
  void getWorldTransform(btTransform& out) const override {
    const DrivenPose p = driven_pose(motion_, t_);
    out = btTransform(btQuaternion(p.q_WB.x(), p.q_WB.y(), p.q_WB.z(), p.q_WB.w()), to_bt(p.p_WB));
  }
  void setWorldTransform(const btTransform&) override {}

 private:
  BodyMotion motion_;
  double t_ = 0.0;  // [s]
};

class BulletEngine final : public Engine {
 public:
  BulletEngine(const Scene& scene, const PeerSettings& settings, bool sleep)
      : dispatcher_(&configuration_),
        world_(&dispatcher_, &broadphase_, &solver_, &configuration_) {
    const Model& model = scene.model;
    const State& state = scene.state;
    check_peer_compatible(model);
    const SceneLaw law = scene_law(model);
    h_ = model.time_step;

    // World settings: gravity and the solver's iterations; the other solver settings stay
    // Bullet's defaults (split impulse on, ERP 0.2, warm starting 0.85), stated in the report.
    world_.setGravity(to_bt(model.gravity));
    world_.getSolverInfo().m_numIterations = settings.bullet_iterations;
    // Deactivation (bullet-sleep) at coulomb's sleep thresholds and time; Bullet's time to sleep
    // is a global (this engine runs in its own process).
    const SleepSettings sleeping;
    if (sleep) gDeactivationTime = sleeping.time;

    // One rigid body per coulomb body, in body order (index = coulomb body index).
    for (std::size_t b = 0; b < model.bodies.size(); ++b) {
      const Body& body = model.bodies[b];
      if (body.driven()) {
        add_driven(model, body, settings.bullet_box_margin, law);
        continue;
      }
      const Shape& shape = model.shapes[static_cast<std::size_t>(body.first_shape)];
      shapes_.push_back(make_shape(shape.geometry, settings.bullet_box_margin));
      const btScalar mass = body.fixed ? 0.0 : body.mass;
      const btVector3 inertia = body.fixed ? btVector3(0, 0, 0) : to_bt(body.inertia_B.diagonal());
      btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shapes_.back().get(), inertia);
      info.m_friction = std::sqrt(law.mu);
      info.m_restitution = law.restitution;
      // A plane's pose is in its geometry; other shapes sit at the body's centre of mass.
      const Quat& q = state.q_WB[b];
      info.m_startWorldTransform =
          btTransform(btQuaternion(q.x(), q.y(), q.z(), q.w()), to_bt(state.x_WC[b]));
      auto rb = std::make_unique<btRigidBody>(info);
      if (sleep)
        rb->setSleepingThresholds(sleeping.linear_velocity, sleeping.angular_velocity);
      else
        rb->setActivationState(DISABLE_DEACTIVATION);
      if (!body.fixed) {
        rb->setLinearVelocity(to_bt(state.v_WC[b]));
        rb->setAngularVelocity(to_bt(state.w_W[b]));
      }
      world_.addRigidBody(rb.get());
      bodies_.push_back(std::move(rb));
    }
  }

  BulletEngine(const BulletEngine&) = delete;
  BulletEngine& operator=(const BulletEngine&) = delete;

  ~BulletEngine() override {
    for (auto& rb : bodies_) world_.removeRigidBody(rb.get());
  }

  bool step() override {
    // One fixed step of h (maxSubSteps 0: h is the step, no interpolation); the driven bodies
    // are placed at the step's end first.
    ++steps_;
    for (auto& m : driven_) m->set_time(static_cast<double>(steps_) * h_);
    world_.stepSimulation(h_, 0);
    return true;
  }

  [[nodiscard]] int iterations() const override {
    // Bullet runs its m_numIterations sweeps every step (it stops early only at an exactly zero
    // residual, m_leastSquaresResidualThreshold = 0).
    return world_.getSolverInfo().m_numIterations;
  }

  void read(State& out) const override {
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const btRigidBody& rb = *bodies_[b];
      if (rb.isStaticOrKinematicObject()) continue;
      const btTransform& X = rb.getCenterOfMassTransform();
      const btQuaternion q = X.getRotation();
      out.x_WC[b] = from_bt(X.getOrigin());
      out.q_WB[b] = Quat(q.w(), q.x(), q.y(), q.z());
      out.v_WC[b] = from_bt(rb.getLinearVelocity());
      out.w_W[b] = from_bt(rb.getAngularVelocity());
    }
  }

 private:
  // A driven body: a kinematic body whose compound shape holds its boxes at their poses.
  void add_driven(const Model& model, const Body& body, double box_margin, const SceneLaw& law) {
    auto compound = std::make_unique<btCompoundShape>();
    for (int k = 0; k < body.shape_count; ++k) {
      const Shape& shape = model.shapes[static_cast<std::size_t>(body.first_shape + k)];
      children_.push_back(make_shape(shape.geometry, box_margin));
      const Quat& q = shape.pose_BS.q;
      compound->addChildShape(
          btTransform(btQuaternion(q.x(), q.y(), q.z(), q.w()), to_bt(shape.pose_BS.p)),
          children_.back().get());
    }
    driven_.push_back(std::make_unique<DrivenMotionState>(body.motion));
    btRigidBody::btRigidBodyConstructionInfo info(0.0, driven_.back().get(), compound.get());
    info.m_friction = std::sqrt(law.mu);
    info.m_restitution = law.restitution;
    shapes_.push_back(std::move(compound));
    auto rb = std::make_unique<btRigidBody>(info);
    rb->setCollisionFlags(rb->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
    rb->setActivationState(DISABLE_DEACTIVATION);
    world_.addRigidBody(rb.get());
    bodies_.push_back(std::move(rb));
  }

  // The Bullet shape of a coulomb geometry (spheres, boxes, planes: check_peer_compatible).
  static std::unique_ptr<btCollisionShape> make_shape(const Geometry& g, double box_margin) {
    if (const auto* s = std::get_if<Sphere>(&g)) return std::make_unique<btSphereShape>(s->radius);
    if (const auto* p = std::get_if<Plane>(&g))
      return std::make_unique<btStaticPlaneShape>(to_bt(p->normal), p->offset);
    const auto& box = std::get<Box>(g);
    auto shape = std::make_unique<btBoxShape>(to_bt(box.half_extents));
    shape->setMargin(box_margin);  // keeps the outer half extents, rounds edges by the margin
    return shape;
  }

  double h_ = 0.0;  // time step [s]
  long steps_ = 0;  // steps taken
  btDefaultCollisionConfiguration configuration_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btDiscreteDynamicsWorld world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;    // (nbodies)
  std::vector<std::unique_ptr<btRigidBody>> bodies_;         // (nbodies)
  std::vector<std::unique_ptr<btCollisionShape>> children_;  // the compounds' boxes
  std::vector<std::unique_ptr<DrivenMotionState>> driven_;   // (driven bodies)
};

}  // namespace

std::unique_ptr<Engine> make_bullet_engine(const Scene& scene, const PeerSettings& settings,
                                           bool sleep) {
  return std::make_unique<BulletEngine>(scene, settings, sleep);
}

std::string bullet_settings(const PeerSettings& settings, bool sleep) {
  const btContactSolverInfo info;
  return fmt::format(
      "Bullet {}.{:02d} double precision, btDiscreteDynamicsWorld + btDbvtBroadphase + "
      "btSequentialImpulseConstraintSolver, {} iterations a step (fixed), stepSimulation(h, 0), "
      "split impulse {} (penetration threshold {:.3g} m, ERP2 {:.3g}), ERP {:.3g}, warm starting "
      "{:.3g}, friction √μ per body "
      "(pairs get the product μ), restitution 0, {}, box margin {} m",
      BT_BULLET_VERSION / 100, BT_BULLET_VERSION % 100, settings.bullet_iterations,
      info.m_splitImpulse ? "on" : "off", info.m_splitImpulsePenetrationThreshold, info.m_erp2,
      info.m_erp, info.m_warmstartingFactor,
      sleep ? fmt::format("deactivation below {:g} m/s and {:g} rad/s for {:g} s (coulomb's "
                          "sleep thresholds)",
                          SleepSettings{}.linear_velocity, SleepSettings{}.angular_velocity,
                          SleepSettings{}.time)
            : std::string("deactivation disabled"),
      settings.bullet_box_margin);
}

}  // namespace coulomb::bench
