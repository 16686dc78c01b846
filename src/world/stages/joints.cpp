// Joints in the step: blocks of the contact problem, impulses and reactions, position stage
// (docs/joints.md; the rows are those of coulomb/model/joint.hpp).
//
// Law's velocity of a joint row (as for contacts, assemble.cpp), with u⁺ = J_c ν⁺ after the
// impulses, u_c = J_c ν⁻ before them at the contact configuration c and u_0 = J_0 ν_k at the start:
//   equality, midpoint:     ξ = u⁺ + u_c − u_0 (a closed contact without restitution: the
//                           end-of-step rate is driven to zero, second order; the symmetric
//                           ξ = u⁺ + u_c leaves an undamped period-two mode, docs/joints.md)
//   equality, Moreau–Jean:  ξ = u⁺ (u_c = u_0)
//   hinge friction row:     ξ = u⁺         (the end-of-step rate: a stop is exact)
//   string (unilateral):    ξ = u⁺ + u_c − (1 − e) u_0 (Newton's restitution e; for Moreau–Jean
//                           u_c = u_0, ξ = u⁺ + e u_0); the block enters the problem when the
//                           end-of-step C predicted with the free velocity is ≤ the activation
//                           distance.
// Box laws (joint_rows.hpp): equality (−∞, ∞), free [0, 0], friction [−M_f h, M_f h],
// unilateral [0, ∞).
#include "stages/joints.hpp"

#include <coulomb/dynamics/rigid_body.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace coulomb::stages {

namespace {

constexpr std::uint8_t kFree = 0, kEquality = 1, kFriction = 2, kUnilateral = 3;

JointSidePose side_at(int b, const std::vector<Vec3>& x, const std::vector<Quat>& q) {
  JointSidePose s;
  if (b >= 0) {
    s.x = x[static_cast<std::size_t>(b)];
    s.R = q[static_cast<std::size_t>(b)].toRotationMatrix();
  }
  return s;
}

// J ν of a group for body velocities given per model body (the world: zero).
Vec3 group_rate(const JointGroup& g, const Joint& j, const std::vector<Vec3>& v,
                const std::vector<Vec3>& w) {
  Vec3 u = Vec3::Zero();
  if (j.body1 >= 0)
    u += g.J1.leftCols<3>() * v[static_cast<std::size_t>(j.body1)] +
         g.J1.rightCols<3>() * w[static_cast<std::size_t>(j.body1)];
  u += g.J2.leftCols<3>() * v[static_cast<std::size_t>(j.body2)] +
       g.J2.rightCols<3>() * w[static_cast<std::size_t>(j.body2)];
  return u;
}

// Row 0 of this group carries the joint's limits (hinge angle, prismatic slide).
bool limited(const Joint& j, int group) {
  return (j.type == JointType::hinge && group == 1) ||
         (j.type == JointType::prismatic && group == 0);
}

}  // namespace

