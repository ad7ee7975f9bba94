"""ONNX op -> TensorFlow source (tf.*), one converter per ONNX op type.

Same contract as torch_ops: a converter gets a program.NodeContext and returns the expression
of each output. Names in scope: tf, tnp (tf.experimental.numpy, for numpy's matmul rules) and
the constants c0, .... TF's CPU kernels take convolution and pooling in NHWC only, so those ops
transpose around the call (XLA sees the same graph either way).
"""

import numpy as np

from .errors import Unsupported
from .onnx_semantics import (SELU_ALPHA, SELU_GAMMA, batch_norm_epsilon, cumsum_scan,
                             conv_transpose_geometry, layer_norm_axes, norm_epsilon, quant_range,
                             quant_shape, resize_tables,
                             element_axis, expand_shape, topk_params, flatten_dims,
                             gather_axis, gemm_scalars, lowest, mean_count, pad_gathers, pad_widths,
                             pool_geometry, reduce_dims, reshape_target, shape_values, slice_steps,
                             spatial_rank, split_sizes, squeeze_dims, transpose_perm,
                             unsqueeze_dims, window)
from .program import (batch_norm, clip, fold, group_norm, ints, lit, norm_axis, normalize,
                      string_lit, subscript, template)
from .tensors import is_float


def tdt(dtype):
    name = np.dtype(dtype).name
    return "tf.bool" if name == "bool" else f"tf.{name}"


def cast_to(expr, dtype):
    return f"tf.cast({expr}, {tdt(dtype)})"


