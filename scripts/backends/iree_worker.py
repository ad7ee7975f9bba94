#!/usr/bin/env python3
"""Retort backend worker for IREE on CPU (llvm-cpu); docs/backend-protocol.md.

IREE imports the ONNX model itself: iree-import-onnx turns it into torch-mlir's ONNX dialect,
iree-compile lowers that for the llvm-cpu backend at an optimization level (keeping f64: IREE
demotes it to f32 unless told not to), and the runtime runs the module on its local-sync driver
(one thread). Both tools are the ones of this environment's
iree-base-compiler. The graph is renamed `main` first: the model's name would become the MLIR
function's symbol.
Options of `hello`: opt_level = 0 | 1 | 2 | 3 (--iree-opt-level=O<n>; default 3);
disabled_passes = names of SWITCHES joined by ',' (`findings blame`), each the iree-compile flags
that turn a pass or a transformation off.
"""

import importlib.metadata
import os
import subprocess
import sys
import tempfile

import numpy as np
import iree.runtime as ireert

from retort_backends.worker import PASS_NAMES, Compiled, Family, serve

# The ONNX checker in iree-import-onnx rejects an op it does not know; iree-compile cannot
# legalize what the ONNX-to-linalg conversion left as torch ops (an ONNX op or a form of one it
# has no pattern for).
LIMITS = ("not supported", "unsupported", "Unsupported", "not implemented", "No Op registered",
          "failed to legalize operation 'torch.")
TOOLS = os.path.dirname(sys.executable)

# Pass switch -> the iree-compile flags that turn it off; names not here are ignored.
SWITCHES = {
    "data-tiling": ["--iree-opt-data-tiling=false", "--iree-dispatch-creation-data-tiling=false"],
    "const-eval": ["--iree-opt-const-eval=false"],
    "const-expr-hoisting": ["--iree-opt-const-expr-hoisting=false"],
    "propagate-transposes": ["--iree-global-opt-propagate-transposes=false"],
    "aggressive-fusion": ["--iree-dispatch-creation-enable-aggressive-fusion=false"],
    "fuse-multi-use": ["--iree-dispatch-creation-fuse-multi-use=false"],
    "horizontal-fusion": ["--iree-dispatch-creation-enable-fuse-horizontal-contractions=false"],
    "pad-fusion": ["--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops=false",
                   "--iree-dispatch-creation-enable-fuse-padding-into-linalg-producer-ops=false"],
    "split-reduction": ["--iree-dispatch-creation-enable-split-reduction=false"],
    "reshape-movement": ["--iree-dispatch-creation-enable-aggressive-reshape-movement=false"],
    "ukernels": ["--iree-llvmcpu-enable-ukernels=none"],
    "vector-peeling": ["--iree-llvmcpu-disable-vector-peeling=true"],
    "loop-vectorization": ["--iree-llvmcpu-loop-vectorization=false"],
    "slp-vectorization": ["--iree-llvmcpu-slp-vectorization=false"],
}


def run_tool(name, args):
    """Runs one of IREE's command-line tools; its stderr is the error message."""
    done = subprocess.run([os.path.join(TOOLS, name), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{name}: {done.stderr.strip() or f'exit {done.returncode}'}")


class IREE(Family):
    NAME = "iree"
    OPTIONS = {"opt_level": (("0", "1", "2", "3"), "3"), "disabled_passes": (PASS_NAMES, "")}
    LIMITS = LIMITS

    def __init__(self, options):
        super().__init__(options)
        self.opt_level = options["opt_level"]
        self.switch_flags = [flag for name in options["disabled_passes"].split(",")
                             for flag in SWITCHES.get(name, [])]
        self.tmp = tempfile.TemporaryDirectory(prefix="retort_iree_")
        self.config = ireert.Config("local-sync")

    def version(self):
        return importlib.metadata.version("iree-base-compiler")

    def convert(self, model, outputs):
        proto = model.restricted_to(outputs)
        proto.graph.name = "main"
        onnx_path = os.path.join(self.tmp.name, "model.onnx")
        mlir_path = os.path.join(self.tmp.name, "model.mlir")
        with open(onnx_path, "wb") as f:
            f.write(proto.SerializeToString())
        run_tool("iree-import-onnx", [onnx_path, "-o", mlir_path])
        entry = Compiled()
        entry.mlir_path = mlir_path
        return entry

    def build(self, entry, args):
        vmfb = os.path.join(self.tmp.name, "model.vmfb")
        run_tool("iree-compile", [entry.mlir_path, "--iree-hal-target-device=local",
                                  "--iree-hal-local-target-device-backends=llvm-cpu",
                                  "--iree-input-demote-f64-to-f32=false",
                                  f"--iree-opt-level=O{self.opt_level}", *self.switch_flags,
                                  "-o", vmfb])
        with open(vmfb, "rb") as f:
            module = ireert.VmModule.copy_buffer(self.config.vm_instance, f.read())
        context = ireert.SystemContext(config=self.config)
        context.add_vm_module(module)
        main = context.modules.module["main"]

        def run(arrays):
            return flatten(main(*arrays))

        entry.fn = run


def flatten(result):
    """numpy arrays of what the module answers: one array, or a tuple or list of them."""
    if isinstance(result, (tuple, list)):
        return [a for item in result for a in flatten(item)]
    return [np.array(result.to_host() if hasattr(result, "to_host") else result)]


if __name__ == "__main__":
    sys.exit(serve(IREE))
