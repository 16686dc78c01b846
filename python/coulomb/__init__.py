"""coulomb: rigid bodies in frictional contact, with every classical contact law.

    import coulomb
    sim = coulomb.load("scenes/billiard.yaml")      # or a dict with the same keys
    sim.run(0.5)
    sim.positions()       # (nbodies, 3) centre-of-mass positions [m], scene order
    sim.contacts()["fn"]  # normal forces of the last step [N]

    hertz = coulomb.make_law("normal", "hertz", stiffness=1e9)   # built by the law registry
    hertz.evaluate(delta=np.linspace(0, 1e-4, 11))["force"]    # N = K δ^{3/2}, numpy in and out
    coulomb.make_law("friction", "coulomb", mu=0.3).evaluate(slip=[[1.0, 0.0]], normal_force=10.0)
    coulomb.laws()        # every law of the registry: keys, units, ranges, defaults
    coulomb.law("stribeck", mu_s=0.5, mu_k=0.3, vs=0.01, v=np.linspace(0, 0.1, 101))
                          # {"v": array, "mu": array}, the table of `coulomb law stribeck ...`
    coulomb.validate(case="billiard")   # the validation report as a dict
    coulomb.sweep("scenes/tippe-top.yaml", {"contacts[0].friction.mu": [0.1, 0.3]},
                  metrics={"axis": "final(top.axis_z)"}, client=None)  # or a distributed.Client

Errors in scenes raise coulomb.SceneError (a ValueError) with the CLI's message
"FILE:LINE:COL: error: MESSAGE"; bad law parameters raise ValueError with the law's own message,
the one a scene file gets at that key (e.g. "friction.mu: must be ≥ 0, got -1"). Steps whose contact solve did not converge emit a coulomb.ConvergenceWarning (a
RuntimeWarning) with the text `coulomb run` prints, e.g. "12 of 5000 steps did not converge (worst
error 0.0032 at t = 1.234 s)"; sim.solver_statistics() holds the details.
"""
from __future__ import annotations

import json
import os
import warnings
from typing import Any, Mapping, Optional

import numpy as np

from . import _coulomb
from ._coulomb import (ContensouLaw, FrictionLaw, Law, NormalLaw, PivotingLaw, RollingLaw,
                       SceneError, laws, make_law)
from ._sweep import read_table, sweep

__all__ = ["load", "Simulation", "SceneError", "ConvergenceWarning", "ActivationWarning",
           "RotationWarning", "PositionWarning", "builtin_scene", "law",
           "laws", "make_law", "Law", "NormalLaw", "FrictionLaw", "RollingLaw", "PivotingLaw",
           "ContensouLaw", "validate", "validation_cases", "sweep", "read_table"]


class ConvergenceWarning(RuntimeWarning):
    """Some steps' contact solves did not reach the scene's solver tolerance (the answer applied
    was the solver's best iterate). `coulomb run` prints the same text and exits with status 3."""


class ActivationWarning(RuntimeWarning):
    """In some steps the activation passes (scene key solver.activation_passes) ran out with points
    that the impulses close still outside the problem: they overlap at the end of their step until
    the next one takes them in (docs/nonsmooth.md). `coulomb run` prints the same text; its exit
    status does not change."""


class RotationWarning(RuntimeWarning):
    """The torque-free rotation of some body-steps (the implicit midpoint rule on Euler's
    equations) did not converge: the step is too long for the bodies' spin, h |w| should be well
    below 1 (docs/dynamics.md). `coulomb run` prints the same text; its exit status does not
    change."""


class PositionWarning(RuntimeWarning):
    """In some steps the position stage (which moves bodies apart so that no contact ends the
    step overlapping by more than solver.position_tolerance) left overlaps above that tolerance
    after its sweeps (docs/nonsmooth.md). `coulomb run` prints the same text; its exit status does
    not change."""


_CATEGORIES = {"rotation": RotationWarning, "position": PositionWarning,
               "activation": ActivationWarning, "convergence": ConvergenceWarning}


def _warn_if(messages) -> None:
    """Emits each of the core's (kind, text) warnings as its category, in the order `coulomb run`
    prints them."""
    for kind, message in messages:
        warnings.warn(message, _CATEGORIES[kind], stacklevel=3)


