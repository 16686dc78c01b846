#pragma once
/// @file
/// code_aster's shock statistics and Archard wear power per shock point, accumulated while a run
/// goes (docs/outputs.md "wear.csv", docs/laws.md "dis_choc").
///
/// A shock point is a pair of shapes whose contact law's normal part is `dis_choc` (the only
/// compliant law of the tube–support kind; the nonsmooth formulation cannot run it). It is
/// identified by its two shapes (global indices, the lower first, with their bodies), which stay
/// the same for the whole run whatever the narrowphase's point order; the points of one shape pair
/// (a capsule lying on a box gives two) are one shock point: F_n = Σ N_k, F_t = ‖Σ_k (F_t1 t1 +
/// F_t2 t2)‖ (world), and the wear integrand Σ_k |N_k| ‖v_t,k‖ (its slip speed is the
/// force-weighted mean Σ_k |N_k| ‖v_t,k‖ / Σ_k |N_k|; the largest ‖v_t,k‖ when no force).
///
/// The statistics are those of code_aster's POST_DYNA_MODAL_T, CHOC=_F(OPTION='USURE')
/// (routine statch and its helpers fstat0, compt and statpu), over the archived samples t_1..t_N
/// (here: the initial state and the end of every step, every `time.step`), with one block
/// (NB_BLOC = 1), force threshold SEUIL_FORCE = `force_threshold` and rest duration DUREE_REPOS =
/// `rest_duration` (both 0 by default, as in code_aster):
///   - contact sample: F_n > SEUIL_FORCE (code_aster: |F_n| > SEUIL_FORCE);
///   - means and RMS (fstat0): MOYEN_T_TOTAL = Σ F / N, MOYEN_T_CHOC = Σ F / N_c (N_c contact
///     samples), RMS_T_TOTAL = √(Σ F² / N), RMS_T_CHOC = √(Σ F² / N_c), MAXI = max F; the sums over
///     contact samples only. The same for ‖F_t‖ (code_aster gives mean, standard deviation, RMS,
///     max and min of each of F_t1, F_t2 over all samples, in its fixed local frame; the frame of a
///     3-D contact turns here, so the norm is reported, with the total/contact split of F_n);
///   - a rebound (compt): a run of contact samples, from its first contact sample i0 to the first
///     free sample i1 after it, of duration t_i1 − t_i0; a shock: rebounds whose free gaps last at
///     most n_r = max(1, round(DUREE_REPOS/Δt)) samples (a gap always ends the shock when n_r = 1,
///     so with DUREE_REPOS = 0 every rebound is a shock), of duration from its first rebound's
///     start to its last rebound's end. A rebound still in contact at the end of the run is not
///     counted (as compt);
///   - NB_CHOC_S = shocks / T_acq, NB_REBON_CHOC = rebounds / shocks (code_aster truncates both to
///     integers; here they are reals), T_CHOC_MOYEN/MAXI/MINI of the shock durations,
///     T_REBON_MOYEN the mean rebound duration, %_T_CHOC = 100 Σ shock durations / T_acq, with
///     code_aster's acquisition time T_acq = N Δt, Δt the mean sample interval (t_N − t_1)/(N − 1);
///   - PUIS_USURE (statpu): the trapezoid of |F_n| ‖v_t‖ over the intervals that start at a
///     slipping sample, divided by t_N − t_1 (wear_increment(), coulomb/laws/dis_choc.hpp).
/// Added here (not in statch): the mean impulse of a rebound [N s], the trapezoid of F_n over the
/// intervals with a contact sample at either end, per counted rebound.
///
/// Sampling: a rebound's duration is measured between samples (code_aster's definition), so it is
/// exact to within one sample interval; the compliant integrator's own onset and release times
/// are not used.

#include <coulomb/compliant/system.hpp>
#include <coulomb/laws/dis_choc.hpp>
#include <coulomb/model/model.hpp>

#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

