#!/usr/bin/env bash
# The coulomb program end to end: help, version, the default scene, bad scenes (exit 2, one line
# FILE:LINE:COL, nothing written), overrides, determinism of trajectory.csv, the warnings of bodies
# piled at one spot.
set -euo pipefail
coulomb="$1"
work="$2/cli-test"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$coulomb" --help | grep -q "run" || fail "--help does not list run"
"$coulomb" --version | grep -Eq '^coulomb [0-9]+\.[0-9]+\.[0-9]+' || fail "--version"

# The built-in default scene, quiet, into a chosen folder.
"$coulomb" run --quiet --out default --end 0.05
for f in trajectory.csv contacts.csv energy.csv solver.csv summary.json; do
  [[ -s default/$f ]] || fail "default scene did not write $f"
done
ls default | grep -q partial && fail "a .partial file was left"

# Summary on stdout names the output folder.
"$coulomb" run --out second --end 0.05 | grep -q "results: second/" || fail "summary does not name the output folder"
cmp -s default/trajectory.csv second/trajectory.csv || fail "two runs of one scene differ"

# --dt and --end override the scene (solver.csv with a row per step counts the steps).
"$coulomb" run --quiet --out dt --end 0.01 --dt 1e-3 --solver-every-step
rows=$(($(wc -l < dt/solver.csv) - 1))
[[ $rows == 10 ]] || fail "--dt/--end: expected 10 steps, got $rows"
# By default solver.csv has one row per output time after the start (those of trajectory.csv but
# the first), whose `steps` column adds up to the steps.
"$coulomb" run --quiet --out agg --end 0.05 --dt 1e-3
rows=$(($(wc -l < agg/solver.csv) - 1))
times=$(awk -F, 'NR > 1 && (n == 0 || $1 != last) { n++; last = $1 } END { print n - 1 }' agg/trajectory.csv)
[[ $rows == "$times" && $rows -gt 1 ]] || fail "solver.csv: $rows rows for $times output times"
steps=$(awk -F, 'NR > 1 { s += $2 } END { print s }' agg/solver.csv)
[[ $steps == 50 ]] || fail "solver.csv: the steps column adds up to $steps, not 50"
# ... under the scene loader's rule: a bad range is one line, exit 2, and nothing is written.
for bad in "--dt 10 --end 1" "--dt inf" "--end 1e300" "--end nan" "--dt 1e-12"; do
  set +e
  # shellcheck disable=SC2086
  "$coulomb" run --quiet --out badtime $bad > /dev/null 2> badtime.err; status=$?
  set -e
  [[ $status == 2 && $(wc -l < badtime.err) == 1 ]] || fail "$bad: status $status, $(cat badtime.err)"
  [[ ! -e badtime ]] || fail "$bad: wrote badtime/"
done

# A bad scene: exit status 2, one line FILE:LINE:COL: error: ..., no output folder created.
printf 'name: bad\ntime: {end: 1.0, step: 1.0e-3}\nbodies:\n  - name: ball\n    mass: -1.0\n    shapes: [{type: sphere, radius: 0.1}]\n' > bad.yaml
set +e
msg=$("$coulomb" run bad.yaml --out bad-out 2>&1 >/dev/null); status=$?
set -e
[[ $status == 2 ]] || fail "bad scene: exit status $status, expected 2"
[[ $(printf '%s\n' "$msg" | wc -l) == 1 ]] || fail "bad scene: message is not one line: $msg"
[[ $msg =~ ^bad\.yaml:5:[0-9]+:\ error:\ .*mass ]] || fail "bad scene: unexpected message: $msg"
[[ ! -e bad-out ]] || fail "bad scene: the output folder was created"

# Exit status 0 when every step converged, with nothing on stderr.
set +e
"$coulomb" run --quiet --out converged --end 0.01 2> converged.err; status=$?
set -e
[[ $status == 0 ]] || fail "converged run: exit status $status, expected 0"
[[ ! -s converged.err ]] || fail "converged run: stderr not empty: $(cat converged.err)"

# A solve that cannot converge (one NSGS sweep per step on a stack of five boxes): the run
# finishes and writes its files, prints one warning line on stderr and exits with status 3 (the
# position stage closes what the impulses of one sweep leave: no line of its own).
sed -e 's/^time: .*/time: {end: 0.02, step: 1.0e-3}\nsolver: {name: nsgs, max_iterations: 1, tolerance: 1.0e-12}/' \
  "$3/scenes/box-stack.yaml" > capped.yaml
