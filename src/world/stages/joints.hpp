#pragma once
// Joints in the step (internal; docs/joints.md): their blocks in the contact problem (assemble),
// their impulses and reactions (integrate), their position stage (correct).

#include "stages/stages.hpp"

namespace coulomb::stages {

/// Appends the joint blocks to the problem after the active contacts (before finish()): rows,
/// q (the law's velocity ξ, see joints.cpp), box laws; warm start zero.
template <int N>
void assemble_joints(const Model& model, const State& state, const FreeMotion& motion,
                     ContactBuffers<N>& out);
/// Adds the joint blocks' impulses to the bodies' impulses (force and torque about the centre of
/// mass) and sets the joint reactions (StepResults::joint_force, joint_moment).
template <int N>
void apply_joint_impulses(const Model& model, const FreeMotion& motion,
                          const ContactBuffers<N>& contact, std::size_t nactive, StepResults& out);
/// The work of the joint impulses on the step's mean velocities, booked by kind: the hinge
/// friction rows as friction, the rest as normal (zero to round-off for equalities with the
/// midpoint scheme).
template <int N>
void book_joint_work(const Model& model, const ContactBuffers<N>& contact, std::size_t nactive,
                     const StepResults& results, State& state);
/// The joints' position stage: Newton iterations of a mass-weighted displacement that zeroes
/// every joint's position error at the end of the step (velocities and world angular momenta
/// kept); sets StepReport::joint_violation.
void correct_joints(const Model& model, State& state, StepReport& report);

}  // namespace coulomb::stages
