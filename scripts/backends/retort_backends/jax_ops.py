"""ONNX op -> JAX source (jax.numpy, jax.lax, jax.nn), one converter per ONNX op type.

Same contract as torch_ops: a converter gets a program.NodeContext and returns the expression
of each output. The program runs with jax_enable_x64 (so i64 and f64 stay 64-bit); names in
scope: jnp, lax, jax, and the constants c0, ... (closed over, so jit sees them as constants).
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


def jdt(dtype):
    # jnp.bool_, not jnp.bool: jax releases of 2023 (0.4.20) have only the former.
    name = np.dtype(dtype).name
    return f"jnp.{'bool_' if name == 'bool' else name}"


def cast_to(expr, dtype):
    return f"({expr}).astype({jdt(dtype)})"


def typed(value, dtype):
    """A scalar literal of the given dtype (a weak Python scalar could change promotion)."""
    return f"jnp.asarray({lit(value)}, {jdt(dtype)})"


UNARY = {
    "Abs": "jnp.abs({0})", "Neg": "jnp.negative({0})", "Sign": "jnp.sign({0})",
    "Relu": "jax.nn.relu({0})", "Sigmoid": "jax.nn.sigmoid({0})",
    "Softplus": "jax.nn.softplus({0})", "Softsign": "jax.nn.soft_sign({0})",
    "Exp": "jnp.exp({0})", "Log": "jnp.log({0})", "Sqrt": "jnp.sqrt({0})",
    "Reciprocal": "jnp.reciprocal({0})", "Tanh": "jnp.tanh({0})", "Sin": "jnp.sin({0})",
    "Cos": "jnp.cos({0})", "Tan": "jnp.tan({0})", "Asin": "jnp.arcsin({0})",
    "Acos": "jnp.arccos({0})", "Atan": "jnp.arctan({0})", "Sinh": "jnp.sinh({0})",
    "Cosh": "jnp.cosh({0})", "Erf": "lax.erf({0})", "Floor": "jnp.floor({0})",
    "Ceil": "jnp.ceil({0})", "Round": "jnp.round({0})", "Not": "jnp.logical_not({0})",
    "Identity": "{0}",
}

BINARY = {
    "Add": "jnp.add({0}, {1})", "Sub": "jnp.subtract({0}, {1})",
    "Mul": "jnp.multiply({0}, {1})", "Equal": "jnp.equal({0}, {1})",
    "Less": "jnp.less({0}, {1})", "Greater": "jnp.greater({0}, {1})",
    "LessOrEqual": "jnp.less_equal({0}, {1})", "GreaterOrEqual": "jnp.greater_equal({0}, {1})",
    "And": "jnp.logical_and({0}, {1})", "Or": "jnp.logical_or({0}, {1})",
    "Xor": "jnp.logical_xor({0}, {1})",
    "PRelu": "jnp.where(jnp.less({0}, 0), jnp.multiply({0}, {1}), {0})",
}


def conv_div(c):
    if is_float(c.dtype(0)):
        return f"jnp.divide({c.x(0)}, {c.x(1)})"
    return f"lax.div(*jnp.broadcast_arrays({c.x(0)}, {c.x(1)}))"  # truncates toward zero


def conv_mod(c):
    fn = "jnp.fmod" if c.attr("fmod", 0) else "jnp.remainder"
    return f"{fn}({c.x(0)}, {c.x(1)})"


def conv_pow(c):
    expr = f"jnp.power({c.x(0)}, {c.x(1)})"
    return expr if c.dtype(0) == c.dtype(1) else cast_to(expr, c.dtype(0))


def conv_selu(c):
    x, dt = c.x(0), c.dtype(0)
    alpha, gamma = c.attr("alpha", SELU_ALPHA), c.attr("gamma", SELU_GAMMA)
    return (f"jnp.where(jnp.greater({x}, 0), {x} * {typed(gamma, dt)}, "
            f"jnp.expm1({x}) * {typed(gamma * alpha, dt)})")


def conv_hard_sigmoid(c):
    x, dt = c.x(0), c.dtype(0)
    return (f"jnp.clip({x} * {typed(c.attr('alpha', 0.2), dt)} + "
            f"{typed(c.attr('beta', 0.5), dt)}, 0, 1)")


def conv_mean(c):
    return f"jnp.divide({fold(c, 'jnp.add')}, {typed(len(c.inputs()), c.dtype(0))})"


def conv_clip(c):
    return clip(c, "jnp.maximum", "jnp.minimum")


def conv_gemm(c):
    a = f"jnp.transpose({c.x(0)})" if c.attr("transA", 0) else c.x(0)
    b = f"jnp.transpose({c.x(1)})" if c.attr("transB", 0) else c.x(1)
    dt = c.dtype(0)
    alpha, beta = gemm_scalars(c)
    expr = f"jnp.matmul({a}, {b})"
    if alpha != 1.0:
        expr = f"jnp.multiply({expr}, {typed(alpha, dt)})"
    if c.has(2):
        expr = f"jnp.add({expr}, jnp.multiply({c.x(2)}, {typed(beta, dt)}))"
    return expr


def conv_einsum(c):
    equation = c.attr("equation").replace(" ", "")
    return f"jnp.einsum({string_lit(equation)}, {', '.join(c.inputs())})"


# --- convolution and pooling ---------------------------------------------------------------


LETTERS = "DHW"


def convolution_layout(c):
    """A convolution's spatial rank (at most 3) and its lax dimension numbers, channels first."""
    n = spatial_rank(c)
    if n > 3:
        raise Unsupported(f"{n} spatial axes")
    sp = LETTERS[3 - n:]
    return n, f"({string_lit('NC' + sp)}, {string_lit('OI' + sp)}, {string_lit('NC' + sp)})"


