#!/usr/bin/env python3
"""What PyPI publishes of a package, for Retort's `backend versions|install|bisect`
(core/backend/family_env.cpp). Standard library only; runs on any Python 3.

  pypi_releases.py list PACKAGE
      one line per release, oldest first: VERSION, DATE and OK parted by tabs, where OK is "yes"
      when the release has a wheel (or pure-Python file) this interpreter can install (its tags
      and its Requires-Python), else the reason.
  pypi_releases.py date PACKAGE VERSION
      the release's last upload time (ISO 8601), or exit 1 and a one-line reason.
"""

import json
import re
import sys
import sysconfig
import urllib.error
import urllib.request

INDEX = "https://pypi.org/pypi"


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise


def version_key(v):
    parts = []
    for p in re.split(r"[.+-]", v):
        parts.append((0, int(p), "") if p.isdigit() else (1, 0, p))
    return parts


def platform_ok(tag):
    machine = sysconfig.get_platform().split("-")[-1]
    return tag == "any" or (("manylinux" in tag or tag.startswith("linux")) and tag.endswith(machine))


def release_tuple(text):
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


def python_ok(spec):
    """Whether this interpreter meets a file's Requires-Python (">=3.12", ">=3.9,!=3.10.*").
    A clause of another form (a pre-release, ===) is not held against it."""
    here = sys.version_info[:3]
    for clause in (spec or "").split(","):
        m = re.fullmatch(r"\s*(~=|==|!=|<=|>=|<|>)\s*(\d+(?:\.\d+)*)(\.\*)?\s*", clause)
        if not m:
            continue
        op, version, star = m.groups()
        want = release_tuple(version)
        if star or op == "~=":  # a prefix: 3.10.* is 3.10; ~=3.9 is >= 3.9 within 3.*
            prefix = want if star else want[:-1]
            same = here[: len(prefix)] == prefix
            ok = {"==": same, "!=": not same, "~=": same and here >= want}.get(op, True)
        else:
            padded = want + (0,) * (3 - len(want))
            ok = {"==": here == padded, "!=": here != padded, "<=": here <= padded,
                  ">=": here >= padded, "<": here < padded, ">": here > padded}[op]
        if not ok:
            return False
    return True


def installable(files):
    """'yes', or why none of these files installs on this interpreter."""
    if not files:
        return "no files"
    if all(f.get("yanked") for f in files):
        return "yanked"
    py = f"cp{sys.version_info.major}{sys.version_info.minor}"
    wheels = [f for f in files if f["filename"].endswith(".whl") and not f.get("yanked")]
    needs = None  # the Requires-Python of a wheel that fits but for this Python's version
    for w in wheels:
        name_py, abi, plat = w["filename"][:-4].split("-")[-3:]
        pys = name_py.split(".")
        if (py in pys or "py3" in pys or "py2.py3" in name_py) and any(platform_ok(t) for t in plat.split(".")):
            if abi in ("none", "abi3") or abi.startswith(py):
                if python_ok(w.get("requires_python")):
                    return "yes"
                needs = w["requires_python"]
    if not wheels:
        return "source only (no wheel)"
    if needs:
        return f"needs Python {needs} (this is {sys.version_info.major}.{sys.version_info.minor})"
    return f"no wheel for {py} on {sysconfig.get_platform()}"


def main(argv):
    if len(argv) >= 2 and argv[0] == "list":
        data = fetch(f"{INDEX}/{argv[1]}/json")
        if data is None:
            print(f"{argv[1]} is not on PyPI", file=sys.stderr)
            return 1
        rows = []
        for version, files in data["releases"].items():
            date = max((f["upload_time_iso_8601"] for f in files), default="-")
            rows.append((version_key(version), version, date[:10], installable(files)))
        for _, version, date, ok in sorted(rows):
            print(version, date, ok, sep="\t")
        return 0
    if len(argv) == 3 and argv[0] == "date":
        data = fetch(f"{INDEX}/{argv[1]}/json")
        files = (data or {}).get("releases", {}).get(argv[2])
        if files is None:
            print(f"{argv[1]} {argv[2]} is not published on PyPI", file=sys.stderr)
            return 1
        ok = installable(files)
        if ok != "yes":
            print(f"{argv[1]} {argv[2]}: {ok}", file=sys.stderr)
            return 1
        print(max(f["upload_time_iso_8601"] for f in files))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
