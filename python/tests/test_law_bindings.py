"""coulomb.laws() and coulomb.make_law(): the law registry bound directly, evaluated over numpy
arrays (no CLI, no CSV). Closed forms, the `coulomb law` tables, errors, shapes."""
import os
import subprocess

import numpy as np
import pytest

import coulomb
from test_law import CONTENSOU_TABLE

STEEL = {"young_modulus": 2e11, "poisson_ratio": 0.3}
CLASSES = {"normal": coulomb.NormalLaw, "friction": coulomb.FrictionLaw,
           "rolling": coulomb.RollingLaw, "pivoting": coulomb.PivotingLaw,
           "soft_finger": coulomb.PivotingLaw, "contensou": coulomb.ContensouLaw}
needs_cli = pytest.mark.skipif("COULOMB_CLI" not in os.environ,
                               reason="needs the coulomb program (run by ctest)")


def cli(*args):
    """Runs `coulomb ARGS` and returns its stdout."""
    run = subprocess.run([os.environ["COULOMB_CLI"], *args], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


def cli_table(*args):
    """The CSV of `coulomb law ARGS` as {column: array}."""
    lines = cli("law", *args).splitlines()
    names = lines[0].split(",")
    values = np.array([[float(x) for x in line.split(",")] for line in lines[1:]])
    return {name: values[:, i] for i, name in enumerate(names)}


def text(values):
    """A comma list that `coulomb law` reads back to the same doubles (repr round-trips)."""
    return ",".join(repr(float(x)) for x in values)


def along_t1(values):
    """(n, 2) vectors (x, 0): the CLI's slips and rolling rates lie along t1."""
    values = np.asarray(values, dtype=float)
    return np.stack([values, np.zeros_like(values)], axis=-1)


# ---- the registry ----------------------------------------------------------------------------

@needs_cli
def test_laws_print_as_coulomb_law_list():
    # `coulomb law --list` prints the registry's rows (registry_listing); laws() written in the
    # same layout must give the same text, so every section, name, formulation, summary, key,
    # unit, default, range and option value of laws() is the registry's.
    lines = []
    for row in coulomb.laws():
        lines.append(f"{row['section']}.{row['name']}  ({', '.join(row['formulations'])})  "
                     f"{row['summary']}")
        for k in row["keys"]:
            lines.append(f"    {k['key']:<24} {k['unit']:<10} default {k['default_text']:<28} "
                         f"{k['range']}")
        for o in row["options"]:
            lines.append(f"    {o['key']:<24} {'-':<10} default {o['default']:<28} "
                         f"{'|'.join(o['values'])}")
    assert "\n".join(lines) + "\n" == cli("law", "--list")


def test_law_keys_hold_their_ranges_and_defaults():
    rows = {(r["section"], r["name"]): r for r in coulomb.laws()}
    keys = {k["key"]: k for k in rows["friction", "stribeck"]["keys"]}
    assert keys["exponent"]["default"] == 2.0 and keys["exponent"]["open_lo"]
    assert keys["mu_s"]["default"] is None and keys["mu_s"]["default_text"] == "required"
    angle = {k["key"]: k for k in rows["contensou", "contensou"]["keys"]}["n_angle"]
    assert angle["integer"] and (angle["lo"], angle["hi"]) == (2.0, 1000.0)
    model = rows["contensou", "contensou"]["options"][0]
    assert model["key"] == "model" and model["default"] == "exact"
    assert model["nonsmooth_default"] == "ellipsoid"
    assert model["formulations"]["pade11"] == ["compliant"]
    assert rows["rolling_resistance", "rolling_resistance"]["standalone"] is False


def evaluate_some(law):
    """Evaluates a law of any section at 4 points; returns the result dict."""
    if isinstance(law, coulomb.NormalLaw):
        return law.evaluate([0.0, 1e-6, 1e-5, -1e-6], rate=[0.1], equivalent_radius=0.01)
    if isinstance(law, coulomb.FrictionLaw):
        return law.evaluate([[1.0, 0.0], [0.0, -2e-3], [1e-7, 0.0], [0.3, 0.4]], normal_force=10.0)
    if isinstance(law, coulomb.RollingLaw):
        return law.evaluate([[1.0, 0.0], [0.0, -2e-3], [0.0, 0.0], [0.3, 0.4]], normal_force=10.0)
    if isinstance(law, coulomb.PivotingLaw):
        return law.evaluate([1.0, -2e-3, 0.0, 0.5], normal_force=10.0)
    return law.evaluate([[1.0, 0.0], [0.0, -2e-3], [1e-7, 0.0], [0.3, 0.4]], spin=3.0,
                        normal_force=10.0, equivalent_radius=0.01)


def all_arrays(result):
    for key, value in result.items():
        if isinstance(value, dict):
            yield from all_arrays(value)
        else:
            yield key, value


@pytest.mark.parametrize("row", coulomb.laws(), ids=lambda r: f"{r['section']}.{r['name']}")
def test_every_law_builds_from_its_example_and_evaluates(row):
    context = dict(materials=STEEL, friction=0.3)
    if not row["standalone"]:
        # rolling_resistance is a part of the Contensou law, built with it.
        with pytest.raises(ValueError, match="is built with the contensou law, not on its own"):
            coulomb.make_law(row["section"], **context, **row["example"])
        law = coulomb.make_law("contensou", radius=0.01, rolling_resistance=row["example"],
                               **context)
    else:
        law = coulomb.make_law(row["section"], row["name"], **context, **row["example"])
        assert type(law) is CLASSES[row["section"]]
        assert (law.section, law.name) == (row["section"], row["name"])
        assert law.params == row["example"] and law.description == row
    for key, value in all_arrays(evaluate_some(law)):
        assert value.shape[0] == 4, key
        if value.dtype == bool:
            continue
        assert value.dtype == np.float64, key
        assert np.all(np.isfinite(value)), (key, value)


def test_no_law_key_is_an_argument_of_make_law():
    # make_law(section, name, *, materials, friction, rolling_resistance, **params) and `law=`:
    # a law key with one of these names could not be given.
    reserved = {"section", "name", "law", "materials", "friction", "rolling_resistance"}
    for row in coulomb.laws():
        for key in [k["key"] for k in row["keys"]] + [o["key"] for o in row["options"]]:
            assert key not in reserved, (row["name"], key)


def test_a_scene_law_map_builds_as_is():
    law = coulomb.make_law("friction", **{"law": "regularized", "mu": 0.3, "regularization": 1e-3,
                                          "form": "linear"})
    assert law.name == "regularized" and law.params["form"] == "linear"
    assert repr(law) == ("FrictionLaw('friction', 'regularized', mu=0.3, regularization=0.001, "
                         "form='linear')")
    assert coulomb.make_law("rolling", k=1e-3).name == "rolling"  # one-law sections: no name


# ---- closed forms --------------------------------------------------------------------------

def test_hertz_is_k_delta_to_the_three_halves():
    K = 1e9
    delta = np.linspace(-1e-5, 1e-4, 23)
    rate = np.linspace(-1, 1, 23)
    r = coulomb.make_law("normal", "hertz", stiffness=K).evaluate(delta, rate)
    d = np.maximum(delta, 0.0)
    # N = K δ^{3/2}, ∂N/∂δ = (3/2) K δ^{1/2}, stored energy (2/5) K δ^{5/2}, no damping. 1e-14:
    # a power and two products in double precision (a few ulp), against numpy's pow.
    np.testing.assert_allclose(r["force"], K * d ** 1.5, rtol=1e-14, atol=0)
    np.testing.assert_allclose(r["d_delta"], 1.5 * K * d ** 0.5, rtol=1e-14, atol=0)
    np.testing.assert_allclose(r["potential"], 0.4 * K * d ** 2.5, rtol=1e-14, atol=0)
    assert np.all(r["d_rate"] == 0) and np.all(r["power"] == 0)  # elastic: exactly zero
    assert np.all(r["force"][delta <= 0] == 0)  # no contact, no force: exactly zero


def test_hertz_stiffness_from_two_materials():
    # K = (4/3) E* √R*, 1/E* = (1 − ν1²)/E1 + (1 − ν2²)/E2 (Johnson, Contact Mechanics, §4.2).
    m1 = {"young_modulus": 2e11, "poisson_ratio": 0.3}
    m2 = {"young_modulus": 7e10, "poisson_ratio": 0.33, "name": "aluminium", "density": 2700.0}
    e_star = 1.0 / ((1 - 0.3 ** 2) / 2e11 + (1 - 0.33 ** 2) / 7e10)
    radius = np.array([1e-3, 1e-2, 1.0])
    law = coulomb.make_law("normal", "hertz", materials=(m1, m2))
    r = law.evaluate(1e-6, equivalent_radius=radius)
    # 1e-14: a handful of products, a division and a square root (a few ulp each).
    np.testing.assert_allclose(r["force"], 4 / 3 * e_star * np.sqrt(radius) * 1e-9, rtol=1e-14)
    same = coulomb.make_law("normal", "hertz", materials=m1).evaluate(1e-6, equivalent_radius=0.01)
    np.testing.assert_allclose(same["force"], 4 / 3 * 2e11 / (2 * (1 - 0.09)) * 0.1 * 1e-9,
                               rtol=1e-14)


def test_linear_spring_damper():
    k, c = 1e5, 300.0
    delta = np.linspace(-1e-3, 1e-2, 12)[:, None]  # (12, 1) against rate (5,): (12, 5)
    rate = np.array([-20.0, -1.0, 0.0, 1.0, 20.0])
    r = coulomb.make_law("normal", "linear", stiffness=k, damping=c).evaluate(delta, rate)
    assert r["force"].shape == (12, 5)
    # N = max(0, k δ + c δ̇) for δ > 0, 0 otherwise (the dashpot never pulls). 1e-15 relative:
    # one product and one sum, against the same in numpy, plus one ulp of slack.
    expected = np.where(delta > 0, np.maximum(0.0, k * delta + c * rate), 0.0)
    np.testing.assert_allclose(r["force"], expected, rtol=1e-15, atol=0)
    touching = r["force"] > 0
    assert touching.sum() > 20 and (~touching).sum() > 10  # both branches are exercised
    # Derivatives and powers where not clamped: ∂N/∂δ = k, ∂N/∂δ̇ = c, power c δ̇², stored ½ k δ².
    assert np.all(r["d_delta"][touching] == k) and np.all(r["d_rate"][touching] == c)
    np.testing.assert_allclose(r["power"][touching], (c * rate ** 2 * np.ones_like(delta))[touching],
                               rtol=1e-15, atol=0)
    np.testing.assert_allclose(r["potential"], np.where(delta > 0, 0.5 * k * delta ** 2, 0.0)
                               * np.ones_like(rate), rtol=1e-15, atol=0)


@pytest.mark.parametrize("relation, chi", [
    ("flores", 8 * (1 - 0.8) / (5 * 0.8 * 2.0)),        # χ = 8 (1 − e)/(5 e v_in)
    ("hunt_crossley", 3 * (1 - 0.8) / (2 * 2.0)),       # χ = 3 (1 − e)/(2 v_in)
])
def test_hunt_crossley(relation, chi):
    K, n = 1e8, 1.5
    delta = np.linspace(0, 1e-4, 11)[1:, None]
    rate = np.array([-3.0, -0.5, 0.0, 0.5, 3.0])
    law = coulomb.make_law("normal", "hunt_crossley", stiffness=K, restitution=0.8,
                           impact_velocity=2.0, relation=relation)
    r = law.evaluate(delta, rate)
    # N = max(0, K δ^n (1 + χ δ̇)) (Hunt & Crossley 1975; χ from e by the relation); stored energy
    # K δ^{n+1}/(n + 1). 1e-14: a power, three products, a sum (a few ulp).
    np.testing.assert_allclose(r["force"], np.maximum(0.0, K * delta ** n * (1 + chi * rate)),
                               rtol=1e-14, atol=0)
    np.testing.assert_allclose(r["potential"] * np.ones_like(rate),
                               K * delta ** (n + 1) / (n + 1) * np.ones_like(rate), rtol=1e-14)
    # With χ given directly the same law results.
    direct = coulomb.make_law("normal", "hunt_crossley", stiffness=K, damping=chi)
    np.testing.assert_allclose(direct.evaluate(delta, rate)["force"], r["force"], rtol=1e-15)


def random_slips(shape, seed):
    return np.random.default_rng(seed).normal(size=shape + (2,))


def test_coulomb_is_mu_n_opposite_to_slip():
    v = random_slips((5, 7), seed=1)
    N = np.linspace(1.0, 70.0, 7)  # broadcast against the (5, 7) slips
    law = coulomb.make_law("friction", "coulomb", mu_s=0.5, mu_k=0.3)
    r = law.evaluate(v, N)
    speed = np.linalg.norm(v, axis=-1)
    # The slip branch F = −μ_k N v/‖v‖ (static/kinetic rule: evaluate is the kinetic branch).
    # 1e-15 relative + 1e-15 N absolute: a norm, a division and products, a few ulp each.
    np.testing.assert_allclose(r["force"], -0.3 * N[:, None] * v / speed[..., None], rtol=1e-15,
                               atol=1e-15 * 70)
    np.testing.assert_allclose(np.linalg.norm(r["force"], axis=-1),
                               np.broadcast_to(0.3 * N, (5, 7)), rtol=1e-15)
    np.testing.assert_allclose(r["power"], 0.3 * N * speed, rtol=1e-15)
    # The cone: μ_s for a new or stuck contact, μ_k after a slip.
    np.testing.assert_array_equal(law.cone_coefficients(), [0.5, 0.5])
    cone = law.cone_coefficients({"sticking": [True, False], "previous_slip": [[1.0, 0.0]]})
    np.testing.assert_array_equal(cone, [[0.5, 0.5], [0.3, 0.3]])
    assert law.set_valued and law.isotropic_coefficient == 0.3


def test_anisotropic_coulomb_is_maximal_dissipation_on_the_ellipse():
    v = random_slips((9,), seed=2)
    D2 = np.array([0.2, 0.6]) ** 2
    r = coulomb.make_law("friction", "coulomb", mu_t1=0.2, mu_t2=0.6).evaluate(v, 4.0)
    # F = −N D² v/‖D v‖, D = diag(μ1, μ2) (Walker & Leine 2019). 1e-15: a few ulp.
    Dv = np.linalg.norm(np.sqrt(D2) * v, axis=-1)
    np.testing.assert_allclose(r["force"], -4.0 * D2 * v / Dv[:, None], rtol=1e-15, atol=1e-15)


@pytest.mark.parametrize("form, s", [("tanh", np.tanh), ("linear", lambda x: np.minimum(x, 1.0))])
def test_regularized_coulomb(form, s):
    v = random_slips((50,), seed=3) * 1e-3  # speeds around v_r: both sides of the saturation
    law = coulomb.make_law("friction", "regularized", mu=0.4, regularization=1e-3, form=form)
    r = law.evaluate(v, 2.0)
    u = np.linalg.norm(v, axis=-1)[:, None]
    # F = −μ N s(u/v_r) v/u. 1e-14: tanh and a norm in two libraries (libm vs numpy), a few ulp.
    np.testing.assert_allclose(r["force"], -0.4 * 2.0 * s(u / 1e-3) * v / u, rtol=1e-14,
                               atol=1e-16)


def test_viscous():
    v = random_slips((3, 4), seed=4)
    r = coulomb.make_law("friction", "viscous", damping=2.5).evaluate(v, 0.0)
    # F = −c v, independent of N: one product, exact in both.
    np.testing.assert_array_equal(r["force"], -2.5 * v)
    np.testing.assert_array_equal(r["d_slip"], np.broadcast_to(-2.5 * np.eye(2), (3, 4, 2, 2)))


def test_pivoting_soft_finger_and_rolling():
    w = np.linspace(-3e-3, 3e-3, 13)
    # Linear saturation (the default form): M = −h N min(|ω|/ω_r, 1) sign ω, ω_r = 1e-3.
    # Exact products and one division: 1e-15 relative.
    sat = np.clip(w / 1e-3, -1.0, 1.0)
    piv = coulomb.make_law("pivoting", h=0.002).evaluate(w, 5.0)
    np.testing.assert_allclose(piv["moment"], -0.002 * 5.0 * sat, rtol=1e-15, atol=1e-18)
    finger = coulomb.make_law("soft_finger", radius=0.01, friction=0.5)
    assert finger.coefficient == 0.01 * 0.5  # h = μ r_t (one product)
    np.testing.assert_allclose(finger.evaluate(w, 5.0)["moment"], -0.005 * 5.0 * sat, rtol=1e-15,
                               atol=1e-18)
    # Rolling: M_t = −k N min(‖ω_t‖/ω_r, 1) ω_t/‖ω_t‖, here ω_t = (ω cos 30°, ω sin 30°).
    c, s = np.cos(np.pi / 6), np.sin(np.pi / 6)
    roll = coulomb.make_law("rolling", k=0.001).evaluate(np.outer(w, [c, s]), 5.0)
    np.testing.assert_allclose(roll["moment"], -0.001 * 5.0 * np.outer(sat, [c, s]), rtol=1e-15,
                               atol=1e-18)


@pytest.mark.parametrize("pressure, column", [("uniform", 1), ("hertz", 3)])
def test_contensou_exact_matches_the_reference_table(pressure, column):
    # reference/contensou.md §1 (a = 1, μN = 1, ω = 1, v = (ε, 0)): F = −F_t1, m = −M_n. The table
    # prints 12 significant digits (10 at ε = 10): compared to 1e-9.
    law = coulomb.make_law("contensou", model="exact", pressure=pressure, radius=1.0, friction=1.0)
    r = law.evaluate(along_t1(CONTENSOU_TABLE[:, 0]), spin=1.0, normal_force=1.0)
    np.testing.assert_allclose(-r["force"][:, 0], CONTENSOU_TABLE[:, column], rtol=0, atol=1e-9)
    np.testing.assert_allclose(-r["moment"], CONTENSOU_TABLE[:, column + 1], rtol=0, atol=1e-9)
    assert law.model == "exact" and law.friction_coefficient == 1.0


def central_difference(f, x, h):
    """∂f/∂x by central differences: the last axis of the result indexes x's components."""
    x = np.asarray(x, dtype=float)
    if x.ndim == 0:
        return (f(x + h) - f(x - h)) / (2 * h)
    columns = []
    for j in range(x.shape[-1]):
        e = np.zeros_like(x)
        e[..., j] = h
        columns.append((f(x + e) - f(x - e)) / (2 * h))
    return np.stack(columns, axis=-1)


def test_contensou_derivatives_are_its_finite_differences():
    # The (..., i, j) = ∂y_i/∂x_j layout of every matrix: central differences of a smooth law
    # (Padé (2,2), rolling resistance) away from ε = 0 and from the regularisation. Step 1e-6 of
    # quantities of order 0.1–10: truncation O(h²) ≈ 1e-12, round-off ≈ 1e-16/1e-6 = 1e-10, so
    # 1e-6 relative is slack by orders of magnitude yet fails for a transposed matrix (checked:
    # ∂F_t/∂ω_t below is not symmetric).
    law = coulomb.make_law("contensou", model="pade22", radius=0.01, friction=0.3,
                           rolling_resistance={"kappa": 0.3, "regularization": 0.5})
    slip, spin, normal, rolling = np.array([0.03, -0.02]), 4.0, 10.0, np.array([1.5, -2.0])
    r = law.evaluate(slip, spin, normal, rolling)
    f = lambda **kw: law.evaluate(**{**dict(slip=slip, spin=spin, normal_force=normal,
                                            rolling=rolling), **kw})
    checks = [
        ("dforce_dslip", central_difference(lambda x: f(slip=x)["force"], slip, 1e-6)),
        ("dforce_dspin", central_difference(lambda x: f(spin=x)["force"], spin, 1e-6)),
        ("dforce_drolling", central_difference(lambda x: f(rolling=x)["force"], rolling, 1e-6)),
        ("dforce_dnormal", central_difference(lambda x: f(normal_force=x)["force"], normal, 1e-6)),
        ("dmoment_dslip", central_difference(lambda x: f(slip=x)["moment"], slip, 1e-6)),
        ("dmoment_dspin", central_difference(lambda x: f(spin=x)["moment"], spin, 1e-6)),
        ("dmoment_drolling", central_difference(lambda x: f(rolling=x)["moment"], rolling, 1e-6)),
        ("drolling_drolling",
         central_difference(lambda x: f(rolling=x)["rolling_moment"], rolling, 1e-6)),
        ("drolling_dnormal",
         central_difference(lambda x: f(normal_force=x)["rolling_moment"], normal, 1e-6)),
    ]
    for key, numeric in checks:
        scale = np.max(np.abs(numeric))
        assert scale > 0, key  # a zero Jacobian would check nothing
        np.testing.assert_allclose(r[key], numeric, rtol=0, atol=1e-6 * scale, err_msg=key)
    assert not np.allclose(r["dforce_drolling"], r["dforce_drolling"].T, rtol=1e-3)


def test_elastic_stick_memory_round_trip():
    law = coulomb.make_law("friction", "elastic_stick", stiffness=1000.0, damping=10.0, mu_s=0.5,
                           mu_k=0.3, threshold=1e-6)
    # A new contact creeping below the threshold sticks: F = F0 − K (x − x0) − C v with the anchor
    # at the origin; the spring stores ½ ‖F0 − K (x − x0)‖²/K. Exact: products of short numbers,
    # compared to 1e-15 relative for the one division.
    first = law.evaluate([1e-7, 0.0], 10.0, displacement=[1e-3, 0.0])
    np.testing.assert_allclose(first["force"], [-1.0 - 1e-6, 0.0], rtol=1e-15)
    np.testing.assert_allclose(first["stored"], 0.5 / 1000.0, rtol=1e-15)
    assert first["memory"]["sticking"] and first["memory"]["sticking"].dtype == bool
    # From that memory, a spring force above μ_s N = 5 N breaks the stick: the kinetic force −μ_k N
    # along the slip, and the anchor moves to x.
    second = law.evaluate([1e-7, 0.0], 10.0, displacement=[0.01, 0.0], memory=first["memory"])
    np.testing.assert_allclose(second["force"], [-3.0, 0.0], rtol=1e-15)
    assert not second["memory"]["sticking"]
    np.testing.assert_array_equal(second["memory"]["anchor"], [0.01, 0.0])
    # Both steps at once: one memory per element.
    both = law.evaluate([[1e-7, 0.0]] * 2, 10.0, displacement=[[1e-3, 0.0], [0.01, 0.0]],
                        memory={k: np.stack([np.zeros_like(v), v]) if k != "sticking"
                                else np.array([False, True])
                                for k, v in first["memory"].items()})
    np.testing.assert_array_equal(both["force"], np.stack([first["force"], second["force"]]))


# ---- the `coulomb law` tables, without the CLI ------------------------------------------------

DELTA = np.linspace(-1e-5, 1e-4, 12)
RATE = np.array([-1.0, 0.0, 0.5])
SPEED = np.linspace(-0.01, 0.05, 13)


def normal_table(law, **kw):
    r = law.evaluate(DELTA[None, :], RATE[:, None], **kw)  # rows: rate outer, delta inner
    return {"delta": np.tile(DELTA, len(RATE)), "rate": np.repeat(RATE, len(DELTA)),
            "N": r["force"].ravel()}


def friction_table(law, column="mu"):
    return {"v": SPEED, column: -law.evaluate(along_t1(SPEED), 1.0)["force"][:, 0]}


def moment_table(law, normal, vector):
    omega = along_t1(SPEED) if vector else SPEED
    moment = law.evaluate(omega, normal)["moment"]
    return {"omega": SPEED, "M": moment[:, 0] if vector else moment}


CLI_CASES = {
    "regularized": (["regularized", "--mu", "0.3", "--regularization", "1e-3", "--form", "linear",
                     "--v", text(SPEED)],
                    lambda: friction_table(coulomb.make_law("friction", "regularized", mu=0.3,
                                                            regularization=1e-3, form="linear"))),
    "viscous": (["viscous", "--damping", "2", "--v", text(SPEED)],
                lambda: friction_table(coulomb.make_law("friction", "viscous", damping=2.0), "F")),
    "coulomb anisotropic": (["coulomb", "--mu-t1", "0.3", "--mu-t2", "0.5", "--v", text(SPEED)],
                            lambda: friction_table(coulomb.make_law("friction", "coulomb",
                                                                    mu_t1=0.3, mu_t2=0.5))),
    "hertz": (["hertz", "--young-modulus", "2e11", "--poisson-ratio", "0.3", "--radius", "0.01",
               "--delta", text(DELTA)],
              lambda: {"delta": DELTA, "N": coulomb.make_law(
                  "normal", "hertz", young_modulus=2e11, poisson_ratio=0.3).evaluate(
                      DELTA, equivalent_radius=0.01)["force"]}),
    "hunt_crossley": (["hunt_crossley", "--stiffness", "1e8", "--restitution", "0.8",
                       "--impact-velocity", "1", "--delta", text(DELTA), "--rate", text(RATE)],
                      lambda: normal_table(coulomb.make_law("normal", "hunt_crossley",
                                                            stiffness=1e8, restitution=0.8,
                                                            impact_velocity=1.0))),
    "linear": (["linear", "--frequency", "10", "--damping-ratio", "0.1", "--mass", "2", "--delta",
                text(DELTA), "--rate", text(RATE)],
               lambda: normal_table(coulomb.make_law("normal", "linear", frequency=10.0,
                                                     damping_ratio=0.1, mass=2.0))),
    "dis_choc": (["dis_choc", "--stiffness", "1e6", "--damping", "50", "--delta", text(DELTA),
                  "--rate", text(RATE)],
                 lambda: normal_table(coulomb.make_law("normal", "dis_choc", stiffness=1e6,
                                                       damping=50.0))),
    "tsuji": (["tsuji", "--stiffness", "1e9", "--damping", "100", "--delta", text(DELTA), "--rate",
               text(RATE)],
              lambda: normal_table(coulomb.make_law("normal", "tsuji", stiffness=1e9,
                                                    damping=100.0))),
    "rolling": (["rolling", "--k", "0.001", "--form", "tanh", "--normal", "5", "--omega",
                 text(SPEED)],
                lambda: moment_table(coulomb.make_law("rolling", k=0.001, form="tanh"), 5.0, True)),
    "pivoting": (["pivoting", "--h", "0.002", "--normal", "5", "--omega", text(SPEED)],
                 lambda: moment_table(coulomb.make_law("pivoting", h=0.002), 5.0, False)),
    "soft_finger": (["soft_finger", "--radius", "0.01", "--mu", "0.5", "--normal", "3", "--omega",
                     text(SPEED)],
                    lambda: moment_table(coulomb.make_law("soft_finger", radius=0.01,
                                                          friction=0.5), 3.0, False)),
    "contensou eps": (["contensou", "--model", "pade22", "--pressure", "uniform", "--eps",
                       text(np.abs(SPEED) * 100)],
                      lambda: contensou_curve()),
    "contensou vector": (["contensou", "--radius", "0.01", "--mu", "0.3", "--normal", "10",
                          "--omega", "20", "--kappa", "0.2", "--rolling", "5", "--v", text(SPEED)],
                         lambda: contensou_vector()),
}


def contensou_curve():
    eps = np.abs(SPEED) * 100
    law = coulomb.make_law("contensou", model="pade22", pressure="uniform", radius=1.0,
                           friction=1.0)
    r = law.evaluate(along_t1(eps), spin=1.0, normal_force=1.0)
    return {"eps": eps, "F": 0.0 - r["force"][:, 0], "m": 0.0 - r["moment"]}


def contensou_vector():
    law = coulomb.make_law("contensou", radius=0.01, friction=0.3,
                           rolling_resistance={"kappa": 0.2})
    r = law.evaluate(along_t1(SPEED), spin=20.0, normal_force=10.0, rolling=[5.0, 0.0])
    return {"v": SPEED, "Ft1": r["force"][:, 0], "Ft2": r["force"][:, 1], "Mn": r["moment"],
            "Mt1": r["rolling_moment"][:, 0], "Mt2": r["rolling_moment"][:, 1],
            "power": r["friction_power"] + r["pivoting_power"] + r["rolling_power"]}


@needs_cli
@pytest.mark.parametrize("case", list(CLI_CASES))
def test_python_reproduces_the_coulomb_law_table(case):
    args, python = CLI_CASES[case]
    table, ours = cli_table(*args), python()
    assert list(table) == list(ours)
    for column in table:
        # Bit for bit: the same C++ law at the same doubles (the samples cross as repr text, the
        # CSV prints 17 significant digits, both round-trip), and the build contracts no FMA
        # (-ffp-contract=off), so nothing may differ.
        np.testing.assert_array_equal(ours[column], table[column], err_msg=column)


@needs_cli
def test_stribeck_curve_from_the_force():
    # `coulomb law stribeck` tabulates μ(v) = μ_k + (μ_s − μ_k) exp(−(v/v_s)^δ) without the
    # regularisation s(v) = tanh(v/v_r) of the force; with v_r = 1e-300, s = 1 exactly for v > 0,
    # so −F_t1/N is the same curve (at v = 0 the force is 0, the curve's μ_s is its limit).
    v = np.linspace(0.0, 0.05, 26)[1:]
    table = cli_table("stribeck", "--mu-s", "0.5", "--mu-k", "0.3", "--vs", "0.01", "--v", text(v))
    law = coulomb.make_law("friction", "stribeck", mu_s=0.5, mu_k=0.3, stribeck_velocity=0.01,
                           regularization=1e-300)
    # Bit for bit, as above.
    np.testing.assert_array_equal(-law.evaluate(along_t1(v), 1.0)["force"][:, 0], table["mu"])


# ---- errors --------------------------------------------------------------------------------

SCENE = {
    "materials": ["a", "b"],
    "bodies": [
        {"name": "ground", "fixed": True, "material": "a",
         "shapes": [{"type": "plane", "normal": [0, 0, 1], "offset": 0.0}]},
        {"name": "ball", "material": "b", "mass": 1.0, "position": [0, 0, 0.1],
         "shapes": [{"type": "sphere", "radius": 0.1}]},
    ],
}


@pytest.mark.parametrize("section, params, message", [
    ("friction", {"law": "coulomb", "mu": -1}, "friction.mu: must be in [0, 10000], got -1"),
    ("friction", {"law": "coulomb", "mu": 0.3, "nu": 1},
     "friction.nu: not a parameter of law 'coulomb' (its keys: mu, mu_s, mu_k, mu_t1, mu_t2, regularization)"),
    ("friction", {"law": "regularized", "mu": 0.3, "regularization": 1e-3, "form": "cubic"},
     "friction.form: must be one of linear|tanh, got 'cubic'"),
    ("friction", {"law": "stribeck", "mu_s": 0.5, "mu_k": 0.3},
     "friction.stribeck_velocity: required for law 'stribeck' (must be > 0)"),
    ("normal", {"law": "signorini", "restitution": 1.5}, "normal.restitution: must be in [0, 1], "
     "got 1.5"),
    ("rolling", {"k": 0.001, "regularization": 0}, "rolling.regularization: must be > 0, got 0"),
    ("contensou", {"radius": 0.01, "model": "pade11", "n_angle": 2.5}, None),
])
def test_bad_parameters_raise_the_message_a_scene_gets(section, params, message):
    with pytest.raises(ValueError) as info:
        coulomb.make_law(section, friction=0.3, **params)
    error = str(info.value)
    assert "\n" not in error
    if message is not None:
        assert error == message
    # The same law map in a scene: the loader's message is "<dict>:L:C: error: contacts[0]." and
    # this one.
    contact = {"between": ["a", "b"], "normal": {"law": "signorini"},
               "friction": {"law": "coulomb", "mu": 0.3}, section: params}
    with pytest.raises(coulomb.SceneError) as scene:
        coulomb.load({**SCENE, "contacts": [contact]})
    assert str(scene.value).endswith(": error: contacts[0]." + error), str(scene.value)


@needs_cli
def test_bad_parameters_raise_the_message_coulomb_law_prints():
    run = subprocess.run([os.environ["COULOMB_CLI"], "law", "stribeck", "--mu-s", "0.5", "--mu-k",
                          "0.3", "--vs", "-1", "--v", "0"], capture_output=True, text=True)
    assert run.returncode == 2
    with pytest.raises(ValueError) as info:
        coulomb.make_law("friction", "stribeck", mu_s=0.5, mu_k=0.3, stribeck_velocity=-1)
    assert run.stderr == f"coulomb law: {info.value}\n"


@pytest.mark.parametrize("call, message", [
    (lambda: coulomb.make_law("norm", "hertz"), "unknown law section 'norm' (one of normal, "
     "friction, rolling, pivoting, soft_finger, contensou, rolling_resistance)"),
    (lambda: coulomb.make_law("normal", name="hertz"), "make_law: name is positional: "
     "make_law(section, name, **params), e.g. make_law('normal', 'hertz', stiffness=1e9)"),
    # The registry's words (law_of); the scene reader says "unknown normal law 'nope'; valid: ...".
    (lambda: coulomb.make_law("normal", "nope"), "normal.law: must be one of "
     "signorini|linear|hertz|hunt_crossley|dis_choc|tsuji, got 'nope'"),
    (lambda: coulomb.make_law("normal", "hertz", law="linear"),
     "normal.law: the law is named twice, 'hertz' and 'linear'"),
    (lambda: coulomb.make_law("normal", "hertz", stiffness=True),
     "normal.stiffness: must be a number or a name, got bool"),
    (lambda: coulomb.make_law("normal", "hertz", stiffness=[1e9]),
     "normal.stiffness: must be a number or a name, got list"),
    # A name for a number: the law's words (the scene reader says "... got the quoted string").
    (lambda: coulomb.make_law("normal", "hertz", stiffness="stiff"),
     "normal.stiffness: must be a number, got 'stiff'"),
    (lambda: coulomb.make_law("normal", "hertz", stiffness=float("nan")),
     "normal.stiffness: must be ≥ 0, got nan"),
    (lambda: coulomb.make_law("normal", "hertz", materials={"E": 2e11}),
     "materials: unknown key 'E' (the keys: name, young_modulus, poisson_ratio, density)"),
    (lambda: coulomb.make_law("normal", "hertz", materials=[STEEL]),
     "materials: expected a mapping (both bodies) or a pair of mappings, got list"),
    (lambda: coulomb.make_law("friction", "coulomb", mu=0.3, rolling_resistance={"kappa": 0.1}),
     "rolling_resistance: only the contensou law takes it (the pressure distortion of its "
     "patch), not friction"),
    (lambda: coulomb.make_law("contensou", radius=0.01, friction="high"),
     "friction: expected the contact's friction coefficient μ (a number) or a FrictionLaw, got "
     "str"),
])
def test_bad_arguments_raise_one_line_value_errors(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


def test_a_viscous_friction_law_gives_contensou_no_mu():
    # Contensou takes the kinetic μ of an isotropic friction law, as in a scene.
    coulomb_law = coulomb.make_law("friction", "coulomb", mu_s=0.5, mu_k=0.3)
    assert coulomb.make_law("contensou", radius=0.01, friction=coulomb_law) \
                  .friction_coefficient == 0.3
    with pytest.raises(ValueError, match=r"^contensou: needs the contact's friction coefficient"):
        coulomb.make_law("contensou", radius=0.01,
                         friction=coulomb.make_law("friction", "viscous", damping=1.0))


HERTZ = coulomb.make_law("normal", "hertz", stiffness=1e9)
COULOMB = coulomb.make_law("friction", "coulomb", mu=0.3)


@pytest.mark.parametrize("call, message", [
    (lambda: COULOMB.evaluate([1.0, 2.0, 3.0], 1.0),
     "slip: expected an array of shape (..., 2), got shape (3,)"),
    (lambda: COULOMB.evaluate(1.0, 1.0), "slip: expected an array of shape (..., 2), got shape ()"),
    (lambda: COULOMB.evaluate(np.zeros((3, 2)), np.ones(4)),
     "normal_force of shape (4,) does not broadcast with slip of shape (3, 2)"),
    (lambda: HERTZ.evaluate(np.zeros(3), np.zeros((2, 1)), np.zeros(5)),
     "equivalent_radius of shape (5,) does not broadcast with delta of shape (3,), rate of shape "
     "(2, 1)"),
    (lambda: HERTZ.evaluate(None), "delta: expected numbers, got None"),
    (lambda: HERTZ.evaluate("deep"), "delta: expected an array-like of numbers, got str"),
    (lambda: COULOMB.evaluate([1.0, 0.0], 1.0, memory={"stuck": True}),
     "memory: unknown key 'stuck' (the keys: sticking, anchor_force, anchor, previous_slip)"),
    (lambda: COULOMB.cone_coefficients({"previous_slip": [1.0]}),
     "memory['previous_slip']: expected an array of shape (..., 2), got shape (1,)"),
])
def test_bad_inputs_raise_one_line_value_errors(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


# ---- arrays ----------------------------------------------------------------------------------

def test_inputs_are_any_array_like_and_outputs_float64_of_the_broadcast_shape():
    r = HERTZ.evaluate([0, 1, 2])  # ints
    assert r["force"].dtype == np.float64 and r["force"].shape == (3,)
    assert HERTZ.evaluate(1e-4)["force"].shape == ()  # scalars: 0-d arrays
    assert HERTZ.evaluate(np.zeros((0, 3)))["force"].shape == (0, 3)
    assert COULOMB.evaluate(np.zeros((4, 1, 2)), np.ones(5))["d_slip"].shape == (4, 5, 2, 2)
    assert COULOMB.evaluate([1.0, 0.0], 1.0)["force"].shape == (2,)
    assert COULOMB.cone_coefficients().shape == (2,)


def test_broadcast_and_strided_inputs_give_the_elementwise_values():
    # Determinism and layout: any memory layout and any broadcast give, bit for bit, the values
    # of one call per element.
    rng = np.random.default_rng(5)
    slip = np.asfortranarray(rng.normal(size=(6, 5, 2)))[:, ::2]  # non-contiguous, (6, 3, 2)
    normal = rng.uniform(1, 2, size=(3,))
    law = coulomb.make_law("friction", "stribeck", mu_s=0.5, mu_k=0.3, stribeck_velocity=0.5,
                           viscous=0.1)
    r = law.evaluate(slip, normal)
    for i in range(6):
        for j in range(3):
            one = law.evaluate(slip[i, j].tolist(), float(normal[j]))
            for key in ["force", "d_slip", "d_normal", "power"]:
                np.testing.assert_array_equal(r[key][i, j], one[key])
    again = law.evaluate(slip, normal)
    for key, value in all_arrays(r):
        np.testing.assert_array_equal(value, dict(all_arrays(again))[key])
