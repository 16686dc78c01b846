"""Driven bodies and loads set from Python between steps (issue 11), against closed forms."""
import math

import numpy as np
import pytest

import coulomb


def belt_scene(formulation="nonsmooth"):
    return {
        "name": "belt",
        "gravity": [0, 0, -9.81],
        "time": {"end": 1.0, "step": 1.0e-3},
        "solver": {"tolerance": 1e-12},
        "materials": ["m"],
        "contacts": [{"between": ["m", "m"], "friction": {"law": "coulomb", "mu": 0.5}}],
        "bodies": [
            {"name": "belt", "material": "m", "motion": {"velocity": [0.6, 0.8, 0]},
             "position": [0, 0, -0.05], "shapes": [{"type": "box", "half_extents": [5, 5, 0.05]}]},
            {"name": "block", "material": "m", "mass": 1.0, "position": [0, 0, 0.05],
             "shapes": [{"type": "box", "half_extents": [0.05, 0.05, 0.05]}]},
        ],
    }


def test_set_motion_changes_the_belt_velocity_and_the_block_follows_at_mu_g():
    sim = coulomb.load(belt_scene())
    sim.run(0.4)  # |V| = 1 m/s reached at 1/(mu g) = 0.204 s
    np.testing.assert_allclose(sim.velocities()[1], [0.6, 0.8, 0], atol=1e-10)
    belt_x = sim.positions()[0].copy()
    # The belt turns to (-0.8, 0.6, 0): the slip (-1.4, -0.2, 0) closes at mu g.
    sim.set_motion("belt", velocity=[-0.8, 0.6, 0])
    np.testing.assert_allclose(sim.positions()[0], belt_x, atol=1e-15)  # the pose is kept
    slip = math.hypot(1.4, 0.2)
    t_stick = slip / (0.5 * 9.81)
    sim.run(0.4 + 0.5 * t_stick)
    v = sim.velocities()[1]
    # Half-way the slip is half of what it was (constant deceleration mu g): exact for the
    # scheme up to the nearest step (1e-3 s of mu g = 4.9e-3 m/s).
    assert abs(np.linalg.norm(v - [-0.8, 0.6, 0]) - 0.5 * slip) < 0.5 * 9.81 * 1e-3
    sim.run(1.0)
    np.testing.assert_allclose(sim.velocities()[1], [-0.8, 0.6, 0], atol=1e-10)
    np.testing.assert_allclose(sim.positions()[0], belt_x + 0.6 * np.array([-0.8, 0.6, 0]),
                               atol=1e-12)
    e = sim.energy()
    # The audit closes: kinetic + potential + dissipated - driven work is the initial total.
    assert e["driven_work"] > 0
    # One driven body: its own running sum of the same step terms is the total.
    assert e["driven_work_by_body"] == {"belt": e["driven_work"]}
    assert abs(e["total"] - 1.0 * 9.81 * 0.05) < 1e-12


def test_set_load_force_and_damping_in_free_flight():
    scene = {
        "name": "puck", "gravity": [0, 0, 0], "time": {"end": 1.0, "step": 1.0e-3},
        "bodies": [{"name": "puck", "mass": 2.0, "shapes": [{"type": "sphere", "radius": 0.1}],
                    "force": [0, 0, 0], "damping": {"linear": 0.0}}],
    }
    sim = coulomb.load(scene)
    sim.set_load("puck", force=[1.0, -2.0, 0.5])
    sim.run(0.5)
    # Constant force: v = F t/m exactly (the kick is exact for a constant force).
    np.testing.assert_allclose(sim.velocities()[0], np.array([1.0, -2.0, 0.5]) * 0.5 / 2.0,
                               rtol=1e-12)
    assert abs(sim.energy()["force_work"] - sim.energy()["kinetic"]) < 1e-12
    # Damping alone: v(t) = v0 exp(-c t/m); the implicit midpoint rule's factor per step is
    # (1 - c h/2m)/(1 + c h/2m), within (c h/m)^3/12 per step of exp(-c h/m).
    v0 = sim.velocities()[0].copy()
    sim.set_load("puck", force=[0, 0, 0], linear_damping=4.0)
    sim.run(1.0)
    np.testing.assert_allclose(sim.velocities()[0], v0 * math.exp(-4.0 * 0.5 / 2.0), rtol=1e-6)
    e = sim.energy()
    assert abs(e["total"] - 0.0) < 1e-12  # kinetic + damping - force work


def test_set_load_and_set_motion_refuse_the_wrong_bodies():
    sim = coulomb.load(belt_scene())
    with pytest.raises(ValueError, match="driven"):
        sim.set_load("belt", force=[1, 0, 0])
    with pytest.raises(ValueError, match="not driven"):
        sim.set_motion("block", velocity=[1, 0, 0])
    with pytest.raises(ValueError, match="no body named"):
        sim.set_load("nope", force=[1, 0, 0])
    with pytest.raises(ValueError, match="frame"):
        sim.set_load("block", frame="local")


def test_a_sleeping_block_wakes_when_given_a_load_and_the_energy_audit_counts_what_slept():
    scene = belt_scene()
    scene["bodies"][0] = {"name": "ground", "fixed": True, "material": "m",
                          "shapes": [{"type": "plane"}]}
    scene["bodies"][1]["velocity"] = [0.005, 0.002, 0]  # below the sleep threshold (0.01 m/s)
    scene["solver"] = {"tolerance": 1e-12, "sleep": {"time": 0.1}}
    sim = coulomb.load(scene)
    start = sim.energy()["total"]
    sim.run(0.2)
    # The block stopped sliding at once (mu g = 4.9 m/s^2) and fell asleep 0.1 s later.
    e = sim.energy()
    # The audit holds with what slept counted (here ~0: friction had stopped the block).
    assert e["total"] == pytest.approx(start, abs=1e-12)
    assert "slept" in e
    x = sim.positions()[1].copy()
    sim.run(0.3)
    np.testing.assert_array_equal(sim.positions()[1], x)  # asleep: still, bit for bit
    # A load wakes it: 10 N against mu m g = 4.9 N of friction.
    sim.set_load("block", force=[10, 0, 0])
    sim.run(0.4)
    assert sim.positions()[1][0] - x[0] > 0.02
