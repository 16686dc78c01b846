/// Tests of contact kinematics: the seed textbook's examples rebuilt from their generalised
/// coordinates (disk on a plane, cone on a turntable, cylinder on a cylinder, 2-D wheel), compared
/// with the closed forms to round-off; Jacobian rows against the kinematics and against finite
/// differences of the gap. Frames and conventions: docs/kinematics.md.

#include <coulomb/contact/kinematics.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace coulomb {
namespace {

using Mat36 = Eigen::Matrix<double, 3, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

// A contact at I with normal n (body 1 → body 2) and gap g: p1, p2 straddle I along n.
ContactPoint make_contact(const Vec3& I, const Vec3& n, double gap = 0.0) {
  ContactPoint c;
  c.n_W = n.normalized();
  complete_frame(c.n_W, c.t1_W, c.t2_W);
  c.p1_W = I - 0.5 * gap * c.n_W;
  c.p2_W = I + 0.5 * gap * c.n_W;
  c.gap = gap;
  return c;
}

// Deterministic uniform numbers from a fixed-seed 64-bit Mersenne twister.
struct Rng {
  std::mt19937_64 g{7771u};
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(g() >> 11) * 0x1.0p-53;
  }
  Vec3 vec(double lo, double hi) { return {uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)}; }
};

// vee of a skew matrix: the ω with skew(ω) = S (antisymmetric part used).
Vec3 vee(const Mat3& S) {
  return 0.5 * Vec3(S(2, 1) - S(1, 2), S(0, 2) - S(2, 0), S(1, 0) - S(0, 1));
}

// =============================================================================================
// (a) Disk of radius R on the plane z = 0, coordinates (x_I, y_I, ψ, θ, φ): ZXZ Euler angles.
//   x2 = (cos ψ, sin ψ, 0)  line of nodes (nutation axis), y2 = z0 × x2 (horizontal),
//   x3 = x2, y3 = cos θ y2 + sin θ z0, z3 = cos θ z0 − sin θ y2  (disk axis),
//   R_WB = Rz(ψ) Rx(θ) Rz(φ),  ω = ψ̇ z0 + θ̇ x2 + φ̇ z3,
//   lowest point of the rim I = (x_I, y_I, 0), centre G = I + R y3.
// Textbook: slip ẋ_I x0 + ẏ_I y0 + R φ̇ x3; pivoting ψ̇ + φ̇ cos θ; rolling θ̇ x2 − φ̇ sin θ y2.
// =============================================================================================
struct Disk {
  double R, xI, yI, psi, theta, phi;    // [m], [m], [m], [rad] ×3
  double dxI, dyI, dpsi, dtheta, dphi;  // rates
  Vec3 x2() const { return {std::cos(psi), std::sin(psi), 0.0}; }
  Vec3 y2() const { return {-std::sin(psi), std::cos(psi), 0.0}; }
  Vec3 y3() const { return std::cos(theta) * y2() + std::sin(theta) * Vec3::UnitZ(); }
  Vec3 z3() const { return std::cos(theta) * Vec3::UnitZ() - std::sin(theta) * y2(); }
  Mat3 rotation() const {
    return (Eigen::AngleAxisd(psi, Vec3::UnitZ()) * Eigen::AngleAxisd(theta, Vec3::UnitX()) *
            Eigen::AngleAxisd(phi, Vec3::UnitZ()))
        .toRotationMatrix();
  }
  Vec3 contact() const { return {xI, yI, 0.0}; }
  Vec3 centre() const { return contact() + R * y3(); }
  // dG/dt by the explicit partial derivatives of G(x_I, y_I, ψ, θ) = (x_I, y_I, 0)
  //   + R [sin θ z0 + cos θ (−sin ψ, cos ψ, 0)].
  Vec3 centre_velocity() const {
    const Vec3 dG_dpsi = R * std::cos(theta) * Vec3(-std::cos(psi), -std::sin(psi), 0.0);
    const Vec3 dG_dtheta = R * (std::cos(theta) * Vec3::UnitZ() - std::sin(theta) * y2());
    return Vec3(dxI, dyI, 0.0) + dpsi * dG_dpsi + dtheta * dG_dtheta;
  }
  Vec3 omega() const { return dpsi * Vec3::UnitZ() + dtheta * x2() + dphi * z3(); }
  // The state advanced by t along straight lines in coordinate space (for finite differences).
  Disk advanced(double t) const {
    Disk d = *this;
    d.xI += t * dxI;
    d.yI += t * dyI;
    d.psi += t * dpsi;
    d.theta += t * dtheta;
    d.phi += t * dphi;
    return d;
  }
};

