/// @file
/// ContactProblem: the local frictional contact problem as a value (block-sparse W, q, μ).
/// Data layout: W is a block compressed-row matrix of 3×3 row-major blocks because the
/// Gauss–Seidel sweep reads one block row at a time (coulomb/nonsmooth/problem.hpp).

#include <coulomb/nonsmooth/problem.hpp>

#include "block_sparse.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>

namespace coulomb {

void ContactProblem::clear() {
  contact_count = 0;
  mu.clear();
  q.clear();
  row_start.clear();
  col.clear();
  blocks.clear();
  diag.clear();
}

Eigen::MatrixXd ContactProblem::dense_w() const { return detail::dense_w<3>(*this); }

void ContactProblem::velocity(const std::vector<Vec3>& r, std::vector<Vec3>& u) const {
  assert(static_cast<int>(r.size()) == contact_count);
  detail::velocity(*this, r, u);
}

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("ContactProblem: " + what);
}

}  // namespace

void ContactProblem::validate_structure() const {
  detail::validate_pattern(*this, fail);
  // μ: one per contact, finite and >= 0.
  if (mu.size() != q.size())
    fail("mu must have contact_count entries, has " + std::to_string(mu.size()));
  for (const double m : mu)
    if (!std::isfinite(m) || m < 0.0) fail("mu must be finite and >= 0");
}

void ContactProblem::validate() const {
  validate_structure();
  detail::validate_symmetry(*this, fail);
}

}  // namespace coulomb
