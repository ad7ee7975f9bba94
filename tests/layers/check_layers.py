#!/usr/bin/env python3
"""Checks that core/ includes only along its layer order (docs/architecture.md, "Layers").

Each folder of core/ is a layer; a file may include headers of its own layer and of the layers
before it, never of a later one, and never app/ or views/. Prints each include against the order
with its file and line, and exits 1 when there is one.

    check_layers.py REPO
"""
import pathlib
import re
import sys

# The order, lowest first. Keep it in step with docs/architecture.md.
LAYERS = ["base", "tensor", "ops", "graph", "exec", "io", "egraph", "rules", "gen",
          "backend", "compare", "findings", "campaign", "session"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"((core|app|views)/([a-z_]+)/?[^"]*)"')


def violations(repo):
    core = pathlib.Path(repo) / "core"
    found = []
    for path in sorted(core.rglob("*")):
        if path.suffix not in (".h", ".cpp"):
            continue
        layer = path.relative_to(core).parts[0]
        if layer not in LAYERS:
            found.append(f"{path.relative_to(repo)}: folder core/{layer} has no place in the layer order")
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            header, top, target = m.group(1), m.group(2), m.group(3)
            where = f"{path.relative_to(repo)}:{number}"
            if top != "core":
                found.append(f"{where}: core includes {header}")
            elif target not in LAYERS:
                found.append(f"{where}: {header} is in no layer")
            elif LAYERS.index(target) > LAYERS.index(layer):
                found.append(f"{where}: core/{layer} includes {header}, a later layer")
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    found = violations(sys.argv[1])
    for v in found:
        print(v)
    if found:
        print(f"{len(found)} include(s) against the layer order: " + " -> ".join(LAYERS))
        sys.exit(1)
    print(f"core/ follows its layer order: {' -> '.join(LAYERS)}")


if __name__ == "__main__":
    main()