Disk random_disk(Rng& rng) {
  return {rng.uniform(0.05, 0.5), rng.uniform(-1, 1), rng.uniform(-1, 1),  rng.uniform(-3, 3),
          rng.uniform(0.2, 2.9),  rng.uniform(-3, 3), rng.uniform(-2, 2),  rng.uniform(-2, 2),
          rng.uniform(-5, 5),     rng.uniform(-5, 5), rng.uniform(-20, 20)};
}

// The frame bookkeeping of the disk itself (independent of the code under test): the rotation
// carries the body axis to z3 and the node line to x3, the centre is at height R sin θ above I at
// distance R from it in the disk plane, and ω, v_G agree with finite differences of the pose.
TEST(DiskOnPlane, FramesAndRatesAreConsistent) {
  Rng rng;
  for (int trial = 0; trial < 20; ++trial) {
    const Disk d = random_disk(rng);
    const Mat3 Rm = d.rotation();
    EXPECT_LT((Rm.col(2) - d.z3()).norm(), 1e-15);
    const Mat3 R_nut =
        (Eigen::AngleAxisd(d.psi, Vec3::UnitZ()) * Eigen::AngleAxisd(d.theta, Vec3::UnitX()))
            .toRotationMatrix();
    EXPECT_LT((R_nut.col(0) - d.x2()).norm(), 1e-15);  // x3 = x2, the node line
    EXPECT_LT((R_nut.col(1) - d.y3()).norm(), 1e-15);
    EXPECT_NEAR(d.y2().z(), 0.0, 0.0);                                // y2 horizontal
    EXPECT_NEAR((d.centre() - d.contact()).dot(d.z3()), 0.0, 1e-15);  // I on the rim
    EXPECT_NEAR((d.centre() - d.contact()).norm(), d.R, 1e-15);
    EXPECT_NEAR(d.centre().z(), d.R * std::sin(d.theta), 1e-15);  // lowest point of the rim
    // Central differences, error O(δ²) ≈ 1e-10 relative.
    const double dt = 1e-5;
    const Mat3 Rdot = (d.advanced(dt).rotation() - d.advanced(-dt).rotation()) / (2 * dt);
    EXPECT_LT((vee(Rdot * Rm.transpose()) - d.omega()).norm(), 1e-8 * (1 + d.omega().norm()));
    const Vec3 vG = (d.advanced(dt).centre() - d.advanced(-dt).centre()) / (2 * dt);
    EXPECT_LT((vG - d.centre_velocity()).norm(), 1e-8 * (1 + vG.norm()));
  }
}

