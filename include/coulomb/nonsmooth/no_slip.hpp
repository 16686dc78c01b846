#pragma once
/// @file
/// The no-slip contact law (coulomb/laws/no_slip.hpp) in the contact problem: a contact whose
/// friction coefficient is μ = +∞ (the limit of the Coulomb cone). Every solver and the error
/// measure dispatch on is_no_slip(μ) to the functions here.
///
/// Law (r impulse of 1 on 2 [N s], u velocity of 2 relative to 1 [m/s], frame (t1, t2, n)):
///   G_open = {r = 0, u_N ≥ 0}  ∪  G_closed = {u = 0, r_N ≥ 0}.
///
/// Error measure. The law's set of impulses K_∞ = {r_N > 0} ∪ {0} is a convex cone that is not
/// closed, and the natural map r − P_{cl K_∞}(r − u) of its closure (the half-space r_N ≥ 0) would
/// demand u_T = 0 also on an open contact. The graph is instead a union of two closed convex cones,
/// each with its own natural map (the same form as the Coulomb one on its branches: the take-off
/// branch r − P_K(r − û) = r, the stick branch = û = u):
///   e_open²   = ‖r‖² + min(u_N, 0)²          (zero ⇔ (r, u) ∈ G_open)
///   e_closed² = ‖u‖² + min(r_N, 0)²          (zero ⇔ (r, u) ∈ G_closed)
///   e²        = min(e_open², e_closed²)       (zero ⇔ the law holds; continuous in (r, u)),
/// summed over the contacts and divided by ‖q‖ as for Coulomb contacts (contact_error).
///
/// Alart–Curnier function (PROX's Newton): the μ → ∞ limit of the Coulomb one
/// (alart_curnier.hpp), where the disc of radius μ max(0, a) becomes the plane when a > 0 and the
/// point 0 otherwise:
///   a = r_N − ρ_N u_N;   a > 0:  φ = (ρ_N u_N, ρ_T u_T)   (closed: u = 0)
///                        a ≤ 0:  φ = r                    (open: r = 0, then u_N = −a/ρ_N ≥ 0)
/// with the generalised Jacobian dφ/dr = 0, dφ/du = diag(ρ_N, ρ_T, ρ_T) (a > 0), dφ/dr = I,
/// dφ/du = 0 (a ≤ 0; the branch taken at a = 0, as for Coulomb). Unlike Coulomb's, this φ is
/// discontinuous where a changes sign (φ_T jumps from ρ_T u_T to r_T), so PROX's line search on
/// ½‖Φ‖² can stall (measured in docs/nonsmooth-solvers.md, "No slip"); NSGS's exact local solve
/// does not use it.
///
/// Exact local solve (solve_single_contact with μ = +∞): closed r = −W⁻¹q if its normal part is
/// > 0; else open r = 0 if q_N ≥ 0; else no answer exists (W_NT ≠ 0, see the law's header): the
/// normal-only impulse r = (−q_N/W_NN, 0, 0) is returned and reported as not converged.

#include <coulomb/nonsmooth/alart_curnier.hpp>

#include <cmath>

namespace coulomb {

/// True when the friction coefficient of a 3-unknown contact means no slip (μ = +∞).
[[nodiscard]] inline bool is_no_slip(double mu) { return std::isinf(mu) && mu > 0.0; }

/// e² = min(e_open², e_closed²) of one no-slip contact (absolute; see the file comment).
[[nodiscard]] double no_slip_residual2(const Vec3& r, const Vec3& u);

/// The no-slip Alart–Curnier function and its generalised Jacobian (see the file comment).
void no_slip_alart_curnier(const Vec3& r, const Vec3& u, const AlartCurnierRho& rho, Vec3& phi,
                           Mat3* dphi_dr, Mat3* dphi_du);

/// The impulse that stops a contact, u = W r + q = 0: r = −W⁻¹ q. False when W is singular or r
/// not finite. The closed branch of the no-slip law and the stick branch of the Coulomb local
/// solve (single_contact.cpp), which then test r against their own sets.
bool stopping_impulse(const Block3& w, const Vec3& q, Vec3& r);

/// W⁻¹ as stopping_impulse computes it (Eigen's cofactor inverse); false when W is singular.
bool invert_block(const Block3& w, Mat3& inverse);

/// The closed-form answer of one no-slip contact u = W r + q (W 3×3 symmetric positive definite):
/// true with r set when the closed or the open branch solves it; false with the normal-only
/// impulse when neither does (see the file comment).
bool solve_no_slip_block(const Block3& w, const Vec3& q, Vec3& r);

}  // namespace coulomb
