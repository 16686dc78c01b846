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
  v_r_ = p.number("regularization");
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
  // Slip branch F = −s N D² v/‖D v‖ (D = μ_k I when isotropic), s = min(1, ‖v‖/v_r).
  const Vec2 d = anisotropic_ ? mu_aniso_ : Vec2(mu_k_, mu_k_);
  const Vec2 dv = d.cwiseProduct(in.slip);
  const double norm = dv.norm();
  if (!(norm > 0.0)) return r;
  const Vec2 d2v = d.cwiseProduct(dv);  // D² v
  const double n = in.normal_force;
  const Vec2 g = d2v / norm;  // the unit-load slip force direction D² v/‖D v‖
  // ∂g/∂v = (D² − g gᵀ)/‖D v‖ (written so that no power of a tiny ‖D v‖ underflows).
  const Mat2 shape = Mat2(d.cwiseProduct(d).asDiagonal()) - g * g.transpose();
  const double speed = in.slip.norm();
  if (speed >= v_r_) {
    r.force = -n * g;
    r.d_slip = -n * shape / norm;
    r.d_normal = -g;
    r.power = n * norm;
  } else {
    // Below v_r: s = ‖v‖/v_r, ∂s/∂v = v̂ᵀ/v_r; s ∂g/∂v = (‖v‖/‖D v‖) (D² − g gᵀ)/v_r.
    const double s = speed / v_r_;
    const Vec2 dir = speed > 0.0 ? Vec2(in.slip / speed) : Vec2::Zero();
    r.force = -n * s * g;
    r.d_slip = -n * ((speed / norm) * shape + g * dir.transpose()) / v_r_;
    r.d_normal = -s * g;
    r.power = n * s * norm;
  }
  return r;
}

}  // namespace coulomb