def conv_conv(c):
    n, numbers = convolution_layout(c)
    kernel = list(c.shape(1)[2:])
    strides, dilations, begins, ends = window(c, kernel)
    expr = (f"lax.conv_general_dilated({c.x(0)}, {c.x(1)}, {lit(strides)}, "
            f"{lit([[b, e] for b, e in zip(begins, ends)])}, rhs_dilation={lit(dilations)}, "
            f"dimension_numbers={numbers}, feature_group_count={int(c.attr('group', 1))})")
    if c.has(2):
        expr = f"jnp.add({expr}, jnp.reshape({c.x(2)}, {lit([1, -1] + [1] * n)}))"
    return expr


def conv_conv_transpose(c):
    """The convolution of x dilated by the strides with the kernel flipped and laid out [M, C/group,
    k...], padded to the full extent, then cropped by ONNX's pads."""
    n, numbers = convolution_layout(c)
    kernel, strides, dilations, begins, ends, extra, group, full = conv_transpose_geometry(c)
    channels, per_group = c.shape(1)[0], c.shape(1)[1]
    grouped = f"jnp.reshape({c.x(1)}, {lit([group, channels // group, per_group] + kernel)})"
    w = (f"jnp.flip(jnp.reshape(jnp.swapaxes({grouped}, 1, 2), "
         f"{lit([group * per_group, channels // group] + kernel)}), "
         f"axis={lit(list(range(2, n + 2)))})")
    pads = [[(k - 1) * d, (k - 1) * d + e] for k, d, e in zip(kernel, dilations, extra)]
    y = (f"lax.conv_general_dilated({c.x(0)}, {w}, {lit([1] * n)}, {lit(pads)}, "
         f"lhs_dilation={lit(strides)}, rhs_dilation={lit(dilations)}, "
         f"dimension_numbers={numbers}, feature_group_count={group})")
    if c.has(2):
        y = f"jnp.add({y}, jnp.reshape({c.x(2)}, {lit([1, -1] + [1] * n)}))"
    if not any(begins) and not any(ends):
        return y
    return subscript(y, [None, None] + [(b, f - e, 1) for b, e, f in zip(begins, ends, full)])


