#pragma once
/// @file
/// Reading and writing local frictional contact problems in the FCLIB HDF5 format
/// (https://frictionalcontactlibrary.github.io; Acary, Brémond, Koziara, Pérignon 2014).
///
/// Layout: group /fclib_local with W (compressed rows, columns or triplets; written as compressed
/// rows, nz = −2), vectors/q and vectors/mu, spacedim = 3; group /solution with r and u.
/// Unknowns per contact are ordered (N, T1, T2), as in ContactProblem. Only 3-D problems without
/// the optional equality part (V, R, s) are supported; others are rejected with an exception.

#include <coulomb/nonsmooth/problem.hpp>

#include <optional>
#include <string>
#include <vector>

namespace coulomb {

/// A solution (or guess) of a ContactProblem: r [N s] and u = W r + q [m/s], (nc) each.
struct ContactSolution {
  std::vector<Vec3> r;  ///< (nc) impulses (N, T1, T2)
  std::vector<Vec3> u;  ///< (nc) velocities (N, T1, T2)
};

/// Reads /fclib_local of an FCLIB file into a block-sparse problem (every 3×3 block that holds a
/// stored entry is kept; a missing diagonal block is added as zero). Throws std::runtime_error
/// when the file cannot be read and std::invalid_argument when it is not a 3-D local problem.
[[nodiscard]] ContactProblem read_fclib_local(const std::string& path);

/// Reads /solution of an FCLIB file (r and u); std::nullopt when the file holds no solution.
/// Throws std::runtime_error when the file cannot be read as a local problem.
[[nodiscard]] std::optional<ContactSolution> read_fclib_solution(const std::string& path);

/// Writes `problem` (and `solution` when given) to a new FCLIB file at `path` (replaced if it
/// exists). Throws std::runtime_error on failure.
void write_fclib_local(const std::string& path, const ContactProblem& problem,
                       const std::optional<ContactSolution>& solution = std::nullopt);

}  // namespace coulomb
