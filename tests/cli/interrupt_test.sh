#!/usr/bin/env bash
# `coulomb run` stopped, killed, failing or rerun (docs/reliability.md, "Interrupted runs, write
# errors and reruns"): SIGINT and SIGTERM write every file whole and exit 130 and 143; kill -9
# leaves the working folder OUT.partial-PID with whole rows and OUT as it was; a write error is
# one line naming the file and the reason, exit 1, nothing left; a failing rerun leaves the
# earlier run untouched, a good one replaces it; a folder coulomb did not write is refused.
# No timing assertion: the test waits for files to grow, however long the machine takes.
set -euo pipefail
coulomb="$1"
work="$2/cli-interrupt-test"
source_dir="$3"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# Background jobs get their own process group with default signal dispositions (a script's
# background job otherwise ignores SIGINT, which coulomb then leaves ignored).
set -m

long_scene="$source_dir/scenes/box-stack-10.yaml"

# Every CSV of a folder: ends with a newline, every row has the header's number of columns (the
# scenes here have plain body names: no quoted commas).
check_csvs() {
  local dir="$1"
  for f in trajectory.csv contacts.csv energy.csv solver.csv; do
    [[ -s $dir/$f ]] || fail "$dir/$f missing or empty"
    [[ $(tail -c 1 "$dir/$f" | od -An -c | tr -d ' ') == '\n' ]] || fail "$dir/$f ends inside a row"
    awk -F, -v f="$dir/$f" 'NR == 1 { n = NF } NF != n { print f ": row " NR " has " NF " columns, not " n; bad = 1 } END { exit bad }' \
      "$dir/$f" >&2 || fail "$dir/$f has torn rows"
  done
}

# Waits until FILE has more than N lines (the run has written that far).
wait_lines() {
  local file="$1" n="$2" pid="$3"
  until [[ -f $file && $(wc -l < "$file") -gt $n ]]; do
    kill -0 "$pid" 2> /dev/null || fail "the run ended before $file had $n lines"
    sleep 0.1
  done
}

# No OUT.partial-* or OUT.old-* beside OUT.
no_stray() {
  local out="$1"
  local stray
  stray=$(find . -maxdepth 1 \( -name "$out.partial-*" -o -name "$out.old-*" \) | head -1)
  [[ -z $stray ]] || fail "left beside $out: $stray"
}

# SIGINT and SIGTERM: the step in progress ends, every file is whole, summary.json says so.
for sig in INT TERM; do
  out="sig$sig"
  "$coulomb" run "$long_scene" --quiet --out "$out" --end 1e4 2> "$out.err" &
  pid=$!
  wait_lines "$out.partial-$pid/trajectory.csv" 1 "$pid"
  kill -s "$sig" "$pid"
  set +e
  wait "$pid"
  status=$?
  set -e
  expected=$([[ $sig == INT ]] && echo 130 || echo 143)
  [[ $status == "$expected" ]] || fail "SIG$sig: exit status $status, expected $expected ($(cat "$out.err"))"
  [[ $(wc -l < "$out.err") == 1 ]] || fail "SIG$sig: stderr is not one line: $(cat "$out.err")"
  grep -Eq "^coulomb: interrupted by SIG$sig at t = [0-9.e+-]+ s \(step [0-9]+ of 10000000\); $out/ holds the run up to there$" "$out.err" \
    || fail "SIG$sig: unexpected message: $(cat "$out.err")"
  check_csvs "$out"
  grep -q '"status": "interrupted"' "$out/summary.json" || fail "SIG$sig: summary.json not marked interrupted"
  grep -q "\"interrupted\": \"SIG$sig\"" "$out/summary.json" || fail "SIG$sig: summary.json does not name the signal"
  grep -q '"wall_time_s"' "$out/summary.json" || fail "SIG$sig: summary.json lost its timing"
  [[ -s $out/replay.html ]] || fail "SIG$sig: no replay.html"
  no_stray "$out"
done