def typed(value, dtype):
    """A scalar of the dtype (tf.constant takes no float value for an integer dtype)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        value = int(value)
    elif dtype.kind == "b":
        value = bool(value)
    return f"tf.constant({lit(value)}, {tdt(dtype)})"


UNARY = {
    "Abs": "tf.abs({0})", "Neg": "tf.negative({0})", "Sign": "tf.sign({0})",
    "Relu": "tf.nn.relu({0})", "Sigmoid": "tf.sigmoid({0})",
    "Softplus": "tf.nn.softplus({0})", "Softsign": "tf.nn.softsign({0})",
    "Exp": "tf.exp({0})", "Log": "tf.math.log({0})", "Sqrt": "tf.sqrt({0})",
    "Reciprocal": "tf.math.reciprocal({0})", "Tanh": "tf.tanh({0})", "Sin": "tf.sin({0})",
    "Cos": "tf.cos({0})", "Tan": "tf.tan({0})", "Asin": "tf.asin({0})",
    "Acos": "tf.acos({0})", "Atan": "tf.atan({0})", "Sinh": "tf.sinh({0})",
    "Cosh": "tf.cosh({0})", "Erf": "tf.math.erf({0})", "Floor": "tf.floor({0})",
    "Ceil": "tf.math.ceil({0})", "Round": "tf.round({0})", "Not": "tf.logical_not({0})",
    "Identity": "tf.identity({0})",
}

BINARY = {
    "Add": "tf.add({0}, {1})", "Sub": "tf.subtract({0}, {1})",
    "Mul": "tf.multiply({0}, {1})", "Equal": "tf.equal({0}, {1})",
    "Less": "tf.less({0}, {1})", "Greater": "tf.greater({0}, {1})",
    "LessOrEqual": "tf.less_equal({0}, {1})", "GreaterOrEqual": "tf.greater_equal({0}, {1})",
    "And": "tf.logical_and({0}, {1})", "Or": "tf.logical_or({0}, {1})",
    "Xor": "tf.math.logical_xor({0}, {1})",
}


def conv_prelu(c):
    x = c.x(0)
    return f"tf.where(tf.less({x}, {typed(0, c.dtype(0))}), tf.multiply({x}, {c.x(1)}), {x})"


def conv_div(c):
    fn = "tf.divide" if is_float(c.dtype(0)) else "tf.truncatediv"
    return f"{fn}({c.x(0)}, {c.x(1)})"


def conv_mod(c):
    if not c.attr("fmod", 0):
        return f"tf.math.floormod({c.x(0)}, {c.x(1)})"
    dtype = np.dtype(c.dtype(0))
    if dtype.kind in "iu" and dtype.itemsize < 4:
        # TF registers truncatemod for 32- and 64-bit integers and floats only.
        raise Unsupported(f"Mod with fmod=1 of {dtype.name} (tf.truncatemod has no kernel)")
    return f"tf.truncatemod({c.x(0)}, {c.x(1)})"


def conv_pow(c):
    # ONNX Pow keeps the base's dtype. TF takes one dtype: a float base takes the exponent in
    # its own dtype (an i8 exponent of 2 is 2.0); an integer base is raised in the exponent's
    # dtype and cast back, as the promoting frameworks do.
    if c.dtype(0) == c.dtype(1):
        return f"tf.pow({c.x(0)}, {c.x(1)})"
    if is_float(c.dtype(0)):
        return f"tf.pow({c.x(0)}, {cast_to(c.x(1), c.dtype(0))})"
    return cast_to(f"tf.pow({cast_to(c.x(0), c.dtype(1))}, {c.x(1)})", c.dtype(0))


def elu_like(x, dt, scale_pos, scale_neg):
    pos = x if scale_pos is None else f"{x} * {typed(scale_pos, dt)}"
    return (f"tf.where(tf.greater({x}, {typed(0, dt)}), {pos}, "
            f"tf.math.expm1({x}) * {typed(scale_neg, dt)})")


def conv_selu(c):
    alpha, gamma = c.attr("alpha", SELU_ALPHA), c.attr("gamma", SELU_GAMMA)
    return elu_like(c.x(0), c.dtype(0), gamma, gamma * alpha)


def conv_hard_sigmoid(c):
    x, dt = c.x(0), c.dtype(0)
    return (f"tf.clip_by_value({x} * {typed(c.attr('alpha', 0.2), dt)} + "
            f"{typed(c.attr('beta', 0.5), dt)}, {typed(0, dt)}, {typed(1, dt)})")


def conv_clip(c):
    return clip(c, "tf.maximum", "tf.minimum")


def conv_gemm(c):
    dt = c.dtype(0)
    alpha, beta = gemm_scalars(c)
    expr = (f"tf.linalg.matmul({c.x(0)}, {c.x(1)}, transpose_a={lit(bool(c.attr('transA', 0)))}, "
            f"transpose_b={lit(bool(c.attr('transB', 0)))})")
    if alpha != 1.0:
        expr = f"tf.multiply({expr}, {typed(alpha, dt)})"
    if c.has(2):
        expr = f"tf.add({expr}, tf.multiply({c.x(2)}, {typed(beta, dt)}))"
    return expr


def explicit_equation(equation):
    """ONNX's implicit einsum form (no "->") made explicit, as numpy reads it: the ellipsis,
    then the letters that occur once, in alphabetical order. TF reads an implicit form with an
    ellipsis differently."""
    if "->" in equation:
        return equation
    letters = [ch for ch in equation if ch.isalpha()]
    once = sorted(ch for ch in set(letters) if letters.count(ch) == 1)
    return f"{equation}->{'...' if '...' in equation else ''}{''.join(once)}"


def conv_einsum(c):
    equation = explicit_equation(c.attr("equation").replace(" ", ""))
    return f"tf.einsum({string_lit(equation)}, {', '.join(c.inputs())})"


# --- convolution and pooling (NHWC inside) -------------------------------------------------


def to_last(x, n):
    return f"tf.transpose({x}, {lit([0] + list(range(2, n + 2)) + [1])})"


def to_first(x, n):
    return f"tf.transpose({x}, {lit([0, n + 1] + list(range(1, n + 1)))})"


def padded(x, begins, ends, value):
    """x (NCHW) padded on its spatial axes."""
    if not any(begins) and not any(ends):
        return x
    paddings = [[0, 0], [0, 0]] + [[b, e] for b, e in zip(begins, ends)]
    return f"tf.pad({x}, {lit(paddings)}, constant_values={value})"


def tf_strides(strides, dilations):
    """TF takes strides or dilations above 1, not both: then (all ones, the strides) so that
    every(...) takes each stride-th output of the stride-1 result."""
    if any(s > 1 for s in strides) and any(d > 1 for d in dilations):
        return [1] * len(strides), strides
    return strides, None


def every(expr, steps):
    """expr (NHWC) with only each step-th position of its spatial axes."""
    if steps is None:
        return expr
    return f"{expr}[:, {', '.join(f'::{s}' for s in steps)}, :]"


def conv_conv(c):
    n = spatial_rank(c, "TF", 3)
    kernel = list(c.shape(1)[2:])
    strides, dilations, begins, ends = window(c, kernel)
    x = to_last(padded(c.x(0), begins, ends, typed(0, c.dtype(0))), n)
    w = f"tf.transpose({c.x(1)}, {lit(list(range(2, n + 2)) + [1, 0])})"
    strides, steps = tf_strides(strides, dilations)
    expr = (f"tf.nn.convolution({x}, {w}, strides={lit(strides)}, padding='VALID', "
            f"dilations={lit(dilations)})")
    expr = to_first(every(expr, steps), n)
    if c.has(2):
        expr = f"tf.add({expr}, tf.reshape({c.x(2)}, {lit([1, -1] + [1] * n)}))"
    return expr


def conv_conv_transpose(c):
    """tf.nn.conv_transpose to the full extent (VALID), output_padding's positions added as zeros,
    then the bias and ONNX's crop. TF has no grouped transposed convolution, and takes strides or
    dilations above 1, not both."""
    n = spatial_rank(c, "TF", 3)
    kernel, strides, dilations, begins, ends, extra, group, full = conv_transpose_geometry(c)
    if group != 1:
        raise Unsupported(f"group {group}")
    if any(s > 1 for s in strides) and any(d > 1 for d in dilations):
        raise Unsupported("strides and dilations both above 1")
    m = c.shape(1)[1]
    valid = [f - e for f, e in zip(full, extra)]
    w = f"tf.transpose({c.x(1)}, {lit(list(range(2, n + 2)) + [1, 0])})"
    y = (f"tf.nn.conv_transpose({to_last(c.x(0), n)}, {w}, {lit([c.shape(0)[0]] + valid + [m])}, "
         f"{lit(strides)}, padding='VALID', dilations={lit(dilations)})")
    y = padded(to_first(y, n), [0] * n, extra, typed(0, c.dtype(0)))
    if c.has(2):
        y = f"tf.add({y}, tf.reshape({c.x(2)}, {lit([1, -1] + [1] * n)}))"
    if not any(begins) and not any(ends):
        return y
    return subscript(y, [None, None] + [(b, f - e, 1) for b, e, f in zip(begins, ends, full)])


def empty_pool(c):
    """The output of a pooling of an input with a zero-size dim: no element to compute, where
    tf.nn.pool's dilation (SpaceToBatchND) refuses a spatial dim of 0 ("Negative dimension
    size"); None for an input with elements."""
    if 0 not in c.shape(0):
        return None
    return f"tf.zeros({lit(list(c.out_shape()))}, {tdt(c.out_dtype())})"


