"""coulomb.plot and `coulomb plot OUTDIR`: the figures of a run."""
import os
import subprocess

import pytest

import coulomb
import coulomb.plot

FIGURES = ["energy.png", "heights.png", "speeds.png", "slip.png", "spin.png", "rolling.png",
           "forces.png", "solver.png"]


def _run(tmp_path):
    source = os.environ.get("COULOMB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
    sim = coulomb.load(os.path.join(source, "scenes", "billiard.yaml"))
    out = tmp_path / "run"
    sim.write(out)
    return out


def test_plot_writes_every_figure(tmp_path):
    out = _run(tmp_path)
    written = coulomb.plot.plot(str(out))
    assert sorted(os.path.basename(p) for p in written) == sorted(FIGURES)
    for path in written:
        with open(path, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"  # a real PNG
        assert os.path.getsize(path) > 10_000       # with something drawn in it


@pytest.mark.skipif("COULOMB_CLI" not in os.environ, reason="needs the coulomb program (ctest sets COULOMB_CLI)")
def test_cli_plot(tmp_path):
    out = _run(tmp_path)
    cli = os.environ["COULOMB_CLI"]
    done = subprocess.run([cli, "plot", str(out), "--out", str(tmp_path / "figs")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(tmp_path / "figs")) == sorted(FIGURES)
    missing = subprocess.run([cli, "plot", str(tmp_path / "nothing")], capture_output=True, text=True)
    assert missing.returncode == 2
    assert "no such folder" in missing.stderr


def test_plot_of_a_compliant_run(tmp_path):
    # The compliant formulation's files: the same figures, solver.png from the integrator's counts.
    source = os.environ.get("COULOMB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
    out = tmp_path / "compliant"
    coulomb.load(os.path.join(source, "scenes", "validation", "belt-stick-slip.yaml")).write(out)
    written = coulomb.plot.plot(str(out))
    assert "solver.png" in [os.path.basename(p) for p in written]
    assert "energy.png" in [os.path.basename(p) for p in written]


def test_solver_csv_columns_and_non_converged_steps(tmp_path):
    """solver.csv has one row per output time aggregating its steps (default) or one row per step
    (output.solver: every_step); the reader takes the columns by name, and a run with
    non-converged steps plots in both layouts."""
    source = os.environ.get("COULOMB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
    with open(os.path.join(source, "scenes", "box-stack.yaml")) as f:
        text = f.read().replace("time: {end: 2.0, step: 1.0e-3}",
                                "time: {end: 0.01, step: 1.0e-3}\n"
                                "solver: {name: nsgs, max_iterations: 1, tolerance: 1.0e-12}")
    assert "max_iterations: 1" in text
    for layout in ("per_output", "every_step"):
        path = tmp_path / f"capped-{layout}.yaml"
        path.write_text(text + f"\noutput: {{every: 5, solver: {layout}}}\n")
        out = tmp_path / f"run-{layout}"
        with pytest.warns(coulomb.ConvergenceWarning):
            coulomb.load(str(path)).write(out)
        s = coulomb.plot._read_csv(str(out / "solver.csv"))
        with open(out / "solver.csv") as f:
            header = f.readline().strip()
        if layout == "every_step":
            assert header == \
                "time,points,active,iterations,error,status,method,local_failures,fell_back"
            assert list(s["status"]) == ["max_iterations"] * 10
            assert list(s["method"]) == ["nsgs"] * 10
            assert s["local_failures"].dtype == float and s["fell_back"].dtype == float
        else:
            assert header == ("time,steps,solves,not_converged,max_points,max_active,"
                              "max_iterations,total_iterations,max_error,worst_status,methods,"
                              "local_failures,fell_back")
            assert list(s["steps"]) == [5, 5] and list(s["not_converged"]) == [5, 5]
            assert list(s["worst_status"]) == ["max_iterations"] * 2
            assert list(s["methods"]) == ["nsgs"] * 2
        written = coulomb.plot.plot(str(out))
        assert any(p.endswith("solver.png") for p in written)


def test_read_csv_drops_a_last_row_cut_short(tmp_path):
    """A killed run's file whose last write was cut: the short last row is dropped, the others read."""
    path = tmp_path / "energy.csv"
    path.write_text("time,kinetic,potential\n0,1,2\n0.01,1.5,2.5\n0.02,1.")
    columns = coulomb.plot._read_csv(str(path))
    assert list(columns["time"]) == [0, 0.01]
    assert list(columns["potential"]) == [2, 2.5]


def test_plot_sweep_draws_lines_and_a_heat_map(tmp_path):
    """`coulomb plot DIR` on a sweep folder: a metric over one varying parameter (lines) and over
    two (a heat map), PNG files with something drawn in them."""
    source = os.environ.get("COULOMB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
    scene = os.path.join(source, "scenes", "tippe-top.yaml")
    metrics = {"axis": "final(top.axis_z)"}
    coulomb.sweep(scene, {"contacts[0].friction.mu": [0.2, 0.3, 0.4], "time.end": [0.05]},
                  metrics=metrics, out=str(tmp_path / "one"), summary_only=True)
    coulomb.sweep(scene, {"contacts[0].friction.mu": [0.2, 0.4],
                          "bodies[top].angular_velocity[2]": "100:200:3", "time.end": [0.05]},
                  metrics=metrics, out=str(tmp_path / "two"), summary_only=True)
    for name in ("one", "two"):
        written = coulomb.plot.plot_sweep(str(tmp_path / name))
        assert [os.path.basename(p) for p in written] == ["sweep-axis.png"]
        with open(written[0], "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
        assert os.path.getsize(written[0]) > 10_000
    cli = os.environ.get("COULOMB_CLI")
    if cli:
        out = tmp_path / "cli-plots"
        subprocess.run([cli, "plot", str(tmp_path / "two"), "--metric", "axis", "--out", str(out)],
                       check=True, capture_output=True)
        assert (out / "sweep-axis.png").exists()
