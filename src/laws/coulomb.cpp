#include <coulomb/laws/coulomb.hpp>

#include "laws/params.hpp"

namespace coulomb {

CoulombLaw::CoulombLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::friction);
  if (p.has("mu_t1") || p.has("mu_t2")) {
    // Anisotropic: both directions required, no static/kinetic pair.
    for (const char* k : {"mu", "mu_s", "mu_k"}) {
      if (p.has(k)) throw p.error(k, "cannot be combined with mu_t1/mu_t2");
    }
    mu_aniso_ = Vec2(p.required("mu_t1"), p.required("mu_t2"));
    anisotropic_ = true;
    mu_s_ = mu_k_ = mu_aniso_.maxCoeff();
  } else {
    // μ sets both; μ_s, μ_k override it.
    const double mu = p.number("mu", 0.0);
    if (!p.has("mu") && !(p.has("mu_s") && p.has("mu_k"))) {
      throw p.error("mu", "required (or both mu_s and mu_k), must be ≥ 0");
    }
    mu_s_ = p.number("mu_s", mu);
    mu_k_ = p.number("mu_k", mu);
  }
  p.finish();
}

CoulombLaw::CoulombLaw(double mu_s, double mu_k)
    : CoulombLaw(LawSpec{"coulomb", {{"mu_s", mu_s}, {"mu_k", mu_k}}, {}, {}}) {}

Vec2 CoulombLaw::cone_coefficients(const FrictionMemory& memory) const {
  if (anisotropic_) return mu_aniso_;
  const bool slid = !memory.sticking && memory.previous_slip.squaredNorm() > 0.0;
  const double mu = slid ? mu_k_ : mu_s_;
  return {mu, mu};
}

TangentialResult CoulombLaw::evaluate(const TangentialInput& in,
                                      const FrictionMemory& memory) const {
  TangentialResult r;
  r.memory = memory;
  r.memory.previous_slip = in.slip;
  r.memory.sticking = in.slip.squaredNorm() == 0.0;
  // Slip branch F = −N D² v/‖D v‖ (D = μ_k I when isotropic).
  const Vec2 d = anisotropic_ ? mu_aniso_ : Vec2(mu_k_, mu_k_);
  const Vec2 dv = d.cwiseProduct(in.slip);
  const double norm = dv.norm();
  if (!(norm > 0.0)) return r;
  const Vec2 d2v = d.cwiseProduct(dv);  // D² v
  const double n = in.normal_force;
  r.force = -n * d2v / norm;
  r.d_slip = -n * (Mat2(d.cwiseProduct(d).asDiagonal()) / norm -
                   d2v * d2v.transpose() / (norm * norm * norm));
  r.d_normal = -d2v / norm;
  r.power = n * norm;
  return r;
}

}  // namespace coulomb
