#!/usr/bin/env python3
"""Retort backend worker for IREE on CPU (llvm-cpu); docs/backend-protocol.md.

IREE imports the ONNX model itself: iree-import-onnx turns it into torch-mlir's ONNX dialect,
iree-compile lowers that for the llvm-cpu backend at an optimization level (keeping f64: IREE
demotes it to f32 unless told not to), and the runtime runs the module on its local-sync driver
(one thread). Both tools are the ones of this environment's
iree-base-compiler. The graph is renamed `main` first: the model's name would become the MLIR
function's symbol.
A probe request (docs/backend-protocol.md) is answered by IREE.probe: its graphs are functions of
one module, so that a compile error names the graphs that fail.
Options of `hello`: opt_level = 0 | 1 | 2 | 3 (--iree-opt-level=O<n>; default 3);
disabled_passes = names of SWITCHES joined by ',' (`findings blame`), each the iree-compile flags
that turn a pass or a transformation off.
"""

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnx.compose
import iree.runtime as ireert
from iree.compiler.tools import binaries

from retort_backends.errors import bounded, kind_of
from retort_backends.worker import PASS_NAMES, Compiled, Family, checked_model, serve

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


# How iree-compile names probe graph i: the location of an op, the ONNX node name prefixed
# "p<i>_" ("p3_n0"); the graph's function @p<i>_graph and the dispatches named after it, as
# symbols or in lld's references ("(p3_graph$async_dispatch_0...)"); the folder of the IR it
# dumped after a pass failed on the function ("util_func_p3_graph$async"). Only the start of a
# name counts: names inside a node's name ("p3_p7_x") are not the graph's.
GRAPH_IN_MESSAGE = re.compile(r'["@(]p([0-9]+)_')
GRAPH_IN_FOLDER = re.compile(r"^[a-z_]+_p([0-9]+)_graph")