namespace coulomb {

/// True when the model runs in the compliant formulation and one of its contacts (or its default
/// contact) has the normal law `dis_choc`: its runs accumulate shock statistics and write wear.csv
/// (with a row for each shock point met; none when no such pair ever came within the margin).
[[nodiscard]] bool has_shock_points(const Model& model);

/// code_aster's POST_DYNA_MODAL_T settings of the statistics.
struct ShockSettings {
  double force_threshold = 0.0;  ///< SEUIL_FORCE [N]: a sample is in contact when F_n exceeds it
  double rest_duration = 0.0;    ///< DUREE_REPOS [s]: a free gap that short continues the shock
};

/// The statistics of one shock point over the run (see the file comment).
struct ShockPointStatistics {
  int body1 = -1, body2 = -1;        ///< bodies of the shapes
  int shape1 = -1, shape2 = -1;      ///< global shape indices, shape1 < shape2
  std::int64_t samples = 0;          ///< N: every sample of the run
  std::int64_t contact_samples = 0;  ///< N_c: samples with F_n > SEUIL_FORCE
  double fn_mean = 0.0, fn_mean_contact = 0.0, fn_rms = 0.0, fn_rms_contact = 0.0,
         fn_max = 0.0;  ///< [N]
  double ft_mean = 0.0, ft_mean_contact = 0.0, ft_rms = 0.0, ft_rms_contact = 0.0,
         ft_max = 0.0;              ///< ‖F_t‖ [N]
  std::int64_t shocks = 0;          ///< shocks (code_aster's "chocs globaux")
  std::int64_t rebounds = 0;        ///< rebounds (contact episodes, "rebonds")
  double shocks_per_second = 0.0;   ///< NB_CHOC_S [1/s]
  double rebounds_per_shock = 0.0;  ///< NB_REBON_CHOC [-]
  double shock_duration_mean = 0.0, shock_duration_max = 0.0,
         shock_duration_min = 0.0;     ///< T_CHOC_MOYEN, MAXI, MINI [s] (0 without shocks)
  double rebound_duration_mean = 0.0;  ///< T_REBON_MOYEN [s]
  double contact_time_percent = 0.0;   ///< %_T_CHOC [%]
  double impulse_mean = 0.0;           ///< mean ∫F_n dt of a rebound [N s]
  double wear_power = 0.0;             ///< PUIS_USURE, Archard's wear power [W]
  double duration = 0.0;               ///< t_N − t_1 [s]
};

/// The accumulator: one add() per archived sample, results() at any time.
class ShockStatistics {
 public:
  /// `time_step` [s] sets n_r = max(1, round(rest_duration/time_step)).
  explicit ShockStatistics(double time_step, ShockSettings settings = {});

  /// One sample at `time` [s] (increasing): the contacts of the compliant system there. Contacts
  /// whose normal law is not dis_choc are ignored; a known shock point absent from `contacts` is
  /// a free sample (F_n = 0).
  void add(double time, std::span<const CompliantContactResult> contacts);
  /// The statistics of every shock point met so far, in order of shape pair.
  [[nodiscard]] std::vector<ShockPointStatistics> results() const;
  /// Forgets every sample.
  void clear();

 private:
  struct Point {
    int body1 = -1, body2 = -1;
    std::int64_t first_sample = 0;  ///< the run's sample index where it was first met
    std::int64_t contact_samples = 0;
    double fn_sum = 0.0, fn_sq = 0.0, fn_max = 0.0;
    double ft_sum = 0.0, ft_sq = 0.0, ft_max = 0.0;
    WearSample last;        ///< the previous sample (zero before it was met)
    double wear_sum = 0.0;  ///< Σ wear_increment [J]
    bool in_contact = false;
    double rebound_start = 0.0, impulse = 0.0;  ///< of the rebound under way
    std::int64_t rebounds = 0;
    double rebound_time = 0.0, impulse_sum = 0.0;
    bool shock_pending = false;  ///< a shock whose last rebound ended at `release_*`
    double shock_start = 0.0, release_time = 0.0;
    std::int64_t release_sample = 0;
    std::int64_t shocks = 0;
    double shock_time = 0.0, shock_max = 0.0, shock_min = 0.0;
    int count = 0;  ///< its points in the current sample (0: a free sample)
    // This sample's sums over the shape pair's points.
    double fn = 0.0, wear_rate = 0.0, slip_max = 0.0;
    Vec3 ft = Vec3::Zero();
    bool slipping = false;
  };
  void close_shock(Point& p) const;
  void update(Point& p, double time);

  double time_step_ = 0.0;
  ShockSettings settings_;
  std::int64_t rest_samples_ = 1;  ///< n_r
  std::int64_t samples_ = 0;
  double first_time_ = 0.0, last_time_ = 0.0;
  std::map<std::pair<int, int>, Point> points_;
};

}  // namespace coulomb
