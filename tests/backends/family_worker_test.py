"""Tests of one backend family's worker (scripts/backends/<family>_worker.py) over the protocol.

Run with the family's environment's Python (run_family_test.py finds it):
  <venv>/bin/python family_worker_test.py --family inductor [--option mode=default]
                                          [--retort BIN] [unittest args]
Every op case of torch_cases.py and the exported POLYJUICE samples run against the numpy
evaluation of the ONNX model; cases the family cannot express must answer `unsupported`.
"""

import os
import sys
import tempfile
import unittest

import numpy as np
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [HERE]

from onnx_numpy import evaluate  # noqa: E402
from samples import (export_model, exported_op_cases, exported_samples, random_inputs,  # noqa: E402
                     registry_onnx_types)
from torch_cases import all_cases, chain_cases  # noqa: E402
from worker_checks import HostileNames, Protocol, assert_close, check_run, model_of  # noqa: E402
from worker_client import WorkerClient  # noqa: E402


def take_option(argv, name, many=False):
    values = []
    while name in argv:
        k = argv.index(name)
        values.append(argv[k + 1])
        del argv[k:k + 2]
    return values if many else (values[-1] if values else None)


FAMILY = take_option(sys.argv, "--family")
OPTIONS = dict(o.split("=", 1) for o in take_option(sys.argv, "--option", many=True))
RETORT = take_option(sys.argv, "--retort")
# --one-per-op: the first case of each op type only (for families that compile slowly).
ONE_PER_OP = "--one-per-op" in sys.argv
if ONE_PER_OP:
    sys.argv.remove("--one-per-op")
WORKER = [sys.executable, os.path.join(ROOT, "scripts", "backends", f"{FAMILY}_worker.py")]

# Per family: op cases it answers `unsupported` (docs/backend-protocol.md says why), cases and
# samples where it differs from the ONNX reference as released (findings of Retort, not faults
# of the worker: only a well-formed answer is asked of them), and looser float tolerances.
EXPECTED_UNSUPPORTED = {
    "tvm": {"Pow i32", "Pow i32 by f32", "chain 3"},
    # The ONNX-to-linalg conversion has no pattern for Softsign (in the chain cases), einsum
    # with an ellipsis, or ReduceMean of integers.
    "iree": {"Softsign", "Einsum ellipsis", "ReduceMean i32", "chain 1", "chain 2"},
    # TensorFlow has no multiplying scatter (tensor_scatter_nd_add, _update, _max, _min only),
    # no truncatemod kernel for integers narrower than 32 bits, and no grouped transposed
    # convolution.
    # onnx.reference 1.23 implements DequantizeLinear from opset 19 on only.
    "onnx_ref": {"DequantizeLinear", "DequantizeLinear i8 per axis"},
    "tf_xla": {"ScatterElements mul i32", "TopK smallest axis 0", "Mod i8 fmod",
               "ConvTranspose 1d group dilations"},
}
FIG7 = {"fig7_uint8_mul_order.rtg", "fig7_uint8_mul_order.rtg (max variant)",
        "fig7_uint8_mul_order.rtg (random variant)"}
