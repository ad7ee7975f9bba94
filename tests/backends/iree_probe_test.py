"""The IREE worker's probe requests (the support probe, docs/backend-protocol.md): a failing
graph of a batch is named by iree-compile's output and dropped, not found by halving the batch.

Run with the iree environment's Python (run_family_test.py finds it):
  <venv>/bin/python iree_probe_test.py
One worker at opt_level 0 (the probe's iree:O0) answers both requests.
"""

import os
import sys
import unittest

import numpy as np
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [HERE]

from worker_checks import model_of  # noqa: E402
from worker_client import WorkerClient  # noqa: E402

WORKER = [sys.executable, os.path.join(ROOT, "scripts", "backends", "iree_worker.py")]


def unary(op, x, **attributes):
    """A probe graph: y = op(x), its output typed like x."""
    node = helper.make_node(op, ["x"], ["y"], name="n0", **attributes)
    code = helper.np_dtype_to_tensor_dtype(x.dtype)
    model = model_of([node], {"x": x}, [helper.make_tensor_value_info("y", code, list(x.shape))])
    return model.SerializeToString(), {"x": x}, ["y"]


def reflect_pad(x):
    """The support probe's Pad in mode reflect (with a constant_value, which that mode
    ignores), which IREE's type conversion leaves unconverted."""
    pads = helper.make_tensor("pads", TensorProto.INT64, [6], [1, 0, 0, 2, 1, 0])
    value = helper.make_tensor("value", TensorProto.FLOAT, [], [0.0])
    node = helper.make_node("Pad", ["x", "pads", "value"], ["y"], name="n0", mode="reflect")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", 1, [3, 2, 3])],
                              [helper.make_tensor_value_info("y", 1, [6, 3, 3])], [pads, value])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString(), {"x": x.reshape(3, 2, 3)}, ["y"]


class ProbeNamesTheFailingGraph(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = WorkerClient(WORKER, {"opt_level": "0"})

    @classmethod
    def tearDownClass(cls):
        cls.client.close()

    def test_each_failure_costs_one_compilation(self):
        """Softsign fails in the ONNX conversion (its op's location names it), the reflect Pad
        in the type conversion of its function (the IR dumped after the failed pass names
        it): one compilation each and one of the rest. Halving would take seven."""
        x = np.linspace(-1, 1, 18, dtype=np.float32).reshape(3, 6)
        graphs = [unary("Relu", x), unary("Softsign", x), unary("Neg", x), reflect_pad(x)]
        header = self.client.probe(graphs)
        self.assertEqual([r["status"] for r in header["results"]],
                         ["ok", "unsupported", "ok", "unsupported"], header)
        self.assertEqual(header["compilations"], 3, header)
        self.assertIn("Softsign", header["results"][1]["message"])

    def test_a_link_error_names_its_graph(self):
        """f64 Acos compiles to a call of acos, which IREE's runtime library lacks: lld's
        undefined symbol is referenced by the graph's dispatch."""
        x = np.linspace(-1, 1, 9, dtype=np.float64).reshape(3, 3)
        graphs = [unary("Acos", x), unary("Abs", x), unary("Neg", x)]
        header = self.client.probe(graphs)
        self.assertEqual([r["status"] for r in header["results"]], ["error", "ok", "ok"], header)
        self.assertEqual(header["compilations"], 2, header)
        self.assertIn("undefined symbol: acos", header["results"][0]["message"])


if __name__ == "__main__":
    unittest.main()