class Simulation:
    """A scene being simulated: the model, the state and the engine's workspace."""

    def __init__(self, core: "_coulomb.Simulation") -> None:
        self._core = core

    # -- stepping --------------------------------------------------------------------------
    def step(self, n: int = 1) -> "Simulation":
        """Takes n ≥ 0 time steps (ValueError otherwise). Warns (ConvergenceWarning) if some of
        them did not converge, ActivationWarning if some left points that their impulses close out
        of the problem, RotationWarning if a body's free rotation did not converge,
        PositionWarning if the position stage left overlaps above its tolerance. Other Python
        threads run while it steps."""
        if isinstance(n, bool) or not float(n).is_integer():
            raise ValueError(f"step: n must be a whole number of steps, got {n!r}")
        _warn_if(self._core.step(int(n)))
        return self

    def run(self, end: Optional[float] = None) -> "Simulation":
        """Steps to time `end` [s] (default: the scene's end time; ValueError for a time that is
        not finite or before the current one). Warns (ConvergenceWarning) if some steps did not
        converge, ActivationWarning if some left points out, RotationWarning if a free rotation
        did not converge, PositionWarning if overlaps were left (as step)."""
        _warn_if(self._core.run(end))
        return self

    def write(self, directory: str) -> dict:
        """Runs to the scene's end time writing trajectory.csv, contacts.csv, energy.csv,
        solver.csv, summary.json and replay.html (the browser replay) into `directory`, like
        `coulomb run`; returns the summary. The files are written into a working folder beside
        `directory` that replaces it at the end; `directory` must be absent, empty or the folder
        of an earlier run (ValueError otherwise, before any step), and a failure (RuntimeError
        naming the file and the reason) leaves it as it was. KeyboardInterrupt
        (Ctrl-C) stops the run after its step: the files hold the run up to there (summary.json:
        "status": "interrupted") and the exception is raised once they are in place.
        Warns (ConvergenceWarning) if some steps did not converge, where `coulomb run` exits
        with status 3, (ActivationWarning) if some left points out, (RotationWarning) if a
        free rotation did not converge and (PositionWarning) if overlaps were left (as step)."""
        summary, warnings_ = self._core.write(os.fspath(directory))
        _warn_if(warnings_)
        return json.loads(summary)

    # -- state -----------------------------------------------------------------------------
    @property
    def time(self) -> float:
        return self._core.time

    @property
    def time_step(self) -> float:
        return self._core.time_step

    @property
    def end_time(self) -> float:
        return self._core.end_time

    @property
    def name(self) -> str:
        return self._core.name

    @property
    def bodies(self) -> list:
        """Body names in scene order (the row order of every state array)."""
        return self._core.bodies

    def positions(self) -> np.ndarray:
        """(nbodies, 3) centre-of-mass positions [m], world frame."""
        return self._core.positions()

    def orientations(self) -> np.ndarray:
        """(nbodies, 4) body-frame orientations, quaternions (w, x, y, z), body to world."""
        return self._core.orientations()

    def velocities(self) -> np.ndarray:
        """(nbodies, 3) centre-of-mass velocities [m/s], world frame."""
        return self._core.velocities()

    def angular_velocities(self) -> np.ndarray:
        """(nbodies, 3) angular velocities [rad/s], world frame."""
        return self._core.angular_velocities()

    def set_state(self, positions=None, orientations=None, velocities=None,
                  angular_velocities=None, time: Optional[float] = None) -> None:
        """Sets any part of the state (arrays with one row per body, scene order). Atomic: every
        array is checked first (shape, finite values within the scene loader's bounds, non-zero
        quaternions, fixed bodies left where they are) and ValueError names what is wrong;
        nothing changes then."""
        as_array = lambda a: None if a is None else np.ascontiguousarray(a, dtype=float)
        self._core.set_state(as_array(positions), as_array(orientations), as_array(velocities),
                             as_array(angular_velocities), time)

    def set_load(self, body: str, force=None, torque=None, frame: Optional[str] = None,
                 point=None, linear_damping: Optional[float] = None,
                 angular_damping: Optional[float] = None) -> None:
        """Between steps: a free body's applied force [N] and torque [N m] ('world' or 'body'
        frame; the force at `point`, body frame [m], else at the centre of mass) and viscous
        damping (linear [N s/m], angular [N m s/rad]); what is not given keeps its value. Takes
        effect at the next step (docs/python.md). ValueError for a fixed or driven body."""
        vec = lambda a: None if a is None else [float(x) for x in a]
        self._core.set_load(body, vec(force), vec(torque), frame, vec(point), linear_damping,
                            angular_damping)

    def set_motion(self, body: str, velocity=(0.0, 0.0, 0.0),
                   angular_velocity=(0.0, 0.0, 0.0)) -> None:
        """Between steps: a driven body moves from its present pose with the constant twist
        (velocity of its frame's origin [m/s], angular velocity [rad/s], world frame).
        ValueError for a body that is not driven."""
        self._core.set_motion(body, [float(x) for x in velocity],
                              [float(x) for x in angular_velocity])

    def contacts(self) -> dict:
        """The contact points of the last step as numpy arrays keyed by the contacts.csv columns
        (body1 and body2 hold names; body1_index and body2_index the indices)."""
        c = self._core.contacts()
        names = np.array(self.bodies, dtype=object)
        c["body1"] = names[c["body1_index"]] if len(c["body1_index"]) else np.array([], dtype=object)
        c["body2"] = names[c["body2_index"]] if len(c["body2_index"]) else np.array([], dtype=object)
        c["state"] = np.array(c["state"], dtype=object)
        return c

    def joints(self) -> dict:
        """The joints' reactions over the last step, like joints.csv (docs/joints.md): "name"
        (list), "force" [N] on each joint's body 2 and "moment" [N m] about its anchor on body 2,
        world frame, arrays of shape (njoints, 3); zeros before the first step."""
        return self._core.joints()

    def energy(self) -> dict:
        """Kinetic, potential, elastic (stored in the compliant contacts and springs),
        dissipated and total energy [J], and the dissipated energy by kind like energy.csv:
        normal, friction, rolling, pivoting, correction (the position stage); driven_work,
        force_work and damping (the actuation's works, in the total of an actuated scene);
        driven_work_by_body: {driven body name: its work on the others [J]} (nonsmooth
        formulation; its values sum to driven_work to round-off); slept, the kinetic energy set
        to zero by sleeping islands (in the total with solver.sleep; docs/nonsmooth.md)."""
        return self._core.energy()

    def integrator_statistics(self) -> Optional[dict]:
        """The compliant formulation's integrator statistics (summary.json's "integrator"): name,
        steps, rejected_steps, rhs_evaluations, jacobian_evaluations, newton_iterations,
        newton_failures, root_stops, restarts, last_step [s], events (onset, release, stick,
        slip); None in the nonsmooth formulation."""
        return self._core.integrator_statistics()

    def shock_statistics(self) -> Optional[list]:
        """code_aster's shock statistics and Archard wear power of every shock point (a shape
        pair in contact through a dis_choc law) since the start: one dict per row of wear.csv
        (body1, shape1, body2, shape2 and its columns, docs/outputs.md); None when the scene has
        no dis_choc contact."""
        return self._core.shock_statistics()

    def solver_statistics(self) -> dict:
        """The "solver" statistics of summary.json over the steps taken: steps, solves,
        not_converged (and first_not_converged_time), worst_error (and worst_error_time),
        mean_error, max/mean iterations, methods (solves per method that produced the answer:
        "nsgs", "prox", "nsgs+prox", "nsgs+prox+nsgs", "nsgs6"), auto_switches, fell_back,
        cold_starts, local_failures, solves_with_local_failures (docs/outputs.md)."""
        return self._core.solver_statistics()


