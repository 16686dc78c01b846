"""coulomb.law: the C++ law tabulation (`coulomb law`) as numpy arrays."""
import os
import subprocess

import numpy as np
import pytest

import coulomb

# reference/contensou.md §1, test table (a = 1): eps, F uniform, m uniform, F Hertz, m Hertz.
# The table prints 12 significant digits (10 at eps = 10): compared to 1e-9.
CONTENSOU_TABLE = np.array([
    [0, 0, 0.666666666667, 0, 0.589048622548],
    [0.25, 0.248031309761, 0.635786123608, 0.289922368910, 0.553095947832],
    [0.5, 0.483843755630, 0.547748354772, 0.552233083639, 0.455592294002],
    [1, 0.848826363157, 0.282942121052, 0.883572933822, 0.220893233456],
    [2, 0.967687511260, 0.127809198284, 0.974278579257, 0.101909332919],
    [4, 0.992125239044, 0.0628313968234, 0.993707402084, 0.0502267870948],
    [10, 0.9987484326, 0.02502089217, 0.9989989256, 0.02001432156],
])


@pytest.mark.parametrize("pressure, column", [("uniform", 1), ("hertz", 3)])
def test_contensou_exact_matches_the_reference_table(pressure, column):
    eps = CONTENSOU_TABLE[:, 0]
    r = coulomb.law("contensou", model="exact", pressure=pressure, eps=eps)
    assert sorted(r) == ["F", "eps", "m"]
    np.testing.assert_array_equal(r["eps"], eps)
    np.testing.assert_allclose(r["F"], CONTENSOU_TABLE[:, column], rtol=0, atol=1e-9)
    np.testing.assert_allclose(r["m"], CONTENSOU_TABLE[:, column + 1], rtol=0, atol=1e-9)


def test_stribeck_curve_is_the_closed_form():
    v = np.linspace(0, 0.1, 101)
    r = coulomb.law("stribeck", mu_s=0.5, mu_k=0.3, vs=0.01, v=v)
    assert list(r) == ["v", "mu"]
    assert r["v"].shape == (101,) and r["mu"].dtype == np.float64
    # The samples cross as 17-digit text: they come back bit for bit.
    np.testing.assert_array_equal(r["v"], v)
    # mu(v) = mu_k + (mu_s - mu_k) exp(-(v/vs)^2) (docs/laws.md, exponent 2 by default); 1e-15:
    # one exp and a few products in double precision.
    np.testing.assert_allclose(r["mu"], 0.3 + 0.2 * np.exp(-(v / 0.01) ** 2), rtol=0, atol=1e-15)


def test_range_text_and_normal_law():
    # Hertz with a given stiffness: N = K delta^(3/2).
    r = coulomb.law("hertz", stiffness=1e6, delta="0:1e-3:1e-4")
    assert list(r) == ["delta", "N"] and len(r["delta"]) == 11
    np.testing.assert_allclose(r["N"], 1e6 * r["delta"] ** 1.5, rtol=1e-14, atol=0)


def test_pade_differs_from_exact_by_the_documented_amount():
    # reference/contensou.md §2: Padé (1,1), Hertz, max |ΔT| 0.34 against the exact curve.
    eps = np.linspace(0, 10, 1001)
    exact = coulomb.law("contensou", model="exact", pressure="hertz", eps=eps)
    pade = coulomb.law("contensou", model="pade11", pressure="hertz", eps=eps)
    worst = np.max(np.abs(pade["F"] - exact["F"]))
    assert 0.30 < worst < 0.35, worst


def cli_law_error(*args):
    """The one-line message `coulomb law ARGS` prints on bad arguments (after "coulomb law: ")."""
    run = subprocess.run([os.environ["COULOMB_CLI"], "law", *args], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    prefix = "coulomb law: "
    assert run.stderr.startswith(prefix) and run.stderr.count("\n") == 1, run.stderr
    return run.stderr[len(prefix):].rstrip("\n")


@pytest.mark.skipif("COULOMB_CLI" not in os.environ, reason="needs the coulomb program (run by ctest)")
@pytest.mark.parametrize("kwargs, cli", [
    (dict(name="nope", v=[0.0]), ["nope", "--v", "0.0"]),
    (dict(name="contensou", pressure="flat", eps=[0.0]), ["contensou", "--pressure", "flat", "--eps", "0.0"]),
    (dict(name="stribeck", mu_s=0.5, mu_k=0.3, vs=0.01), ["stribeck", "--mu-s", "0.5", "--mu-k", "0.3", "--vs", "0.01"]),
    (dict(name="contensou", colour="red", eps=[0.0]), ["contensou", "--colour", "red", "--eps", "0.0"]),
    (dict(name="stribeck", mu_s=0.5, mu_k=0.3, vs=-1.0, v=[0.0]),
     ["stribeck", "--mu-s", "0.5", "--mu-k", "0.3", "--vs", "-1.0", "--v", "0.0"]),
])
def test_errors_raise_value_error_with_the_cli_message(kwargs, cli):
    expected = cli_law_error(*cli)
    kwargs = dict(kwargs)
    name = kwargs.pop("name")
    with pytest.raises(ValueError) as info:
        coulomb.law(name, **kwargs)
    assert str(info.value) == expected


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match=r"^unknown law 'nope'"):
        coulomb.law("nope", v=[0.0])
    with pytest.raises(ValueError, match="flat"):
        coulomb.law("contensou", pressure="flat", eps=[0.0])
