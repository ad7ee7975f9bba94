#!/usr/bin/python3
"""Tests of scripts/backends/torch_worker.py, driven over the worker protocol.

Run with Debian's interpreter: /usr/bin/python3 torch_worker_test.py [--retort BIN] [Class...]
The Retort binary (for the op coverage and the exported samples) is optional; without it those
tests are skipped.
"""

import os
import subprocess
import sys
import unittest

import numpy as np
import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKER_DIR = os.path.join(ROOT, "scripts", "backends")
sys.path[:0] = [HERE, WORKER_DIR]

from retort_backends import torch_ops  # noqa: E402
from retort_backends.model import Model  # noqa: E402
from onnx_numpy import evaluate  # noqa: E402
from samples import exported_samples, random_inputs, registry_onnx_types  # noqa: E402
from torch_cases import all_cases, chain_cases, value_info  # noqa: E402
from worker_client import WorkerClient  # noqa: E402
from worker_checks import HostileNames, Protocol  # noqa: E402

WORKER = [sys.executable, os.path.join(WORKER_DIR, "torch_worker.py")]


def take_option(argv, name):
    """Removes `name VALUE` from argv and returns VALUE (None when absent)."""
    if name not in argv:
        return None
    k = argv.index(name)
    value = argv[k + 1]
    del argv[k:k + 2]
    return value


RETORT = take_option(sys.argv, "--retort")
CASES = all_cases()
CHAINS = chain_cases()
# Cases a torch 1.13 CPU build has no kernel for: reported as unsupported.
UNSUPPORTED_CASES = {"Sqrt f16"}

CONFIGS = {
    "eager": {"mode": "eager"},
    "trace": {"mode": "trace"},
    "script": {"mode": "script"},
    "trace_freeze": {"mode": "trace", "freeze": "1"},
    "script_freeze": {"mode": "script", "freeze": "1"},
    "trace_fuser": {"mode": "trace", "fuser": "1"},
    "script_fuser": {"mode": "script", "fuser": "1"},
    "script_freeze_fuser": {"mode": "script", "freeze": "1", "fuser": "1"},
}


def assert_close(test, got, expected, label):
    test.assertEqual(got.dtype, expected.dtype, label)
    test.assertEqual(got.shape, expected.shape, label)
    if expected.dtype.kind == "f":
        tol = 1e-2 if expected.dtype == np.float16 else 1e-4
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, equal_nan=True,
                                   err_msg=label)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=label)


def check_run(test, client, model, inputs, expected, label):
    header, arrays = client.run(model, inputs, list(expected))
    test.assertEqual(header["type"], "result", f"{label}: {header.get('message')}")
    test.assertEqual([o["name"] for o in header["outputs"]], list(expected))
    for name, value in expected.items():
        assert_close(test, arrays[name], value, f"{label}: {name}")


class ModesTest(unittest.TestCase):
    """Every op case and every exported sample in every mode, against the numpy evaluation of
    the ONNX model. One worker per mode (starting torch is slow)."""

    @classmethod
    def setUpClass(cls):
        cls.samples = exported_samples(RETORT) if RETORT else {}

    def run_config(self, options):
        client = WorkerClient(WORKER, options)
        try:
            self.run_samples(client)
            for case in CASES + CHAINS:
                with self.subTest(case=case.label):
                    if case.label in UNSUPPORTED_CASES:
                        header, _ = client.run(case.model, case.inputs, case.outputs)
                        self.assertEqual(header["type"], "error")
                        self.assertEqual(header["kind"], "unsupported", header["message"])
                        continue
                    check_run(self, client, case.model, case.inputs, case.expected, case.label)
        finally:
            self.assertEqual(client.close(), 0)

    def run_samples(self, client):
        if RETORT:
            self.assertGreaterEqual(len(self.samples), 7 + 2 * 5)
        for name, model in self.samples.items():
            with self.subTest(sample=name):
                inputs = random_inputs(model, seed=len(name))
                values = evaluate(model, inputs)
                expected = {o.name: values[o.name] for o in model.graph.output}
                check_run(self, client, model.SerializeToString(), inputs, expected, name)


