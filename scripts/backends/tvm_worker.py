#!/usr/bin/env python3
"""Retort backend worker for Apache TVM on CPU (target llvm); docs/backend-protocol.md.

TVM imports the ONNX model itself through Relax (relax.frontend.onnx.from_onnx), builds it with
tvm.compile (relax.build where tvm.compile is missing) and runs it on the Relax VM. Every
apache-tvm release on PyPI (0.25.0 on) has Relax; the Relay releases (up to 0.1x) were never
published there, so there is no Relay path to install or test.
Option of `hello`: opt_level = 0 | 1 | 2 | 3 (tvm.transform.PassContext; default 3).
"""

import sys

import numpy as np
import tvm
from tvm import relax
from tvm.relax.frontend.onnx import from_onnx

from retort_backends.worker import Compiled, Family, serve

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
        shapes = {n: list(shape) for n, _, shape in model.input_types()}
        dtypes = {n: str(dtype) for n, dtype, _ in model.input_types()}
        entry = Compiled()
        entry.mod = from_onnx(model.restricted_to(outputs), shape_dict=shapes, dtype_dict=dtypes)
        return entry

    def build(self, entry, args):
        build = tvm.compile if hasattr(tvm, "compile") else relax.build
        with tvm.transform.PassContext(opt_level=self.opt_level):
            executable = build(entry.mod, target=self.target)
        vm = relax.VirtualMachine(executable, self.device)

        def run(arrays):
            return flatten(vm["main"](*[to_device(a, self.device) for a in arrays]))

        entry.fn = run


def to_device(array, device):
    return tvm.nd.array(array, device) if hasattr(tvm, "nd") else tvm.runtime.tensor(array, device)


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