KNOWN_DIFFERENCES = {
    # u8 Add and Mul saturate instead of wrapping; Tile, Slice and Pad of a scalar fail;
    # GatherElements rejects indices shorter than data on an axis but the indexed one, as
    # onnx.reference does (the spec asks only for the same rank).
    # QuantizeLinear adds an odd zero point before rounding, so its ties round the other way
    # (docs/ops/nn.md, quantize_linear).
    # ReduceMax over an empty axis gives the least finite float, not -inf (ONNX says -inf from
    # opset 18; Retort exports 17, whose text is silent).
    # A Pad whose negative pad crops more than its axis holds reads memory it never wrote
    # (docs/bugs.md row 48); a MaxPool of a zero-size spatial dim fails to convert.
    "openvino": {"Add u8 wraps", "Tile scalar", "Slice scalar", "Pad scalar",
                 "Pad constant crop past the data", "MaxPool empty dilated",
                 "GatherElements shorter", "QuantizeLinear ties", "ReduceMax empty axis"} | FIG7,
    # Slice with end < start is rejected instead of giving an empty tensor; Pow with an exponent
    # of another dtype (ONNX's T1) reaches R.power, which takes one dtype ("Binary operators must
    # have the same datatype").
    # ReduceMax and ReduceMin over an empty axis read uninitialised memory (docs/bugs.md row 30).
    "tvm": {"Slice empty", "Pow f32 by i8", "ReduceMax empty axis", "ReduceMin empty i32"},
    # IREE 3.13 (found by this test): integer Pow differs; Cast f64 -> u8 does not wrap;
    # iree-compile rejects valid models: an implicit-output einsum ("permute ... same rank"),
    # MaxPool with asymmetric pads and Slice with steps (f64 constants it cannot truncate),
    # Pad constant ("slice ... runs out-of-bounds"), Pad reflect and edge, ConvTranspose with
    # asymmetric pads and output_padding, linear Resize of 1 or 3 spatial axes ("failed to
    # legalize"); chain 3 holds one.
    "iree": {"Pow i32", "Pow i32 by f32", "Cast f64 to u8", "Einsum implicit",
             "MaxPool asymmetric pads", "Slice steps", "Pad constant", "Pad reflect",
             "Pad edge crop", "ConvTranspose strides pads output_padding",
             "Resize linear align_corners 3d", "Resize linear pytorch_half_pixel", "chain 3"},
    # onnx.reference 1.23 (found by this test): Pad rejects negative pads ("index can't contain
    # negative values") and a 0-d input; MaxPool with an end pad wider than the start pad
    # reduces an empty window; GatherElements rejects indices shorter than data on an axis
    # but the indexed one (docs/conformance.md); ConvTranspose with group > 1 fails ("cannot
    # reshape array").
    "onnx_ref": {"Pad constant", "Pad edge crop", "Pad constant crop past the data", "Pad scalar",
                 "MaxPool asymmetric pads",
                 "GatherElements shorter", "ConvTranspose 1d group dilations"},
}
TOLERANCE = {"openvino": 2e-3, "tvm": 1e-3}
# Per family and TVM's `passes` option: its "optimized_ops" answer for optimized_ops_case()
# (OATest's trigger check); a family not named here must leave the field out. TVM's ONNX
# importer folds the Add of two constants, and its CPU build has no Relax graph pass before
# legalization: the rest stays, unless passes=graph, where FuseTransposeMatmul makes the
# Transpose and the MatMul one call of a TIR function.
PASSES = OPTIONS.get("passes", "none")
OPTIMIZED_OPS = {("tvm", "none"): {"Add": 1, "Transpose": 1, "MatMul": 1},
                 ("tvm", "graph"): {"Add": 1, "relax.call_tir": 1}}


# What the program of a group_norm of x f32[2, 6, 5] with 3 groups holds, per family.
GROUP_NORM_FORMS = {"inductor": ["torch.nn.functional.group_norm("],
                    "xla": ["jnp.reshape(", "[2, 3, -1]"], "tf_xla": ["tf.reshape(", "[2, 3, -1]"],
                    "openvino": []}


def openvino_read_ops(model_bytes, outputs):
    """The op types of the model OpenVINO's ONNX frontend reads from the worker's conversion."""
    sys.path.insert(0, os.path.join(ROOT, "scripts", "backends"))
    from openvino_worker import OpenVINO
    from retort_backends.model import Model

    options = {name: default for name, (_, default) in OpenVINO.OPTIONS.items()}
    entry = OpenVINO({**options, **OPTIONS}).convert(Model(model_bytes), outputs)
    return [op.get_type_name() for op in entry.ov_model.get_ordered_ops()]


def op_cases():
    cases = all_cases() + chain_cases(5) + (exported_op_cases(RETORT) if RETORT else [])
    if not ONE_PER_OP:
        return cases
    seen, kept = set(), []
    for case in cases:
        if case.op not in seen:
            seen.add(case.op)
            kept.append(case)
    return kept