TEST(DiskOnPlane, SlipPivotingRollingMatchTextbook) {
  Rng rng;
  for (int trial = 0; trial < 200; ++trial) {
    const Disk d = random_disk(rng);
    // Plane = body 1 at rest (reference point anywhere), disk = body 2; n = z0 upwards.
    const ContactPoint c = make_contact(d.contact(), Vec3::UnitZ());
    const Vec3 x1(0.3, -0.7, -0.2), zero = Vec3::Zero();
    const ContactKinematics k =
        contact_kinematics(c, x1, zero, zero, d.centre(), d.centre_velocity(), d.omega());

    const Vec3 slip = d.dxI * Vec3::UnitX() + d.dyI * Vec3::UnitY() + d.R * d.dphi * d.x2();
    const double pivot = d.dpsi + d.dphi * std::cos(d.theta);
    const Vec3 roll = d.dtheta * d.x2() - d.dphi * std::sin(d.theta) * d.y2();
    // Round-off: a few ulps of the largest velocity in play (|R φ̇| ≤ 10 m/s, |φ̇| ≤ 20 rad/s).
    EXPECT_LT((k.v_W - slip).norm(), 1e-14 * 10) << "trial " << trial;
    EXPECT_NEAR(k.vn, 0.0, 1e-14 * 10);
    EXPECT_LT((k.vt_W - slip).norm(), 1e-14 * 10);
    EXPECT_NEAR(k.spin, pivot, 1e-14 * 20);
    EXPECT_LT((k.roll_W - roll).norm(), 1e-14 * 20);
    EXPECT_LT((k.omega_W - d.omega()).norm(), 1e-14 * 20);
    EXPECT_NEAR(k.vt1, slip.dot(c.t1_W), 1e-14 * 10);
    EXPECT_NEAR(k.vt2, slip.dot(c.t2_W), 1e-14 * 10);
    EXPECT_NEAR(k.roll1, roll.dot(c.t1_W), 1e-14 * 20);
    EXPECT_NEAR(k.roll2, roll.dot(c.t2_W), 1e-14 * 20);
    EXPECT_EQ(k.status, ContactStatus::sliding);
    EXPECT_TRUE(k.pivoting);
    EXPECT_TRUE(k.rolling);
  }
}

// Rolling without slipping (ẋ_I x0 + ẏ_I y0 = −R φ̇ x3) gives zero slip, status sticking; the
// relative quantities are unchanged when one rigid motion is superposed on both bodies.
TEST(DiskOnPlane, RollingWithoutSlipAndFrameInvariance) {
  Rng rng;
  for (int trial = 0; trial < 50; ++trial) {
    Disk d = random_disk(rng);
    const Vec3 vI = -d.R * d.dphi * d.x2();
    d.dxI = vI.x();
    d.dyI = vI.y();
    const ContactPoint c = make_contact(d.contact(), Vec3::UnitZ());
    const Vec3 x1 = Vec3::Zero(), zero = Vec3::Zero();
    const ContactKinematics k =
        contact_kinematics(c, x1, zero, zero, d.centre(), d.centre_velocity(), d.omega());
    EXPECT_LT(k.v_W.norm(), 1e-13);
    EXPECT_EQ(k.status, ContactStatus::sticking);

    // Superposed rigid velocity field u(x) = V + Ω × (x − O) on both bodies.
    const Vec3 V = rng.vec(-3, 3), W = rng.vec(-3, 3), O = rng.vec(-1, 1);
    const Vec3 x2 = d.centre();
    const ContactKinematics k2 =
        contact_kinematics(c, x1, V + W.cross(x1 - O), W, x2,
                           d.centre_velocity() + V + W.cross(x2 - O), d.omega() + W);
    EXPECT_LT((k2.v_W - k.v_W).norm(), 1e-13);
    EXPECT_LT((k2.omega_W - k.omega_W).norm(), 1e-13);
  }
}

