#pragma once
/// @file
/// code_aster's tube–support shock law DIS_CHOC, normal part, and the Archard wear power.
/// (The tangential part is ElasticStickLaw, coulomb/laws/elastic_stick.hpp.)
///
///   contact (δ = −d > 0):  N = K_n δ + C_n δ̇;  if that is negative (damping would pull),
///                          N = K_n δ  (the damping alone is dropped; N stays ≥ 0);
///   free (δ ≤ 0):          N = 0.
/// (code_aster writes F_n = −K_n d − C_n v_n with d ≤ 0 in contact and v_n = ḋ = −δ̇.)
///
/// | symbol | meaning                         | unit  | range | code_aster key |
/// |--------|---------------------------------|-------|-------|----------------|
/// | K_n    | normal stiffness                | N/m   | > 0   | RIGI_NOR       |
/// | C_n    | normal damping                  | N s/m | ≥ 0   | AMOR_NOR (0)   |
///
/// Dissipated power (N − K_n δ) δ̇ = C_n δ̇² (or 0 when clamped); stored energy ½ K_n δ².
///
/// Wear power (Archard), trapezoidal over archived samples i = 1..N, counting the intervals that
/// start at a slipping sample:
///   P_w = [ Σ_i ½ (|F_n,i+1| ‖v_t,i+1‖ + |F_n,i| ‖v_t,i‖)(t_{i+1} − t_i) ] / (t_N − t_1),
/// worn volume V = K P_w t (K the wear coefficient). As in code_aster's routine `pusure`, the
/// power is |F_n| × slip speed, without μ: for a sinusoidal slip of amplitude V0 it tends to
/// F_n (2/π) V0 (the project's DIS_CHOC notes print μ_d F_n (2/π) V0 for that check, which
/// contradicts their own formula; see docs/laws.md).
/// The run's per-shock-point statistics (code_aster's POST_DYNA_MODAL_T: means, RMS, shocks,
/// rebounds, time in contact) and this wear power are accumulated by ShockStatistics
/// (coulomb/compliant/shock_statistics.hpp) and written to wear.csv.
/// Scene keys: `normal: {law: dis_choc, stiffness: K_n, damping: C_n}`.
/// References: code_aster documentation R5.06.02 / U4.53.21 (DYNA_VIBRA, RELATION='DIS_CHOC'),
/// as summarised in the project's reference notes on DIS_CHOC; Archard, J. Appl. Phys. 24 (1953)
/// 981.

#include <coulomb/laws/law.hpp>

#include <span>

namespace coulomb {

class DisChocNormalLaw final : public NormalLaw {
 public:
  explicit DisChocNormalLaw(const LawSpec& spec);
  DisChocNormalLaw(double stiffness, double damping);

  [[nodiscard]] std::string_view name() const override { return "dis_choc"; }
  [[nodiscard]] NormalResult evaluate(double delta, double delta_rate,
                                      const NormalGeometry& geometry) const override;
  [[nodiscard]] double potential(double delta, const NormalGeometry& geometry) const override;

 private:
  double stiffness_ = 0.0;  ///< K_n [N/m]
  double damping_ = 0.0;    ///< C_n [N s/m]
};

/// One archived sample for the wear power.
struct WearSample {
  double time = 0.0;          ///< t_i [s]
  double normal_force = 0.0;  ///< F_n,i [N]
  double slip_speed = 0.0;    ///< ‖v_t,i‖ [m/s]
  bool slipping = false;      ///< the contact slips at sample i
};

/// The wear integral's term of the interval from sample a to the next sample b [J]:
/// ½ (|F_n,b| ‖v_t,b‖ + |F_n,a| ‖v_t,a‖)(t_b − t_a) when a slips, else 0. The one definition that
/// wear_power() and the run's shock statistics (coulomb/compliant/shock_statistics.hpp) sum.
[[nodiscard]] double wear_increment(const WearSample& a, const WearSample& b);

/// Archard wear power P_w [W] of the samples (time increasing): Σ wear_increment / (t_N − t_1);
/// 0 for fewer than two samples.
[[nodiscard]] double wear_power(std::span<const WearSample> samples);

}  // namespace coulomb