template <int N>
void assemble_joints(const Model& model, const State& state, const FreeMotion& motion,
                     ContactBuffers<N>& out) {
  FactoredProblem<N>& p = out.problem;
  out.joint_of_block.clear();
  out.group_of_block.clear();
  if (model.joints.empty()) return;
  const double h = model.time_step;
  const bool midpoint = model.solver.scheme == TimeScheme::midpoint;
  const double c = midpoint ? 0.5 * h : model.solver.theta * h;
  for (std::size_t ji = 0; ji < model.joints.size(); ++ji) {
    const Joint& j = model.joints[ji];
    const JointSidePose s1 = side_at(j.body1, motion.x_c, motion.q_c);
    const JointSidePose s2 = side_at(j.body2, motion.x_c, motion.q_c);
    for (int group = 0; group < joint_group_count(j.type); ++group) {
      const JointGroup g = joint_group(j, group, s1, s2);
      const Vec3 u_free = group_rate(g, j, motion.v_free, motion.w_free);
      const Vec3 u_c = group_rate(g, j, state.v_WC, motion.w_pre);
      // The rates at the start of the step, at the start configuration (Moreau–Jean: u_c).
      Vec3 u_0 = u_c;
      if (midpoint) {
        const JointGroup g0 = joint_group(j, group, side_at(j.body1, state.x_WC, state.q_WB),
                                          side_at(j.body2, state.x_WC, state.q_WB));
        u_0 = group_rate(g0, j, state.v_WC, state.w_W);
      }
      Vec3 shift = Vec3::Zero();
      JointRows<N> law;
      for (int i = 0; i < 3; ++i) {
        switch (g.kind[i]) {
          case kFree:
            break;
          case kEquality:
            law.lo[i] = -kInf;
            law.hi[i] = kInf;
            shift[i] = u_c[i] - u_0[i];
            break;
          case kFriction:
            law.lo[i] = -j.friction_moment * h;
            law.hi[i] = j.friction_moment * h;
            break;
          case kUnilateral:
            law.hi[i] = kInf;
            shift[i] = u_c[i] - (1.0 - j.restitution) * u_0[i];
            break;
        }
      }
      // Limits (hinge angle, prismatic slide) on row 0 of the hinge's rotational group or the
      // prismatic joint's translational group: active when the end-of-step C0 is predicted
      // beyond a limit; the unilateral part widens the row's box on one side (lower: r ≥ −b,
      // upper: r ≤ b, b the friction bound or 0) and takes the closed-contact law (e = 0).
      if (limited(j, group)) {
        const double end = g.C[0] + c * u_free[0];
        if (end <= j.lower + model.solver.activation_distance) {
          law.hi[0] = kInf;
          shift[0] = u_c[0] - u_0[0];
        } else if (end >= j.upper - model.solver.activation_distance) {
          law.lo[0] = -kInf;
          shift[0] = u_c[0] - u_0[0];
        }
      }
      // A string enters the problem when it is predicted taut at the end of the step.
      if (j.type == JointType::distance &&
          g.C[0] + c * u_free[0] > model.solver.activation_distance)
        continue;
      p.laws.emplace_back();
      VecN<N> q = VecN<N>::Zero();
      q.template head<3>() = u_free + shift;
      p.q.push_back(q);
      p.body1.push_back(j.body1 >= 0 ? out.body_index[static_cast<std::size_t>(j.body1)] : -1);
      p.body2.push_back(out.body_index[static_cast<std::size_t>(j.body2)]);
      typename FactoredProblem<N>::Jacobian J1 = FactoredProblem<N>::Jacobian::Zero();
      typename FactoredProblem<N>::Jacobian J2 = FactoredProblem<N>::Jacobian::Zero();
      J1.template topRows<3>() = g.J1;
      J2.template topRows<3>() = g.J2;
      p.J1.push_back(J1);
      p.J2.push_back(J2);
      p.joint_rows.push_back(law);
      out.r.push_back(VecN<N>::Zero());
      out.joint_of_block.push_back(static_cast<std::int32_t>(ji));
      out.group_of_block.push_back(group);
    }
  }
  p.contact_count = static_cast<int>(p.q.size());
}

template <int N>
void apply_joint_impulses(const Model& model, const FreeMotion& motion,
                          const ContactBuffers<N>& contact, std::size_t nactive, StepResults& out) {
  const std::size_t nj = model.joints.size();
  out.joint_force.assign(nj, Vec3::Zero());
  out.joint_moment.assign(nj, Vec3::Zero());
  const double h = model.time_step;
  for (std::size_t b = 0; b < contact.joint_of_block.size(); ++b) {
    const Joint& j = model.joints[static_cast<std::size_t>(contact.joint_of_block[b])];
    const std::size_t a = nactive + b;
    const Vec3 r = contact.r[a].template head<3>();
    const auto& J1 = contact.problem.J1[a];
    const auto& J2 = contact.problem.J2[a];
    const Eigen::Matrix<double, 6, 1> p2 = J2.template topRows<3>().transpose() * r;
    const Eigen::Matrix<double, 6, 1> p1 = J1.template topRows<3>().transpose() * r;
    const auto b2 = static_cast<std::size_t>(j.body2);
    out.impulse_force[b2] += p2.head<3>();
    out.impulse_torque[b2] += p2.tail<3>();
    if (j.body1 >= 0) {
      out.impulse_force[static_cast<std::size_t>(j.body1)] += p1.head<3>();
      out.impulse_torque[static_cast<std::size_t>(j.body1)] += p1.tail<3>();
    }
    // Reaction on body 2: force, and moment about its anchor (τ_C − (a2 − x_c) × F), per second.
    const Vec3 arm = motion.q_c[b2] * j.r2_B;
    const std::size_t ji = static_cast<std::size_t>(contact.joint_of_block[b]);
    out.joint_force[ji] += p2.head<3>() / h;
    out.joint_moment[ji] += (p2.tail<3>() - arm.cross(p2.head<3>())) / h;
  }
}