def run_tool(name, args, env=None):
    """Runs one of IREE's command-line tools; its stderr is the error message. iree-compile is
    the native binary that the console script of that name starts (no Python start)."""
    path = binaries.find_tool(name) if name == "iree-compile" else os.path.join(TOOLS, name)
    done = subprocess.run([path, *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{name}: {done.stderr.strip() or f'exit {done.returncode}'}")


def graphs_named(message, dumps):
    """The probe graphs (indices) that a failed iree-compile blames: the locations of its
    errors, the dispatches that lld's undefined symbols are referenced by (">>>" lines), and the
    functions and executables that a pass failed on (the folders of the IR it printed after
    the failure under `dumps`, --mlir-print-ir-tree-dir). Its notes are left out: they may
    print other graphs' ops."""
    blamed = [line for line in message.splitlines() if "error:" in line or line.startswith(">>>")]
    named = {int(i) for line in blamed for i in GRAPH_IN_MESSAGE.findall(line)}
    for _, folders, _ in os.walk(dumps):
        named |= {int(i) for folder in folders for i in GRAPH_IN_FOLDER.findall(folder)}
    return named


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

    def compile(self, mlir_path, extra=(), env=None):
        """The module of an MLIR file, compiled as every run of this worker compiles it."""
        vmfb = os.path.join(self.tmp.name, "model.vmfb")
        run_tool("iree-compile", [mlir_path, "--iree-hal-target-device=local",
                                  "--iree-hal-local-target-device-backends=llvm-cpu",
                                  "--iree-input-demote-f64-to-f32=false",
                                  f"--iree-opt-level=O{self.opt_level}", *self.switch_flags,
                                  *extra, "-o", vmfb], env)
        with open(vmfb, "rb") as f:
            module = ireert.VmModule.copy_buffer(self.config.vm_instance, f.read())
        context = ireert.SystemContext(config=self.config)
        context.add_vm_module(module)
        return context.modules.module

    def build(self, entry, args):
        main = self.compile(entry.mlir_path)["main"]

        def run(arrays):
            return flatten(main(*arrays))

        entry.fn = run

    def probe(self, parts):
        """Answers a probe request's graphs ((model bytes, outputs, inputs) each) with the
        compilations made. Graph i is the function p<i>_graph of one MLIR module, imported as
        iree-import-onnx imports it and printed with its locations (its ONNX node names,
        prefixed "p<i>_"): the graphs an error names are answered with it and the rest
        compiled again, so a batch costs one compilation plus one per error; an error that
        names none (a crash, a conversion's own op) is compiled again single-threaded, and
        when that names none either, halves the batch. A module that compiles runs each
        function alone, so a run's failure is its graph's."""
        # The importer's own loading (ONNX checker, shape inference with data propagation),
        # imported here: only a probe needs it in process.
        from iree.compiler.extras import onnx_importer
        from iree.compiler.ir import Context, Location, Module
        from iree.compiler.tools.import_onnx.__main__ import load_onnx_model, parse_arguments

        results = [None] * len(parts)
        compilations = 0

        def fail(i, exc):
            results[i] = {"status": kind_of(exc, LIMITS), "message": bounded(str(exc))}

        def module_of(indices):
            context = Context()
            module = Module.create(Location.unknown(context))
            for i in indices:
                model_bytes, outputs, inputs = parts[i]
                proto = checked_model(model_bytes, outputs, inputs)[0].restricted_to(outputs)
                proto = onnx.compose.add_prefix(proto, f"p{i}_")
                proto.graph.name = f"p{i}_graph"
                path = os.path.join(self.tmp.name, "probe.onnx")
                onnx.save(proto, path)
                try:
                    info = onnx_importer.ModelInfo(load_onnx_model(parse_arguments([path])))
                    one = info.create_module(context=context).operation
                    onnx_importer.NodeImporter.define_function(info.main_graph, one).import_all()
                    one.verify()
                except Exception as e:
                    fail(i, RuntimeError(f"iree-import-onnx: {e}"))
                    continue
                for op in list(one.regions[0].blocks[0].operations):
                    module.body.append(op)
            path = os.path.join(self.tmp.name, "probe.mlir")
            with open(path, "w") as f:
                f.write(module.operation.get_asm(enable_debug_info=True))
            return path

        def answer(indices, serial=False):
            nonlocal compilations
            if not indices:
                return
            path = module_of(indices)
            indices = [i for i in indices if results[i] is None]
            if not indices:
                return
            compilations += 1
            dumps = tempfile.mkdtemp(dir=self.tmp.name)
            # Single-threaded, a crash comes after the diagnostics before it: threads buffer
            # theirs until all are done. A crash's stack is not symbolized: the probe needs no
            # frames, and symbolizing takes longer than the compilation.
            flags = ["--mlir-print-ir-after-failure", f"--mlir-print-ir-tree-dir={dumps}"]
            try:
                functions = self.compile(path, flags + ["--mlir-disable-threading"] * serial,
                                         dict(os.environ, LLVM_DISABLE_SYMBOLIZATION="1"))
            except RuntimeError as e:
                failed = graphs_named(str(e), dumps) & set(indices)
                if len(indices) == 1 or failed:
                    for i in failed or indices:
                        fail(i, e)
                    answer([i for i in indices if i not in failed and results[i] is None])
                elif not serial:
                    answer(indices, serial=True)
                else:
                    answer(indices[:len(indices) // 2])
                    answer(indices[len(indices) // 2:])
                return
            finally:
                shutil.rmtree(dumps, ignore_errors=True)
            for i in indices:
                try:
                    functions[f"p{i}_graph"](*checked_model(*parts[i])[1])
                    results[i] = {"status": "ok"}
                except Exception as e:
                    fail(i, e)

        answer(list(range(len(parts))))
        return results, compilations


def flatten(result):
    """numpy arrays of what the module answers: one array, or a tuple or list of them."""
    if isinstance(result, (tuple, list)):
        return [a for item in result for a in flatten(item)]
    return [np.array(result.to_host() if hasattr(result, "to_host") else result)]


if __name__ == "__main__":
    sys.exit(serve(IREE))