def pool(x, n, kind, kernel, strides, dilations):
    strides, steps = tf_strides(strides, dilations)
    expr = (f"tf.nn.pool({to_last(x, n)}, {lit(kernel)}, {string_lit(kind)}, "
            f"strides={lit(strides)}, padding='VALID', dilations={lit(dilations)})")
    return to_first(every(expr, steps), n)


def conv_max_pool(c):
    if c.n_outputs() > 1 and c.node.output[1]:
        raise Unsupported("the Indices output")
    n = spatial_rank(c, "TF", 3)
    if empty := empty_pool(c):
        return empty
    kernel, strides, dilations, begins, ends, extra = pool_geometry(c)
    ends = [e + x for e, x in zip(ends, extra)]
    x = padded(c.x(0), begins, ends, typed(lowest(c.dtype(0)), c.dtype(0)))
    return pool(x, n, "MAX", kernel, strides, dilations)


def conv_average_pool(c):
    n = spatial_rank(c, "TF", 3)
    if empty := empty_pool(c):
        return empty
    dt = c.dtype(0)
    kernel, strides, dilations, begins, ends, extra = pool_geometry(c)
    all_ends = [e + x for e, x in zip(ends, extra)]
    total = pool(padded(c.x(0), begins, all_ends, typed(0, dt)), n, "AVG", kernel, strides,
                 dilations)
    ones = f"tf.ones({lit(list(c.shape(0)))}, {tdt(dt)})"
    if c.attr("count_include_pad", 0):
        ones = padded(padded(ones, begins, ends, typed(1, dt)), [0] * n, extra, typed(0, dt))
    else:
        ones = padded(ones, begins, all_ends, typed(0, dt))
    count = pool(ones, n, "AVG", kernel, strides, dilations)
    return f"tf.divide({total}, {count})"


def conv_global_pool(fn):
    return lambda c: f"{fn}({c.x(0)}, axis={lit(list(range(2, c.rank(0))))}, keepdims=True)"


def conv_batch_norm(c):
    return batch_norm(c, "tf", typed(batch_norm_epsilon(c), c.dtype(0)))