template <int N>
void book_joint_work(const Model& model, const ContactBuffers<N>& contact, std::size_t nactive,
                     const StepResults& results, State& state) {
  auto& by_kind = state.dissipated_by_kind;
  for (std::size_t b = 0; b < contact.joint_of_block.size(); ++b) {
    const Joint& j = model.joints[static_cast<std::size_t>(contact.joint_of_block[b])];
    const std::size_t a = nactive + b;
    const Vec3 r = contact.r[a].template head<3>();
    Vec3 u = contact.problem.J2[a].template topRows<3>().template leftCols<3>() *
                 results.v_mean[static_cast<std::size_t>(j.body2)] +
             contact.problem.J2[a].template topRows<3>().template rightCols<3>() *
                 results.w_mean[static_cast<std::size_t>(j.body2)];
    if (j.body1 >= 0)
      u += contact.problem.J1[a].template topRows<3>().template leftCols<3>() *
               results.v_mean[static_cast<std::size_t>(j.body1)] +
           contact.problem.J1[a].template topRows<3>().template rightCols<3>() *
               results.w_mean[static_cast<std::size_t>(j.body1)];
    // Friction row of a hinge: row 0 of its rotational group.
    const bool friction = j.type == JointType::hinge && contact.group_of_block[b] == 1;
    const double w_friction = friction ? r[0] * u[0] : 0.0;
    by_kind[static_cast<std::size_t>(EnergyKind::friction)] -= w_friction;
    by_kind[static_cast<std::size_t>(EnergyKind::normal)] -= r.dot(u) - w_friction;
  }
}

