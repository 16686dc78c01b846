#!/usr/bin/python3
"""Rewrite the key tables of docs/laws.md from the law registry.

Usage: scripts/update-law-tables.py build/src/cli/coulomb [docs/laws.md]

Each table in docs/laws.md that follows a marker line `<!-- SECTION.NAME -->` is replaced by the
table `coulomb law --markdown` prints for that law (src/laws/registry.cpp). The registry test
(tests/laws/registry_test.cpp) fails when the page and the registry disagree, and names this script.
A marker the registry does not know, or a law of the registry without a marker, is an error.
"""
import subprocess
import sys


def generated_tables(coulomb):
    text = subprocess.run([coulomb, "law", "--markdown"], check=True, capture_output=True,
                          text=True).stdout
    tables, marker = {}, None
    for line in text.splitlines():
        if line.startswith("<!-- "):
            marker = line
            tables[marker] = []
        elif line.startswith("|") and marker:
            tables[marker].append(line)
    return tables


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    page = sys.argv[2] if len(sys.argv) == 3 else "docs/laws.md"
    tables = generated_tables(sys.argv[1])
    lines = open(page, encoding="utf-8").read().splitlines()
    out, seen, i = [], set(), 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if line.startswith("<!-- ") and line.endswith(" -->") and "." in line:
            if line not in tables:
                sys.exit(f"{page}:{i}: marker {line} names no law of the registry")
            seen.add(line)
            while i < len(lines) and lines[i].startswith("|"):
                i += 1
            out.extend(tables[line])
    missing = sorted(set(tables) - seen)
    if missing:
        sys.exit(f"{page}: no marker for {', '.join(missing)}")
    open(page, "w", encoding="utf-8").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
