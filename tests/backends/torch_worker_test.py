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
from samples import (exported_op_cases, exported_samples, random_inputs,  # noqa: E402
                     registry_onnx_types)
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
CASES = all_cases() + (exported_op_cases(RETORT) if RETORT else [])
CHAINS = chain_cases()
# Cases a torch 1.13 CPU build has no kernel for: reported as unsupported.
UNSUPPORTED_CASES = {"Sqrt f16"}
# Valid ONNX that torch itself refuses, in eager mode too (only a well-formed error is asked):
# max_pool2d of a zero-size spatial dim; a negative pad that crops more than the axis holds.
TORCH_REFUSES = {"MaxPool empty dilated", "Pad constant crop past the data"}
# Where the TensorExpr fuser (fuser=1) differs from ONNX, findings of Retort rather than faults
# of the worker (only a well-formed answer is asked): its round takes halves away from zero, where
# torch.round and ONNX round them to even.
FUSER_DIFFERENCES = {"QuantizeLinear ties"}

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
                    if case.label in TORCH_REFUSES:
                        header, _ = client.run(case.model, case.inputs, case.outputs)
                        self.assertEqual(header["type"], "error", header)
                        continue
                    if options.get("fuser") == "1" and case.label in FUSER_DIFFERENCES:
                        header, _ = client.run(case.model, case.inputs, case.outputs)
                        self.assertEqual(header["type"], "result", header.get("message"))
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


FN = "retort.functions"


def functions_model(names=("f", "w_forward", "w_returns", "w_closure")):
    """HirFuzz's calls as Retort exports them: body f(a, b) = relu(a + b) * 2 (its constant a
    Constant node inside), wrapped forward, then returns, then closure; the graph calls the
    outermost wrapper twice, on (x, y) and (y, x)."""
    body, fwd, ret, clo = names
    two = onnx.numpy_helper.from_array(np.array(2, np.float32), "k")
    f = helper.make_function(FN, body, ["a", "b"], ["r"], [
        helper.make_node("Constant", [], ["two"], value=two),
        helper.make_node("Add", ["a", "b"], ["s"], name="add"),
        helper.make_node("Relu", ["s"], ["t"], name="relu"),
        helper.make_node("Mul", ["t", "two"], ["r"], name="mul")],
        [helper.make_opsetid("", 17)])
    wrappers = []
    for name, target, form in ((fwd, body, "forward"), (ret, fwd, "returns"),
                               (clo, ret, "closure")):
        w = helper.make_function(FN, name, ["p0", "p1"], ["r0"],
                                 [helper.make_node(target, ["p0", "p1"], ["r0"], domain=FN)],
                                 [helper.make_opsetid("", 17), helper.make_opsetid(FN, 1)])
        w.doc_string = f"retort:{form}"
        wrappers.append(w)
    nodes = [helper.make_node(clo, ["x", "y"], ["u"], name="call_1", domain=FN),
             helper.make_node(clo, ["y", "x"], ["v"], name="call_2", domain=FN),
             helper.make_node("Sub", ["u", "v"], ["z"], name="sub")]
    x = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)
    inputs = {"x": x, "y": (x[::-1] * 0.5).copy()}
    graph = helper.make_graph(nodes, "calls", [value_info(k, v) for k, v in inputs.items()],
                              [helper.make_tensor_value_info(o, TensorProto.FLOAT, [2, 3])
                               for o in ("u", "z")])
    model = helper.make_model(graph, functions=[f] + wrappers,
                              opset_imports=[helper.make_opsetid("", 17),
                                             helper.make_opsetid(FN, 1)])
    model.ir_version = 8
    u = np.maximum(inputs["x"] + inputs["y"], 0) * 2
    expected = {"u": u, "z": u - np.maximum(inputs["y"] + inputs["x"], 0) * 2}
    return model, inputs, expected


