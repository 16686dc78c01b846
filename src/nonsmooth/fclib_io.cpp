/// @file
/// HDF5 input/output of ContactProblem<N> (layouts: coulomb/nonsmooth/fclib_io.hpp): the force
/// problem through libfclib (fclib.h is a C header without C++ guards), the wrench problem with
/// the HDF5 C API directly (libfclib knows spacedim 2 and 3 only). The block layout of W is
/// gathered and written by the same code for both sizes.

#include <coulomb/nonsmooth/fclib_io.hpp>

extern "C" {
#include <fclib.h>
}
#include <hdf5.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>
#include <type_traits>

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

// An HDF5 handle closed by its own close function.
struct Handle {
  hid_t id = -1;
  herr_t (*close)(hid_t) = nullptr;
  Handle(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (id >= 0) close(id);
  }
};

[[noreturn]] void io_fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what);
}

template <class T>
hid_t native_type() {
  if constexpr (std::is_same_v<T, double>) {
    return H5T_NATIVE_DOUBLE;
  } else {
    return H5T_NATIVE_INT;
  }
}

template <class T>
void write_array(hid_t loc, const std::string& path, const char* name, const std::vector<T>& v) {
  const hsize_t dim = v.size();
  const Handle space(H5Screate_simple(1, &dim, nullptr), H5Sclose);
  const Handle set(
      H5Dcreate2(loc, name, native_type<T>(), space.id, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      H5Dclose);
  if (set.id < 0 || (dim > 0 && H5Dwrite(set.id, native_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                         v.data()) < 0)) {
    io_fail(path, std::string("cannot write ") + name);
  }
}

void write_int(hid_t loc, const std::string& path, const char* name, int value) {
  const Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  const Handle set(
      H5Dcreate2(loc, name, H5T_NATIVE_INT, space.id, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      H5Dclose);
  if (set.id < 0 || H5Dwrite(set.id, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) < 0) {
    io_fail(path, std::string("cannot write ") + name);
  }
}

template <class T>
std::vector<T> read_array(hid_t loc, const std::string& path, const char* name) {
  const Handle set(H5Dopen2(loc, name, H5P_DEFAULT), H5Dclose);
  if (set.id < 0) io_fail(path, std::string("missing dataset ") + name);
  const Handle space(H5Dget_space(set.id), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.id);
  if (n < 0) io_fail(path, std::string("bad dataset ") + name);
  std::vector<T> v(static_cast<std::size_t>(n));
  if (n > 0 && H5Dread(set.id, native_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0) {
    io_fail(path, std::string("cannot read ") + name);
  }
  return v;
}

int read_int(hid_t loc, const std::string& path, const char* name) {
  const std::vector<int> v = read_array<int>(loc, path, name);
  if (v.size() != 1) io_fail(path, std::string(name) + " must be a scalar");
  return v[0];
}

bool has_link(hid_t file, const char* link) { return H5Lexists(file, link, H5P_DEFAULT) > 0; }

// Opens an existing HDF5 file read-only (quietly rejecting other formats).
hid_t open_file(const std::string& path) {
  if (!std::filesystem::exists(path)) io_fail(path, "file not found");
  if (H5Fis_hdf5(path.c_str()) <= 0) io_fail(path, "not an HDF5 file");
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) io_fail(path, "cannot open");
  return f;
}

// W of N rows per contact, entry by entry, into the block compressed-row layout of `p`: every
// N×N block that holds a stored entry is kept (entries of one position are summed in the order
// given), a missing diagonal block is added as zero, columns increase per block row.
template <int N>
class BlockGather {
 public:
  BlockGather(const std::string& path, int m) : path_(path), m_(m), rows_(m / N) {}
  void add(int i, int j, double x) {
    if (i < 0 || i >= m_ || j < 0 || j >= m_) {
      throw std::invalid_argument(path_ + ": W index out of range");
    }
    auto [it, inserted] = rows_[i / N].try_emplace(j / N, BlockN<N>::Zero());
    it->second(i % N, j % N) += x;
  }
  void flatten(ContactProblem<N>& p) {
    const int nc = m_ / N;
    p.contact_count = nc;
    p.row_start.reserve(static_cast<std::size_t>(nc) + 1);
    p.row_start.push_back(0);
    p.diag.resize(static_cast<std::size_t>(nc));
    for (int i = 0; i < nc; ++i) {
      rows_[i].try_emplace(i, BlockN<N>::Zero());
      for (const auto& [j, b] : rows_[i]) {
        if (j == i) p.diag[i] = static_cast<std::int32_t>(p.col.size());
        p.col.push_back(j);
        p.blocks.push_back(b);
      }
      p.row_start.push_back(static_cast<std::int32_t>(p.col.size()));
    }
  }

 private:
  const std::string& path_;
  int m_;
  // Ordered maps: a deterministic block order.
  std::vector<std::map<int, BlockN<N>>> rows_;
};

// W in compressed rows (row pointers, columns, values), every entry of every stored block (so a
// round trip is exact).
template <int N>
void compressed_rows(const ContactProblem<N>& problem, std::vector<int>& rp, std::vector<int>& ci,
                     std::vector<double>& x) {
  const int nc = problem.contact_count;
  rp.assign(static_cast<std::size_t>(N * nc) + 1, 0);
  ci.clear();
  x.clear();
  ci.reserve(problem.blocks.size() * N * N);
  x.reserve(problem.blocks.size() * N * N);
  for (int i = 0; i < nc; ++i) {
    for (int a = 0; a < N; ++a) {
      for (std::int32_t k = problem.row_start[i]; k < problem.row_start[i + 1]; ++k) {
        for (int b = 0; b < N; ++b) {
          ci.push_back(N * problem.col[k] + b);
          x.push_back(problem.blocks[k](a, b));
        }
      }
      rp[N * i + a + 1] = static_cast<int>(ci.size());
    }
  }
}

}  // namespace

template <>
ForceProblem read_problem<kForce>(const std::string& path) {
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

  // Gather entries by block row, then by block column.
  BlockGather<kForce> gather(path, w->m);
  if (w->nz == -2) {  // compressed rows
    for (int i = 0; i < w->m; ++i) {
      for (int k = w->p[i]; k < w->p[i + 1]; ++k) gather.add(i, w->i[k], w->x[k]);
    }
  } else if (w->nz == -1) {  // compressed columns
    for (int j = 0; j < w->n; ++j) {
      for (int k = w->p[j]; k < w->p[j + 1]; ++k) gather.add(w->i[k], j, w->x[k]);
    }
  } else {  // triplets
    for (int k = 0; k < w->nz; ++k) gather.add(w->p[k], w->i[k], w->x[k]);
  }
  ForceProblem p;
  gather.flatten(p);
  // Vectors q and μ.
  p.q.resize(static_cast<std::size_t>(nc));
  p.laws.resize(static_cast<std::size_t>(nc));
  for (int i = 0; i < nc; ++i) {
    p.q[i] = Vec3(local->q[3 * i], local->q[3 * i + 1], local->q[3 * i + 2]);
    p.laws[i] = local->mu[i];
  }
  // Symmetry is not required: several published problems are symmetric to 1e-3 relative only.
  p.validate_structure();
  return p;
}

template <>
WrenchProblem read_problem<kWrench>(const std::string& path) {
  bool ours = false;
  {
    const Handle file(open_file(path), H5Fclose);
    ours = has_link(file.id, "/fclib_local6");
    if (!ours && !has_link(file.id, "/fclib_local")) {
      io_fail(path, "holds neither /fclib_local6 nor /fclib_local");
    }
  }
  if (!ours) return embed_problem(read_problem<kForce>(path));
  const Handle file(open_file(path), H5Fclose);
  const Handle group(H5Gopen2(file.id, "/fclib_local6", H5P_DEFAULT), H5Gclose);
  if (read_int(group.id, path, "spacedim") != 6) io_fail(path, "spacedim must be 6");
  const Handle wg(H5Gopen2(group.id, "W", H5P_DEFAULT), H5Gclose);
  if (wg.id < 0) io_fail(path, "missing W");
  const int m = read_int(wg.id, path, "M");
  const int n = read_int(wg.id, path, "N");
  if (read_int(wg.id, path, "nz") != -2) io_fail(path, "W must be in compressed rows (nz = -2)");
  if (m != n || m % 6 != 0)
    throw std::invalid_argument(path + ": W must be square, 6 rows per contact");
  const std::vector<int> rp = read_array<int>(wg.id, path, "p");
  const std::vector<int> ci = read_array<int>(wg.id, path, "i");
  const std::vector<double> x = read_array<double>(wg.id, path, "x");
  if (rp.size() != static_cast<std::size_t>(m) + 1 || ci.size() != x.size() ||
      rp.back() != static_cast<int>(x.size())) {
    throw std::invalid_argument(path + ": inconsistent W arrays");
  }
  const int nc = m / 6;
  BlockGather<kWrench> gather(path, m);
  for (int i = 0; i < m; ++i) {
    for (int k = rp[i]; k < rp[i + 1]; ++k) gather.add(i, ci[k], x[k]);
  }
  WrenchProblem p;
  gather.flatten(p);
  // Vectors and laws.
  const Handle vg(H5Gopen2(group.id, "vectors", H5P_DEFAULT), H5Gclose);
  if (vg.id < 0) io_fail(path, "missing vectors");
  const std::vector<double> q = read_array<double>(vg.id, path, "q");
  const std::vector<double> mu = read_array<double>(vg.id, path, "mu");
  const std::vector<double> h = read_array<double>(vg.id, path, "h");
  const std::vector<double> k = read_array<double>(vg.id, path, "k");
  const std::vector<double> abar = read_array<double>(vg.id, path, "abar");
  const std::vector<double> a = read_array<double>(vg.id, path, "a");
  const std::vector<int> coupling = read_array<int>(vg.id, path, "coupling");
  const std::vector<int> pressure = read_array<int>(vg.id, path, "pressure");
  const auto n_c = static_cast<std::size_t>(nc);
  if (q.size() != 6 * n_c || mu.size() != n_c || h.size() != n_c || k.size() != n_c ||
      abar.size() != n_c || a.size() != n_c || coupling.size() != n_c || pressure.size() != n_c) {
    throw std::invalid_argument(path + ": vectors must have 6 nc (q) or nc entries");
  }
  p.q.resize(n_c);
  p.laws.resize(n_c);
  for (std::size_t i = 0; i < n_c; ++i) {
    for (int c = 0; c < 6; ++c) p.q[i][c] = q[6 * i + c];
    ContactLaw6& law = p.laws[i];
    law.mu = mu[i];
    law.h = h[i];
    law.k = k[i];
    law.abar = abar[i];
    law.a = a[i];
    if (coupling[i] < 0 || coupling[i] > 2 || pressure[i] < 0 || pressure[i] > 1) {
      throw std::invalid_argument(path + ": coupling must be 0..2 and pressure 0..1");
    }
    law.coupling = static_cast<ContactLaw6::Coupling>(coupling[i]);
    law.pressure = pressure[i] == 0 ? contensou::Pressure::hertz : contensou::Pressure::uniform;
  }
  p.validate_structure();
  return p;
}

template <>
std::optional<ContactSolution<kForce>> read_solution<kForce>(const std::string& path) {
  const auto local = open_local(path);
  const int n = local->W->m;
  if (!has_links(path, {"/solution", "/solution/r", "/solution/u"})) return std::nullopt;
  std::unique_ptr<fclib_solution, SolutionDeleter> sol(fclib_read_solution(path.c_str()));
  if (!sol || sol->r == nullptr || sol->u == nullptr) return std::nullopt;
  ContactSolution<kForce> s;
  s.r.resize(static_cast<std::size_t>(n / 3));
  s.u.resize(static_cast<std::size_t>(n / 3));
  for (int i = 0; i < n / 3; ++i) {
    s.r[i] = Vec3(sol->r[3 * i], sol->r[3 * i + 1], sol->r[3 * i + 2]);
    s.u[i] = Vec3(sol->u[3 * i], sol->u[3 * i + 1], sol->u[3 * i + 2]);
  }
  return s;
}

template <>
std::optional<ContactSolution<kWrench>> read_solution<kWrench>(const std::string& path) {
  const Handle file(open_file(path), H5Fclose);
  if (!has_link(file.id, "/solution") || !has_link(file.id, "/solution/r") ||
      !has_link(file.id, "/solution/u")) {
    return std::nullopt;
  }
  const bool ours = has_link(file.id, "/fclib_local6");
  const int dim = ours ? 6 : 3;
  const Handle group(H5Gopen2(file.id, "/solution", H5P_DEFAULT), H5Gclose);
  const std::vector<double> r = read_array<double>(group.id, path, "r");
  const std::vector<double> u = read_array<double>(group.id, path, "u");
  if (r.size() != u.size() || r.size() % dim != 0) io_fail(path, "inconsistent solution sizes");
  ContactSolution<kWrench> s;
  const std::size_t nc = r.size() / dim;
  s.r.assign(nc, Vec6::Zero());
  s.u.assign(nc, Vec6::Zero());
  for (std::size_t i = 0; i < nc; ++i) {
    for (int c = 0; c < dim; ++c) {
      s.r[i][c] = r[dim * i + c];
      s.u[i][c] = u[dim * i + c];
    }
  }
  return s;
}

template <>
void write_problem<kForce>(const std::string& path, const ForceProblem& problem,
                           const std::optional<ContactSolution<kForce>>& solution) {
  problem.validate_structure();
  const int nc = problem.contact_count;
  const int n = 3 * nc;
  std::vector<int> row_ptr, cols;
  std::vector<double> vals;
  compressed_rows(problem, row_ptr, cols, vals);
  std::vector<double> q(static_cast<std::size_t>(n));
  std::vector<double> mu(problem.laws);
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
    throw std::invalid_argument("write_problem: solution r and u must have nc entries");
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

template <>
void write_problem<kWrench>(const std::string& path, const WrenchProblem& problem,
                            const std::optional<ContactSolution<kWrench>>& solution) {
  problem.validate_structure();
  const int nc = problem.contact_count;
  const auto n_c = static_cast<std::size_t>(nc);
  if (solution && (solution->r.size() != n_c || solution->u.size() != n_c)) {
    throw std::invalid_argument("write_problem: solution r and u must have nc entries");
  }
  std::vector<int> rp, ci;
  std::vector<double> x;
  compressed_rows(problem, rp, ci, x);
  std::vector<double> q(6 * n_c), mu(n_c), h(n_c), k(n_c), abar(n_c), a(n_c);
  std::vector<int> coupling(n_c), pressure(n_c);
  for (std::size_t i = 0; i < n_c; ++i) {
    for (int c = 0; c < 6; ++c) q[6 * i + c] = problem.q[i][c];
    const ContactLaw6& law = problem.laws[i];
    mu[i] = law.mu;
    h[i] = law.h;
    k[i] = law.k;
    abar[i] = law.abar;
    a[i] = law.a;
    coupling[i] = static_cast<int>(law.coupling);
    pressure[i] = law.pressure == contensou::Pressure::hertz ? 0 : 1;
  }
  // A fresh file.
  const Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  if (file.id < 0) io_fail(path, "cannot create");
  const Handle group(H5Gcreate2(file.id, "/fclib_local6", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                     H5Gclose);
  write_int(group.id, path, "spacedim", 6);
  {
    const Handle wg(H5Gcreate2(group.id, "W", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    write_int(wg.id, path, "M", 6 * nc);
    write_int(wg.id, path, "N", 6 * nc);
    write_int(wg.id, path, "nzmax", static_cast<int>(x.size()));
    write_int(wg.id, path, "nz", -2);
    write_array(wg.id, path, "p", rp);
    write_array(wg.id, path, "i", ci);
    write_array(wg.id, path, "x", x);
  }
  {
    const Handle vg(H5Gcreate2(group.id, "vectors", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                    H5Gclose);
    write_array(vg.id, path, "q", q);
    write_array(vg.id, path, "mu", mu);
    write_array(vg.id, path, "h", h);
    write_array(vg.id, path, "k", k);
    write_array(vg.id, path, "abar", abar);
    write_array(vg.id, path, "a", a);
    write_array(vg.id, path, "coupling", coupling);
    write_array(vg.id, path, "pressure", pressure);
  }
  if (!solution) return;
  const Handle sg(H5Gcreate2(file.id, "/solution", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                  H5Gclose);
  std::vector<double> r(6 * n_c), u(6 * n_c);
  for (std::size_t i = 0; i < n_c; ++i) {
    for (int c = 0; c < 6; ++c) {
      r[6 * i + c] = solution->r[i][c];
      u[6 * i + c] = solution->u[i][c];
    }
  }
  write_array(sg.id, path, "r", r);
  write_array(sg.id, path, "u", u);
}

}  // namespace coulomb