def tuple_lit(v):
    """A tuple literal of (nested) numbers: older jax caches reduce_window by its window."""
    if isinstance(v, (list, tuple)):
        items = [tuple_lit(e) for e in v]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    return lit(v)


def reduce_window(x, init, op, kernel, strides, dilations, pads):
    return (f"lax.reduce_window({x}, {init}, {op}, {tuple_lit([1, 1] + kernel)}, "
            f"{tuple_lit([1, 1] + strides)}, {tuple_lit([[0, 0], [0, 0]] + pads)}, "
            f"window_dilation={tuple_lit([1, 1] + dilations)})")


def conv_max_pool(c):
    if c.n_outputs() > 1 and c.node.output[1]:
        raise Unsupported("the Indices output")
    spatial_rank(c)
    kernel, strides, dilations, begins, ends, extra = pool_geometry(c)
    pads = [[b, e + x] for b, e, x in zip(begins, ends, extra)]
    init = typed(lowest(c.dtype(0)), c.dtype(0))
    return reduce_window(c.x(0), init, "lax.max", kernel, strides, dilations, pads)


def conv_average_pool(c):
    spatial_rank(c)
    dt = c.dtype(0)
    kernel, strides, dilations, begins, ends, extra = pool_geometry(c)
    pads = [[b, e + x] for b, e, x in zip(begins, ends, extra)]
    total = reduce_window(c.x(0), typed(0, dt), "lax.add", kernel, strides, dilations, pads)
    ones = f"jnp.ones({lit(list(c.shape(0)))}, {jdt(dt)})"
    if c.attr("count_include_pad", 0):  # the explicit pads count, ceil_mode's extra does not
        widths = [[0, 0], [0, 0]] + [[b, e] for b, e in zip(begins, ends)]
        ones = f"jnp.pad({ones}, {lit(widths)}, constant_values=1)"
        pads = [[0, x] for x in extra]
    count = reduce_window(ones, typed(0, dt), "lax.add", kernel, strides, dilations, pads)
    return f"jnp.divide({total}, {count})"


def conv_global_pool(fn):
    return lambda c: f"{fn}({c.x(0)}, axis={lit(tuple(range(2, c.rank(0))))}, keepdims=True)"


def conv_batch_norm(c):
    return batch_norm(c, "jnp", typed(batch_norm_epsilon(c), c.dtype(0)))


def conv_layer_norm(c):
    eps = typed(norm_epsilon(c), c.dtype(0))
    y = f"{normalize(c, 'jnp.mean', 'jnp.sqrt', layer_norm_axes(c), eps)} * {c.x(1)}"
    return f"{y} + {c.x(2)}" if c.has(2) else y


def conv_instance_norm(c):
    eps = typed(norm_epsilon(c), c.dtype(0))
    shape = lit([1, -1] + [1] * (c.rank(0) - 2))
    y = normalize(c, 'jnp.mean', 'jnp.sqrt', range(2, c.rank(0)), eps)
    return f"{y} * jnp.reshape({c.x(1)}, {shape}) + jnp.reshape({c.x(2)}, {shape})"


def conv_group_norm(c):
    return group_norm(c, "jnp", "jnp.mean", typed(norm_epsilon(c), c.dtype(0)))


def conv_softmax(fn):
    return lambda c: f"{fn}({c.x(0)}, axis={norm_axis(c.attr('axis', -1), c.rank(0))})"


def quant_param(c, i):
    """Input i (a scale or zero point) as f32, shaped to broadcast along the node's axis."""
    shape = quant_shape(c)
    x = cast_to(c.x(i), np.float32)
    return x if shape is None else f"jnp.reshape({x}, {lit(shape)})"


