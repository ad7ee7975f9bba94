#!/usr/bin/env python3
"""Runs family_worker_test.py (or another test of this folder) for one family in that family's
environment, or skips.

  run_family_test.py FAMILY [--script TEST.py] [the test's arguments]
The environment is ENVS/FAMILY@VERSION, where ENVS is $RETORT_ENVS_DIR or
${XDG_CACHE_HOME:-~/.cache}/retort/envs and VERSION is the version that
scripts/backends/locks/FAMILY.txt pins for the family's main package (scripts/setup.sh makes it).
Without that environment the test exits 77, which ctest reports as skipped; so does a device
mode's (`--option device=cuda`, `device=gpu`) on a machine without an NVIDIA GPU.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LOCKS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "backends", "locks")
MAIN_PACKAGE = {"inductor": "torch", "xla": "jax", "tf-xla": "tensorflow",
                "tvm": "apache-tvm", "openvino": "openvino", "iree": "iree-base-compiler",
                "onnx-ref": "onnx"}
SKIP = 77


def envs_dir():
    if os.environ.get("RETORT_ENVS_DIR"):
        return os.environ["RETORT_ENVS_DIR"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "retort", "envs")


def default_version(family):
    with open(os.path.join(LOCKS, f"{family}.txt")) as f:
        match = re.search(rf"^{re.escape(MAIN_PACKAGE[family])}==(\S+)", f.read(), re.M)
    return match.group(1)


def main():
    family, args = sys.argv[1], sys.argv[2:]
    env = os.path.join(envs_dir(), f"{family}@{default_version(family)}")
    python = os.path.join(env, "bin", "python")
    if not os.path.exists(python):
        print(f"skipped: no {family} environment at {env} (scripts/setup.sh makes it)")
        return SKIP
    device = [a for a in args if a in ("device=cuda", "device=gpu")]
    if device and not os.path.exists("/dev/nvidiactl"):
        print(f"skipped: {family} with {device[0]} needs an NVIDIA GPU, and this machine has "
              "none (/dev/nvidiactl is absent)")
        return SKIP
    if args[:1] == ["--script"]:
        test, args = os.path.join(HERE, os.path.basename(args[1])), args[2:]
    else:
        test, args = (os.path.join(HERE, "family_worker_test.py"),
                      ["--family", family.replace("-", "_"), *args])
    os.execv(python, [python, test, *args])


if __name__ == "__main__":
    sys.exit(main())