# kill -9 during a rerun: the earlier complete run stays as it was; the working folder holds
# whole rows (the run flushes whole rows every 2 s of wall time).
"$coulomb" run --quiet --out killed --end 0.02
cp killed/summary.json killed-summary.json
"$coulomb" run "$long_scene" --quiet --out killed --end 1e4 &
pid=$!
partial="killed.partial-$pid"
wait_lines "$partial/trajectory.csv" 1 "$pid"
first=$(wc -l < "$partial/trajectory.csv")
wait_lines "$partial/trajectory.csv" "$first" "$pid"  # a flush after the first
kill -s KILL "$pid"
set +e
wait "$pid"
status=$?
set -e
[[ $status == 137 ]] || fail "kill -9: exit status $status"
cmp -s killed/summary.json killed-summary.json || fail "kill -9: the earlier run was changed"
check_csvs "$partial"
[[ ! -e $partial/summary.json ]] || fail "kill -9: a summary.json in the working folder"
rm -rf "$partial"

# Reruns into a used folder.
"$coulomb" run --quiet --out rerun --end 0.02
cp -r rerun rerun-before
# ... a bad option: exit 2, nothing touched;
set +e
"$coulomb" run --quiet --out rerun --end 0.05 --dt 10 2> /dev/null
status=$?
set -e
[[ $status == 2 ]] || fail "bad rerun: exit status $status"
diff -r rerun rerun-before > /dev/null || fail "bad rerun: the earlier run was changed"
no_stray rerun
# ... a write error (files limited to 16 KiB: write(2) fails with EFBIG, as on a full disk with
# ENOSPC): one line naming the file and the reason, exit 1, the earlier run untouched, nothing
# left beside it;
set +e
(
  trap '' XFSZ
  ulimit -f 16
  exec "$coulomb" run --quiet --out rerun --end 2
) 2> write-error.err
status=$?
set -e
[[ $status == 1 ]] || fail "write error: exit status $status ($(cat write-error.err))"
[[ $(wc -l < write-error.err) == 1 ]] || fail "write error: not one line: $(cat write-error.err)"
grep -Eq '^error: rerun/(trajectory|contacts|energy|solver)\.csv: cannot write: File too large$' write-error.err \
  || fail "write error: unexpected message: $(cat write-error.err)"
diff -r rerun rerun-before > /dev/null || fail "write error: the earlier run was changed"
no_stray rerun
# ... a good rerun replaces the earlier run whole.
"$coulomb" run --quiet --out rerun --end 0.05
grep -q '"end_time": 0.05' rerun/summary.json || fail "good rerun: summary.json not replaced"
check_csvs rerun
no_stray rerun

# A folder coulomb did not write is refused (exit 2, one line), before any step, and kept.
mkdir mine && echo "my notes" > mine/notes.txt
set +e
"$coulomb" run --quiet --out mine --end 0.02 2> mine.err
status=$?
set -e
[[ $status == 2 ]] || fail "foreign folder: exit status $status"
[[ $(cat mine.err) == "error: mine: holds 'notes.txt', which coulomb did not write; not replacing it (choose another output folder, or remove it)" ]] \
  || fail "foreign folder: unexpected message: $(cat mine.err)"
[[ $(ls mine) == notes.txt && $(cat mine/notes.txt) == "my notes" ]] || fail "foreign folder: changed"
no_stray mine

# The default folder coulomb-out/NAME: a rerun replaces it, nothing beside it; `--out .` in an
# empty folder fills that folder.
mkdir default && cd default
"$coulomb" run --quiet --end 0.02
"$coulomb" run --quiet --end 0.03
[[ $(ls coulomb-out) == tippe-top ]] || fail "default folder: coulomb-out holds $(ls coulomb-out)"
grep -q '"end_time": 0.03' coulomb-out/tippe-top/summary.json || fail "default folder not replaced"
mkdir here && cd here
"$coulomb" run --quiet --out . --end 0.02
[[ -s summary.json && -s trajectory.csv ]] || fail "--out . did not write into the folder"
[[ $(ls .. | tr '\n' ' ') == "coulomb-out here " ]] || fail "--out . left $(ls ..)"

echo "cli interrupt: all checks passed"
