#pragma once
/// @file
/// The local frictional contact problem of one step, as a plain value (FCLIB "local" layout),
/// templated on the number of unknowns per contact:
///
///   ContactProblem<kForce>  = ForceProblem:  3 unknowns, the force impulse (N, T1, T2) of a
///                                            Coulomb contact (FCLIB's local problem);
///   ContactProblem<kWrench> = WrenchProblem: 6 unknowns, the wrench impulse (N, T1, T2, Mn, Mt1,
///                                            Mt2) of a contact with moment laws (pivoting,
///                                            rolling, Contensou).
///
/// Why named constants and not plain 3 and 6: the size is what the unknowns are (a force or a
/// wrench), and code that reads ContactProblem<kWrench> says so; the constants stay integers so
/// that the fixed-size Eigen types follow from them (VecN<N>, BlockN<N>). The law data of one
/// contact differ by size (ContactLaw<N>: μ for a force, ContactLaw6 for a wrench); everything
/// else (the block-sparse W, q, the checks) is written once.
///
/// Both problems are
///
///   find r, u in R^{N nc}:  u = W r + q,  and for every contact α
///   K_α* ∋ û_α ⊥ r_α ∈ K_α   (De Saxcé's modified velocity û_α, below)
///
/// with W symmetric positive semi-definite, stored as a block-sparse matrix of N×N blocks in
/// compressed-row form (the layout the Gauss–Seidel sweep reads row by row). Per contact the
/// unknowns are ordered normal first, as in FCLIB and Siconos.
///
/// ## Three unknowns (kForce)
///
///   K_α = {r : ‖r_T‖ ≤ μ_α r_N} (the exact circular Coulomb cone),
///   û_α = u_α + [μ_α ‖u_{T,α}‖, 0, 0].
///   μ_α = +∞ is the no-slip law, the limit of these cones: r = 0 (open) or u_α = 0 with r_N ≥ 0
///   (closed), its residual and solves in coulomb/nonsmooth/no_slip.hpp.
///
/// Units: r is an impulse [N s], u a velocity [m/s], W [m/(N s²)] = [1/kg], q [m/s].
///
/// ## Six unknowns (kWrench)
///
/// The generalised local contact problem with moments: per contact 6 unknowns (normal, friction,
/// pivoting moment, rolling moment), Signorini, maximal dissipation on a product or coupled
/// admissible set. The 3-unknown problem stays the fast path for plain Coulomb contacts; this
/// problem is its generalisation (h = k = 0, no coupling: the same law).
///
/// Unknowns and velocities per contact, in the contact frame (t1, t2, n) (DESIGN.md §1):
///
///   r = (N, T1, T2, Mn, Mt1, Mt2)   [N s, N s, N s, N m s, N m s, N m s]  impulses of 1 on 2
///   u = (vN, vT1, vT2, ωn, ωt1, ωt2) [m/s, m/s, m/s, rad/s, rad/s, rad/s]  of 2 relative to 1
///   u = W r + q,  W block-sparse 6×6 (the same compressed-row layout).
///
/// Law of contact α, with y = (F_t, M_n, M_t) ∈ R⁵ and w = (v_t, ω_n, ω_t) ∈ R⁵:
///   Signorini:            u_N ≥ 0,  N ≥ 0,  N u_N = 0   (restitution already folded into q)
///   admissible set:       y ∈ N C,  C ⊂ R⁵ convex compact, 0 ∈ C, given by ContactLaw6:
///     coupling none:      C = {‖F‖ ≤ μ} × {|M_n| ≤ h} × {‖M_t‖ ≤ k}
///     coupling ellipsoid: C = {‖F‖² + (M_n/ā)² ≤ μ²} × {‖M_t‖ ≤ k}       (h unused)
///     coupling exact:     C = μ L_a × {‖M_t‖ ≤ k}, L_a = {(F, M): (F, M/a) ∈ L} with L the exact
///                         Contensou limit set of a patch of radius a (laws/contensou.hpp)  (h
///                         unused)
///   maximal dissipation:  −w ∈ N_{NC}(y), i.e. −w·y = N σ_C(−w) (σ_C: support function of C).
/// A zero bound (h = 0, k = 0, μ = 0) forces that moment (or force) to zero and leaves its
/// velocity free: a point contact without pivoting/rolling friction.
///
/// Complementarity form (De Saxcé & Feng 1991; Acary & Brogliato 2008 §13.2 for Coulomb; the same
/// argument for any C): with K = {(N, y): N ≥ 0, y ∈ N C} and the modified velocity
///   û = (u_N + σ_C(−w), w),   the law is   K ∋ r ⊥ û ∈ K*.
/// Proof: K* = {(a, b): a ≥ σ_C(−b)}, so û ∈ K* ⇔ u_N ≥ 0; r·û = N u_N + (N σ_C(−w) + y·w), both
/// terms ≥ 0 on K × K*, so r·û = 0 ⇔ Signorini and maximal dissipation.
///   none:      σ_C(−w) = μ‖v_t‖ + h|ω_n| + k‖ω_t‖       (Siconos' rolling cone: h = 0)
///   ellipsoid: σ_C(−w) = μ √(‖v_t‖² + ā² ω_n²) + k‖ω_t‖  (Leine & Glocker 2003, eq. 30)
///   exact:     σ_C(−w) = μ (F(ε)‖v_t‖ + a m(ε)|ω_n|) + k‖ω_t‖,  ε = ‖v_t‖/(a|ω_n|)
///
/// Error measure (contact_error of a WrenchProblem, solver.hpp): the natural map of Acary,
/// Brémond & Huber (2018) on this cone,
///   e_α = ‖r̃ − P_K̃(r̃ − û~)‖,   error = √(Σ e_α²) / ‖q̃‖,
/// in the scaled variables r̃ = S r, ũ = S⁻¹ u, q̃ = S⁻¹ q, S = diag(1, 1, 1, 1/ℓ_n, 1, 1) where
/// ℓ_n = a (exact coupling), ā (ellipsoid), 1 m (none): the scaled problem is the same problem
/// (r̃·ũ = r·u, K̃ = S K), e_α = 0 ⇔ contact α satisfies its law, and with h = k = 0 and no coupling
/// it equals the error of the 3-unknown problem exactly. The length ℓ_n makes the coupled sets
/// round (ball for the ellipsoid) or the metric in which the limit set's normal is the
/// maximal-dissipation direction (exact). P_K̃ is Euclidean, computed by a 1-D monotone root on N
/// (src/nonsmooth/contact_error6.cpp). Divided by ‖q̃‖ when ‖q̃‖ > DBL_EPSILON.
///
/// References: M. Leine, C. Glocker, "A set-valued force law for spatial Coulomb–Contensou
/// friction", Eur. J. Mech. A 22 (2003) 193–216; V. Acary, B. Brogliato, Numerical Methods for
/// Nonsmooth Dynamical Systems (2008) ch. 13; V. Acary, F. Bourrier, B. Viano, rolling friction in
/// Siconos (RollingFrictionContactProblem, cone ‖M_t‖ ≤ μ_r N); G. De Saxcé, Z.-Q. Feng (1991).

