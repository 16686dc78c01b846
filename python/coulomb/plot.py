"""Figures of a run's outputs: `coulomb plot OUTDIR` or `python3 -m coulomb.plot OUTDIR`.

On a sweep folder (it holds sweep.csv) the figures are those of plot_sweep: each metric over the
parameters that vary, lines over one, a heat map over two (`--metric NAME` to choose).

Reads trajectory.csv, contacts.csv, energy.csv and solver.csv from OUTDIR and writes PNG figures
into OUTDIR/plots/ (or --out): energy budget, body heights and speeds, slip speed, spin and
rolling rates per contact, contact forces, solver iterations and error per step (the integrator's
steps and step size in the compliant formulation).
"""
from __future__ import annotations

import csv
import argparse
import os
import sys

import numpy as np


def _read_csv(path):
    """Reads a coulomb CSV into a dict of columns (numeric where possible)."""
    # RFC 4180 (the csv module): body names with commas, quotes or newlines are quoted fields.
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [r for r in reader if r]
    # A killed run's files (docs/reliability.md) end with whole rows, except when the kill landed
    # inside a write: a last row cut short is dropped.
    if rows and len(rows[-1]) < len(header):
        rows.pop()
    columns = {}
    for i, name in enumerate(header):
        values = [r[i] for r in rows]
        try:
            columns[name] = np.array(values, dtype=float)
        except ValueError:
            columns[name] = np.array(values, dtype=object)
    return columns


def _figure(title, xlabel="time [s]"):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.grid(True, alpha=0.3)
    return fig, ax


def _save(fig, directory, name, written):
    import matplotlib.pyplot as plt
    path = os.path.join(directory, name)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    written.append(path)


