#!/usr/bin/env python3
"""Retort backend worker for torch.compile on CPU (Inductor's C++ code generation);
docs/backend-protocol.md. Runs in a virtual environment with torch >= 2.0, onnx and numpy.

Option of `hello`: mode =
  default                      torch.compile(backend="inductor")
  max-autotune-no-cudagraphs   torch.compile(backend="inductor", mode=...)
  freezing                     torch.compile(backend="inductor", options={"freezing": True}):
                               the module's buffers folded in as constants
  cpp-wrapper                  torch.compile(backend="inductor", options={"cpp_wrapper": True}):
                               the graph's wrapper in C++, one translation unit with its kernels
  aot_eager                    torch.compile(backend="aot_eager"): dynamo and AOTAutograd's
                               decompositions without Inductor (a baseline)
  eager                        the generated module run by torch itself (the baseline)
and device = cpu (Inductor's C++) | cuda (its Triton kernels on an NVIDIA GPU; without one,
hello answers `unsupported`); disabled_passes = Inductor pass switches joined by ','
(`findings blame`; retort_backends/inductor_passes.py sets each torch._inductor.config switch off).
The module's forward() is generated Python source registered with linecache, which dynamo
reads like a file; the program's forms (torch_forms.py) choose how its inputs are passed
(arguments()) and whether it compiles with dynamic shapes (DYNAMIC).
"""

import sys

import torch

from retort_backends import inductor_passes
from retort_backends.errors import Unsupported
from retort_backends.torch_program import (TorchFamily, program_arguments, program_dynamic,
                                           to_numpy)
from retort_backends.worker import PASS_NAMES, serve

LIMITS = ("not implemented for", "could not infer output dtype", "Unsupported:")
# The Inductor modes that are config options rather than torch.compile modes.
CONFIG_MODES = {"freezing": {"freezing": True}, "cpp-wrapper": {"cpp_wrapper": True}}
COMPILE_MODES = ("default", "max-autotune-no-cudagraphs", *CONFIG_MODES)


class Inductor(TorchFamily):
    NAME = "inductor"
    OPTIONS = {"mode": ((*COMPILE_MODES, "aot_eager", "eager"), "default"),
               "device": (("cpu", "cuda"), "cpu"), "disabled_passes": (PASS_NAMES, "")}
    LIMITS = LIMITS

    def __init__(self, options):
        super().__init__(options)
        self.mode = options["mode"]
        self.device = options["device"]
        if self.device == "cuda" and not torch.cuda.is_available():
            raise Unsupported(f"torch {torch.__version__} sees no CUDA device")
        torch.set_num_threads(1)
        inductor_passes.disable(options["disabled_passes"].split(","))

    def build(self, entry, args):
        fn = entry.module.to(self.device)
        dynamic = program_dynamic(entry)
        if self.mode == "aot_eager":
            fn = torch.compile(fn, backend="aot_eager", dynamic=dynamic)
        elif self.mode in CONFIG_MODES:
            fn = torch.compile(fn, backend="inductor", options=CONFIG_MODES[self.mode],
                               dynamic=dynamic)
        elif self.mode != "eager":
            mode = None if self.mode == "default" else self.mode
            fn = torch.compile(fn, backend="inductor", mode=mode, dynamic=dynamic)

        def run(arrays):
            with torch.no_grad():
                return to_numpy(fn(*program_arguments(entry, arrays, self.device)))

        entry.fn = run

    def warm_up_runs(self):
        return 0 if self.mode == "eager" else 1  # torch.compile compiles at the first call


if __name__ == "__main__":
    sys.exit(serve(Inductor))
