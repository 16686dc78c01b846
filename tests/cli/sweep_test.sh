#!/usr/bin/env bash
# `coulomb sweep` (docs/sweeps.md): the same sweep.csv byte for byte on 1 thread, 2 threads and 2
# MPI ranks (when built with MPI and mpirun is there); a bad variant is one line naming it, exit
# status 2, nothing written; a sweep stopped by SIGINT in the middle of a run and rerun restarts
# that run from its checkpoint and gives the table of an uninterrupted sweep.
# No timing assertion: the test waits for the first checkpoint file, however long that takes.
set -euo pipefail
coulomb="$1"
work="$2/cli-sweep-test"
source_dir="$3"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
set -m

scene="$source_dir/scenes/tippe-top.yaml"
# 2 × 3 short variants of the tippe top (0.2 s each: about 0.05 s of wall time).
args=(sweep "$scene" --set 'contacts[0].friction.mu=[0.2,0.4]'
      --set 'bodies[top].angular_velocity[2]=100:180:3' --set 'time.end=[0.2]'
      --metric 'axis=final(top.axis_z)' --metric 'tilt=first_time(top.axis_z < 0.99)'
      --metric 'pen=summary.position_stage.deepest_penetration' -q)

"$coulomb" "${args[@]}" --out serial -j 1
[[ $(wc -l < serial/sweep.csv) == 7 ]] || fail "serial: $(wc -l < serial/sweep.csv) lines"
grep -q '^5,completed,,0.4,180,0.2,' serial/sweep.csv || fail "row 5: $(sed -n 7p serial/sweep.csv)"
"$coulomb" "${args[@]}" --out threads -j 2
cmp serial/sweep.csv threads/sweep.csv || fail "2 threads differ from serial"

# 2 MPI ranks, when this coulomb links MPI.
if ldd "$coulomb" | grep -q libmpi && command -v mpirun > /dev/null; then
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
    mpirun -n 2 "$coulomb" "${args[@]}" --out mpi
  cmp serial/sweep.csv mpi/sweep.csv || fail "2 MPI ranks differ from serial"
else
  echo "sweep_test: no MPI build or no mpirun: the MPI comparison is skipped"
fi

# A variant the loader refuses: one line naming the variant, the key and the line, exit 2, no DIR.
set +e
err=$("$coulomb" sweep "$scene" --set 'contacts[0].friction.mu=[0.3,-1]' --out bad 2>&1)
rc=$?
set -e
[[ $rc == 2 ]] || fail "bad variant: exit $rc"
[[ $(printf '%s\n' "$err" | wc -l) == 1 ]] || fail "bad variant: more than one line: $err"
[[ $err == *"variant 1 (contacts[0].friction.mu=-1)"*"[variant 1]:"*"contacts[0].friction.mu"* ]] ||
  fail "bad variant message: $err"
[[ ! -e bad ]] || fail "bad variant: something was written"
set +e
err=$("$coulomb" sweep "$scene" --set 'bodies[lid].mass=[1]' --out bad 2>&1)
rc=$?
set -e
[[ $rc == 2 && $err == *"no element named 'lid'"* && ! -e bad ]] || fail "unknown body: $rc $err"

# Interrupted and resumed: full-length runs (8 s, 80000 steps, about 2 s each), a checkpoint every
# 0.5 s of simulated time; SIGINT once the first variant wrote its first checkpoint.
long=(sweep "$scene" --set 'contacts[0].friction.mu=[0.3,0.5]' --metric 'flip=first_time(top.axis_z < 0)'
      --metric 'axis=final(top.axis_z)' --checkpoint-every 0.5 -q -j 1)
"$coulomb" "${long[@]}" --out whole
"$coulomb" "${long[@]}" --out cut &
pid=$!
until compgen -G "cut/runs/000000.partial-*/checkpoint.bin" > /dev/null; do
  kill -0 "$pid" 2> /dev/null || fail "the sweep ended before its first checkpoint"
  sleep 0.05
done
kill -INT "$pid"
set +e
wait "$pid"
rc=$?
set -e
[[ $rc == 130 ]] || fail "interrupted sweep: exit $rc"
[[ ! -e cut/sweep.csv ]] || fail "an interrupted sweep wrote sweep.csv"
grep -q '"status": "interrupted"' cut/runs/000000/summary.json || fail "run 0 not interrupted"
[[ -f cut/runs/000000/checkpoint.bin ]] || fail "run 0 left no checkpoint"
"$coulomb" "${long[@]}" --out cut
grep -q '"restarted_from"' cut/runs/000000/summary.json || fail "run 0 did not restart"
cmp whole/sweep.csv cut/sweep.csv || fail "resumed sweep differs from the uninterrupted one"
for f in trajectory.csv contacts.csv energy.csv; do
  cmp whole/runs/000000/$f cut/runs/000000/$f || fail "restarted run 0: $f differs"
done

# Killed (SIGKILL: a lost node) after variant 1's first checkpoint: its working folder
# runs/000001.partial-PID holds the checkpoint; the rerun restarts from it.
rm -rf killed
"$coulomb" "${long[@]}" --out killed &
pid=$!
until compgen -G "killed/runs/000001.partial-*/checkpoint.bin" > /dev/null; do
  kill -0 "$pid" 2> /dev/null || fail "the sweep ended before variant 1's first checkpoint"
  sleep 0.05
done
kill -KILL "$pid"
wait "$pid" 2> /dev/null || true
[[ ! -e killed/runs/000001/summary.json ]] || fail "the killed run 1 has a summary"
"$coulomb" "${long[@]}" --out killed
grep -q '"restarted_from"' killed/runs/000001/summary.json || fail "run 1 did not restart"
compgen -G "killed/runs/000001.partial-*" > /dev/null && fail "the killed run's working folder stayed"
cmp whole/sweep.csv killed/sweep.csv || fail "the sweep resumed after a kill differs"
echo "sweep_test: serial = 2 threads = 2 ranks; resumed after SIGINT and SIGKILL = uninterrupted"
