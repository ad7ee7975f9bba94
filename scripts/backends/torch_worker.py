#!/usr/bin/python3
"""Retort backend worker for PyTorch's TorchScript; docs/backend-protocol.md.

Runs on Debian's interpreter (/usr/bin/python3, python3-torch and python3-onnx) or any Python
with torch, onnx and numpy. Options of `hello`: mode = eager | trace | script, freeze = 0 | 1
(torch.jit.freeze and torch.jit.optimize_for_inference), fuser = 0 | 1 (the TensorExpr fuser).
"""

import sys

import torch

from retort_backends.errors import Unsupported
from retort_backends.torch_program import TorchFamily, program_arguments, to_numpy
from retort_backends.worker import serve

# Phrases in which torch says it has no kernel or rule for a dtype or value, e.g.
# "addmm_impl_cpu_" not implemented for 'Half': the model is unsupported, not miscompiled.
TORCH_LIMITS = ("not implemented for", "could not infer output dtype")
JIT_RUNS = 3  # the profiling executor specialises (and fuses) after the first runs of a module


class TorchScript(TorchFamily):
    NAME = "torch"
    OPTIONS = {"mode": (("eager", "trace", "script"), "script"),
               "freeze": (("0", "1"), "0"),
               "fuser": (("0", "1"), "0")}
    LIMITS = TORCH_LIMITS

    def __init__(self, options):
        super().__init__(options)
        self.mode = options["mode"]
        self.freeze = options["freeze"] == "1"
        self.fuser = options["fuser"] == "1"
        torch.set_num_threads(1)
        torch._C._jit_set_profiling_executor(True)
        torch._C._jit_set_texpr_fuser_enabled(self.fuser)
        torch._C._jit_override_can_fuse_on_cpu(self.fuser)
        # Debian's torch has no LLVM; the fuser then compiles with its block/IR-eval codegen.
        torch._C._jit_set_te_must_use_llvm_cpu(False)

    def build(self, entry, args):
        jit = compile_module(entry.module, self.mode, self.freeze, program_arguments(entry, args))

        def run(arrays):
            with torch.no_grad():
                return to_numpy(jit(*program_arguments(entry, arrays)))

        entry.fn = run

    def warm_up_runs(self):
        return 0 if self.mode == "eager" else JIT_RUNS - 1


def compile_module(module, mode, freeze, inputs):
    if mode == "eager":
        if freeze:
            raise Unsupported("freeze applies to trace and script modes, not eager")
        return module
    if mode == "trace":
        jit = torch.jit.trace(module, tuple(inputs), check_trace=False)
    else:
        try:
            jit = torch.jit.script(module)
        except Exception as e:  # TorchScript cannot express the generated forward
            raise Unsupported(f"torch.jit.script: {e}") from None
    if freeze:
        jit = torch.jit.optimize_for_inference(torch.jit.freeze(jit))
    return jit


if __name__ == "__main__":
    sys.exit(serve(TorchScript))
