#!/usr/bin/env python3
"""Figures of the compliant formulation's validation (docs/validation.md, docs/figures/).

Usage: PYTHONPATH=build/python /usr/bin/python3 scripts/compliant-figures.py [OUTDIR]
(OUTDIR defaults to docs/figures). Runs the validation scenes of scenes/validation/ through the
Python module:
  - kudra-ball, kudra-ellipsoid: the path of the body for every Contensou model, and each model's
    distance from the exact model over time (the exact model follows the independent ODE of the
    integral model to 1e-12 m and 3e-11 m: `coulomb validate --case kudra-ball`);
  - belt-stick-slip: position and velocity of the block for the elastic stick (Coulomb with
    mu_s > mu_k) and for a Stribeck law, with the closed-form limit cycle of Coulomb friction;
  - hertz-impact: the force against the indentation over the impact, with Hertz's law.
"""
import math
import os
import sys
import tempfile

import numpy as np

import coulomb

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SCENES = os.path.join(ROOT, "scenes", "validation")
MODELS = ["exact", "quadrature", "generalized", "pade22", "pade11", "ellipsoid"]


def scene_text(name):
    with open(os.path.join(SCENES, name), encoding="utf-8") as f:
        return f.read()


def load_text(text):
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        return coulomb.load(path)
    finally:
        os.unlink(path)


def rest_on_plane(sim, semi_axes, mass, stiffness):
    """The body at its static penetration (m g/K)^(2/3), as the validation case places it."""
    q = sim.orientations()[1]
    w, x, y, z = q
    # R^T e_z for the body → world quaternion (w, x, y, z).
    rz = np.array([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)])
    support = np.linalg.norm(np.asarray(semi_axes) * rz)
    pos = sim.positions()
    pos[1, 2] = support - (mass * 9.81 / stiffness) ** (2.0 / 3.0)
    sim.set_state(positions=pos)


def track(sim, end):
    t, xs = [], []
    steps = int(round(end / sim.time_step))
    for _ in range(steps):
        sim.step(1)
        t.append(sim.time)
        xs.append(sim.positions()[1].copy())
    return np.array(t), np.array(xs)


def kudra(plt, outdir, name, semi_axes, mass, title):
    text = scene_text(name)
    tracks = {}
    for m in MODELS:
        sim = load_text(text.replace("model: exact", f"model: {m}"))
        rest_on_plane(sim, semi_axes, mass, 1.0e9)
        tracks[m] = track(sim, 1.0)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for m, (t, x) in tracks.items():
        ax1.plot(x[:, 0], x[:, 1], label=m, lw=1.2 if m in ("exact", "quadrature") else 1.0)
        if m != "exact":
            d = np.linalg.norm(x - tracks["exact"][1], axis=1)
            ax2.semilogy(t, np.maximum(d, 1e-16), label=m)
    ax1.set_xlabel("x [m]")
    ax1.set_ylabel("y [m]")
    ax1.set_title(f"{title}: path of the centre")
    ax1.axis("equal")
    ax1.legend(fontsize="small")
    ax2.set_xlabel("time [s]")
    ax2.set_ylabel("distance from the exact model [m]")
    ax2.set_title("each model against the exact model")
    ax2.legend(fontsize="small")
    fig.tight_layout()
    path = os.path.join(outdir, name.replace(".yaml", ".png"))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def belt(plt, outdir):
    text = scene_text("belt-stick-slip.yaml")
    runs = {
        "elastic stick (Coulomb, mu_s 0.5, mu_k 0.3)": text,
        "Stribeck (mu_s 0.5, mu_k 0.3, v_s 0.02 m/s)": text.replace(
            "friction: {law: elastic_stick, mu_s: 0.5, mu_k: 0.3, stiffness: 1.0e6, damping: 2000}",
            "friction: {law: stribeck, mu_s: 0.5, mu_k: 0.3, stribeck_velocity: 0.02, "
            "regularization: 1.0e-4}"),
    }
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for label, t_ in runs.items():
        sim = load_text(t_)
        t, xs, vs = [], [], []
        for _ in range(int(round(4.0 / sim.time_step))):
            sim.step(1)
            t.append(sim.time)
            xs.append(sim.positions()[1, 0])
            vs.append(sim.velocities()[1, 0])
        ax1.plot(t, xs, label=label)
        ax2.plot(xs, vs, label=label)
    # Coulomb's closed-form cycle: stick at V from x_k - Delta to x_k + Delta, slip on the ellipse.
    n, k, V, w = 9.81, 100.0, 0.1, 10.0
    xk, delta = 0.3 * n / k, 0.2 * n / k
    A = math.hypot(delta, V / w)
    phi0 = math.atan2(delta * w, V)
    phi = np.linspace(phi0, 2 * math.pi - phi0, 200)
    ax2.plot(xk + A * np.sin(phi), A * w * np.cos(phi), "k--", lw=0.8,
             label="closed form (rigid stick)")
    ax2.plot([xk - delta, xk + delta], [V, V], "k--", lw=0.8)
    ax1.set_xlabel("time [s]")
    ax1.set_ylabel("x [m]")
    ax1.set_title("Block on a belt: position")
    ax2.set_xlabel("x [m]")
    ax2.set_ylabel("v [m/s]")
    ax2.set_title("limit cycles (phase plane)")
    for a in (ax1, ax2):
        a.legend(fontsize="small")
    fig.tight_layout()
    path = os.path.join(outdir, "belt-stick-slip.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def hertz(plt, outdir):
    sim = coulomb.load(os.path.join(SCENES, "hertz-impact.yaml"))
    d, f = [], []
    for _ in range(int(round(sim.end_time / sim.time_step))):
        sim.step(1)
        c = sim.contacts()
        if len(c["fn"]) and c["gap"][0] < 0:
            d.append(-c["gap"][0])
            f.append(c["fn"][0])
    d, f = np.array(d), np.array(f)
    e_star = 1.0 / (2 * (1 - 0.09) / 2e11)
    k = 4.0 / 3.0 * e_star * math.sqrt(0.005)
    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    ax.plot(d * 1e6, f, ".", ms=1.5, label="compliant formulation (samples)")
    dd = np.linspace(0, d.max(), 100)
    ax.plot(dd * 1e6, k * dd ** 1.5, "k--", lw=0.8, label="Hertz: (4/3) E* sqrt(R*) delta^1.5")
    ax.set_xlabel("indentation [µm]")
    ax.set_ylabel("normal force [N]")
    ax.set_title("Two steel spheres at 1 m/s")
    ax.legend(fontsize="small")
    fig.tight_layout()
    path = os.path.join(outdir, "hertz-impact.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "figures")
    os.makedirs(outdir, exist_ok=True)
    written = [
        kudra(plt, outdir, "kudra-ball.yaml", [0.028575] * 3, 0.17, "Billiard ball (masse shot)"),
        kudra(plt, outdir, "kudra-ellipsoid.yaml", [0.03, 0.03, 0.02], 0.1,
              "Oblate ellipsoid spinning"),
        belt(plt, outdir),
        hertz(plt, outdir),
    ]
    for p in written:
        print(p)


if __name__ == "__main__":
    main()
