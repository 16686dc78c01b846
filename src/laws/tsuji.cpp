#include <coulomb/laws/tsuji.hpp>

#include "laws/params.hpp"

#include <cmath>

namespace coulomb {

TsujiLaw::TsujiLaw(const LawSpec& spec, const Material& m1, const Material& m2) {
  detail::Params p(spec, LawSection::normal);
  stiffness_ = detail::read_hertz_stiffness(p, m1, m2);
  damping_ = p.number("damping");
  p.finish();
}

double TsujiLaw::stiffness(const NormalGeometry& geometry) const { return stiffness_.at(geometry); }

NormalResult TsujiLaw::evaluate(double delta, double delta_rate,
                                const NormalGeometry& geometry) const {
  NormalResult r;
  if (delta <= 0.0) return r;
  const double k = stiffness(geometry);
  const double root = std::sqrt(delta);
  const double quarter = std::sqrt(root);  // δ^{1/4}
  const double elastic = k * delta * root;
  const double n = elastic + damping_ * quarter * delta_rate;
  if (n <= 0.0) {
    // The dashpot would pull: N held at 0, the elastic work goes into the clamp.
    r.power = -elastic * delta_rate;
    return r;
  }
  r.force = n;
  r.d_delta = 1.5 * k * root + 0.25 * damping_ * delta_rate / (quarter * quarter * quarter);
  r.d_rate = damping_ * quarter;
  r.power = damping_ * quarter * delta_rate * delta_rate;
  return r;
}

double TsujiLaw::potential(double delta, const NormalGeometry& geometry) const {
  return delta > 0.0 ? 0.4 * stiffness(geometry) * delta * delta * std::sqrt(delta) : 0.0;
}

}  // namespace coulomb
