"""Type stubs of the compiled module coulomb._coulomb (python/src/module.cpp, python/src/laws.cpp).

The public API is coulomb/__init__.py; it re-exports the law classes, laws() and make_law() from
here. python/tests/test_stubs.py checks that this file names every public attribute of the
compiled module (and of its classes) and nothing else.
"""
from typing import Any, Mapping, Optional, Sequence, TypedDict, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

_Array = NDArray[np.float64]
_Flags = NDArray[np.bool_]
_Material = Mapping[str, Union[float, str]]

# ---- scenes, validation, the `coulomb law` table -------------------------------------------

class SceneError(ValueError): ...

class Simulation:
    def step(self, n: int = 1) -> list[tuple[str, str]]: ...
    def run(self, end: Optional[float] = None) -> list[tuple[str, str]]: ...
    def write(self, directory: str) -> tuple[str, list[tuple[str, str]]]: ...
    @property
    def time(self) -> float: ...
    @property
    def time_step(self) -> float: ...
    @property
    def end_time(self) -> float: ...
    @property
    def name(self) -> str: ...
    @property
    def bodies(self) -> list[str]: ...
    def positions(self) -> _Array: ...
    def orientations(self) -> _Array: ...
    def velocities(self) -> _Array: ...
    def angular_velocities(self) -> _Array: ...
    def contacts(self) -> dict[str, Any]: ...
    def joints(self) -> dict[str, Any]: ...
    def energy(self) -> dict[str, float]: ...
    def solver_statistics(self) -> dict[str, Any]: ...
    def integrator_statistics(self) -> Optional[dict[str, Any]]: ...
    def shock_statistics(self) -> Optional[list[dict[str, Any]]]: ...
    def set_load(
        self,
        body: str,
        force: Optional[Sequence[float]] = None,
        torque: Optional[Sequence[float]] = None,
        frame: Optional[str] = None,
        point: Optional[Sequence[float]] = None,
        linear_damping: Optional[float] = None,
        angular_damping: Optional[float] = None,
    ) -> None: ...
    def set_motion(
        self,
        body: str,
        velocity: Sequence[float] = (0.0, 0.0, 0.0),
        angular_velocity: Sequence[float] = (0.0, 0.0, 0.0),
    ) -> None: ...
    def set_state(
        self,
        positions: Optional[ArrayLike] = None,
        orientations: Optional[ArrayLike] = None,
        velocities: Optional[ArrayLike] = None,
        angular_velocities: Optional[ArrayLike] = None,
        time: Optional[float] = None,
    ) -> None: ...

def load_file(path: str) -> Simulation: ...
def load_text(text: str, name: str) -> Simulation: ...
def builtin_scene_text(name: str) -> str: ...
def law(args: Sequence[str]) -> dict[str, _Array]:
    """Tabulates a law like `coulomb law ARGS...`; returns {column: array}."""
def validate(cases: Sequence[str], quick: bool, out: Optional[str] = None) -> str: ...
def validation_cases() -> list[str]: ...

# ---- the law registry ----------------------------------------------------------------------

class _LawKey(TypedDict):
    key: str
    meaning: str
    unit: str
    range: str  # "≥ 0", "> 0", "[0, 1]", "integer in [2, 1000]"
    lo: float
    hi: float
    open_lo: bool
    integer: bool
    default: Optional[float]  # None: required, or derived (default_text says from what)
    default_text: str
    formulations: list[str]

class _LawOption(TypedDict):
    key: str
    meaning: str
    values: list[str]
    default: str
    nonsmooth_default: str
    formulations: dict[str, list[str]]  # per value

class _LawDescription(TypedDict):
    section: str
    name: str
    summary: str
    header: str
    formulations: list[str]  # "nonsmooth", "compliant"
    standalone: bool  # False for rolling_resistance (make_law("contensou", rolling_resistance=...))
    keys: list[_LawKey]
    options: list[_LawOption]
    example: dict[str, Union[float, str]]

def laws() -> list[_LawDescription]:
    """The law registry: one dict per law, in registry order."""

def make_law(
    section: str,
    name: Optional[str] = None,
    /,
    *,
    materials: Optional[Union[_Material, Sequence[_Material]]] = None,
    friction: Optional[Union[float, FrictionLaw]] = None,
    rolling_resistance: Optional[Mapping[str, Union[float, str]]] = None,
    **params: Union[float, str],
) -> Law:
    """Builds a law through the registry's factory (ValueError: the law's one-line message).
    Returns a NormalLaw, FrictionLaw, RollingLaw, PivotingLaw or ContensouLaw."""

# ---- built laws ----------------------------------------------------------------------------

