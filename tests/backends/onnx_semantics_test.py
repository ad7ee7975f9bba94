#!/usr/bin/python3
"""Tests of retort_backends.onnx_semantics, the ONNX arithmetic every framework's converter table
shares, against independent oracles: ONNX's own shape inference (pool and slice output lengths),
torch's pooling (ceil_mode, which ONNX 1.12's shape inference computes without the rule that a
window starts inside the input or its begin padding) and numpy.pad (edge and reflect source
positions). Cases are drawn from a fixed seed."""

import os
import random
import sys
import unittest

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
WORKERS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "backends")
sys.path[:0] = [WORKERS]

from retort_backends.errors import Unsupported  # noqa: E402
from retort_backends.onnx_semantics import (pad_index, pool_geometry, reduce_dims,  # noqa: E402
                                            slice_bounds, spatial_rank)

SEED = 20261126


class Node:
    """The part of program.NodeContext that onnx_semantics asks: shapes, attributes, constants."""

    def __init__(self, op, shape, attrs=None, consts=None):
        self.op, self._shape, self._attrs, self._consts = op, shape, attrs or {}, consts or {}

    def shape(self, i):
        return self._shape

    def rank(self, i):
        return len(self._shape)

    def attr(self, name, default=None):
        return self._attrs.get(name, default)

    def has(self, i):
        return i in self._consts

    def const(self, i):
        return np.asarray(self._consts[i])


def pooled_lengths(c):
    kernel, strides, dilations, begins, ends, extra = pool_geometry(c)
    return [(size + b + e + x - ((k - 1) * d + 1)) // s + 1 for size, k, s, d, b, e, x in
            zip(c.shape(0)[2:], kernel, strides, dilations, begins, ends, extra)]


def inferred_shape(node, input_shape, initializers=()):
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, input_shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    out = onnx.shape_inference.infer_shapes(model, strict_mode=True).graph.output[0]
    return [d.dim_value for d in out.type.tensor_type.shape.dim]


class PoolGeometry(unittest.TestCase):
    def test_output_lengths_match_onnx_shape_inference(self):
        rng = random.Random(SEED)
        for _ in range(300):
            rank = rng.choice([1, 2])
            spatial = [rng.randint(1, 9) for _ in range(rank)]
            kernel = [rng.randint(1, 4) for _ in range(rank)]
            attrs = {"kernel_shape": kernel, "strides": [rng.randint(1, 3) for _ in range(rank)],
                     "auto_pad": rng.choice(["NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"])}
            if attrs["auto_pad"] == "NOTSET":
                attrs["pads"] = [rng.randint(0, k - 1) for k in kernel * 2]
            pads = attrs.get("pads", [0] * 2 * rank)
            if any(s + b + e < k for s, k, b, e in zip(spatial, kernel, pads[:rank], pads[rank:])):
                continue  # a window wider than the padded input: not a defined pooling
            ours = pooled_lengths(Node("MaxPool", [1, 1] + spatial, attrs))
            theirs = inferred_shape(helper.make_node("MaxPool", ["x"], ["y"], **attrs), [1, 1] + spatial)
            with self.subTest(spatial=spatial, attrs=attrs):
                self.assertEqual(ours, theirs[2:])

    def test_ceil_mode_lengths_match_torch(self):
        rng = random.Random(SEED)
        for _ in range(300):
            size, k = rng.randint(1, 12), rng.randint(1, 4)
            stride, dilation, pad = rng.randint(1, 4), rng.randint(1, 2), rng.randint(0, k // 2)
            if size + 2 * pad < (k - 1) * dilation + 1:
                continue
            attrs = {"kernel_shape": [k], "strides": [stride], "dilations": [dilation],
                     "pads": [pad, pad], "ceil_mode": 1}
            pooled = torch.nn.functional.max_pool1d(torch.zeros(1, 1, size), k, stride, pad, dilation,
                                                    ceil_mode=True)
            with self.subTest(size=size, attrs=attrs):
                self.assertEqual(pooled_lengths(Node("MaxPool", [1, 1, size], attrs)), [pooled.shape[-1]])

    def test_same_upper_puts_the_odd_pad_at_the_end(self):
        c = Node("MaxPool", [1, 1, 5], {"kernel_shape": [4], "auto_pad": "SAME_UPPER"})
        self.assertEqual(pool_geometry(c)[3:5], ([1], [2]))
        c = Node("MaxPool", [1, 1, 5], {"kernel_shape": [4], "auto_pad": "SAME_LOWER"})
        self.assertEqual(pool_geometry(c)[3:5], ([2], [1]))

    def test_spatial_rank_names_the_framework_that_refuses(self):
        self.assertEqual(spatial_rank(Node("Conv", [1, 1, 2, 2, 2, 2])), 4)
        with self.assertRaisesRegex(Unsupported, "torch has 1-D to 3-D forms only, got 4"):
            spatial_rank(Node("Conv", [1, 1, 2, 2, 2, 2]), "torch", 3)
        with self.assertRaisesRegex(Unsupported, "no spatial axes"):
            spatial_rank(Node("Conv", [1, 1]))


class SliceBounds(unittest.TestCase):
    def test_lengths_match_onnx_shape_inference(self):
        rng = random.Random(SEED)
        for _ in range(300):
            n = rng.randint(1, 7)
            start, end = rng.randint(-10, 10), rng.randint(-10, 10)
            step = rng.choice([-3, -2, -1, 1, 2, 3])
            lo, hi = slice_bounds(start, end, step, n)
            inits = [numpy_helper.from_array(np.array([v], np.int64), name) for name, v in
                     (("s", start), ("e", end), ("a", 0), ("p", step))]
            node = helper.make_node("Slice", ["x", "s", "e", "a", "p"], ["y"])
            with self.subTest(n=n, start=start, end=end, step=step):
                self.assertEqual([len(range(lo, hi, step))], inferred_shape(node, [n], inits))


class PadIndex(unittest.TestCase):
    def test_edge_and_reflect_match_numpy_pad(self):
        for mode in ("edge", "reflect"):
            for n in range(1, 6):
                for begin in range(0, 4):
                    for end in range(0, 4):
                        if mode == "reflect" and n == 1 and begin + end:
                            continue  # numpy cannot reflect a single element
                        want = np.pad(np.arange(n), (begin, end), mode=mode).tolist()
                        with self.subTest(mode=mode, n=n, begin=begin, end=end):
                            self.assertEqual(pad_index(mode, begin, end, n), want)

    def test_negative_pads_crop(self):
        self.assertEqual(pad_index("edge", -1, -2, 5), [1, 2])


class ReduceDims(unittest.TestCase):
    def test_axes_attribute_and_operand(self):
        self.assertEqual(reduce_dims(Node("ReduceMax", [2, 3, 4], {"axes": [-1, 0, 2]})), [0, 2])
        self.assertEqual(reduce_dims(Node("ReduceSum", [2, 3, 4], consts={1: [[1], [-3]]})), [0, 1])
        self.assertEqual(reduce_dims(Node("ReduceMax", [2, 3])), [0, 1])
        self.assertIsNone(reduce_dims(Node("ReduceMax", [2, 3], {"noop_with_empty_axes": 1})))
        with self.assertRaisesRegex(Unsupported, "axis 3 out of range for rank 3"):
            reduce_dims(Node("ReduceMax", [2, 3, 4], {"axes": [3]}))


if __name__ == "__main__":
    unittest.main()