grep -q "max_iterations: 1," capped.yaml || fail "capped scene not written"
set +e
"$coulomb" run capped.yaml --quiet --out capped 2> capped.err; status=$?
set -e
[[ $status == 3 ]] || fail "non-converged run: exit status $status, expected 3 ($(cat capped.err))"
[[ $(wc -l < capped.err) == 1 ]] || fail "non-converged run: not one line: $(cat capped.err)"
grep -Eq '^coulomb: warning: 20 of 20 steps did not converge \(worst error [0-9.e+-]+ at t = [0-9.e+-]+ s\); see capped/solver\.csv$' capped.err \
  || fail "non-converged run: unexpected warning: $(cat capped.err)"
[[ -s capped/summary.json ]] || fail "non-converged run: no summary.json"
grep -q ',max_iterations,nsgs,' capped/solver.csv || fail "solver.csv lacks the method column: $(head -3 capped/solver.csv)"

# A missing file: exit status 2.
set +e
"$coulomb" run missing.yaml --out missing-out 2>/dev/null; status=$?
set -e
[[ $status == 2 ]] || fail "missing scene: exit status $status"
[[ ! -e missing-out ]] || fail "missing scene: output folder created"
# --dump-problems: every step's problem as an FCLIB file that `coulomb fclib` solves again.
"$coulomb" run "$3/scenes/box-stack.yaml" --quiet --out stack --end 0.005 --dump-problems dump
[[ $(ls dump | wc -l) == 5 ]] || fail "--dump-problems: expected 5 files, got $(ls dump | wc -l)"
"$coulomb" fclib dump/step-00000005.hdf5 | grep -q ',converged,' || fail "coulomb fclib on a dumped step"

# Bodies piled at one spot (20 spheres at one point: 190 overlapping pairs): two warning lines, one
# counting the pairs, one saying what the pile costs, not one line per pair (the position stage
# separates them within its sweeps: no line of its own).
{
  printf 'name: pile\ntime: {end: 0.001, step: 1.0e-3}\nbodies:\n'
  for i in $(seq 1 20); do
    printf '  - {name: s%d, mass: 1.0, shapes: [{type: sphere, radius: 0.1}], position: [0, 0, 1]}\n' "$i"
  done
} > pile.yaml
"$coulomb" run pile.yaml --quiet --out pile 2> pile.err
[[ $(wc -l < pile.err) == 2 ]] || fail "pile: $(wc -l < pile.err) warning lines, expected 2: $(head -3 pile.err)"
grep -q "^coulomb: warning: 190 pairs of bodies overlap at the start, the deepest 's1' and 's2' by 0.2 m" pile.err ||
  fail "pile: unexpected first line: $(head -1 pile.err)"
grep -q "^coulomb: warning: 20 bodies start piled at one spot ('s1', 's2', 's3', ...): 190 pairs" pile.err ||
  fail "pile: unexpected second line: $(tail -1 pile.err)"

# The compliant formulation: the same files, the integrator's counts in solver.csv and
# summary.json, its line in the summary, exit status 0.
"$coulomb" run "$3/scenes/validation/hertz-impact.yaml" --out compliant | grep -q "^integrator: erk," \
  || fail "compliant run: no integrator line"
for f in trajectory.csv contacts.csv energy.csv solver.csv summary.json; do
  [[ -s compliant/$f ]] || fail "compliant run did not write $f"
done
head -1 compliant/solver.csv | grep -q '^time,steps,rejected_steps,rhs_evaluations,' \
  || fail "compliant solver.csv: $(head -1 compliant/solver.csv)"
grep -q '"integrator"' compliant/summary.json || fail "compliant summary.json lacks integrator"
# Checkpoints are the nonsmooth formulation's: a compliant run refuses --checkpoint-every and
# --restart with one line naming the option, exit status 2, before any file (the checkpoint given
# to --restart is not even read: it does not exist here).
for option in "--checkpoint-every 1e-5" "--restart compliant-cp/checkpoint.bin"; do
  set +e
  # shellcheck disable=SC2086 # the option and its value, two words
  "$coulomb" run "$3/scenes/validation/hertz-impact.yaml" --out compliant-cp $option \
    2> compliant-cp.err; status=$?
  set -e
  [[ $status == 2 ]] || fail "compliant $option: exit status $status"
  [[ $(wc -l < compliant-cp.err) == 1 ]] || fail "compliant $option: $(cat compliant-cp.err)"
  grep -q "^error: ${option%% *}: checkpoints and restarts are for the nonsmooth formulation only; " \
    compliant-cp.err || fail "compliant $option: $(cat compliant-cp.err)"
  [[ ! -e compliant-cp ]] || fail "compliant $option: output folder created"
  ! compgen -G 'compliant-cp.partial-*' > /dev/null || fail "compliant $option: working folder left"
done

echo "cli: all checks passed"
