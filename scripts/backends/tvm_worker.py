#!/usr/bin/env python3
"""Retort backend worker for Apache TVM on CPU (target llvm); docs/backend-protocol.md.

TVM imports the ONNX model itself: releases with Relax (0.20 on) through
relax.frontend.onnx.from_onnx, built with tvm.compile (relax.build before it) and run on the
Relax VM; older releases through relay.frontend.from_onnx, relay.build and the graph executor.
Option of `hello`: opt_level = 0 | 1 | 2 | 3 (tvm.transform.PassContext; default 3).
"""

import sys

import numpy as np
import tvm

from retort_backends.worker import Compiled, Family, serve

try:
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx as relax_from_onnx
except ImportError:  # releases before Relax
    relax = None

LIMITS = ("not supported", "Unsupported", "is not implemented", "OpNotImplemented",
          "not yet implemented", "only applies to float",
          "must have the same datatype for both operands")


class TVM(Family):
    NAME = "tvm"
    OPTIONS = {"opt_level": (("0", "1", "2", "3"), "3")}
    LIMITS = LIMITS

    def __init__(self, options):
        super().__init__(options)
        self.opt_level = int(options["opt_level"])
        self.target = tvm.target.Target("llvm")
        self.device = tvm.cpu(0)

    def version(self):
        return tvm.__version__

    def convert(self, model, outputs):
        proto = model.restricted_to(outputs)
        shapes = {n: list(shape) for n, _, shape in model.input_types()}
        dtypes = {n: str(dtype) for n, dtype, _ in model.input_types()}
        entry = Compiled()
        if relax is not None:
            entry.mod = relax_from_onnx(proto, shape_dict=shapes, dtype_dict=dtypes,
                                        sanitize_input_names=True)
            entry.params = None
        else:
            from tvm import relay
            entry.mod, entry.params = relay.frontend.from_onnx(proto, shape=shapes,
                                                               dtype=dtypes, freeze_params=True)
        return entry

    def build(self, entry, args):
        with tvm.transform.PassContext(opt_level=self.opt_level):
            if relax is not None:
                build = tvm.compile if hasattr(tvm, "compile") else relax.build
                executable = build(entry.mod, target=self.target)
            else:
                from tvm import relay
                executable = relay.build(entry.mod, target=self.target, params=entry.params)
        entry.fn = self.relax_runner(executable) if relax is not None \
            else self.relay_runner(executable)

    def relax_runner(self, executable):
        vm = relax.VirtualMachine(executable, self.device)

        def run(arrays):
            result = vm["main"](*[tvm.nd.array(a, self.device) if hasattr(tvm, "nd")
                                  else tvm.runtime.tensor(a, self.device) for a in arrays])
            return flatten(result)

        return run

    def relay_runner(self, lib):
        from tvm.contrib import graph_executor
        module = graph_executor.GraphModule(lib["default"](self.device))

        def run(arrays):
            for k, a in enumerate(arrays):
                module.set_input(k, a)
            module.run()
            return [module.get_output(j).numpy() for j in range(module.get_num_outputs())]

        return run


def flatten(result):
    """numpy arrays of what the Relax VM answers: a tensor, a shape (Shape's output), or a
    (nested) tuple of them for several outputs."""
    if hasattr(result, "numpy"):
        return [np.array(result.numpy())]
    if isinstance(result, tvm.runtime.ShapeTuple):
        return [np.array(list(result), np.int64)]
    return [t for item in result for t in flatten(item)]


if __name__ == "__main__":
    sys.exit(serve(TVM))