#include <coulomb/laws/contensou.hpp>
#include <coulomb/math/types.hpp>
#include <coulomb/nonsmooth/joint_rows.hpp>

#include <cstdint>
#include <vector>

namespace coulomb {

/// Unknowns per contact of the force problem: (N, T1, T2).
inline constexpr int kForce = 3;
/// Unknowns per contact of the wrench problem: (N, T1, T2, Mn, Mt1, Mt2).
inline constexpr int kWrench = 6;

/// One contact's unknowns (or velocities), normal first.
template <int N>
using VecN = Eigen::Matrix<double, N, 1>;
/// An N×N block of W, row-major, in the order of VecN.
template <int N>
using BlockN = Eigen::Matrix<double, N, N, Eigen::RowMajor>;

using Vec6 = VecN<6>;
using Block3 = BlockN<kForce>;   ///< (N, T1, T2)
using Block6 = BlockN<kWrench>;  ///< (N, T1, T2, Mn, Mt1, Mt2)

/// The contact law of one contact of a WrenchProblem.
struct ContactLaw6 {
  enum class Coupling : std::uint8_t {
    none,       ///< product: disc μN × interval hN × rolling disc kN
    ellipsoid,  ///< Contensou ellipsoid ‖F_t‖² + (M_n/ā)² ≤ (μN)² × rolling disc kN
    exact,      ///< exact Contensou limit set (patch radius a) × rolling disc kN
  };
  double mu = 0.0;  ///< Coulomb ‖F_t‖ ≤ μN [-], ≥ 0
  double h = 0.0;  ///< pivoting |M_n| ≤ hN [m], ≥ 0 (soft finger: h = μ r_t); coupling none only
  double k = 0.0;  ///< rolling ‖M_t‖ ≤ kN [m], ≥ 0
  Coupling coupling = Coupling::none;
  /// Ellipsoid moment length ā [m]; 0: ā = m0 a (m0 = 3π/16 Hertz, 2/3 uniform).
  double abar = 0.0;
  double a = 0.0;  ///< patch radius [m] (exact coupling: > 0; ellipsoid: used when abar = 0)
  contensou::Pressure pressure = contensou::Pressure::hertz;