// =============================================================================================
// (b) Cone on a turntable. Turntable (body 1): plane z = 0 turning at ω2 about the vertical axis
// through O. Cone (body 2): half-angle α, slant length L, apex S held on a fixed pivot at distance
// a from the turntable axis, S = O + a e (e horizontal); the cone lies on the turntable along
// the generator from S towards O and spins at ω1 about its axis directed from the base to the
// apex, u = cos α e − sin α z0 (so that at the contact line both surfaces move along z0 × e).
// Point of the contact line at distance λ from the turntable axis: P = O + λ e, λ ∈ [a − L, a].
//   v_{P∈cone} = ω1 sin α (a − λ) z0 × e,  v_{P∈table} = ω2 λ z0 × e,
//   slip = [ω1 sin α (a − λ) − ω2 λ] z0 × e = 0  ⇔  λ* = a ω1 sin α / (ω2 + ω1 sin α).
// =============================================================================================
TEST(ConeOnTurntable, SlipVanishesExactlyAtLambdaStar) {
  const double a = 0.3, alpha = 0.4, L = 0.5;  // [m], [rad], [m]
  const double w1 = 7.0, w2 = 3.0;             // cone spin, turntable rate [rad/s]
  const Vec3 z0 = Vec3::UnitZ();
  const Vec3 O(0.1, -0.2, 0.0);
  const Vec3 e(std::cos(0.8), std::sin(0.8), 0.0);
  const Vec3 S = O + a * e;
  const Vec3 u = std::cos(alpha) * e - std::sin(alpha) * z0;  // axis, base → apex

  // Turntable: reference point O, at rest translationally, turning at ω2.
  const Vec3 x1 = O, v1 = Vec3::Zero(), om1 = w2 * z0;
  // Cone: centre of mass on the axis at 3/4 of the height H = L cos α from the apex; apex fixed.
  const Vec3 om2 = w1 * u;
  const Vec3 x2 = S - 0.75 * L * std::cos(alpha) * u;
  const Vec3 v2 = om2.cross(x2 - S);

  const double lambda_star = a * w1 * std::sin(alpha) / (w2 + w1 * std::sin(alpha));
  ASSERT_GT(lambda_star, a - L);
  ASSERT_LT(lambda_star, a);
  for (int i = 0; i <= 20; ++i) {
    const double lambda = (a - L) + L * i / 20.0;
    const Vec3 P = O + lambda * e;
    // P lies on the cone: at axial distance s from the apex, at radius s tan α from the axis.
    const double s = -(P - S).dot(u);
    EXPECT_NEAR(((P - S) + s * u).norm(), s * std::tan(alpha), 1e-15);

    const ContactPoint c = make_contact(P, z0);
    const ContactKinematics k = contact_kinematics(c, x1, v1, om1, x2, v2, om2);
    const Vec3 slip = (w1 * std::sin(alpha) * (a - lambda) - w2 * lambda) * z0.cross(e);
    EXPECT_LT((k.v_W - slip).norm(), 1e-14) << "λ = " << lambda;
    EXPECT_NEAR(k.spin, -w1 * std::sin(alpha) - w2, 1e-14);
    EXPECT_LT((k.roll_W - w1 * std::cos(alpha) * e).norm(), 1e-14);
    EXPECT_GT(k.v_W.norm(), 0.5 * std::abs(lambda - lambda_star));  // slope ω2 + ω1 sin α ≈ 5.7
    EXPECT_EQ(k.status, ContactStatus::sliding);
  }
  // At λ* the slip vanishes (round-off only) and the contact sticks while pivoting and rolling.
  const ContactPoint c = make_contact(O + lambda_star * e, z0);
  const ContactKinematics k = contact_kinematics(c, x1, v1, om1, x2, v2, om2);
  EXPECT_LT(k.v_W.norm(), 1e-15);
  EXPECT_EQ(k.status, ContactStatus::sticking);
  EXPECT_TRUE(k.pivoting);
  EXPECT_TRUE(k.rolling);
}

// =============================================================================================
// (c) Cylinder (radius r, body 2) rolling outside a fixed cylinder (radius R, body 1), parallel
// axes along z0. θ: angle of the line of centres, φ: rotation angle of the rolling cylinder, both
// counter-clockwise about z0. C2 = C1 + (R + r) u(θ), u = (cos θ, sin θ, 0), I = C1 + R u, n = u.
//   slip = [(R + r) θ̇ − r φ̇] u'(θ), u' = z0 × u  ⇒ no slip ⇔ φ̇ = (1 + R/r) θ̇,
//   integrated: φ − φ0 = (1 + R/r)(θ − θ0).
// =============================================================================================
struct CylinderPair {
  double R = 0.7, r = 0.2;
  Vec3 C1{0.2, 0.1, -0.3};
  ContactKinematics at(double theta, double dtheta, double dphi) const {
    const Vec3 u(std::cos(theta), std::sin(theta), 0.0), up(-std::sin(theta), std::cos(theta), 0.0);
    const Vec3 C2 = C1 + (R + r) * u;
    const ContactPoint c = make_contact(C1 + R * u, u);
    return contact_kinematics(c, C1, Vec3::Zero(), Vec3::Zero(), C2, (R + r) * dtheta * up,
                              dphi * Vec3::UnitZ());
  }
};