def optimized_ops_case():
    """(model, inputs, expected): y = (x + (c0 + c1)) @ transpose(x), c0 and c1 constants."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    c0 = np.full((2, 3), 0.5, np.float32)
    c1 = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
    nodes = [helper.make_node("Constant", [], ["c0"], value=numpy_helper.from_array(c0)),
             helper.make_node("Constant", [], ["c1"], value=numpy_helper.from_array(c1)),
             helper.make_node("Add", ["c0", "c1"], ["s"]),
             helper.make_node("Add", ["x", "s"], ["a"]),
             helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0]),
             helper.make_node("MatMul", ["a", "t"], ["y"])]
    model = model_of(nodes, {"x": x},
                     [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])])
    return model.SerializeToString(), {"x": x}, {"y": (x + c0 + c1) @ x.T}


def graph_pass_cases():
    """(label, model, inputs, expected, {passes: optimized_ops}): the simplest graph of each
    Relax pass of passes=graph (the tvm_* patterns of samples/patterns), expected values from
    the numpy evaluation, and the ops TVM's module holds without the passes and after them."""
    rng = np.random.default_rng(7)

    def f32(*shape, low=-1.0, high=1.0):
        return rng.uniform(low, high, shape).astype(np.float32)

    def case(label, nodes, inputs, counts, constants=None):
        model = model_of(nodes, inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                                       None)])
        model.graph.initializer.extend(numpy_helper.from_array(v, n)
                                       for n, v in (constants or {}).items())
        expected = {"y": evaluate(model, inputs)["y"]}
        return label, model.SerializeToString(), inputs, expected, counts

    bn = {"g": f32(4, low=0.5, high=1.5), "b": f32(4), "m": f32(4), "v": f32(4, low=0.5, high=1.5)}
    return [
        case("CombineParallelMatmul",
             [helper.make_node("MatMul", ["x", f"w{i}"], [f"m{i}"]) for i in range(3)]
             + [helper.make_node("Concat", ["m0", "m1", "m2"], ["y"], axis=1)],
             {"x": f32(4, 6), "w0": f32(6, 5), "w1": f32(6, 5), "w2": f32(6, 5)},
             {"none": {"MatMul": 3, "Concat": 1},
              "graph": {"Concat": 2, "MatMul": 1, "Split": 1}}),
        case("EliminateCommonSubexpr",
             [helper.make_node("Add", ["x", "z"], ["a"]),
              helper.make_node("Add", ["x", "z"], ["b"]),
              helper.make_node("Mul", ["a", "b"], ["y"])],
             {"x": f32(2, 3), "z": f32(2, 3)},
             {"none": {"Add": 2, "Mul": 1}, "graph": {"Add": 1, "Mul": 1}}),
        case("FoldBatchnormToConv2D",
             [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
              helper.make_node("BatchNormalization", ["c", "g", "b", "m", "v"], ["y"])],
             {"x": f32(1, 3, 8, 8)},
             {"none": {"Conv": 1, "BatchNormalization": 1}, "graph": {"Conv": 1, "Add": 1}},
             {"w": f32(4, 3, 3, 3), **bn}),
        case("DecomposeOpsForInference",
             [helper.make_node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y"])],
             {"x": f32(1, 4, 6, 6)},
             {"none": {"BatchNormalization": 1}, "graph": {"Sub": 1, "Div": 1, "Mul": 1, "Add": 1}},
             bn),
        case("ReorderPermuteDimsAfterConcat",
             [helper.make_node("Transpose", ["a"], ["ta"], perm=[1, 0]),
              helper.make_node("Transpose", ["b"], ["tb"], perm=[1, 0]),
              helper.make_node("Concat", ["ta", "tb"], ["y"], axis=1)],
             {"a": f32(6, 4), "b": f32(6, 4)},
             {"none": {"Transpose": 2, "Concat": 1}, "graph": {"Concat": 1, "Transpose": 1}}),
    ]


class FamilyTest(HostileNames, Protocol, unittest.TestCase):
    MIXED_PROBE_COMPILATIONS = 2 if FAMILY == "iree" else 3

    @classmethod
    def setUpClass(cls):
        cls.client = WorkerClient(WORKER, OPTIONS)
        assert cls.client.hello["type"] == "hello", cls.client.hello

    @classmethod
    def tearDownClass(cls):
        assert cls.client.close() == 0

    def test_hello(self):
        self.assertEqual(self.client.hello["options"], OPTIONS)
        self.assertTrue(self.client.hello["version"])

    def test_op_cases(self):
        unsupported = EXPECTED_UNSUPPORTED.get(FAMILY, set())
        for case in op_cases():
            with self.subTest(case=case.label):
                if case.label in unsupported:
                    header, _ = self.client.run(case.model, case.inputs, case.outputs)
                    self.assertEqual(header.get("kind"), "unsupported", header)
                    continue
                if self.known_difference(case.label, case.model, case.inputs, case.outputs):
                    continue
                check_run(self, self.client, case.model, case.inputs, case.expected,
                          case.label, TOLERANCE.get(FAMILY))

    def test_optimized_ops(self):
        model, inputs, expected = optimized_ops_case()
        header = check_run(self, self.client, model, inputs, expected, "optimized_ops",
                           TOLERANCE.get(FAMILY), optimized_ops=True)
        if (FAMILY, PASSES) in OPTIMIZED_OPS:
            self.assertEqual(header.get("optimized_ops"), OPTIMIZED_OPS[FAMILY, PASSES])
        else:
            self.assertNotIn("optimized_ops", header)
        header = check_run(self, self.client, model, inputs, expected, "not asked",
                           TOLERANCE.get(FAMILY))
        self.assertNotIn("optimized_ops", header)

    @unittest.skipUnless(FAMILY == "tvm", "the passes option is TVM's")
    def test_graph_passes(self):
        for label, model, inputs, expected, counts in graph_pass_cases():
            with self.subTest(case=label):
                header = check_run(self, self.client, model, inputs, expected, label,
                                   TOLERANCE.get(FAMILY), optimized_ops=True)
                self.assertEqual(header["optimized_ops"], counts[PASSES])

    def test_standalone_program(self):
        """A program request: a family that runs a generated program answers it as a module
        that imports only the framework, holds none of the model's names, and computes what the
        worker's run computes; the others answer `unsupported`."""
        model, inputs, expected = standalone_case()
        header, consts = self.client.program(model, inputs, list(expected))
        if FAMILY not in STANDALONE:
            self.assertEqual((header["type"], header.get("kind")), ("error", "unsupported"))
            return
        self.assertEqual(header["type"], "program", header)
        self.assertNotIn("input'", header["source"])
        self.assertNotIn("weight", header["source"])
        with tempfile.TemporaryDirectory() as tmp:
            os.mkdir(os.path.join(tmp, "consts"))
            for name, value in consts.items():
                np.save(os.path.join(tmp, "consts", f"{name}.npy"), value)
            scope = {"const": lambda name: np.load(os.path.join(tmp, "consts", f"{name}.npy"))}
            exec(compile(header["source"], "model_a.py", "exec"), scope)
            results = STANDALONE[FAMILY](scope["forward"], list(inputs.values()))
        for (name, want), got in zip(expected.items(), results):
            assert_close(self, np.asarray(got), want, name, TOLERANCE.get(FAMILY))

    def test_bf16(self):
        """bf16 crosses the protocol and the framework both ways, rounded as bf16 math rounds."""
        model, inputs, expected = bf16_case()
        header, arrays = self.client.run(model, inputs, ["z"])
        self.assertEqual(header["type"], "result", header.get("message"))
        self.assertEqual(header["outputs"][0]["dtype"], "bf16")
        np.testing.assert_array_equal(arrays["z"].astype(np.float32), expected)

    @unittest.skipUnless(RETORT and FAMILY in GROUP_NORM_FORMS,
                         "needs --retort BIN; a family that converts group_norm's call")
    def test_group_norm_reaches_the_compiler(self):
        """group_norm comes as a call of Retort's retort.ops function (test_op_cases checks its
        values): torch gets its own group_norm, JAX and TensorFlow the grouped reshape, and
        OpenVINO's frontend its GroupNormalization op, not the function's body."""
        case = exported_op_cases(RETORT)[0]
        if FAMILY == "openvino":
            self.assertEqual(openvino_read_ops(case.model, case.outputs),
                             ["Parameter", "Parameter", "Parameter", "GroupNormalization",
                              "Result"])
            return
        header, _ = self.client.program(case.model, case.inputs, case.outputs)
        self.assertEqual(header["type"], "program", header)
        for piece in GROUP_NORM_FORMS[FAMILY]:
            self.assertIn(piece, header["source"])

    def known_difference(self, label, model, inputs, outputs):
        """For a known difference, only a well-formed answer is asked; True then."""
        if label not in KNOWN_DIFFERENCES.get(FAMILY, set()):
            return False
        header, _ = self.client.run(model, inputs, list(outputs))
        self.assertIn(header["type"], ("result", "error"))
        return True

    @unittest.skipUnless(RETORT, "needs --retort BIN")
    def test_polyjuice_samples(self):
        samples = exported_samples(RETORT)
        self.assertGreaterEqual(len(samples), 7)
        for name, model in samples.items():
            with self.subTest(sample=name):
                inputs = random_inputs(model, seed=len(name))
                values = evaluate(model, inputs)
                expected = {o.name: values[o.name] for o in model.graph.output}
                if self.known_difference(name, model.SerializeToString(), inputs, expected):
                    continue
                check_run(self, self.client, model.SerializeToString(), inputs, expected, name,
                          TOLERANCE.get(FAMILY))


def standalone_case():
    """A model with a constant and names no program may spell: (bytes, inputs, expected)."""
    x, w = "input'); import os #", "weight\u202e"
    weight = np.array([[1, -2, 3], [-4, 5, -6]], np.float32)
    nodes = [helper.make_node("Mul", [x, w], ["m"]), helper.make_node("Relu", ["m"], ["y"])]
    graph = helper.make_graph(
        nodes, "standalone", [helper.make_tensor_value_info(x, TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(weight, w)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    inputs = {x: np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)}
    return model.SerializeToString(), inputs, {"y": np.maximum(inputs[x] * weight, 0)}


def call_torch(forward, args):
    import torch
    with torch.no_grad():
        return [r.numpy() for r in forward(*[torch.from_numpy(a) for a in args])]


def call_tf(forward, args):
    import tensorflow as tf
    return [r.numpy() for r in forward(*[tf.constant(a) for a in args])]


def bf16_case():
    """(model, inputs, expected f32 values) of z = x + y in bf16: sums that lie halfway between
    two bf16 values (1 + 2^-8, 1 + 3 * 2^-8, 257) round to the even one, which f32 would keep."""
    import ml_dtypes

    x = np.array([1, 1, 256, -3], ml_dtypes.bfloat16)
    y = np.array([2**-8, 3 * 2**-8, 1, 2**-9], ml_dtypes.bfloat16)
    model = model_of([helper.make_node("Add", ["x", "y"], ["z"])], {"x": x, "y": y},
                     [helper.make_tensor_value_info("z", TensorProto.BFLOAT16, [4])])
    expected = np.array([1, 1 + 2**-6, 256, -3], np.float32)
    return model.SerializeToString(), {"x": x, "y": y}, expected


# How a standalone program's forward is called, per family whose worker generates one.
STANDALONE = {"inductor": call_torch, "xla": lambda forward, args: forward(*args),
              "tf_xla": call_tf}


# The op table of the families whose worker generates a program.
OP_TABLES = {"inductor": "torch_ops", "xla": "jax_ops", "tf_xla": "tf_ops"}


@unittest.skipUnless(RETORT and FAMILY in OP_TABLES, "needs --retort BIN and an op table")
class RegistryCoverageTest(unittest.TestCase):
    def test_every_registry_op_has_a_converter_and_a_case(self):
        sys.path.insert(0, os.path.join(ROOT, "scripts", "backends"))
        import importlib

        table = importlib.import_module(f"retort_backends.{OP_TABLES[FAMILY]}").CONVERTERS
        types = registry_onnx_types(RETORT)
        self.assertGreater(len(types), 80)
        tested = {case.op for case in all_cases() + exported_op_cases(RETORT)}
        for name, onnx_type in types.items():
            with self.subTest(op=name):
                self.assertIn(onnx_type, table)
                self.assertIn(onnx_type, tested, f"no test case for {onnx_type}")


def fig7_models(tmp):
    """The Fig. 7 sample with a consumer of the product (z = cast(y, f32)), and its rewrite
    mul(s, a). In the sample itself y is stored as u8, where Inductor 2.1.0's int tmp5 and a
    u8 tmp5 agree modulo 256; a consumer in the same kernel sees the difference."""
    with open(os.path.join(ROOT, "samples", "polyjuice", "fig7_uint8_mul_order.rtg")) as f:
        text = f.read().replace("output y", "z = cast(y, to=f32)\noutput z")
    models = []
    for k, body in enumerate((text, text.replace("y = mul(a, s)", "y = mul(s, a)"))):
        path = os.path.join(tmp, f"fig7_{k}.rtg")
        with open(path, "w") as f:
            f.write(body)
        models.append(export_model(RETORT, path, f"{path}.onnx"))
    return models


@unittest.skipUnless(RETORT and FAMILY == "inductor" and OPTIONS.get("mode") == "default",
                     "needs --retort BIN; Inductor's default mode only")
class Fig7Test(unittest.TestCase):
    """POLYJUICE's Bug Study 1: mul(a, s) and mul(s, a) agree on the environment's torch (the
    default), and differ on torch 2.1.0 when its environment exists (ENVS/inductor@2.1.0)."""

    def outputs(self, python):
        with tempfile.TemporaryDirectory() as tmp:
            models = fig7_models(tmp)
        rng = np.random.default_rng(7)
        inputs = {k: rng.integers(0, 256, (4, 4)).astype(np.uint8) for k in "abc"}
        expected = (inputs["a"] * (inputs["b"] + inputs["c"])).astype(np.uint8)
        client = WorkerClient([python, WORKER[1]], OPTIONS)
        try:
            results = [client.run(m.SerializeToString(), inputs, ["z"]) for m in models]
        finally:
            client.close()
        for header, _ in results:
            self.assertEqual(header["type"], "result", header.get("message"))
        return [arrays["z"] for _, arrays in results], expected.astype(np.float32)

    def test_default_torch_agrees(self):
        (original, rewritten), expected = self.outputs(sys.executable)
        np.testing.assert_array_equal(original, expected)
        np.testing.assert_array_equal(rewritten, expected)

    def test_torch_2_1_0_miscompiles_the_rewrite(self):
        python = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(sys.executable))),
                              "inductor@2.1.0", "bin", "python")
        if not os.path.exists(python):
            self.skipTest(f"no environment {os.path.dirname(os.path.dirname(python))}")
        (original, rewritten), expected = self.outputs(python)
        np.testing.assert_array_equal(original, expected)
        self.assertFalse(np.array_equal(rewritten, expected))