class Law:
    @property
    def section(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def params(self) -> dict[str, Union[float, str]]: ...
    @property
    def description(self) -> _LawDescription: ...

class _NormalResult(TypedDict):
    force: _Array  # N [N]
    d_delta: _Array  # ∂N/∂δ [N/m]
    d_rate: _Array  # ∂N/∂δ̇ [N s/m]
    power: _Array  # dissipated [W]
    potential: _Array  # stored elastic energy [J]

class NormalLaw(Law):
    @property
    def set_valued(self) -> bool: ...
    @property
    def restitution(self) -> float: ...
    def evaluate(
        self, delta: ArrayLike, rate: ArrayLike = 0.0, equivalent_radius: ArrayLike = ...
    ) -> _NormalResult: ...

class _FrictionMemory(TypedDict, total=False):
    sticking: Union[ArrayLike, _Flags]  # (...)
    anchor_force: ArrayLike  # (..., 2) [N]
    anchor: ArrayLike  # (..., 2) [m]
    previous_slip: ArrayLike  # (..., 2) [m/s]

class _FrictionMemoryResult(TypedDict):
    sticking: _Flags
    anchor_force: _Array
    anchor: _Array
    previous_slip: _Array

class _FrictionResult(TypedDict):
    force: _Array  # (..., 2) F_t [N]
    d_slip: _Array  # (..., 2, 2) ∂F_t/∂v_t [N s/m], [..., i, j] = ∂F_i/∂v_j
    d_normal: _Array  # (..., 2) ∂F_t/∂N
    d_displacement: _Array  # (..., 2, 2) ∂F_t/∂x_t [N/m]
    power: _Array  # dissipated [W]
    stored: _Array  # elastic energy in a stick spring [J]
    memory: _FrictionMemoryResult

class FrictionLaw(Law):
    @property
    def set_valued(self) -> bool: ...
    @property
    def isotropic_coefficient(self) -> float: ...
    def cone_coefficients(self, memory: Optional[_FrictionMemory] = None) -> _Array: ...
    def evaluate(
        self,
        slip: ArrayLike,
        normal_force: ArrayLike,
        displacement: Optional[ArrayLike] = None,
        memory: Optional[_FrictionMemory] = None,
    ) -> _FrictionResult: ...

class _RollingResult(TypedDict):
    moment: _Array  # (..., 2) M_t [N m]
    d_omega: _Array  # (..., 2, 2) ∂M_t/∂ω_t [N m s]
    d_normal: _Array  # (..., 2) ∂M_t/∂N [m]
    power: _Array  # dissipated [W]

class RollingLaw(Law):
    @property
    def coefficient(self) -> float: ...
    def evaluate(self, omega: ArrayLike, normal_force: ArrayLike) -> _RollingResult: ...

class _PivotingResult(TypedDict):
    moment: _Array  # M_n [N m]
    d_omega: _Array  # ∂M_n/∂ω_n [N m s]
    d_normal: _Array  # ∂M_n/∂N [m]
    power: _Array  # dissipated [W]

class PivotingLaw(Law):
    @property
    def coefficient(self) -> float: ...
    def evaluate(self, omega: ArrayLike, normal_force: ArrayLike) -> _PivotingResult: ...

class _ContensouResult(TypedDict):
    force: _Array  # (..., 2) F_t [N]
    moment: _Array  # M_n [N m]
    rolling_moment: _Array  # (..., 2) M_t [N m]
    patch_radius: _Array  # a [m]
    dforce_dslip: _Array  # (..., 2, 2)
    dforce_dspin: _Array  # (..., 2)
    dforce_drolling: _Array  # (..., 2, 2)
    dforce_dnormal: _Array  # (..., 2)
    dmoment_dslip: _Array  # (..., 2)
    dmoment_dspin: _Array
    dmoment_drolling: _Array  # (..., 2)
    dmoment_dnormal: _Array
    drolling_drolling: _Array  # (..., 2, 2)
    drolling_dnormal: _Array  # (..., 2)
    friction_power: _Array
    pivoting_power: _Array
    rolling_power: _Array
    set_valued: _Flags

class ContensouLaw(Law):
    @property
    def model(self) -> str: ...
    @property
    def friction_coefficient(self) -> float: ...
    def patch_radius(self, normal_force: ArrayLike, equivalent_radius: ArrayLike = ...) -> _Array: ...
    def evaluate(
        self,
        slip: ArrayLike,
        spin: ArrayLike,
        normal_force: ArrayLike,
        rolling: Optional[ArrayLike] = None,
        equivalent_radius: ArrayLike = ...,
    ) -> _ContensouResult: ...

# The definition of a sweep and one variant's run (coulomb.sweep, python/coulomb/_sweep.py).
class SweepPlan:
    def __init__(self, scene_text: str, scene_file: str, sets: Sequence[str],
                 metrics: Sequence[str], samples: int, seed: int, combine: str,
                 summary_only: bool, checkpoint_every: float) -> None: ...
    def __len__(self) -> int: ...
    def header(self) -> str: ...
    def validate(self) -> None: ...
    def prepare(self, dir: str) -> None: ...
    def run_variant(self, id: int, dir: str) -> str: ...
    def write_table(self, dir: str, rows: Sequence[str]) -> None: ...
