// The metric language over a run folder written here with known series: a body turning about x at
// a constant rate (its axis z·e_z = cos θ), moving along a line, and an energy column.
#include <gtest/gtest.h>

#include <cmath>
#include <coulomb/sweep/sweep.hpp>
#include <filesystem>
#include <fstream>
#include <numbers>

namespace coulomb::sweep {
namespace {

namespace fs = std::filesystem;

class Metrics : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(COULOMB_BINARY_DIR) / "sweep-metrics-test";
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream t(dir_ / "trajectory.csv");
    t.precision(17);
    t << "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
    std::ofstream e(dir_ / "energy.csv");
    e.precision(17);
    e << "time,kinetic,potential\n";
    // θ(t) = 1 rad/s · t for t = 0, 0.1, ..., 3: the body's z axis passes the horizontal at
    // θ = π/2, between the samples 1.5 and 1.6 s.
    for (int i = 0; i <= 30; ++i) {
      const double time = 0.1 * i;
      const double th = time;
      t << time << ",table,0,0,0,1,0,0,0,0,0,0,0,0,0\n";
      t << time << ",top," << 2 * time << ",0," << 1 - time << "," << std::cos(th / 2) << ","
        << std::sin(th / 2) << ",0,0,3,4,0,1,0,0\n";
      e << time << "," << 10 - time << ",0\n";
    }
    std::ofstream s(dir_ / "summary.json");
    s << R"({"position_stage": {"deepest_penetration": 2.5e-9}, "finite": true})";
  }
  double eval(const std::string& e) { return evaluate_metric(e, dir_.string()); }
  fs::path dir_;
};

TEST_F(Metrics, ReductionsAndArithmetic) {
  EXPECT_DOUBLE_EQ(eval("final(top.x)"), 6.0);
  EXPECT_DOUBLE_EQ(eval("initial(top.z)"), 1.0);
  EXPECT_DOUBLE_EQ(eval("min(top.z)"), -2.0);
  EXPECT_DOUBLE_EQ(eval("max(-top.z) * 2 + 1"), 5.0);
  EXPECT_DOUBLE_EQ(eval("final(top.speed)"), 5.0);  // |(3, 4, 0)|
  EXPECT_DOUBLE_EQ(eval("final(top.spin)"), 1.0);
  EXPECT_NEAR(eval("mean(t)"), 1.5, 1e-15);  // the mean of 0, 0.1, ..., 3
  EXPECT_DOUBLE_EQ(eval("final(energy.kinetic) - initial(energy.kinetic)"), -3.0);
  EXPECT_DOUBLE_EQ(eval("summary.position_stage.deepest_penetration"), 2.5e-9);
  EXPECT_DOUBLE_EQ(eval("summary.finite"), 1.0);
  EXPECT_DOUBLE_EQ(eval("sqrt(abs(-16))"), 4.0);
}

TEST_F(Metrics, AxisFromTheQuaternionAndFirstTimes) {
  // axis_z = cos θ, axis_y = −sin θ (a rotation about +x turns e_z towards −y), axis_x = 0.
  EXPECT_NEAR(eval("final(top.axis_z)"), std::cos(3.0), 1e-15);
  EXPECT_NEAR(eval("final(top.axis_y)"), -std::sin(3.0), 1e-15);
  EXPECT_NEAR(eval("max(abs(top.axis_x))"), 0.0, 1e-15);
  // The first sample past θ = π/2 (1.5708 s): 1.6 s; never: NaN; the last sample where it holds.
  EXPECT_DOUBLE_EQ(eval("first_time(top.axis_z < 0)"), 1.6);
  EXPECT_DOUBLE_EQ(eval("last_time(top.axis_z >= 0)"), 1.5);
  EXPECT_TRUE(std::isnan(eval("first_time(top.z > 5)")));
}

TEST_F(Metrics, ErrorsSayWhatIsWrong) {
  for (const char* bad : {"final(top.x", "top.x + ", "foo(top.x)", "top.height", "top", "1 +* 2"})
    EXPECT_THROW((void)parse_metric(std::string("m=") + bad), std::invalid_argument) << bad;
  EXPECT_THROW((void)parse_metric("m-1=final(t)"), std::invalid_argument);
  EXPECT_THROW((void)eval("top.x"), std::invalid_argument);         // a series, not a number
  EXPECT_THROW((void)eval("final(lid.x)"), std::invalid_argument);  // no such body
  EXPECT_THROW((void)eval("final(energy.heat)"), std::invalid_argument);
  EXPECT_THROW((void)eval("summary.solver.worst"), std::invalid_argument);
  EXPECT_THROW((void)eval("final(3)"), std::invalid_argument);
}

}  // namespace
}  // namespace coulomb::sweep
