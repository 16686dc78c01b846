#pragma once
/// @file
/// Anderson acceleration of a fixed-point iteration x ← G(x) (here: one Gauss–Seidel sweep with
/// exact local solves), with restart on growth of the fixed-point residual.
///
///   f_k = G(x_k) − x_k,   ΔF = [f_{i+1} − f_i],  ΔG = [G(x_{i+1}) − G(x_i)]  (the last m pairs)
///   γ = argmin ‖f_k − ΔF γ‖,   x_{k+1} = G(x_k) − ΔG γ
///
/// (Anderson 1965; Walker & Ni, SIAM J. Numer. Anal. 49 (2011) 1715–1735, "type II" form). On a
/// linear fixed-point map it is equivalent to GMRES on the preconditioned system, so Gauss–Seidel
/// acquires a Krylov method's rate (about √κ instead of κ sweeps per decade). The sweep is not
/// linear (cones, stick/slip switches): when the residual ‖f_k‖ grows the history is dropped and
/// the plain sweep is taken (a restart, the safeguard of e.g. Pollock & Rebholz 2021), which is
/// what keeps the accelerated iteration from wandering after an active-set change.
///
/// Measured on the 35 FCLIB files (docs/nonsmooth-solvers.md, "Anderson acceleration"): depth 5
/// cuts the sweeps of NSGS to 1e-8 by 3–20× on the large problems and solves four that plain NSGS
/// does not; without the restart it diverges on two of them.
///
/// Least squares by the normal equations of the m×m Gram matrix ΔFᵀΔF, updated incrementally (2m
/// dot products per iteration), regularised by 1e-12 of its largest diagonal entry. The history is
/// a ring of m columns in flat buffers: no allocation once sized.
#include <coulomb/math/parallel.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace coulomb {

/// Anderson acceleration with restart (the file comment); the NSGS loop owns one per workspace.
class AndersonAcceleration {
 public:
  // The deepest history (the small matrices are then fixed-size, on the stack).
  static constexpr int kMaxDepth = 8;
  // Entries (3 per contact) from which the extrapolation's pass runs on every core: 2048 contacts
  // (measured on the 8000-sphere pile; docs/benchmarks.md, sixteenth wave). Its sums (the
  // residual's norm, the Gram entries) stay in index order on one thread, so that the bits do not
  // depend on the threads.
  static constexpr std::ptrdiff_t kParallelMin = 6144;

  // Sizes the buffers for `depth` columns of length n and drops the history.
  void reset(int depth, std::size_t n) {
    depth_ = std::clamp(depth, 0, kMaxDepth);
    n_ = n;
    dF_.resize(static_cast<std::size_t>(depth_) * n);
    dG_.resize(static_cast<std::size_t>(depth_) * n);
    f_prev_.resize(n);
    g_prev_.resize(n);
    gram_.setZero(depth_, depth_);
    restart();
  }
  // Drops the history (the next call only records).
  void restart() {
    count_ = 0;
    head_ = 0;
    have_prev_ = false;
  }
  [[nodiscard]] int depth() const { return depth_; }

