// The registry of validation cases. Each case loads its scene (scenes/validation/, embedded), steps
// it, and compares what it measures with a closed form, a published number or a peer's output
// (reference/contensou.md §3 numbers the closed-form cases). The cases live by topic:
// cases_friction.cpp (sliding, rolling, inclines), cases_impacts.cpp (bouncing ball, Painlevé's
// rod), cases_rigid.cpp (resting stacks, free rotation), cases_moments.cpp (Contensou, pivoting,
// rolling resistance, tippe top), cases_motion.cpp (general 3-D motion, orders of convergence).
//
// Adding a case: write a function `std::vector<Check> NAME(const CaseContext&)` in the file of its
// topic, declare it in cases_common.hpp and add one entry to the table in validation_cases().
#include "validate/cases_common.hpp"

#include <utility>

namespace coulomb::validate {

const std::vector<Case>& validation_cases() {
  static const std::vector<Case> cases = [] {
    std::vector<Case> all = {
        {"billiard",
         "Billiard ball struck without spin: slides, then rolls at 5 v0/7 (contensou.md §3.1)",
         "scenes/validation/billiard.yaml",
         [](const CaseContext& c) { return billiard("billiard.yaml", c); }},
        {"billiard-topspin",
         "Billiard ball with top spin w0 = 4/R: rolls at (5 v0 + 2 R w0)/7 = 9 v0/7",
         "scenes/validation/billiard-topspin.yaml",
         [](const CaseContext& c) { return billiard("billiard-topspin.yaml", c); }},
        {"billiard-backspin",
         "Billiard ball with back spin w0 = -30 rad/s: rolls at (5 v0 + 2 R w0)/7",
         "scenes/validation/billiard-backspin.yaml",
         [](const CaseContext& c) { return billiard("billiard-backspin.yaml", c); }},
        {"incline-stick",
         "Block on a 20 deg incline, mu = 0.5 > tan(alpha): it sticks (contensou.md §3.8)",
         "scenes/validation/incline-stick.yaml", incline_stick},
        {"incline-slide",
         "Block on a 30 deg incline, mu = 0.3 < tan(alpha): a = g (sin a - mu cos a)",
         "scenes/validation/incline-slide.yaml", incline_slide},
        {"bouncing-ball-siconos",
         "Bouncing ball, e = 0.9, against Siconos BouncingBallTS row by row",
         "scenes/validation/bouncing-ball-siconos.yaml", bouncing_ball_siconos},
        {"bouncing-ball-apex",
         "Bouncing ball, e = 0.9, default active-set rule: apexes shrink by e^2",
         "scenes/validation/bouncing-ball.yaml", bouncing_ball_apex},
        {"box-rest", "A unit cube resting on the ground stays put",
         "scenes/validation/box-rest.yaml",
         [](const CaseContext& c) { return resting("box-rest.yaml", c); }},
        {"box-stack", "A stack of five unit cubes stays put", "scenes/validation/box-stack.yaml",
         [](const CaseContext& c) { return resting("box-stack.yaml", c); }},
        {"dzhanibekov",
         "Free asymmetric body spun near its intermediate axis: invariants and flip period",
         "scenes/validation/dzhanibekov.yaml", dzhanibekov},
        {"contensou-table",
         "Exact Coulomb-Contensou resultants F(eps), m(eps) against the reference table", "-",
         contensou_table},
        {"pivoting-decay",
         "Ball spinning on the ground, pivoting |M_n| <= h N: w falls at 5 h g/(2 R^2), stops, "
         "stays",
         "scenes/validation/pivoting-decay.yaml", pivoting_decay},
        {"contensou-decay-hertz",
         "Ball spinning on a Hertz Contensou patch (ellipsoid and exact): (15 pi/32) mu g a/R^2",
         "scenes/validation/contensou-decay-hertz.yaml",
         [](const CaseContext& c) { return contensou_decay("contensou-decay-hertz.yaml", c); }},
        {"contensou-decay-uniform",
         "Ball spinning on a uniform Contensou patch (exact): (5/3) mu g a/R^2",
         "scenes/validation/contensou-decay-uniform.yaml",
         [](const CaseContext& c) { return contensou_decay("contensou-decay-uniform.yaml", c); }},
        {"rolling-resistance",
         "Ball rolling with ||M_t|| <= k N: decelerates at (5/7) g k/R, stops at 7 R v0/(5 g k), "
         "stays",
         "scenes/validation/rolling-resistance.yaml", rolling_resistance},
        {"sliding-spinning",
         "Ball sliding and spinning on a Hertz Contensou patch: the slip decays exponentially",
         "scenes/validation/sliding-spinning.yaml", sliding_spinning},
        {"contensou-disk",
         "Disk sliding and spinning flat: both stop in the same step, v/(a w) -> 0.653",
         "scenes/validation/contensou-disk.yaml", contensou_disk},
        {"incline-static-kinetic",
         "Block on an incline, mu_s = 0.5, mu_k = 0.3: exact threshold, kinetic sliding, stop and "
         "stick",
         "scenes/validation/incline-static-kinetic.yaml", incline_static_kinetic},
        {"tippe-top", "Tippe top (Leine & Glocker): inverts; inversion time converges in h",
         "scenes/validation/tippe-top.yaml", tippe_top},
        {"painleve-rod", "Painleve's rod, mu = 5/3: finite, mechanical energy never increases",
         "scenes/validation/painleve-rod.yaml", painleve_rod},
        {"box-stack-10", "A stack of ten unit cubes stays put",
         "scenes/validation/box-stack-10.yaml",
         [](const CaseContext& c) { return resting("box-stack-10.yaml", c); }},
    };
    for (Case& c : motion_cases()) all.push_back(std::move(c));
    for (Case& c : compliant_cases()) all.push_back(std::move(c));
    for (Case& c : joint_cases()) all.push_back(std::move(c));
    // Driven bodies, springs and dampers (issue 11): cases_driven.cpp.
    all.push_back(
        {"conveyor-belt",
         "Block thrown on a belt at V = (0.6, 0.8, 0): rides with it from |V - v0|/(mu g); "
         "dissipation 1/2 m |V - v0|^2, belt work m V.(V - v0)",
         "scenes/validation/conveyor-belt.yaml", conveyor_belt});
    all.push_back({"belt-sinusoid",
                   "Block on a belt of speed A w (1 - cos w t): stick-slip switches at the "
                   "closed-form instants",
                   "scenes/validation/belt-sinusoid.yaml", belt_sinusoid});
    all.push_back({"cone-turntable",
                   "Cone rolling on a turntable about its apex on the axis: no slip, generator at "
                   "nu = Omega - W tan(beta), pivoting 0, rolling W e_c, centre of pressure",
                   "scenes/validation/cone-turntable.yaml", cone_turntable});
    all.push_back({"vibrating-platform",
                   "Ball on a platform z = -A cos w t: lifts off at acos(-g/(A w^2))/w, keeps "
                   "bouncing",
                   "scenes/validation/vibrating-platform.yaml", vibrating_platform});
    all.push_back({"period-doubling",
                   "Ball on a platform A sin(w t + phi), e = 0.5: one impact a period at "
                   "acos(Gamma_1/Gamma) below Gamma_2 (exact map), a 2-cycle above",
                   "scenes/validation/period-doubling.yaml", period_doubling});
    all.push_back({"spring-mass",
                   "Body on a 3-D spring(-damper): position vs the closed form, second order in h",
                   "scenes/validation/spring-mass.yaml", spring_mass});
    all.push_back({"wear-power",
                   "code_aster DIS_CHOC wear check: constant F_n, slip V0 sin 2 pi f t on a driven "
                   "support, wear power F_n (2/pi) V0 within 0.5 %",
                   "scenes/validation/wear-power.yaml", wear_power_check});
    all.push_back({"dis-choc-impact",
                   "One impact on DIS_CHOC's spring: code_aster's statistics (one shock, duration "
                   "pi sqrt(m/K_n), peak v sqrt(K_n m), impulse 2 m v) from wear.csv's accumulator",
                   "scenes/validation/dis-choc-impact.yaml", dis_choc_impact});
    all.push_back({"dis-choc-periodic",
                   "Support driven against a ball through DIS_CHOC: one shock a period, shock "
                   "duration, % time in contact, largest and mean force against closed forms",
                   "scenes/validation/dis-choc-periodic.yaml", dis_choc_periodic});
    all.push_back({"tube-support",
                   "code_aster's tube-support case: tube on springs from a driven base hits a "
                   "support bar (DIS_CHOC, friction); statistics reported, energy audit closes",
                   "scenes/validation/tube-support.yaml", tube_support});
    // Rolling without slipping (issue 11): cases_no_slip.cpp.
    for (Case& c : no_slip_cases()) all.push_back(std::move(c));
    return all;
  }();
  return cases;
}

}  // namespace coulomb::validate
