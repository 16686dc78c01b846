#pragma once
/// @file
/// Admissible sets of the set-valued laws, as values with their Euclidean projections: what a law's
/// parameters define, for the laws' tests, the Python module and library users. The circular cone's
/// projection is the engine's (the 3-unknown error measure calls CircularCone::project). The
/// 6-unknown solver projects onto the product or coupled set of a contact as a whole, in its
/// scaled metric and with the derivatives its Newton method needs
/// (src/nonsmooth/contact_error6.cpp): tests/nonsmooth/contact_error6_test.cpp checks that it
/// agrees with these sets where the product reduces to one of them.
///
///   Signorini:            N ∈ [0, ∞)                                   project_normal()
///   Coulomb (isotropic):  K_μ  = {(N, F) ∈ R×R² : ‖F‖ ≤ μ N}            CircularCone{μ}
///   Coulomb (anisotropic):K_D  = {(N, F) : ‖D⁻¹ F‖ ≤ N}, D = diag(μ1, μ2)  EllipticCone{μ1, μ2}
///   rolling friction:     {(N, M_t) ∈ R×R² : ‖M_t‖ ≤ k N}               CircularCone{k}
///   pivoting/soft finger: {(N, M_n) ∈ R×R : |M_n| ≤ h N}  (h = r_t μ)   IntervalCone{h}
///
/// Vectors are ordered normal first, (N, T1, T2), as in FCLIB and coulomb/nonsmooth/problem.hpp.
/// project() is the Euclidean projection in those components (for rolling and pivoting the units
/// mix N and N·m: a solver that wants another metric scales the moment rows before projecting).
/// Every projection is idempotent, non-expansive, and satisfies the variational inequality
/// (x − P(x))·(y − P(x)) ≤ 0 for all y in the set (tested).
/// The static/kinetic choice of μ comes from the friction law and the contact's memory:
/// friction_cone() (CoulombLaw: μ_k after a slip, μ_s otherwise).
/// References: Acary & Brogliato (2008) §12.3 (second-order cone projection); Acary, Brémond,
/// Huber (2018) "On solving contact problems with Coulomb friction" (INRIA report).

#include <coulomb/laws/law.hpp>

#include <algorithm>

namespace coulomb {

/// max(N, 0).
[[nodiscard]] inline double project_normal(double n) { return n > 0.0 ? n : 0.0; }

/// The circular second-order cone {‖t‖ ≤ μ n} in (n, t1, t2); μ ≥ 0 finite.
struct CircularCone {
  double mu = 0.0;
  /// Inline: the nonsmooth solvers call it in every local solve and error evaluation (a call
  /// into another library was 11 % of a moving pile's sweep).
  [[nodiscard]] Vec3 project(const Vec3& x) const;
  [[nodiscard]] bool contains(const Vec3& x, double tol = 0.0) const;
};

/// The elliptic cone {(t1/μ1)² + (t2/μ2)² ≤ n², n ≥ 0}; μ1, μ2 ≥ 0 finite (μ = 0: t = 0).
/// Projection: KKT gives t_i = x_ti μi²/(μi² + 2λ), n = x_n/(1 − 2λ); λ ≥ 0 is the root of the
/// decreasing function (1 − 2λ)‖D⁻¹ t(λ)‖ − x_n, found by bisection to round-off.
struct EllipticCone {
  double mu1 = 0.0, mu2 = 0.0;
  [[nodiscard]] Vec3 project(const Vec3& x) const;
  [[nodiscard]] bool contains(const Vec3& x, double tol = 0.0) const;
};

/// The 2-D cone {|m| ≤ h n} in (n, m); h ≥ 0 finite.
struct IntervalCone {
  double h = 0.0;
  [[nodiscard]] Vec2 project(const Vec2& x) const;
  [[nodiscard]] bool contains(const Vec2& x, double tol = 0.0) const;
};

/// The Coulomb cone of a friction law given the contact's memory (μ_s/μ_k selection, anisotropy).
[[nodiscard]] EllipticCone friction_cone(const FrictionLaw& law, const FrictionMemory& memory);

inline Vec3 CircularCone::project(const Vec3& x) const {
  // The one projection onto the circular cone in the program: the nonsmooth solvers' error
  // measure and Alart–Curnier function call it (project_on_cone, coulomb/nonsmooth/solver.hpp).
  const double n = x[0];
  // μ = 0: the half-line {t = 0, n >= 0}. Not left to the general test ‖t‖ <= μ n, which reads
  // 0 <= 0 for t = 0 and n < 0 and would return x (outside the set).
  if (mu == 0.0) return {std::max(n, 0.0), 0.0, 0.0};
  const double tn = norm2d(x[1], x[2]);
  // Inside the cone (μ > 0, so n >= ‖t‖/μ >= 0 here); inside the polar cone: the apex; else onto
  // the boundary ray through the tangential direction of x (tn > 0 here).
  if (tn <= mu * n) return x;
  if (mu * tn <= -n) return Vec3::Zero();
  const double np = (n + mu * tn) / (1.0 + mu * mu);
  const double s = mu * np / tn;
  return {np, s * x[1], s * x[2]};
}

}  // namespace coulomb
