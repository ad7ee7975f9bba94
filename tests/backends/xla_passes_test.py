#!/usr/bin/env python3
"""The XLA worker's hello option disabled_passes reaches XLA (issue 41, `findings blame`).

Each check runs in a fresh interpreter of the xla environment (XLA reads its flags once): the
worker's family is made with the options hello would give, then JAX compiles exp(x) * 2 + 1.
XLA's `fusion` pass makes one loop fusion of it; with `fusion` turned off each op is wrapped
alone (six fusions). With every pass the family declares turned off, compilations still run
and agree with JAX op by op. Skipped (77) without the environment.
"""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_family_test import SKIP, default_version, envs_dir  # noqa: E402

BACKENDS = os.path.join(os.path.dirname(HERE), "..", "scripts", "backends")
FAMILY_CPP = os.path.join(os.path.dirname(HERE), "..", "core", "backend", "families", "xla.cpp")

PROGRAM = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import xla_worker, jax, jax.numpy as jnp
from jax import lax
family = xla_worker.XLA({"mode": "jit", "device": "cpu", "disabled_passes": sys.argv[2]})
x = jnp.asarray(np.linspace(0.5, 2.0, 12).reshape(3, 4))
text = jax.jit(lambda x: jnp.exp(x) * 2.0 + 1.0).lower(x).compile().as_text()
checks = {
    "matmul": lambda x: x.T @ x[:, 0],
    "reduce": lambda x: jnp.sum(jnp.exp(x), axis=0) + jnp.max(x),
    "gather": lambda x: x[jnp.asarray([2, 0])] * 3.0,
    "sort": lambda x: jnp.sort(-x, axis=1),
    "scatter": lambda x: x.at[jnp.asarray([1, 1])].add(1.0),
    "pool": lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (1, 1), "SAME"),
    "cumsum": lambda x: jnp.cumsum(x, axis=1),
}
wrong = []
for name, f in checks.items():
    got = np.asarray(jax.jit(f).lower(x).compile()(x))
    with jax.disable_jit():
        want = np.asarray(f(x))
    if not np.allclose(got, want, rtol=1e-6):
        wrong.append(name)
print(json.dumps({"fusions": text.count("fusion("), "wrong": wrong}))
"""


def declared_passes():
    """The names core/backend/families/xla.cpp declares, as `findings blame` turns them off."""
    with open(FAMILY_CPP) as f:
        text = f.read()
    block = text[text.index(".names = {"):]
    return re.findall(r'"([A-Za-z0-9_.-]+)"', block[:block.index("}")])


def compile_with(python, passes):
    done = subprocess.run([python, "-c", PROGRAM, BACKENDS, passes], capture_output=True,
                          text=True, timeout=600,
                          env={**os.environ, "JAX_PLATFORMS": "cpu", "TF_CPP_MIN_LOG_LEVEL": "3"})
    if done.returncode != 0:
        raise AssertionError(f"passes {passes!r}: exit {done.returncode}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    python = os.path.join(envs_dir(), f"xla@{default_version('xla')}", "bin", "python")
    if not os.path.exists(python):
        print(f"skipped: no xla environment ({python})")
        return SKIP
    on, off = compile_with(python, ""), compile_with(python, "fusion")
    assert on["fusions"] == 1, on
    assert off["fusions"] > 1, off
    names = declared_passes()
    assert "fusion" in names and "algsimp" in names, names
    everything = compile_with(python, ",".join(names))
    assert everything["wrong"] == [], everything
    print(f"xla passes: ok (fusions {on['fusions']} -> {off['fusions']}; "
          f"{len(names)} passes off compile and agree)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
