#pragma once
/// @file
/// Set-valued Coulomb–Contensou laws for the nonsmooth formulation: the admissible set of the
/// friction force F_t (2-D) and the pivoting moment M_n of a circular patch of radius a, for a
/// given normal force N, and the projection onto it.
///
///   Contensou ellipsoid (Leine & Glocker 2003):  ‖F_t‖² + (M_n/ā)² ≤ (μN)²,
///       ā = (3π/16) a (Hertz pressure), (2/3) a (uniform pressure)  [m]
///   Exact limit surface: the convex body of revolution in (F_t, M_n/a) whose boundary is swept by
///       μN (F(ε) v̂, m(ε)) over ε ∈ [0, ∞) (coulomb/laws/contensou.hpp, reference contensou.md §1);
///       it lies inside the ellipsoid (at ε = 1, F² + (m/m0)² = 0.92 for Hertz).
///
/// | symbol | meaning                                   | unit | range |
/// |--------|-------------------------------------------|------|-------|
/// | μ      | friction coefficient                      | -    | ≥ 0   |
/// | N      | normal force                              | N    | ≥ 0   |
/// | a      | patch radius                              | m    | > 0   |
/// | ā      | ellipsoid's moment length m0 a            | m    | > 0   |
///
/// Metric: both projections are Euclidean in (F_t1, F_t2, M_n/ℓ) with ℓ a length: ℓ = a for the
/// exact surface (then the outward normal at parameter ε is (ε v̂, 1), the maximal-dissipation
/// direction), ℓ given (default ā, where the ellipsoid is a ball) for the ellipsoid. Action of body
/// 1 on body 2; the maximal-dissipation point for slip v_s and spin ω is the boundary point whose
/// outward normal is −(v_s, ℓ ω) (DESIGN.md §1: friction opposes v_t, the moment opposes ω_n).
/// References: Contensou (1963); Leine & Glocker, Eur. J. Mech. A 22 (2003) 193; Möller, Leine,
/// Glocker (2009); reference contensou.md.

#include <coulomb/laws/contensou.hpp>
#include <coulomb/laws/law.hpp>

namespace coulomb {

/// ā/a = m0: 3π/16 (Hertz), 2/3 (uniform).
[[nodiscard]] double contensou_moment_length(contensou::Pressure pressure);

/// A friction force and a pivoting moment.
struct ForceMoment {
  Vec2 force = Vec2::Zero();  ///< F_t [N]
  double moment = 0.0;        ///< M_n [N m]
};

/// The Contensou ellipsoid ‖F‖² + (M/ā)² ≤ ρ², ρ = μN.
struct ContensouEllipsoid {
  double radius = 0.0;         ///< ρ = μ N [N]
  double moment_length = 1.0;  ///< ā [m]
  double metric_length = 0.0;  ///< ℓ [m] of the projection metric (0: ℓ = ā)
  [[nodiscard]] ForceMoment project(const ForceMoment& x) const;
  [[nodiscard]] bool contains(const ForceMoment& x, double tol = 0.0) const;
};

/// The exact Contensou limit set of a circular patch (radius a, pressure), scaled by ρ = μN.
struct ContensouLimitSet {
  double radius = 0.0;        ///< ρ = μ N [N]
  double patch_radius = 1.0;  ///< a [m]
  contensou::Pressure pressure = contensou::Pressure::hertz;
  /// Euclidean projection in (F, M/a).
  [[nodiscard]] ForceMoment project(const ForceMoment& x) const;
  /// Membership, by comparing with the projection (tol relative to ρ).
  [[nodiscard]] bool contains(const ForceMoment& x, double tol = 1e-12) const;
  /// The maximal-dissipation point for slip v_s [m/s] and spin ω [rad/s] (not both 0).
  [[nodiscard]] ForceMoment max_dissipation(const Vec2& v_s, double omega) const;
};

}  // namespace coulomb
