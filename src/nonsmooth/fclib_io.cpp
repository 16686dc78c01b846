/// @file
/// FCLIB input/output through libfclib (fclib.h is a C header without C++ guards).

#include <coulomb/nonsmooth/fclib_io.hpp>

extern "C" {
#include <fclib.h>
}
#include <hdf5.h>

#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>

namespace coulomb {
namespace {

// Owning wrappers of libfclib's heap structures.
struct LocalDeleter {
  void operator()(fclib_local* p) const { fclib_delete_local(p); }
};
struct SolutionDeleter {
  void operator()(fclib_solution* p) const { fclib_delete_solutions(p, 1); }
};

// Whether every path of `links` exists in the HDF5 file (libfclib exits the process on a missing
// group, so the file is probed first).
bool has_links(const std::string& path, std::initializer_list<const char*> links) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return false;
  bool all = true;
  for (const char* link : links) {
    if (H5Lexists(file, link, H5P_DEFAULT) <= 0) {
      all = false;
      break;
    }
  }
  H5Fclose(file);
  return all;
}

std::unique_ptr<fclib_local, LocalDeleter> open_local(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    throw std::runtime_error("FCLIB file not found: " + path);
  }
  // H5Fis_hdf5 checks the signature quietly; H5Fopen on another format prints HDF5's error stack.
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    throw std::runtime_error(path + " is not an HDF5 file");
  }
  if (!has_links(path, {"/fclib_local", "/fclib_local/W", "/fclib_local/vectors"})) {
    throw std::runtime_error(path + " holds no /fclib_local problem");
  }
  std::unique_ptr<fclib_local, LocalDeleter> local(fclib_read_local(path.c_str()));
  if (!local) throw std::runtime_error("cannot read /fclib_local from " + path);
  return local;
}

}  // namespace

ContactProblem read_fclib_local(const std::string& path) {
  const auto local = open_local(path);
  if (local->spacedim != 3) {
    throw std::invalid_argument(path + ": only spacedim = 3 problems are supported");
  }
  if (local->V != nullptr || local->R != nullptr) {
    throw std::invalid_argument(path +
                                ": problems with equality constraints (V, R) are not supported");
  }
  const fclib_matrix* w = local->W;
  if (w == nullptr || w->m != w->n || w->m % 3 != 0) {
    throw std::invalid_argument(path + ": W must be square with 3 rows per contact");
  }
  const int nc = w->m / 3;

  // Gather entries by block row, then by block column (ordered maps: deterministic order).
  std::vector<std::map<int, Block3>> rows(static_cast<std::size_t>(nc));
  const auto add = [&](int i, int j, double x) {
    if (i < 0 || i >= w->m || j < 0 || j >= w->n) {
      throw std::invalid_argument(path + ": W index out of range");
    }
    auto [it, inserted] = rows[i / 3].try_emplace(j / 3, Block3::Zero());
    it->second(i % 3, j % 3) += x;
  };
  if (w->nz == -2) {  // compressed rows
    for (int i = 0; i < w->m; ++i) {
      for (int k = w->p[i]; k < w->p[i + 1]; ++k) add(i, w->i[k], w->x[k]);
    }
  } else if (w->nz == -1) {  // compressed columns
    for (int j = 0; j < w->n; ++j) {
      for (int k = w->p[j]; k < w->p[j + 1]; ++k) add(w->i[k], j, w->x[k]);
    }
  } else {  // triplets
    for (int k = 0; k < w->nz; ++k) add(w->p[k], w->i[k], w->x[k]);
  }

  // Flatten into the block compressed-row layout, adding missing diagonal blocks.
  ContactProblem p;
  p.contact_count = nc;
  p.row_start.reserve(static_cast<std::size_t>(nc) + 1);
  p.row_start.push_back(0);
  p.diag.resize(static_cast<std::size_t>(nc));
  for (int i = 0; i < nc; ++i) {
    rows[i].try_emplace(i, Block3::Zero());
    for (const auto& [j, b] : rows[i]) {
      if (j == i) p.diag[i] = static_cast<std::int32_t>(p.col.size());
      p.col.push_back(j);
      p.blocks.push_back(b);
    }
    p.row_start.push_back(static_cast<std::int32_t>(p.col.size()));
  }
  // Vectors q and μ.
  p.q.resize(static_cast<std::size_t>(nc));
  p.mu.resize(static_cast<std::size_t>(nc));
  for (int i = 0; i < nc; ++i) {
    p.q[i] = Vec3(local->q[3 * i], local->q[3 * i + 1], local->q[3 * i + 2]);
    p.mu[i] = local->mu[i];
  }
  // Symmetry is not required: several published problems are symmetric to 1e-3 relative only.
  p.validate_structure();
  return p;
}

