// The state ODE of the compliant formulation (coulomb/compliant/system.hpp): layout, right-hand
// side, Jacobian, root functions.
#include <coulomb/compliant/system.hpp>

#include <coulomb/collision/narrowphase.hpp>
#include <coulomb/compliant/geometry.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace coulomb {

namespace {

using Mat34 = Eigen::Matrix<double, 3, 4>;
using Mat43 = Eigen::Matrix<double, 4, 3>;
using Mat4 = Eigen::Matrix4d;

// Slip speeds at or below this count as sticking in contacts.csv (as the kinematics' tolerance).
constexpr double kStickSpeed = 1e-9;

// The hysteresis of the onset and release roots [m] per metre of the scene's size (the largest
// coordinate of a body, at least 1 m): far above the round-off of a gap (a few 1e-18 m at 1 cm),
// which makes its zero a plateau of noise, far below any physical length.
constexpr double kGapHysteresis = 1e-12;

// Timer adding the wall time of a scope to a counter.
class Timed {
 public:
  explicit Timed(double& total) : total_(total), t0_(std::chrono::steady_clock::now()) {}
  ~Timed() {
    total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  Timed(const Timed&) = delete;
  Timed& operator=(const Timed&) = delete;

 private:
  double& total_;
  std::chrono::steady_clock::time_point t0_;
};

// (0, ω) ⊗ q = E(q) ω: rows (w; x, y, z).
Mat43 omega_map(const Eigen::Vector4d& q) {
  const double w = q(0);
  const Vec3 v = q.tail<3>();
  Mat43 e;
  e.row(0) = -v.transpose();
  e.bottomRows<3>() = w * Mat3::Identity() - skew(v);
  return e;
}

// (0, ω) ⊗ q = Ω(ω) q.
Mat4 omega_matrix(const Vec3& w) {
  Mat4 m;
  m(0, 0) = 0.0;
  m.block<1, 3>(0, 1) = -w.transpose();
  m.block<3, 1>(1, 0) = w;
  m.block<3, 3>(1, 1) = skew(w);
  return m;
}

// δθ = (2/|q|²) vec(δq ⊗ q*): the world rotation of a change δq of an unnormalised quaternion.
Mat34 rotation_map(const Eigen::Vector4d& q) {
  const double w = q(0);
  const Vec3 v = q.tail<3>();
  Mat34 g;
  g.col(0) = -v;
  g.rightCols<3>() = w * Mat3::Identity() + skew(v);
  return (2.0 / q.squaredNorm()) * g;
}

bool less_key(const CompliantContact& c, const ContactKey& k) { return c.key < k; }

// The force of a spring on the body point p [N]: −k (ℓ − ℓ0) d/ℓ, d = p − anchor.
Vec3 spring_force(const Spring& s, const Vec3& p) {
  const Vec3 d = p - s.anchor_W;
  const double l = d.norm();
  if (s.rest_length == 0.0) return -s.stiffness * d;
  if (!(l > 0.0)) return Vec3::Zero();
  return -s.stiffness * (l - s.rest_length) / l * d;
}

// ∂F/∂p of spring_force [N/m]: −k [(1 − ℓ0/ℓ) I + (ℓ0/ℓ) d̂ d̂ᵀ].
Mat3 spring_stiffness(const Spring& s, const Vec3& p) {
  const Vec3 d = p - s.anchor_W;
  const double l = d.norm();
  if (s.rest_length == 0.0 || !(l > 0.0)) return -s.stiffness * Mat3::Identity();
  const Vec3 u = d / l;
  const double r = s.rest_length / l;
  return -s.stiffness * ((1.0 - r) * Mat3::Identity() + r * u * u.transpose());
}

// The energy a spring stores with its body point at p [J].
double spring_energy(const Spring& s, const Vec3& p) {
  const double stretch = (p - s.anchor_W).norm() - s.rest_length;
  return 0.5 * s.stiffness * stretch * stretch;
}

}  // namespace

CompliantSystem::CompliantSystem(const Model& model, const CompliantLawTable& laws)
    : model_(model), laws_(laws), actuated_(model.has_actuation()) {
  const std::size_t nb = model.bodies.size();
  slot_of_body_.assign(nb, -1);
  for (std::size_t b = 0; b < nb; ++b) {
    if (model.bodies[b].fixed) continue;
    slot_of_body_[b] = static_cast<std::int32_t>(body_of_slot_.size());
    body_of_slot_.push_back(static_cast<std::int32_t>(b));
  }
  x_.resize(nb);
  v_.resize(nb);
  w_.resize(nb);
  L_.resize(nb);
  q_.resize(nb);
  q_norm2_.assign(nb, 1.0);
  inv_inertia_W_.resize(nb);
  fixed_x_.resize(nb);
  fixed_q_.resize(nb);
  force_.resize(nb);
  torque_.resize(nb);
  X_WS_.resize(model.shapes.size());
  aabbs_.resize(model.shapes.size());
}

std::int32_t CompliantSystem::find_stick(const ContactKey& key) const {
  const auto it = std::lower_bound(sticks_.begin(), sticks_.end(), key, less_key);
  return it != sticks_.end() && it->key == key ? static_cast<std::int32_t>(it - sticks_.begin())
                                               : -1;
}

std::int32_t CompliantSystem::find_listed(const ContactKey& key) const {
  const auto it = std::lower_bound(listed_.begin(), listed_.end(), key);
  return it != listed_.end() && *it == key ? static_cast<std::int32_t>(it - listed_.begin()) : -1;
}

void CompliantSystem::begin_segment(const State& state, std::vector<double>& y) {
  // Layout: bodies, the sticking contacts' slips, the energies.
  sticks_ = state.compliant.contacts;
  sticks_offset_ = kBodySize * body_of_slot_.size();
  energy_offset_ = sticks_offset_ + 3 * sticks_.size();
  // Actuated models add the driven bodies' work (docs/compliant.md); the others keep their size.
  size_ = energy_offset_ + kEnergies + (actuated_ ? kActuationEnergies : 0);
  y.assign(size_, 0.0);
  double extent = 1.0;
  for (std::size_t b = 0; b < model_.bodies.size(); ++b) {
    fixed_x_[b] = state.x_WC[b];
    fixed_q_[b] = state.q_WB[b].normalized();
    extent = std::max(extent, state.x_WC[b].cwiseAbs().maxCoeff());
    const int j = slot_of_body_[b];
    if (j < 0) continue;
    double* p = y.data() + kBodySize * j;
    const Quat q = state.q_WB[b].normalized();
    const Mat3 R = q.toRotationMatrix();
    const Vec3 L = R * (model_.bodies[b].inertia_B * (R.transpose() * state.w_W[b]));
    for (int i = 0; i < 3; ++i) {
      p[i] = state.x_WC[b][i];
      p[7 + i] = state.v_WC[b][i];
      p[10 + i] = L[i];
    }
    p[3] = q.w();
    p[4] = q.x();
    p[5] = q.y();
    p[6] = q.z();
  }
  hysteresis_ = kGapHysteresis * extent;
  for (std::size_t k = 0; k < sticks_.size(); ++k)
    for (int i = 0; i < 3; ++i)
      y[stick_offset(static_cast<int>(k)) + i] = sticks_[k].elongation_W[i];
  for (int k = 0; k < kEnergies; ++k) y[energy_offset_ + k] = state.dissipated_by_kind[k];
  if (actuated_) {
    y[energy_offset_ + kEnergies] = state.driven_work;
    y[energy_offset_ + kEnergies + 1] = state.force_work;
    y[energy_offset_ + kEnergies + 2] = state.damping;
  }
  // The points present now carry their own roots; the others share the "new point" root.
  evaluate(state.time, y, false);
  listed_.clear();
  for (const CompliantContactResult& c : results_)
    listed_.push_back({c.point.shape1, c.point.shape2, c.point.feature});
  std::sort(listed_.begin(), listed_.end());
  listed_.erase(std::unique(listed_.begin(), listed_.end()), listed_.end());
  // Directions: onset (gap − ε decreasing), release (gap + ε increasing), a new point (decreasing),
  // the switching functions (decreasing).
  const std::size_t nl = listed_.size();
  directions_.assign(3 * nl + 1, -1);
  for (std::size_t i = 0; i < nl; ++i) directions_[nl + i] = 1;
  // The values at the start, against which a root's crossing is told.
  start_.assign(directions_.size(), 0.0);
  roots(state.time, y, start_);
}

bool CompliantSystem::crossed(std::size_t i, std::span<const int> found,
                              std::span<const double> now) const {
  if (!found.empty() && found[i] != 0) return true;
  // The sign changed in the direction asked since the start (the root returned is where it has).
  return directions_[i] < 0 ? start_[i] > 0.0 && now[i] <= 0.0 : start_[i] < 0.0 && now[i] >= 0.0;
}

void CompliantSystem::unpack(std::span<const double> y, State& state) const {
  for (std::size_t j = 0; j < body_of_slot_.size(); ++j) {
    const auto b = static_cast<std::size_t>(body_of_slot_[j]);
    const double* p = y.data() + kBodySize * j;
    const Quat q = Quat(p[3], p[4], p[5], p[6]).normalized();
    const Mat3 R = q.toRotationMatrix();
    const Vec3 L(p[10], p[11], p[12]);
    state.x_WC[b] = Vec3(p[0], p[1], p[2]);
    state.q_WB[b] = q;
    state.v_WC[b] = Vec3(p[7], p[8], p[9]);
    state.w_W[b] = R * (model_.compiled.inv_inertia_B[b] * (R.transpose() * L));
  }
  state.compliant.contacts = sticks_;
  for (std::size_t k = 0; k < sticks_.size(); ++k) {
    const std::size_t o = stick_offset(static_cast<int>(k));
    state.compliant.contacts[k].elongation_W = Vec3(y[o], y[o + 1], y[o + 2]);
  }
  double total = 0.0;
  for (int k = 0; k < kEnergies; ++k) {
    state.dissipated_by_kind[static_cast<std::size_t>(k)] = y[energy_offset_ + k];
    total += y[energy_offset_ + k];
  }
  state.dissipated =
      total + state.dissipated_by_kind[static_cast<std::size_t>(EnergyKind::correction)];
  if (actuated_) {
    state.driven_work = y[energy_offset_ + kEnergies];
    state.force_work = y[energy_offset_ + kEnergies + 1];
    state.damping = y[energy_offset_ + kEnergies + 2];
  }
}

// Bodies at y: pose, velocity, angular momentum and velocity, inverse world inertia.
void CompliantSystem::bodies(double t, std::span<const double> y) {
  for (std::size_t b = 0; b < model_.bodies.size(); ++b) {
    const int j = slot_of_body_[b];
    if (model_.bodies[b].driven()) {
      // The exact pose and twist of the motion at t (coulomb/model/actuation.hpp).
      const DrivenPose d = driven_pose(model_.bodies[b].motion, t);
      const Vec3 arm = d.q_WB * model_.bodies[b].com_B;
      x_[b] = d.p_WB + arm;
      q_[b] = d.q_WB;
      v_[b] = d.v_WB + d.w_W.cross(arm);
      w_[b] = d.w_W;
      L_[b].setZero();
      inv_inertia_W_[b].setZero();
      continue;
    }
    if (j < 0) {
      x_[b] = fixed_x_[b];
      q_[b] = fixed_q_[b];
      v_[b].setZero();
      w_[b].setZero();
      L_[b].setZero();
      inv_inertia_W_[b].setZero();
      continue;
    }
    const double* p = y.data() + kBodySize * j;
    const Quat raw(p[3], p[4], p[5], p[6]);
    q_norm2_[b] = raw.squaredNorm();
    q_[b] = raw.normalized();
    const Mat3 R = q_[b].toRotationMatrix();
    x_[b] = Vec3(p[0], p[1], p[2]);
    v_[b] = Vec3(p[7], p[8], p[9]);
    L_[b] = Vec3(p[10], p[11], p[12]);
    inv_inertia_W_[b] = R * model_.compiled.inv_inertia_B[b] * R.transpose();
    w_[b] = inv_inertia_W_[b] * L_[b];
  }
}

// Shape poses, broadphase, narrowphase; a Contensou patch's points become one (their centroid).
void CompliantSystem::collide() {
  const double margin = model_.solver.contact_margin;
  for (std::size_t s = 0; s < model_.shapes.size(); ++s) {
    const int b = model_.shape_body[s];
    const Pose X_WB{x_[b] - q_[b] * model_.bodies[b].com_B, q_[b]};
    X_WS_[s] = X_WB * model_.shapes[s].pose_BS;
    aabbs_[s] = compute_aabb(model_.shapes[s].geometry, X_WS_[s], margin);
  }
  const BroadphaseInput input{aabbs_, model_.shape_body, model_.compiled.shape_fixed};
  broadphase_.find_pairs(input, pairs_);
  points_.clear();
  for (const ShapePair& pair : pairs_) {
    const std::size_t first = points_.size();
    coulomb::collide(model_.shapes[pair.a].geometry, X_WS_[pair.a], model_.shapes[pair.b].geometry,
                     X_WS_[pair.b], margin, points_);
    for (std::size_t k = first; k < points_.size(); ++k) {
      ContactPoint& c = points_[k];
      c.shape1 = pair.a;
      c.shape2 = pair.b;
      c.body1 = model_.shape_body[pair.a];
      c.body2 = model_.shape_body[pair.b];
    }
    if (laws_
            .of(model_.bodies[model_.shape_body[pair.a]].material,
                model_.bodies[model_.shape_body[pair.b]].material)
            .patch())
      merge_into_centroid(points_, first);
  }
}

// The laws at every point: wrench, powers, stored energy, switching function, derivatives.
void CompliantSystem::contact_laws(bool derivatives) {
  results_.resize(points_.size());
  const double sharp = model_.solver.sharp_radius;
  for (std::size_t k = 0; k < points_.size(); ++k) {
    CompliantContactResult& res = results_[k];
    res = CompliantContactResult{};
    const ContactPoint& c = points_[k];
    res.point = c;
    const int b1 = c.body1, b2 = c.body2;
    const CompliantLaws& laws = laws_.of(model_.bodies[b1].material, model_.bodies[b2].material);
    res.laws = &laws;
    res.stick = find_stick({c.shape1, c.shape2, c.feature});
    res.hybrid = laws.friction && laws.friction->has_stick_branch() && !laws.contensou;
    // Kinematics of 2 relative to 1 at I.
    const Vec3 I = c.point();
    res.r1 = I - x_[b1];
    res.r2 = I - x_[b2];
    const Vec3 vrel = (v_[b2] + w_[b2].cross(res.r2) + model_.bodies[b2].surface_velocity) -
                      (v_[b1] + w_[b1].cross(res.r1) + model_.bodies[b1].surface_velocity);
    const Vec3 wrel = w_[b2] - w_[b1];
    res.u << vrel.dot(c.n_W), vrel.dot(c.t1_W), vrel.dot(c.t2_W), wrel.dot(c.n_W), wrel.dot(c.t1_W),
        wrel.dot(c.t2_W);
    const double delta = -c.gap;
    if (!(delta > 0.0)) {
      res.status = ContactStatus::separated;
      continue;
    }
    // Normal law.
    const NormalGeometry geometry = contact_geometry(c, sharp);
    res.radius = geometry.radius;
    const NormalResult nr = laws.normal->evaluate(delta, -res.u(0), geometry);
    const double n = nr.force;
    res.w(0) = n;
    res.power[0] = nr.power;
    res.elastic = laws.normal->potential(delta, geometry);
    // ∂w/∂N (column), filled by the tangential laws below.
    Vec6 dw_dn = Vec6::Zero();
    dw_dn(0) = 1.0;
    const Vec2 slip(res.u(1), res.u(2));
    const Vec2 rolling(res.u(4), res.u(5));
    if (laws.contensou) {
      // Friction force, pivoting and rolling-resistance moments of the patch together.
      const PatchResult pr = laws.contensou->evaluate({slip, res.u(3), rolling, n}, geometry);
      res.patch_radius = pr.patch_radius;
      res.w.segment<2>(1) = pr.force;
      res.w(3) = pr.moment;
      res.w.segment<2>(4) = pr.rolling_moment;
      res.power[1] = pr.friction_power;
      res.power[2] = pr.rolling_power;
      res.power[3] = pr.pivoting_power;
      if (derivatives) {
        res.dw_du.block<2, 2>(1, 1) = pr.dforce_dslip;
        res.dw_du.block<2, 1>(1, 3) = pr.dforce_dspin;
        res.dw_du.block<2, 2>(1, 4) = pr.dforce_drolling;
        res.dw_du.block<1, 2>(3, 1) = pr.dmoment_dslip.transpose();
        res.dw_du(3, 3) = pr.dmoment_dspin;
        res.dw_du.block<1, 2>(3, 4) = pr.dmoment_drolling.transpose();
        res.dw_du.block<2, 2>(4, 4) = pr.drolling_drolling;
        dw_dn.segment<2>(1) = pr.dforce_dnormal;
        dw_dn(3) = pr.dmoment_dnormal;
        dw_dn.segment<2>(4) = pr.drolling_dnormal;
      }
    } else {
      // Friction law, with the stick branch held between events.
      // A sticking contact: anchor force F0 and slip s since the anchor (x_t − x0), on (t1, t2).
      TangentialInput in{slip, n, stick_displacement_[k], true};
      FrictionMemory memory;
      if (res.hybrid && res.stick >= 0) {
        const CompliantContact& st = sticks_[static_cast<std::size_t>(res.stick)];
        memory.sticking = true;
        memory.anchor_force = Vec2(st.anchor_force_W.dot(c.t1_W), st.anchor_force_W.dot(c.t2_W));
      }
      const TangentialResult tr = laws.friction->evaluate(in, memory);
      res.w.segment<2>(1) = tr.force;
      res.power[1] = tr.power;
      if (res.hybrid) {
        res.switching = laws.friction->switching_function(in, memory);
        if (memory.sticking) {
          // Stored energy relative to the anchor: the spring's energy minus its value at s = 0.
          TangentialInput at_anchor = in;
          at_anchor.displacement.setZero();
          res.stick_elastic = tr.stored - laws.friction->evaluate(at_anchor, memory).stored;
          res.elastic += res.stick_elastic;
        }
      }
      if (derivatives) {
        res.dw_du.block<2, 2>(1, 1) = tr.d_slip;
        dw_dn.segment<2>(1) = tr.d_normal;
        Eigen::Matrix<double, 2, 3> tangents;
        tangents.row(0) = c.t1_W.transpose();
        tangents.row(1) = c.t2_W.transpose();
        res.dw_ds.block<2, 3>(1, 0) = tr.d_displacement * tangents;
      }
      if (laws.rolling) {
        const RollingResult rr = laws.rolling->evaluate(rolling, n);
        res.w.segment<2>(4) = rr.moment;
        res.power[2] = rr.power;
        if (derivatives) {
          res.dw_du.block<2, 2>(4, 4) = rr.d_omega;
          dw_dn.segment<2>(4) = rr.d_normal;
        }
      }
      if (laws.pivoting) {
        const PivotingResult pr = laws.pivoting->evaluate(res.u(3), n);
        res.w(3) = pr.moment;
        res.power[3] = pr.power;
        if (derivatives) {
          res.dw_du(3, 3) = pr.d_omega;
          dw_dn(3) = pr.d_normal;
        }
      }
    }
    if (derivatives) {
      // N = N(δ, δ̇ = −v_n): the normal velocity enters every component through N.
      res.dw_du.col(0) += dw_dn * (-nr.d_rate);
      res.dw_ddelta = dw_dn * nr.d_delta;
    }
    // Status for contacts.csv.
    const bool stuck = res.hybrid ? res.stick >= 0 : slip.norm() <= kStickSpeed;
    res.status = n > 0.0 ? (stuck ? ContactStatus::sticking : ContactStatus::sliding)
                         : ContactStatus::separated;
  }
}

const std::vector<CompliantContactResult>& CompliantSystem::evaluate(double t,
                                                                     std::span<const double> y,
                                                                     bool derivatives) {
  bodies(t, y);
  collide();
  // The sticking contacts' slips (world), projected on each point's tangent plane.
  stick_displacement_.assign(points_.size(), Vec2::Zero());
  for (std::size_t k = 0; k < points_.size(); ++k) {
    const ContactPoint& c = points_[k];
    const std::int32_t s = find_stick({c.shape1, c.shape2, c.feature});
    if (s < 0) continue;
    const std::size_t o = stick_offset(s);
    const Vec3 s_W(y[o], y[o + 1], y[o + 2]);
    stick_displacement_[k] = Vec2(s_W.dot(c.t1_W), s_W.dot(c.t2_W));
  }
  contact_laws(derivatives);
  return results_;
}

double CompliantSystem::elastic_energy() const {
  double e = 0.0;
  for (const CompliantContactResult& c : results_) e += c.elastic;
  for (const Spring& sp : model_.springs) {
    if (!world_spring(sp)) {
      const double stretch = spring_ends(sp).d.norm() - sp.rest_length;
      e += 0.5 * sp.stiffness * stretch * stretch;
      continue;
    }
    const auto b = static_cast<std::size_t>(sp.body);
    e += spring_energy(sp, x_[b] + q_[b] * (sp.point_B - model_.bodies[b].com_B));
  }
  return e;
}

CompliantSystem::SpringEnds CompliantSystem::spring_ends(const Spring& sp) const {
  SpringEnds e;
  const auto a = static_cast<std::size_t>(sp.body);
  e.arm1 = q_[a] * (sp.point_B - model_.bodies[a].com_B);
  Vec3 p2 = sp.anchor_W, v2 = Vec3::Zero();
  if (sp.body2 >= 0) {
    const auto b = static_cast<std::size_t>(sp.body2);
    e.arm2 = q_[b] * (sp.point2_B - model_.bodies[b].com_B);
    p2 = x_[b] + e.arm2;
    v2 = v_[b] + w_[b].cross(e.arm2);
  }
  e.d = x_[a] + e.arm1 - p2;
  e.rate = v_[a] + w_[a].cross(e.arm1) - v2;
  return e;
}

int CompliantSystem::rhs(double t, std::span<const double> y, std::span<double> ydot) {
  const Timed timed(rhs_seconds_);
  // A non-finite trial state (a Newton iterate or a stage gone astray): recoverable, the
  // integrator retries with a smaller step.
  if (!std::all_of(y.begin(), y.end(), [](double v) { return std::isfinite(v); })) return 1;
  evaluate(t, y, false);
  // Forces and torques about the centres of mass: gravity, contacts.
  for (std::size_t b = 0; b < model_.bodies.size(); ++b) {
    force_[b] = model_.bodies[b].mass * model_.gravity;
    torque_[b].setZero();
  }
  std::fill(ydot.begin(), ydot.end(), 0.0);
  for (const CompliantContactResult& r : results_) {
    const ContactPoint& c = r.point;
    if (r.w(0) != 0.0 || r.w.tail<5>().squaredNorm() > 0.0) {
      const Vec3 f = r.w(0) * c.n_W + r.w(1) * c.t1_W + r.w(2) * c.t2_W;
      const Vec3 m = r.w(3) * c.n_W + r.w(4) * c.t1_W + r.w(5) * c.t2_W;
      force_[c.body2] += f;
      torque_[c.body2] += r.r2.cross(f) + m;
      force_[c.body1] -= f;
      torque_[c.body1] -= r.r1.cross(f) + m;
    }
    for (int k = 0; k < kEnergies; ++k)
      ydot[energy_offset_ + k] += r.power[static_cast<std::size_t>(k)];
    // A sticking contact's slip grows with the sliding velocity.
    if (r.stick >= 0) {
      const Vec3 vt = r.u(1) * c.t1_W + r.u(2) * c.t2_W;
      const std::size_t o = stick_offset(r.stick);
      for (int i = 0; i < 3; ++i) ydot[o + i] = vt[i];
    }
  }
  // Springs to fixed points: −k (ℓ − ℓ0) d/ℓ at the body's point.
  for (const Spring& sp : model_.springs) {
    if (!world_spring(sp)) continue;
    const auto b = static_cast<std::size_t>(sp.body);
    const Vec3 arm = q_[b] * (sp.point_B - model_.bodies[b].com_B);
    const Vec3 f = spring_force(sp, x_[b] + arm);
    force_[b] += f;
    torque_[b] += arm.cross(f);
  }
  // Actuation (coulomb/model/actuation.hpp): loads, damping, spring–dampers between bodies; the
  // work of the loads and the power of the dampers integrated with the state.
  double force_power = 0.0, damping_power = 0.0;
  if (actuated_) {
    for (std::size_t b = 0; b < model_.bodies.size(); ++b) {
      const Body& body = model_.bodies[b];
      if (body.fixed) continue;
      if (body.load.applies_force()) {
        const Wrench wr = load_wrench(body.load, t, q_[b], body.com_B);
        force_[b] += wr.force;
        torque_[b] += wr.torque;
        force_power += wr.force.dot(v_[b]) + wr.torque.dot(w_[b]);
      }
      if (body.load.damps()) {
        force_[b] -= body.load.linear_damping * v_[b];
        torque_[b] -= body.load.angular_damping * w_[b];
        damping_power += body.load.linear_damping * v_[b].squaredNorm() +
                         body.load.angular_damping * w_[b].squaredNorm();
      }
    }
    for (const Spring& sp : model_.springs) {
      if (world_spring(sp)) continue;
      const SpringEnds e = spring_ends(sp);
      const double l = e.d.norm();
      if (!(l > 0.0)) continue;
      const Vec3 u = e.d / l;
      const double rate = u.dot(e.rate);
      const Vec3 f = -(sp.stiffness * (l - sp.rest_length) + sp.damping * rate) * u;
      damping_power += sp.damping * rate * rate;
      const auto a = static_cast<std::size_t>(sp.body);
      force_[a] += f;
      torque_[a] += e.arm1.cross(f);
      if (sp.body2 >= 0) {
        const auto b = static_cast<std::size_t>(sp.body2);
        force_[b] -= f;
        torque_[b] -= e.arm2.cross(f);
      }
    }
  }
  // The driven bodies' work on the others: minus the power of the forces they receive.
  if (actuated_) {
    double power = 0.0;
    for (std::size_t b = 0; b < model_.bodies.size(); ++b)
      if (model_.bodies[b].driven()) power -= force_[b].dot(v_[b]) + torque_[b].dot(w_[b]);
    ydot[energy_offset_ + kEnergies] = power;
    ydot[energy_offset_ + kEnergies + 1] = force_power;
    ydot[energy_offset_ + kEnergies + 2] = damping_power;
  }
  for (std::size_t j = 0; j < body_of_slot_.size(); ++j) {
    const auto b = static_cast<std::size_t>(body_of_slot_[j]);
    double* d = ydot.data() + kBodySize * j;
    const double* p = y.data() + kBodySize * j;
    const Vec3& w = w_[b];
    // q̇ = ½ (0, ω) ⊗ q on the unnormalised q.
    const double qw = p[3];
    const Vec3 qv(p[4], p[5], p[6]);
    const Vec3 dqv = 0.5 * (qw * w + w.cross(qv));
    const double inv_m = 1.0 / model_.bodies[b].mass;
    for (int i = 0; i < 3; ++i) {
      d[i] = p[7 + i];
      d[4 + i] = dqv[i];
      d[7 + i] = force_[b][i] * inv_m;
      d[10 + i] = torque_[b][i];
    }
    d[3] = -0.5 * w.dot(qv);
  }
  return 0;
}

int CompliantSystem::jacobian(double t, std::span<const double> y, std::span<double> jac) {
  const Timed timed(jacobian_seconds_);
  const auto n = static_cast<Eigen::Index>(size_);
  Eigen::Map<Eigen::MatrixXd> J(jac.data(), n, n);
  evaluate(t, y, true);
  // Per body: ∂ω/∂q (3×4), rotation map (3×4).
  const std::size_t nb = model_.bodies.size();
  auto& dw_dq = dw_dq_;
  auto& dtheta_dq = dtheta_dq_;
  dw_dq.resize(nb);
  dtheta_dq.resize(nb);
  for (std::size_t j = 0; j < body_of_slot_.size(); ++j) {
    const auto b = static_cast<std::size_t>(body_of_slot_[j]);
    const Eigen::Index o = kBodySize * static_cast<Eigen::Index>(j);
    const Eigen::Vector4d q(y[o + 3], y[o + 4], y[o + 5], y[o + 6]);
    dtheta_dq[b] = rotation_map(q);
    dw_dq[b] = (-skew(w_[b]) + inv_inertia_W_[b] * skew(L_[b])) * dtheta_dq[b];
    // ẋ = v; q̇ = ½ (0, ω) ⊗ q.
    J.block<3, 3>(o, o + 7) += Mat3::Identity();
    const Mat43 e = omega_map(q);
    J.block<4, 4>(o + 3, o + 3) += 0.5 * omega_matrix(w_[b]) + 0.5 * e * dw_dq[b];
    J.block<4, 3>(o + 3, o + 10) += 0.5 * e * inv_inertia_W_[b];
  }
  // Springs: F(p), p = x + a, a = R (point_B − com_B); τ = a × F. With δp = δx − [a]× δθ and
  // δa = −[a]× δθ: ∂F/∂(x, θ) = K [I, −[a]×], ∂τ/∂(x, θ) = [a]× ∂F − [F]× ∂a.
  for (const Spring& sp : model_.springs) {
    if (!world_spring(sp)) continue;  // actuated models: difference Jacobian (docs/compliant.md)
    const auto b = static_cast<std::size_t>(sp.body);
    const int j = slot_of_body_[b];
    const Eigen::Index o = kBodySize * static_cast<Eigen::Index>(j);
    const Vec3 arm = q_[b] * (sp.point_B - model_.bodies[b].com_B);
    const Vec3 p = x_[b] + arm;
    const Vec3 f = spring_force(sp, p);
    const Mat3 k = spring_stiffness(sp, p);
    const double inv_m = 1.0 / model_.bodies[b].mass;
    const Mat3 df_dtheta = -k * skew(arm);
    const Mat3 dtau_dx = skew(arm) * k;
    const Mat3 dtau_dtheta = skew(arm) * df_dtheta + skew(f) * skew(arm);
    J.block<3, 3>(o + 7, o) += inv_m * k;
    J.block<3, 4>(o + 7, o + 3) += inv_m * df_dtheta * dtheta_dq[b];
    J.block<3, 3>(o + 10, o) += dtau_dx;
    J.block<3, 4>(o + 10, o + 3) += dtau_dtheta * dtheta_dq[b];
  }
  // Contacts.
  using Mat63 = Eigen::Matrix<double, 6, 3>;
  for (const CompliantContactResult& r : results_) {
    if (!(r.w(0) > 0.0) && r.dw_ddelta.isZero() && r.dw_du.isZero()) continue;
    const ContactPoint& c = r.point;
    const int body[2] = {c.body1, c.body2};
    const double sigma[2] = {-1.0, 1.0};
    Mat6 B[2];
    for (int k = 0; k < 2; ++k) {
      const Vec3& rk = k == 0 ? r.r1 : r.r2;
      const Vec3 d[3] = {c.n_W, c.t1_W, c.t2_W};
      B[k].setZero();
      for (int i = 0; i < 3; ++i) {
        B[k].block<1, 3>(i, 0) = d[i].transpose();
        B[k].block<1, 3>(i, 3) = rk.cross(d[i]).transpose();
        B[k].block<1, 3>(3 + i, 3) = d[i].transpose();
      }
    }
    // Rows of body a, columns of body b.
    for (int a = 0; a < 2; ++a) {
      const int ja = slot_of_body_[static_cast<std::size_t>(body[a])];
      if (ja < 0) continue;
      const Eigen::Index oa = kBodySize * static_cast<Eigen::Index>(ja);
      const double inv_m = 1.0 / model_.bodies[static_cast<std::size_t>(body[a])].mass;
      // Maps the 6 rows of a generalised force on body a to its rows (v̇: /m, L̇).
      auto add_rows = [&](Eigen::Index col, const auto& block) {
        J.block(oa + 7, col, 3, block.cols()) += inv_m * block.topRows(3);
        J.block(oa + 10, col, 3, block.cols()) += block.bottomRows(3);
      };
      for (int bi = 0; bi < 2; ++bi) {
        const auto bb = static_cast<std::size_t>(body[bi]);
        const int jb = slot_of_body_[bb];
        if (jb < 0) continue;
        const Eigen::Index ob = kBodySize * static_cast<Eigen::Index>(jb);
        const double ss = sigma[a] * sigma[bi];
        const Mat6 dq_dnu = ss * B[a].transpose() * r.dw_du * B[bi];
        const Mat6 dq_dp = -ss * B[a].transpose() * r.dw_ddelta * B[bi].row(0);
        // ν_b = (v_b, ω_b(L_b, q_b)); p_b = (x_b, θ_b(q_b)).
        add_rows(ob + 7, dq_dnu.leftCols<3>());
        add_rows(ob + 10, dq_dnu.rightCols<3>() * inv_inertia_W_[bb]);
        add_rows(ob + 3, dq_dnu.rightCols<3>() * dw_dq[bb] + dq_dp.rightCols<3>() * dtheta_dq[bb]);
        add_rows(ob, dq_dp.leftCols<3>());
      }
      if (r.stick >= 0) {
        const Mat63 dq_ds = sigma[a] * B[a].transpose() * r.dw_ds;
        add_rows(static_cast<Eigen::Index>(stick_offset(r.stick)), dq_ds);
      }
    }
    // ṡ = v_t = [t1 t2] (rows t1, t2 of u).
    if (r.stick >= 0) {
      const Eigen::Index os = static_cast<Eigen::Index>(stick_offset(r.stick));
      Eigen::Matrix<double, 3, 2> tangents;
      tangents.col(0) = c.t1_W;
      tangents.col(1) = c.t2_W;
      for (int bi = 0; bi < 2; ++bi) {
        const auto bb = static_cast<std::size_t>(body[bi]);
        const int jb = slot_of_body_[bb];
        if (jb < 0) continue;
        const Eigen::Index ob = kBodySize * static_cast<Eigen::Index>(jb);
        const Eigen::Matrix<double, 3, 6> ds_dnu = sigma[bi] * tangents * B[bi].middleRows<2>(1);
        J.block<3, 3>(os, ob + 7) += ds_dnu.leftCols<3>();
        J.block<3, 3>(os, ob + 10) += ds_dnu.rightCols<3>() * inv_inertia_W_[bb];
        J.block<3, 4>(os, ob + 3) += ds_dnu.rightCols<3>() * dw_dq[bb];
      }
    }
  }
  // A law's derivative that overflowed (a tiny slip): recoverable, the integrator retries.
  if (!J.allFinite()) return 1;
  return 0;
}

int CompliantSystem::roots(double t, std::span<const double> y, std::span<double> g) {
  const Timed timed(roots_seconds_);
  evaluate(t, y, false);
  const std::size_t nl = listed_.size();
  const double margin = model_.solver.contact_margin;
  const double eps = hysteresis_;
  // Listed points: onset gap − ε, release gap + ε (the margin when gone: open); the others: the
  // least gap − ε; the switching functions of the hybrid laws of closed points (1: none).
  for (std::size_t i = 0; i < nl; ++i) {
    g[i] = margin;
    g[nl + i] = margin;
    g[2 * nl + 1 + i] = 1.0;
  }
  g[2 * nl] = margin;
  for (const CompliantContactResult& r : results_) {
    const std::int32_t found = find_listed({r.point.shape1, r.point.shape2, r.point.feature});
    if (found < 0) {
      g[2 * nl] = std::min(g[2 * nl], r.point.gap - eps);
      continue;
    }
    const auto i = static_cast<std::size_t>(found);
    g[i] = std::min(g[i], r.point.gap - eps);
    g[nl + i] = std::min(g[nl + i], r.point.gap + eps);
    if (r.hybrid && r.w(0) > 0.0) g[2 * nl + 1 + i] = r.switching;
  }
  return 0;
}

}  // namespace coulomb
