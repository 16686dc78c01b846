// The SUNDIALS integrators behind OdeIntegrator (coulomb/compliant/integrator.hpp): ARKODE
// ERKStep (erk), ARKODE ARKStep with an implicit right-hand side only (dirk), CVODE BDF (bdf).
#include <coulomb/compliant/integrator.hpp>

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace coulomb {

namespace {

// The most steps between two outputs: far beyond any sensible run; a stalled step size shows up
// as a failure instead of a hang.
constexpr long kMaxSteps = 100000000;

}  // namespace

struct OdeIntegrator::Impl {
  OdeSystem& system;
  SUNContext context = nullptr;
  N_Vector y = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver linear = nullptr;
  void* mem = nullptr;
  Integrator method = Integrator::erk;
  bool analytic = true;
  std::size_t n = 0;
  int nroots = 0;
  std::vector<int> found;
  std::vector<int> directions;
  std::string error;
  IntegratorStatistics done;  // counts of the integrators freed or restarted so far

  explicit Impl(OdeSystem& s) : system(s) {
    if (SUNContext_Create(nullptr, &context) != 0)
      throw std::runtime_error("compliant integrator: cannot create a SUNDIALS context");
  }
  ~Impl() {
    release();
    SUNContext_Free(&context);
  }

  // Frees the integrator (its counts are kept).
  void release_integrator() {
    if (mem == nullptr) return;
    add_counts(done);
    if (method == Integrator::bdf)
      CVodeFree(&mem);
    else if (method == Integrator::dirk)
      ARKStepFree(&mem);
    else
      ERKStepFree(&mem);
    mem = nullptr;
  }

  // Frees the integrator, the vector and the linear solver.
  void release() {
    release_integrator();
    if (linear != nullptr) SUNLinSolFree(linear);
    if (matrix != nullptr) SUNMatDestroy(matrix);
    if (y != nullptr) N_VDestroy(y);
    linear = nullptr;
    matrix = nullptr;
    y = nullptr;
    n = 0;
  }

  // Adds the counters of the current integrator to `s`.
  void add_counts(IntegratorStatistics& s) const {
    long steps = 0, fails = 0, nfe = 0, nfi = 0, nje = 0, nni = 0, ncf = 0, nfels = 0;
    double last = 0.0;
    switch (method) {
      case Integrator::erk:
        ERKStepGetNumSteps(mem, &steps);
        ERKStepGetNumErrTestFails(mem, &fails);
        ERKStepGetNumRhsEvals(mem, &nfe);
        ERKStepGetLastStep(mem, &last);
        break;
      case Integrator::dirk:
        ARKStepGetNumSteps(mem, &steps);
        ARKStepGetNumErrTestFails(mem, &fails);
        ARKStepGetNumRhsEvals(mem, &nfe, &nfi);
        ARKStepGetNumJacEvals(mem, &nje);
        ARKStepGetNumNonlinSolvIters(mem, &nni);
        ARKStepGetNumNonlinSolvConvFails(mem, &ncf);
        ARKStepGetNumLinRhsEvals(mem, &nfels);
        ARKStepGetLastStep(mem, &last);
        break;
      case Integrator::bdf:
        CVodeGetNumSteps(mem, &steps);
        CVodeGetNumErrTestFails(mem, &fails);
        CVodeGetNumRhsEvals(mem, &nfe);
        CVodeGetNumJacEvals(mem, &nje);
        CVodeGetNumNonlinSolvIters(mem, &nni);
        CVodeGetNumNonlinSolvConvFails(mem, &ncf);
        CVodeGetNumLinRhsEvals(mem, &nfels);
        CVodeGetLastStep(mem, &last);
        break;
    }
    s.steps += steps;
    s.rejected_steps += fails;
    s.rhs_evaluations += nfe + nfi + nfels;
    s.jacobian_evaluations += nje;
    s.newton_iterations += nni;
    s.newton_failures += ncf;
    if (last > 0.0) s.last_step = last;
  }

  // ---- callbacks ----------------------------------------------------------------------------
  static int rhs(double t, N_Vector y, N_Vector ydot, void* user) {
    auto* self = static_cast<Impl*>(user);
    const auto n = self->n;
    return self->system.rhs(t, {N_VGetArrayPointer(y), n}, {N_VGetArrayPointer(ydot), n});
  }
  static int roots(double t, N_Vector y, double* g, void* user) {
    auto* self = static_cast<Impl*>(user);
    return self->system.roots(t, {N_VGetArrayPointer(y), self->n},
                              {g, static_cast<std::size_t>(self->nroots)});
  }
  static int jacobian(double t, N_Vector y, N_Vector, SUNMatrix J, void* user, N_Vector, N_Vector,
                      N_Vector) {
    auto* self = static_cast<Impl*>(user);
    const auto n = self->n;
    double* data = SUNDenseMatrix_Data(J);
    std::fill(data, data + n * n, 0.0);
    return self->system.jacobian(t, {N_VGetArrayPointer(y), n}, {data, n * n});
  }
  static void on_error(int code, const char* module, const char* function, char* message,
                       void* user) {
    auto* self = static_cast<Impl*>(user);
    if (code < 0) self->error = fmt::format("{} ({}, {})", message, module, function);
  }

  // ---- creation -----------------------------------------------------------------------------
  void check(int flag, const char* what) const {
    if (flag < 0) throw std::runtime_error(fmt::format("compliant integrator: {} failed", what));
  }

  void create(const IntegratorOptions& o, double t0) {
    method = o.method;
    analytic = o.analytic_jacobian;
    const bool implicit = method != Integrator::erk;
    if (implicit && matrix == nullptr) {
      matrix = SUNDenseMatrix(static_cast<long>(n), static_cast<long>(n), context);
      linear = SUNLinSol_Dense(y, matrix, context);
      if (matrix == nullptr || linear == nullptr)
        throw std::runtime_error("compliant integrator: cannot allocate the dense linear solver");
    }
    switch (method) {
      case Integrator::erk:
        mem = ERKStepCreate(&Impl::rhs, t0, y, context);
        if (mem == nullptr) throw std::runtime_error("compliant integrator: ERKStepCreate failed");
        check(ERKStepSetUserData(mem, this), "ERKStepSetUserData");
        check(ERKStepSetErrHandlerFn(mem, &Impl::on_error, this), "ERKStepSetErrHandlerFn");
        check(ERKStepSetTableNum(mem, ARKODE_DORMAND_PRINCE_7_4_5), "ERKStepSetTableNum");
        check(ERKStepSetMaxNumSteps(mem, kMaxSteps), "ERKStepSetMaxNumSteps");
        break;
      case Integrator::dirk:
        mem = ARKStepCreate(nullptr, &Impl::rhs, t0, y, context);
        if (mem == nullptr) throw std::runtime_error("compliant integrator: ARKStepCreate failed");
        check(ARKStepSetUserData(mem, this), "ARKStepSetUserData");
        check(ARKStepSetErrHandlerFn(mem, &Impl::on_error, this), "ARKStepSetErrHandlerFn");
        check(ARKStepSetLinearSolver(mem, linear, matrix), "ARKStepSetLinearSolver");
        if (analytic) check(ARKStepSetJacFn(mem, &Impl::jacobian), "ARKStepSetJacFn");
        check(ARKStepSetMaxNumSteps(mem, kMaxSteps), "ARKStepSetMaxNumSteps");
        break;
      case Integrator::bdf:
        mem = CVodeCreate(CV_BDF, context);
        if (mem == nullptr) throw std::runtime_error("compliant integrator: CVodeCreate failed");
        check(CVodeInit(mem, &Impl::rhs, t0, y), "CVodeInit");
        check(CVodeSetUserData(mem, this), "CVodeSetUserData");
        check(CVodeSetErrHandlerFn(mem, &Impl::on_error, this), "CVodeSetErrHandlerFn");
        check(CVodeSetLinearSolver(mem, linear, matrix), "CVodeSetLinearSolver");
        if (analytic) check(CVodeSetJacFn(mem, &Impl::jacobian), "CVodeSetJacFn");
        check(CVodeSetMaxNumSteps(mem, kMaxSteps), "CVodeSetMaxNumSteps");
        break;
    }
  }

  // Tolerances, step bounds and root functions: set at every (re)start.
  void configure(const IntegratorOptions& o, double first_step) {
    const double h0 = first_step > 0.0 ? first_step : 0.0;
    const double hmax = o.max_step > 0.0 ? o.max_step : 0.0;  // 0: no bound (SUNDIALS' default)
    switch (method) {
      case Integrator::erk:
        check(ERKStepSStolerances(mem, o.rtol, o.atol), "ERKStepSStolerances");
        check(ERKStepSetInitStep(mem, h0), "ERKStepSetInitStep");
        check(ERKStepSetMaxStep(mem, hmax), "ERKStepSetMaxStep");
        if (nroots > 0) check(ERKStepRootInit(mem, nroots, &Impl::roots), "ERKStepRootInit");
        if (nroots > 0) {
          check(ERKStepSetRootDirection(mem, directions.data()), "ERKStepSetRootDirection");
          check(ERKStepSetNoInactiveRootWarn(mem), "ERKStepSetNoInactiveRootWarn");
        }
        break;
      case Integrator::dirk:
        check(ARKStepSStolerances(mem, o.rtol, o.atol), "ARKStepSStolerances");
        check(ARKStepSetInitStep(mem, h0), "ARKStepSetInitStep");
        check(ARKStepSetMaxStep(mem, hmax), "ARKStepSetMaxStep");
        if (nroots > 0) check(ARKStepRootInit(mem, nroots, &Impl::roots), "ARKStepRootInit");
        if (nroots > 0) {
          check(ARKStepSetRootDirection(mem, directions.data()), "ARKStepSetRootDirection");
          check(ARKStepSetNoInactiveRootWarn(mem), "ARKStepSetNoInactiveRootWarn");
        }
        break;
      case Integrator::bdf:
        check(CVodeSStolerances(mem, o.rtol, o.atol), "CVodeSStolerances");
        check(CVodeSetInitStep(mem, h0), "CVodeSetInitStep");
        check(CVodeSetMaxStep(mem, hmax), "CVodeSetMaxStep");
        if (nroots > 0) check(CVodeRootInit(mem, nroots, &Impl::roots), "CVodeRootInit");
        if (nroots > 0) {
          check(CVodeSetRootDirection(mem, directions.data()), "CVodeSetRootDirection");
          check(CVodeSetNoInactiveRootWarn(mem), "CVodeSetNoInactiveRootWarn");
        }
        break;
    }
  }
};

OdeIntegrator::OdeIntegrator(OdeSystem& system) : impl_(std::make_unique<Impl>(system)) {}
OdeIntegrator::~OdeIntegrator() = default;

void OdeIntegrator::start(const IntegratorOptions& options, double t0, std::span<const double> y0,
                          std::span<const int> root_directions, double first_step) {
  Impl& m = *impl_;
  m.error.clear();
  m.nroots = static_cast<int>(root_directions.size());
  m.directions.assign(root_directions.begin(), root_directions.end());
  m.found.assign(root_directions.size(), 0);
  // A fresh integrator at every start: SUNDIALS' ReInit keeps part of the root finder's memory
  // (a root found at the end of the last segment is seen again at the new start, and a gap of
  // exactly 0 there stops it with "root found at and very near t"). The vector, the matrix and
  // the linear solver are kept when the size and the method are.
  const bool implicit = options.method != Integrator::erk;
  const bool keep = m.y != nullptr && m.n == y0.size() && (m.matrix != nullptr) == implicit;
  if (keep)
    m.release_integrator();
  else
    m.release();
  if (m.y == nullptr) {
    m.n = y0.size();
    m.y = N_VNew_Serial(static_cast<long>(m.n), m.context);
    if (m.y == nullptr) throw std::runtime_error("compliant integrator: cannot allocate y");
  }
  std::copy(y0.begin(), y0.end(), N_VGetArrayPointer(m.y));
  m.create(options, t0);
  m.configure(options, first_step);
  ++m.done.restarts;
}

OdeIntegrator::Outcome OdeIntegrator::advance(double t_out, std::span<double> y, double& t) {
  Impl& m = *impl_;
  int flag = 0;
  switch (m.method) {
    case Integrator::erk:
      flag = ERKStepEvolve(m.mem, t_out, m.y, &t, ARK_NORMAL);
      break;
    case Integrator::dirk:
      flag = ARKStepEvolve(m.mem, t_out, m.y, &t, ARK_NORMAL);
      break;
    case Integrator::bdf:
      flag = CVode(m.mem, t_out, m.y, &t, CV_NORMAL);
      break;
  }
  const double* data = N_VGetArrayPointer(m.y);
  std::copy(data, data + m.n, y.begin());
  if (flag < 0) {
    if (m.error.empty()) m.error = fmt::format("SUNDIALS flag {}", flag);
    return Outcome::failure;
  }
  // ARK_ROOT_RETURN and CV_ROOT_RETURN are both 2.
  if (flag == CV_ROOT_RETURN) {
    if (m.method == Integrator::bdf)
      CVodeGetRootInfo(m.mem, m.found.data());
    else if (m.method == Integrator::dirk)
      ARKStepGetRootInfo(m.mem, m.found.data());
    else
      ERKStepGetRootInfo(m.mem, m.found.data());
    ++m.done.root_stops;
    return Outcome::root;
  }
  return Outcome::reached;
}

std::span<const int> OdeIntegrator::roots_found() const { return impl_->found; }
const std::string& OdeIntegrator::error() const { return impl_->error; }
std::size_t OdeIntegrator::size() const { return impl_->n; }

IntegratorStatistics OdeIntegrator::statistics() const {
  IntegratorStatistics s = impl_->done;
  if (impl_->mem != nullptr) impl_->add_counts(s);
  return s;
}

}  // namespace coulomb
