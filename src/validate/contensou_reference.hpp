#pragma once
// An independent reference for the Kudra et al. validation cases (issue 10): the integral model of
// Coulomb–Contensou friction (Kudra, Szewc, Wojtunik, Awrejcewicz, MSSP 2016, eq. 1) by our own
// quadrature, and a rigid ellipsoid (a sphere when its semi-axes are equal) on a plane z = 0
// integrated by our own fixed-step Runge–Kutta. Nothing here calls the library's Contensou laws,
// its collision or its integrators: it is written from the equations, so that the compliant
// formulation is compared with a second implementation of the same physics.
//
// Integral model, circular patch of radius a, Hertz pressure σ = 3/(2π a²) √(1 − r²/a²) per unit
// load, slip u(x) = v + ω ẑ × x of the patch point x (origin at the patch centre):
//     T = ∬ σ u/|u| dA,   M = ∬ σ (x × u/|u|)·ẑ dA;  force −μ N s T, moment −μ N s M ẑ,
// with the compliant law's regularisation s = min(1, ρ/v_r), ρ = √(|v|² + (a ω)²) (the library's
// documented form, part of the law being compared). The slip is a rotation about the instantaneous
// centre P = ẑ × v/ω: u = ω ẑ × (x − P). In polar coordinates about P, x = P + ρ e(φ), the
// direction of u depends on φ only, and the pressure along the ray is
// σ = k √((ρ₊ − ρ)(ρ − ρ₋)), k = 3/(2π a³), ρ± = m ± h, m = −P·e, h² = a² − (P × e)²; the radial
// integrals ∫ ρ σ dρ and ∫ ρ² σ dρ over ρ ≥ 0 are elementary (ρ = m + h sin θ). The angular
// integral: P inside the patch, the trapezoidal rule over [0, 2π) (periodic, analytic integrand:
// exponential convergence, 4096 nodes near |P| = a where it is slowest); P outside, the rays that
// meet the patch, φ = φ₀ + α sin ψ (α = asin(a/|P|)), Gauss–Legendre in ψ (the substitution removes
// the square-root ends at the tangent rays). ω = 0: pure sliding, T = v̂, M = 0.
//
// Rigid body: centre of mass x, unit quaternion q (body → world), velocity v, body angular velocity
// Ω with Euler's equations I Ω̇ = τ_B − Ω × I Ω. Contact with the plane: the lowest point of the
// ellipsoid p = x − R D² Rᵀ ẑ/|D Rᵀ ẑ| (D = diag of the semi-axes), penetration δ = −p_z, contact
// point I = p + (δ/2) ẑ (the midpoint of the surface points), normal force N(δ, δ̇) of the scene's
// Hunt–Crossley law (K, χ: N = K δ^{3/2} (1 + χ δ̇)), slip and spin of the body's point at I, and
// the Hertz contact of the ellipsoid's principal curvatures at p (its shape operator) on the plane
// by Hertz's elliptic solution (hertz_ellipse, the one library routine used: Hertz theory, tested
// against Johnson on its own): an ellipse of semi-axes a_f √δ_H, b_f √δ_H, δ_H =
// (3N/(4E*√R*))^{2/3}, its major axis along the direction of the smaller curvature (a circle of
// radius (3 N R*/(4 E*))^{1/3} when b/a is within 1e-6 of 1). On the ellipse the angular integral
// runs in the coordinates (x/A, y/B) that make it the unit disk.
#include <coulomb/math/types.hpp>

#include <array>
#include <vector>

