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
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace coulomb {

/// Anderson acceleration with restart (the file comment); the NSGS loop owns one per workspace.
class AndersonAcceleration {
 public:
  // The deepest history (the small matrices are then fixed-size, on the stack).
  static constexpr int kMaxDepth = 8;
  // The extrapolation's passes over the entries (3 per contact) run on every core from
  // kParallelMin entries. Its sums (the residual's norm, the Gram entries, the right-hand side)
  // are then added block by block, kSumBlock entries a block, each block in index order and the
  // blocks in order (parallel_blocked_sums), so that the bits depend on the length only, not on
  // the threads; below kParallelMin the whole index is one block, added in order on one thread. Why
  // from 512 contacts: on the moving pile of 10³ spheres (1100–1700 contacts) the extrapolation on
  // one thread took a third of a sweep's time, and the other core waited (docs/benchmarks.md,
  // eighteenth wave).
  static constexpr std::ptrdiff_t kParallelMin = 1536;
  static constexpr std::ptrdiff_t kSumBlock = 768;

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
    // One pass: f = g − x and its norm, and with a history the new column (f − f_prev,
    // g − g_prev) at the head of the ring with its Gram entries and γ's right-hand side over the
    // m columns it would make (written before the restart test below: a restart drops the
    // history, and the slot with it, and the sums are not used).
    const int m = have_prev_ ? std::min(count_ + 1, depth_) : 0;
    std::array<double, kSums> sums{};
    residual_pass(m, x, g, sums);
    const double fn = std::sqrt(sums[0]);
    // A residual larger than the last one drops the history.
    if (have_prev_ && !(fn <= fn_prev_)) restart();
    bool extrapolated = false;
    if (have_prev_) {
      count_ = m;
      rhs_.resize(m);
      for (int j = 0; j < m; ++j) {
        gram_(head_, j) = sums[1 + j];
        gram_(j, head_) = sums[1 + j];
        rhs_[j] = sums[1 + kMaxDepth + j];
      }
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
  // sums[0] = ‖f‖², sums[1 + j] = ΔF_jᵀ dF and sums[1 + kMaxDepth + j] = ΔF_jᵀ f for j < m.
  static constexpr std::size_t kSums = 1 + 2 * kMaxDepth;

  // The residual's pass over the whole index (residual_range per block): its 2m + 1 sums are
  // independent, each added in index order (a pass per sum waited on one addition after another:
  // 2 sums a pass were 10 % of a moving pile's sweep at depth 5).
  void residual_pass(int m, const double* x, const double* g, std::array<double, kSums>& sums) {
    switch (m) {
      case 0:
        return residual_pass<0>(x, g, sums);
      case 1:
        return residual_pass<1>(x, g, sums);
      case 2:
        return residual_pass<2>(x, g, sums);
      case 3:
        return residual_pass<3>(x, g, sums);
      case 4:
        return residual_pass<4>(x, g, sums);
      case 5:
        return residual_pass<5>(x, g, sums);
      case 6:
        return residual_pass<6>(x, g, sums);
      case 7:
        return residual_pass<7>(x, g, sums);
      default:
        return residual_pass<8>(x, g, sums);
    }
  }
  template <int M>
  void residual_pass(const double* x, const double* g, std::array<double, kSums>& sums) {
    parallel_blocked_sums(
        static_cast<std::ptrdiff_t>(n_), kParallelMin, kSumBlock, partials_, sums,
        [&](std::ptrdiff_t begin, std::ptrdiff_t end, std::array<double, kSums>& partial) {
          residual_range<M>(begin, end, x, g, partial);
        });
  }
  // The entries [begin, end) of the pass, added into `sums` (zero on entry).
  template <int M>
  void residual_range(std::ptrdiff_t begin, std::ptrdiff_t end, const double* x, const double* g,
                      std::array<double, kSums>& sums) {
    static_assert(M >= 0 && M <= kMaxDepth);
    double* dF = &dF_[static_cast<std::size_t>(head_) * n_];
    double* dG = &dG_[static_cast<std::size_t>(head_) * n_];
    const double* column[M > 0 ? M : 1];
    double d[M > 0 ? M : 1];
    double b[M > 0 ? M : 1];
    for (int j = 0; j < M; ++j) {
      column[j] = &dF_[static_cast<std::size_t>(j) * n_];
      d[j] = 0.0;
      b[j] = 0.0;
    }
    double fn2 = 0.0;
    for (std::ptrdiff_t k = begin; k < end; ++k) {
      const auto i = static_cast<std::size_t>(k);
      const double f = g[i] - x[i];
      fn2 += f * f;
      if constexpr (M > 0) {
        const double dfi = f - f_prev_[i];
        dF[i] = dfi;
        dG[i] = g[i] - g_prev_[i];
        for (int j = 0; j < M; ++j) {
          d[j] += dfi * column[j][i];
          b[j] += column[j][i] * f;
        }
      }
    }
    sums[0] = fn2;
    for (int j = 0; j < M; ++j) {
      sums[1 + static_cast<std::size_t>(j)] = d[j];
      sums[1 + kMaxDepth + static_cast<std::size_t>(j)] = b[j];
    }
  }
  void record(const double* x, const double* g, double fn) {
    parallel_for(static_cast<std::ptrdiff_t>(n_), kParallelMin, [&](std::ptrdiff_t k) {
      const auto i = static_cast<std::size_t>(k);
      f_prev_[i] = g[i] - x[i];
      g_prev_[i] = g[i];
    });
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
  std::vector<std::array<double, kSums>> partials_;  // the blocks' sums (parallel_blocked_sums)
};

}  // namespace coulomb