  // x: the iterate before the sweep, g: G(x) after it (both of length n). Writes the accelerated
  // iterate into x (g is left as it is) and returns true, or returns false when the history is
  // empty or was just dropped (then x is not touched: the caller keeps g).
  bool extrapolate(double* x, const double* g) {
    if (depth_ == 0) return false;
    // f = g − x and its norm, and with a history the new column (f − f_prev, g − g_prev) at the
    // head of the ring in the same pass (written before the restart test below: a restart
    // drops the history, and the slot with it).
    double fn2 = 0.0;
    double* dF = &dF_[static_cast<std::size_t>(head_) * n_];
    double* dG = &dG_[static_cast<std::size_t>(head_) * n_];
    if (have_prev_) {
      for (std::size_t i = 0; i < n_; ++i) {
        const double f = g[i] - x[i];
        fn2 += f * f;
        dF[i] = f - f_prev_[i];
        dG[i] = g[i] - g_prev_[i];
      }
    } else {
      for (std::size_t i = 0; i < n_; ++i) {
        const double f = g[i] - x[i];
        fn2 += f * f;
      }
    }
    const double fn = std::sqrt(fn2);
    // A residual larger than the last one drops the history.
    if (have_prev_ && !(fn <= fn_prev_)) restart();
    bool extrapolated = false;
    if (have_prev_) {
      count_ = std::min(count_ + 1, depth_);
      // The new column's Gram entries and γ's right-hand side ΔFᵀ f.
      const int m = count_;
      rhs_.resize(m);
      column_sums(m, dF, x, g);
      head_ = (head_ + 1) % depth_;
      // γ from (ΔFᵀΔF + λI) γ = ΔFᵀ f over the stored columns.
      system_ = gram_.topLeftCorner(m, m);
      const double lambda = 1e-12 * system_.diagonal().maxCoeff();
      system_.diagonal().array() += lambda > 0.0 ? lambda : 1e-300;
      gamma_ = system_.ldlt().solve(rhs_);
      if (gamma_.allFinite()) {
        // Record (f, g) and write the extrapolation over x in one pass (x[i] is read before it
        // is overwritten); each entry on its own, so on every core from kParallelMin entries.
        parallel_for(static_cast<std::ptrdiff_t>(n_), kParallelMin, [&](std::ptrdiff_t k) {
          const auto i = static_cast<std::size_t>(k);
          f_prev_[i] = g[i] - x[i];
          g_prev_[i] = g[i];
          double v = g[i];
          for (int j = 0; j < m; ++j) v -= gamma_[j] * dG_[static_cast<std::size_t>(j) * n_ + i];
          x[i] = v;
        });
        fn_prev_ = fn;
        extrapolated = true;
      } else {
        restart();
      }
    }
    if (!extrapolated) record(x, g, fn);
    return extrapolated;
  }

 private:
  // The new column's Gram entries ΔF_jᵀ dF and the right-hand side ΔF_jᵀ f for the m stored
  // columns, in one pass over the index for all of them: 2m independent sums, each added in index
  // order as a pass per column would add it (the same bits), where a pass per column waited on
  // one addition after another (2 sums a pass: 10 % of a moving pile's sweep at depth 5).
  void column_sums(int m, const double* dF, const double* x, const double* g) {
    switch (m) {
      case 1:
        return column_sums<1>(dF, x, g);
      case 2:
        return column_sums<2>(dF, x, g);
      case 3:
        return column_sums<3>(dF, x, g);
      case 4:
        return column_sums<4>(dF, x, g);
      case 5:
        return column_sums<5>(dF, x, g);
      case 6:
        return column_sums<6>(dF, x, g);
      case 7:
        return column_sums<7>(dF, x, g);
      default:
        return column_sums<8>(dF, x, g);
    }
  }
  template <int M>
  void column_sums(const double* dF, const double* x, const double* g) {
    static_assert(M >= 1 && M <= kMaxDepth);
    const double* column[M];
    double d[M];
    double b[M];
    for (int j = 0; j < M; ++j) {
      column[j] = &dF_[static_cast<std::size_t>(j) * n_];
      d[j] = 0.0;
      b[j] = 0.0;
    }
    for (std::size_t i = 0; i < n_; ++i) {
      const double dfi = dF[i];
      const double fi = g[i] - x[i];
      for (int j = 0; j < M; ++j) {
        d[j] += dfi * column[j][i];
        b[j] += column[j][i] * fi;
      }
    }
    for (int j = 0; j < M; ++j) {
      gram_(head_, j) = d[j];
      gram_(j, head_) = d[j];
      rhs_[j] = b[j];
    }
  }
  void record(const double* x, const double* g, double fn) {
    for (std::size_t i = 0; i < n_; ++i) {
      f_prev_[i] = g[i] - x[i];
      g_prev_[i] = g[i];
    }
    fn_prev_ = fn;
    have_prev_ = true;
  }

  int depth_ = 0;
  std::size_t n_ = 0;
  int count_ = 0;  // stored columns
  int head_ = 0;   // where the next column goes
  bool have_prev_ = false;
  double fn_prev_ = 0.0;
  std::vector<double> dF_, dG_, f_prev_, g_prev_;
  using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDepth, kMaxDepth>;
  using SmallVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxDepth, 1>;
  Small gram_, system_;
  SmallVec rhs_, gamma_;
};

}  // namespace coulomb
