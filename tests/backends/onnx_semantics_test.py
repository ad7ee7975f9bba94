#!/usr/bin/python3
"""Tests of retort_backends.onnx_semantics, the ONNX arithmetic every framework's converter table
shares, against independent oracles: ONNX's own shape inference (pool and slice output lengths,
the shapes of Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Split, Expand and Shape),
torch's pooling (ceil_mode, which ONNX 1.12's shape inference computes without the rule that a
window starts inside the input or its begin padding), numpy's slicing (Slice's values) and
numpy.pad (edge and reflect source positions). Cases are drawn from a fixed seed. Last, every
framework's converter table (torch_ops, tf_ops, jax_ops) runs on the same ONNX cases, those of
the torch worker tests."""

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

sys.path[:0] = [HERE]

import torch_cases  # noqa: E402
from retort_backends import jax_ops, tf_ops, torch_ops  # noqa: E402
from retort_backends.errors import Unsupported  # noqa: E402
from retort_backends.model import Model  # noqa: E402
from retort_backends.onnx_semantics import (  # noqa: E402
    batch_norm_epsilon, expand_shape, flatten_dims, gather_axis, gemm_scalars, mean_count,
    pad_gathers, pad_index, pad_widths, pool_geometry, reduce_dims, reshape_target, shape_values,
    slice_bounds, slice_steps, spatial_rank, split_sizes, squeeze_dims, transpose_perm,
    unsqueeze_dims)
from retort_backends.program import Builder, subscript  # noqa: E402

SEED = 20261126


class Node:
    """The part of program.NodeContext that onnx_semantics asks: shapes, attributes, constants."""

    def __init__(self, op, shape, attrs=None, consts=None, dtype=np.float32, outputs=("y",)):
        self.op, self._shape, self._attrs, self._consts = op, shape, attrs or {}, consts or {}
        self._dtype, self.node = dtype, helper.make_node(op, [], list(outputs))

    def dtype(self, i):
        return np.dtype(self._dtype)

    def n_outputs(self):
        return len(self.node.output)

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


def inferred_shapes(node, input_shape, initializers=(), opset=13):
    outputs = [helper.make_tensor_value_info(y, TensorProto.UNDEFINED, None) for y in node.output]
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, input_shape)],
                              outputs, initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True).graph.output
    return [[d.dim_value for d in out.type.tensor_type.shape.dim] for out in inferred]


def inferred_shape(node, input_shape, initializers=(), opset=13):
    return inferred_shapes(node, input_shape, initializers, opset)[0]


def with_operand(op, shape, values, attrs=None, opset=13, outputs=("y",)):
    """Our Node and ONNX's shape inference for an op whose operand 1 is the constant `values`
    (none when None)."""
    consts = {} if values is None else {1: values}
    inits = [] if values is None else [numpy_helper.from_array(np.array(values, np.int64), "k")]
    node = helper.make_node(op, ["x"] + (["k"] if inits else []), list(outputs), **(attrs or {}))
    ours = Node(op, list(shape), attrs, consts, outputs=outputs)
    return ours, inferred_shapes(node, list(shape), inits, opset)


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


class JaxDtypeNames(unittest.TestCase):
    def test_bool_is_named_as_jax_releases_of_2023_have_it(self):
        # jnp.bool appeared after jax 0.4.20; jnp.bool_ is in every release (docs/bugs.md).
        self.assertEqual(jax_ops.jdt(np.bool_), "jnp.bool_")
        self.assertEqual(jax_ops.jdt(np.float16), "jnp.float16")
        self.assertEqual(jax_ops.jdt(np.int64), "jnp.int64")


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


