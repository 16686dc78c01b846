#!/usr/bin/env python3
"""The tippe-top inversion map of docs/sweeps.md on a Dask LocalCluster of 2 worker processes
(called by scripts/tippe-top-map.sh): python3 tippe_top_map_dask.py SCENE OUT."""
import sys

import coulomb
import distributed

PARAMS = {"contacts[0].friction.mu": "0.05:0.75:8", "bodies[top].angular_velocity[1]": "[0]",
          "bodies[top].angular_velocity[2]": "20:230:8", "time.end": "[4]",
          "time.step": "[5e-4]"}
METRICS = {"flip": "first_time(top.axis_z < 0)", "axis": "final(top.axis_z)"}

if __name__ == "__main__":
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        coulomb.sweep(sys.argv[1], PARAMS, client=client, metrics=METRICS, out=sys.argv[2],
                      summary_only=True)
