#include <coulomb/laws/elastic_stick.hpp>

#include "laws/params.hpp"

#include <algorithm>
#include <cmath>

namespace coulomb {

double tangential_damping_default(double mass, double stiffness, double damping_ratio,
                                  double tangential_stiffness) {
  return 2.0 * std::sqrt(mass * (stiffness + tangential_stiffness)) -
         2.0 * damping_ratio * std::sqrt(stiffness * mass);
}

ElasticStickLaw::ElasticStickLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::friction);
  k_t_ = p.number("stiffness");
  c_t_ = p.number("damping");
  const double mu = p.number("mu", 0.0);
  if (!p.has("mu") && !(p.has("mu_s") && p.has("mu_k"))) {
    throw p.error("mu", "required (or both mu_s and mu_k), must be ≥ 0");
  }
  mu_s_ = p.number("mu_s", mu);
  mu_k_ = p.number("mu_k", mu);
  threshold_ = p.number("threshold");
  p.finish();
}

TangentialResult ElasticStickLaw::evaluate(const TangentialInput& in,
                                           const FrictionMemory& memory) const {
  TangentialResult r;
  r.memory = memory;
  r.memory.previous_slip = in.slip;
  const Vec2& v = in.slip;
  const double n = in.normal_force;
  // Free contact: no force, reset the anchor.
  if (n <= 0.0) {
    r.memory.sticking = false;
    r.memory.anchor_force.setZero();
    r.memory.anchor = in.displacement;
    return r;
  }
  const double speed = v.norm();
  // Kinetic Coulomb force with its derivatives; re-anchors at the current position.
  auto slip = [&]() {
    r.memory.sticking = false;
    r.d_slip.setZero();
    r.d_normal.setZero();
    r.d_displacement.setZero();
    r.power = 0.0;
    r.stored = 0.0;
    if (speed > 0.0) {
      const Vec2 dir = v / speed;
      r.force = -mu_k_ * n * dir;
      r.d_slip = -mu_k_ * n / speed * (Mat2::Identity() - dir * dir.transpose());
      r.d_normal = -mu_k_ * dir;
      r.power = mu_k_ * n * speed;
    } else {
      r.force.setZero();
    }
    r.memory.anchor_force = r.force;
    r.memory.anchor = in.displacement;
  };
  // Slipping branch: still slipping in the same half-plane of directions and fast enough (or
  // held there by the compliant formulation until its switching event).
  if (in.hold_branch
          ? !memory.sticking
          : !memory.sticking && v.dot(memory.previous_slip) >= 0.0 && speed > threshold_) {
    slip();
    return r;
  }
  // Sticking: spring from the anchor plus damping, capped by μ_s N (unless the branch is held).
  const Vec2 spring = memory.anchor_force - k_t_ * (in.displacement - memory.anchor);
  const Vec2 f = spring - c_t_ * v;
  if (!in.hold_branch && f.norm() > mu_s_ * n) {
    slip();
    return r;
  }
  r.memory.sticking = true;
  r.force = f;
  r.d_slip = -c_t_ * Mat2::Identity();
  r.d_displacement = -k_t_ * Mat2::Identity();
  r.power = c_t_ * v.squaredNorm();
  r.stored = k_t_ > 0.0 ? 0.5 * spring.squaredNorm() / k_t_ : 0.0;
  return r;
}

Vec2 ElasticStickLaw::stick_force(const TangentialInput& in, const FrictionMemory& memory) const {
  return memory.anchor_force - k_t_ * (in.displacement - memory.anchor) - c_t_ * in.slip;
}

double ElasticStickLaw::switching_function(const TangentialInput& in,
                                           const FrictionMemory& memory) const {
  if (memory.sticking) {
    const double cap = mu_s_ * std::max(in.normal_force, 0.0);
    return cap * cap - stick_force(in, memory).squaredNorm();
  }
  return in.slip.squaredNorm() - threshold_ * threshold_;
}

}  // namespace coulomb
