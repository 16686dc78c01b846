#include <coulomb/laws/dis_choc.hpp>

#include "laws/params.hpp"

#include <cmath>

namespace coulomb {

DisChocNormalLaw::DisChocNormalLaw(const LawSpec& spec) {
  detail::Params p(spec, LawSection::normal);
  stiffness_ = p.required("stiffness");
  damping_ = p.number("damping");
  p.finish();
}

DisChocNormalLaw::DisChocNormalLaw(double stiffness, double damping)
    : DisChocNormalLaw(
          LawSpec{"dis_choc", {{"stiffness", stiffness}, {"damping", damping}}, {}, {}}) {}

NormalResult DisChocNormalLaw::evaluate(double delta, double delta_rate,
                                        const NormalGeometry& /*geometry*/) const {
  NormalResult r;
  if (delta <= 0.0) return r;
  // Spring plus dashpot; when the sum would pull, the dashpot alone is dropped.
  const double elastic = stiffness_ * delta;
  const double n = elastic + damping_ * delta_rate;
  r.d_delta = stiffness_;
  if (n < 0.0) {
    r.force = elastic;
    return r;
  }
  r.force = n;
  r.d_rate = damping_;
  r.power = damping_ * delta_rate * delta_rate;
  return r;
}

double DisChocNormalLaw::potential(double delta, const NormalGeometry& /*geometry*/) const {
  return delta > 0.0 ? 0.5 * stiffness_ * delta * delta : 0.0;
}

double wear_increment(const WearSample& a, const WearSample& b) {
  if (!a.slipping) return 0.0;
  return 0.5 * (std::abs(b.normal_force) * b.slip_speed + std::abs(a.normal_force) * a.slip_speed) *
         (b.time - a.time);
}

double wear_power(std::span<const WearSample> samples) {
  if (samples.size() < 2) return 0.0;
  // Trapezoid of |F_n| ‖v_t‖ over the intervals that start at a slipping sample.
  double sum = 0.0;
  for (std::size_t i = 0; i + 1 < samples.size(); ++i)
    sum += wear_increment(samples[i], samples[i + 1]);
  const double span = samples.back().time - samples.front().time;
  return span > 0.0 ? sum / span : 0.0;
}

}  // namespace coulomb