namespace coulomb::validate::reference {

/// T (2, per unit μN) and M (per unit μN, [m]) of the integral model on a circular Hertz patch of
/// radius a [m], for the patch's sliding velocity v [m/s] and spin ω [rad/s] (no regularisation).
struct PatchResultants {
  std::array<double, 2> t{};
  double m = 0.0;
};
[[nodiscard]] PatchResultants hertz_patch(const std::array<double, 2>& v, double omega, double a);
/// The same on the Hertz ellipse of semi-axes A (along x) and B (along y) [m]: pressure
/// 3/(2π A B) √(1 − x²/A² − y²/B²) per unit load.
[[nodiscard]] PatchResultants hertz_patch(const std::array<double, 2>& v, double omega, double A,
                                          double B);

/// F(ε), m(ε) of reference/contensou.md §1 (Hertz pressure, a = 1) from hertz_patch.
[[nodiscard]] std::array<double, 2> hertz_table(double eps);

/// The physical parameters of an ellipsoid on a plane with a Hunt–Crossley normal law and a
/// Coulomb–Contensou patch (Hertz radius).
struct EllipsoidOnPlane {
  Vec3 semi_axes = Vec3::Constant(0.03);  ///< [m]
  double mass = 0.1;                      ///< [kg]
  Vec3 inertia = Vec3::Constant(3.6e-5);  ///< principal moments about the body axes [kg m²]
  Vec3 gravity = Vec3(0, 0, -9.81);       ///< [m/s²]
  double stiffness = 1e8;                 ///< K [N/m^{3/2}]
  double damping = 0.0;                   ///< χ [s/m]
  double mu = 0.2;                        ///< [-]
  double e_star = 1e7;                    ///< E* of the patch radius [Pa]
  double regularization = 1e-4;           ///< v_r [m/s]
};

/// The body's state (world frame; q body → world).
struct BodyState {
  double t = 0.0;
  Vec3 x = Vec3::Zero();
  Quat q = Quat::Identity();
  Vec3 v = Vec3::Zero();
  Vec3 w = Vec3::Zero();  ///< world angular velocity [rad/s]
};

/// Integrates to `end` with classical RK4 of step h [s], calling sample(state) at every multiple of
/// `every` steps (and at the start).
template <class Sample>
void integrate(const EllipsoidOnPlane& p, BodyState& s, double end, double h, int every,
               Sample&& sample);

/// The right-hand side in body-frame terms: ẋ, q̇, v̇, Ω̇ (internal; exposed for the tests).
struct Derivative {
  Vec3 dx, dv, dOmega;
  Quat dq;
};
[[nodiscard]] Derivative rhs(const EllipsoidOnPlane& p, const Vec3& x, const Quat& q, const Vec3& v,
                             const Vec3& Omega);

template <class Sample>
void integrate(const EllipsoidOnPlane& p, BodyState& s, double end, double h, int every,
               Sample&& sample) {
  Vec3 Omega = s.q.conjugate() * s.w;
  const double t0 = s.t;
  sample(s);
  const long n = static_cast<long>(std::llround((end - s.t) / h));
  for (long k = 1; k <= n; ++k) {
    auto add = [](const Quat& a, const Quat& b, double c) {
      return Quat(a.w() + c * b.w(), a.x() + c * b.x(), a.y() + c * b.y(), a.z() + c * b.z());
    };
    const Derivative k1 = rhs(p, s.x, s.q, s.v, Omega);
    const Derivative k2 = rhs(p, s.x + 0.5 * h * k1.dx, add(s.q, k1.dq, 0.5 * h),
                              s.v + 0.5 * h * k1.dv, Omega + 0.5 * h * k1.dOmega);
    const Derivative k3 = rhs(p, s.x + 0.5 * h * k2.dx, add(s.q, k2.dq, 0.5 * h),
                              s.v + 0.5 * h * k2.dv, Omega + 0.5 * h * k2.dOmega);
    const Derivative k4 =
        rhs(p, s.x + h * k3.dx, add(s.q, k3.dq, h), s.v + h * k3.dv, Omega + h * k3.dOmega);
    s.x += h / 6.0 * (k1.dx + 2.0 * k2.dx + 2.0 * k3.dx + k4.dx);
    s.v += h / 6.0 * (k1.dv + 2.0 * k2.dv + 2.0 * k3.dv + k4.dv);
    Omega += h / 6.0 * (k1.dOmega + 2.0 * k2.dOmega + 2.0 * k3.dOmega + k4.dOmega);
    Quat q = s.q;
    q = add(q, k1.dq, h / 6.0);
    q = add(q, k2.dq, h / 3.0);
    q = add(q, k3.dq, h / 3.0);
    q = add(q, k4.dq, h / 6.0);
    s.q = q.normalized();
    s.w = s.q * Omega;
    s.t = t0 + static_cast<double>(k) * h;
    if (k % every == 0) sample(s);
  }
}

}  // namespace coulomb::validate::reference