class ShapeOps(unittest.TestCase):
    """The shape each function implies, against ONNX's shape inference of the node."""

    def test_reshape_target_reads_zeros_unless_allowzero(self):
        rng = random.Random(SEED)
        for _ in range(200):
            shape = [rng.randint(0, 3) for _ in range(rng.randint(1, 3))]
            target = [rng.choice([0, shape[i]]) if i < len(shape) else 1
                      for i in range(rng.randint(1, len(shape) + 1))]
            allowzero = rng.randint(0, 1)
            attrs = {"allowzero": allowzero}
            ours, theirs = with_operand("Reshape", shape, target, attrs, opset=14)
            if int(np.prod(reshape_target(ours))) != int(np.prod(shape)):
                continue  # no reshape: the element counts differ
            with self.subTest(shape=shape, target=target, allowzero=allowzero):
                self.assertEqual(reshape_target(ours), theirs[0])

    def test_flatten_dims(self):
        for shape in ([2, 3, 4], [5], [2, 0, 3]):
            for axis in range(-len(shape), len(shape) + 1):
                ours, theirs = with_operand("Flatten", shape, None, {"axis": axis})
                with self.subTest(shape=shape, axis=axis):
                    self.assertEqual(list(flatten_dims(ours)), theirs[0])

    def test_squeeze_and_unsqueeze_dims(self):
        shape = [1, 3, 1, 1]
        for axes in (None, [0], [-1, 0], [3, 2, -4]):
            ours, theirs = with_operand("Squeeze", shape, axes)
            with self.subTest(op="Squeeze", axes=axes):
                dims = squeeze_dims(ours)
                self.assertEqual(dims, sorted(dims))
                self.assertEqual([n for d, n in enumerate(shape) if d not in dims], theirs[0])
        for axes in ([0], [-1], [3, 0], [-1, 1, 0]):
            ours, theirs = with_operand("Unsqueeze", [2, 3], axes)
            with self.subTest(op="Unsqueeze", axes=axes):
                dims = unsqueeze_dims(ours)
                self.assertEqual(dims, sorted(dims))
                self.assertEqual([d for d, n in enumerate(theirs[0]) if n == 1], dims)

    def test_transpose_perm(self):
        for perm in (None, [1, 0, 2], [2, 0, 1]):
            attrs = {} if perm is None else {"perm": perm}
            ours, theirs = with_operand("Transpose", [2, 3, 4], None, attrs)
            with self.subTest(perm=perm):
                self.assertEqual([[2, 3, 4][d] for d in transpose_perm(ours)], theirs[0])

    def test_split_sizes(self):
        for extent, parts, axis in ((6, 2, 0), (6, 3, -2), (4, 4, 0)):
            outputs = [f"y{j}" for j in range(parts)]
            ours, theirs = with_operand("Split", [extent, 5], None, {"axis": axis}, outputs=outputs)
            with self.subTest(extent=extent, parts=parts, axis=axis):
                self.assertEqual(split_sizes(ours), (0, [shape[0] for shape in theirs]))
        ours, theirs = with_operand("Split", [7, 5], [2, 5], {"axis": 0}, outputs=["a", "b"])
        self.assertEqual(split_sizes(ours), (0, [shape[0] for shape in theirs]))
        # Without sizes, an extent that does not divide: opset 18's rule, a smaller last part.
        ours = Node("Split", [7, 5], {"axis": 0}, outputs=["a", "b", "c"])
        self.assertEqual(split_sizes(ours), (0, [3, 3, 1]))

    def test_expand_shape(self):
        for shape, target in (([3, 1], [2, 1, 4]), ([3, 1], [1]), ([1], [2, 3])):
            ours, theirs = with_operand("Expand", shape, target)
            with self.subTest(shape=shape, target=target):
                self.assertEqual(expand_shape(ours), theirs[0])

    def test_shape_values(self):
        shape = [2, 3, 4]
        for start, end in ((None, None), (1, None), (-2, None), (0, -1), (-10, 10), (2, 1)):
            attrs = {k: v for k, v in (("start", start), ("end", end)) if v is not None}
            ours, theirs = with_operand("Shape", shape, None, attrs, opset=15)
            with self.subTest(start=start, end=end):
                self.assertEqual([len(shape_values(ours))], theirs[0])
                self.assertEqual(shape_values(ours), shape[slice(start, end)][:theirs[0][0]])


class SliceSteps(unittest.TestCase):
    def test_values_match_the_positions_of_slice_bounds(self):
        # The positions each axis takes, from slice_bounds (checked against shape inference
        # above): numpy's own slicing differs where a start lies below -n with a negative step.
        rng = random.Random(SEED)
        x = np.arange(4 * 5 * 6).reshape(4, 5, 6)
        for _ in range(300):
            axes = rng.sample(range(-3, 3), rng.randint(1, 3))
            if len({a % 3 for a in axes}) < len(axes):
                continue  # ONNX forbids an axis twice
            starts = [rng.randint(-8, 8) for _ in axes]
            ends = [rng.randint(-8, 8) for _ in axes]
            steps = [rng.choice([-3, -2, -1, 1, 2, 3]) for _ in axes]
            index = [range(n) for n in x.shape]
            for a, b, e, p in zip(axes, starts, ends, steps):
                index[a % 3] = range(*slice_bounds(b, e, p, x.shape[a % 3]), p)
            ranges, flips = slice_steps(Node("Slice", list(x.shape), consts={
                1: starts, 2: ends, 3: axes, 4: steps}))
            ours = eval(subscript("flipped", ranges), {"flipped": np.flip(x, flips)})
            with self.subTest(axes=axes, starts=starts, ends=ends, steps=steps):
                want = x[np.ix_(*[list(r) for r in index])]
                self.assertTrue(all(r is None or 0 <= r[0] <= r[1] and r[2] > 0 for r in ranges))
                self.assertEqual((ours.shape, ours.tolist()), (want.shape, want.tolist()))

    def test_step_zero_is_refused(self):
        with self.assertRaisesRegex(Unsupported, "step 0"):
            slice_steps(Node("Slice", [3], consts={1: [0], 2: [3], 4: [0]}))


