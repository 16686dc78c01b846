// Stage 1: free motion. Where the step evaluates its contacts (the contact configuration), the
// velocities before the contact impulses there, and the free velocities (gravity, no contact).
//
// Midpoint scheme (docs/nonsmooth.md):
//   x_c = x_k + (h/2) v_k,   (R_c, Π_c) = torque-free half step from (R_k, Π_k)   [drift]
//   L_k = R_k I_B Ω_k (world angular momentum, unchanged by the drift),
//   ω_pre = I_c⁻¹ L_k with I_c⁻¹ = R_c I_B⁻¹ R_cᵀ (the inertia at the pose where it is used),
//   v_free = v_k + h g,  ω_free = ω_pre.
// Moreau–Jean: the contact configuration is the start (x_c = x_k, R_c = R_k), ω_pre = ω_k.
//
// A sleeping body (State::asleep, SolverSettings::sleep) is held as a fixed body: at its pose,
// zero velocities and inverse mass (kBodyFixed | kBodyAsleep).
//
// Driven bodies (Body::motion): their exact pose at the time of the contact configuration
// t_c = t_k + h/2 (t_k for Moreau–Jean); their twist before the impulses is that of the start
// (the State holds it), their "free" twist that of the end of the step, t_k + h: a closed contact's
// law ξ ≈ J(q_{k+1}) ν_{k+1} then holds with the driven body's exact end velocity, and the law on
// the mean velocity (moving contacts) sees the mean of its start and end twists, its twist at t_c
// to O(h²) (exact for a constant twist).
//
// Applied forces (docs/nonsmooth.md, "Applied forces"): loads and springs explicitly at the
// contact configuration (a kick between the two half-step drifts: the Störmer–Verlet scheme for
// springs, second order, symplectic, stable for h ω < 2), so
//   v_free = v_k + h g + h (F_load + F_spring)/m,   L_free = L_k + h (τ_load + τ_spring);
// dampers by the implicit midpoint rule on the velocities before and after their impulse (stable
// for any c h, second order, and they dissipate exactly the impulse times the mean velocity):
//   body damping:  P = −c_v h (v_k + v_free⁺)/2,  ΔL = −c_ω h (ω_pre + ω_free⁺)/2,
//   spring damper: λ = −c h (u⁻ + u_free)/2 / (1 + c h w/2) along the spring's direction u, with
//                  w = j M⁻¹ jᵀ its effective inverse mass, one damper after the other.
#include <coulomb/dynamics/rigid_body.hpp>
#include <coulomb/math/parallel.hpp>

#include <atomic>

#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

// How many bodies ahead the loop over the bodies prefetches the Body's fields.
constexpr std::size_t kBodyPrefetch = 4;

// The world velocity of point p of body b with twist (v, ω) about its centre of mass x.
Vec3 point_velocity(const Vec3& v, const Vec3& w, const Vec3& x, const Vec3& p) {
  return v + w.cross(p - x);
}

}  // namespace