std::optional<ContactSolution> read_fclib_solution(const std::string& path) {
  const auto local = open_local(path);
  const int n = local->W->m;
  if (!has_links(path, {"/solution", "/solution/r", "/solution/u"})) return std::nullopt;
  std::unique_ptr<fclib_solution, SolutionDeleter> sol(fclib_read_solution(path.c_str()));
  if (!sol || sol->r == nullptr || sol->u == nullptr) return std::nullopt;
  ContactSolution s;
  s.r.resize(static_cast<std::size_t>(n / 3));
  s.u.resize(static_cast<std::size_t>(n / 3));
  for (int i = 0; i < n / 3; ++i) {
    s.r[i] = Vec3(sol->r[3 * i], sol->r[3 * i + 1], sol->r[3 * i + 2]);
    s.u[i] = Vec3(sol->u[3 * i], sol->u[3 * i + 1], sol->u[3 * i + 2]);
  }
  return s;
}

void write_fclib_local(const std::string& path, const ContactProblem& problem,
                       const std::optional<ContactSolution>& solution) {
  problem.validate_structure();
  const int nc = problem.contact_count;
  const int n = 3 * nc;
  // W in compressed rows, every entry of every stored block (so a round trip is exact).
  std::vector<int> row_ptr(static_cast<std::size_t>(n) + 1, 0);
  std::vector<int> cols;
  std::vector<double> vals;
  cols.reserve(problem.blocks.size() * 9);
  vals.reserve(problem.blocks.size() * 9);
  for (int i = 0; i < nc; ++i) {
    for (int a = 0; a < 3; ++a) {
      for (std::int32_t k = problem.row_start[i]; k < problem.row_start[i + 1]; ++k) {
        for (int b = 0; b < 3; ++b) {
          cols.push_back(3 * problem.col[k] + b);
          vals.push_back(problem.blocks[k](a, b));
        }
      }
      row_ptr[3 * i + a + 1] = static_cast<int>(cols.size());
    }
  }
  std::vector<double> q(static_cast<std::size_t>(n));
  std::vector<double> mu(problem.mu);
  for (int i = 0; i < nc; ++i) {
    for (int a = 0; a < 3; ++a) q[3 * i + a] = problem.q[i][a];
  }
  fclib_matrix w{};
  w.nzmax = static_cast<int>(vals.size());
  w.m = n;
  w.n = n;
  w.p = row_ptr.data();
  w.i = cols.data();
  w.x = vals.data();
  w.nz = -2;
  w.info = nullptr;
  fclib_local local{};
  local.W = &w;
  local.V = nullptr;
  local.R = nullptr;
  local.mu = mu.data();
  local.q = q.data();
  local.s = nullptr;
  local.spacedim = 3;
  local.info = nullptr;

  // A fresh file: libfclib appends to an existing one.
  std::error_code ec;
  std::filesystem::remove(path, ec);
  if (fclib_write_local(&local, path.c_str()) != 1) {
    throw std::runtime_error("cannot write FCLIB problem to " + path);
  }
  if (!solution) return;
  if (static_cast<int>(solution->r.size()) != nc || static_cast<int>(solution->u.size()) != nc) {
    throw std::invalid_argument("write_fclib_local: solution r and u must have nc entries");
  }
  std::vector<double> r(static_cast<std::size_t>(n));
  std::vector<double> u(static_cast<std::size_t>(n));
  for (int i = 0; i < nc; ++i) {
    for (int a = 0; a < 3; ++a) {
      r[3 * i + a] = solution->r[i][a];
      u[3 * i + a] = solution->u[i][a];
    }
  }
  fclib_solution sol{};
  sol.v = nullptr;
  sol.u = u.data();
  sol.r = r.data();
  sol.l = nullptr;
  if (fclib_write_solution(&sol, path.c_str()) != 1) {
    throw std::runtime_error("cannot write FCLIB solution to " + path);
  }
}

}  // namespace coulomb
