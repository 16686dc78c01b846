// The shock statistics accumulator against code_aster's definitions (statch, fstat0, compt,
// statpu), worked by hand on short synthetic signals.

#include <coulomb/compliant/shock_statistics.hpp>
#include <coulomb/laws/dis_choc.hpp>
#include <coulomb/laws/linear.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

namespace coulomb {
namespace {

struct Signal {
  CompliantLaws dis_choc, other;
  Signal() {
    dis_choc.normal = std::make_unique<DisChocNormalLaw>(1e5, 0.0);
    other.normal = std::make_unique<LinearNormalLaw>(1e5, 0.0);
  }
  // One contact of shapes (s1, s2) of bodies (s1, s2) with normal force fn, tangential force
  // (ft1, ft2) and slip (vt1, vt2).
  CompliantContactResult contact(const CompliantLaws& laws, int s1, int s2, double fn,
                                 double ft1 = 0.0, double ft2 = 0.0, double vt1 = 0.0,
                                 double vt2 = 0.0, bool sliding = false) const {
    CompliantContactResult c;
    c.laws = &laws;
    c.point.shape1 = s1;
    c.point.shape2 = s2;
    c.point.body1 = s1;
    c.point.body2 = s2;
    c.w(0) = fn;
    c.w(1) = ft1;
    c.w(2) = ft2;
    c.u(1) = vt1;
    c.u(2) = vt2;
    c.status = fn > 0.0 ? (sliding ? ContactStatus::sliding : ContactStatus::sticking)
                        : ContactStatus::separated;
    return c;
  }
};

// F_n at t = 0, 1, ..., 10: rebounds [1, 3), [4, 5), [8, 10) (code_aster's compt: from the first
// contact sample to the first free one).
const std::vector<double> kForces = {0, 5, 3, 0, 4, 0, 0, 0, 2, 6, 0};

ShockStatistics run(const std::vector<double>& forces, ShockSettings settings) {
  Signal sig;
  ShockStatistics stats(1.0, settings);
  for (std::size_t i = 0; i < forces.size(); ++i) {
    const std::vector<CompliantContactResult> c = {
        sig.contact(sig.dis_choc, 3, 1, forces[i], 0.1 * forces[i], 0.0)};
    stats.add(static_cast<double>(i), c);
  }
  return stats;
}

TEST(ShockStatistics, ForceMeansAsFstat0) {
  const std::vector<ShockPointStatistics> r = run(kForces, {}).results();
  ASSERT_EQ(r.size(), 1u);
  const ShockPointStatistics& p = r[0];
  // The shock point's shapes in increasing order, with their bodies.
  EXPECT_EQ(p.shape1, 1);
  EXPECT_EQ(p.shape2, 3);
  EXPECT_EQ(p.body1, 1);
  EXPECT_EQ(p.samples, 11);
  EXPECT_EQ(p.contact_samples, 5);
  // Σ F = 20, Σ F² = 90, over N = 11 samples and N_c = 5 contact samples.
  EXPECT_DOUBLE_EQ(p.fn_mean, 20.0 / 11.0);
  EXPECT_DOUBLE_EQ(p.fn_mean_contact, 4.0);
  EXPECT_DOUBLE_EQ(p.fn_rms, std::sqrt(90.0 / 11.0));
  EXPECT_DOUBLE_EQ(p.fn_rms_contact, std::sqrt(18.0));
  EXPECT_DOUBLE_EQ(p.fn_max, 6.0);
  EXPECT_DOUBLE_EQ(p.ft_mean_contact, 0.4);
  EXPECT_DOUBLE_EQ(p.ft_max, 0.6);
}

TEST(ShockStatistics, EveryReboundIsAShockWithoutRestDuration) {
  const ShockPointStatistics p = run(kForces, {}).results()[0];
  EXPECT_EQ(p.rebounds, 3);
  EXPECT_EQ(p.shocks, 3);
  EXPECT_DOUBLE_EQ(p.rebounds_per_shock, 1.0);
  EXPECT_DOUBLE_EQ(p.shock_duration_mean, 5.0 / 3.0);  // 2, 1, 2
  EXPECT_DOUBLE_EQ(p.shock_duration_max, 2.0);
  EXPECT_DOUBLE_EQ(p.shock_duration_min, 1.0);
  EXPECT_DOUBLE_EQ(p.rebound_duration_mean, 5.0 / 3.0);
  // T_acq = N Δt = 11: 5 s of shocks, 3 shocks.
  EXPECT_DOUBLE_EQ(p.contact_time_percent, 100.0 * 5.0 / 11.0);
  EXPECT_DOUBLE_EQ(p.shocks_per_second, 3.0 / 11.0);
  // Trapezoids: [0,5,3,0] = 8, [0,4,0] = 4, [0,2,6,0] = 8.
  EXPECT_DOUBLE_EQ(p.impulse_mean, 20.0 / 3.0);
}

TEST(ShockStatistics, RestDurationGroupsRebounds) {
  // n_r = 2 samples: the gap 3 -> 4 (one sample) continues the shock, 5 -> 8 (three) ends it.
  const ShockPointStatistics p = run(kForces, {0.0, 2.0}).results()[0];
  EXPECT_EQ(p.rebounds, 3);
  EXPECT_EQ(p.shocks, 2);
  EXPECT_DOUBLE_EQ(p.shock_duration_max, 4.0);  // from 1 to 5
  EXPECT_DOUBLE_EQ(p.shock_duration_min, 2.0);  // from 8 to 10
  EXPECT_DOUBLE_EQ(p.rebounds_per_shock, 1.5);
  EXPECT_DOUBLE_EQ(p.contact_time_percent, 100.0 * 6.0 / 11.0);
}

TEST(ShockStatistics, ThresholdAndUnfinishedRebound) {
  // SEUIL_FORCE = 3: contact samples are 5, 4 and 6 only; the last rebound is cut by the end of
  // the run (in contact at the last sample) and is not counted, as in compt.
  std::vector<double> forces = kForces;
  forces.pop_back();
  const ShockPointStatistics p = run(forces, {3.0, 0.0}).results()[0];
  EXPECT_EQ(p.contact_samples, 3);
  EXPECT_DOUBLE_EQ(p.fn_mean_contact, 5.0);
  EXPECT_EQ(p.rebounds, 2);  // [1, 2) and [4, 5)
  EXPECT_DOUBLE_EQ(p.rebound_duration_mean, 1.0);
}

TEST(ShockStatistics, WearPowerIsWearPowerOfTheSamples) {
  // A sliding contact with varying force and slip: the accumulator and wear_power() of the same
  // samples agree (one definition).
  Signal sig;
  ShockStatistics stats(0.1);
  std::vector<WearSample> samples;
  for (int i = 0; i <= 20; ++i) {
    const double t = 0.1 * i;
    const double fn = 2.0 + std::sin(t), vt1 = std::cos(3 * t), vt2 = 0.5 * std::sin(t);
    const bool sliding = i % 4 != 0;
    const std::vector<CompliantContactResult> c = {
        sig.contact(sig.dis_choc, 0, 1, fn, 0.1, 0.2, vt1, vt2, sliding),
        sig.contact(sig.other, 0, 2, 7.0, 0.0, 0.0, 1.0, 0.0, true)};  // not dis_choc: ignored
    stats.add(t, c);
    samples.push_back({t, fn, std::hypot(vt1, vt2), sliding});
  }
  const std::vector<ShockPointStatistics> r = stats.results();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NEAR(r[0].wear_power, wear_power(samples), 1e-14);
  EXPECT_GT(r[0].wear_power, 0.0);
}

TEST(ShockStatistics, PointsOfOneShapePairAreOneShockPoint) {
  // Two points of the pair (2, 5): F_n adds, F_t adds as vectors, the wear integrand is
  // Σ |N_k| ‖v_t,k‖; a point met late counts the samples before as free.
  Signal sig;
  ShockStatistics stats(1.0);
  stats.add(0.0, {});
  for (int i = 1; i <= 2; ++i) {
    const std::vector<CompliantContactResult> c = {
        sig.contact(sig.dis_choc, 5, 2, 1.0, 0.3, 0.0, 2.0, 0.0, true),
        sig.contact(sig.dis_choc, 5, 2, 3.0, -0.1, 0.0, 1.0, 0.0, true)};
    stats.add(static_cast<double>(i), c);
  }
  const ShockPointStatistics p = stats.results()[0];
  EXPECT_EQ(p.samples, 3);
  EXPECT_EQ(p.contact_samples, 2);
  EXPECT_DOUBLE_EQ(p.fn_max, 4.0);
  EXPECT_DOUBLE_EQ(p.ft_max, 0.2);
  // Only the interval [1, 2] starts at a slipping sample: ½ (5 + 5) × 1 over t_N − t_1 = 2.
  EXPECT_DOUBLE_EQ(p.wear_power, 2.5);
}

}  // namespace
}  // namespace coulomb
