#!/usr/bin/env bash
# `coulomb run --checkpoint-every T` and `--restart FILE` (docs/reliability.md, "Checkpoint and
# restart"): a run killed with SIGKILL after a checkpoint, and one stopped by SIGINT, restarted
# from their checkpoints, give the files of an uninterrupted run to the same end time byte for
# byte (cmp: every CSV and replay.html) and the same final state in summary.json; a restart of
# another scene or time step, or from a truncated or corrupted checkpoint, is one line, exit
# status 2, and changes nothing. An actuated scene with joints continues the same way.
# No timing assertion: the test waits for the checkpoint file, however long the machine takes,
# and reads the checkpoint's time (byte 40 of the file, docs/reliability.md) to choose the end.
set -euo pipefail
coulomb="$1"
work="$2/cli-restart-test"
source_dir="$3"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# Background jobs with default signal dispositions (see interrupt_test.sh).
set -m

# Five stacked boxes: about 4000 steps of 1 ms per second here; a checkpoint every 2 s of
# simulated time, about 0.5 s of wall time, long enough for contacts.csv (about 700 kB per second
# of simulated time) to reach the disk between two checkpoints when its 1 MiB buffer fills.
scene="$source_dir/scenes/box-stack.yaml"
every=2

# Waits until FILE exists (a checkpoint was written).
wait_file() {
  local file="$1" pid="$2"
  until [[ -f $file ]]; do
    kill -0 "$pid" 2> /dev/null || fail "the run ended before $file was written"
    sleep 0.05
  done
}

# The time of a checkpoint [s]: the first field of its payload, a little-endian double at byte 40.
checkpoint_time() { od -An -t f8 -j 40 -N 8 --endian=little "$1" | tr -d ' '; }

# The end time of a restart: 0.05 s of simulated time after its checkpoint.
end_after() { awk -v t="$(checkpoint_time "$1")" 'BEGIN { printf "%.6f\n", t + 0.05 }'; }

# A top-level section of summary.json ("final_state", "solver", "energy"): its lines.
section() { awk -v key="  \"$2\"" 'index($0, key) == 1 { on = 1 } on { print } on && /^  []}]/ { exit }' "$1"; }

# The restarted folder A holds what the uninterrupted run B wrote: every CSV and replay.html
# byte for byte, and summary.json's final state, solver statistics, energy and step count.
same_run() {
  local a="$1" b="$2"
  for f in trajectory.csv contacts.csv energy.csv solver.csv replay.html; do
    cmp "$a/$f" "$b/$f" || fail "$a/$f differs from the uninterrupted run's"
  done
  for key in final_state solver energy position_stage; do
    [[ -n $(section "$a/summary.json" "$key") ]] || fail "$a/summary.json: no $key"
    [[ "$(section "$a/summary.json" "$key")" == "$(section "$b/summary.json" "$key")" ]] ||
      fail "$a/summary.json: $key differs from the uninterrupted run's"
  done
  [[ $(grep '^  "steps"' "$a/summary.json") == $(grep '^  "steps"' "$b/summary.json") ]] ||
    fail "$a/summary.json: steps differ"
}

# kill -9 after a checkpoint, once rows written after it have reached the disk: the working folder
# killed.partial-PID holds it; the restart, without --out, continues into killed/ (the folder that
# run was writing), dropping the rows the killed run wrote after its checkpoint.
"$coulomb" run "$scene" --quiet --out killed --end 1e4 --checkpoint-every "$every" &
pid=$!
partial="killed.partial-$pid"
wait_file "$partial/checkpoint.bin" "$pid"
size=$(stat -c %s "$partial/contacts.csv")
until (($(stat -c %s "$partial/contacts.csv") > size)); do
  kill -0 "$pid" 2> /dev/null || fail "the run ended"
  sleep 0.05
done
kill -s KILL "$pid"
set +e
wait "$pid"
status=$?
set -e
[[ $status == 137 ]] || fail "kill -9: exit status $status"
[[ ! -e killed ]] || fail "kill -9: killed/ exists"
end=$(end_after "$partial/checkpoint.bin")
last=$(tail -n 1 "$partial/energy.csv" | cut -d, -f1)
echo "killed at t = $last s, restarting from the checkpoint at t = $(checkpoint_time "$partial/checkpoint.bin") s"
"$coulomb" run "$scene" --quiet --restart "$partial/checkpoint.bin" --end "$end" 2> killed.err ||
  fail "restart after kill -9: exit status $? ($(cat killed.err))"
