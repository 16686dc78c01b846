// The compliant formulation's driver (coulomb/compliant/engine.hpp): integration to sample times,
// events, restarts.
#include <coulomb/compliant/engine.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace coulomb {

namespace {

// Roots in a row at one time before the run is declared stuck (a Zeno cascade of events).
constexpr int kMaxRootsAtOneTime = 1000;

bool same_vectors(const auto& a, const auto& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace

const char* to_string(CompliantEvent::Kind kind) {
  switch (kind) {
    case CompliantEvent::Kind::onset:
      return "onset";
    case CompliantEvent::Kind::release:
      return "release";
    case CompliantEvent::Kind::stick:
      return "stick";
    case CompliantEvent::Kind::slip:
      return "slip";
  }
  return "?";
}

void CompliantEngine::record(double time, const ContactKey& key, CompliantEvent::Kind kind) {
  ++event_counts_[static_cast<std::size_t>(kind)];
  if (events_.size() < kMaxEvents) events_.push_back({time, key, kind});
}

CompliantEngine::CompliantEngine(const Model& model) : model_(model), laws_(model) {
  system_ = std::make_unique<CompliantSystem>(model_, laws_);
  integrator_ = std::make_unique<OdeIntegrator>(*system_);
  const CompliantSettings& s = model.solver.compliant;
  options_ = {s.integrator, s.rtol, s.atol, s.max_step, s.analytic_jacobian};
}

CompliantEngine::~CompliantEngine() = default;

const std::vector<CompliantContactResult>& CompliantEngine::contacts() const {
  return system_->contacts();
}

IntegratorStatistics CompliantEngine::statistics() const { return integrator_->statistics(); }

CompliantTimes CompliantEngine::times() const {
  return {system_->rhs_seconds(), system_->jacobian_seconds(), system_->roots_seconds(),
          total_seconds_};
}

void CompliantEngine::sample(State& state) {
  // A segment laid out at the state (its contacts evaluated); the integrator restarts from the
  // state at the next advance().
  system_->begin_segment(state, y_);
  state.compliant.elastic = system_->elastic_energy();
  started_ = false;
}

bool CompliantEngine::same_as_last(const State& s) const {
  const State& l = last_;
  if (s.time != l.time || !same_vectors(s.x_WC, l.x_WC) || !same_vectors(s.v_WC, l.v_WC) ||
      !same_vectors(s.w_W, l.w_W) || s.q_WB.size() != l.q_WB.size() ||
      s.dissipated_by_kind != l.dissipated_by_kind ||
      s.compliant.contacts.size() != l.compliant.contacts.size())
    return false;
  for (std::size_t i = 0; i < s.q_WB.size(); ++i)
    if (!s.q_WB[i].coeffs().isApprox(l.q_WB[i].coeffs(), 0.0)) return false;
  for (std::size_t i = 0; i < s.compliant.contacts.size(); ++i) {
    const CompliantContact& a = s.compliant.contacts[i];
    const CompliantContact& b = l.compliant.contacts[i];
    if (!(a.key == b.key) || a.anchor_force_W != b.anchor_force_W ||
        a.elongation_W != b.elongation_W)
      return false;
  }
  return true;
}

void CompliantEngine::remember(const State& s) {
  last_.time = s.time;
  last_.x_WC = s.x_WC;
  last_.q_WB = s.q_WB;
  last_.v_WC = s.v_WC;
  last_.w_W = s.w_W;
  last_.dissipated_by_kind = s.dissipated_by_kind;
  last_.compliant.contacts = s.compliant.contacts;
}

// (Re)starts the integrator at `state` after the roots `found` (empty: a fresh start): switches
// the hybrid laws, books the energy a released stick spring held, lays out the new segment.
void CompliantEngine::restart(State& state, std::span<const int> found) {
  CompliantSystem& sys = *system_;
  // The contacts at the restart state, in the segment that ends here (a fresh start lays one
  // out from the state), and which of its root functions crossed.
  const bool fresh = found.empty();
  if (fresh) sys.begin_segment(state, y_);
  std::vector<double> now(sys.root_directions().size());
  sys.roots(state.time, y_, now);
  const std::vector<CompliantContactResult>& results = sys.contacts();
  const std::vector<ContactKey>& listed = sys.listed();
  // Onsets and releases of the listed points; onsets of new points (the new-point root).
  if (!fresh) {
    for (std::size_t i = 0; i < listed.size(); ++i) {
      if (sys.crossed(sys.onset_root(i), found, now))
        record(state.time, listed[i], CompliantEvent::Kind::onset);
      if (sys.crossed(sys.release_root(i), found, now))
        record(state.time, listed[i], CompliantEvent::Kind::release);
    }
  }
  const bool new_point = !fresh && sys.crossed(sys.new_point_root(), found, now);
  std::vector<CompliantContact> sticks;
  double released = 0.0;
  for (const CompliantContactResult& r : results) {
    const ContactKey key{r.point.shape1, r.point.shape2, r.point.feature};
    const auto it = std::lower_bound(listed.begin(), listed.end(), key);
    const bool is_listed = !fresh && it != listed.end() && *it == key;
    const auto li = static_cast<std::size_t>(it - listed.begin());
    if (!is_listed && new_point && r.point.gap <= sys.hysteresis())
      record(state.time, key, CompliantEvent::Kind::onset);
    if (!r.hybrid) continue;
    // Its switching root crossed (the cap reached; the slip slowed to ε).
    const bool switched = is_listed && sys.crossed(sys.switching_root(li), found, now);
    const double n = r.w(0);
    const FrictionLaw& law = *r.laws->friction;
    if (r.stick >= 0) {
      // Sticking: it slips at its switching root or when the contact opens; its spring's energy
      // is then dissipated.
      if (switched || !(n > 0.0)) {
        released += r.stick_elastic;
        ++switches_;
        record(state.time, key, CompliantEvent::Kind::slip);
        continue;
      }
      CompliantContact kept = sys.sticks()[static_cast<std::size_t>(r.stick)];
      const std::size_t o = sys.stick_offset(r.stick);
      kept.elongation_W = Vec3(y_[o], y_[o + 1], y_[o + 2]);
      sticks.push_back(kept);
      continue;
    }
    // Slipping, closed: it sticks at its switching root (slowed to ε), or, a contact new to this
    // restart (an onset, a fresh start), where it is at most ε.
    if (!(n > 0.0)) continue;
    const bool onset = !is_listed || sys.crossed(sys.onset_root(li), found, now);
    const bool slow = onset && r.switching <= 0.0;
    if (!switched && !slow) continue;
    // F0 = F_slip + C v: the stick force at s = 0 (F0 − C v) equals the slip force.
    const Vec2 slip(r.u(1), r.u(2));
    FrictionMemory stick;
    stick.sticking = true;
    const Vec2 damping_part = law.evaluate({slip, n, Vec2::Zero(), true}, stick).force;  // −C v
    const Vec2 anchor = r.w.segment<2>(1) - damping_part;
    CompliantContact entry;
    entry.key = key;
    entry.anchor_force_W = anchor(0) * r.point.t1_W + anchor(1) * r.point.t2_W;
    sticks.push_back(entry);
    ++switches_;
    record(state.time, key, CompliantEvent::Kind::stick);
  }
  std::sort(sticks.begin(), sticks.end(),
            [](const CompliantContact& a, const CompliantContact& b) { return a.key < b.key; });
  sticks.erase(std::unique(sticks.begin(), sticks.end(),
                           [](const CompliantContact& a, const CompliantContact& b) {
                             return a.key == b.key;
                           }),
               sticks.end());
  state.compliant.contacts = std::move(sticks);
  state.dissipated_by_kind[static_cast<std::size_t>(EnergyKind::friction)] += released;
  state.dissipated += released;
  // The new segment and the integrator's restart.
  sys.begin_segment(state, y_);
  integrator_->start(options_, state.time, y_, sys.root_directions(), state.compliant.step_size);
  started_ = true;
}

bool CompliantEngine::advance(State& state, double t_end) {
  const auto t0 = std::chrono::steady_clock::now();
  error_.clear();
  if (!started_ || !same_as_last(state)) restart(state, {});
  double t = state.time;
  double last_root = -kInf;
  int roots_here = 0;
  bool ok = true;
  while (true) {
    const OdeIntegrator::Outcome outcome = integrator_->advance(t_end, y_, t);
    if (outcome == OdeIntegrator::Outcome::reached) break;
    if (outcome == OdeIntegrator::Outcome::failure) {
      error_ = fmt::format("the compliant integrator ({}) failed at t = {} s: {}",
                           to_string(options_.method), t, integrator_->error());
      ok = false;
      break;
    }
    // A root: the state there, the events, a restart.
    roots_here = t == last_root ? roots_here + 1 : 0;
    last_root = t;
    if (roots_here > kMaxRootsAtOneTime) {
      error_ = fmt::format("contact events accumulate at t = {} s (more than {} at one time)", t,
                           kMaxRootsAtOneTime);
      ok = false;
      break;
    }
    system_->unpack(y_, state);
    state.time = t;
    set_driven_state(model_, state, t);
    const std::vector<int> found(integrator_->roots_found().begin(),
                                 integrator_->roots_found().end());
    state.compliant.step_size = integrator_->statistics().last_step;
    restart(state, found);
  }
  system_->unpack(y_, state);
  if (ok) state.time = t_end;
  set_driven_state(model_, state, state.time);
  state.compliant.step_size = integrator_->statistics().last_step;
  // The contacts and stored energy at the state reached.
  system_->evaluate(state.time, y_, false);
  state.compliant.elastic = system_->elastic_energy();
  remember(state);
  total_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return ok;
}

}  // namespace coulomb
