#pragma once
/// @file
/// The Alart–Curnier function of the frictional contact problem, per contact, with a generalised
/// Jacobian; the building block of the local Newton solve and of the global semismooth Newton.
///
/// For one contact with u = W r + q (unknowns ordered (N, T1, T2)) and ρ_N, ρ_T > 0:
///
///   a     = r_N − ρ_N u_N
///   φ_N   = r_N − max(0, a)
///   z     = r_T − ρ_T u_T,   R = μ max(0, a)
///   φ_T   = r_T − P_{D(R)}(z)      (P_{D(R)}: projection onto the disk of radius R)
///
/// φ(r) = 0 ⇔ K ∋ r ⊥ û ∈ K* (Alart & Curnier 1991, eq. (25)–(27); Acary & Brogliato 2008,
/// §13.3.2). Units: r [N s], u [m/s], ρ [N s²/m] = [kg] so that ρ u is an impulse; φ [N s].
/// Valid for μ >= 0 and any r; φ is piecewise smooth, its Jacobian is an element of Clarke's
/// generalised Jacobian (the branch taken at a kink is documented in the source).

#include <coulomb/nonsmooth/problem.hpp>

namespace coulomb {

/// Penalty parameters of the Alart–Curnier function [kg].
struct AlartCurnierRho {
  double n = 1.0;  ///< ρ_N
  double t = 1.0;  ///< ρ_T
};

/// ρ from the diagonal of a 3×3 Delassus block: ρ_N = 1 / W_NN, ρ_T = 2 / (W_T1T1 + W_T2T2)
/// (a non-positive diagonal falls back to 1 / max(|W_ii|), then to 1).
[[nodiscard]] AlartCurnierRho alart_curnier_rho(const Block3& w);

/// φ(r, u) for given u (no coupling to W): the per-contact Alart–Curnier function, and its partial
/// derivatives dφ/dr (3×3) and dφ/du (3×3) when the pointers are not null.
void alart_curnier_function(const Vec3& r, const Vec3& u, double mu, const AlartCurnierRho& rho,
                            Vec3& phi, Mat3* dphi_dr, Mat3* dphi_du);

/// Absolute single-contact error ‖r − P_K(r − û)‖ with u = W r + q, û = u + [μ‖u_T‖, 0, 0].
[[nodiscard]] double single_contact_residual(const Block3& w, const Vec3& q, double mu,
                                             const Vec3& r);

/// The same error for a given u = W r + q (the caller's, computed as `w * r + q`: the same bits).
[[nodiscard]] double single_contact_residual_at(double mu, const Vec3& r, const Vec3& u);

}  // namespace coulomb
