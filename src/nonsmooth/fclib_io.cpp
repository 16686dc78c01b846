/// @file
/// HDF5 input/output of ContactProblem<N> (layouts: coulomb/nonsmooth/fclib_io.hpp). Reading, both
/// sizes, goes through the HDF5 C API and our own checks: every array is sized from its dataset,
/// every declared size, pointer and index is checked against the arrays before use, and HDF5's
/// own error printing is silenced while we read (libfclib's reader trusts the sizes a file
/// declares, so a corrupted file could make it write past its buffers). Writing the force problem
/// goes through libfclib (fclib.h is a C header without C++ guards), the wrench problem through
/// the HDF5 C API (libfclib knows spacedim 2 and 3 only). The block layout of W is gathered and
/// written by the same code for both sizes.

#include <coulomb/nonsmooth/fclib_io.hpp>

extern "C" {
#include <fclib.h>
}
#include <hdf5.h>

#include <fmt/format.h>

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

// Silences HDF5's automatic error printing for its lifetime (every failure becomes one of our
// exceptions instead of a multi-line stack on stderr), then restores what was set.
class QuietHdf5 {
 public:
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  QuietHdf5(const QuietHdf5&) = delete;
  QuietHdf5& operator=(const QuietHdf5&) = delete;
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

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

// Checks that the file stores the `n` elements dataset `set` declares, before anything is sized
// from n: a corrupted (or never written) dataset can declare 2^48 elements in a file of a few
// kilobytes, which HDF5 would read as fill values. The bytes stored for it (at most the file's
// size) bound n: exactly for a plain dataset, by 1032 (deflate's largest ratio) for a compressed
// one.
void check_stored(hid_t set, const std::string& path, const char* name, hsize_t n) {
  const Handle type(H5Dget_type(set), H5Tclose);
  const Handle plist(H5Dget_create_plist(set), H5Pclose);
  const Handle file(H5Iget_file_id(set), H5Fclose);
  const std::size_t type_size = type.id < 0 ? 0 : H5Tget_size(type.id);
  const int filters = plist.id < 0 ? -1 : H5Pget_nfilters(plist.id);
  hsize_t file_size = 0;
  if (type_size == 0 || filters < 0 || file.id < 0 || H5Fget_filesize(file.id, &file_size) < 0)
    io_fail(path, std::string("bad dataset ") + name);
  const hsize_t stored = std::min<hsize_t>(H5Dget_storage_size(set), file_size);
  const hsize_t ratio = filters > 0 ? 1032 : 1;
  if (n / ratio > stored / type_size) {
    io_fail(path,
            fmt::format("dataset {} declares {} elements of {} bytes, the file stores {} bytes "
                        "for it",
                        name, n, type_size, stored));
  }
}

template <class T>
std::vector<T> read_array(hid_t loc, const std::string& path, const char* name) {
  const Handle set(H5Dopen2(loc, name, H5P_DEFAULT), H5Dclose);
  if (set.id < 0) io_fail(path, std::string("missing dataset ") + name);
  const Handle space(H5Dget_space(set.id), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.id);
  if (n < 0) io_fail(path, std::string("bad dataset ") + name);
  if (n > 0) check_stored(set.id, path, name, static_cast<hsize_t>(n));
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

// W of a problem with N unknowns per contact from an FCLIB-like group: sizes `m_name` ×
// `n_name`, `nz` (−2 compressed rows, −1 compressed columns, ≥ 0 triplets: p row indices, i
// column indices), arrays p, i, x. `q_size` (the length of vectors/q, read first) bounds the size
// the group may declare, so no allocation follows a corrupted size. Every pointer and index is
// checked against the arrays before use.
template <int N>
void gather_w(hid_t wg, const std::string& path, const char* m_name, const char* n_name,
              std::size_t q_size, ContactProblem<N>& p) {
  const int m = read_int(wg, path, m_name);
  const int n = read_int(wg, path, n_name);
  const int nz = read_int(wg, path, "nz");
  if (m < 0 || m != n || m % N != 0) {
    throw std::invalid_argument(fmt::format(
        "{}: W must be square with {} rows per contact, declared {} × {}", path, N, m, n));
  }
  if (q_size != static_cast<std::size_t>(m)) {
    throw std::invalid_argument(
        fmt::format("{}: vectors/q must have {} entries (the rows of W), has {}", path, m, q_size));
  }
  const std::vector<int> ptr = read_array<int>(wg, path, "p");
  const std::vector<int> idx = read_array<int>(wg, path, "i");
  const std::vector<double> x = read_array<double>(wg, path, "x");
  BlockGather<N> gather(path, m);
  if (nz == -2 || nz == -1) {
    if (ptr.size() != static_cast<std::size_t>(m) + 1 || ptr[0] != 0) {
      throw std::invalid_argument(fmt::format("{}: W/p must hold {} pointers starting at 0, has {}",
                                              path, m + 1, ptr.size()));
    }
    for (int r = 0; r < m; ++r) {
      if (ptr[r + 1] < ptr[r]) throw std::invalid_argument(path + ": W/p must be non-decreasing");
    }
    const auto used = static_cast<std::size_t>(ptr[m]);
    if (used > idx.size() || used > x.size()) {
      throw std::invalid_argument(
          fmt::format("{}: W/p points at {} entries but W/i and W/x hold {} and {}", path, used,
                      idx.size(), x.size()));
    }
    for (int r = 0; r < m; ++r) {
      for (int k = ptr[r]; k < ptr[r + 1]; ++k) {
        if (nz == -2) {
          gather.add(r, idx[k], x[k]);
        } else {
          gather.add(idx[k], r, x[k]);
        }
      }
    }
  } else if (nz >= 0) {
    const auto count = static_cast<std::size_t>(nz);
    if (ptr.size() < count || idx.size() < count || x.size() < count) {
      throw std::invalid_argument(
          fmt::format("{}: W declares {} triplets but W/p, W/i, W/x hold {}, {}, {}", path, nz,
                      ptr.size(), idx.size(), x.size()));
    }
    for (std::size_t k = 0; k < count; ++k) gather.add(ptr[k], idx[k], x[k]);
  } else {
    throw std::invalid_argument(fmt::format(
        "{}: W/nz must be -2 (compressed rows), -1 (compressed columns) or a triplet count, got {}",
        path, nz));
  }
  gather.flatten(p);
}

}  // namespace

int fclib_unknowns(const std::string& path) {
  const QuietHdf5 quiet;
  const Handle file(open_file(path), H5Fclose);
  if (has_link(file.id, "/fclib_local6")) return kWrench;
  if (has_link(file.id, "/fclib_local")) return kForce;
  io_fail(path, "holds neither /fclib_local6 nor /fclib_local");
}

template <>
ForceProblem read_problem<kForce>(const std::string& path) {
  const QuietHdf5 quiet;
  const Handle file(open_file(path), H5Fclose);
  if (!has_link(file.id, "/fclib_local")) io_fail(path, "holds no /fclib_local problem");
  const Handle group(H5Gopen2(file.id, "/fclib_local", H5P_DEFAULT), H5Gclose);
  if (group.id < 0) io_fail(path, "cannot open /fclib_local");
  const int spacedim = read_int(group.id, path, "spacedim");
  if (spacedim != 3) {
    throw std::invalid_argument(path + ": only spacedim = 3 problems are supported, got " +
                                std::to_string(spacedim));
  }
  if (has_link(group.id, "V") || has_link(group.id, "R")) {
    throw std::invalid_argument(path +
                                ": problems with equality constraints (V, R) are not supported");
  }
  if (!has_link(group.id, "W") || !has_link(group.id, "vectors"))
    io_fail(path, "/fclib_local needs W and vectors");
  const Handle vg(H5Gopen2(group.id, "vectors", H5P_DEFAULT), H5Gclose);
  const std::vector<double> q = read_array<double>(vg.id, path, "q");
  const std::vector<double> mu = read_array<double>(vg.id, path, "mu");
  const Handle wg(H5Gopen2(group.id, "W", H5P_DEFAULT), H5Gclose);
  ForceProblem p;
  gather_w(wg.id, path, "m", "n", q.size(), p);
  const auto nc = static_cast<std::size_t>(p.contact_count);
  if (mu.size() != nc) {
    throw std::invalid_argument(fmt::format(
        "{}: vectors/mu must have {} entries (one per contact), has {}", path, nc, mu.size()));
  }
  p.q.resize(nc);
  p.laws.resize(nc);
  for (std::size_t i = 0; i < nc; ++i) {
    p.q[i] = Vec3(q[3 * i], q[3 * i + 1], q[3 * i + 2]);
    p.laws[i] = mu[i];
  }
  // Symmetry is not required: several published problems are symmetric to 1e-3 relative only.
  p.validate_structure();
  return p;
}

template <>
WrenchProblem read_problem<kWrench>(const std::string& path) {
  const QuietHdf5 quiet;
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
  if (!has_link(group.id, "W") || !has_link(group.id, "vectors"))
    io_fail(path, "missing W or vectors");
  const Handle vg(H5Gopen2(group.id, "vectors", H5P_DEFAULT), H5Gclose);
  const std::vector<double> q = read_array<double>(vg.id, path, "q");
  const Handle wg(H5Gopen2(group.id, "W", H5P_DEFAULT), H5Gclose);
  WrenchProblem p;
  gather_w(wg.id, path, "M", "N", q.size(), p);
  const int nc = p.contact_count;
  // Vectors and laws.
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
  const ForceProblem problem = read_problem<kForce>(path);
  const QuietHdf5 quiet;
  const Handle file(open_file(path), H5Fclose);
  if (!has_link(file.id, "/solution") || !has_link(file.id, "/solution/r") ||
      !has_link(file.id, "/solution/u")) {
    return std::nullopt;
  }
  const Handle group(H5Gopen2(file.id, "/solution", H5P_DEFAULT), H5Gclose);
  const std::vector<double> r = read_array<double>(group.id, path, "r");
  const std::vector<double> u = read_array<double>(group.id, path, "u");
  const auto nc = static_cast<std::size_t>(problem.contact_count);
  if (r.size() != 3 * nc || u.size() != 3 * nc) {
    io_fail(path, fmt::format("solution r and u must have 3 nc = {} entries, have {} and {}",
                              3 * nc, r.size(), u.size()));
  }
  ContactSolution<kForce> s;
  s.r.resize(nc);
  s.u.resize(nc);
  for (std::size_t i = 0; i < nc; ++i) {
    s.r[i] = Vec3(r[3 * i], r[3 * i + 1], r[3 * i + 2]);
    s.u[i] = Vec3(u[3 * i], u[3 * i + 1], u[3 * i + 2]);
  }
  return s;
}

template <>
std::optional<ContactSolution<kWrench>> read_solution<kWrench>(const std::string& path) {
  const QuietHdf5 quiet;
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
  // FCLIB's local problem has cones only: a joint block would be written as a contact.
  if (!problem.joint_rows.empty())
    throw std::invalid_argument(
        "write_problem: the problem has joint blocks, which FCLIB files cannot hold");
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
  // FCLIB's local problem has cones only: a joint block would be written as a contact.
  if (!problem.joint_rows.empty())
    throw std::invalid_argument(
        "write_problem: the problem has joint blocks, which FCLIB files cannot hold");
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
