"""One-node ONNX models, at least one per op type Retort exports, for the torch worker tests."""

import numpy as np
import onnx
from onnx import TensorProto, helper

from onnx_compat import onnx_code
from onnx_numpy import evaluate

OPSET = 17
RNG = np.random.default_rng(5)


class Const:
    """An input passed as an initializer rather than a graph input."""

    def __init__(self, value):
        self.value = np.asarray(value)


def f32(*shape, low=-2.0, high=2.0, dtype=np.float32):
    return RNG.uniform(low, high, shape).astype(dtype)


def pos(*shape):
    return f32(*shape, low=0.1, high=3.0)


def unit(*shape):
    return f32(*shape, low=-0.99, high=0.99)


def ints(*shape, low=-9, high=10, dtype=np.int32):
    return RNG.integers(low, high, shape).astype(dtype)


def nonzero(*shape, dtype=np.int32):
    x = ints(*shape, dtype=dtype)
    return np.where(x == 0, 3, x).astype(dtype)


def bools(*shape):
    return RNG.integers(0, 2, shape).astype(bool)


def i64(*values):
    return Const(np.array(values, dtype=np.int64))


def value_info(name, array):
    code = onnx_code(np.asarray(array).dtype)
    return helper.make_tensor_value_info(name, code, list(np.shape(array)))