def conv_layer_norm(c):
    eps = typed(norm_epsilon(c), c.dtype(0))
    y = f"{normalize(c, 'tf.reduce_mean', 'tf.sqrt', layer_norm_axes(c), eps)} * {c.x(1)}"
    return f"{y} + {c.x(2)}" if c.has(2) else y


def conv_instance_norm(c):
    eps = typed(norm_epsilon(c), c.dtype(0))
    shape = lit([1, -1] + [1] * (c.rank(0) - 2))
    y = normalize(c, 'tf.reduce_mean', 'tf.sqrt', range(2, c.rank(0)), eps)
    return f"{y} * tf.reshape({c.x(1)}, {shape}) + tf.reshape({c.x(2)}, {shape})"


def conv_group_norm(c):
    return group_norm(c, "tf", "tf.reduce_mean", typed(norm_epsilon(c), c.dtype(0)))


def conv_softmax(fn):
    return lambda c: f"{fn}({c.x(0)}, axis={norm_axis(c.attr('axis', -1), c.rank(0))})"


def quant_param(c, i):
    """Input i (a scale or zero point) as f32, shaped to broadcast along the node's axis."""
    shape = quant_shape(c)
    x = cast_to(c.x(i), np.float32)
    return x if shape is None else f"tf.reshape({x}, {lit(shape)})"


def conv_quantize_linear(c):
    q = f"tf.round(tf.divide({c.x(0)}, {quant_param(c, 1)}))"
    if c.has(2):
        q = f"tf.add({q}, {quant_param(c, 2)})"
    lo, hi = quant_range(c)
    return cast_to(f"tf.clip_by_value({q}, {lit(lo)}, {lit(hi)})", c.out_dtype())


def conv_dequantize_linear(c):
    x = cast_to(c.x(0), np.float32)
    if c.has(2):
        x = f"tf.subtract({x}, {quant_param(c, 2)})"
    return f"tf.multiply({x}, {quant_param(c, 1)})"


def conv_resize(c):
    """Resize as gathers along each spatial axis (resize_tables), linear as lo * (1 - w) + hi * w
    with the weights in x's dtype."""
    y = c.x(0)
    for axis, (lo, hi, w) in enumerate(resize_tables(c), start=2):
        low = f"tf.gather({y}, {lit(lo)}, axis={axis})"
        if lo == hi:
            y = c.tmp(low)
            continue
        shape = [1] * c.rank(0)
        shape[axis] = -1
        weight = c.tmp(f"tf.reshape(tf.constant({lit(w)}, {tdt(c.dtype(0))}), {lit(shape)})")
        high = f"tf.gather({y}, {lit(hi)}, axis={axis})"
        y = c.tmp(f"{low} * (1 - {weight}) + {high} * {weight}")
    return y


# --- reductions ----------------------------------------------------------------------------


REDUCERS = {"ReduceSum": "tf.reduce_sum", "ReduceProd": "tf.reduce_prod",
            "ReduceMax": "tf.reduce_max", "ReduceMin": "tf.reduce_min"}


def conv_reduce(c):
    dims = reduce_dims(c)
    x = c.x(0)
    if not dims:
        return x
    axis = f"axis={lit(dims)}, keepdims={lit(bool(c.attr('keepdims', 1)))}"
    if c.op in REDUCERS:
        return f"{REDUCERS[c.op]}({x}, {axis})"
    if is_float(c.dtype(0)):
        return f"tf.reduce_mean({x}, {axis})"
    count = mean_count(c, dims)
    total = f"tf.reduce_sum({cast_to(x, np.int64)}, {axis})"
    return cast_to(f"tf.truncatediv({total}, {typed(count, np.int64)})", c.dtype(0))


def conv_cumsum(c):
    axis, _, exclusive, reverse = cumsum_scan(c)
    return (f"tf.math.cumsum({c.x(0)}, axis={axis}, exclusive={lit(exclusive)}, "
            f"reverse={lit(reverse)})")


def conv_topk(c):
    """tf.math.top_k on the last axis (ties: lower index first, as ONNX); the smallest would need
    a negation that wraps integers, so it is not taken."""
    axis, k, largest = topk_params(c)
    if not largest:
        raise Unsupported("largest=0")
    last = axis == c.rank(0) - 1
    perm = list(range(c.rank(0)))
    perm[axis], perm[-1] = perm[-1], perm[axis]  # its own inverse
    x = c.x(0) if last else f"tf.transpose({c.x(0)}, {lit(perm)})"
    s = c.tmp(f"tf.math.top_k({x}, {k}, sorted=True)")
    out = [f"{s}.values", f"tf.cast({s}.indices, tf.int64)"]
    return out if last else [f"tf.transpose({o}, {lit(perm)})" for o in out]


