"""coulomb.sweep: the table of `coulomb sweep`, bit for bit, serially and on a Dask LocalCluster
of 2 worker processes."""
import os
import subprocess

import numpy as np
import pytest

import coulomb

SOURCE = os.environ.get("COULOMB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SCENE = os.path.join(SOURCE, "scenes", "tippe-top.yaml")
PARAMS = {"contacts[0].friction.mu": [0.2, 0.4], "bodies[top].angular_velocity[2]": "100:180:3",
          "time.end": [0.1]}
METRICS = {"axis": "final(top.axis_z)", "tilt": "first_time(top.axis_z < 0.995)"}


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def test_serial_table_matches_the_cli(tmp_path):
    table = coulomb.sweep(SCENE, PARAMS, metrics=METRICS, out=str(tmp_path / "py"))
    assert table.shape == (6,)
    assert list(table["id"]) == list(range(6))
    assert set(table["status"]) == {"completed"}
    assert list(table["contacts[0].friction.mu"]) == [0.2, 0.2, 0.2, 0.4, 0.4, 0.4]
    assert list(table["bodies[top].angular_velocity[2]"]) == [100, 140, 180] * 2
    # A metric with its closed form at t = 0: the axis starts tilted by 0.1 rad.
    assert np.all(table["axis"] < 1) and np.all(table["axis"] > 0.9)
    cli = os.environ.get("COULOMB_CLI")
    if not cli:
        pytest.skip("COULOMB_CLI not set: no comparison with the program")
    subprocess.run([cli, "sweep", SCENE, "--set", "contacts[0].friction.mu=[0.2,0.4]",
                    "--set", "bodies[top].angular_velocity[2]=100:180:3", "--set", "time.end=[0.1]",
                    "--metric", "axis=final(top.axis_z)",
                    "--metric", "tilt=first_time(top.axis_z < 0.995)",
                    "--out", str(tmp_path / "cli"), "-q", "-j", "2"], check=True)
    assert _read(tmp_path / "py" / "sweep.csv") == _read(tmp_path / "cli" / "sweep.csv")
    cli_table = coulomb.read_table(str(tmp_path / "cli" / "sweep.csv"))
    assert cli_table.tobytes() == table.tobytes()


def test_dask_local_cluster_gives_the_serial_table(tmp_path):
    distributed = pytest.importorskip("distributed")
    serial = coulomb.sweep(SCENE, PARAMS, metrics=METRICS, out=str(tmp_path / "serial"))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        table = coulomb.sweep(SCENE, PARAMS, metrics=METRICS, out=str(tmp_path / "dask"),
                              client=client)
    assert _read(tmp_path / "serial" / "sweep.csv") == _read(tmp_path / "dask" / "sweep.csv")
    assert table.dtype == serial.dtype and table.tobytes() == serial.tobytes()


def test_bad_variant_is_a_value_error_naming_it(tmp_path):
    with pytest.raises(ValueError, match=r"variant 1 \(contacts\[0\].friction.mu=-1\)"):
        coulomb.sweep(SCENE, {"contacts[0].friction.mu": [0.3, -1]}, out=str(tmp_path / "bad"))
    assert not (tmp_path / "bad").exists()