TEST(CylinderOnCylinder, NoSlipRelation) {
  const CylinderPair p;
  for (double theta : {-2.0, 0.3, 1.9}) {
    for (double dtheta : {-1.5, 0.4, 3.0}) {
      const Vec3 up(-std::sin(theta), std::cos(theta), 0.0);
      for (double dphi : {-2.0, 0.0, 5.0}) {
        const ContactKinematics k = p.at(theta, dtheta, dphi);
        EXPECT_LT((k.v_W - ((p.R + p.r) * dtheta - p.r * dphi) * up).norm(), 1e-15);
      }
      const ContactKinematics k = p.at(theta, dtheta, (1.0 + p.R / p.r) * dtheta);
      EXPECT_LT(k.v_W.norm(), 1e-15);
      EXPECT_EQ(k.status, ContactStatus::sticking);
    }
  }
}

// Integrate the no-slip condition: φ̇ is solved from zero slip given by contact_kinematics (slip
// is affine in φ̇), along θ(t) = 0.3 + 0.8 sin(1.7 t), by RK4; φ(T) − φ0 = (1 + R/r)(θ(T) − θ0).
TEST(CylinderOnCylinder, IntegratedNoSlipCondition) {
  const CylinderPair p;
  auto theta = [](double t) { return 0.3 + 0.8 * std::sin(1.7 * t); };
  auto dtheta = [](double t) { return 0.8 * 1.7 * std::cos(1.7 * t); };
  auto phidot = [&](double t) {
    const double th = theta(t);
    const Vec3 up(-std::sin(th), std::cos(th), 0.0);
    const double s0 = p.at(th, dtheta(t), 0.0).v_W.dot(up);
    const double s1 = p.at(th, dtheta(t), 1.0).v_W.dot(up);
    return -s0 / (s1 - s0);
  };
  const double T = 2.0, phi0 = 0.4;
  const int n = 400;
  const double h = T / n;
  double phi = phi0;
  for (int i = 0; i < n; ++i) {
    const double t = i * h;
    const double k1 = phidot(t), k2 = phidot(t + h / 2), k4 = phidot(t + h);
    phi += h / 6 * (k1 + 4 * k2 + k4);  // RK4 for an explicit φ̇(t) (k2 = k3)
  }
  // RK4 error (h = 5e-3, |d⁵θ/dt⁵| ≈ 11) is below 1e-11 rad.
  EXPECT_NEAR(phi - phi0, (1.0 + p.R / p.r) * (theta(T) - theta(0)), 1e-10);
}

// =============================================================================================
// (d) 2-D wheel of radius R rolling on the ground z = 0 in the vertical plane (x0, z0): centre
// (x, 0, R), rotation angle θ about +y0 (right-handed: turning from z0 towards x0), ω = θ̇ y0.
//   v_{I∈wheel} = ẋ x0 + θ̇ y0 × (−R z0) = (ẋ − R θ̇) x0  ⇒ no slip ⇔ ẋ = R θ̇, x = x0 + R θ.
// =============================================================================================
TEST(Wheel2D, RollingWithoutSlip) {
  const double R = 0.35;
  for (double x : {-1.0, 0.5}) {
    for (double dtheta : {-4.0, 2.5}) {
      for (double dx : {-1.0, 0.0, R * dtheta, 3.0}) {
        const ContactPoint c = make_contact(Vec3(x, 0.0, 0.0), Vec3::UnitZ());
        const ContactKinematics k =
            contact_kinematics(c, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3(x, 0.0, R),
                               Vec3(dx, 0.0, 0.0), dtheta * Vec3::UnitY());
        // complete_frame(z0) = (x0, y0): the sliding velocity is (ẋ − R θ̇) on t1.
        EXPECT_LT((c.t1_W - Vec3::UnitX()).norm(), 1e-15);
        EXPECT_NEAR(k.vt1, dx - R * dtheta, 1e-15);
        EXPECT_NEAR(k.vt2, 0.0, 1e-15);
        EXPECT_NEAR(k.vn, 0.0, 1e-15);
        EXPECT_NEAR(k.roll2, dtheta, 1e-15);
        EXPECT_NEAR(k.spin, 0.0, 1e-15);
        EXPECT_FALSE(k.pivoting);
        EXPECT_TRUE(k.rolling);
        EXPECT_EQ(k.status, dx == R * dtheta ? ContactStatus::sticking : ContactStatus::sliding);
      }
    }
  }
  // Integrated: along any θ(t), x(t) = x0 + R θ(t) has zero slip at every instant.
  for (double t = 0.0; t < 3.0; t += 0.25) {
    const double th = std::sin(2 * t) + 0.5 * t, dth = 2 * std::cos(2 * t) + 0.5;
    const double xc = -0.2 + R * th;
    const ContactKinematics k =
        contact_kinematics(make_contact(Vec3(xc, 0, 0), Vec3::UnitZ()), Vec3::Zero(), Vec3::Zero(),
                           Vec3::Zero(), Vec3(xc, 0, R), Vec3(R * dth, 0, 0), dth * Vec3::UnitY());
    EXPECT_LT(k.v_W.norm(), 1e-15);
  }
}

