#pragma once
/// @file
/// The exact limit surface of Coulomb–Contensou friction, for the set-valued law of the nonsmooth
/// formulation: the convex body of (F_t, M_n/a) whose support function is the dissipation Φ of
/// coulomb/laws/contensou_exact.hpp (the limit surface of Goyal, Ruina & Papadopoulos, Wear 143
/// (1991) 307), its maximal-dissipation point, and the Euclidean projection onto it with its
/// Jacobian. The projection reduces to the body's meridian profile and solves for the normal angle
/// by a safeguarded Newton iteration; its derivative is the nearest-point map's, R_i/(R_i + d)
/// along the principal directions (Holmes, Trans. Amer. Math. Soc. 184 (1973) 87). The ellipsoid
/// that approximates this set, and the laws built on both, are in coulomb/laws/contensou_set.hpp.

#include <coulomb/laws/contensou_exact.hpp>

#include <Eigen/Core>

namespace coulomb::contensou {

using Vec3c = Eigen::Vector3d;  ///< (F_t1, F_t2, M_n/a) in the limit-surface helpers

/// The limit set K of (F_t1, F_t2, M_n/a) per μN: the convex body of revolution whose support
/// function is the dissipation Φ; its boundary is swept by (F(ε) v̂, ±m(ε)). For a "velocity"
/// y = (v_t1, v_t2, aω) ≠ 0 returns the boundary point whose outward normal is y (the maximal
/// dissipation point): (F(ε) v̂, m(ε) sign ω), ε = |v|/(a|ω|).
[[nodiscard]] Vec3c limit_surface_point(const Vec3c& y, Pressure p);

/// Euclidean projection of z = (F_t1, F_t2, M_n/a) onto K (per μN). Inside: z itself. Outside: the
/// nearest boundary point, found by a coarse scan then a safeguarded Newton iteration on the
/// normal angle θ (ε = tan θ): (z − c(θ)) ∥ n(θ). Converges to |residual| ≤ 1e-14.
[[nodiscard]] Vec3c project_limit_surface(const Vec3c& z, Pressure p);

/// Projection with its Jacobian ∂P/∂z (for semismooth Newton solvers).
struct LimitProjection {
  Vec3c point = Vec3c::Zero();
  Eigen::Matrix3d jacobian = Eigen::Matrix3d::Identity();
  bool inside = true;  ///< z ∈ K: point = z, jacobian = I
};

/// As project_limit_surface, with ∂P/∂z. Outside, z = P + d n and, for a smooth convex surface,
/// ∂P/∂z = Σ_i R_i/(R_i + d) t_i t_iᵀ over the principal directions: the meridian t1 with the
/// profile's radius of curvature R1 = F'(ε)(1 + ε²)^{3/2}, and the parallel t2 with
/// R2 = F/sin θ (R2 = R1 at the pole). On the boundary (d = 0) this is the tangent projector (the
/// one-sided derivative from outside).
[[nodiscard]] LimitProjection project_limit_surface_jacobian(const Vec3c& z, Pressure p);

}  // namespace coulomb::contensou
