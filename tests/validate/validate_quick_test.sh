#!/usr/bin/env bash
# `coulomb validate --quick` end to end: exit status 0, report.md and report.json written, every
# case of the registry present and passing; a bad case name exits with status 2.
set -euo pipefail
coulomb="$1"
work="$2/validate-test"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$coulomb" validate --quick --out report || fail "coulomb validate --quick exited with status $?"
[[ -s report/report.md && -s report/report.json ]] || fail "the report files are missing"
ls report | grep -q partial && fail "a .partial file was left"

# Every listed case is in the report and passes.
cases=$("$coulomb" validate --list | awk '{print $1}')
[[ -n $cases ]] || fail "--list printed no case"
for c in $cases; do
  grep -Eq "^\| $c \| .* \| PASS \|" report/report.md || fail "case $c missing or not passing in report.md"
done
/usr/bin/python3 - report/report.json $cases <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
names = [c["name"] for c in report["cases"]]
assert names == sys.argv[2:], (names, sys.argv[2:])
assert report["passed"] and report["quick"], "report.json says a case failed"
for c in report["cases"]:
    assert c["checks"] and all(k["passed"] and k["error"] <= k["tolerance"] for k in c["checks"]), c["name"]
PY

# One case into the default folder; an unknown case is a usage error (status 2, one line).
"$coulomb" validate --quick --quiet --case billiard | grep -q "1 of 1 cases pass" || fail "--case billiard"
[[ -s coulomb-out/validation/report.json ]] || fail "default folder coulomb-out/validation not written"
set +e
msg=$("$coulomb" validate --case nope 2>&1 >/dev/null); status=$?
set -e
[[ $status == 2 ]] || fail "unknown case: exit status $status, expected 2"
[[ $msg == *"unknown validation case 'nope'"* ]] || fail "unknown case: message '$msg'"
echo "validate: all checks passed"