def _plain(value: Any) -> Any:
    """numpy scalars and arrays as the Python numbers and lists json writes."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"a scene dict holds a {type(value).__name__}, which is not scene data")


def load(scene: Any) -> Simulation:
    """Loads a scene from a file path (YAML or JSON) or from a dict with the scene-file keys."""
    if isinstance(scene, Mapping):
        return Simulation(_coulomb.load_text(json.dumps(scene, default=_plain), "<dict>"))
    return Simulation(_coulomb.load_file(os.fspath(scene)))


def builtin_scene(name: str = "default") -> str:
    """The text of a scene embedded in the library ("default", "billiard", ...)."""
    return _coulomb.builtin_scene_text(name)


def _law_value(value: Any) -> str:
    """One option value as `coulomb law` reads it: text as is, a number with every digit
    (repr round-trips), a sequence or array as a comma list."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        raise ValueError("law options take numbers, lists of numbers or text, not booleans")
    array = np.asarray(value, dtype=float)
    if array.ndim == 0:
        return repr(float(array))
    if array.ndim != 1 or array.size == 0:
        raise ValueError("a sampled option takes a non-empty 1-D sequence of numbers")
    return ",".join(repr(float(x)) for x in array)


def law(name: str, **params: Any) -> dict:
    """The table of `coulomb law NAME --key value ...` (the C++ tabulation, in process; keys are
    the scene-file keys, e.g. mu_s, vs, model, pressure), for plots that mirror the CLI's. To
    evaluate a law over arrays of any shape, with its derivatives, build it with make_law. The sampled
    variable (v, delta, omega, eps, ...) takes a sequence or array, or a "start:stop:step" text.
    Returns the CSV columns as numpy arrays keyed by their names, e.g.
    law("contensou", model="exact", pressure="hertz", eps=[0, 1]) -> {"eps", "F", "m"}.
    Bad arguments raise ValueError with the CLI's message."""
    args = [str(name)]
    for key, value in params.items():
        args += ["--" + key.replace("_", "-"), _law_value(value)]
    return _coulomb.law(args)


def validation_cases() -> list:
    """Names of the validation cases, in report order (`coulomb validate --list`)."""
    return _coulomb.validation_cases()


def validate(case: Any = None, quick: bool = True, out: Optional[str] = None) -> dict:
    """Runs validation cases like `coulomb validate` (all, or `case`: a name or a list of names)
    and returns the report as a dict (the content of report.json: "passed", "cases" with their
    "checks"). With `out`, also writes report.md and report.json there. An unknown case name
    raises ValueError."""
    cases = [] if case is None else ([case] if isinstance(case, str) else list(case))
    text = _coulomb.validate(cases, bool(quick), None if out is None else os.fspath(out))
    return json.loads(text)
