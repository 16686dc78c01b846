#pragma once
/// @file
/// HDF5 input/output of ContactProblem6, in an FCLIB-like layout of ours.
///
/// FCLIB (Acary, Brémond, Koziara, Pérignon 2014) defines local problems with spacedim 2 or 3
/// only, and Siconos' RollingFrictionContactProblem (5 unknowns (N, T1, T2, Mt1, Mt2), one rolling
/// coefficient per contact) is stored in Siconos' own text format, not in FCLIB: there is no
/// published HDF5 layout for contacts with moments. This one mirrors /fclib_local:
///
///   /fclib_local6/spacedim          int, 6
///   /fclib_local6/W/{M,N,nzmax,nz}  int scalars (nz = −2: compressed rows), W/p (M+1), W/i, W/x
///   /fclib_local6/vectors/q         6 nc doubles, per contact (N, T1, T2, Mn, Mt1, Mt2)
///   /fclib_local6/vectors/{mu,h,k,abar,a}  nc doubles (ContactLaw6)
///   /fclib_local6/vectors/coupling  nc ints (0 none, 1 ellipsoid, 2 exact)
///   /fclib_local6/vectors/pressure  nc ints (0 Hertz, 1 uniform)
///   /solution/r, /solution/u        6 nc doubles (optional), as FCLIB's solution group
///
/// Siconos' rolling problem is the special case h = 0, no coupling (its μ_r is our k); its
/// unknown order drops Mn. A plain 3-D FCLIB file (/fclib_local) is read as its zero-padded
/// embedding (embed_problem), so every FCLIB file is also a ContactProblem6.

#include <coulomb/nonsmooth/problem6.hpp>

#include <optional>
#include <string>
#include <vector>

namespace coulomb {

/// A solution (or guess) of a ContactProblem6: r and u = W r + q, (nc) each.
struct ContactSolution6 {
  std::vector<Vec6> r;  ///< (nc)
  std::vector<Vec6> u;  ///< (nc)
};

/// Reads /fclib_local6, or embeds /fclib_local. Throws std::runtime_error when the file cannot be
/// read or holds neither group, std::invalid_argument when the data are inconsistent.
[[nodiscard]] ContactProblem6 read_problem6(const std::string& path);

/// Reads /solution (embedded with zero moments for a 3-D FCLIB file); nullopt when absent.
[[nodiscard]] std::optional<ContactSolution6> read_solution6(const std::string& path);

/// Writes `problem` (and `solution`) to a new file at `path` (replaced if it exists). Throws
/// std::runtime_error on failure, std::invalid_argument on an invalid problem or solution size.
void write_problem6(const std::string& path, const ContactProblem6& problem,
                    const std::optional<ContactSolution6>& solution = std::nullopt);

}  // namespace coulomb