void correct_joints(const Model& model, State& state, StepReport& report) {
  report.joint_violation = 0.0;
  if (model.joints.empty()) return;
  const std::size_t nbodies = model.bodies.size();
  // The groups at the current poses, with the position law of each row: equality rows (−∞, ∞),
  // a string [0, ∞) on C ≥ 0, the others free; the largest violation.
  // One block per joint: its groups stacked (6 rows; a one-group joint's last three rows are
  // unused, [0, 0]), so that the position stage solves a joint's rows together — the rows of a
  // hinge's two groups are coupled through the lever of its body (a small sphere on a long arm:
  // Gauss–Seidel between them would contract by ~I/(m L²) a sweep).
  struct Block {
    Eigen::Matrix<double, 6, 6> J1 = Eigen::Matrix<double, 6, 6>::Zero();
    Eigen::Matrix<double, 6, 6> J2 = Eigen::Matrix<double, 6, 6>::Zero();
    Vec6d C = Vec6d::Zero();
    JointRows<6> law;
    const Joint* joint = nullptr;
  };
  std::vector<Block> blocks;
  auto build = [&]() {
    blocks.clear();
    double worst = 0.0;
    for (const Joint& j : model.joints) {
      const JointSidePose s1 = side_at(j.body1, state.x_WC, state.q_WB);
      const JointSidePose s2 = side_at(j.body2, state.x_WC, state.q_WB);
      Block b;
      b.joint = &j;
      bool active = false;
      for (int group = 0; group < joint_group_count(j.type); ++group) {
        const JointGroup g = joint_group(j, group, s1, s2);
        b.J1.middleRows<3>(3 * group) = g.J1;
        b.J2.middleRows<3>(3 * group) = g.J2;
        for (int i = 0; i < 3; ++i) {
          const int row = 3 * group + i;
          if (g.kind[i] == kEquality) {
            b.law.lo[row] = -kInf;
            b.law.hi[row] = kInf;
            b.C[row] = g.C[i];
            worst = std::max(worst, std::abs(g.C[i]));
            active = true;
          } else if (g.kind[i] == kUnilateral && g.C[i] < 0.0) {
            b.law.hi[row] = kInf;
            b.C[row] = g.C[i];
            worst = std::max(worst, -g.C[i]);
            active = true;
          } else if (i == 0 && limited(j, group) && g.C[0] < j.lower) {
            // A limit passed: C0 − lower ≥ 0 (unilateral on the row).
            b.C[row] = g.C[0] - j.lower;
            b.law.hi[row] = kInf;
            worst = std::max(worst, -b.C[row]);
            active = true;
          } else if (i == 0 && limited(j, group) && g.C[0] > j.upper) {
            // C0 − upper ≤ 0: the box (−∞, 0] on the row.
            b.C[row] = g.C[0] - j.upper;
            b.law.lo[row] = -kInf;
            worst = std::max(worst, b.C[row]);
            active = true;
          }
        }
      }
      if (active) blocks.push_back(b);
    }
    return worst;
  };
  double violation = build();
  report.joint_violation = violation;
  if (!model.solver.position_correction) return;
  // Round-off floor of the position functions: lengths of the scene's scale.
  double scale = 1.0;
  for (const Joint& j : model.joints) scale = std::max(scale, j.anchor_W.norm());
  const double floor = 8.0 * DBL_EPSILON * scale;
  constexpr int kNewton = 8;
  constexpr int kSweeps = 2000;
  std::vector<Vec6d> d(nbodies);
  std::vector<Mat3> inv_inertia(nbodies);
  std::vector<Vec6d> kappa;
  double added = 0.0;
  for (int newton = 0; newton < kNewton && violation > floor; ++newton) {
    // M⁻¹ at the current poses; Gauss–Seidel on the blocks' box problems over displacements d.
    for (std::size_t b = 0; b < nbodies; ++b) {
      d[b].setZero();
      if (model.bodies[b].fixed) continue;
      const Mat3 R = state.q_WB[b].toRotationMatrix();
      inv_inertia[b] = R * model.compiled.inv_inertia_B[b] * R.transpose();
    }
    const auto inv_m = [&](int b, const Eigen::Matrix<double, 6, 6>& J) {
      Eigen::Matrix<double, 6, 6> G = Eigen::Matrix<double, 6, 6>::Zero();
      if (b < 0 || model.bodies[static_cast<std::size_t>(b)].fixed) return G;
      const auto bb = static_cast<std::size_t>(b);
      G.topRows<3>() = model.bodies[bb].inv_mass() * J.leftCols<3>().transpose();
      G.bottomRows<3>() = inv_inertia[bb] * J.rightCols<3>().transpose();
      return G;
    };
    kappa.assign(blocks.size(), Vec6d::Zero());
    for (int sweep = 0; sweep < kSweeps; ++sweep) {
      // Largest change of a displacement in the sweep [m or rad]: the sweeps stop when it is
      // below the round-off floor of the positions.
      double change = 0.0;
      for (std::size_t k = 0; k < blocks.size(); ++k) {
        const Block& bl = blocks[k];
        const int b1 = bl.joint->body1, b2 = bl.joint->body2;
        const Eigen::Matrix<double, 6, 6> G1 = inv_m(b1, bl.J1), G2 = inv_m(b2, bl.J2);
        const Eigen::Matrix<double, 6, 6, Eigen::RowMajor> W = bl.J1 * G1 + bl.J2 * G2;
        Vec6d q = bl.C - W * kappa[k];
        if (b1 >= 0) q += bl.J1 * d[static_cast<std::size_t>(b1)];
        q += bl.J2 * d[static_cast<std::size_t>(b2)];
        Vec6d x = kappa[k];
        solve_joint_block<6>(W, q, bl.law, x);
        const Vec6d delta = x - kappa[k];
        kappa[k] = x;
        if (b1 >= 0) {
          const Vec6d dd = G1 * delta;
          d[static_cast<std::size_t>(b1)] += dd;
          change = std::max(change, dd.cwiseAbs().maxCoeff());
        }
        const Vec6d dd = G2 * delta;
        d[static_cast<std::size_t>(b2)] += dd;
        change = std::max(change, dd.cwiseAbs().maxCoeff());
      }
      if (change <= 0.1 * floor || blocks.size() == 1) break;
    }
    // Apply: centres of mass move, orientations turn (Cayley); world angular momenta kept.
    for (std::size_t b = 0; b < nbodies; ++b) {
      const Body& body = model.bodies[b];
      if (body.fixed || d[b].isZero(0.0)) continue;
      const Mat3 R0 = state.q_WB[b].toRotationMatrix();
      const Vec3 L = R0 * (body.inertia_B * (R0.transpose() * state.w_W[b]));
      state.x_WC[b] += d[b].head<3>();
      Quat q = cayley_quaternion(d[b].tail<3>()) * state.q_WB[b];
      q.normalize();
      state.q_WB[b] = q;
      const Mat3 R1 = q.toRotationMatrix();
      const Vec3 w1 = R1 * (model.compiled.inv_inertia_B[b] * (R1.transpose() * L));
      added += -body.mass * model.gravity.dot(d[b].head<3>()) + 0.5 * L.dot(w1 - state.w_W[b]);
      state.w_W[b] = w1;
    }
    const double before = violation;
    violation = build();
    if (!(violation < before)) break;  // the round-off floor
  }
  report.joint_violation = violation;
  state.dissipated -= added;
  state.dissipated_by_kind[static_cast<std::size_t>(EnergyKind::correction)] -= added;
}

template void assemble_joints<kForce>(const Model&, const State&, const FreeMotion&,
                                      ContactBuffers<kForce>&);
template void assemble_joints<kWrench>(const Model&, const State&, const FreeMotion&,
                                       ContactBuffers<kWrench>&);
template void apply_joint_impulses<kForce>(const Model&, const FreeMotion&,
                                           const ContactBuffers<kForce>&, std::size_t,
                                           StepResults&);
template void apply_joint_impulses<kWrench>(const Model&, const FreeMotion&,
                                            const ContactBuffers<kWrench>&, std::size_t,
                                            StepResults&);
template void book_joint_work<kForce>(const Model&, const ContactBuffers<kForce>&, std::size_t,
                                      const StepResults&, State&);
template void book_joint_work<kWrench>(const Model&, const ContactBuffers<kWrench>&, std::size_t,
                                       const StepResults&, State&);

}  // namespace coulomb::stages
