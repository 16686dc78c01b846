"""The Python module against the same closed forms as the C++ tests."""
import json
import math
import os
import signal

import numpy as np
import pytest

import coulomb

SOURCE = os.environ.get("COULOMB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))

BILLIARD = {
    "name": "billiard",
    "gravity": [0, 0, -9.81],
    "time": {"end": 0.5, "step": 1.0e-4},
    "solver": {"tolerance": 1e-12, "max_iterations": 200},
    "materials": ["cloth", "phenolic"],
    "contacts": [{"between": ["phenolic", "cloth"], "normal": {"law": "signorini", "restitution": 0.0},
                  "friction": {"law": "coulomb", "mu": 0.2}}],
    "bodies": [
        {"name": "table", "fixed": True, "material": "cloth",
         "shapes": [{"type": "plane", "normal": [0, 0, 1], "offset": 0.0}]},
        {"name": "ball", "material": "phenolic", "shapes": [{"type": "sphere", "radius": 0.028575}],
         "mass": 0.17, "position": [0, 0, 0.028575], "velocity": [2.0, 0, 0]},
    ],
}


def test_billiard_from_dict_rolls_at_five_sevenths():
    sim = coulomb.load(BILLIARD)
    assert sim.bodies == ["table", "ball"]
    sim.run()
    assert sim.time == pytest.approx(0.5)
    v = sim.velocities()
    assert v.shape == (2, 3)
    # 1e-9: same bound as the C++ test (exact angular momentum about the contact line).
    assert v[1, 0] == pytest.approx(5 * 2.0 / 7, rel=1e-9)
    w = sim.angular_velocities()
    assert v[1, 0] - 0.028575 * w[1, 1] == pytest.approx(0.0, abs=1e-12)


def test_state_arrays_and_set_state():
    sim = coulomb.load(BILLIARD)
    x = sim.positions()
    q = sim.orientations()
    assert x.shape == (2, 3) and q.shape == (2, 4)
    np.testing.assert_array_equal(q[1], [1, 0, 0, 0])
    v = sim.velocities()
    v[1] = [1.0, 0.0, 0.0]
    sim.set_state(velocities=v)
    np.testing.assert_array_equal(sim.velocities()[1], [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="shape"):
        sim.set_state(positions=np.zeros((3, 3)))


def test_contacts_are_arrays_keyed_like_contacts_csv():
    sim = coulomb.load(BILLIARD)
    sim.step(10)
    c = sim.contacts()
    header = "time,body1,body2,px,py,pz,nx,ny,nz,gap,fn,ft1,ft2,mn,mt1,mt2,vn,vt1,vt2,spin,roll1,roll2,state"
    for key in header.split(","):
        assert key in c, key
    assert list(c["body1"]) == ["table"] and list(c["body2"]) == ["ball"]
    # Resting on the table: the normal force carries the weight (N = m g), friction μ N opposes sliding.
    assert c["fn"][0] == pytest.approx(0.17 * 9.81, rel=1e-12)
    assert c["ft1"][0] == pytest.approx(-0.2 * 0.17 * 9.81, rel=1e-12)
    assert c["state"][0] == "sliding"


def test_scene_errors_raise_with_the_cli_message(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ntime: {end: -1.0, step: 1.0e-3}\n")
    with pytest.raises(coulomb.SceneError) as info:
        coulomb.load(str(bad))
    message = str(info.value)
    assert message.startswith(str(bad) + ":2:")
    assert "error:" in message and "end" in message


def test_load_file_and_builtin():
    assert "tippe-top" in coulomb.builtin_scene("default")
    sim = coulomb.load(os.path.join(SOURCE, "scenes", "billiard.yaml"))
    sim.step(3)
    assert sim.time == pytest.approx(3 * sim.time_step)


def test_write_outputs(tmp_path):
    scene = dict(BILLIARD, time={"end": 0.01, "step": 1e-3})
    summary = coulomb.load(scene).write(tmp_path / "out")
    assert summary["steps"] == 10
    for name in ["trajectory.csv", "contacts.csv", "energy.csv", "summary.json"]:
        assert (tmp_path / "out" / name).exists()


def test_write_replaces_an_earlier_run_and_refuses_a_foreign_folder(tmp_path):
    """write() into the folder of an earlier run replaces it whole, nothing left beside it; a
    folder holding a file coulomb did not write is refused (ValueError) before any step, kept."""
    out = tmp_path / "out"
    coulomb.load(dict(BILLIARD, time={"end": 0.01, "step": 1e-3})).write(out)
    summary = coulomb.load(dict(BILLIARD, time={"end": 0.02, "step": 1e-3})).write(out)
    assert summary["steps"] == 20 and summary["status"] == "completed"
    assert json.loads((out / "summary.json").read_text())["steps"] == 20
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    (out / "notes.txt").write_text("mine")
    sim = coulomb.load(dict(BILLIARD, time={"end": 0.01, "step": 1e-3}))
    with pytest.raises(ValueError, match="holds 'notes.txt', which coulomb did not write"):
        sim.write(out)
    assert sim.time == 0.0
    assert (out / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_keyboard_interrupt_stops_write_with_its_files(tmp_path):
    """A signal whose Python handler raises (Ctrl-C: KeyboardInterrupt) stops write() after its
    step: the files are in place, whole, and summary.json says interrupted; then it raises."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    old = signal.signal(signal.SIGALRM, interrupt)
    out = tmp_path / "out"
    sim = coulomb.load(dict(BILLIARD, time={"end": 1.0e4, "step": 1e-4}))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            sim.write(out)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "interrupted" and summary["interrupted"] == "KeyboardInterrupt"
    assert 0 < summary["steps"] < 10 ** 8 and summary["end_time"] == sim.time
    for name in ["trajectory.csv", "contacts.csv", "energy.csv", "solver.csv"]:
        lines = (out / name).read_text().split("\n")
        assert lines[-1] == "", name  # ends with a whole row
        widths = {len(line.split(",")) for line in lines[:-1]}
        assert len(widths) == 1, name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_energy_splits_dissipation_by_kind():
    sim = coulomb.load(BILLIARD).run(0.5)
    e = sim.energy()
    # The slide dissipates by friction only (no impact); the kinds add up to the total.
    assert e["friction"] == pytest.approx(e["dissipated"], rel=1e-12)
    assert e["normal"] + e["friction"] + e["rolling"] + e["pivoting"] + e["correction"] == pytest.approx(
        e["dissipated"], rel=1e-12)
    assert e["dissipated"] > 0


def test_set_time_restarts_the_clock():
    sim = coulomb.load(BILLIARD)
    sim.step(3)
    sim.set_state(time=2.0)
    sim.step(10000)
    assert sim.time == 3.0  # 10^4 steps of 1e-4 s from 2 s, compensated sum: exactly 3 s


# Five unit cubes stacked on the ground, solved with one NSGS sweep per step: no step converges.
def _capped_stack(end=0.01):
    with open(os.path.join(SOURCE, "scenes", "box-stack.yaml")) as f:
        text = f.read()
    text = text.replace("time: {end: 2.0, step: 1.0e-3}",
                        "time: {end: %r, step: 1.0e-3}\n"
                        "solver: {name: nsgs, max_iterations: 1, tolerance: 1.0e-12}" % end)
    assert "max_iterations: 1," in text
    return text


def test_non_converged_steps_warn_like_the_cli(tmp_path):
    path = tmp_path / "capped.yaml"
    path.write_text(_capped_stack())
    sim = coulomb.load(str(path))
    with pytest.warns(coulomb.ConvergenceWarning,
                      match=r"^10 of 10 steps did not converge \(worst error [0-9.e+-]+ at t = [0-9.e+-]+ s\)$"):
        sim.run()
    assert issubclass(coulomb.ConvergenceWarning, RuntimeWarning)
    stats = sim.solver_statistics()
    assert stats["steps"] == 10 and stats["solves"] == 10 and stats["not_converged"] == 10
    assert stats["methods"] == {"nsgs": 10}
    assert stats["auto_switches"] == 0
    assert stats["first_not_converged_time"] == pytest.approx(1e-3)
    assert stats["worst_error"] > 1e-12 and 0 < stats["worst_error_time"] <= 0.01 + 1e-12
    # write() (what `coulomb run` does) warns too, and its summary holds the same statistics.
    with pytest.warns(coulomb.ConvergenceWarning, match="steps did not converge"):
        summary = coulomb.load(str(path)).write(tmp_path / "out")
    assert summary["solver"]["not_converged"] == 10
    assert summary["solver"]["name"] == "nsgs"
    assert summary["solver"]["methods"] == {"nsgs": 10}


def _row_of_seven(passes):
    """Seven balls in zero gravity, ball 0 striking ball 1, gaps of 2e-5 m (0.02 v h) between the
    others: each activation pass takes one point in, so four passes leave the fifth out."""
    lines = ["name: row", "gravity: [0, 0, 0]", "time: {end: 0.003, step: 1.0e-3}",
             "solver: {activation_passes: %d}" % passes, "bodies:"]
    x = 0.0
    for i in range(7):
        if i > 0:
            x += 0.2 + (2e-5 if i > 1 else 0.0)
        lines += ["  - name: ball%d" % i, "    shapes: [{type: sphere, radius: 0.1}]",
                  "    mass: 1.0", "    position: [%r, 0, 0]" % x,
                  "    velocity: [%r, 0, 0]" % (1.0 if i == 0 else 0.0)]
    return "\n".join(lines) + "\n"


def test_points_left_out_warn_like_the_cli(tmp_path):
    import warnings
    path = tmp_path / "row.yaml"
    path.write_text(_row_of_seven(4))
    sim = coulomb.load(str(path))
    with pytest.warns(coulomb.ActivationWarning,
                      match=r"^in 1 of 1 steps the activation passes ran out with 1 point that"):
        sim.step(1)
    assert issubclass(coulomb.ActivationWarning, RuntimeWarning)
    # The next step takes it in: all seven share the momentum.
    sim.step(1)
    assert sim.velocities()[:, 0] == pytest.approx(np.full(7, 1.0 / 7.0), abs=1e-8)
    with pytest.warns(coulomb.ActivationWarning, match="solver.activation_passes"):
        summary = coulomb.load(str(path)).write(tmp_path / "out")
    assert summary["activation"]["left_out_points"] == 1
    assert summary["activation"]["passes"] == 4
    # Five passes take every point in: no warning.
    path.write_text(_row_of_seven(5))
    with warnings.catch_warnings():
        warnings.simplefilter("error", coulomb.ActivationWarning)
        coulomb.load(str(path)).run()


def test_a_free_rotation_that_does_not_converge_warns_like_the_cli(tmp_path):
    """A plate spinning at ~6000 rad/s with h = 0.1 s (h |w| = 600): the implicit midpoint rule of
    its free rotation finds no root in its iterations (tests/io/run_test.cpp)."""
    import warnings
    path = tmp_path / "spin.yaml"
    path.write_text("name: spin\ntime: {end: 0.5, step: 0.1}\ngravity: [0, 0, 0]\nbodies:\n"
                    "  - {name: plate, mass: 1.0, shapes: [{type: box, half_extents: [0.3, 0.1, "
                    "0.01]}], angular_velocity: [3000, 5000, 1000]}\n")
    assert issubclass(coulomb.RotationWarning, RuntimeWarning)
    with pytest.warns(coulomb.RotationWarning, match=r"^the free rotation of \d+ body-steps did "
                      r"not converge \(first at t = "):
        coulomb.load(str(path)).step(5)
    with pytest.warns(coulomb.RotationWarning, match="docs/dynamics.md"):
        coulomb.load(str(path)).write(tmp_path / "out")
    # A slow spin (h |w| = 0.06): no warning.
    path.write_text(path.read_text().replace("[3000, 5000, 1000]", "[0.3, 0.5, 0.1]"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", coulomb.RotationWarning)
        coulomb.load(str(path)).run()


def _squeezed_row(room):
    """Five balls of 0.1 m at rest in a row 1.0 m long between two fixed walls `room` m apart."""
    lines = ["name: squeeze", "gravity: [0, 0, 0]", "time: {end: 0.005, step: 1.0e-3}", "bodies:",
             "  - {name: left, fixed: true, shapes: [{type: plane, normal: [1, 0, 0]}]}",
             "  - {name: right, fixed: true, shapes: [{type: plane, normal: [-1, 0, 0], "
             "offset: %r}]}" % -room]
    for i in range(5):
        lines.append("  - {name: b%d, mass: 1.0, shapes: [{type: sphere, radius: 0.1}], "
                     "position: [%r, 0, 0]}" % (i, 0.1 + 0.2 * i))
    return "\n".join(lines) + "\n"


def test_overlaps_the_position_stage_leaves_warn_like_the_cli(tmp_path):
    """Walls 1 mm closer than the row is long: no displacement closes the six contacts, so every
    step leaves overlaps above the stage's tolerance (1e-8 m). With 1 mm to spare: no warning."""
    import warnings
    path = tmp_path / "squeeze.yaml"
    path.write_text(_squeezed_row(0.999))
    assert issubclass(coulomb.PositionWarning, RuntimeWarning)
    with pytest.warns(coulomb.PositionWarning, match=r"^in 2 of 2 steps the position stage left "
                      r"overlaps above its tolerance of 1e-08 m after its sweeps \(largest "):
        coulomb.load(str(path)).step(2)
    with pytest.warns(coulomb.PositionWarning, match="position stage"):
        summary = coulomb.load(str(path)).write(tmp_path / "out")
    assert summary["position_stage"]["unclosed_steps"] == 5
    path.write_text(_squeezed_row(1.001))
    with warnings.catch_warnings():
        warnings.simplefilter("error", coulomb.PositionWarning)
        coulomb.load(str(path)).run()


def test_converged_steps_do_not_warn():
    import warnings
    sim = coulomb.load(BILLIARD)
    with warnings.catch_warnings():
        warnings.simplefilter("error", coulomb.ConvergenceWarning)
        sim.step(20)
    stats = sim.solver_statistics()
    assert stats["not_converged"] == 0 and stats["solves"] == 20
    # `auto` (the default) answered every step with NSGS alone.
    assert stats["methods"] == {"nsgs": 20} and stats["auto_switches"] == 0


def test_set_state_is_atomic_and_validated():
    sim = coulomb.load(BILLIARD)
    x0, q0, v0 = sim.positions(), sim.orientations(), sim.velocities()
    x = x0.copy()
    x[1] = [0.5, 0.0, 0.1]
    bad_q = q0.copy()
    bad_q[1] = 0.0
    # A bad orientation after good positions: nothing is applied.
    with pytest.raises(ValueError, match="zero quaternion"):
        sim.set_state(positions=x, orientations=bad_q)
    np.testing.assert_array_equal(sim.positions(), x0)
    nan_v = v0.copy()
    nan_v[1, 0] = np.nan
    with pytest.raises(ValueError, match="velocities: body 'ball'"):
        sim.set_state(velocities=nan_v)
    far = x0.copy()
    far[1, 1] = 1e308
    with pytest.raises(ValueError, match="positions: body 'ball'"):
        sim.set_state(positions=far)
    moved = x0.copy()
    moved[0] = [0.0, 0.0, 1.0]
    with pytest.raises(ValueError, match="'table' is fixed"):
        sim.set_state(positions=moved)
    with pytest.raises(ValueError, match="time"):
        sim.set_state(time=float("nan"))
    np.testing.assert_array_equal(sim.positions(), x0)
    np.testing.assert_array_equal(sim.velocities(), v0)
    # Giving a fixed body its own state back is allowed.
    sim.set_state(positions=x0, orientations=q0, velocities=v0)


def test_step_and_run_reject_bad_arguments():
    sim = coulomb.load(BILLIARD)
    for bad in (-5, 2.5, True):
        with pytest.raises(ValueError, match="step"):
            sim.step(bad)
    for bad in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError, match="run: end"):
            sim.run(bad)
    assert sim.time == 0.0
    sim.step(np.int64(2))
    assert sim.time == pytest.approx(2e-4)


def test_load_takes_numpy_scalars_and_arrays():
    scene = dict(BILLIARD)
    scene["time"] = {"end": np.float64(0.01), "step": np.float32(1e-3)}
    ball = dict(BILLIARD["bodies"][1])
    ball["velocity"] = np.array([2.0, 0.0, 0.0])
    ball["mass"] = np.int64(1)
    scene["bodies"] = [BILLIARD["bodies"][0], ball]
    sim = coulomb.load(scene).run()
    assert sim.time == pytest.approx(0.01)
    with pytest.raises(TypeError, match="not scene data"):
        coulomb.load({"bodies": [object()]})
