/// @file
/// HDF5 input/output of ContactProblem6 (layout: coulomb/nonsmooth/fclib_io6.hpp), with the HDF5
/// C API directly (libfclib knows spacedim 2 and 3 only).

#include <coulomb/nonsmooth/fclib_io.hpp>
#include <coulomb/nonsmooth/fclib_io6.hpp>

#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <type_traits>

namespace coulomb {
namespace {

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

}  // namespace

ContactProblem6 read_problem6(const std::string& path) {
  bool ours = false;
  {
    const Handle file(open_file(path), H5Fclose);
    ours = has_link(file.id, "/fclib_local6");
    if (!ours && !has_link(file.id, "/fclib_local")) {
      io_fail(path, "holds neither /fclib_local6 nor /fclib_local");
    }
  }
  if (!ours) return embed_problem(read_fclib_local(path));
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
  // Blocks: every block that holds a stored entry, in increasing column order per block row.
  ContactProblem6 p;
  p.contact_count = nc;
  p.row_start.push_back(0);
  for (int bi = 0; bi < nc; ++bi) {
    std::vector<int> cols;
    for (int a = 0; a < 6; ++a) {
      for (int k = rp[6 * bi + a]; k < rp[6 * bi + a + 1]; ++k) {
        if (ci[k] < 0 || ci[k] >= n) throw std::invalid_argument(path + ": W index out of range");
        cols.push_back(ci[k] / 6);
      }
    }
    cols.push_back(bi);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    const auto first = static_cast<std::int32_t>(p.col.size());
    for (const int c : cols) {
      if (c == bi) p.diag.push_back(static_cast<std::int32_t>(p.col.size()));
      p.col.push_back(c);
      p.blocks.push_back(Block6::Zero());
    }
    for (int a = 0; a < 6; ++a) {
      for (int k = rp[6 * bi + a]; k < rp[6 * bi + a + 1]; ++k) {
        const auto it = std::lower_bound(p.col.begin() + first, p.col.end(), ci[k] / 6);
        p.blocks[static_cast<std::size_t>(it - p.col.begin())](a, ci[k] % 6) += x[k];
      }
    }
    p.row_start.push_back(static_cast<std::int32_t>(p.col.size()));
  }
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

std::optional<ContactSolution6> read_solution6(const std::string& path) {
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
  ContactSolution6 s;
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

void write_problem6(const std::string& path, const ContactProblem6& problem,
                    const std::optional<ContactSolution6>& solution) {
  problem.validate_structure();
  const int nc = problem.contact_count;
  const auto n_c = static_cast<std::size_t>(nc);
  if (solution && (solution->r.size() != n_c || solution->u.size() != n_c)) {
    throw std::invalid_argument("write_problem6: solution r and u must have nc entries");
  }
  // W in compressed rows, every entry of every stored block (an exact round trip).
  std::vector<int> rp(6 * n_c + 1, 0), ci;
  std::vector<double> x;
  for (int i = 0; i < nc; ++i) {
    for (int a = 0; a < 6; ++a) {
      for (std::int32_t k = problem.row_start[i]; k < problem.row_start[i + 1]; ++k) {
        for (int b = 0; b < 6; ++b) {
          ci.push_back(6 * problem.col[k] + b);
          x.push_back(problem.blocks[k](a, b));
        }
      }
      rp[6 * i + a + 1] = static_cast<int>(ci.size());
    }
  }
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
