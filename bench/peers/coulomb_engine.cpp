// coulomb as an engine of the peer benchmark: `step(model, state, ws)` with the model's defaults
// (exact Signorini + Coulomb cone solved to 1e-10), or NSGS capped at 10 sweeps a step, which
// does the same amount of solver work per step as Bullet's 10 iterations and so shows the cost
// of one sweep.
#include <coulomb/world/world.hpp>

#include <fmt/format.h>

#include <algorithm>

#include "peers/engine.hpp"

namespace coulomb::bench {
namespace {

class CoulombEngine final : public Engine {
 public:
  CoulombEngine(const Scene& scene, bool nsgs10, bool sleep)
      : model_(scene.model), state_(scene.state) {
    // Sleeping islands at their default thresholds (docs/nonsmooth.md).
    model_.solver.sleep.enabled = sleep;
    // The sweep-capped variant (budget mode): plain NSGS, 10 sweeps a step at most over all its
    // solves, as Bullet's 10 iterations, same tolerance.
    if (nsgs10) {
      model_.solver.kind = SolverKind::nsgs;
      model_.solver.max_iterations = 10;
      model_.solver.max_step_iterations = 10;
    }
    model_.finalize();
    prepare(model_, ws_);
  }

  bool step() override {
    // One step; a non-finite state ends the run, an unconverged solve is counted.
    const StepReport& r = step_report_ = coulomb::step(model_, state_, ws_);
    if (!r.finite) {
      failure_ = non_finite_message(model_, state_, r);
      return false;
    }
    ++steps_;
    provisional_iterations_ += r.provisional_iterations;
    deepest_predicted_ = std::max(deepest_predicted_, r.penetration);
    deepest_left_ = std::max(deepest_left_, r.penetration_left);
    if (r.unclosed > 0.0) ++unclosed_steps_;
    if (r.left_out > 0) {
      ++left_out_steps_;
      deepest_left_out_ = std::max(deepest_left_out_, r.left_out_overlap);
    }
    if (r.active_contacts > 0 && r.solver.status != SolverStatus::converged) {
      ++unconverged_;
      worst_error_ = std::max(worst_error_, r.solver.error);
    }
    return true;
  }

  [[nodiscard]] int iterations() const override { return step_report_.solver.iterations; }

  void read(State& out) const override {
    out.x_WC = state_.x_WC;
    out.q_WB = state_.q_WB;
    out.v_WC = state_.v_WC;
    out.w_W = state_.w_W;
  }

  [[nodiscard]] std::string failure() const override { return failure_; }

  [[nodiscard]] std::string notes() const override {
    // Unconverged solves, and what the position stage saw of its own contacts.
    std::string out;
    if (unconverged_ > 0)
      out =
          fmt::format("{} steps not converged (worst error {:.1e}); ", unconverged_, worst_error_);
    // The sweeps of the activation passes' provisional solves (StepReport::provisional_iterations),
    // included in the sweeps a step of the table.
    if (provisional_iterations_ > 0)
      out +=
          fmt::format("{:.0f} of the sweeps a step in provisional solves; ",
                      static_cast<double>(provisional_iterations_) / static_cast<double>(steps_));
    // Points the impulses close that the activation passes left out (StepReport::left_out).
    if (left_out_steps_ > 0)
      out += fmt::format("{} steps with points left out (deepest predicted overlap {:.1e} m); ",
                         left_out_steps_, deepest_left_out_);
    out += fmt::format("position stage: deepest predicted penetration {:.1e} m, left {:.1e} m",
                       deepest_predicted_, deepest_left_);
    // Steps whose position stage left overlaps above its tolerance (StepReport::unclosed).
    if (unclosed_steps_ > 0)
      out += fmt::format(" (above its tolerance {:.0e} m in {} steps)",
                         model_.solver.position_tolerance, unclosed_steps_);
    return out;
  }

 private:
  Model model_;
  State state_;
  Workspace ws_;
  StepReport step_report_;
  std::string failure_;
  long steps_ = 0;                   // steps taken
  long provisional_iterations_ = 0;  // StepReport::provisional_iterations, summed over the run
  long unconverged_ = 0;             // steps whose solve stopped above the tolerance
  double worst_error_ = 0.0;         // their largest error [-]
  double deepest_predicted_ = 0.0;   // StepReport::penetration, largest over the run [m]
  double deepest_left_ = 0.0;        // StepReport::penetration_left, largest over the run [m]
  long left_out_steps_ = 0;          // steps with StepReport::left_out > 0
  double deepest_left_out_ = 0.0;    // StepReport::left_out_overlap, largest over the run [m]
  long unclosed_steps_ = 0;          // steps with StepReport::unclosed > 0
};

}  // namespace

std::unique_ptr<Engine> make_coulomb_engine(const Scene& scene, bool nsgs10, bool sleep) {
  return std::make_unique<CoulombEngine>(scene, nsgs10, sleep);
}

}  // namespace coulomb::bench
