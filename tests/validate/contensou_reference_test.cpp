// The independent reference of the Kudra et al. cases (src/validate/contensou_reference.hpp): its
// quadrature of the integral model against the table of reference/contensou.md §1, its directions
// and symmetries, and its rigid body against the closed-form spin decay of a ball on a Hertz patch.
#include "validate/contensou_reference.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace coulomb::validate::reference {
namespace {

TEST(ContensouReference, QuadratureReproducesTheReferenceTable) {
  // reference/contensou.md §1, Hertz columns (12 digits; 10 at ε = 10).
  const double table[7][3] = {{0, 0, 0.589048622548},
                              {0.25, 0.289922368910, 0.553095947832},
                              {0.5, 0.552233083639, 0.455592294002},
                              {1, 0.883572933822, 0.220893233456},
                              {2, 0.974278579257, 0.101909332919},
                              {4, 0.993707402084, 0.0502267870948},
                              {10, 0.9989989256, 0.02001432156}};
  for (const auto& row : table) {
    const std::array<double, 2> fm = hertz_table(row[0]);
    // 1e-9: the table's last digit; ε = 1 (P on the edge) converges slowest.
    EXPECT_NEAR(fm[0], row[1], 1e-9) << "eps " << row[0];
    EXPECT_NEAR(fm[1], row[2], 1e-9) << "eps " << row[0];
  }
}

TEST(ContensouReference, DirectionsAndSymmetries) {
  // T along v, M with the sign of ω; pure sliding T = v̂; both scale with a as the model says.
  const PatchResultants r = hertz_patch({0.3, -0.4}, -2.0, 0.2);
  EXPECT_NEAR(r.t[0] * -0.4 - r.t[1] * 0.3, 0.0, 1e-12);  // parallel
  EXPECT_GT(r.t[0] * 0.3 + r.t[1] * -0.4, 0.0);
  EXPECT_LT(r.m, 0.0);
  const PatchResultants s = hertz_patch({0.3, -0.4}, -4.0, 0.1);  // same ε, half the patch
  EXPECT_NEAR(s.t[0], r.t[0], 1e-10);
  EXPECT_NEAR(s.m, 0.5 * r.m, 1e-10);
  const PatchResultants slide = hertz_patch({0.0, 2.0}, 0.0, 0.01);
  EXPECT_EQ(slide.t[1], 1.0);
  EXPECT_EQ(slide.m, 0.0);
}

TEST(ContensouReference, EllipseAgainstBruteForceAndItsLimits) {
  // An ellipse of semi-axes 2 and 1: the scaled-coordinate rule against a brute-force midpoint
  // rule on a fine polar grid about the centre (4e6 cells: ~1e-5), and its symmetries: a slip
  // along an axis gives a force along it; swapping the axes swaps the components.
  const double A = 2.0, B = 1.0;
  for (const auto& [v, w] : {std::pair<std::array<double, 2>, double>{{0.7, -0.4}, 0.9},
                             {{0.2, 0.1}, -1.3},
                             {{3.0, 1.0}, 0.5}}) {
    const PatchResultants r = hertz_patch(v, w, A, B);
    double tx = 0.0, ty = 0.0, m = 0.0;
    const int nr = 2000, nt = 2000;
    for (int i = 0; i < nr; ++i) {
      for (int j = 0; j < nt; ++j) {
        const double rr = (i + 0.5) / nr, th = 2.0 * M_PI * (j + 0.5) / nt;
        const double x = A * rr * std::cos(th), y = B * rr * std::sin(th);
        const double sigma = 3.0 / (2.0 * M_PI * A * B) * std::sqrt(1.0 - rr * rr);
        const double ux = v[0] - w * y, uy = v[1] + w * x, un = std::hypot(ux, uy);
        const double dA = A * B * rr / nr * 2.0 * M_PI / nt;
        tx += sigma * ux / un * dA;
        ty += sigma * uy / un * dA;
        m += sigma * (x * uy - y * ux) / un * dA;
      }
    }
    EXPECT_NEAR(r.t[0], tx, 1e-4);
    EXPECT_NEAR(r.t[1], ty, 1e-4);
    EXPECT_NEAR(r.m, m, 1e-4);
  }
  const PatchResultants along = hertz_patch({0.5, 0.0}, 0.0, A, B);
  EXPECT_EQ(along.t[1], 0.0);
  const PatchResultants a = hertz_patch({0.3, 0.2}, 0.7, A, B);
  const PatchResultants b = hertz_patch({0.2, -0.3}, 0.7, B, A);  // rotated by 90°
  EXPECT_NEAR(a.t[0], -b.t[1], 1e-12);
  EXPECT_NEAR(a.t[1], b.t[0], 1e-12);
  EXPECT_NEAR(a.m, b.m, 1e-12);
}

TEST(ContensouReference, BallSpinsDownAtTheClosedFormRate) {
  // A ball spinning in place on a Hertz patch: dω/dt = −(15π/32) μ g a/R² (contensou.md §3.2)
  // while aω ≫ v_r, with a from N = m g (the penetration at rest).
  EllipsoidOnPlane p;
  const double R = 0.02, m = 0.3;
  p.semi_axes = Vec3::Constant(R);
  p.mass = m;
  p.inertia = Vec3::Constant(0.4 * m * R * R);
  p.stiffness = 1e9;
  p.damping = 5.0;
  p.e_star = 1e7;
  const double delta = std::pow(m * 9.81 / p.stiffness, 2.0 / 3.0);
  BodyState s;
  s.x = Vec3(0, 0, R - delta);
  s.w = Vec3(0, 0, 30.0);
  std::vector<double> w;
  integrate(p, s, 0.2, 1e-5, 1000, [&](const BodyState& b) { w.push_back(b.w.z()); });
  const double a = std::cbrt(3.0 * m * 9.81 * R / (4.0 * p.e_star));
  const double rate = 15.0 * M_PI / 32.0 * p.mu * 9.81 * a / (R * R);
  // Over the last 0.1 s (any start-up vibration gone): 1e-5 of the rate (the lever arm R − δ/2
  // and the normal force's tiny oscillation).
  ASSERT_EQ(w.size(), 21u);  // every 10 ms
  EXPECT_NEAR((w[10] - w[20]) / 0.1, rate, 1e-4 * rate);
  EXPECT_NEAR(s.x.x(), 0.0, 1e-12);
}

}  // namespace
}  // namespace coulomb::validate::reference