def add_config_tests():
    for name, options in CONFIGS.items():
        setattr(ModesTest, f"test_{name}",
                lambda self, options=options: self.run_config(options))


add_config_tests()


def chain_model():
    """(x * y + 1) -> relu -> sigmoid -> tanh: a chain the TensorExpr fuser fuses."""
    one = onnx.numpy_helper.from_array(np.ones(4, np.float32), "one")
    nodes = [helper.make_node("Mul", ["x", "y"], ["m"], name="mul"),
             helper.make_node("Add", ["m", "one"], ["a"], name="add"),
             helper.make_node("Relu", ["a"], ["r"], name="relu"),
             helper.make_node("Sigmoid", ["r"], ["s"], name="sigmoid"),
             helper.make_node("Tanh", ["s"], ["t"], name="tanh")]
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    inputs = {"x": x, "y": x[::-1].copy()}
    graph = helper.make_graph(nodes, "chain", [value_info(k, v) for k, v in inputs.items()],
                              [helper.make_tensor_value_info("t", TensorProto.FLOAT, [3, 4])],
                              [one])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model, inputs


class FuserTest(unittest.TestCase):
    """In process: with fuser=1 the JIT modes really run a TensorExpr fusion group."""

    def optimized_graph(self, options):
        import torch

        import torch_worker

        model, inputs = chain_model()
        family = torch_worker.TorchScript(dict({"freeze": "0", "fuser": "0"}, **options))
        parsed = Model(model.SerializeToString())
        entry = family.convert(parsed, ["t"])
        args = [inputs[n] for n in parsed.input_names]
        family.build(entry, args)
        for _ in range(torch_worker.JIT_RUNS):
            (result,) = entry.fn(args)
        expected = evaluate(model, inputs)["t"]
        np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-6)
        return str(torch.jit.last_executed_optimized_graph())

    def test_fuser_on_fuses(self):
        for mode in ("trace", "script"):
            for freeze in ("0", "1"):
                with self.subTest(mode=mode, freeze=freeze):
                    graph = self.optimized_graph({"mode": mode, "freeze": freeze, "fuser": "1"})
                    self.assertIn("TensorExprGroup", graph)

    def test_fuser_off_does_not(self):
        graph = self.optimized_graph({"mode": "script", "fuser": "0"})
        self.assertNotIn("TensorExprGroup", graph)


