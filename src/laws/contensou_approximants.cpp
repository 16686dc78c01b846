// Approximants of the Coulomb–Contensou resultants: Padé (1,1), (2,2) and the generalised form.
// Constants and errors: docs/contensou.md §3 and coulomb/laws/contensou_approximants.hpp.
#include <coulomb/laws/contensou_approximants.hpp>

#include "laws/contensou_detail.hpp"

#include <cmath>

namespace coulomb::contensou {

using detail::require;

namespace {

// softplus(z) = log(1 + e^z) without overflow.
inline double softplus(double z) { return z > 30.0 ? z + std::exp(-z) : std::log1p(std::exp(z)); }

}  // namespace

Pade11 Pade11::hertz() { return Pade11{}; }
Pade11 Pade11::uniform() { return Pade11{1.0, 2.0 / 3.0, 8.0 / 3.0}; }
void Pade11::validate() const {
  require("contensou pade11 b", b, 0.0, true);
  require("contensou pade11 m0", m0, 0.0, true);
  require("contensou pade11 c", c, 0.0, true);
}
Resultant Pade11::operator()(double eps) const {
  if (std::isinf(eps)) return {1.0, 0.0};
  return {eps / (eps + b), m0 / (1.0 + c * eps)};
}

Pade22 Pade22::hertz() { return Pade22{}; }
Pade22 Pade22::uniform() { return Pade22{0.125, 0.125, 2.0 / 3.0, 9.0 / 32.0, 0.75}; }
void Pade22::validate() const {
  require("contensou pade22 c1", c1, 0.0, false);
  require("contensou pade22 c3", c3, 0.0, true);
  require("contensou pade22 m0", m0, 0.0, true);
  require("contensou pade22 d", d, 0.0, false);
  require("contensou pade22 e", e, 0.0, true);
}
Resultant Pade22::operator()(double eps) const {
  if (std::isinf(eps)) return {1.0, 0.0};
  const double num = eps * (eps + c1);
  const double dmn = 1.0 + d * eps;
  return {num / (num + c3), m0 * dmn / (dmn + e * eps * eps)};
}

Generalized Generalized::hertz() { return Generalized{}; }
Generalized Generalized::uniform() { return Generalized{1.0, 3.83, 2.0 / 3.0, 2.22, 4.85}; }
void Generalized::validate() const {
  require("contensou generalized b", b, 0.0, true);
  require("contensou generalized n", n, 0.0, true);
  require("contensou generalized m0", m0, 0.0, true);
  require("contensou generalized c", c, 0.0, true);
  require("contensou generalized k", k, 0.0, true);
}
Resultant Generalized::operator()(double eps) const { return GeneralizedEvaluator(*this)(eps); }

GeneralizedEvaluator::GeneralizedEvaluator(const Generalized& g)
    : n(g.n),
      k(g.k),
      m0(g.m0),
      log_b(std::log(g.b)),
      log_c(std::log(g.c)),
      inv_n(1.0 / g.n),
      inv_k(1.0 / g.k) {}

Resultant GeneralizedEvaluator::operator()(double eps) const {
  // F = (1 + (b/ε)^n)^{−1/n}, m = m0 (1 + (cε)^k)^{−1/k}, as exp(−softplus(n log(b/ε))/n):
  // log ε = −∞ at ε = 0 and +∞ at ε = ∞, so both limits come out exact without branches. The
  // divisions and log b, log c do not depend on ε and are precomputed: the latency chain is
  // log → exp → log1p → exp.
  const double le = std::log(eps);
  const double F = std::exp(-softplus(n * (log_b - le)) * inv_n);
  const double m = m0 * std::exp(-softplus(k * (log_c + le)) * inv_k);
  return {F, m};
}

}  // namespace coulomb::contensou
