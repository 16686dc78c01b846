#!/usr/bin/env python3
"""Checks the stage table of docs/architecture.md ("The step: ... named, timed stages") against
the stage declarations of src/world/stages/stages.hpp: every stage's "reads" column must list the
types of its const& parameters and its "writes" column those of its non-const & parameters, in
the declaration's order; and the table's stages must be those of the Stage enum of
include/coulomb/world/workspace.hpp, in its order (the order the profile reports them).

Usage: scripts/check-stage-table.py [REPO]   (exit 0: the table matches; 1: each difference is
printed as STAGE: COLUMN: table [...] but stages.hpp [...]).
"""
import pathlib
import re
import sys


def declared(header: str) -> dict[str, tuple[list[str], list[str]]]:
    """Stage name -> (types read, types written) from the declarations `void NAME(...);`."""
    stages = {}
    for name, params in re.findall(r"^void (\w+)\(([^;{]*)\);", header, re.M | re.S):
        reads, writes = [], []
        for param in params.split(","):
            param = " ".join(param.split())
            # A flag passed by value (solve's `provisional`) is how the stage runs, not a buffer
            # it reads or writes.
            if re.fullmatch(r"(bool|int|double) \w+", param):
                continue
            m = re.fullmatch(r"(const )?([\w:<>]+)\s*&\s*\w*(?:\s*/\*.*\*/)?", param)
            if not m:
                raise SystemExit(f"stages.hpp: {name}: cannot read the parameter '{param}'")
            (reads if m.group(1) else writes).append(m.group(2))
        stages[name] = (reads, writes)
    return stages


def documented(architecture: str) -> dict[str, tuple[list[str], list[str]]]:
    """Stage name -> (reads, writes) from the table's rows."""
    text = architecture.split("## The step", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\w+) \| `\w+\.cpp` \| ([^|]*) \| ([^|]*) \|", text, re.M)
    if not rows:
        raise SystemExit("docs/architecture.md: no stage table with reads and writes found")
    cell = lambda c: re.findall(r"`([^`]+)`", c)
    return {name: (cell(reads), cell(writes)) for name, reads, writes in rows}


def enumerated(workspace: str) -> list[str]:
    """The names of `enum class Stage`, in order, without `count`."""
    body = re.search(r"enum class Stage\b[^{]*\{([^}]*)\}", workspace)
    if not body:
        raise SystemExit("workspace.hpp: no enum class Stage found")
    names = [n.strip() for n in re.sub(r"//[^\n]*", "", body.group(1)).split(",")]
    return [n for n in names if n and n != "count"]


def main() -> int:
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    code = declared((repo / "src/world/stages/stages.hpp").read_text(encoding="utf-8"))
    doc = documented((repo / "docs/architecture.md").read_text(encoding="utf-8"))
    problems = []
    order = enumerated((repo / "include/coulomb/world/workspace.hpp").read_text(encoding="utf-8"))
    if order != list(doc):
        problems.append(f"the table's stages {list(doc)} are not the Stage enum's {order}")
    for name in sorted(set(code) | set(doc)):
        if name not in doc:
            problems.append(f"{name}: declared in stages.hpp but not in the table")
        elif name not in code:
            problems.append(f"{name}: in the table but not declared in stages.hpp")
        else:
            for column, table, header in zip(("reads", "writes"), doc[name], code[name]):
                if table != header:
                    problems.append(f"{name}: {column}: table {table} but stages.hpp {header}")
    for p in problems:
        print(p)
    if not problems:
        print(f"stages: {len(code)} stages, the table's reads and writes match stages.hpp")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