def conv_arg(fn):
    def convert(c):
        axis = norm_axis(c.attr("axis", 0), c.rank(0))
        x = c.x(0)
        if c.attr("select_last_index", 0):
            last = c.shape(0)[axis] - 1
            expr = (f"tf.subtract({typed(last, np.int64)}, {fn}(tf.reverse({x}, [{axis}]), "
                    f"axis={axis}, output_type=tf.int64))")
        else:
            expr = f"{fn}({x}, axis={axis}, output_type=tf.int64)"
        return f"tf.expand_dims({expr}, {axis})" if c.attr("keepdims", 1) else expr

    return convert


# --- shape ops -----------------------------------------------------------------------------

def conv_reshape(c):
    return f"tf.reshape({c.x(0)}, {lit(reshape_target(c))})"


def conv_flatten(c):
    return f"tf.reshape({c.x(0)}, {lit(list(flatten_dims(c)))})"


def conv_squeeze(c):
    dims = squeeze_dims(c)
    return f"tf.squeeze({c.x(0)}, {lit(dims)})" if dims else c.x(0)


def conv_unsqueeze(c):
    x = c.x(0)
    for d in unsqueeze_dims(c):
        x = f"tf.expand_dims({x}, {d})"
    return x


def conv_transpose(c):
    return f"tf.transpose({c.x(0)}, {lit(transpose_perm(c))})"


def conv_concat(c):
    return f"tf.concat([{', '.join(c.inputs())}], {norm_axis(c.attr('axis'), c.rank(0))})"


def conv_split(c):
    axis, sizes = split_sizes(c)
    parts = c.tmp(f"tf.split({c.x(0)}, {lit(sizes)}, {axis})")
    return [f"{parts}[{i}]" for i in range(len(sizes))]


def conv_slice(c):
    ranges, flips = slice_steps(c)
    x = f"tf.reverse({c.x(0)}, {lit(flips)})" if flips else c.x(0)
    return subscript(x, ranges)


def conv_gather(c):
    axis, n = gather_axis(c)
    idx = cast_to(c.x(1), np.int64)
    idx = f"tf.where(tf.less({idx}, 0), {idx} + {n}, {idx})"
    return f"tf.gather({c.x(0)}, {idx}, axis={axis})"


def element_coords(c, n, axis):
    """The coordinates in data that each element of indices names, stacked on a last axis (for
    gather_nd and the tensor_scatter_nd ops)."""
    idx = cast_to(c.x(1), np.int64)
    idx = c.tmp(f"tf.where(tf.less({idx}, 0), {idx} + {n}, {idx})")
    shape = list(c.shape(1))
    parts = []
    for d in range(c.rank(0)):
        if d == axis:
            parts.append(idx)
            continue
        line = [1] * len(shape)
        line[d] = shape[d]
        parts.append(f"tf.broadcast_to(tf.reshape(tf.range({shape[d]}, dtype=tf.int64), "
                     f"{lit(line)}), {lit(shape)})")
    return f"tf.stack([{', '.join(parts)}], axis=-1)"


def conv_gather_elements(c):
    axis, n, _ = element_axis(c)
    return f"tf.gather_nd({c.x(0)}, {element_coords(c, n, axis)})"


def conv_scatter_elements(c):
    axis, n, reduction = element_axis(c)
    if reduction == "mul":
        raise Unsupported("reduction 'mul' (TensorFlow has no multiplying scatter)")
    fn = "tf.tensor_scatter_nd_add" if reduction == "add" else "tf.tensor_scatter_nd_update"
    return f"{fn}({c.x(0)}, {element_coords(c, n, axis)}, {c.x(2)})"


