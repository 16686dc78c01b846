"""Tippe top (or, until scenes/tippe-top.yaml exists, the spinning top of scenes/spinning-top.yaml):
tilt of the body's z axis, spin and energy against time.

A tippe top spun fast enough turns over onto its stem: its tilt goes from near 0 to near pi
(reference/contensou.md §3, case 9). A spinning top on its apex precesses and stays up.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/tippe_top.py OUTDIR [SCENES_DIR]
"""
import os
import sys

import numpy as np

import coulomb


def body_z_axes(q):
    """z axes of the body frames in world, from quaternions (w, x, y, z), one row per body."""
    w, x, y, z = q.T
    return np.stack([2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)], axis=1)


def main(outdir, scenes):
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(scenes, "tippe-top.yaml")
    if os.path.exists(path):
        label = "tippe top"
    else:
        print(f"{path} not found (the tippe-top scene is not there yet): running the spinning top instead")
        path = os.path.join(scenes, "spinning-top.yaml")
        label = "spinning top"
    sim = coulomb.load(path)
    top = sim.bodies.index("top") if "top" in sim.bodies else len(sim.bodies) - 1  # both scenes name it "top"

    # Step in chunks of about 5 ms, recording the state between chunks (no per-step Python loop).
    chunk = max(1, int(round(0.005 / sim.time_step)))
    times, tilt, spin, total = [], [], [], []
    while sim.time < sim.end_time - 0.5 * sim.time_step:
        axis = body_z_axes(sim.orientations())[top]
        times.append(sim.time)
        tilt.append(np.arccos(np.clip(axis[2], -1.0, 1.0)))
        spin.append(sim.angular_velocities()[top] @ axis)
        total.append(sim.energy()["kinetic"] + sim.energy()["potential"])
        sim.step(min(chunk, int(round((sim.end_time - sim.time) / sim.time_step))))
    times, tilt, spin, total = map(np.array, (times, tilt, spin, total))
    if label == "tippe top":
        turned = np.nonzero(tilt > np.pi / 2)[0]
        print("inverted at t = %.3f s" % times[turned[0]] if len(turned) else "did not invert in this run")
    print(f"{label}: {path}, {sim.time:.3f} s; tilt {tilt[0]:.3f} -> {tilt[-1]:.3f} rad, "
          f"spin {spin[0]:.1f} -> {spin[-1]:.1f} rad/s, mechanical energy {total[0]:.4g} -> {total[-1]:.4g} J")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(3, 1, figsize=(8, 8), dpi=100, sharex=True)
    axes[0].plot(times, tilt)
    axes[0].set_ylabel("tilt of body z axis [rad]")
    axes[0].set_title(f"{label} ({os.path.basename(path)})")
    axes[1].plot(times, spin)
    axes[1].set_ylabel("spin about body z [rad/s]")
    axes[2].plot(times, total)
    axes[2].set_ylabel("kinetic + potential [J]")
    axes[2].set_xlabel("time [s]")
    for ax in axes:
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    out = os.path.join(outdir, "tippe_top.png")
    fig.savefig(out)
    print(f"wrote {out}")
    # Friction only dissipates: the mechanical energy never grows (beyond round-off).
    return 0 if np.all(np.diff(total) <= 1e-9 * abs(total[0]) + 1e-12) else 1


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(f"usage: {sys.argv[0]} OUTDIR [SCENES_DIR]")
    here = os.path.dirname(os.path.abspath(__file__))
    scenes = sys.argv[2] if len(sys.argv) == 3 else os.path.join(here, "..", "..", "scenes")
    sys.exit(main(sys.argv[1], scenes))