def plot(outdir: str, plots_dir: str | None = None) -> list:
    """Writes the figures of the run in `outdir`; returns the paths written."""
    import matplotlib
    matplotlib.use("Agg")
    plots_dir = plots_dir or os.path.join(outdir, "plots")
    os.makedirs(plots_dir, exist_ok=True)
    written = []

    energy_path = os.path.join(outdir, "energy.csv")
    if os.path.exists(energy_path):
        e = _read_csv(energy_path)
        fig, ax = _figure("Energy budget")
        for key in [k for k in e if k != "time"]:
            ax.plot(e["time"], e[key], label=key)
        ax.set_ylabel("energy [J]")
        ax.legend()
        _save(fig, plots_dir, "energy.png", written)

    traj_path = os.path.join(outdir, "trajectory.csv")
    if os.path.exists(traj_path):
        t = _read_csv(traj_path)
        bodies = list(dict.fromkeys(t["body"]))
        fig, ax = _figure("Height of the centre of mass")
        fig2, ax2 = _figure("Speed of the centre of mass and angular speed")
        for b in bodies:
            sel = t["body"] == b
            speed = np.sqrt(t["vx"][sel] ** 2 + t["vy"][sel] ** 2 + t["vz"][sel] ** 2)
            wspeed = np.sqrt(t["wx"][sel] ** 2 + t["wy"][sel] ** 2 + t["wz"][sel] ** 2)
            if np.ptp(t["z"][sel]) > 0 or speed.any():
                ax.plot(t["time"][sel], t["z"][sel], label=b)
            if speed.any() or wspeed.any():
                ax2.plot(t["time"][sel], speed, label=f"{b} |v| [m/s]")
                ax2.plot(t["time"][sel], wspeed, "--", label=f"{b} |ω| [rad/s]")
        ax.set_ylabel("z [m]")
        ax2.set_ylabel("speed [m/s], angular speed [rad/s]")
        for a in (ax, ax2):
            if a.get_legend_handles_labels()[0]:
                a.legend(fontsize="small")
        _save(fig, plots_dir, "heights.png", written)
        _save(fig2, plots_dir, "speeds.png", written)

    contacts_path = os.path.join(outdir, "contacts.csv")
    if os.path.exists(contacts_path):
        c = _read_csv(contacts_path)
        if len(c.get("time", [])):
            pairs = list(dict.fromkeys(zip(c["body1"], c["body2"])))[:8]
            specs = [
                ("slip.png", "Slip speed ‖v_t‖ per contact pair", "slip speed [m/s]",
                 lambda s: np.hypot(c["vt1"][s], c["vt2"][s]), None),
                ("spin.png", "Pivoting rate ω·n per contact pair", "spin [rad/s]",
                 lambda s: c["spin"][s], None),
                ("rolling.png", "Rolling rate ‖ω_t‖ per contact pair", "rolling [rad/s]",
                 lambda s: np.hypot(c["roll1"][s], c["roll2"][s]), None),
                ("forces.png", "Contact forces (sum over a pair's points)", "force [N]",
                 lambda s: c["fn"][s], lambda s: np.hypot(c["ft1"][s], c["ft2"][s])),
            ]
            for name, title, ylabel, f, g in specs:
                fig, ax = _figure(title)
                for b1, b2 in pairs:
                    sel = (c["body1"] == b1) & (c["body2"] == b2)
                    times = c["time"][sel]
                    uniq, inv = np.unique(times, return_inverse=True)
                    reduce = np.zeros(len(uniq))
                    if name == "forces.png":
                        np.add.at(reduce, inv, f(sel))
                        ax.plot(uniq, reduce, label=f"{b1}–{b2} normal")
                        tang = np.zeros(len(uniq))
                        np.add.at(tang, inv, g(sel))
                        ax.plot(uniq, tang, "--", label=f"{b1}–{b2} tangential")
                    else:
                        np.maximum.at(reduce, inv, np.abs(f(sel)))
                        ax.plot(uniq, reduce, label=f"{b1}–{b2}")
                ax.set_ylabel(ylabel)
                if pairs:
                    ax.legend(fontsize="small")
                _save(fig, plots_dir, name, written)

    solver_path = os.path.join(outdir, "solver.csv")
    if os.path.exists(solver_path):
        s = _read_csv(solver_path)
        if len(s.get("time", [])) and "rhs_evaluations" in s:
            # The compliant formulation's integrator (docs/outputs.md): its steps and rejected
            # steps per row, and its last step size.
            fig, ax = _figure("Integrator (compliant formulation) per row of solver.csv")
            ax.plot(s["time"], s["steps"], color="tab:blue", lw=0.8, label="steps")
            ax.plot(s["time"], s["rejected_steps"], color="tab:orange", lw=0.8, label="rejected")
            ax.set_ylabel("steps per row")
            ax.legend(fontsize="small", loc="upper left")
            ax2 = ax.twinx()
            size = np.where(s["step_size"] > 0, s["step_size"], np.nan)
            ax2.semilogy(s["time"], size, color="tab:red", lw=0.8)
            ax2.set_ylabel("last step [s]", color="tab:red")
            _save(fig, plots_dir, "solver.png", written)
        elif len(s.get("time", [])):
            # Two layouts (docs/outputs.md): one row per output time with the largest iterations
            # and error over its steps (the default), or one row per step (every_step).
            per_step = "iterations" in s
            iterations = s["iterations"] if per_step else s["max_iterations"]
            error = s["error"] if per_step else s["max_error"]
            title = "Contact solver per step" if per_step else "Contact solver (largest per output time)"
            fig, ax = _figure(title)
            ax.plot(s["time"], iterations, color="tab:blue", lw=0.8)
            ax.set_ylabel("iterations", color="tab:blue")
            ax2 = ax.twinx()
            err = np.where(error > 0, error, np.nan)
            ax2.semilogy(s["time"], err, color="tab:red", lw=0.8)
            ax2.set_ylabel("error ‖r − P_K(r − u − [μ‖u_T‖,0,0])‖/‖q‖", color="tab:red")
            # Steps whose solve did not converge (status other than converged/none), marked.
            if per_step:
                status = np.asarray(s.get("status", []), dtype=object)
                bad = np.array([st not in ("converged", "none") for st in status], dtype=bool)
                count = int(bad.sum())
            else:
                bad = s["not_converged"] > 0
                count = int(s["not_converged"].sum())
            if bad.any():
                ax2.plot(s["time"][bad], np.where(err[bad] > 0, err[bad], np.nan), "x",
                         color="black", ms=4, label=f"not converged ({count} steps)")
                ax2.legend(fontsize="small", loc="upper right")
            _save(fig, plots_dir, "solver.png", written)
    return written


# The summary figures of every sweep.csv row (src/sweep/runner.cpp, kFigures): the columns between
# the parameters and the metrics.
_SWEEP_FIGURES = ["end_time", "steps", "solves", "not_converged", "worst_error",
                  "deepest_penetration", "dissipated", "energy_drift"]


