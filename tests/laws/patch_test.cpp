// Tests of Coulomb's law integrated over planar patches: the brake-pad closed form (seed textbook
// example 10.3.16, reference/contensou.md §3.12), square-patch closed forms and the Contensou
// closed forms for a disk.
#include <coulomb/laws/contensou.hpp>
#include <coulomb/laws/patch.hpp>

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include <cmath>
#include <numbers>
#include <vector>

namespace coulomb::patch {
namespace {

constexpr double kPi = std::numbers::pi;

// Brake pad: a disk (body 2) spins at ω e_z about O; a fixed pad (body 1) presses on it from above
// with uniform pressure p over the sector R1 ≤ r ≤ R2, |φ| ≤ θ (centred on e_x). Textbook result,
// action of the pad on the disk, about O (derived again in docs/contensou.md for ω > 0):
//   R = −(p/2)(R2² − R1²)(2θ e_z + 2μ sin θ e_y),  M_O = −(p/3)(R2³ − R1³)(2μθ e_z − 2 sin θ e_y).
// In the contact frame of DESIGN.md: n = −e_z (pad → disk), t1 = e_x, t2 = −e_y; patch
// coordinates (x, −y); relative spin ω_n = ω e_z·n = −ω; slip at O zero. Spinning the other way
// reverses the friction terms (the textbook states ω > 0).
struct PadCase {
  double R1, R2, theta, mu, p, omega;
};

TEST(Patch, BrakePadClosedForm) {
  const PatchQuadrature q;
  for (const PadCase& c :
       {PadCase{0.10, 0.15, 0.4, 0.35, 2e5, 80.0}, PadCase{0.05, 0.12, 1.0, 0.5, 1e6, 10.0},
        PadCase{0.0, 0.2, kPi / 2, 0.2, 3e4, 1.0}, PadCase{0.08, 0.09, 0.05, 0.8, 5e5, 300.0},
        PadCase{0.12, 0.2, 2.5, 0.4, 1e5, -20.0}, PadCase{0.02, 0.2, kPi, 0.6, 1e5, 5.0}}) {
    const AnnularSector s = AnnularSector::make(c.R1, c.R2, -c.theta, c.theta);
    const RigidSlip slip{Vec2::Zero(), -c.omega};
    const Wrench w = q.sector(
        s, [&](double, double) { return c.p; }, slip, c.mu);
    // Back to world components: e_x, e_y, e_z.
    const Vec3 R(w.force.x(), -w.force.y(), -w.force.z());
    const Vec3 M(w.moment.x(), -w.moment.y(), -w.moment.z());
    const double sg = c.omega > 0.0 ? 1.0 : -1.0;
    const double a2 = c.R2 * c.R2 - c.R1 * c.R1, a3 = c.R2 * c.R2 * c.R2 - c.R1 * c.R1 * c.R1;
    const Vec3 R_ref =
        -(c.p / 2.0) * a2 * Vec3(0.0, sg * 2.0 * c.mu * std::sin(c.theta), 2.0 * c.theta);
    const Vec3 M_ref =
        -(c.p / 3.0) * a3 * Vec3(0.0, -2.0 * std::sin(c.theta), sg * 2.0 * c.mu * c.theta);
    // 1e-10 relative to the magnitude of each resultant (components that vanish are compared
    // with the same absolute scale).
    EXPECT_NEAR((R - R_ref).norm(), 0.0, 1e-10 * R_ref.norm())
        << R.transpose() << " / " << R_ref.transpose();
    EXPECT_NEAR((M - M_ref).norm(), 0.0, 1e-10 * M_ref.norm())
        << M.transpose() << " / " << M_ref.transpose();
    // Power: μ p ∬ |ω| r dA = μ p |ω| θ (2/3)(R2³ − R1³), and −M_n ω_n = power (no sliding at O).
    EXPECT_NEAR(w.power, c.mu * c.p * std::abs(c.omega) * c.theta * 2.0 / 3.0 * a3,
                1e-10 * w.power);
    EXPECT_NEAR(w.power, -w.moment.z() * slip.omega, 1e-10 * w.power);
  }
}

// A pad rotated to angle β about O: R and M rotate with it (checks the sector angles).
TEST(Patch, BrakePadRotated) {
  const PatchQuadrature q;
  const double R1 = 0.1, R2 = 0.16, th = 0.6, mu = 0.4, p = 1e5, beta = 2.2;
  const Wrench w0 = q.sector(
      AnnularSector::make(R1, R2, -th, th), [&](double, double) { return p; },
      RigidSlip{Vec2::Zero(), 7.0}, mu);
  const Wrench w1 = q.sector(
      AnnularSector::make(R1, R2, beta - th, beta + th), [&](double, double) { return p; },
      RigidSlip{Vec2::Zero(), 7.0}, mu);
  const Eigen::Matrix3d Rz = Eigen::AngleAxisd(beta, Vec3::UnitZ()).toRotationMatrix();
  EXPECT_NEAR((w1.force - Rz * w0.force).norm(), 0.0, 1e-10 * w0.force.norm());
  EXPECT_NEAR((w1.moment - Rz * w0.moment).norm(), 0.0, 1e-10 * w0.moment.norm());
}

// Square [−L, L]², uniform pressure. Translation: R = (−μ N v̂, N), M_O = 0 (centred).
// Pure spin about the centre: M_n = −μ p L³ (4/3)(√2 + asinh 1) sign ω (∬ r dA over the square).
TEST(Patch, SquareClosedForms) {
  const PatchQuadrature q;
  const double L = 0.03, p = 2e5, mu = 0.3;
  const std::vector<Vec2> sq = {Vec2(-L, -L), Vec2(L, -L), Vec2(L, L), Vec2(-L, L)};
  ASSERT_TRUE(is_convex_ccw(sq));
  const auto press = [&](double, double) { return p; };
  const double N = p * 4 * L * L;
  const Wrench t = q.polygon(sq, press, RigidSlip{Vec2(0.6, 0.8), 0.0}, mu);
  EXPECT_NEAR((t.force - Vec3(-mu * N * 0.6, -mu * N * 0.8, N)).norm(), 0.0, 1e-12 * N);
  EXPECT_NEAR(t.moment.norm(), 0.0, 1e-12 * N * L);
  for (double w : {5.0, -5.0}) {
    const Wrench s = q.polygon(sq, press, RigidSlip{Vec2::Zero(), w}, mu);
    const double ref = -mu * p * L * L * L * (4.0 / 3.0) * (std::sqrt(2.0) + std::asinh(1.0));
    EXPECT_NEAR(s.moment.z(), w > 0 ? ref : -ref, 1e-12 * std::abs(ref));
    EXPECT_NEAR(s.force.head<2>().norm(), 0.0, 1e-12 * N);
  }
  // Off-centre spin: the instantaneous centre C = (0.01, −0.02) is inside; fan from C. Reference:
  // ∬ p u/|u| over the square split into four rectangles with corner C, each of which is the
  // integral over a rectangle with a corner at the singular point (closed form through
  // ∫∫ (−y, x)/r over [0,a]×[0,b]).
  const Vec2 C(0.01, -0.02);
  const double w = 3.0;
  const RigidSlip off{Vec2(w * C.y(), -w * C.x()), w};  // u(C) = v0 + ω n × C = 0
  const Wrench o = q.polygon(sq, press, off, mu);
  // G(a, b) = ∫0^a ∫0^b x/√(x² + y²) dy dx = ∫0^a x asinh(b/x) dx
  //         = (a²/2) asinh(b/a) + (b/2)(√(a² + b²) − b)   (differentiate to check).
  auto G = [](double a, double b) {
    return 0.5 * a * a * std::asinh(b / a) + 0.5 * b * (std::hypot(a, b) - b);
  };
  // Rectangles around C: widths to the right/left, heights up/down.
  const double xr = L - C.x(), xl = L + C.x(), yu = L - C.y(), yd = L + C.y();
  // ∬ x_rel/r over the square (x_rel = x − C_x) = G(xr,yu)+G(xr,yd)−G(xl,yu)−G(xl,yd), and
  // ∬ y_rel/r likewise with roles swapped.
  const double Ix = G(xr, yu) + G(xr, yd) - G(xl, yu) - G(xl, yd);
  const double Iy = G(yu, xr) + G(yu, xl) - G(yd, xr) - G(yd, xl);
  // u/|u| = sign(ω) (−y_rel, x_rel)/r → friction = −μ p sign(ω) (−Iy, Ix).
  EXPECT_NEAR(o.force.x(), -mu * p * (-Iy), 1e-10 * mu * N);
  EXPECT_NEAR(o.force.y(), -mu * p * Ix, 1e-10 * mu * N);
}

// A disk as a full sector (r_inner = 0) against the Contensou closed forms (uniform pressure):
// pure spin (C at O: spectral, 1e-12) and slide + spin with C inside (the sector is split at C;
// the direction field still turns inside the panels next to C, so the convergence is algebraic:
// 64 × 64 nodes per panel give ~1e-7, tolerance 1e-6 relative).
TEST(Patch, DiskMatchesContensou) {
  const double a = 0.01, p = 1e5, mu = 0.5, N = p * kPi * a * a;
  const auto press = [&](double, double) { return p; };
  const AnnularSector disk = AnnularSector::make(0.0, a, 0.0, 2.0 * kPi);
  const PatchQuadrature q;
  const Wrench s = q.sector(disk, press, RigidSlip{Vec2::Zero(), 2.0}, mu);
  EXPECT_NEAR(s.moment.z(), -mu * N * a * 2.0 / 3.0, 1e-12 * mu * N * a);
  const PatchQuadrature fine(64, 64);
  for (double eps : {0.5, 2.0}) {
    const double w = 4.0;
    const Wrench r = fine.sector(disk, press, RigidSlip{Vec2(eps * a * w, 0.0), w}, mu);
    const contensou::Resultant ex = contensou::exact(eps, contensou::Pressure::uniform);
    const double tol = eps < 1.0 ? 1e-6 : 1e-10;  // C outside for ε = 2: spectral
    EXPECT_NEAR(r.force.x(), -mu * N * ex.F, tol * mu * N) << eps;
    EXPECT_NEAR(r.force.y(), 0.0, tol * mu * N) << eps;
    EXPECT_NEAR(r.moment.z(), -mu * N * a * ex.m, tol * mu * N * a) << eps;
  }
}

TEST(Patch, Validation) {
  EXPECT_THROW((void)AnnularSector::make(-1.0, 1.0, 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW((void)AnnularSector::make(1.0, 1.0, 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW((void)AnnularSector::make(0.0, 1.0, 1.0, 1.0), std::invalid_argument);
  EXPECT_THROW((void)AnnularSector::make(0.0, 1.0, 0.0, 7.0), std::invalid_argument);
  EXPECT_THROW(PatchQuadrature(1, 8), std::invalid_argument);
  const std::vector<Vec2> cw = {Vec2(0, 0), Vec2(0, 1), Vec2(1, 1), Vec2(1, 0)};
  EXPECT_FALSE(is_convex_ccw(cw));
  const std::vector<Vec2> dart = {Vec2(0, 0), Vec2(2, 0), Vec2(1, 0.2), Vec2(1, 2)};
  EXPECT_FALSE(is_convex_ccw(dart));
}

}  // namespace
}  // namespace coulomb::patch
