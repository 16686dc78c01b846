"""Coulomb–Contensou law comparison: exact, Padé (1,1), Padé (2,2) and generalised approximants,
for Hertz and uniform pressure over a circular patch (reference/contensou.md §1–2).

F(eps) is the friction force and m(eps) the pivoting moment (units mu N and mu N a) as functions
of eps = |v| / (a |w|). Every curve is evaluated by the C++ laws through coulomb.law, like
`coulomb law contensou`.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/contensou_laws.py OUTDIR
"""
import os
import sys

import numpy as np

import coulomb

MODELS = ["exact", "pade11", "pade22", "generalized"]
PRESSURES = ["hertz", "uniform"]


def main(outdir):
    os.makedirs(outdir, exist_ok=True)
    eps = np.linspace(0.0, 5.0, 501)
    curves = {(p, m): coulomb.law("contensou", model=m, pressure=p, eps=eps) for p in PRESSURES for m in MODELS}

    # How far each approximant is from the exact curve.
    for p in PRESSURES:
        exact = curves[(p, "exact")]
        m0 = exact["m"][0]
        for m in MODELS[1:]:
            c = curves[(p, m)]
            print(f"{p:8s} {m:12s} max |dF| = {np.max(np.abs(c['F'] - exact['F'])):.3f}, "
                  f"max |dm|/m0 = {np.max(np.abs(c['m'] - exact['m'])) / m0:.3f}")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 3, figsize=(14, 8), dpi=100)
    for row, p in enumerate(PRESSURES):
        m0 = curves[(p, "exact")]["m"][0]
        for m in MODELS:
            c = curves[(p, m)]
            style = "-" if m == "exact" else "--"
            axes[row, 0].plot(eps, c["F"], style, label=m)
            axes[row, 1].plot(eps, c["m"], style, label=m)
            axes[row, 2].plot(c["F"], c["m"] / m0, style, label=m)
        t = np.linspace(0, np.pi / 2, 100)
        axes[row, 2].plot(np.cos(t), np.sin(t), ":", color="gray", label="Contensou ellipsoid")
        axes[row, 0].set(title=f"{p} pressure: friction force", xlabel="eps = |v|/(a|w|) [-]", ylabel="F / (mu N) [-]")
        axes[row, 1].set(title=f"{p} pressure: pivoting moment", xlabel="eps = |v|/(a|w|) [-]", ylabel="m / (mu N a) [-]")
        axes[row, 2].set(title=f"{p} pressure: limit curve", xlabel="F / (mu N) [-]", ylabel="m / m0 [-]")
        for ax in axes[row]:
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(outdir, "contensou_laws.png")
    fig.savefig(path)
    print(f"wrote {path}")
    # reference/contensou.md §2: the exact curve lies inside the ellipsoid; at eps = 1,
    # F^2 + (m/m0)^2 = 0.9213 (Hertz), 0.9006 (uniform), printed to 4 digits.
    ok = True
    for p, expected in [("hertz", 0.9213), ("uniform", 0.9006)]:
        c = coulomb.law("contensou", model="exact", pressure=p, eps=[0.0, 1.0])
        value = c["F"][1] ** 2 + (c["m"][1] / c["m"][0]) ** 2
        print(f"{p}: F^2 + (m/m0)^2 at eps = 1 is {value:.6f} (reference {expected})")
        ok = ok and abs(value - expected) <= 5e-5
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUTDIR")
    sys.exit(main(sys.argv[1]))
