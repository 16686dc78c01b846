#pragma once
/// @file
/// Reading and writing local frictional contact problems (ContactProblem<N>, both sizes) in HDF5.
///
/// Three unknowns (ForceProblem): the FCLIB format (https://frictionalcontactlibrary.github.io;
/// Acary, Brémond, Koziara, Pérignon 2014), through libfclib. Layout: group /fclib_local with W
/// (compressed rows, columns or triplets; written as compressed rows, nz = −2), vectors/q and
/// vectors/mu, spacedim = 3; group /solution with r and u. Unknowns per contact are ordered
/// (N, T1, T2). Only 3-D problems without the optional equality part (V, R, s) are supported;
/// others are rejected with an exception.
///
/// Six unknowns (WrenchProblem): an FCLIB-like layout of ours. FCLIB defines local problems with
/// spacedim 2 or 3 only, and Siconos' RollingFrictionContactProblem (5 unknowns (N, T1, T2, Mt1,
/// Mt2), one rolling coefficient per contact) is stored in Siconos' own text format, not in
/// FCLIB: there is no published HDF5 layout for contacts with moments. This one mirrors
/// /fclib_local (written with the HDF5 C API directly):
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
/// unknown order drops Mn. A plain 3-D FCLIB file (/fclib_local) is read as a wrench problem by
/// its zero-padded embedding (embed_problem), so every FCLIB file is also a WrenchProblem.

#include <coulomb/nonsmooth/problem.hpp>

#include <optional>
#include <string>
#include <vector>

namespace coulomb {

/// A solution (or guess) of a ContactProblem<N>: r [N s] (and [N m s]) and u = W r + q [m/s]
/// (and [rad/s]), (nc) each.
template <int N>
struct ContactSolution {
  std::vector<VecN<N>> r;  ///< (nc) impulses, normal first
  std::vector<VecN<N>> u;  ///< (nc) velocities, normal first
};

namespace detail {
template <class T>
struct NonDeduced {
  using type = T;
};
}  // namespace detail

/// The unknowns per contact of the problem a file holds: kWrench for /fclib_local6, kForce for
/// /fclib_local (std::runtime_error when it cannot be read or holds neither).
[[nodiscard]] int fclib_unknowns(const std::string& path);

/// Reads a problem with N unknowns per contact.
/// kForce: /fclib_local of an FCLIB file (every 3×3 block that holds a stored entry is kept; a
/// missing diagonal block is added as zero); std::invalid_argument when it is not a 3-D local
/// problem. kWrench: /fclib_local6, or the embedding of /fclib_local; std::invalid_argument when
/// the data are inconsistent. Both throw std::runtime_error when the file cannot be read (or,
/// kWrench, holds neither group). Symmetry is not required (validate_structure).
template <int N>
[[nodiscard]] ContactProblem<N> read_problem(const std::string& path);

/// Reads /solution (r and u; a 3-D FCLIB file's solution read as a wrench solution has zero
/// moments); std::nullopt when the file holds no solution. Throws std::runtime_error when the
/// file cannot be read (kForce: as a local problem).
template <int N>
[[nodiscard]] std::optional<ContactSolution<N>> read_solution(const std::string& path);

/// Writes `problem` (and `solution` when given) to a new file at `path` (replaced if it exists):
/// FCLIB for kForce, /fclib_local6 for kWrench. Throws std::runtime_error on failure,
/// std::invalid_argument on an invalid problem or solution size.
/// (N is deduced from `problem` only, so that a ContactSolution<N> converts to the optional.)
template <int N>
void write_problem(const std::string& path, const ContactProblem<N>& problem,
                   const typename detail::NonDeduced<std::optional<ContactSolution<N>>>::type&
                       solution = std::nullopt);

}  // namespace coulomb
