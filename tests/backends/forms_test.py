"""Tests of the program forms of the generated torch program (retort_backends/torch_forms.py).

Run with the inductor environment's Python (run_family_test.py finds it):
  <venv>/bin/python forms_test.py
Every form keeps what the program computes, run eagerly on every op case and chain; over the
protocol one inductor worker process shows that the forms reach torch.compile (the inputs'
strides, the in-place op in the program, the dynamic flag) and that the standalone program a
reproducer runs (model_a.py) carries the same forms.
"""

import os
import sys
import unittest

import numpy as np
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKER_DIR = os.path.join(ROOT, "scripts", "backends")
sys.path[:0] = [HERE, WORKER_DIR]

import torch  # noqa: E402

from retort_backends.model import Model  # noqa: E402
from retort_backends.torch_forms import FORMS  # noqa: E402
from retort_backends.torch_program import torch_program  # noqa: E402
from torch_cases import all_cases, chain_cases  # noqa: E402
from worker_checks import assert_close, model_of  # noqa: E402
from worker_client import WorkerClient  # noqa: E402

WORKER = [sys.executable, os.path.join(WORKER_DIR, "inductor_worker.py")]


def run_eagerly(model, outputs, args, forms=()):
    prog, module = torch_program(model, outputs, list(forms), args)
    with torch.no_grad():
        tensors = prog.namespace["arguments"](*[torch.from_numpy(a) for a in args])
        return prog, [t.numpy() for t in module(*tensors)]


class FormsKeepTheResults(unittest.TestCase):
    def test_each_form_on_every_case(self):
        changed = {kind: 0 for kind in FORMS}
        cases = [(c.label, c.model, c.inputs, c.outputs) for c in chain_cases() + all_cases()]
        add_bytes, add_inputs, add_expected = add_model()
        cases.append(("add", add_bytes, add_inputs, list(add_expected)))
        for label, model_bytes, inputs, outputs in cases:
            model = Model(model_bytes)
            args = [np.asarray(inputs[n]) for n in model.input_names]
            try:
                plain, want = run_eagerly(model, outputs, args)
            except Exception:  # an op this torch has no CPU kernel for
                continue
            for kind in FORMS:
                for seed in range(2):
                    forms = [{"kind": kind, "seed": seed}]
                    prog, got = run_eagerly(model, outputs, args, forms)
                    changed[kind] += (prog.source.split("# program forms")[0]
                                      != plain.source.split("# program forms")[0]
                                      or "retort_" in prog.source or "True" in prog.source)
                    for name, a, b in zip(outputs, want, got):
                        assert_close(self, b, a, f"{label} {kind}: {name}\n{prog.source}")
        for kind, n in changed.items():
            self.assertGreater(n, 0, f"{kind} applied to no case")


def add_model():
    """y = relu(x0 + x1) * 0.5 on 4-d f32 inputs, 0.5 a one-element constant."""
    x = np.random.default_rng(1).standard_normal((2, 3, 4, 5)).astype(np.float32)
    inputs = {"a": x, "b": x[::-1].copy()}
    half = numpy_helper.from_array(np.array([0.5], np.float32), "half")
    nodes = [helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Relu", ["s"], ["r"]),
             helper.make_node("Mul", ["r", "half"], ["y"])]
    out = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4, 5])]
    model = model_of(nodes, inputs, out)
    model.graph.initializer.append(half)
    expected = {"y": np.maximum(inputs["a"] + inputs["b"], 0) * np.float32(0.5)}
    return model.SerializeToString(), inputs, expected


def program_arguments(source, inputs, consts=None):
    """The scope of a program's source and the tensors its arguments() passes for the inputs."""
    scope = {"const": lambda name: consts[name]}
    exec(compile(source, "<program>", "exec"), scope)
    return scope, scope["arguments"](*[torch.from_numpy(v) for v in inputs.values()])


class WorkerForms(unittest.TestCase):
    """One worker for every request, in torch.compile's aot_eager mode: dynamo and AOTAutograd
    see the forms as Inductor does, without a C++ compile per case (CI's time)."""

    @classmethod
    def setUpClass(cls):
        cls.client = WorkerClient(WORKER, {"mode": "aot_eager"})
        cls.model, cls.inputs, cls.expected = add_model()

    @classmethod
    def tearDownClass(cls):
        cls.client.close()

    def run_forms(self, forms):
        header, arrays = self.client.run(self.model, self.inputs, ["y"], program=True,
                                         mutations=forms)
        self.assertEqual(header["type"], "result", header.get("message"))
        assert_close(self, arrays["y"], self.expected["y"], str(forms))
        return header["program"]

    def test_inputs_reach_the_compiled_program_as_views(self):
        source = self.run_forms([{"kind": "transposed-input", "seed": 1},
                                 {"kind": "channels-last-input", "seed": 2},
                                 {"kind": "in-place", "seed": 3}, {"kind": "dynamic", "seed": 4}])
        _, args = program_arguments(source, self.inputs)
        self.assertEqual(args[0].stride(), (60, 20, 1, 4))  # last two dims column-major
        self.assertTrue(args[1].is_contiguous(memory_format=torch.channels_last))
        self.assertFalse(args[1].is_contiguous())
        self.assertRegex(source, r"\.clone\(\)\.(add_|relu_|mul_)\(")
        self.assertIn("DYNAMIC = True", source)

    def test_strided_and_expanded_inputs(self):
        source = self.run_forms([{"kind": "strided-input", "seed": 1},
                                 {"kind": "expanded-input", "seed": 1}])
        _, args = program_arguments(source, self.inputs)
        self.assertEqual(args[0].stride(), (132, 44, 11, 2))
        self.assertIn("DYNAMIC = False", source)
        x = torch.ones(3, 4)
        self.assertEqual(program_arguments(source, {"a": x.numpy(), "b": x.numpy()})[1][1].stride(),
                         (0, 1))

    def test_the_reproducer_program_has_the_run_forms(self):
        forms = [{"kind": "python-scalar", "seed": 7}, {"kind": "strided-input", "seed": 7},
                 {"kind": "view-after-mutation", "seed": 7}, {"kind": "dynamic", "seed": 7}]
        ran = self.run_forms(forms)
        header, consts = self.client.program(self.model, self.inputs, ["y"], mutations=forms)
        self.assertEqual(header["type"], "program", header.get("message"))
        source = header["source"]
        self.assertEqual(source.split("\nforward = ")[0].strip(), ran.strip())
        self.assertIn("torch.mul(", source)
        self.assertIn(", 0.5)", source)  # the constant as a Python float
        self.assertIn(".view(-1)", source)
        scope, args = program_arguments(source, self.inputs, consts)
        self.assertEqual(args[0].stride()[-1], 2)
        self.assertTrue(scope["DYNAMIC"])
        with torch.no_grad():
            (y,) = scope["forward"](*args)
        assert_close(self, y.numpy(), self.expected["y"], "standalone")


if __name__ == "__main__":
    unittest.main()
