#pragma once
/// @file
/// Cheap approximants of the Coulomb–Contensou resultants F(ε), m(ε)
/// (coulomb/laws/contensou_exact.hpp) for the per-step hot path of the compliant formulation
/// (reference/contensou.md §2, errors in docs/contensou.md §3): Padé (1,1) and (2,2) in the
/// homogeneous variables (|v_s|, a|ω|), after Zhuravlev & Kireenkov, "Padé expansions in the
/// two-dimensional model of Coulomb friction", Mech. Solids 40 (2005); and the exponent-generalised
/// form of reference §2 (its uniform-pressure constants fitted here). Constants are named
/// parameters with the documented defaults; `hertz()` / `uniform()` give them.

#include <coulomb/laws/contensou_exact.hpp>

namespace coulomb::contensou {

/// Padé (1,1), Zhuravlev's form: T = v_s/(|v_s| + b a|ω|), M = m0 a ω/(|ω| + c|v_s|/a), i.e.
/// F = ε/(ε + b), m = m0/(1 + cε). Constants match both ends (slope at 0 and 1/ε tail):
/// Hertz b = 8/(3π), m0 = 3π/16, c = 15π/16; uniform b = 1, m0 = 2/3, c = 8/3.
struct Pade11 {
  double b = 8.0 / (3.0 * 3.141592653589793);
  double m0 = 3.0 * 3.141592653589793 / 16.0;
  double c = 15.0 * 3.141592653589793 / 16.0;
  [[nodiscard]] static Pade11 hertz();
  [[nodiscard]] static Pade11 uniform();
  /// Throws std::invalid_argument naming the first bad constant (all must be finite; see below).
  void validate() const;
  [[nodiscard]] Resultant operator()(double eps) const;
};

/// Padé (2,2), homogeneous in (|v_s|, a|ω|):
///   F = ε(ε + c1)/(ε² + c1 ε + c3)   (reference §2: Hertz c3 = 1/10, c1 = 3π/80; uniform 1/8,
///   1/8), m = m0 (1 + d ε)/(1 + d ε + e ε²) (derived here, see docs/contensou.md: m(0) = m0, m'(0)
///   = 0, m''(0)/2 = −m0 e, m → m0 d/(e ε); Hertz e = 1, d = 16/(15π); uniform e = 3/4, d = 9/32).
struct Pade22 {
  double c1 = 3.0 * 3.141592653589793 / 80.0;
  double c3 = 0.1;
  double m0 = 3.0 * 3.141592653589793 / 16.0;
  double d = 16.0 / (15.0 * 3.141592653589793);
  double e = 1.0;
  [[nodiscard]] static Pade22 hertz();
  [[nodiscard]] static Pade22 uniform();
  /// Throws std::invalid_argument naming the first bad constant (all must be finite; see below).
  void validate() const;
  [[nodiscard]] Resultant operator()(double eps) const;
};

/// Exponent-generalised approximants: F = ε/(εⁿ + bⁿ)^{1/n}, m = m0/(1 + (cε)^k)^{1/k}.
/// Hertz (reference §2): b = 8/(3π), n = 3.37, c = 2.415, k = 3.60. Uniform (fitted here by
/// minimising max|ΔF| and max|Δm|/m0 on ε ∈ [0, 100], see docs/contensou.md): b = 1, n = 3.83,
/// c = 2.22, k = 4.85.
struct Generalized {
  double b = 8.0 / (3.0 * 3.141592653589793);
  double n = 3.37;
  double m0 = 3.0 * 3.141592653589793 / 16.0;
  double c = 2.415;
  double k = 3.60;
  [[nodiscard]] static Generalized hertz();
  [[nodiscard]] static Generalized uniform();
  /// Throws std::invalid_argument naming the first bad constant (all must be finite; see below).
  void validate() const;
  [[nodiscard]] Resultant operator()(double eps) const;
};

/// The generalised approximant with its ε-independent constants precomputed (log b, log c, 1/n,
/// 1/k): the form to evaluate per contact and per step. Build it after setting the constants;
/// it gives the same values as Generalized::operator() to the last bit.
struct GeneralizedEvaluator {
  explicit GeneralizedEvaluator(const Generalized& g);
  [[nodiscard]] Resultant operator()(double eps) const;
  double n, k, m0, log_b, log_c, inv_n, inv_k;
};

}  // namespace coulomb::contensou
