#!/usr/bin/env bash
# `coulomb fclib` end to end: the CSV header and one row per file, every solver reaching the
# tolerance on small problems (error column recomputed by the command), --max-time stopping the
# solver with status max_time, and a bad file: one line on stderr naming it, exit 2, nothing on stdout.
set -euo pipefail
coulomb="$1"
data="$2"
work="$3/fclib-test"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Header and one row per file, in order; every row converged below the tolerance.
"$coulomb" fclib "$data/Rover4144.hdf5" "$data/OneObject-i100000-316.hdf5" > auto.csv
[[ $(head -1 auto.csv) == "file,contacts,solver,status,iterations,error,time_s" ]] || fail "header: $(head -1 auto.csv)"
[[ $(wc -l < auto.csv) == 3 ]] || fail "expected 2 rows: $(cat auto.csv)"
grep -q "Rover4144.hdf5,4,nsgs,converged," auto.csv || fail "Rover4144 row: $(cat auto.csv)"
# OneObject-316 (one body on 25 contacts) stalls NSGS: auto must hand over to PROX.
grep -q "OneObject-i100000-316.hdf5,25,nsgs+prox,converged," auto.csv || fail "OneObject row: $(cat auto.csv)"
awk -F, 'NR > 1 && !($6 <= 1e-8) { exit 1 }' auto.csv || fail "an error above 1e-8: $(cat auto.csv)"

# Each solver by name, with a tighter tolerance.
for s in nsgs prox; do
  "$coulomb" fclib --solver "$s" --tolerance 1e-10 "$data/Rover4144.hdf5" > "$s.csv"
  grep -q ",$s,converged," "$s.csv" || fail "--solver $s: $(cat "$s.csv")"
  awk -F, 'NR == 2 && !($6 <= 1e-10) { exit 1 }' "$s.csv" || fail "--solver $s error: $(cat "$s.csv")"
done

# --max-time reaches the solver: NSGS needs ~10^4 sweeps on Capsules-i122-1617; with a limit of
# 1 ns (shorter than any sweep) it stops after its first sweep, status max_time. Checked by the
# sweep count, not by the time taken, so that a loaded machine cannot fail it.
"$coulomb" fclib --solver nsgs --max-time 1e-9 "$data/Capsules-i122-1617.hdf5" > timed.csv
grep -q ",nsgs,max_time,1," timed.csv || fail "--max-time: $(cat timed.csv)"

# A bad file among good ones: one line naming it, exit 2, no rows.
echo "not hdf5" > bad.hdf5
set +e
"$coulomb" fclib "$data/Rover4144.hdf5" bad.hdf5 > bad.out 2> bad.err; status=$?
set -e
[[ $status == 2 ]] || fail "bad file: exit status $status, expected 2"
[[ $(wc -l < bad.err) == 1 ]] || fail "bad file: message is not one line: $(cat bad.err)"
grep -q "bad.hdf5" bad.err || fail "bad file: message does not name the file: $(cat bad.err)"
[[ ! -s bad.out ]] || fail "bad file: rows were printed: $(cat bad.out)"
# A missing file too.
set +e
"$coulomb" fclib missing.hdf5 > /dev/null 2> missing.err; status=$?
set -e
[[ $status == 2 ]] || fail "missing file: exit status $status"
grep -q "missing.hdf5" missing.err || fail "missing file: $(cat missing.err)"

# A problem with moments (6 unknowns per contact, /fclib_local6) dumped by a run of the tippe top
# (rolling and pivoting friction): solved by NSGS; --solver prox refuses it in one line, exit 2.
scenes="$(cd "$data/../../../scenes" && pwd)"
"$coulomb" run "$scenes/tippe-top.yaml" --end 0.002 --dump-problems dumped --out runs > /dev/null
wrench=$(ls dumped/*.hdf5 | head -1)
"$coulomb" fclib "$wrench" > wrench.csv
grep -q ",nsgs6,converged," wrench.csv || fail "wrench file: $(cat wrench.csv)"
set +e
"$coulomb" fclib --solver prox "$wrench" > /dev/null 2> prox.err; status=$?
set -e
[[ $status == 2 && $(wc -l < prox.err) == 1 ]] || fail "prox on a wrench file: $status $(cat prox.err)"
echo "fclib command: ok"
