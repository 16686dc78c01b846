#!/usr/bin/env python3
"""Checks that every module includes only itself and the modules listed above it in the module
table of docs/architecture.md ("Modules (each uses only the ones above it)").

Usage: scripts/check-layers.py [REPO]   (exit 0: no include runs up the table; 1: each one that
does is printed as FILE:LINE: MODULE includes HIGHER (row A < row B)).
"""
import pathlib
import re
import sys


def module_order(architecture: str) -> list[str]:
    text = architecture.split("## Modules", 1)[1]
    rows = re.findall(r"^\| (\w+) \| `(?:src|include/coulomb)/(\w+)` \|", text, re.M)
    if not rows:
        raise SystemExit("docs/architecture.md: no module table found under '## Modules'")
    return [name for name, _ in rows]


def main() -> int:
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    order = module_order((repo / "docs/architecture.md").read_text(encoding="utf-8"))
    rank = {m: i for i, m in enumerate(order)}
    include = re.compile(r'^\s*#\s*include\s*(?:<coulomb/(\w+)/|"(\w+)/)')
    problems = []
    for module in order:
        for root in (repo / "src" / module, repo / "include" / "coulomb" / module):
            if not root.is_dir():
                continue
            for path in sorted(root.rglob("*")):
                if path.suffix not in (".hpp", ".cpp", ".in") or not path.is_file():
                    continue
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    m = include.match(line)
                    if not m:
                        continue
                    used = m.group(1) or m.group(2)
                    if used in rank and rank[used] > rank[module]:
                        problems.append(f"{path.relative_to(repo)}:{number}: {module} includes "
                                        f"{used} (row {rank[module] + 1} < row {rank[used] + 1})")
    for p in problems:
        print(p)
    if not problems:
        print(f"layers: {len(order)} modules ({', '.join(order)}), no include runs up the table")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