class FunctionsTest(unittest.TestCase):
    """Local functions (HirFuzz's calls) become nested Python functions of the forms the
    wrappers' doc strings name, compute what the inlined graph computes, and never put a
    function's name from the model into the source."""

    def test_program_keeps_the_call_chain(self):
        from retort_backends.torch_program import torch_program

        model, inputs, expected = functions_model()
        parsed = Model(model.SerializeToString())
        self.assertEqual([s.function for s in parsed.sites], ["w_closure", "w_closure"])
        self.assertEqual(parsed.function_form("w_returns"), ("returns", "w_forward"))
        self.assertEqual(parsed.function_form("f"), ("body", None))
        prog, module = torch_program(parsed, ["u", "z"])
        src = prog.source
        # closure w_closure (f0) defines w_returns (f1) inside itself; w_returns returns
        # w_forward (f2), which calls the body f (f3).
        self.assertIn("        def f0(p0, p1):\n", src)
        self.assertIn("            def f3(p0, p1):\n", src)
        self.assertIn("            def f1():\n                return f2\n", src)
        self.assertIn("            return f1()(p0, p1)", src)
        self.assertEqual(src.count("def f0("), 1)  # defined once, called twice
        self.assertEqual(src.count("= f0("), 2)
        got = module(*[__import__("torch").from_numpy(inputs[n]) for n in parsed.input_names])
        for name, value in zip(["u", "z"], got):
            assert_close(self, value.numpy(), expected[name], name)

    def test_modes(self):
        model, inputs, expected = functions_model()
        for mode, runs in (("eager", True), ("trace", True), ("script", False)):
            with self.subTest(mode=mode):
                client = WorkerClient(WORKER, {"mode": mode})
                try:
                    if runs:
                        check_run(self, client, model.SerializeToString(), inputs, expected,
                                  mode)
                    else:  # TorchScript cannot compile nested functions
                        header, _ = client.run(model.SerializeToString(), inputs, list(expected))
                        self.assertEqual(header["kind"], "unsupported", header)
                finally:
                    self.assertEqual(client.close(), 0)

    def test_hostile_function_names_stay_out_of_the_source(self):
        from retort_backends.torch_program import torch_program

        names = ("f'); import os #", "w\nraise SystemExit", "__import__('os')", "x0")
        model, inputs, expected = functions_model(names)
        parsed = Model(model.SerializeToString())
        prog, module = torch_program(parsed, ["u", "z"])
        for name in names[:3]:
            self.assertNotIn(name, prog.source)
        client = WorkerClient(WORKER, {"mode": "eager"})
        try:
            check_run(self, client, model.SerializeToString(), inputs, expected, "hostile")
        finally:
            self.assertEqual(client.close(), 0)


