#!/usr/bin/env python3
"""Retort backend worker for Apache TVM on CPU (target llvm); docs/backend-protocol.md.

TVM imports the ONNX model itself through Relax (relax.frontend.onnx.from_onnx), builds it with
tvm.compile (relax.build where tvm.compile is missing) and runs it on the Relax VM. Every
apache-tvm release on PyPI (0.25.0 on) has Relax; the Relay releases (up to 0.1x) were never
published there, so there is no Relay path to install or test.
Options of `hello`: opt_level = 0 | 1 | 2 | 3 (tvm.transform.PassContext; default 3); passes =
none | graph (default none). With passes=graph the imported module goes through graph_passes(), a
fixed sequence of Relax graph passes, in that PassContext before tvm.compile (which skips a pass
registered above the context's opt_level: EliminateCommonSubexpr, ReorderPermuteDimsAfterConcat
and DeadCodeElimination need 1; mode tvm:passes uses 3); with none it goes to tvm.compile as
imported. device = cpu (target llvm) | cuda (target cuda, whose default pipeline schedules the
kernels for the GPU; without a CUDA build of TVM or a GPU, hello answers `unsupported`).
disabled_passes = pass names joined by ',' (`findings blame`): the PassContext's disabled_pass, so
that tvm.compile's pipelines (Relax and TIR) and graph_passes() skip them.

A run's "optimized_ops" (OATest's trigger check) counts the operator calls of the Relax module
that tvm.compile lowers, by ONNX op_type (RELAX_TO_ONNX; another op under its Relax name, e.g.
"relax.nn.gelu" or "relax.call_tir" for a call of a TIR function a pass generated). With
passes=none that module is what the ONNX importer made of the model, constants folded:
tvm.compile's CPU pipeline ("default_build") legalizes it to TIR straight away, with no Relax
graph pass between (its DispatchSampling and DispatchSortScan only replace sampling, sort and
scan ops by library calls), so it is the last graph in which Relax ops can be told apart. With
passes=graph it is the module after graph_passes().
"""

import collections
import sys

import numpy as np
import tvm
from tvm import relax
from tvm.relax.frontend.onnx import from_onnx

from retort_backends.errors import Unsupported
from retort_backends.worker import PASS_NAMES, Compiled, Family, serve

LIMITS = ("not supported", "Unsupported", "is not implemented", "OpNotImplemented",
          "not yet implemented", "only applies to float",
          "must have the same datatype for both operands")

# Relax ops and the ONNX op_type each computes (the importer may also build an ONNX op from
# several: Gemm from matmul, multiply and add).
RELAX_TO_ONNX = {
    "relax.abs": "Abs", "relax.add": "Add", "relax.argmax": "ArgMax", "relax.argmin": "ArgMin",
    "relax.astype": "Cast", "relax.broadcast_to": "Expand", "relax.ceil": "Ceil",
    "relax.clip": "Clip", "relax.concat": "Concat", "relax.cos": "Cos", "relax.divide": "Div",
    "relax.einsum": "Einsum", "relax.equal": "Equal", "relax.exp": "Exp",
    "relax.expand_dims": "Unsqueeze", "relax.floor": "Floor", "relax.greater": "Greater",
    "relax.less": "Less", "relax.log": "Log", "relax.logical_not": "Not",
    "relax.matmul": "MatMul", "relax.max": "ReduceMax", "relax.maximum": "Max",
    "relax.mean": "ReduceMean", "relax.min": "ReduceMin", "relax.minimum": "Min",
    "relax.multiply": "Mul", "relax.negative": "Neg", "relax.nn.avg_pool1d": "AveragePool",
    "relax.nn.avg_pool2d": "AveragePool", "relax.nn.avg_pool3d": "AveragePool",
    "relax.nn.batch_norm": "BatchNormalization", "relax.nn.conv1d": "Conv",
    "relax.nn.conv2d": "Conv", "relax.nn.conv3d": "Conv", "relax.nn.max_pool1d": "MaxPool",
    "relax.nn.max_pool2d": "MaxPool", "relax.nn.max_pool3d": "MaxPool", "relax.nn.pad": "Pad",
    "relax.nn.relu": "Relu",
    "relax.nn.softmax": "Softmax", "relax.permute_dims": "Transpose", "relax.power": "Pow",
    "relax.reshape": "Reshape", "relax.sigmoid": "Sigmoid", "relax.sin": "Sin",
    "relax.split": "Split", "relax.sqrt": "Sqrt", "relax.squeeze": "Squeeze",
    "relax.strided_slice": "Slice", "relax.subtract": "Sub", "relax.sum": "ReduceSum",
    "relax.take": "Gather", "relax.tanh": "Tanh", "relax.tile": "Tile", "relax.where": "Where",
}


