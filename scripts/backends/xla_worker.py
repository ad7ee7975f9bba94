#!/usr/bin/env python3
"""Retort backend worker for XLA through JAX's jit on CPU; docs/backend-protocol.md.

The ONNX graph becomes a generated Python function over jax.numpy/lax
(retort_backends/jax_ops.py), registered with linecache; constants are globals of it, so jit
sees them as constants. Option of `hello`: mode = jit (jax.jit(f).lower(...).compile(): XLA
compiles ahead of the run) | nojit (the function run op by op: the baseline); device = cpu |
gpu (JAX's CUDA platform, which needs a CUDA jaxlib; without it, or without a GPU, hello answers
`unsupported`); disabled_passes = HLO pass names joined by ',' (`findings blame`), turned off
with XLA_FLAGS' --xla_disable_hlo_passes, which XLA reads once, when JAX first starts a backend:
hello, before any compilation.
A run's program mutations (TorchProbe's, and TENSURE's sparse storage) rewrite the function
first (retort_backends/probe.py).
"""

import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=1")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import sparse as jsparse  # noqa: E402

from retort_backends import probe  # noqa: E402

from retort_backends.jax_ops import CONVERTERS  # noqa: E402
from retort_backends.program import (Builder, Program, forward_source,  # noqa: E402
                                     standalone_module)
from retort_backends.errors import Unsupported  # noqa: E402
from retort_backends.worker import PASS_NAMES, Compiled, Family, serve  # noqa: E402
from jax._src import xla_bridge  # noqa: E402

jax.config.update("jax_enable_x64", True)

# jax.experimental.sparse says what it lacks with NotImplementedError, in varied words. jnp.power
# refuses a negative integer exponent it sees as a constant scalar, as numpy (ONNX's reference)
# does; compare counts such a power as undefined anyway.
LIMITS = ("not implemented", "Unimplemented", "is not supported", "UNIMPLEMENTED",
          "Integers cannot be raised to negative powers", NotImplementedError)


# What the program names besides its own identifiers, as a standalone module imports it.
IMPORTS = ["import jax", "import jax.numpy as jnp", "from jax import lax",
           "from jax.experimental import sparse as jsparse", "",
           'jax.config.update("jax_enable_x64", True)']


def jax_builder(model, outputs, mutations, args):
    """The builder of forward() computing `outputs` of the model, its parameters and results,
    and the namespace it runs in (constants are globals); with the program mutations
    (retort_backends/probe.py) applied, profiled on `args` (numpy, model input order)."""
    builder = Builder(model, CONVERTERS, "jax")
    params = builder.bind_inputs()
    results = builder.convert_for(outputs)
    namespace = {"jax": jax, "jnp": jnp, "lax": lax, "jsparse": jsparse}
    namespace.update({k: jnp.asarray(v) for k, v in builder.consts.items()})
    if mutations:
        mutate(builder, params, results, mutations, args, namespace)
    return builder, params, results, namespace


def jax_program(model, outputs, mutations=(), args=None):
    """The program computing `outputs` of the model as forward() (jax_builder)."""
    builder, params, results, namespace = jax_builder(model, outputs, mutations, args)
    source, first_line = forward_source(builder, params, results)
    return Program(source, first_line, builder.line_nodes, namespace, prefix="retort_jax")


def mutate(builder, params, results, mutations, args, namespace):
    """Rewrites the builder's lines with the mutations; what one profiles (a TCB condition, a
    BCOO's stored entries) comes from running the program so far on `args`, op by op."""

    def prefix(stmts):
        return probe.prefix_function(stmts, params, dict(namespace))

    def profile(stmts):
        with jax.disable_jit():
            values = {**builder.consts, **prefix(stmts)(*args)}
        return {name: np.asarray(v) for name, v in values.items()
                if isinstance(v, (jax.Array, np.ndarray))}

    def trace(stmts):
        try:
            jax.make_jaxpr(prefix(stmts))(*args)
        except ValueError as e:
            # jax.experimental.sparse refuses some storages of a contraction with ValueError
            # ("cannot have unused batch dims on rhs with unused sparse dims on lhs"): a limit
            # of its rules, as its NotImplementedErrors are.
            if raised_in_sparse(e):
                raise NotImplementedError(str(e)) from e
            raise

    if args is None:
        raise ValueError("program mutations need the run's inputs")
    probe.rewrite(builder, results, mutations, probe.Jax, profile, trace)


def raised_in_sparse(exc):
    tb = exc.__traceback__
    while tb is not None:
        if "jax/experimental/sparse" in tb.tb_frame.f_code.co_filename.replace("\\", "/"):
            return True
        tb = tb.tb_next
    return False


class XLA(Family):
    NAME = "xla"
    OPTIONS = {"mode": (("jit", "nojit"), "jit"), "device": (("cpu", "gpu"), "cpu"),
               "disabled_passes": (PASS_NAMES, "")}
    LIMITS = LIMITS
    PROGRAM = True

    def __init__(self, options):
        super().__init__(options)
        self.jit = options["mode"] == "jit"
        if options["disabled_passes"]:
            if xla_bridge.backends_are_initialized():
                raise Unsupported("XLA has started: its passes can no longer be turned off")
            os.environ["XLA_FLAGS"] += f" --xla_disable_hlo_passes={options['disabled_passes']}"
        if options["device"] == "gpu":
            # Before any array exists, so that constants and compilations land on the GPU.
            jax.config.update("jax_platforms", "cuda")
            try:
                jax.devices("gpu")
            except Exception as e:  # RuntimeError, or an AssertionError with no backend at all
                raise Unsupported(f"jax {jax.__version__} has no GPU here ({type(e).__name__}: "
                                  f"{e})") from e

    def version(self):
        return jax.__version__

    def convert(self, model, outputs, mutations=(), args=None):
        return Compiled(program=jax_program(model, outputs, mutations, args))

    def standalone(self, model, outputs, mutations=(), args=None):
        builder, params, results, _ = jax_builder(model, outputs, mutations, args)
        source, _ = forward_source(builder, params, results)
        return (standalone_module(IMPORTS, source, builder.consts, "jnp.asarray({})"),
                dict(builder.consts))

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