@unittest.skipUnless(FAMILY == "openvino", "OpenVINO's precision hint")
class OpenVINODefaultPrecisionTest(unittest.TestCase):
    """The default mode leaves an f32 model at f32 precision: the plugin's own hint is bf16 on
    CPUs with AVX512_BF16 or AMX, where this product of inputs that bf16 rounds to 1 would be
    64 (on other CPUs the hint is f32 anyway)."""

    def test_an_f32_matmul_keeps_f32_precision(self):
        x = np.full((1, 64), 1 + 2**-9, np.float32)
        w = np.full((64, 1), 1 + 2**-9, np.float32)
        model = model_of([helper.make_node("MatMul", ["x", "w"], ["y"])], {"x": x, "w": w},
                         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1])])
        client = WorkerClient(WORKER, {"precision": "default"})
        try:
            check_run(self, client, model.SerializeToString(), {"x": x, "w": w}, {"y": x @ w},
                      "default precision")
        finally:
            self.assertEqual(client.close(), 0)


@unittest.skipUnless(FAMILY in ("inductor", "xla"), "the programs of torch and JAX")
class Bf16ProgramTest(unittest.TestCase):
    """The program a worker compiles for a bf16 model computes in bf16: torch gets
    torch.bfloat16 tensors, JAX traces bf16 values into its HLO (no f32 in between)."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(ROOT, "scripts", "backends"))

    def test_the_program_computes_in_bf16(self):
        from retort_backends.model import Model

        model, inputs, expected = bf16_case()
        args = list(inputs.values())
        if FAMILY == "inductor":
            import torch

            from retort_backends.torch_program import to_numpy, to_torch, torch_program

            _, module = torch_program(Model(model), ["z"])
            seen = []
            module.register_forward_pre_hook(lambda _, a: seen.extend(t.dtype for t in a))
            with torch.no_grad():
                (z,) = module(*to_torch(args))
            self.assertEqual(seen, [torch.bfloat16, torch.bfloat16])
            self.assertEqual(z.dtype, torch.bfloat16)
            (got,) = to_numpy([z])
        else:
            import jax

            from xla_worker import jax_program

            forward = jax_program(Model(model), ["z"]).namespace["forward"]
            jaxpr = jax.make_jaxpr(forward)(*args)
            self.assertEqual([str(v.aval.dtype) for v in jaxpr.jaxpr.invars + jaxpr.jaxpr.outvars],
                             ["bfloat16"] * 3)
            hlo = jax.jit(forward).lower(*args).as_text()
            self.assertIn("bf16", hlo)
            self.assertNotIn("f32", hlo)
            (got,) = forward(*args)
        np.testing.assert_array_equal(np.asarray(got).astype(np.float32), expected)


@unittest.skipUnless(FAMILY == "xla", "JAX programs: the xla family")
class JaxProgramMutationsTest(unittest.TestCase):
    """TorchProbe's mutations on JAX programs (.at[].set, lax.cond) and TENSURE's sparse
    storage (BCOO operands through sparsify) keep what the jitted program computes."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(ROOT, "scripts", "backends"))

    def outputs(self, case, mutations, jit=True):
        import jax

        from retort_backends.model import Model
        from xla_worker import jax_program

        model = Model(case.model)
        args = [np.asarray(case.inputs[n]) for n in model.input_names]
        prog = jax_program(model, case.outputs, mutations, args)
        if jit:
            return prog, [np.asarray(r) for r in jax.jit(prog.namespace["forward"])(*args)]
        with jax.disable_jit():  # xla:nojit: numpy inputs, values concrete
            return prog, [np.asarray(r) for r in prog.namespace["forward"](*args)]

    def check_kind(self, kind, cases, seeds, jit=True):
        """How many (case, seed) the kind applied to; each one's results must be the case's."""
        from retort_backends.errors import Unsupported

        applied = 0
        for case in cases:
            for seed in seeds:
                mutations = [{"kind": kind, "seed": seed}, {"kind": "tcb", "seed": seed + 5}]
                try:
                    prog, got = self.outputs(case, mutations, jit)
                except Unsupported:
                    continue
                except NotImplementedError as e:  # a sparse rule JAX lacks: a limit it says
                    self.assertEqual(kind, "sparse", e)
                    continue
                applied += 1
                for name, value in zip(case.outputs, got):
                    assert_close(self, value, case.expected[name],
                                 f"{case.label} {mutations}: {name}\n{prog.source}")
        return applied

    @staticmethod
    def typed_right(case):
        """Whether ONNX's shape inference gives each value the shape it has (a chain may
        broadcast PRelu's slope, which ONNX does not): resolve unrolls by the declared shape."""
        import onnx

        from retort_backends.model import Model

        model = Model(case.model)
        values = evaluate(onnx.load_from_string(case.model), case.inputs)
        return all(model.shape_of(v) == list(np.shape(values[v]))
                   for node in model.graph.node for v in node.output)

    def test_torchprobe_kinds_keep_the_results(self):
        from retort_backends import probe

        cases = [c for c in chain_cases(12) + all_cases()[::6] if self.typed_right(c)]
        for kind in probe.KINDS:
            for jit in (True, False):
                with self.subTest(kind=kind, jit=jit):
                    self.assertGreater(self.check_kind(kind, cases, range(2), jit), 15, kind)

    def test_resolve_keeps_integer_powers_arrays(self):
        """Run op by op, an index of a vector is a concrete 0-d array, for which jnp.power
        refuses a negative exponent that it computes for an array: resolve slices one wide."""
        from torch_cases import Case

        case = Case("Pow i64 negative", "Pow", [np.array([2, 3, 1, -1]), np.array([2, 3, 0, 3])])
        case.inputs["x1"] = np.array([2, -3, 0, 3])
        for seed in range(4):
            prog, _ = self.outputs(case, [{"kind": "resolve", "seed": seed}], jit=False)
            self.assertIn("[r0:r0 + 1]", prog.source)

    def test_sparse_operands_keep_the_results(self):
        cases = [c for c in all_cases() if c.op in ("Einsum", "MatMul")]
        self.assertGreater(self.check_kind("sparse", cases, range(4)), 15)

    def test_storages_jax_refuses_are_drawn_again(self):
        """A storage JAX's sparse rules refuse at trace time (here with a ValueError, for seed
        19) is drawn again; the mutation is applied or unsupported, never an error."""
        from torch_cases import Case

        case = Case("Einsum refused storage", "Einsum",
                    [np.random.default_rng(1).random((3, 1, 1)),
                     np.random.default_rng(2).random((4, 1))], equation="dae,ce->adc")
        self.assertGreater(self.check_kind("sparse", [case], range(20)), 14)

    def test_jax_forms_in_the_source(self):
        case = chain_cases(1)[0]
        sources = ""
        for kind in ("resolve", "mutate-recover", "tcb"):
            for seed in range(6):
                sources += self.outputs(case, [{"kind": kind, "seed": seed}])[0].source
        for snippet in (".at[", "jnp.zeros(", "lax.cond("):
            self.assertIn(snippet, sources)
        einsum = next(c for c in all_cases() if c.label == "Einsum matmul")
        source = self.outputs(einsum, [{"kind": "sparse", "seed": 1}])[0].source
        self.assertIn("jsparse.BCOO.fromdense(", source)
        self.assertIn("jsparse.sparsify(lambda s0", source)

    def test_protocol(self):
        case = next(c for c in all_cases() if c.label == "Einsum matmul")
        client = WorkerClient(WORKER, OPTIONS)
        try:
            inputs = [case.inputs[n] for n in case.inputs]
            header, blobs = client.request(
                {"type": "run", "id": 1, "model": 0, "outputs": case.outputs, "program": True,
                 "mutations": [{"kind": "sparse", "seed": 3}],
                 "inputs": [{"name": n, "dtype": "f32", "shape": list(v.shape), "blob": k + 1}
                            for k, (n, v) in enumerate(case.inputs.items())]},
                [case.model] + [v.tobytes() for v in inputs])
            self.assertEqual(header["type"], "result", header)
            self.assertIn("BCOO", header["program"])
            # JAX's sparse rules lack a diagonal: its NotImplementedError is a limit, no bug.
            diagonal = next(c for c in all_cases() if c.label == "Einsum diagonal")
            x = diagonal.inputs[next(iter(diagonal.inputs))]
            header, _ = client.request(
                {"type": "run", "id": 2, "model": 0, "outputs": diagonal.outputs,
                 "mutations": [{"kind": "sparse", "seed": 0}],
                 "inputs": [{"name": next(iter(diagonal.inputs)), "dtype": "f32",
                             "shape": list(x.shape), "blob": 1}]},
                [diagonal.model, x.tobytes()])
            self.assertEqual((header["type"], header["kind"]), ("error", "unsupported"), header)
        finally:
            self.assertEqual(client.close(), 0)


class OptionsTest(unittest.TestCase):
    def test_unknown_option_is_an_error_reply(self):
        client = WorkerClient(WORKER, {"speed": "ludicrous"})
        self.assertEqual(client.hello["type"], "error")
        self.assertIn("speed", client.hello["message"])
        self.assertEqual(client.close(), 0)


if __name__ == "__main__":
    unittest.main()