class OtherNodes(unittest.TestCase):
    def test_gather_axis_counts_back(self):
        self.assertEqual(gather_axis(Node("Gather", [3, 4], {"axis": -1})), (1, 4))
        self.assertEqual(gather_axis(Node("Gather", [3, 4])), (0, 3))

    def test_pad_widths_and_gathers_match_numpy_pad(self):
        c = Node("Pad", [3, 4], {"mode": "reflect"}, consts={1: [1, 0, 2, 2]})
        begins, ends, mode = pad_widths(c)
        self.assertEqual((begins, ends, mode), ([1, 0], [2, 2], "reflect"))
        x = np.arange(12).reshape(3, 4)
        ours = x
        for axis, index in pad_gathers(c, begins, ends, mode):
            ours = np.take(ours, index, axis=axis)
        self.assertEqual(ours.tolist(), np.pad(x, [(1, 2), (0, 2)], mode="reflect").tolist())
        self.assertEqual(pad_widths(Node("Pad", [3], consts={1: [1, 2]}))[2], "constant")
        with self.assertRaisesRegex(Unsupported, "mode 'wrap'"):
            pad_gathers(c, begins, ends, "wrap")
        with self.assertRaisesRegex(Unsupported, "axes input"):
            pad_widths(Node("Pad", [3], consts={1: [1, 2], 3: [0]}))

    def test_gemm_scalars_refuse_a_fraction_of_an_integer_product(self):
        self.assertEqual(gemm_scalars(Node("Gemm", [2, 2], {"alpha": 2.0})), (2.0, 1.0))
        self.assertEqual(gemm_scalars(Node("Gemm", [2, 2], {"beta": 0.5})), (1.0, 0.5))
        with self.assertRaisesRegex(Unsupported, "non-integral beta 0.5 on int32"):
            gemm_scalars(Node("Gemm", [2, 2], {"beta": 0.5}, dtype=np.int32))

    def test_mean_count_and_batch_norm_epsilon(self):
        self.assertEqual(mean_count(Node("ReduceMean", [2, 3, 4]), [0, 2]), 8)
        self.assertEqual(batch_norm_epsilon(Node("BatchNormalization", [1, 2])), 1e-5)
        c = Node("BatchNormalization", [1, 2], {"epsilon": 0.5})
        self.assertEqual(batch_norm_epsilon(c), 0.5)
        for attrs, outputs in (({"training_mode": 1}, ["y"]), ({}, ["y", "mean"])):
            with self.assertRaisesRegex(Unsupported, "training mode"):
                batch_norm_epsilon(Node("BatchNormalization", [1, 2], attrs, outputs=outputs))


class ConverterTables(unittest.TestCase):
    """Every framework's table on the same ONNX cases (the torch worker tests'): each names the
    same op types and writes each case as Python that compiles, or refuses it as Unsupported."""

    TABLES = {"torch": torch_ops.CONVERTERS, "tf": tf_ops.CONVERTERS, "jax": jax_ops.CONVERTERS}

    def test_same_op_types(self):
        self.assertEqual(set(self.TABLES["tf"]), set(self.TABLES["jax"]))
        self.assertEqual(set(self.TABLES["torch"]) | {"PRelu"}, set(self.TABLES["tf"]))

    def test_every_case_converts(self):
        for case in torch_cases.all_cases():
            for name, table in self.TABLES.items():
                with self.subTest(case=case.label, framework=name):
                    builder = Builder(Model(case.model), table, name)
                    builder.bind_inputs()
                    try:
                        builder.convert_for(case.outputs)
                    except Unsupported:
                        continue
                    compile("\n".join(builder.lines), case.label, "exec")
                    self.assertTrue(builder.lines)


if __name__ == "__main__":
    unittest.main()