def plot_sweep(sweepdir: str, plots_dir: str | None = None, metrics=None) -> list:
    """Figures of a sweep folder (`coulomb sweep --out DIR`): each metric (default: every metric
    column, else `dissipated`) over the parameters that vary: lines over one parameter (one line
    per value of a second, when there is one with at most 8 values), a heat map over two (the
    grid's cells; NaN cells, e.g. a condition never met, left blank). Returns the paths written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plots_dir = plots_dir or os.path.join(sweepdir, "plots")
    os.makedirs(plots_dir, exist_ok=True)
    with open(os.path.join(sweepdir, "sweep.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    first_figure = header.index(_SWEEP_FIGURES[0])
    params = header[3:first_figure]
    all_metrics = header[first_figure + len(_SWEEP_FIGURES):]
    metrics = list(metrics or all_metrics or ["dissipated"])
    col = {name: i for i, name in enumerate(header)}

    def numbers(name):
        return np.array([float(r[col[name]]) for r in body])

    varying = [p for p in params if len({r[col[p]] for r in body}) > 1]
    try:
        values = {p: numbers(p) for p in varying}
    except ValueError:
        raise SystemExit("coulomb plot: a varying parameter holds words; plot it from Python")
    written = []
    for m in metrics:
        if m not in col:
            raise SystemExit(f"coulomb plot: {sweepdir}/sweep.csv has no column '{m}'")
        y = numbers(m)
        safe = "".join(c if c.isalnum() or c in "_-." else "_" for c in m)
        if len(varying) == 1 or (len(varying) == 2 and len(np.unique(values[varying[1]])) <= 8
                                 and len(np.unique(values[varying[0]])) > 8):
            x = varying[0]
            fig, ax = _figure(f"{m} over {x}", xlabel=x)
            groups = np.unique(values[varying[1]]) if len(varying) == 2 else [None]
            for g in groups:
                sel = np.ones(len(y), bool) if g is None else values[varying[1]] == g
                order = np.argsort(values[x][sel], kind="stable")
                ax.plot(values[x][sel][order], y[sel][order], "o-", ms=3,
                        label=None if g is None else f"{varying[1]} = {g:g}")
            if len(groups) > 1:
                ax.legend(fontsize="small")
            ax.set_ylabel(m)
            _save(fig, plots_dir, f"sweep-{safe}.png", written)
        elif len(varying) == 2:
            py_, px = varying
            xs, ys = np.unique(values[px]), np.unique(values[py_])
            grid = np.full((len(ys), len(xs)), np.nan)
            for v, xv, yv in zip(y, values[px], values[py_]):
                grid[np.searchsorted(ys, yv), np.searchsorted(xs, xv)] = v
            fig, ax = plt.subplots(figsize=(7, 5.5), dpi=100)
            ax.set_title(f"{m}")

            def edges(c):
                if len(c) == 1:
                    return np.array([c[0] - 0.5, c[0] + 0.5])
                mid = (c[1:] + c[:-1]) / 2
                return np.concatenate([[2 * c[0] - mid[0]], mid, [2 * c[-1] - mid[-1]]])
            mesh = ax.pcolormesh(edges(xs), edges(ys), np.ma.masked_invalid(grid),
                                 cmap="viridis", shading="flat")
            fig.colorbar(mesh, ax=ax, label=m)
            ax.set_xlabel(px)
            ax.set_ylabel(py_)
            _save(fig, plots_dir, f"sweep-{safe}.png", written)
        else:
            raise SystemExit(f"coulomb plot: {len(varying)} parameters vary in {sweepdir}; "
                             "the figures take one (lines) or two (a heat map)")
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="coulomb plot", description=__doc__.splitlines()[0])
    parser.add_argument("outdir", help="folder written by `coulomb run` or `coulomb sweep`")
    parser.add_argument("--out", help="folder for the PNG files (default: OUTDIR/plots)")
    parser.add_argument("--metric", action="append",
                        help="a sweep's column to draw (repeatable; default: every metric)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.outdir):
        print(f"coulomb plot: {args.outdir}: no such folder", file=sys.stderr)
        return 2
    if os.path.exists(os.path.join(args.outdir, "sweep.csv")):
        written = plot_sweep(args.outdir, args.out, args.metric)
    else:
        written = plot(args.outdir, args.out)
    if not written:
        print(f"coulomb plot: {args.outdir}: no coulomb output files found", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