void free_motion(const Model& model, const State& state, FreeMotion& out, StepReport& report) {
  const double h = model.time_step;
  const bool midpoint = model.solver.scheme == TimeScheme::midpoint;
  const std::size_t nbodies = model.bodies.size();
  const double t_c = midpoint ? state.time + 0.5 * h : state.time;
  const bool sleep = model.solver.sleep.enabled;
  // Body by body, each into its own slots (parallel from parallel_loop_min bodies on).
  const auto n = static_cast<std::ptrdiff_t>(nbodies);
  // Model::has_actuation()'s test of the bodies, made in this pass (its own pass over the bodies
  // was 1.5 % of a step of a carpet of 10⁴ spheres); set by any thread that finds one.
  std::atomic<bool> actuated{false};
  report.rotation_failures =
      parallel_count(n, model.solver.parallel_loop_min, [&](std::ptrdiff_t i) {
        const auto b = static_cast<std::size_t>(i);
        // Asleep in the state, and not given a velocity since (a body given one is awake; the
        // wake stage then wakes its island).
        const bool held =
            sleep && state.sleeping(b) && state.v_WC[b].isZero(0.0) && state.w_W[b].isZero(0.0);
        // A body asleep in the last free motion and still held (its pose may have been set):
        // every other entry already holds a sleeping body's values, and its Body is not read (a
        // load given to it goes through Simulation::set_load, which wakes its island).
        if (held && (out.body_flags[b] & kBodyAsleep) != 0) {
          const bool unmoved =
              out.x_c[b] == state.x_WC[b] && out.q_c[b].coeffs() == state.q_WB[b].coeffs();
          out.body_flags[b] =
              static_cast<std::uint8_t>(kBodyFixed | kBodyAsleep | (unmoved ? kBodyUnmoved : 0));
          out.x_c[b] = state.x_WC[b];
          out.q_c[b] = state.q_WB[b];
          return 0;
        }
        const Body& body = model.bodies[b];
        // The fields read here lie on six of the Body's eight cache lines, which the hardware
        // does not fetch ahead on its own: ask for those of a body a few indices on.
        if (b + kBodyPrefetch < nbodies) {
          const Body& next = model.bodies[b + kBodyPrefetch];
          __builtin_prefetch(&next.fixed);
          __builtin_prefetch(&next.inertia_B);
          __builtin_prefetch(&next.motion);
          __builtin_prefetch(&next.load.force);
          __builtin_prefetch(&next.load.torque);
          __builtin_prefetch(&next.load.table);
        }
        const bool loaded = body.load.applies_force();
        // A held body is still as a fixed one, unless it has a load (then awake, and its island
        // woken by the wake stage).
        const bool asleep = held && !loaded && !body.load.damps();
        const auto flags = static_cast<std::uint8_t>(
            (body.fixed || asleep ? kBodyFixed : 0) | (asleep ? kBodyAsleep : 0) |
            (body.driven() ? kBodyDriven : 0) | (loaded ? kBodyLoaded : 0) |
            (body.load.damps() ? kBodyDamped : 0) |
            (!body.fixed && !asleep && isotropic(body.inertia_B) ? kBodyIsotropic : 0));
        out.body_flags[b] = flags;
        out.inv_mass[b] = asleep ? 0.0 : body.inv_mass();
        if ((flags & (kBodyDriven | kBodyLoaded | kBodyDamped)) != 0)
          actuated.store(true, std::memory_order_relaxed);
        out.load_force[b].setZero();
        out.load_torque[b].setZero();
        out.spring_force[b].setZero();
        out.spring_torque[b].setZero();
        out.damping_force[b].setZero();
        out.damping_torque[b].setZero();
        if (body.driven()) {
          // Exact pose at t_c; twist of the start before the impulses, of the end without them.
          const DrivenPose c = driven_pose(body.motion, t_c);
          const DrivenPose e = driven_pose(body.motion, state.time + h);
          out.x_c[b] = c.p_WB + c.q_WB * body.com_B;
          out.q_c[b] = c.q_WB;
          out.L_start[b].setZero();
          out.L_free[b].setZero();
          out.w_pre[b] = state.w_W[b];
          out.v_free[b] = e.v_WB + e.w_W.cross(e.q_WB * body.com_B);
          out.w_free[b] = e.w_W;
          out.inv_inertia_W[b].setZero();
          return 0;
        }
        if (body.fixed || asleep) {
          out.x_c[b] = state.x_WC[b];
          out.q_c[b] = state.q_WB[b];
          out.L_start[b].setZero();
          out.L_free[b].setZero();
          out.w_pre[b].setZero();
          out.v_free[b].setZero();
          out.w_free[b].setZero();
          out.inv_inertia_W[b].setZero();
          return 0;
        }
        const Mat3 R0 = state.q_WB[b].toRotationMatrix();
        const Vec3 omega0_B = R0.transpose() * state.w_W[b];
        out.L_start[b] = R0 * (body.inertia_B * omega0_B);
        Vec3 omega_c_B = omega0_B;
        int failed = 0;
        if (midpoint) {
          out.x_c[b] = state.x_WC[b] + (0.5 * h) * state.v_WC[b];
          const FreeRotation drift =
              (flags & kBodyIsotropic) != 0
                  ? rotate_free_isotropic(state.q_WB[b], omega0_B, 0.5 * h, 0.5)
                  : rotate_free(state.q_WB[b], body.inertia_B, model.compiled.inv_inertia_B[b],
                                omega0_B, 0.5 * h, 0.5);
          out.q_c[b] = drift.q_WB;
          omega_c_B = drift.omega_B;
          if (!drift.converged) failed = 1;
        } else {
          out.x_c[b] = state.x_WC[b];
          out.q_c[b] = state.q_WB[b];
        }
        const Mat3 Rc = out.q_c[b].toRotationMatrix();
        out.inv_inertia_W[b] = Rc * model.compiled.inv_inertia_B[b] * Rc.transpose();
        out.w_pre[b] = Rc * omega_c_B;
        out.v_free[b] = state.v_WC[b] + h * model.gravity;
        out.w_free[b] = out.w_pre[b];
        out.L_free[b] = out.L_start[b];
        // Loads at the contact configuration.
        if (loaded) {
          const Wrench w = load_wrench(body.load, t_c, out.q_c[b], body.com_B);
          out.load_force[b] = h * w.force;
          out.load_torque[b] = h * w.torque;
          out.v_free[b] += body.inv_mass() * out.load_force[b];
          out.L_free[b] += out.load_torque[b];
          out.w_free[b] = out.inv_inertia_W[b] * out.L_free[b];
        }
        return failed;
      });
  // (Model::has_actuation(): a body above, or a spring; without springs, the bodies decide.)
  if (model.springs.empty() && !actuated.load(std::memory_order_relaxed)) return;

  // Springs at the contact configuration: F = −k (ℓ − ℓ0) u on the body's point, −F on the other.
  auto end_point = [&](int body, const Vec3& point_B, const Vec3& anchor_W) -> Vec3 {
    if (body < 0) return anchor_W;
    const auto b = static_cast<std::size_t>(body);
    return out.x_c[b] + out.q_c[b] * (point_B - model.bodies[b].com_B);
  };
  auto add = [&](int body, std::vector<Vec3>& force, std::vector<Vec3>& torque, const Vec3& p,
                 const Vec3& impulse) {
    if (body < 0) return;
    const auto b = static_cast<std::size_t>(body);
    force[b] += impulse;
    torque[b] += (p - out.x_c[b]).cross(impulse);
  };
  for (const Spring& sp : model.springs) {
    const Vec3 p1 = end_point(sp.body, sp.point_B, Vec3::Zero());
    const Vec3 p2 = end_point(sp.body2, sp.point2_B, sp.anchor_W);
    const Vec3 d = p1 - p2;
    const double l = d.norm();
    if (!(l > 0.0) || sp.stiffness == 0.0) continue;
    const Vec3 f = (-h * sp.stiffness * (l - sp.rest_length) / l) * d;
    add(sp.body, out.spring_force, out.spring_torque, p1, f);
    add(sp.body2, out.spring_force, out.spring_torque, p2, -f);
  }
  for (std::size_t b = 0; b < nbodies; ++b) {
    if (model.bodies[b].fixed) continue;
    out.v_free[b] += model.bodies[b].inv_mass() * out.spring_force[b];
    out.L_free[b] += out.spring_torque[b];
    out.w_free[b] = out.inv_inertia_W[b] * out.L_free[b];
  }

  // Body damping, implicit midpoint: P (1 + c h/(2m)) = −(c h/2)(v_k + v_free);
  // (I + (c h/2) I_c⁻¹) ΔL = −(c h/2)(ω_pre + ω_free).
  for (std::size_t b = 0; b < nbodies; ++b) {
    const Body& body = model.bodies[b];
    if (body.fixed || !body.load.damps()) continue;
    const double cv = 0.5 * h * body.load.linear_damping;
    const double cw = 0.5 * h * body.load.angular_damping;
    const Vec3 P = (-cv / (1.0 + cv * body.inv_mass())) * (state.v_WC[b] + out.v_free[b]);
    const Mat3 A = Mat3::Identity() + cw * out.inv_inertia_W[b];
    const Vec3 dL = A.ldlt().solve(-cw * (out.w_pre[b] + out.w_free[b]));
    out.damping_force[b] += P;
    out.damping_torque[b] += dL;
    out.v_free[b] += body.inv_mass() * P;
    out.L_free[b] += dL;
    out.w_free[b] = out.inv_inertia_W[b] * out.L_free[b];
  }

  // Spring dampers, implicit midpoint along the spring's direction at c, one after the other.
  for (const Spring& sp : model.springs) {
    if (sp.damping == 0.0) continue;
    const Vec3 p1 = end_point(sp.body, sp.point_B, Vec3::Zero());
    const Vec3 p2 = end_point(sp.body2, sp.point2_B, sp.anchor_W);
    const Vec3 d = p1 - p2;
    const double l = d.norm();
    if (!(l > 0.0)) continue;
    const Vec3 u = d / l;
    // Relative velocity of the ends along u before (start) and without the damper (end), and the
    // effective inverse mass of the ends along u.
    double before = 0.0, after = 0.0, w = 0.0;
    auto side = [&](int body, const Vec3& p, double sign) {
      if (body < 0) return;
      const auto b = static_cast<std::size_t>(body);
      before += sign * u.dot(point_velocity(state.v_WC[b], out.w_pre[b], out.x_c[b], p));
      after += sign * u.dot(point_velocity(out.v_free[b], out.w_free[b], out.x_c[b], p));
      if (model.bodies[b].fixed) return;
      const Vec3 ru = (p - out.x_c[b]).cross(u);
      w += model.bodies[b].inv_mass() + ru.dot(out.inv_inertia_W[b] * ru);
    };
    side(sp.body, p1, 1.0);
    side(sp.body2, p2, -1.0);
    const double ch = 0.5 * h * sp.damping;
    const double lambda = -ch * (before + after) / (1.0 + ch * w);
    auto apply = [&](int body, const Vec3& p, const Vec3& impulse) {
      if (body < 0) return;
      const auto b = static_cast<std::size_t>(body);
      const Body& bb = model.bodies[b];
      // A driven or fixed end takes the reaction as a spring's (driven work, docs/outputs.md).
      if (bb.fixed) {
        add(body, out.spring_force, out.spring_torque, p, impulse);
        return;
      }
      add(body, out.damping_force, out.damping_torque, p, impulse);
      out.v_free[b] += bb.inv_mass() * impulse;
      out.L_free[b] += (p - out.x_c[b]).cross(impulse);
      out.w_free[b] = out.inv_inertia_W[b] * out.L_free[b];
    };
    apply(sp.body, p1, lambda * u);
    apply(sp.body2, p2, -lambda * u);
  }
}

}  // namespace coulomb::stages
