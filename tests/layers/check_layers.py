#!/usr/bin/env python3
"""Checks that every folder of code includes only along the layer order (docs/architecture.md,
"Layers").

The top folders are layers, lowest first: core/, views/, app/. A file includes headers of its
own top folder and of the ones before it. Inside core/, each folder is a layer again, with the
same rule. Libraries have homes too: curses and Graphviz only in views/ and app/, readline only
in app/, libonnx and protobuf only in core/io/onnx_*.cpp, SQLite only in core/findings/, mimalloc
only in app/allocator.cpp (the programs' allocator settings). Prints each include against the
order with its file and line, and exits 1 when there is one.

    check_layers.py REPO
"""
import pathlib
import re
import sys

# The orders, lowest first. Keep them in step with docs/architecture.md.
TOP = ["core", "views", "app"]
LAYERS = ["base", "tensor", "ops", "graph", "exec", "io", "egraph", "rules", "gen",
          "backend", "compare", "findings", "campaign", "session"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"(([a-z_]+)/([a-z_]+)?/?[^"]*)"')
SYSTEM = re.compile(r'^\s*#\s*include\s+<([^>]+)>')


def onnx_file(rel):
    return rel.parts[:2] == ("core", "io") and rel.name.startswith("onnx_")


# A library's header prefixes and where it may be included (rel is the path from the root).
LIBRARIES = [
    ("curses", ("curses.h", "ncurses.h", "ncursesw/"), lambda rel: rel.parts[0] in ("views", "app")),
    ("Graphviz", ("graphviz/", "gvc.h", "cgraph.h"), lambda rel: rel.parts[0] in ("views", "app")),
    ("readline", ("readline/",), lambda rel: rel.parts[0] == "app"),
    ("libonnx", ("onnx/",), onnx_file),
    ("protobuf", ("google/protobuf/",), onnx_file),
    ("SQLite", ("sqlite3.h",), lambda rel: rel.parts[:2] == ("core", "findings")),
    ("mimalloc", ("mimalloc",), lambda rel: rel.as_posix() == "app/allocator.cpp"),
]


def project_include(rel, header, top, inner):
    """The reason an include of a project header breaks the order, or None."""
    own = rel.parts[0]
    if top not in TOP:
        return None  # not a project folder (a generated file, a test support header)
    if TOP.index(top) > TOP.index(own):
        return f"{own}/ includes {header}, a later layer"
    if own != "core" or top != "core":
        return None
    layer = rel.parts[1]
    if inner not in LAYERS:
        return f"{header} is in no layer"
    if LAYERS.index(inner) > LAYERS.index(layer):
        return f"core/{layer} includes {header}, a later layer"
    return None


def library_include(rel, header):
    for name, prefixes, allowed in LIBRARIES:
        if header.startswith(prefixes) and not allowed(rel):
            return f"{rel.parts[0]}/ includes <{header}> ({name} has no place there)"
    return None


def file_violations(repo, path):
    rel = path.relative_to(repo)
    if rel.parts[0] == "core" and rel.parts[1] not in LAYERS:
        return [f"{rel}: folder core/{rel.parts[1]} has no place in the layer order"]
    found = []
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        reason = None
        if m := INCLUDE.match(line):
            reason = project_include(rel, m.group(1), m.group(2), m.group(3))
        elif m := SYSTEM.match(line):
            reason = library_include(rel, m.group(1))
        if reason:
            found.append(f"{rel}:{number}: {reason}")
    return found


def violations(repo):
    repo = pathlib.Path(repo)
    found = []
    for top in TOP:
        for path in sorted((repo / top).rglob("*")):
            if path.suffix in (".h", ".cpp"):
                found += file_violations(repo, path)
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    found = violations(sys.argv[1])
    for v in found:
        print(v)
    order = f"{' -> '.join(TOP)}; core/: {' -> '.join(LAYERS)}"
    if found:
        print(f"{len(found)} include(s) against the layer order: {order}")
        sys.exit(1)
    print(f"every folder follows its layer order: {order}")


if __name__ == "__main__":
    main()