def graph_passes():
    """The Relax graph passes of passes=graph, in order: those OATest's tvm_* patterns target
    (samples/patterns), each before the passes whose input it prepares, then clean-ups.
    FoldBatchnormToConv2D needs batch_norm whole, so it precedes DecomposeOpsForInference (which
    rewrites the remaining batch_norms into arithmetic); FoldConstant then folds the constant
    weight and bias arithmetic both leave. ReorderPermuteDimsAfterConcat restores, after
    CombineParallelMatmul, the matmul(x, permute_dims(w)) that FuseTransposeMatmul fuses (the
    order apache/tvm documents for the reorder pass). CanonicalizeBindings and
    DeadCodeElimination drop the bindings the others left unused."""
    transform = relax.transform
    return tvm.transform.Sequential([
        transform.FoldBatchnormToConv2D(),
        transform.DecomposeOpsForInference(),
        transform.FoldConstant(),
        transform.EliminateCommonSubexpr(),
        transform.CombineParallelMatmul(),
        transform.ReorderPermuteDimsAfterConcat(),
        transform.FuseTransposeMatmul(),
        transform.CanonicalizeBindings(),
        transform.DeadCodeElimination(),
    ], name="retort_graph_passes")


class TVM(Family):
    NAME = "tvm"
    OPTIONS = {"opt_level": (("0", "1", "2", "3"), "3"), "passes": (("none", "graph"), "none"),
               "device": (("cpu", "cuda"), "cpu"), "disabled_passes": (PASS_NAMES, "")}
    LIMITS = LIMITS

    def __init__(self, options):
        super().__init__(options)
        self.opt_level = int(options["opt_level"])
        self.disabled = [n for n in options["disabled_passes"].split(",") if n]
        self.passes = graph_passes() if options["passes"] == "graph" else None
        if options["device"] == "cuda":
            self.device = tvm.cuda(0)
            if not self.device.exist:
                raise Unsupported(f"tvm {tvm.__version__} sees no CUDA device")
            self.target = tvm.target.Target.from_device(self.device)
        else:
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
        with tvm.transform.PassContext(opt_level=self.opt_level, disabled_pass=self.disabled):
            if self.passes is not None:
                entry.mod = self.passes(entry.mod)
            executable = build(entry.mod, target=self.target)
        vm = relax.VirtualMachine(executable, self.device)

        def run(arrays):
            return flatten(vm["main"](*[to_device(a, self.device) for a in arrays]))

        entry.fn = run

    def optimized_ops(self, entry):
        return relax_op_counts(entry.mod)


def relax_op_counts(mod):
    """Operator calls in the module's Relax functions, by ONNX op_type (RELAX_TO_ONNX)."""
    counts = collections.Counter()

    def visit(expr):
        if isinstance(expr, relax.Call) and isinstance(expr.op, tvm.ir.Op):
            counts[RELAX_TO_ONNX.get(expr.op.name, expr.op.name)] += 1

    for func in mod.functions.values():
        if isinstance(func, relax.Function):
            relax.analysis.post_order_visit(func, visit)
    return dict(counts)


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
