"""Billiard spin study: final rolling speed against initial spin.

A billiard ball struck at v0 with spin w0 about the axis of rolling slides, then rolls at
(5 v0 + 2 R w0) / 7 (reference/contensou.md §3, case 1). This runs the ball for a range of spins,
compares the final speeds with the closed form and plots both.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/billiard_spin.py OUTDIR
"""
import os
import sys

import numpy as np

import coulomb

R, MASS, MU, V0 = 0.028575, 0.17, 0.2, 2.0  # [m], [kg], [-], [m/s]


def billiard(w0):
    """The billiard scene as a dict (the keys of a scene file) with spin w0 [rad/s] about +y."""
    return {
        "name": "billiard-spin-study",
        "gravity": [0, 0, -9.81],
        "time": {"end": 1.0, "step": 1.0e-4},
        "solver": {"tolerance": 1e-12, "max_iterations": 200},
        "materials": ["cloth", "phenolic"],
        "contacts": [{"between": ["phenolic", "cloth"], "normal": {"law": "signorini", "restitution": 0.0},
                      "friction": {"law": "coulomb", "mu": MU}}],
        "bodies": [
            {"name": "table", "fixed": True, "material": "cloth", "shapes": [{"type": "plane"}]},
            {"name": "ball", "material": "phenolic", "shapes": [{"type": "sphere", "radius": R}],
             "mass": MASS, "position": [0, 0, R], "velocity": [V0, 0, 0], "angular_velocity": [0, w0, 0]},
        ],
    }


def main(outdir):
    os.makedirs(outdir, exist_ok=True)
    spins = np.linspace(-60.0, 140.0, 11)  # [rad/s]; rolling would be v0/R = 70 rad/s
    final = np.empty_like(spins)
    for i, w0 in enumerate(spins):
        sim = coulomb.load(billiard(w0)).run()
        final[i] = sim.velocities()[1, 0]
    closed = (5 * V0 + 2 * R * spins) / 7
    worst = np.max(np.abs(final - closed) / np.abs(closed))
    print(f"final speed vs (5 v0 + 2 R w0)/7 over {len(spins)} spins: worst relative error {worst:.2e}")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    w = np.linspace(spins[0], spins[-1], 200)
    ax.plot(w, (5 * V0 + 2 * R * w) / 7, "-", label="(5 v0 + 2 R w0)/7")
    ax.plot(spins, final, "o", label="coulomb")
    ax.axvline(V0 / R, color="gray", lw=0.8, ls=":", label="rolling at impact (w0 = v0/R)")
    ax.set_xlabel("initial spin w0 [rad/s]")
    ax.set_ylabel("final rolling speed [m/s]")
    ax.set_title(f"Billiard ball, v0 = {V0} m/s, mu = {MU}")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path = os.path.join(outdir, "billiard_spin.png")
    fig.savefig(path)
    print(f"wrote {path}")
    # 1e-9: the same bound as the C++ test (exact conservation of angular momentum about the contact line).
    return 0 if worst <= 1e-9 else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUTDIR")
    sys.exit(main(sys.argv[1]))