class ProgramMutationsTest(unittest.TestCase):
    """TorchProbe's mutations (retort_backends/probe.py): each kind, alone and composed with a
    TCB, keeps what the program computes on every op case and chain; over the protocol the
    mutated program comes back when asked."""

    def outputs(self, model, outputs, args, mutations=()):
        import torch

        from retort_backends.torch_program import torch_program

        prog, module = torch_program(model, outputs, mutations, args)
        with torch.no_grad():
            return prog, [t.numpy() for t in module(*[torch.from_numpy(a) for a in args])]

    def test_each_kind_keeps_the_results(self):
        from retort_backends import probe
        from retort_backends.errors import Unsupported

        applied = {k: 0 for k in probe.KINDS}
        for case in CHAINS + CASES:
            if case.label in UNSUPPORTED_CASES | TORCH_REFUSES:
                continue
            model = Model(case.model)
            args = [np.asarray(case.inputs[n]) for n in model.input_names]
            _, want = self.outputs(model, case.outputs, args)
            for kind in probe.KINDS:
                for seed in range(2):
                    mutations = [{"kind": kind, "seed": seed}, {"kind": "tcb", "seed": seed + 5}]
                    try:
                        prog, got = self.outputs(model, case.outputs, args, mutations)
                    except Unsupported:
                        continue
                    applied[kind] += 1
                    for name, a, b in zip(case.outputs, want, got):
                        assert_close(self, b, a, f"{case.label} {mutations}: {name}\n"
                                                 f"{prog.source}")
        for kind, n in applied.items():
            self.assertGreater(n, 20, kind)

    def test_random_compositions_keep_the_results(self):
        import random

        from retort_backends import probe
        from retort_backends.errors import Unsupported

        applied = 0
        for case in CHAINS + CASES[::7]:
            if case.label in UNSUPPORTED_CASES:
                continue
            model = Model(case.model)
            args = [np.asarray(case.inputs[n]) for n in model.input_names]
            _, want = self.outputs(model, case.outputs, args)
            for seed in range(6):
                rng = random.Random(seed)
                mutations = [{"kind": rng.choice(probe.KINDS), "seed": rng.randrange(1 << 62)}
                             for _ in range(rng.randint(2, 4))]
                try:
                    prog, got = self.outputs(model, case.outputs, args, mutations)
                except Unsupported:
                    continue
                applied += 1
                for name, a, b in zip(case.outputs, want, got):
                    assert_close(self, b, a, f"{case.label} {mutations}: {name}\n{prog.source}")
        self.assertGreater(applied, 30)

    def test_tcb_conditions_hold_for_every_dtype(self):
        """A synthesized condition is true on the profiled values, also where torch would
        compare in the tensor's dtype (u8 0 > -1 is False in u8)."""
        import random

        import torch

        from retort_backends import probe

        values = {"u8": torch.tensor([[0, 3], [250, 7]], dtype=torch.uint8),
                  "i8": torch.tensor([-128, 5, 127], dtype=torch.int8),
                  "f16": torch.tensor([[0.25, -65504.0]], dtype=torch.float16),
                  "f32": torch.tensor(3.5), "b": torch.tensor([True, False])}
        for seed in range(200):
            rng = random.Random(seed)
            names = rng.sample(sorted(values), 2)
            picks = [p for n in names
                     for p in probe.scalars(n, values[n].numpy(), rng, probe.Torch)]
            exact = [p for p in picks if p[2]]
            a = rng.choice(picks)
            b = rng.choice(exact) if a[2] and rng.random() < 0.5 else None
            cond = probe.condition((a, b if b is not None and b[0] != a[0] else None), rng)
            self.assertTrue(eval(cond, {}, dict(values)), cond)

    def test_mutations_compose_and_replay(self):
        model, inputs = chain_model()
        parsed = Model(model.SerializeToString())
        args = [inputs[n] for n in parsed.input_names]
        from retort_backends.errors import Unsupported

        kinds = ("resolve", "mutate-recover", "functionalize", "tcb")
        for seed in range(20):  # the first seed whose four draws all apply
            mutations = [{"kind": k, "seed": seed} for k in kinds]
            try:
                prog, got = self.outputs(parsed, ["t"], args, mutations)
                break
            except Unsupported:
                continue
        else:
            self.fail("no seed applies all four kinds to the chain")
        for snippet in ("for r0 in range(", ".clone()", "def g0(", "if "):
            self.assertIn(snippet, prog.source)
        again, _ = self.outputs(parsed, ["t"], args, mutations)
        self.assertEqual(again.source.split("\n", 1)[1], prog.source.split("\n", 1)[1])
        _, want = self.outputs(parsed, ["t"], args)
        assert_close(self, got[0], want[0], "composed")

    def test_protocol(self):
        model, inputs = chain_model()
        client = WorkerClient(WORKER, {"mode": "eager"})
        try:
            header, blobs = client.request(
                {"type": "run", "id": 1, "model": 0, "outputs": ["t"], "program": True,
                 "mutations": [{"kind": "resolve", "seed": 2}],
                 "inputs": [{"name": n, "dtype": "f32", "shape": list(v.shape), "blob": k + 1}
                            for k, (n, v) in enumerate(inputs.items())]},
                [model.SerializeToString()] + [v.tobytes() for v in inputs.values()])
            self.assertEqual(header["type"], "result", header)
            self.assertIn("for r0 in range(", header["program"])
            header, _ = client.run(model.SerializeToString(), inputs, ["t"])
            self.assertNotIn("program", header)
            bad = single_node_model("Relu", {"x": inputs["x"]})
            header, _ = client.request(
                {"type": "run", "id": 2, "model": 0, "outputs": ["y"],
                 "mutations": [{"kind": "sideways", "seed": 1}],
                 "inputs": [{"name": "x", "dtype": "f32", "shape": [3, 4], "blob": 1}]},
                [bad, inputs["x"].tobytes()])
            self.assertEqual((header["type"], header["kind"]), ("error", "unsupported"), header)
            # One statement and no later reader: nothing to mutate and recover.
            header, _ = client.request(
                {"type": "run", "id": 3, "model": 0, "outputs": ["y"],
                 "mutations": [{"kind": "mutate-recover", "seed": 1}],
                 "inputs": [{"name": "x", "dtype": "f32", "shape": [3, 4], "blob": 1}]},
                [bad, inputs["x"].tobytes()])
            self.assertEqual(header["kind"], "unsupported", header)
            self.assertIn("mutate-recover", header["message"])
        finally:
            self.assertEqual(client.close(), 0)


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
