"""Checks every worker must pass, as unittest mixins over a started WorkerClient.

A test class mixes one in and sets `client` (a started worker) in setUpClass.
"""

import os
import tempfile

import numpy as np
from onnx import TensorProto, helper

import hostile
from torch_cases import value_info


def assert_close(test, got, expected, label, tol=None):
    test.assertEqual(got.dtype, expected.dtype, label)
    test.assertEqual(got.shape, expected.shape, label)
    if expected.dtype.kind == "f":
        tol = tol or (1e-2 if expected.dtype == np.float16 else 1e-4)
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, equal_nan=True,
                                   err_msg=label)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=label)


def check_run(test, client, model, inputs, expected, label, tol=None, **fields):
    header, arrays = client.run(model, inputs, list(expected), **fields)
    test.assertEqual(header["type"], "result", f"{label}: {header.get('message')}")
    test.assertEqual([o["name"] for o in header["outputs"]], list(expected))
    for name, value in expected.items():
        assert_close(test, arrays[name], value, f"{label}: {name}", tol)
    return header


def one_line_printable(test, text):
    test.assertTrue(all(ch == "\t" or ch.isprintable() for ch in text.replace("\n", "")), text)
    test.assertNotIn("\x1b", text)
    test.assertNotIn("\u2028", text)


class HostileNames:
    """Names and attribute strings from the model never run as code."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.canary = os.path.join(self.tmp.name, "pwned")

    def tearDown(self):
        self.assertFalse(os.path.exists(self.canary), "a model's name ran as code")
        self.tmp.cleanup()

    def test_hostile_names_are_data(self):
        names = hostile.payloads(self.canary)
        for k in range(len(names)):
            rotated = names[k:] + names[:k]
            model, inputs, expected = hostile.renamed_chain(rotated)
            with self.subTest(first=rotated[0]):
                check_run(self, self.client, model, inputs, expected, "hostile names")

    def test_hostile_einsum_equation_never_runs(self):
        for equation in hostile.equations(self.canary):
            model, inputs = hostile.hostile_equation(equation)
            header, _ = self.client.run(model, inputs, ["y"])
            self.assertEqual(header["type"], "error", "an invalid equation ran")

    def test_hostile_node_name_in_an_error_is_escaped(self):
        for name in hostile.payloads(self.canary):
            model, inputs = hostile.unknown_op(name)
            header, _ = self.client.run(model, inputs, ["y"])
            self.assertEqual(header["type"], "error")
            self.assertEqual(header["kind"], "unsupported", header["message"])
            self.assertIn("NoSuchOp", header["message"])
            one_line_printable(self, header["message"])


def model_of(nodes, inputs, outputs):
    graph = helper.make_graph(nodes, "g", [value_info(k, v) for k, v in inputs.items()],
                              outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


class Protocol:
    """Answers to what is not a plain good run; each leaves the worker serving."""

    # Compilations of a probe of a good graph and a failing one: the two merged, then each
    # alone. A worker whose compiler's error names the failing graph (IREE's) sets 2: the
    # batch, then the good graph again.
    MIXED_PROBE_COMPILATIONS = 3

    def good_run(self):
        x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
        node = helper.make_node("Relu", ["x"], ["y"], name="n0")
        model = model_of([node], {"x": x},
                         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
        return check_run(self, self.client, model.SerializeToString(), {"x": x},
                         {"y": np.maximum(x, 0)}, "good run")

    def assert_error(self, header, kind, text=None):
        self.assertEqual(header["type"], "error", header)
        self.assertEqual(header["kind"], kind, header["message"])
        if text:
            self.assertIn(text, header["message"])
        self.good_run()

    def test_times_are_reported(self):
        header = self.good_run()
        self.assertGreater(header["compile_ms"], 0)
        self.assertGreaterEqual(header["run_ms"], 0)
        again = self.good_run()
        self.assertTrue(again["cached"])
        self.assertEqual(again["compile_ms"], header["compile_ms"])

    def test_unsupported_output_dtype(self):
        """An output of a dtype Retort has no form for: float8 (ONNX code 17, named by number
        for Debian's onnx 1.12, which predates it); bf16 is one it has."""
        x = np.ones((2, 2), np.float32)
        float8 = 17
        node = helper.make_node("Cast", ["x"], ["y"], name="to_f8", to=float8)
        model = model_of([node], {"x": x}, [helper.make_tensor_value_info("y", float8, [2, 2])])
        header, _ = self.client.run(model.SerializeToString(), {"x": x}, ["y"])
        self.assert_error(header, "unsupported", "dtype")

    def test_unsupported_input_dtype(self):
        header, _ = self.client.request({"type": "run", "id": 99, "model": 0, "outputs": ["y"],
                                         "inputs": [{"name": "x", "dtype": "f8e4m3",
                                                     "shape": [1], "blob": 1}]},
                                        [b"model", b"\0"])
        self.assert_error(header, "unsupported", "f8e4m3")

    def test_compile_error_is_an_error(self):
        """MatMul of f32[2,3] by f32[4,5]: types declared by hand, no framework can build it."""
        a, b = np.ones((2, 3), np.float32), np.ones((4, 5), np.float32)
        node = helper.make_node("MatMul", ["a", "b"], ["y"], name="bad_matmul")
        model = model_of([node], {"a": a, "b": b},
                         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])])
        header, _ = self.client.run(model.SerializeToString(), {"a": a, "b": b}, ["y"])
        self.assert_error(header, "error")

    def test_bad_model_bytes_is_an_error(self):
        header, _ = self.client.run(b"not a model", {}, ["y"])
        self.assert_error(header, "error")

    def test_probe_batches_graphs_and_answers_each(self):
        """A probe request (the support probe's batches): graphs that all run cost one
        compilation of them merged; a failing one is answered as its own run, or named by
        the error of the batch."""
        x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
        y = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])]
        relu = model_of([helper.make_node("Relu", ["x"], ["y"], name="n0")], {"x": x}, y)
        neg = model_of([helper.make_node("Neg", ["x"], ["y"], name="n0")], {"x": x}, y)
        a, b = np.ones((2, 3), np.float32), np.ones((4, 5), np.float32)
        bad = model_of([helper.make_node("MatMul", ["a", "b"], ["y"], name="n0")],
                       {"a": a, "b": b},
                       [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])])
        self.assertTrue(self.client.hello.get("probe"), self.client.hello)
        good = [(relu, {"x": x}), (neg, {"x": x})]
        header = self.client.probe([(m.SerializeToString(), ins, ["y"]) for m, ins in good])
        self.assertEqual(header["results"], [{"status": "ok"}] * 2, header)
        self.assertEqual(header["compilations"], 1, header)
        mixed = [(relu, {"x": x}), (bad, {"a": a, "b": b})]
        header = self.client.probe([(m.SerializeToString(), ins, ["y"]) for m, ins in mixed])
        self.assertEqual([r["status"] for r in header["results"]], ["ok", "error"], header)
        self.assertEqual(header["compilations"], self.MIXED_PROBE_COMPILATIONS, header)
        self.good_run()

    def test_unknown_request_is_an_error(self):
        header, _ = self.client.request({"type": "dance", "id": 3})
        self.assert_error(header, "error", "dance")
