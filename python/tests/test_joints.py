"""Joints from Python (docs/joints.md): the reactions of a hinge hold the bob on its circle."""

import math

import numpy as np

import coulomb

# A bob (1 kg sphere) hanging 1 m below a hinge at rest: the hinge carries its weight, m g up.
PENDULUM = {
    "name": "pendulum",
    "time": {"end": 0.01, "step": 1e-3},
    "bodies": [{"name": "bob", "mass": 1.0, "shapes": [{"type": "sphere", "radius": 0.05}],
                "position": [0, 0, 0]}],
    "joints": [{"name": "pivot", "type": "hinge", "bodies": ["world", "bob"],
                "anchor": [0, 0, 1], "axis": [0, 1, 0]}],
}


def test_hinge_reaction_carries_the_weight():
    sim = coulomb.load(PENDULUM)
    j = sim.joints()
    assert j["name"] == ["pivot"]
    assert np.all(j["force"] == 0.0)  # before the first step
    sim.run(0.01)
    j = sim.joints()
    # At rest under the anchor: the force on the bob is m g up, no moment about the anchor
    # (to the solver tolerance 1e-10 relative of the step's velocities, ~1e-9 N).
    assert np.allclose(j["force"][0], [0, 0, 9.81], atol=1e-9)
    assert np.allclose(j["moment"][0], 0.0, atol=1e-9)
    # The bob stays where it hangs: round-off.
    assert abs(sim.positions()[0][2]) < 1e-15
    assert math.isfinite(sim.energy()["total"])
