#!/usr/bin/env python3
"""Retort backend worker for XLA through JAX's jit on CPU; docs/backend-protocol.md.

The ONNX graph becomes a generated Python function over jax.numpy/lax
(retort_backends/jax_ops.py), registered with linecache; constants are globals of it, so jit
sees them as constants. Option of `hello`: mode = jit (jax.jit(f).lower(...).compile(): XLA
compiles ahead of the run) | nojit (the function run op by op: the baseline).
"""

import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=1")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

from retort_backends.jax_ops import CONVERTERS  # noqa: E402
from retort_backends.program import Builder, Program, indented  # noqa: E402
from retort_backends.worker import Compiled, Family, serve  # noqa: E402

jax.config.update("jax_enable_x64", True)

LIMITS = ("not implemented", "Unimplemented", "is not supported", "UNIMPLEMENTED")


def jax_program(model, outputs):
    builder = Builder(model, CONVERTERS, "jax")
    params = builder.bind_inputs()
    results = builder.convert_for(outputs)
    head = [f"def forward({', '.join(params)}):"]
    body = indented(builder.lines + [f"return ({', '.join(results)},)"], depth=1)
    source = "\n".join(head + body + [""])
    namespace = {"jax": jax, "jnp": jnp, "lax": lax}
    namespace.update({k: jnp.asarray(v) for k, v in builder.consts.items()})
    return Program(source, len(head) + 1, builder.line_nodes, namespace, prefix="retort_jax")


class XLA(Family):
    NAME = "xla"
    OPTIONS = {"mode": (("jit", "nojit"), "jit")}
    LIMITS = LIMITS

    def __init__(self, options):
        super().__init__(options)
        self.jit = options["mode"] == "jit"

    def version(self):
        return jax.__version__

    def convert(self, model, outputs):
        return Compiled(program=jax_program(model, outputs))

    def build(self, entry, args):
        fn = entry.program.namespace["forward"]
        if self.jit:
            fn = jax.jit(fn).lower(*args).compile()

        def run(arrays):
            if self.jit:
                results = fn(*arrays)
            else:
                with jax.disable_jit():
                    results = fn(*arrays)
            return [np.asarray(r) for r in results]

        entry.fn = run


if __name__ == "__main__":
    sys.exit(serve(XLA))