def conv_quantize_linear(c):
    q = f"jnp.round(jnp.divide({c.x(0)}, {quant_param(c, 1)}))"
    if c.has(2):
        q = f"jnp.add({q}, {quant_param(c, 2)})"
    lo, hi = quant_range(c)
    return cast_to(f"jnp.clip({q}, {lit(lo)}, {lit(hi)})", c.out_dtype())


def conv_dequantize_linear(c):
    x = cast_to(c.x(0), np.float32)
    if c.has(2):
        x = f"jnp.subtract({x}, {quant_param(c, 2)})"
    return f"jnp.multiply({x}, {quant_param(c, 1)})"


def conv_resize(c):
    """Resize as gathers along each spatial axis (resize_tables), linear as lo * (1 - w) + hi * w
    with the weights in x's dtype."""
    y = c.x(0)
    for axis, (lo, hi, w) in enumerate(resize_tables(c), start=2):
        low = f"jnp.take({y}, jnp.asarray({lit(lo)}), axis={axis})"
        if lo == hi:
            y = c.tmp(low)
            continue
        shape = [1] * c.rank(0)
        shape[axis] = -1
        weight = c.tmp(f"jnp.reshape(jnp.asarray({lit(w)}, {jdt(c.dtype(0))}), {lit(shape)})")
        high = f"jnp.take({y}, jnp.asarray({lit(hi)}), axis={axis})"
        y = c.tmp(f"{low} * (1 - {weight}) + {high} * {weight}")
    return y


# --- reductions ----------------------------------------------------------------------------


def conv_reduce(c):
    dims = reduce_dims(c)
    x = c.x(0)
    if not dims:
        return x
    keep = lit(bool(c.attr("keepdims", 1)))
    axis = f"axis={lit(tuple(dims))}, keepdims={keep}"
    dt = c.dtype(0)
    # Integers keep their dtype (jnp would widen them); floats take jnp's own accumulation, as a
    # JAX user writes it: an explicit f16 dtype skips jnp's f32 upcast and sums in f16.
    keep_dtype = "" if is_float(dt) else f", dtype={jdt(dt)}"
    if c.op == "ReduceSum":
        return f"jnp.sum({x}, {axis}{keep_dtype})"
    if c.op == "ReduceProd":
        return f"jnp.prod({x}, {axis}{keep_dtype})"
    if c.op in ("ReduceMax", "ReduceMin"):
        return extreme(c, x, axis, dims)
    if is_float(dt):
        return f"jnp.mean({x}, {axis})"
    count = mean_count(c, dims)
    total = f"jnp.sum({x}, {axis}, dtype=jnp.int64)"
    return cast_to(f"lax.div({total}, jnp.full_like({total}, {count}))", dt)


def extreme(c, x, axis, dims):
    """jnp.max/min; over an empty axis ONNX gives the identity (-inf or the dtype's least for
    max), where jnp raises, so only then is it passed as `initial`."""
    fn = "max" if c.op == "ReduceMax" else "min"
    if all(c.shape(0)[d] != 0 for d in dims):
        return f"jnp.{fn}({x}, {axis})"
    dt = jdt(c.dtype(0))
    if is_float(c.dtype(0)):
        ident = "-jnp.inf" if fn == "max" else "jnp.inf"
    else:
        ident = f"jnp.iinfo({dt}).{'min' if fn == 'max' else 'max'}"
    return f"jnp.{fn}({x}, {axis}, initial={ident})"


def conv_cumsum(c):
    """lax.cumsum scans in the dtype; exclusive sums the axis shifted by one (a zero first in
    the direction of the scan)."""
    axis, n, exclusive, reverse = cumsum_scan(c)
    x = c.x(0)
    if exclusive and n > 0:
        zero = f"jnp.zeros_like(lax.slice_in_dim({x}, 0, 1, axis={axis}))"
        if reverse:
            x = f"jnp.concatenate([lax.slice_in_dim({x}, 1, {n}, axis={axis}), {zero}], {axis})"
        else:
            x = f"jnp.concatenate([{zero}, lax.slice_in_dim({x}, 0, {n - 1}, axis={axis})], {axis})"
    return f"lax.cumsum({x}, axis={axis}, reverse={lit(reverse)})"


