#pragma once
/// @file
/// The ODE integrators of the compliant formulation: SUNDIALS behind one small interface.
///
///   ẏ = f(t, y),  y(t0) = y0,  with root functions g_i(t, y) located on the way.
///
/// | Integrator | SUNDIALS                         | method                                      |
/// |------------|----------------------------------|---------------------------------------------|
/// | erk        | ARKODE ERKStep                   | explicit Dormand–Prince 5(4), 7 stages, FSAL |
/// | dirk       | ARKODE ARKStep (implicit part)   | ARKODE's default 4th-order SDIRK (5 stages)  |
/// | bdf        | CVODE                            | variable-order (1–5) variable-step BDF       |
///
/// Error control: the local error estimate e of a step is accepted when the weighted RMS norm
/// ‖e_i / (rtol |y_i| + atol)‖ ≤ 1 (SUNDIALS' WRMS norm), with the scene's `solver.rtol` and
/// `solver.atol` for every component. The implicit methods solve their stage equations by
/// Newton's method with a dense direct linear solver (SUNDIALS' dense matrix and LU) and the
/// Jacobian ∂f/∂y the system gives (OdeSystem::jacobian), or SUNDIALS' difference quotients
/// (`jacobian: difference`). Output at a requested time is dense output: the integrator steps
/// past it and interpolates (ARKODE's Hermite interpolant; CVODE's Nordsieck history), so the
/// output interval never shortens a step. Root finding (Illinois' modified regula falsi on the
/// interpolant, as SUNDIALS does it) stops the integration where a g_i changes sign in the
/// direction asked (−1: decreasing only, +1: increasing only, 0: both); the caller restarts the
/// integrator there (start()), so that no step straddles a kink of f.
///
/// Statistics (IntegratorStatistics) accumulate over restarts: steps, rejected steps (error test
/// failures), evaluations of f and of the Jacobian, Newton iterations and their convergence
/// failures, root-finding stops and restarts.
///
/// References: Hindmarsh et al., "SUNDIALS: Suite of nonlinear and differential/algebraic equation
/// solvers", ACM TOMS 31 (2005) 363; Reynolds et al., "ARKODE: a flexible IVP solver
/// infrastructure for one-step methods", ACM TOMS 49 (2023) 19; Dormand & Prince, J. Comput.
/// Appl. Math. 6 (1980) 19; Hairer & Wanner, Solving ODEs II, §IV.6 (SDIRK), §V.1 (BDF).

#include <coulomb/model/model.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace coulomb {

/// A system ẏ = f(t, y) with its Jacobian and root functions. Each returns 0 on success, a
/// positive value for a recoverable failure (the integrator retries with a smaller step) and a
/// negative one to stop.
class OdeSystem {
 public:
  virtual ~OdeSystem() = default;
  virtual int rhs(double t, std::span<const double> y, std::span<double> ydot) = 0;
  /// ∂f/∂y into `jacobian`, n × n column-major (entry (i, j) at jacobian[i + j n]), zeroed by the
  /// caller.
  virtual int jacobian(double t, std::span<const double> y, std::span<double> jacobian) = 0;
  virtual int roots(double t, std::span<const double> y, std::span<double> g) = 0;
};

/// What the integrator is asked to do (from CompliantSettings).
struct IntegratorOptions {
  Integrator method = Integrator::erk;
  double rtol = 1e-8;
  double atol = 1e-10;
  double max_step = 0.0;  ///< [s]; 0: no bound
  bool analytic_jacobian = true;
};

/// Counts over the run (all restarts together).
struct IntegratorStatistics {
  std::int64_t steps = 0;            ///< accepted steps
  std::int64_t rejected_steps = 0;   ///< steps rejected by the error test
  std::int64_t rhs_evaluations = 0;  ///< evaluations of f (difference-quotient Jacobians included)
  std::int64_t jacobian_evaluations = 0;
  std::int64_t newton_iterations = 0;  ///< nonlinear (Newton) iterations of the implicit methods
  std::int64_t newton_failures = 0;    ///< Newton convergence failures (the step is retried)
  std::int64_t root_stops = 0;         ///< stops at a root of a switching function
  std::int64_t restarts = 0;           ///< (re)starts of the integrator (events, a new state)
  double last_step = 0.0;              ///< the last step taken [s]
};

/// One SUNDIALS integrator driving an OdeSystem. Not copyable; allocation happens at start().
class OdeIntegrator {
 public:
  explicit OdeIntegrator(OdeSystem& system);
  ~OdeIntegrator();
  OdeIntegrator(const OdeIntegrator&) = delete;
  OdeIntegrator& operator=(const OdeIntegrator&) = delete;

  /// (Re)starts at t0 from y0 with one root function per entry of `root_directions` (−1, 0, +1);
  /// first_step [s] > 0 proposes the first step (else SUNDIALS estimates it).
  void start(const IntegratorOptions& options, double t0, std::span<const double> y0,
             std::span<const int> root_directions, double first_step);

  enum class Outcome { reached, root, failure };
  /// Integrates towards `t_out`; on return y holds the solution at t, which is t_out (reached), a
  /// root (then roots_found() says which: ±1 as the function went up or down, else 0), or where
  /// it failed (error() says why).
  Outcome advance(double t_out, std::span<double> y, double& t);

  [[nodiscard]] std::span<const int> roots_found() const;
  [[nodiscard]] const std::string& error() const;
  [[nodiscard]] IntegratorStatistics statistics() const;
  [[nodiscard]] std::size_t size() const;  ///< n, the length of y (0 before start)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace coulomb