// =============================================================================================
// Status thresholds.
// =============================================================================================
TEST(Kinematics, StatusAndFlags) {
  const Vec3 z = Vec3::Zero();
  KinematicsTolerances tol;
  tol.gap = 1e-6;
  tol.velocity = 1e-3;
  tol.angular = 1e-2;
  auto kin = [&](double gap, const Vec3& v2, const Vec3& w2) {
    return contact_kinematics(make_contact(z, Vec3::UnitZ(), gap), z, z, z, z, v2, w2, tol);
  };
  EXPECT_EQ(kin(2e-6, Vec3(1, 0, 0), z).status, ContactStatus::separated);
  EXPECT_EQ(kin(1e-6, Vec3(1, 0, 0), z).status, ContactStatus::sliding);
  EXPECT_EQ(kin(-1e-3, Vec3(0.0009, 0, 5), z).status, ContactStatus::sticking);  // vn ignored
  EXPECT_EQ(kin(-1e-3, Vec3(0.0011, 0, 0), z).status, ContactStatus::sliding);
  EXPECT_FALSE(kin(0, z, Vec3(0.009, 0, 0.009)).pivoting);
  EXPECT_FALSE(kin(0, z, Vec3(0.009, 0, 0.009)).rolling);
  EXPECT_TRUE(kin(0, z, Vec3(0, 0, -0.011)).pivoting);
  EXPECT_TRUE(kin(0, z, Vec3(0.006, 0.009, 0)).rolling);
}

// =============================================================================================
// Jacobians.
// =============================================================================================
TEST(Jacobians, RowsReproduceKinematics) {
  Rng rng;
  for (int trial = 0; trial < 100; ++trial) {
    const ContactPoint c = make_contact(rng.vec(-1, 1), rng.vec(-1, 1), rng.uniform(-0.1, 0.1));
    const Vec3 x1 = rng.vec(-1, 1), x2 = rng.vec(-1, 1);
    Vec6 t1, t2;
    t1 << rng.vec(-3, 3), rng.vec(-3, 3);
    t2 << rng.vec(-3, 3), rng.vec(-3, 3);
    const ContactKinematics k =
        contact_kinematics(c, x1, t1.head<3>(), t1.tail<3>(), x2, t2.head<3>(), t2.tail<3>());
    Mat36 H1, H2, A1, A2;
    contact_jacobians(c, x1, x2, H1, H2);
    contact_angular_jacobians(c, A1, A2);
    const Vec3 u = H2 * t2 - H1 * t1;
    EXPECT_LT((u - Vec3(k.vn, k.vt1, k.vt2)).norm(), 1e-13);
    const Vec3 w = A2 * t2 - A1 * t1;
    EXPECT_LT((w - Vec3(k.spin, k.roll1, k.roll2)).norm(), 1e-13);
    EXPECT_EQ(A1.leftCols<3>().norm(), 0.0);
  }
}