def conv_topk(c):
    """A stable lax.sort of (x, positions), cut to k. Largest first sorts the axis reversed and
    reverses the result, so that ties keep the lower position first (ONNX's rule)."""
    axis, k, largest = topk_params(c)
    x = c.x(0)
    ids = f"lax.broadcasted_iota(jnp.int64, {lit(list(c.shape(0)))}, {axis})"
    if largest:
        x, ids = f"jnp.flip({x}, {axis})", f"jnp.flip({ids}, {axis})"
    s = c.tmp(f"lax.sort(({x}, {ids}), dimension={axis}, is_stable=True, num_keys=1)")
    out = [f"jnp.flip({s}[{j}], {axis})" if largest else f"{s}[{j}]" for j in (0, 1)]
    return [f"lax.slice_in_dim({o}, 0, {k}, axis={axis})" for o in out]


def conv_arg(fn):
    def convert(c):
        axis = norm_axis(c.attr("axis", 0), c.rank(0))
        keep = lit(bool(c.attr("keepdims", 1)))
        if not c.attr("select_last_index", 0):
            return cast_to(f"{fn}({c.x(0)}, axis={axis}, keepdims={keep})", np.int64)
        last = c.shape(0)[axis] - 1
        flipped = f"{fn}(jnp.flip({c.x(0)}, {axis}), axis={axis}, keepdims={keep})"
        return cast_to(f"{last} - {flipped}", np.int64)

    return convert


# --- shape ops -----------------------------------------------------------------------------

def conv_reshape(c):
    return f"jnp.reshape({c.x(0)}, {lit(reshape_target(c))})"


def conv_flatten(c):
    outer, inner = flatten_dims(c)
    return f"jnp.reshape({c.x(0)}, ({outer}, {inner}))"


def conv_squeeze(c):
    dims = squeeze_dims(c)
    return f"jnp.squeeze({c.x(0)}, {lit(dims)})" if dims else c.x(0)


def conv_unsqueeze(c):
    return f"jnp.expand_dims({c.x(0)}, {lit(unsqueeze_dims(c))})"


def conv_transpose(c):
    return f"jnp.transpose({c.x(0)}, {lit(transpose_perm(c))})"


def conv_concat(c):
    axis = norm_axis(c.attr("axis"), c.rank(0))
    return f"jnp.concatenate([{', '.join(c.inputs())}], axis={axis})"


def conv_split(c):
    axis, sizes = split_sizes(c)
    bounds = np.cumsum([0] + sizes)
    x = c.x(0)
    return [f"lax.slice_in_dim({x}, {int(b)}, {int(e)}, axis={axis})"
            for b, e in zip(bounds[:-1], bounds[1:])]


def conv_slice(c):
    ranges, flips = slice_steps(c)
    x = f"jnp.flip({c.x(0)}, {lit(flips)})" if flips else c.x(0)
    return subscript(x, ranges)


def conv_gather(c):
    axis, n = gather_axis(c)
    idx = cast_to(c.x(1), np.int64)
    idx = f"jnp.where(jnp.less({idx}, 0), {idx} + {n}, {idx})"
    return f"jnp.take({c.x(0)}, {idx}, axis={axis})"


def element_coords(c, n, axis):
    """The coordinates in data that each element of indices names, as an index tuple."""
    idx = cast_to(c.x(1), np.int64)
    idx = c.tmp(f"jnp.where(jnp.less({idx}, 0), {idx} + {n}, {idx})")
    shape = lit(list(c.shape(1)))
    parts = [idx if d == axis else f"lax.broadcasted_iota(jnp.int64, {shape}, {d})"
             for d in range(c.rank(0))]
    return f"({', '.join(parts)},)"