def single_node_model(op, inputs, domain="", **attrs):
    node = helper.make_node(op, list(inputs), ["y"], name="n0", domain=domain, **attrs)
    graph = helper.make_graph([node], "g", [value_info(k, v) for k, v in inputs.items()],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    opsets = [helper.make_opsetid("", 17)] + ([helper.make_opsetid(domain, 1)] if domain else [])
    return helper.make_model(graph, opset_imports=opsets).SerializeToString()


class ProtocolTest(unittest.TestCase):
    """One worker serves every test: each failure must leave it able to serve the next run."""

    @classmethod
    def setUpClass(cls):
        cls.client = WorkerClient(WORKER, {"mode": "script"})
        cls.x = np.arange(6, dtype=np.float32).reshape(2, 3)
        cls.good = single_node_model("Relu", {"x": cls.x})

    @classmethod
    def tearDownClass(cls):
        assert cls.client.close() == 0

    def assert_good_run_works(self):
        check_run(self, self.client, self.good, {"x": self.x}, {"y": self.x}, "good run")

    def assert_error(self, header, kind, text):
        self.assertEqual(header["type"], "error")
        self.assertEqual(header["kind"], kind, header["message"])
        self.assertIn(text, header["message"])

    def test_hello(self):
        import torch

        self.assertEqual(self.client.hello["name"], "torch")
        self.assertEqual(self.client.hello["version"], torch.__version__)
        self.assertEqual(self.client.hello["options"], {"mode": "script"})

    def test_unknown_op_is_unsupported(self):
        model = single_node_model("Det", {"x": np.eye(3, dtype=np.float32)})
        header, _ = self.client.run(model, {"x": np.eye(3, dtype=np.float32)}, ["y"])
        self.assert_error(header, "unsupported", "Det")
        self.assert_good_run_works()

    def test_other_domain_is_unsupported(self):
        model = single_node_model("Relu", {"x": self.x}, domain="com.example")
        header, _ = self.client.run(model, {"x": self.x}, ["y"])
        self.assert_error(header, "unsupported", "com.example")
        self.assert_good_run_works()

    def test_missing_kernel_is_unsupported(self):
        x = np.ones((2, 3), np.float16)
        model = single_node_model("Sqrt", {"x": x})
        header, _ = self.client.run(model, {"x": x}, ["y"])
        self.assert_error(header, "unsupported", "node 'n0' (Sqrt)")
        self.assert_good_run_works()

    def test_bad_model_bytes_is_an_error(self):
        header, _ = self.client.run(b"not a model", {"x": self.x}, ["y"])
        self.assertEqual(header["type"], "error")
        self.assertEqual(header["kind"], "error")
        self.assert_good_run_works()

    def test_missing_input_is_an_error(self):
        header, _ = self.client.run(self.good, {}, ["y"])
        self.assert_error(header, "error", "'x' is not given")
        self.assert_good_run_works()

    def test_input_unlike_the_model_is_an_error(self):
        header, _ = self.client.run(self.good, {"x": self.x.T.copy()}, ["y"])
        self.assert_error(header, "error", "input 'x' is f32[3, 2], the model declares f32[2, 3]")
        self.assert_good_run_works()

    def test_runtime_failure_is_an_error(self):
        data, indices = np.ones((3, 2), np.float32), np.array([1, 7], np.int64)
        model = single_node_model("Gather", {"data": data, "indices": indices})
        header, _ = self.client.run(model, {"data": data, "indices": indices}, ["y"])
        self.assert_error(header, "error", "node 'n0' (Gather)")
        self.assert_good_run_works()

    def test_unknown_request_is_an_error(self):
        header, _ = self.client.request({"type": "dance", "id": 3})
        self.assert_error(header, "error", "dance")
        self.assert_good_run_works()

    def test_compiled_module_is_reused(self):
        self.assert_good_run_works()
        self.assert_good_run_works()


class SharedChecksTest(HostileNames, Protocol, unittest.TestCase):
    """What every worker must pass (tests/backends/worker_checks.py), in script and trace mode."""

    options = {"mode": "script"}

    @classmethod
    def setUpClass(cls):
        cls.client = WorkerClient(WORKER, cls.options)

    @classmethod
    def tearDownClass(cls):
        assert cls.client.close() == 0

    def setUp(self):
        HostileNames.setUp(self)


class SharedChecksTraceTest(SharedChecksTest):
    options = {"mode": "trace", "freeze": "1"}


class ModeOptionsTest(unittest.TestCase):
    def test_freeze_in_eager_mode_is_unsupported(self):
        client = WorkerClient(WORKER, {"mode": "eager", "freeze": "1"})
        x = np.ones((2, 3), np.float32)
        header, _ = client.run(single_node_model("Relu", {"x": x}), {"x": x}, ["y"])
        self.assertEqual(header["kind"], "unsupported")
        self.assertEqual(client.close(), 0)

    def test_bad_mode_is_an_error_reply(self):
        client = WorkerClient(WORKER, {"mode": "fast"})
        self.assertEqual(client.hello["type"], "error")
        self.assertIn("fast", client.hello["message"])
        self.assertEqual(client.close(), 0)

    def test_end_of_input_exits_cleanly(self):
        proc = subprocess.run(WORKER, input=b"", capture_output=True, timeout=60)
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(proc.stdout, b"")


@unittest.skipUnless(RETORT, "needs --retort BIN")
class RegistryCoverageTest(unittest.TestCase):
    """Every op of Retort's registry maps to torch and has a case, or is listed unsupported."""

    def test_every_op_is_covered(self):
        types = registry_onnx_types(RETORT)
        self.assertGreater(len(types), 80)
        tested = {case.op for case in CASES}
        for name, onnx_type in types.items():
            with self.subTest(op=name):
                if onnx_type in torch_ops.UNSUPPORTED_OPS:
                    continue
                self.assertIn(onnx_type, torch_ops.CONVERTERS)
                self.assertIn(onnx_type, tested, f"no test case for {onnx_type}")


if __name__ == "__main__":
    unittest.main()
