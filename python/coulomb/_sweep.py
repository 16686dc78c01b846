"""coulomb.sweep: parameter studies from Python, serially or on a Dask cluster (docs/sweeps.md).

    import coulomb, distributed
    table = coulomb.sweep("scenes/tippe-top.yaml",
                          {"contacts[0].friction.mu": [0.1, 0.2, 0.3],
                           "bodies[top].angular_velocity[2]": "100:200:5"},
                          metrics={"flip": "first_time(top.axis_z < 0)"},
                          out="tippe-sweep", client=distributed.Client(n_workers=2))
    table["flip"]       # a numpy structured array: the rows of out/sweep.csv

The variants, their runs and their rows are those of `coulomb sweep` (the same C++ code), so the
table is the CLI's, bit for bit, however many workers ran it. Each Dask task runs one variant
(rebuilt in the worker from the sweep's arguments, which are small) and returns its row; the
workers need the out folder on a file system they share with the client.
"""
from __future__ import annotations

import csv
import io
import os
import tempfile
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np

from . import _coulomb

__all__ = ["sweep", "read_table"]


def _spec_text(values: Any) -> str:
    """A SPEC: strings as given ("0.1:0.5:5", "uniform(0,1)"), sequences as a list [a,b,c]."""
    if isinstance(values, str):
        return values
    if isinstance(values, (int, float, np.floating, np.integer)):
        return "[" + repr(float(values)) + "]"
    items = []
    for v in values:
        if isinstance(v, str):
            items.append(v)
        else:
            items.append(repr(float(v)))  # the shortest form that reads back to the same double
    return "[" + ",".join(items) + "]"


def _plan_args(scene: str, params: Mapping[str, Any], metrics: Mapping[str, str], samples: int,
               seed: int, combine: str, summary_only: bool, checkpoint_every: float) -> tuple:
    if os.path.exists(scene):
        with open(scene, encoding="utf-8") as f:
            text, name = f.read(), scene
    elif scene.startswith("builtin:"):
        text, name = _coulomb.builtin_scene_text(scene[8:]), scene
    else:
        raise FileNotFoundError(f"{scene}: no such scene file (or builtin:NAME)")
    sets = [f"{key}={_spec_text(values)}" for key, values in params.items()]
    metric_args = [f"{name_}={expr}" for name_, expr in metrics.items()]
    return (text, name, sets, metric_args, int(samples), int(seed), combine, bool(summary_only),
            float(checkpoint_every))


def _run_one(args: tuple, variant: int, out: str) -> str:
    """One variant's run in a worker: the plan rebuilt from its arguments, then the row."""
    return _coulomb.SweepPlan(*args).run_variant(variant, out)


def read_table(path: str) -> np.ndarray:
    """sweep.csv as a numpy structured array: `id` int64, `status` and `message` strings, every
    other column float64 (a column of words, such as solver.name values, stays a string)."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    columns = list(zip(*body)) if body else [() for _ in header]
    fields, data = [], []
    for name, col in zip(header, columns):
        if name == "id":
            fields.append((name, np.int64))
            data.append([int(c) for c in col])
            continue
        try:
            values = [float(c) for c in col]
            if name in ("status", "message"):
                raise ValueError
            fields.append((name, np.float64))
            data.append(values)
        except ValueError:
            width = max([len(c) for c in col] + [1])
            fields.append((name, f"U{width}"))
            data.append(list(col))
    table = np.empty(len(body), dtype=fields)
    for (name, _), values in zip(fields, data):
        table[name] = values
    return table


def sweep(scene: str, params: Mapping[str, Any], client: Optional[Any] = None,
          metrics: Optional[Mapping[str, str]] = None, out: Optional[str] = None,
          samples: int = 0, seed: int = 0, combine: str = "grid", summary_only: bool = False,
          checkpoint_every: float = 0.0) -> np.ndarray:
    """Runs the variants of `scene` (a file, or "builtin:NAME") over `params` ({KEY: SPEC}: a
    list of values, or a SPEC string as `coulomb sweep --set` takes) and returns the table
    (read_table of out/sweep.csv). `client`: a distributed.Client whose workers run the variants
    (None: one after the other here). `metrics`: {NAME: EXPR}. `out`: the sweep folder (a new
    temporary folder when None). A rerun into the same folder skips the finished variants."""
    args = _plan_args(scene, params, metrics or {}, samples, seed, combine, summary_only,
                      checkpoint_every)
    plan = _coulomb.SweepPlan(*args)
    plan.validate()  # every variant, before anything runs (ValueError naming the variant)
    out = out or tempfile.mkdtemp(prefix="coulomb-sweep-")
    plan.prepare(out)
    ids = list(range(len(plan)))
    if client is None:
        rows = [plan.run_variant(i, out) for i in ids]
    else:
        futures = client.map(_run_one, [args] * len(ids), ids, [out] * len(ids), pure=False)
        rows = client.gather(futures)
    if any(not r for r in rows):
        raise KeyboardInterrupt("the sweep was interrupted; rerun it to go on")
    plan.write_table(out, rows)
    return read_table(os.path.join(out, "sweep.csv"))