def conv_gather_elements(c):
    axis, n, _ = element_axis(c)
    return f"{c.x(0)}[{element_coords(c, n, axis)}]"


def conv_scatter_elements(c):
    axis, n, reduction = element_axis(c)
    how = {"none": "set", "add": "add", "mul": "multiply"}[reduction]
    # Run op by op (nojit) a graph input is a numpy array, which has no .at.
    return f"jnp.asarray({c.x(0)}).at[{element_coords(c, n, axis)}].{how}({c.x(2)})"


def conv_pad(c):
    begins, ends, mode = pad_widths(c)
    if mode == "constant":
        value = c.const(2).reshape(-1)[0] if c.has(2) else 0
        config = lit([[b, e, 0] for b, e in zip(begins, ends)])
        return f"lax.pad({c.x(0)}, {typed(value, c.dtype(0))}, tuple(map(tuple, {config})))"
    x = c.x(0)
    for axis, index in pad_gathers(c, begins, ends, mode):
        x = f"jnp.take({x}, jnp.asarray({lit(index)}, jnp.int64), axis={axis})"
    return x


def conv_expand(c):
    return f"jnp.broadcast_to({c.x(0)}, {lit(expand_shape(c))})"


def conv_tile(c):
    return f"jnp.tile({c.x(0)}, {lit(ints(c.const(1)))})"


def conv_shape(c):
    values = shape_values(c)
    return f"jnp.asarray({lit(values)}, jnp.int64).reshape(({len(values)},))"


CONVERTERS = {
    **{op: template(text, 1) for op, text in UNARY.items()},
    **{op: template(text, 2) for op, text in BINARY.items()},
    "Div": conv_div,
    "Mod": conv_mod,
    "Pow": conv_pow,
    "LeakyRelu": lambda c: (f"jax.nn.leaky_relu({c.x(0)}, "
                            f"{typed(c.attr('alpha', 0.01), c.dtype(0))})"),
    "Elu": lambda c: f"jax.nn.elu({c.x(0)}, {typed(c.attr('alpha', 1.0), c.dtype(0))})",
    "Selu": conv_selu,
    "HardSigmoid": conv_hard_sigmoid,
    "Max": lambda c: fold(c, "jnp.maximum"),
    "Min": lambda c: fold(c, "jnp.minimum"),
    "Sum": lambda c: fold(c, "jnp.add"),
    "Mean": conv_mean,
    "Where": template("jnp.where({0}, {1}, {2})", 3),
    "Clip": conv_clip,
    "Cast": lambda c: cast_to(c.x(0), c.out_dtype()),
    "MatMul": template("jnp.matmul({0}, {1})", 2),
    "Gemm": conv_gemm,
    "Einsum": conv_einsum,
    "Conv": conv_conv,
    "ConvTranspose": conv_conv_transpose,
    "MaxPool": conv_max_pool,
    "AveragePool": conv_average_pool,
    "GlobalAveragePool": conv_global_pool("jnp.mean"),
    "GlobalMaxPool": conv_global_pool("jnp.max"),
    "BatchNormalization": conv_batch_norm,
    "LayerNormalization": conv_layer_norm,
    "Resize": conv_resize,
    "QuantizeLinear": conv_quantize_linear,
    "DequantizeLinear": conv_dequantize_linear,
    "InstanceNormalization": conv_instance_norm,
    "GroupNormalization": conv_group_norm,
    "Softmax": conv_softmax("jax.nn.softmax"),
    "LogSoftmax": conv_softmax("jax.nn.log_softmax"),
    "ReduceSum": conv_reduce,
    "ReduceMean": conv_reduce,
    "ReduceMax": conv_reduce,
    "ReduceMin": conv_reduce,
    "ReduceProd": conv_reduce,
    "ArgMax": conv_arg("jnp.argmax"),
    "CumSum": conv_cumsum,
    "TopK": conv_topk,
    "ArgMin": conv_arg("jnp.argmin"),
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