  /// The ellipsoid length actually used: abar if > 0, else m0(pressure) a.
  [[nodiscard]] double ellipsoid_length() const;
  /// ℓ_n of the error metric and of the local solver: a (exact), ā (ellipsoid), 1 (none) [m].
  [[nodiscard]] double moment_scale() const;
  /// Throws std::invalid_argument with what is wrong (negative or non-finite coefficients, exact
  /// coupling without a > 0, ellipsoid with neither ā > 0 nor a > 0, when μ > 0).
  void validate() const;
};

/// The law data of one contact, per size: the friction coefficient μ [-] of a force problem, a
/// ContactLaw6 of a wrench problem.
template <int N>
struct ContactLawOf;
template <>
struct ContactLawOf<kForce> {
  using type = double;
};
template <>
struct ContactLawOf<kWrench> {
  using type = ContactLaw6;
};
template <int N>
using ContactLaw = typename ContactLawOf<N>::type;

template <int N>
struct ContactProblem {
  static_assert(N == kForce || N == kWrench, "a contact has 3 (force) or 6 (wrench) unknowns");
  using Vec = VecN<N>;
  using Block = BlockN<N>;
  using Law = ContactLaw<N>;
  static constexpr int kUnknowns = N;

  int contact_count = 0;  ///< nc
  /// (nc) the law of each contact: μ [-] (kForce), ContactLaw6 (kWrench)
  std::vector<Law> laws;
  std::vector<Vec> q;                   ///< (nc) free velocity [m/s] (and [rad/s] for moments)
  std::vector<std::int32_t> row_start;  ///< (nc+1) first block of each block row
  std::vector<std::int32_t> col;        ///< (nnzb) block column of each block, increasing per row
  std::vector<Block, Eigen::aligned_allocator<Block>> blocks;  ///< (nnzb) W blocks
  std::vector<std::int32_t> diag;  ///< (nc) index of the diagonal block of each row
  /// (nj) the box laws of the joint blocks, which are the last nj of the nc blocks (their `laws`
  /// entries are unused; coulomb/nonsmooth/joint_rows.hpp); empty without joints
  std::vector<JointRows<N>> joint_rows;

  /// Empties the problem, keeping capacity.
  void clear();
  /// Dense W (N nc × N nc), for tests and small problems.
  [[nodiscard]] Eigen::MatrixXd dense_w() const;
  /// u = W r + q.
  void velocity(const std::vector<Vec>& r, std::vector<Vec>& u) const;
  /// Checks shapes, index ranges, finiteness, the laws (μ >= 0; ContactLaw6::validate) and the
  /// symmetry of W (1e-10 of max|W|); throws std::invalid_argument with what is wrong.
  void validate() const;
  /// As validate() without the symmetry check (some published FCLIB problems have W symmetric
  /// only to 1e-3 relative); throws std::invalid_argument.
  void validate_structure() const;
};

/// 3 unknowns per contact (N, T1, T2): Coulomb contacts.
using ForceProblem = ContactProblem<kForce>;
/// 6 unknowns per contact (N, T1, T2, Mn, Mt1, Mt2): contacts with moment laws.
using WrenchProblem = ContactProblem<kWrench>;

/// The 6-unknown problem equivalent to a 3-unknown one: W blocks zero-padded, h = k = 0, no
/// coupling (moments forced to zero, their velocities free).
[[nodiscard]] WrenchProblem embed_problem(const ForceProblem& p3);
/// The (N, T1, T2) part: W and q restricted to the first three rows/columns, μ copied. Equivalent
/// to `p6` when every law has h = k = 0 and no coupling.
[[nodiscard]] ForceProblem restrict_problem(const WrenchProblem& p6);

}  // namespace coulomb
