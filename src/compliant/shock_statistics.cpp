#include <coulomb/compliant/shock_statistics.hpp>

#include <algorithm>
#include <cmath>

namespace coulomb {

bool has_shock_points(const Model& model) {
  if (model.solver.formulation != Formulation::compliant) return false;
  auto dis_choc = [](const ContactSpec& c) { return c.normal.law == "dis_choc"; };
  return dis_choc(model.default_contact) ||
         std::any_of(model.contacts.begin(), model.contacts.end(), dis_choc);
}

ShockStatistics::ShockStatistics(double time_step, ShockSettings settings)
    : time_step_(time_step), settings_(settings) {
  // compt: nbpas = max(1, nint(DUREE_REPOS / Δt)).
  if (time_step > 0.0)
    rest_samples_ = std::max<std::int64_t>(1, std::llround(settings.rest_duration / time_step));
}

void ShockStatistics::clear() {
  points_.clear();
  samples_ = 0;
  first_time_ = last_time_ = 0.0;
}

// A shock ends at the end of its last rebound.
void ShockStatistics::close_shock(Point& p) const {
  const double d = p.release_time - p.shock_start;
  p.shock_time += d;
  p.shock_max = p.shocks == 0 ? d : std::max(p.shock_max, d);
  p.shock_min = p.shocks == 0 ? d : std::min(p.shock_min, d);
  ++p.shocks;
  p.shock_pending = false;
}

void ShockStatistics::add(double time, std::span<const CompliantContactResult> contacts) {
  for (auto& [key, p] : points_) {
    p.fn = p.wear_rate = p.slip_max = 0.0;
    p.ft.setZero();
    p.slipping = false;
    p.count = 0;
  }
  // This sample's sums over the points of each dis_choc shape pair.
  for (const CompliantContactResult& c : contacts) {
    if (c.laws == nullptr || c.laws->normal == nullptr || c.laws->normal->name() != "dis_choc")
      continue;
    int s1 = c.point.shape1, s2 = c.point.shape2, b1 = c.point.body1, b2 = c.point.body2;
    if (s1 > s2) {
      std::swap(s1, s2);
      std::swap(b1, b2);
    }
    auto [it, met] = points_.try_emplace({s1, s2});
    Point& p = it->second;
    if (met) {
      p.body1 = b1;
      p.body2 = b2;
      p.first_sample = samples_;
      p.last.time = samples_ > 0 ? last_time_ : time;  // a free sample before it was met
    }
    ++p.count;
    const double n = c.w(0);
    const double slip = c.u.segment<2>(1).norm();
    p.fn += n;
    p.ft += c.w(1) * c.point.t1_W + c.w(2) * c.point.t2_W;
    p.wear_rate += std::abs(n) * slip;
    p.slip_max = std::max(p.slip_max, slip);
    p.slipping = p.slipping || c.status == ContactStatus::sliding;
  }
  for (auto& [key, p] : points_) update(p, time);
  if (samples_ == 0) first_time_ = time;
  last_time_ = time;
  ++samples_;
}

void ShockStatistics::update(Point& p, double time) {
  const std::int64_t s = samples_;  // this sample's index
  const double fn = p.fn;
  const bool contact = fn > settings_.force_threshold;
  if (contact) {
    // fstat0: sums over the contact samples.
    const double ft = p.ft.norm();
    ++p.contact_samples;
    p.fn_sum += fn;
    p.fn_sq += fn * fn;
    p.fn_max = std::max(p.fn_max, fn);
    p.ft_sum += ft;
    p.ft_sq += ft * ft;
    p.ft_max = std::max(p.ft_max, ft);
  }
  // Archard: the interval from the previous sample (wear_increment, the one definition).
  WearSample now;
  now.time = time;
  now.normal_force = fn;
  // The force-weighted mean slip speed of the pair's points (a single point's own).
  now.slip_speed = p.count == 1 || fn == 0.0 ? p.slip_max : p.wear_rate / std::abs(fn);
  now.slipping = p.slipping;
  const double interval_impulse =
      s > 0 ? 0.5 * (fn + p.last.normal_force) * (time - p.last.time) : 0.0;
  if (s > 0) p.wear_sum += wear_increment(p.last, now);
  p.last = now;
  // compt: rebounds and shocks.
  if (contact && !p.in_contact) {
    // A rebound starts; it continues the shock when the free gap lasted at most n_r samples
    // (never when n_r = 1: compt looks ahead only when nbpas ≥ 2).
    const bool same_shock =
        p.shock_pending && rest_samples_ >= 2 && s - p.release_sample <= rest_samples_;
    if (!same_shock) {
      if (p.shock_pending) close_shock(p);
      p.shock_start = time;
    }
    p.shock_pending = false;
    p.rebound_start = time;
    p.impulse = 0.0;
  }
  if (contact || p.in_contact) p.impulse += interval_impulse;
  if (!contact && p.in_contact) {
    // The rebound ends at the first free sample.
    ++p.rebounds;
    p.rebound_time += time - p.rebound_start;
    p.impulse_sum += p.impulse;
    p.shock_pending = true;
    p.release_time = time;
    p.release_sample = s;
    if (rest_samples_ < 2) close_shock(p);
  }
  p.in_contact = contact;
}

std::vector<ShockPointStatistics> ShockStatistics::results() const {
  std::vector<ShockPointStatistics> out;
  const auto n = static_cast<double>(samples_);
  const double duration = last_time_ - first_time_;
  // code_aster's acquisition time N Δt, Δt the mean sample interval.
  const double dt = samples_ > 1 ? duration / (n - 1.0) : time_step_;
  const double acquisition = n * dt;
  for (const auto& [key, point] : points_) {
    Point p = point;
    if (p.shock_pending) close_shock(p);  // no contact follows before the end
    ShockPointStatistics r;
    r.body1 = p.body1;
    r.body2 = p.body2;
    r.shape1 = key.first;
    r.shape2 = key.second;
    r.samples = samples_;
    r.contact_samples = p.contact_samples;
    const auto nc = static_cast<double>(p.contact_samples);
    if (samples_ > 0) {
      r.fn_mean = p.fn_sum / n;
      r.fn_rms = std::sqrt(p.fn_sq / n);
      r.ft_mean = p.ft_sum / n;
      r.ft_rms = std::sqrt(p.ft_sq / n);
    }
    if (p.contact_samples > 0) {
      r.fn_mean_contact = p.fn_sum / nc;
      r.fn_rms_contact = std::sqrt(p.fn_sq / nc);
      r.ft_mean_contact = p.ft_sum / nc;
      r.ft_rms_contact = std::sqrt(p.ft_sq / nc);
    }
    r.fn_max = p.fn_max;
    r.ft_max = p.ft_max;
    r.shocks = p.shocks;
    r.rebounds = p.rebounds;
    if (acquisition > 0.0) {
      r.shocks_per_second = static_cast<double>(p.shocks) / acquisition;
      r.contact_time_percent = 100.0 * p.shock_time / acquisition;
    }
    if (p.shocks > 0) {
      r.rebounds_per_shock = static_cast<double>(p.rebounds) / static_cast<double>(p.shocks);
      r.shock_duration_mean = p.shock_time / static_cast<double>(p.shocks);
      r.shock_duration_max = p.shock_max;
      r.shock_duration_min = p.shock_min;
    }
    if (p.rebounds > 0) {
      r.rebound_duration_mean = p.rebound_time / static_cast<double>(p.rebounds);
      r.impulse_mean = p.impulse_sum / static_cast<double>(p.rebounds);
    }
    r.duration = duration;
    r.wear_power = duration > 0.0 ? p.wear_sum / duration : 0.0;
    out.push_back(r);
  }
  return out;
}

}  // namespace coulomb
