"""The compliant formulation through the Python module: the same API as the nonsmooth one (load,
run, state arrays, contacts, energy with its elastic part, set_state, write), and the integrator's
statistics."""
import json
import math

import numpy as np
import pytest

import coulomb

# A rubber ball dropped 2 mm on a rubber plane, Hertz's law without damping (docs/compliant.md):
# a soft contact (about 14 ms long) that the samples (every 1 ms) see.
DROP = {
    "name": "drop",
    "gravity": [0, 0, -9.81],
    "time": {"end": 0.05, "step": 1.0e-3},
    "solver": {"formulation": "compliant", "integrator": "erk", "rtol": 1e-9, "atol": 1e-12},
    "materials": [{"name": "steel", "young_modulus": 2.0e7, "poisson_ratio": 0.3}],
    "contacts": [{"between": ["steel", "steel"], "normal": {"law": "hertz"},
                  "friction": {"law": "regularized", "mu": 0.3, "regularization": 1e-3}}],
    "bodies": [
        {"name": "ground", "fixed": True, "material": "steel", "shapes": [{"type": "plane"}]},
        {"name": "ball", "material": "steel", "mass": 1.0,
         "shapes": [{"type": "sphere", "radius": 0.01}], "position": [0, 0, 0.012]},
    ],
}


def energy_total(sim):
    e = sim.energy()
    return e["kinetic"] + e["potential"] + e["elastic"] + e["dissipated"]


def test_bounce_keeps_its_energy_and_reports_the_integrator():
    sim = coulomb.load(DROP)
    e0 = energy_total(sim)
    sim.run()
    # The ball fell 2 mm, bounced (Hertz stores and returns the energy) and flies up again.
    assert sim.time == pytest.approx(0.05)
    assert energy_total(sim) == pytest.approx(e0, rel=1e-7)
    assert sim.energy()["total"] == pytest.approx(e0, rel=1e-7)
    stats = sim.integrator_statistics()
    assert stats["name"] == "erk"
    assert stats["events"]["onset"] >= 1 and stats["events"]["release"] >= 1
    assert stats["steps"] > 0 and stats["rhs_evaluations"] >= stats["steps"]
    # The solver statistics of the nonsmooth formulation count no solves here.
    assert sim.solver_statistics()["solves"] == 0
    nonsmooth = {**DROP, "solver": {}, "contacts": [{"between": ["steel", "steel"],
                                                     "normal": {"law": "signorini"}}]}
    assert coulomb.load(nonsmooth).integrator_statistics() is None


def test_contacts_hold_forces_at_the_sample():
    sim = coulomb.load(DROP)
    # The ball lands at √(2 · 0.002/g) = 20.2 ms and is pressed for about 14 ms: sample then.
    sim.run(0.025)
    c = sim.contacts()
    assert len(c["fn"]) == 1
    assert c["gap"][0] < 0
    # Hertz: N = (4/3) E* √R δ^{3/2}, the force at the sample itself.
    e_star = 1.0 / (2 * (1 - 0.09) / 2e7)
    k = 4.0 / 3.0 * e_star * math.sqrt(0.01)
    assert c["fn"][0] == pytest.approx(k * (-c["gap"][0]) ** 1.5, rel=1e-9)
    assert sim.energy()["elastic"] == pytest.approx(0.4 * k * (-c["gap"][0]) ** 2.5, rel=1e-9)


def test_set_state_restarts_the_integrator():
    sim = coulomb.load(DROP)
    sim.run(0.01)
    v = sim.velocities()
    v[1] = [0.0, 0.0, 1.0]
    sim.set_state(velocities=v)
    z0 = sim.positions()[1, 2]
    sim.run(0.015)
    # Free flight from the new state: z0 + v t − g t²/2.
    assert sim.positions()[1, 2] == pytest.approx(z0 + 0.005 - 0.5 * 9.81 * 0.005 ** 2, abs=1e-10)
    assert sim.integrator_statistics()["restarts"] >= 2


def test_write_gives_the_compliant_outputs(tmp_path):
    out = tmp_path / "drop"
    summary = coulomb.load(DROP).write(str(out))
    assert summary["formulation"] == "compliant"
    assert summary["integrator"]["name"] == "erk"
    with open(out / "energy.csv") as f:
        assert f.readline().strip().split(",")[3] == "elastic"
    with open(out / "solver.csv") as f:
        assert f.readline().startswith("time,steps,rejected_steps,rhs_evaluations")
    assert json.loads((out / "summary.json").read_text())["status"] == "completed"


def test_compliant_scene_errors_name_the_key():
    bad = json.loads(json.dumps(DROP))
    bad["contacts"][0]["normal"] = {"law": "signorini"}
    with pytest.raises(coulomb.SceneError, match="normal.law: 'signorini' is a nonsmooth law"):
        coulomb.load(bad)
    bad = json.loads(json.dumps(DROP))
    bad["solver"]["theta"] = 0.5
    with pytest.raises(coulomb.SceneError, match="solver.theta applies to formulation: nonsmooth"):
        coulomb.load(bad)


def test_shock_statistics_of_a_dis_choc_contact():
    # The drop on DIS_CHOC's linear spring K_n (no damping): the ball (m = 1 kg) lands at
    # v = sqrt(2 g h), h = 2 mm, and leaves after (pi + 2 atan(g / (v w))) / w, w = sqrt(K_n/m)
    # (half a period of the oscillator about the sagged equilibrium m g / K_n, plus the time spent
    # below it), 10.9 ms; one rebound, then the ball flies for 40 ms.
    scene = {**DROP, "time": {"end": 0.05, "step": 1.0e-4},
             "contacts": [{"between": ["steel", "steel"],
                           "normal": {"law": "dis_choc", "stiffness": 1.0e5},
                           "friction": {"law": "regularized", "mu": 0.3,
                                        "regularization": 1e-3}}]}
    sim = coulomb.load(scene)
    sim.run()
    stats = sim.shock_statistics()
    assert len(stats) == 1
    p = stats[0]
    assert {p["body1"], p["body2"]} == {"ground", "ball"}
    assert p["shocks"] == 1 and p["rebounds"] == 1
    g, w = 9.81, math.sqrt(1.0e5)
    v = math.sqrt(2 * g * 0.002)
    duration = (math.pi + 2 * math.atan(g / (v * w))) / w
    # Durations are measured between samples (code_aster's definition): within one step.
    assert p["shock_duration_mean"] == pytest.approx(duration, abs=1.01e-4)
    assert coulomb.load(DROP).shock_statistics() is None
