#!/usr/bin/env bash
# The tippe-top inversion map of docs/sweeps.md: μ × initial spin, 8 × 8 variants, run serially,
# on 1 and 2 MPI ranks, on 2 local threads and on a Dask LocalCluster of 2 workers; checks that
# every table is the serial one byte for byte, prints the wall times, draws the heat map.
# Usage: scripts/tippe-top-map.sh [BUILD] [WORK]   (default build/ and /tmp/coulomb-tippe-map)
set -euo pipefail
build="${1:-build}"
work="${2:-${TMPDIR:-/tmp}/coulomb-tippe-map}"
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
coulomb="$(cd "$build" && pwd)/src/cli/coulomb"
python_dir="$(cd "$build" && pwd)/python"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

args=(sweep "$source_dir/scenes/tippe-top.yaml"
      --set 'contacts[0].friction.mu=0.05:0.75:8'
      --set 'bodies[top].angular_velocity[1]=[0]'
      --set 'bodies[top].angular_velocity[2]=20:230:8'
      --set 'time.end=[4]' --set 'time.step=[5e-4]'
      --metric 'flip=first_time(top.axis_z < 0)' --metric 'axis=final(top.axis_z)'
      --summary-only -q)

wall() {  # wall time of a command [s]
  local start end
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }'
}
t_serial=$(wall "$coulomb" "${args[@]}" --out serial -j 1)
t_mpi1=$(wall mpirun -n 1 "$coulomb" "${args[@]}" --out mpi1)
t_mpi2=$(wall mpirun -n 2 "$coulomb" "${args[@]}" --out mpi2)
t_jobs2=$(wall "$coulomb" "${args[@]}" --out jobs2 -j 2)
t_dask=$(wall env PYTHONPATH="$python_dir" /usr/bin/python3 \
  "$source_dir/scripts/tippe_top_map_dask.py" "$source_dir/scenes/tippe-top.yaml" dask)
for d in mpi1 mpi2 jobs2 dask; do
  cmp serial/sweep.csv "$d/sweep.csv" || { echo "FAIL: $d differs from serial" >&2; exit 1; }
done
echo "identical sweep.csv: serial, mpirun -n 1, mpirun -n 2, --jobs 2, Dask (2 workers)"
echo "wall [s]: serial $t_serial, 1 rank $t_mpi1, 2 ranks $t_mpi2, 2 threads $t_jobs2, Dask 2 workers $t_dask"
"$coulomb" plot serial --metric flip --out plots > /dev/null
echo "heat map: $work/plots/sweep-flip.png"
