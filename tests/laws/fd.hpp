#pragma once
// Finite-difference helpers shared by the laws tests (central differences).
#include <coulomb/laws/law.hpp>

#include <gtest/gtest.h>

namespace coulomb::test {

// Central-difference step h and tolerance: the truncation error is O(h²·f''') and the round-off
// O(ε·|f|/h); with h = 1e-6 relative both stay below ~1e-7 relative for these smooth laws.
inline constexpr double kFdRelTol = 1e-6;

// Checks ∂F/∂v_t and ∂F/∂N of a friction law at one input against central differences.
inline void expect_friction_jacobian(const FrictionLaw& law, const TangentialInput& in,
                                     const FrictionMemory& mem, double h) {
  const TangentialResult r = law.evaluate(in, mem);
  const double scale = std::max(1.0, r.d_slip.cwiseAbs().maxCoeff());
  for (int j = 0; j < 2; ++j) {
    TangentialInput p = in, m = in;
    p.slip[j] += h;
    m.slip[j] -= h;
    const Vec2 col = (law.evaluate(p, mem).force - law.evaluate(m, mem).force) / (2 * h);
    for (int i = 0; i < 2; ++i) EXPECT_NEAR(r.d_slip(i, j), col[i], kFdRelTol * scale) << i << j;
  }
  const double hn = 1e-6 * std::max(1.0, in.normal_force);
  TangentialInput p = in, m = in;
  p.normal_force += hn;
  m.normal_force -= hn;
  const Vec2 dn = (law.evaluate(p, mem).force - law.evaluate(m, mem).force) / (2 * hn);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(r.d_normal[i], dn[i], kFdRelTol) << i;
}

// Checks ∂N/∂δ and ∂N/∂δ̇ of a normal law against central differences.
inline void expect_normal_derivatives(const NormalLaw& law, double delta, double rate,
                                      const NormalGeometry& g) {
  const NormalResult r = law.evaluate(delta, rate, g);
  const double hd = 1e-7 * delta, hr = 1e-7 * std::max(1e-3, std::abs(rate));
  const double dd =
      (law.evaluate(delta + hd, rate, g).force - law.evaluate(delta - hd, rate, g).force) /
      (2 * hd);
  const double dr =
      (law.evaluate(delta, rate + hr, g).force - law.evaluate(delta, rate - hr, g).force) /
      (2 * hr);
  EXPECT_NEAR(r.d_delta, dd, kFdRelTol * std::abs(dd) + 1e-9);
  EXPECT_NEAR(r.d_rate, dr, kFdRelTol * std::abs(dr) + 1e-9);
}

}  // namespace coulomb::test