// A body state moving along its twist: x(t) = x + v t, R(t) = exp(t ω̂) R (ω in world axes).
struct Body {
  Vec3 x, v, w;
  Mat3 R;
  Vec3 point(const Vec3& p_B, double t) const {
    const Mat3 Rt = Eigen::AngleAxisd(t * w.norm(), w.normalized()).toRotationMatrix() * R;
    return x + t * v + Rt * p_B;
  }
  Vec3 dir(const Vec3& d_B, double t) const {
    return Eigen::AngleAxisd(t * w.norm(), w.normalized()).toRotationMatrix() * R * d_B;
  }
};

Body random_body(Rng& rng) {
  const Quat q =
      Quat(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
          .normalized();
  return {rng.vec(-1, 1), rng.vec(-2, 2), rng.vec(-3, 3), q.toRotationMatrix()};
}

// Sphere (body 2, centre offset c_B from its reference point) against a plane (body 1, through the
// body point p_B with body normal n_B); both move. gap(t) = n(t)·(c(t) − p(t)) − r; the normal row
// must give dg/dt (central difference, error O(δ²) ≈ 1e-10).
TEST(Jacobians, NormalRowIsGapRateSpherePlane) {
  Rng rng;
  for (int trial = 0; trial < 50; ++trial) {
    const Body b1 = random_body(rng), b2 = random_body(rng);
    const Vec3 p_B = rng.vec(-0.5, 0.5), n_B = rng.vec(-1, 1).normalized(),
               c_B = rng.vec(-0.5, 0.5);
    const double r = rng.uniform(0.1, 0.5);
    auto gap = [&](double t) {
      return b1.dir(n_B, t).dot(b2.point(c_B, t) - b1.point(p_B, t)) - r;
    };
    // Contact point at t = 0.
    const Vec3 n = b1.dir(n_B, 0), centre = b2.point(c_B, 0);
    const double g = gap(0);
    ContactPoint c;
    c.n_W = n;
    complete_frame(n, c.t1_W, c.t2_W);
    c.p2_W = centre - r * n;
    c.p1_W = c.p2_W - g * n;
    c.gap = g;
    Mat36 H1, H2;
    contact_jacobians(c, b1.x, b2.x, H1, H2);
    Vec6 t1, t2;
    t1 << b1.v, b1.w;
    t2 << b2.v, b2.w;
    const double d = 1e-5;
    const double gdot = (gap(d) - gap(-d)) / (2 * d);
    EXPECT_NEAR((H2 * t2 - H1 * t1)(0), gdot, 1e-8 * (1 + std::abs(gdot))) << "g = " << g;
  }
}

// Sphere–sphere, centres offset from the bodies' reference points: gap = |c2 − c1| − r1 − r2.
TEST(Jacobians, NormalRowIsGapRateSphereSphere) {
  Rng rng;
  for (int trial = 0; trial < 50; ++trial) {
    const Body b1 = random_body(rng), b2 = random_body(rng);
    const Vec3 c1_B = rng.vec(-0.5, 0.5), c2_B = rng.vec(-0.5, 0.5);
    const double r1 = rng.uniform(0.1, 0.6), r2 = rng.uniform(0.1, 0.6);
    auto gap = [&](double t) { return (b2.point(c2_B, t) - b1.point(c1_B, t)).norm() - r1 - r2; };
    const Vec3 c1 = b1.point(c1_B, 0), c2 = b2.point(c2_B, 0);
    const Vec3 n = (c2 - c1).normalized();
    ContactPoint c;
    c.n_W = n;
    complete_frame(n, c.t1_W, c.t2_W);
    c.p1_W = c1 + r1 * n;
    c.p2_W = c2 - r2 * n;
    c.gap = gap(0);
    Mat36 H1, H2;
    contact_jacobians(c, b1.x, b2.x, H1, H2);
    Vec6 t1, t2;
    t1 << b1.v, b1.w;
    t2 << b2.v, b2.w;
    const double d = 1e-5;
    const double gdot = (gap(d) - gap(-d)) / (2 * d);
    EXPECT_NEAR((H2 * t2 - H1 * t1)(0), gdot, 1e-8 * (1 + std::abs(gdot))) << "g = " << c.gap;
  }
}

}  // namespace
}  // namespace coulomb