[[ ! -s killed.err ]] || fail "restart after kill -9: stderr: $(cat killed.err)"
"$coulomb" run "$scene" --quiet --out whole-killed --end "$end"
same_run killed whole-killed
grep -q '"restarted_from"' killed/summary.json || fail "restart after kill -9: summary.json does not say so"
[[ -f $partial/checkpoint.bin ]] || fail "the killed run's checkpoint was removed"

# SIGINT: the run stops after its step with a checkpoint at the state reached, in sig/; the
# restart continues sig/ (the stop's extra frame dropped).
"$coulomb" run "$scene" --quiet --out sig --end 1e4 --checkpoint-every 0.5 2> sig.err &
pid=$!
wait_file "sig.partial-$pid/checkpoint.bin" "$pid"
kill -s INT "$pid"
set +e
wait "$pid"
status=$?
set -e
[[ $status == 130 ]] || fail "SIGINT: exit status $status ($(cat sig.err))"
[[ -f sig/checkpoint.bin ]] || fail "SIGINT: no sig/checkpoint.bin"
cp -r sig sig-copy
end=$(end_after sig/checkpoint.bin)
"$coulomb" run "$scene" --quiet --restart sig/checkpoint.bin --end "$end" ||
  fail "restart after SIGINT: exit status $?"
"$coulomb" run "$scene" --quiet --out whole-sig --end "$end"
same_run sig whole-sig

# An actuated scene with joints (checkpoint format 3): two driven bodies (a turntable under a
# block, a shaker holding an arm on a hinge), a force and damping on the block, a bob on a string
# and a spring-damper between bob and block. Run to 0.15 s with checkpoints, continued to 0.3 s
# from the last one: the files of a run straight to 0.3 s, joints.csv and driven.csv included.
cp "$source_dir/tests/data/restart/actuated-joints.yaml" actuated.yaml
"$coulomb" run actuated.yaml --quiet --out actuated --end 0.15 --checkpoint-every 0.05 ||
  fail "actuated scene with checkpoints: exit status $?"
"$coulomb" run actuated.yaml --quiet --restart actuated/checkpoint.bin --end 0.3 ||
  fail "actuated scene restarted: exit status $?"
"$coulomb" run actuated.yaml --quiet --out actuated-whole --end 0.3
same_run actuated actuated-whole
for f in joints.csv driven.csv; do
  cmp actuated/$f actuated-whole/$f || fail "actuated/$f differs from the uninterrupted run's"
done

# Refusals: one line, exit status 2, nothing written or changed.
refused() {
  local expected="$1"
  shift
  set +e
  "$coulomb" run "$@" --quiet --out refused > refused.out 2> refused.err
  local status=$?
  set -e
  [[ $status == 2 ]] || fail "$*: exit status $status ($(cat refused.err))"
  [[ $(wc -l < refused.err) == 1 ]] || fail "$*: not one line: $(cat refused.err)"
  grep -q -- "$expected" refused.err || fail "$*: unexpected message: $(cat refused.err)"
  [[ ! -e refused ]] && [[ -z $(find . -maxdepth 1 -name 'refused.partial-*') ]] ||
    fail "$*: wrote refused/"
}
refused "a checkpoint of another scene" "$source_dir/scenes/box-rest.yaml" --restart sig-copy/checkpoint.bin
refused "a checkpoint of another scene" "$scene" --dt 5e-4 --restart sig-copy/checkpoint.bin
head -c 1000 sig-copy/checkpoint.bin > truncated.bin
refused "^error: truncated.bin: truncated: 1000 bytes" "$scene" --restart truncated.bin
cp sig-copy/checkpoint.bin corrupted.bin
printf '\x55' | dd of=corrupted.bin bs=1 seek=200 conv=notrunc status=none
refused "^error: corrupted.bin: corrupted: its bytes give the CRC-32" "$scene" --restart corrupted.bin
refused "^error: sig-copy/summary.json: not a coulomb checkpoint" "$scene" --restart sig-copy/summary.json
refused "^error: missing.bin: cannot read" "$scene" --restart missing.bin
refused "nothing to run" "$scene" --restart sig-copy/checkpoint.bin --end 0.001
for bad in 0 -1 nan inf; do
  refused "^error: --checkpoint-every: " "$scene" --checkpoint-every "$bad"
done

echo "cli restart: all checks passed"