def build(nodes, inputs, consts, outputs=None):
    """A model (bytes) and its expected outputs (by default the last node's)."""
    graph = helper.make_graph(
        nodes, "case", [value_info(k, v) for k, v in inputs.items()], [],
        [onnx.numpy_helper.from_array(v, k) for k, v in consts.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    values = evaluate(model, inputs)
    outputs = outputs or [o for o in nodes[-1].output if o]
    for o in outputs:
        model.graph.output.append(value_info(o, values[o]))
    onnx.checker.check_model(model)
    return model.SerializeToString(), {o: values[o] for o in outputs}


class Case:
    def __init__(self, label, op, args, n_out=1, **attrs):
        self.label, self.op = label, op
        names, inputs, consts = [], {}, {}
        for k, arg in enumerate(args):
            if arg is None:
                names.append("")
            elif isinstance(arg, Const):
                names.append(f"c{k}")
                consts[f"c{k}"] = arg.value
            else:
                names.append(f"x{k}")
                inputs[f"x{k}"] = arg
        node = helper.make_node(op, names, [f"y{j}" for j in range(n_out)], **attrs)
        self.inputs = inputs
        self.model, self.expected = build([node], inputs, consts)
        self.outputs = list(self.expected)


def unary_cases():
    floats = ["Abs", "Neg", "Sign", "Relu", "Sigmoid", "Softplus", "Softsign", "Exp", "Tanh",
              "Sin", "Cos", "Tan", "Atan", "Sinh", "Cosh", "Erf", "Floor", "Ceil", "Round",
              "Identity", "LeakyRelu", "Elu", "Selu", "HardSigmoid"]
    cases = [Case(op, op, [f32(3, 4)]) for op in floats]
    cases += [Case(op, op, [pos(3, 4)]) for op in ("Log", "Sqrt", "Reciprocal")]
    cases += [Case(op, op, [unit(3, 4)]) for op in ("Asin", "Acos")]
    cases += [
        Case("Abs i32", "Abs", [ints(3, 4)]),
        Case("Neg i64", "Neg", [ints(5, dtype=np.int64)]),
        Case("Round halves", "Round", [np.array([0.5, 1.5, 2.5, -0.5, -2.5], np.float32)]),
        Case("Not", "Not", [bools(2, 3)]),
        Case("LeakyRelu alpha", "LeakyRelu", [f32(2, 5)], alpha=0.3),
        Case("Elu alpha", "Elu", [f32(2, 5)], alpha=0.5),
        Case("Selu custom", "Selu", [f32(2, 5)], alpha=1.5, gamma=2.0),
        Case("HardSigmoid custom", "HardSigmoid", [f32(2, 5, low=-8, high=8)], alpha=0.3,
             beta=0.4),
        Case("Exp f64", "Exp", [f32(4, dtype=np.float64)]),
        Case("Sqrt f16", "Sqrt", [pos(4).astype(np.float16)]),
    ]
    return cases


def binary_cases():
    ops = ["Add", "Sub", "Mul", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"]
    cases = [Case(op, op, [f32(2, 3, 4), f32(3, 1)]) for op in ops]
    cases += [Case(f"{op} i32", op, [ints(2, 3), ints(3)]) for op in ops]
    cases += [Case(op, op, [bools(2, 3), bools(1, 3)]) for op in ("And", "Or", "Xor")]
    cases += [
        Case("Add u8 wraps", "Add", [np.array([200, 100], np.uint8),
                                     np.array([100, 200], np.uint8)]),
        Case("Div", "Div", [f32(3, 4), pos(4)]),
        Case("Div i32 truncates", "Div", [ints(3, 4), nonzero(4)]),
        Case("Div i64 negative", "Div", [np.array([-7, 7, -7], np.int64),
                                         np.array([2, -2, -2], np.int64)]),
        Case("Mod i32 floored", "Mod", [ints(3, 4), nonzero(4)]),
        Case("Mod i32 fmod", "Mod", [ints(3, 4), nonzero(4)], fmod=1),
        Case("Mod f32 fmod", "Mod", [f32(3, 4), pos(4)], fmod=1),
        Case("Mod i8 fmod", "Mod", [ints(3, 4, dtype=np.int8), nonzero(4, dtype=np.int8)],
             fmod=1),
        Case("Pow", "Pow", [pos(3, 4), f32(3, 4)]),
        Case("Pow i32", "Pow", [ints(3, 4, low=-3, high=4), ints(3, 4, low=0, high=4)]),
        Case("Pow i32 by f32", "Pow", [ints(3, 4, low=1, high=9),
                                       np.full((3, 4), 0.5, np.float32)]),
        Case("Pow f32 by i8", "Pow", [pos(3, 4), np.full((3, 4), 2, np.int8)]),
        Case("PRelu", "PRelu", [f32(2, 3, 4), f32(3, 1)]),
    ]
    return cases


def variadic_cases():
    three = [f32(2, 3), f32(3), f32(1, 3)]
    cases = [Case(op, op, three) for op in ("Max", "Min", "Sum", "Mean")]
    cases += [
        Case("Max i32", "Max", [ints(2, 3), ints(3)]),
        Case("Max one input", "Max", [f32(4)]),
        Case("Where", "Where", [bools(2, 3), f32(2, 3), f32(3)]),
        Case("Clip", "Clip", [f32(3, 4), Const(np.float32(-0.5)), Const(np.float32(0.5))]),
        Case("Clip max only", "Clip", [f32(3, 4), None, Const(np.float32(0.5))]),
        Case("Clip i32 min > max", "Clip", [ints(3, 4), Const(np.int32(2)), Const(np.int32(1))]),
        Case("Cast f32 to i32", "Cast", [f32(3, 4, low=-50, high=50)], to=TensorProto.INT32),
        Case("Cast i32 to f16", "Cast", [ints(3, 4)], to=TensorProto.FLOAT16),
        Case("Cast f32 to bool", "Cast", [np.array([0.0, -0.0, 2.0, 0.1], np.float32)],
             to=TensorProto.BOOL),
        Case("Cast bool to f64", "Cast", [bools(5)], to=TensorProto.DOUBLE),
        Case("Cast f64 to u8", "Cast", [f32(6, low=0, high=250, dtype=np.float64)],
             to=TensorProto.UINT8),
        Case("Cast i64 to i8 wraps", "Cast", [np.array([300, -129, 5], np.int64)],
             to=TensorProto.INT8),
        Case("Where i64", "Where", [bools(2, 3), ints(2, 3, dtype=np.int64),
                                    ints(1, 3, dtype=np.int64)]),
    ]
    return cases


def linalg_cases():
    return [
        Case("MatMul", "MatMul", [f32(3, 4), f32(4, 5)]),
        Case("MatMul batched broadcast", "MatMul", [f32(2, 3, 4), f32(4, 2)]),
        Case("MatMul vector", "MatMul", [f32(4), f32(4, 3)]),
        Case("MatMul i64", "MatMul", [ints(3, 4, dtype=np.int64), ints(4, 2, dtype=np.int64)]),
        Case("Gemm", "Gemm", [f32(3, 4), f32(4, 5), f32(5)], alpha=0.5, beta=2.0),
        Case("Gemm transposed", "Gemm", [f32(4, 3), f32(5, 4)], transA=1, transB=1),
        Case("Gemm alpha no c", "Gemm", [f32(3, 4), f32(4, 2)], alpha=3.0),
        Case("Gemm i32 scalar c", "Gemm", [ints(3, 4), ints(4, 2), np.int32(5)], alpha=2.0,
             beta=3.0),
        Case("Einsum ellipsis", "Einsum", [f32(2, 3, 4), f32(2, 4, 5)], equation="...ij,...jk"),
        Case("Einsum matmul", "Einsum", [f32(2, 3, 4), f32(2, 4, 5)], equation="bij,bjk->bik"),
        Case("Einsum diagonal", "Einsum", [f32(4, 4)], equation="ii->i"),
        Case("Einsum implicit", "Einsum", [f32(3, 4), f32(4)], equation="ij,j"),
    ]


def conv_pool_cases():
    x = f32(1, 4, 7, 6)
    return [
        Case("Conv", "Conv", [x, f32(3, 4, 3, 3), f32(3)]),
        Case("Conv pads strides dilations", "Conv", [x, f32(2, 4, 2, 3)], pads=[1, 0, 2, 1],
             strides=[2, 1], dilations=[2, 1]),
        Case("Conv group", "Conv", [x, f32(6, 2, 3, 3)], group=2, pads=[1, 1, 1, 1]),
        Case("Conv same upper", "Conv", [x, f32(2, 4, 3, 2)], auto_pad="SAME_UPPER",
             strides=[2, 2]),
        Case("Conv 1d", "Conv", [f32(2, 3, 9), f32(4, 3, 3)], pads=[1, 1]),
        Case("Conv 1d group strides", "Conv", [f32(1, 4, 9), f32(4, 2, 2)], group=2, strides=[2]),
        Case("Conv 3d f64", "Conv", [f32(1, 2, 4, 3, 5, dtype=np.float64),
                                     f32(2, 2, 2, 2, 2, dtype=np.float64)],
             pads=[1, 0, 1, 0, 1, 1]),
        Case("Conv same lower", "Conv", [x, f32(2, 4, 2, 2)], auto_pad="SAME_LOWER"),
        Case("Conv valid", "Conv", [x, f32(2, 4, 3, 3)], auto_pad="VALID", strides=[2, 2]),
        Case("ConvTranspose", "ConvTranspose", [x, f32(4, 2, 3, 2), f32(2)]),
        Case("ConvTranspose strides pads output_padding", "ConvTranspose",
             [f32(1, 2, 4, 3), f32(2, 3, 2, 3)], strides=[2, 3], pads=[1, 0, 0, 2],
             output_padding=[1, 2]),
        Case("ConvTranspose 1d group dilations", "ConvTranspose", [f32(2, 4, 5), f32(4, 1, 3)],
             group=2, dilations=[2], pads=[1, 1]),
        Case("MaxPool 1d", "MaxPool", [f32(2, 3, 9)], kernel_shape=[3], strides=[2]),
        Case("AveragePool 3d", "AveragePool", [f32(1, 2, 4, 4, 4)], kernel_shape=[2, 2, 2]),
        Case("MaxPool", "MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2]),
        Case("MaxPool pads", "MaxPool", [x], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        Case("MaxPool asymmetric pads", "MaxPool", [x], kernel_shape=[3, 2], pads=[0, 1, 2, 0]),
        Case("MaxPool dilations", "MaxPool", [x], kernel_shape=[2, 2], dilations=[2, 2]),
        # An empty spatial dim: an empty output (TF's dilated pool refused it; seed 40201 #2).
        Case("MaxPool empty dilated", "MaxPool", [f32(1, 3, 0, 2)], kernel_shape=[1, 2],
             strides=[1, 2], dilations=[2, 1], auto_pad="SAME_UPPER"),
        Case("AveragePool", "AveragePool", [x], kernel_shape=[2, 3], strides=[1, 2]),
        Case("AveragePool pads", "AveragePool", [x], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        Case("AveragePool pads counted", "AveragePool", [x], kernel_shape=[3, 3],
             pads=[1, 1, 1, 1], count_include_pad=1),
        Case("AveragePool asymmetric pads", "AveragePool", [x], kernel_shape=[2, 2],
             pads=[1, 0, 0, 1]),
        Case("GlobalAveragePool", "GlobalAveragePool", [x]),
        Case("GlobalMaxPool", "GlobalMaxPool", [x]),
        Case("BatchNormalization", "BatchNormalization",
             [x, f32(4), f32(4), f32(4), pos(4)], epsilon=1e-3),
        Case("LayerNormalization", "LayerNormalization", [f32(2, 3, 4), f32(4), f32(4)]),
        Case("LayerNormalization axis 1 no bias", "LayerNormalization",
             [f32(2, 3, 4), f32(3, 4)], axis=1, epsilon=0.25),
        Case("InstanceNormalization", "InstanceNormalization", [x, f32(4), f32(4)],
             epsilon=1e-3),
        Case("InstanceNormalization 1d", "InstanceNormalization",
             [f32(2, 3, 9), f32(3), f32(3)]),
        Case("QuantizeLinear", "QuantizeLinear",
             [f32(2, 3, 4, low=-4, high=4), Const(np.float32(0.05))]),
        Case("QuantizeLinear i8 per axis", "QuantizeLinear",
             [f32(2, 3, 4, low=-4, high=4), Const(np.array([0.02, 0.05, 0.5], np.float32)),
              Const(np.array([-3, 0, 7], np.int8))]),
        Case("QuantizeLinear ties", "QuantizeLinear",
             [np.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.35, 300.0, -300.0], np.float32),
              Const(np.float32(1.0)), Const(np.uint8(3))], axis=0),
        Case("DequantizeLinear", "DequantizeLinear",
             [ints(2, 3, low=0, high=256, dtype=np.uint8), Const(np.float32(0.25)),
              Const(np.uint8(128))]),
        Case("DequantizeLinear i8 per axis", "DequantizeLinear",
             [ints(3, 4, low=-128, high=128, dtype=np.int8),
              Const(np.array([0.5, 0.125, 2.0, 0.75], np.float32)),
              Const(np.array([1, -2, 0, 5], np.int8))], axis=-1),
        Case("Resize nearest", "Resize", [f32(1, 2, 3, 4), None, None, i64(1, 2, 6, 2)]),
        Case("Resize nearest asymmetric floor", "Resize", [f32(1, 2, 3, 4), None, None,
                                                           i64(1, 2, 9, 8)],
             coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
        Case("Resize nearest half_pixel round_prefer_ceil", "Resize",
             [f32(2, 2, 6), None, None, i64(2, 2, 3)], nearest_mode="round_prefer_ceil"),
        Case("Resize linear", "Resize", [f32(1, 2, 3, 4), None, None, i64(1, 2, 6, 8)],
             mode="linear"),
        Case("Resize linear align_corners 3d", "Resize",
             [f32(1, 1, 2, 3, 2), None, None, i64(1, 1, 4, 3, 6)], mode="linear",
             coordinate_transformation_mode="align_corners"),
        Case("Resize linear asymmetric", "Resize", [f32(1, 2, 4, 3), None, None,
                                                    i64(1, 2, 2, 9)],
             mode="linear", coordinate_transformation_mode="asymmetric"),
        Case("Resize linear pytorch_half_pixel", "Resize",
             [f32(2, 3, 5), None, None, i64(2, 3, 1)], mode="linear",
             coordinate_transformation_mode="pytorch_half_pixel"),
        Case("Softmax", "Softmax", [f32(2, 3, 4)], axis=1),
        Case("LogSoftmax", "LogSoftmax", [f32(2, 3, 4)]),
    ]


def reduce_cases():
    x = f32(2, 3, 4)
    cases = [Case(op, op, [x], axes=[1]) for op in ("ReduceMean", "ReduceMax", "ReduceMin",
                                                      "ReduceProd")]
    cases += [
        Case("ReduceSum", "ReduceSum", [x, i64(0, -1)]),
        Case("ReduceSum all", "ReduceSum", [x], keepdims=0),
        Case("ReduceSum noop", "ReduceSum", [x], noop_with_empty_axes=1),
        Case("ReduceSum i32", "ReduceSum", [ints(3, 4), i64(1)], keepdims=0),
        Case("ReduceMean i32", "ReduceMean", [ints(3, 4)], axes=[0]),
        Case("ReduceProd two axes", "ReduceProd", [f32(2, 3, 4, low=0.5, high=1.5)],
             axes=[0, 2], keepdims=0),
        Case("ReduceMax i64 all", "ReduceMax", [ints(3, 4, dtype=np.int64)], keepdims=0),
        # ONNX: the identity over an empty axis (-inf, the dtype's least for max).
        Case("ReduceMax empty axis", "ReduceMax", [f32(3, 0, 2)], axes=[1], keepdims=0),
        Case("ReduceMin empty i32", "ReduceMin", [ints(2, 0)], axes=[1]),
        Case("ArgMax", "ArgMax", [x], axis=1),
        Case("ArgMax f64", "ArgMax", [f32(3, 5, dtype=np.float64)], axis=0, keepdims=0),
        Case("ArgMin", "ArgMin", [x], axis=-1, keepdims=0),
        Case("ArgMax last", "ArgMax", [np.array([[1, 3, 3], [2, 2, 0]], np.int32)], axis=1,
             select_last_index=1),
        Case("CumSum", "CumSum", [x, Const(np.array(1, np.int64))]),
        Case("CumSum exclusive reverse", "CumSum", [x, Const(np.array(-1, np.int32))],
             exclusive=1, reverse=1),
        Case("CumSum i32 exclusive", "CumSum", [ints(4, 3), Const(np.array(0, np.int32))],
             exclusive=1),
        Case("TopK", "TopK", [np.array([[1, 3, 3, 0], [2, 2, 5, 2]], np.float32), i64(2)],
             n_out=2),
        Case("TopK smallest axis 0", "TopK", [ints(4, 3), i64(3)], n_out=2, axis=0, largest=0),
        Case("ArgMin last", "ArgMin", [np.array([[1, 0, 0], [2, 2, 2]], np.int64)], axis=1,
             select_last_index=1),
    ]
    return cases


def shape_cases():
    x = f32(2, 3, 4)
    return [
        Case("Reshape", "Reshape", [x, i64(0, -1, 2)]),
        Case("Flatten", "Flatten", [x], axis=2),
        Case("Flatten axis 0", "Flatten", [x], axis=0),
        Case("Squeeze", "Squeeze", [f32(1, 3, 1, 2), i64(0, -2)]),
        Case("Squeeze all", "Squeeze", [f32(1, 3, 1, 2)]),
        Case("Unsqueeze", "Unsqueeze", [x, i64(0, -1)]),
        Case("Transpose", "Transpose", [x], perm=[2, 0, 1]),
        Case("Transpose default", "Transpose", [x]),
        Case("Concat", "Concat", [x, f32(2, 1, 4), f32(2, 2, 4)], axis=1),
        Case("Concat i8", "Concat", [ints(2, 2, dtype=np.int8), ints(1, 2, dtype=np.int8)],
             axis=0),
        Case("Split sizes", "Split", [x, i64(1, 3)], n_out=2, axis=2),
        Case("Split equal", "Split", [f32(6, 2)], n_out=3),
        Case("Slice", "Slice", [x, i64(0, 1), i64(2, 10), i64(0, 2), i64(1, 2)]),
        Case("Slice negative step", "Slice", [x, i64(-1), i64(-1 << 63), i64(2), i64(-2)]),
        Case("Slice clamped", "Slice", [x, i64(-10, 1), i64(10, -1)]),
        Case("Slice steps", "Slice",
             [x, i64(3, 0, 2), i64(-5, 2, 0), i64(2, 1, 0), i64(-2, 1, -1)]),
        Case("Slice empty", "Slice", [x, i64(2), i64(1), i64(1)]),
        Case("Split uneven", "Split", [f32(2, 7)], n_out=3, axis=1),
        Case("Gather", "Gather", [x, np.array([2, -1, 0], np.int64)], axis=2),
        Case("Gather 2d indices", "Gather", [x, np.array([[1, 0], [0, -1]], np.int32)]),
        Case("Gather scalar index", "Gather", [x, np.array(1, np.int64)], axis=1),
        Case("Pad constant", "Pad", [x, i64(0, 1, 2, 1, 0, -1), Const(np.float32(1.5))]),
        Case("Pad constant i32", "Pad", [ints(2, 3), i64(1, 0, 0, 2), Const(np.int32(7))]),
        Case("Pad edge", "Pad", [x, i64(1, 0, 2, 0, 2, 1)], mode="edge"),
        Case("Pad reflect", "Pad", [x, i64(0, 2, 3, 1, 1, 2)], mode="reflect"),
        Case("Pad reflect 1d", "Pad", [f32(4), i64(3, 2)], mode="reflect"),
        Case("Pad edge crop", "Pad", [x, i64(-1, 0, 2, 0, -1, 1)], mode="edge"),
        # A crop past the data: axis 0 keeps 2 - 3 + 5 = 4 pad values (ONNX Runtime's).
        Case("Pad constant crop past the data", "Pad",
             [f32(2, 3), i64(-3, 0, 5, 1), Const(np.float32(1.5))]),
        Case("Expand", "Expand", [f32(3, 1), i64(2, 1, 4)]),
        Case("Tile", "Tile", [f32(2, 3), i64(2, 3)]),
        Case("Shape", "Shape", [x]),
        Case("Shape start end", "Shape", [x], start=1, end=-1),
        Case("Identity bool", "Identity", [bools(3)]),
        Case("Reshape to scalar", "Reshape", [f32(1, 1), Const(np.zeros(0, np.int64))]),
        Case("Transpose scalar", "Transpose", [np.float32(1.5)]),
        Case("Shape scalar", "Shape", [np.float32(1.5)]),
        Case("Unsqueeze scalar", "Unsqueeze", [np.int64(4), i64(0)]),
        Case("Squeeze to scalar", "Squeeze", [f32(1, 1)]),
        Case("GatherElements", "GatherElements",
             [x, Const(np.array([[[1, 0], [-1, 0], [0, 2]], [[3, 3], [-4, 1], [2, 0]]],
                                np.int64))], axis=2),
        Case("GatherElements shorter", "GatherElements",
             [f32(3, 4), Const(np.array([[2, -3], [0, 1]], np.int32))], axis=0),
        Case("ScatterElements", "ScatterElements",
             [f32(3, 4), Const(np.array([[2, 0, 1], [0, 1, -1]], np.int64)), f32(2, 3)]),
        Case("ScatterElements add repeated", "ScatterElements",
             [f32(2, 4), Const(np.array([[1, 1, 3]], np.int64)), f32(1, 3)], axis=1,
             reduction="add"),
        Case("ScatterElements mul i32", "ScatterElements",
             [ints(2, 3), Const(np.array([[2], [0]], np.int32)), ints(2, 1)], axis=-1,
             reduction="mul"),
        Case("Gather to scalar", "Gather", [f32(5), np.array(-2, np.int64)]),
        Case("Expand scalar", "Expand", [np.float32(2.5), i64(2, 3)]),
        Case("Tile scalar", "Tile", [np.float32(2.5), Const(np.zeros(0, np.int64))]),
        Case("ReduceSum scalar", "ReduceSum", [np.float32(2.5)]),
        Case("Add scalars", "Add", [np.float32(2.5), np.float32(-1.0)]),
        Case("Slice scalar", "Slice", [np.float32(2.5), Const(np.zeros(0, np.int64)),
                                       Const(np.zeros(0, np.int64))]),
        Case("Pad scalar", "Pad", [np.float32(2.5), Const(np.zeros(0, np.int64))]),
    ]


def all_cases():
    return (unary_cases() + binary_cases() + variadic_cases() + linalg_cases()
            + conv_pool_cases() + reduce_cases() + shape_cases())


CHAIN_UNARY = ["Abs", "Neg", "Relu", "Sigmoid", "Tanh", "Sin", "Cos", "Atan", "Erf", "Softsign",
               "LeakyRelu", "Elu", "HardSigmoid", "Exp"]
CHAIN_BINARY = ["Add", "Sub", "Mul", "Max", "Min", "PRelu"]


class ChainCase:
    """A random chain of elementwise f32 ops over broadcast inputs: what the TensorExpr fuser
    fuses. The last value and one intermediate are outputs."""

    def __init__(self, seed, length=8):
        rng = np.random.default_rng(seed)
        self.label, self.op = f"chain {seed}", None
        self.inputs = {"a": f32(3, 4), "b": f32(3, 4), "c": f32(4)}
        values, nodes = list(self.inputs), []
        for k in range(length):
            recent = values[-3:]
            if rng.random() < 0.5:
                op, args = str(rng.choice(CHAIN_UNARY)), [str(rng.choice(recent))]
                if op == "Exp":  # keep the values finite
                    nodes.append(helper.make_node("Tanh", args, [f"e{k}"], name=f"n{k}e"))
                    args = [f"e{k}"]
            else:
                op, args = str(rng.choice(CHAIN_BINARY)), [str(rng.choice(recent)),
                                                           str(rng.choice(values))]
            nodes.append(helper.make_node(op, args, [f"v{k}"], name=f"n{k}"))
            values.append(f"v{k}")
        outputs = [values[-1], values[len(self.inputs) + length // 2]]
        self.model, self.expected = build(nodes, self.inputs, {}, outputs)
        self.outputs = list(self.expected)


def chain_cases(count=20):
    return [ChainCase(seed) for seed in range(count)]