def conv_pad(c):
    begins, ends, mode = pad_widths(c)
    x = c.x(0)
    if c.rank(0) == 0:  # nothing to pad (tf.pad wants paddings of shape [rank, 2], here [0, 2])
        return x
    if mode == "constant":
        value = c.const(2).reshape(-1)[0] if c.has(2) else 0
        paddings = lit([[max(b, 0), max(e, 0)] for b, e in zip(begins, ends)])
        x = f"tf.pad({x}, {paddings}, constant_values={typed(value, c.dtype(0))})"
        if any(p < 0 for p in begins + ends):
            # Negative pads crop what the padding made: an axis of n keeps n + begin + end
            # elements, pad values among them where a crop passes the data (ONNX Runtime: pads
            # [-1, 2] of an empty axis give one pad value; cropping first gives two).
            index = [f"{max(-b, 0)}:{n + max(b, 0) + e}"
                     for b, e, n in zip(begins, ends, c.shape(0))]
            x = f"{x}[{', '.join(index)}]"
        return x
    for axis, index in pad_gathers(c, begins, ends, mode):
        x = f"tf.gather({x}, tf.constant({lit(index)}, tf.int64), axis={axis})"
    return x


def conv_expand(c):
    return f"tf.broadcast_to({c.x(0)}, {lit(expand_shape(c))})"


def conv_tile(c):
    reps = ints(c.const(1))
    return f"tf.tile({c.x(0)}, {lit(reps)})" if reps else c.x(0)


def conv_shape(c):
    values = shape_values(c)
    return f"tf.constant({lit(values)}, tf.int64, shape=[{len(values)}])"


CONVERTERS = {
    **{op: template(text, 1) for op, text in UNARY.items()},
    **{op: template(text, 2) for op, text in BINARY.items()},
    "PRelu": conv_prelu,
    "Div": conv_div,
    "Mod": conv_mod,
    "Pow": conv_pow,
    "LeakyRelu": lambda c: (f"tf.where(tf.greater_equal({c.x(0)}, {typed(0, c.dtype(0))}), "
                            f"{c.x(0)}, {c.x(0)} * {typed(c.attr('alpha', 0.01), c.dtype(0))})"),
    "Elu": lambda c: elu_like(c.x(0), c.dtype(0), None, c.attr("alpha", 1.0)),
    "Selu": conv_selu,
    "HardSigmoid": conv_hard_sigmoid,
    "Max": lambda c: fold(c, "tf.maximum"),
    "Min": lambda c: fold(c, "tf.minimum"),
    "Sum": lambda c: fold(c, "tf.add"),
    "Mean": lambda c: f"tf.divide({fold(c, 'tf.add')}, {typed(len(c.inputs()), c.dtype(0))})",
    "Where": template("tf.where({0}, {1}, {2})", 3),
    "Clip": conv_clip,
    "Cast": lambda c: cast_to(c.x(0), c.out_dtype()),
    "MatMul": template("tnp.matmul({0}, {1})", 2),
    "Gemm": conv_gemm,
    "Einsum": conv_einsum,
    "Conv": conv_conv,
    "ConvTranspose": conv_conv_transpose,
    "MaxPool": conv_max_pool,
    "AveragePool": conv_average_pool,
    "GlobalAveragePool": conv_global_pool("tf.reduce_mean"),
    "GlobalMaxPool": conv_global_pool("tf.reduce_max"),
    "BatchNormalization": conv_batch_norm,
    "LayerNormalization": conv_layer_norm,
    "Resize": conv_resize,
    "QuantizeLinear": conv_quantize_linear,
    "DequantizeLinear": conv_dequantize_linear,
    "InstanceNormalization": conv_instance_norm,
    "GroupNormalization": conv_group_norm,
    "Softmax": conv_softmax("tf.nn.softmax"),
    "LogSoftmax": conv_softmax("tf.nn.log_softmax"),
    "ReduceSum": conv_reduce,
    "ReduceMean": conv_reduce,
    "ReduceMax": conv_reduce,
    "ReduceMin": conv_reduce,
    "ReduceProd": conv_reduce,
    "ArgMax": conv_arg("tf.math.argmax"),
    "ArgMin": conv_arg("tf.math.argmin"),
    "CumSum": conv_cumsum,
    "TopK": conv_topk,
    "Reshape": conv_reshape,
    "Flatten": conv_flatten,
    "Squeeze": conv_squeeze,
    "Unsqueeze": conv_unsqueeze,
    "Transpose": conv_transpose,
    "Concat": conv_concat,
    "Split": conv_split,
    "Slice": conv_slice,
    "Gather": conv_gather,
    "GatherElements": conv_gather_elements,
    "ScatterElements": conv_scatter_elements,
    "Pad": conv_pad,
    "Expand": conv_expand,
    "Tile": conv_tile,
    "Shape": conv_shape,
}
