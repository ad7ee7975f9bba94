"""ONNX op -> torch source, one converter per ONNX op type.

A converter gets a program.NodeContext and returns the Python expression of each node output (a
string for one output). The expressions use only what torch.jit.script accepts, so one generated
forward() serves eager, traced, scripted and torch.compile'd runs. Attributes, shape operands
and other values known when the model is converted become literals (program.lit; strings only
through program.string_lit); the shapes of every value are static (Retort exports fully typed
models, and the worker runs ONNX shape inference on the rest).
"""

import numpy as np

from . import program
from .errors import Unsupported
from .onnx_semantics import (SELU_ALPHA, SELU_GAMMA, batch_norm_epsilon, cumsum_scan,
                             conv_transpose_geometry, layer_norm_axes, norm_epsilon, quant_range,
                             quant_shape, resize_params, resize_tables,
                             element_axis, expand_shape, topk_params, flatten_dims,
                             gather_axis, lowest, mean_count, pad_gathers, pad_widths, reduce_dims,
                             reshape_target, shape_values, slice_steps, spatial_rank, split_sizes,
                             squeeze_dims, transpose_perm, unsqueeze_dims, window)
from .program import fold, ints, norm_axis, string_lit, subscript, template
from .tensors import BFLOAT16, is_float

TORCH_DTYPES = {
    np.dtype("float32"): "torch.float32",
    np.dtype("float64"): "torch.float64",
    np.dtype("float16"): "torch.float16",
    np.dtype("int8"): "torch.int8",
    np.dtype("uint8"): "torch.uint8",
    np.dtype("int16"): "torch.int16",
    np.dtype("int32"): "torch.int32",
    np.dtype("int64"): "torch.int64",
    np.dtype("bool"): "torch.bool",
}
if BFLOAT16 is not None:
    TORCH_DTYPES[BFLOAT16] = "torch.bfloat16"


def lit(v):
    """program.lit, except that an empty list is typed: TorchScript reads a bare [] as
    List[Tensor]."""
    if isinstance(v, (list, tuple)) and not v:
        return "torch.jit.annotate(List[int], [])"
    return program.lit(v)


# --- elementwise ---------------------------------------------------------------------------

UNARY = {
    "Abs": "torch.abs({0})",
    "Neg": "torch.neg({0})",
    "Sign": "torch.sign({0})",
    "Relu": "torch.relu({0})",
    "Sigmoid": "torch.sigmoid({0})",
    "Softplus": "torch.nn.functional.softplus({0})",
    "Softsign": "torch.nn.functional.softsign({0})",
    "Exp": "torch.exp({0})",
    "Log": "torch.log({0})",
    "Sqrt": "torch.sqrt({0})",
    "Reciprocal": "torch.reciprocal({0})",
    "Tanh": "torch.tanh({0})",
    "Sin": "torch.sin({0})",
    "Cos": "torch.cos({0})",
    "Tan": "torch.tan({0})",
    "Asin": "torch.asin({0})",
    "Acos": "torch.acos({0})",
    "Atan": "torch.atan({0})",
    "Sinh": "torch.sinh({0})",
    "Cosh": "torch.cosh({0})",
    "Erf": "torch.erf({0})",
    "Floor": "torch.floor({0})",
    "Ceil": "torch.ceil({0})",
    "Round": "torch.round({0})",
    "Not": "torch.logical_not({0})",
    "Identity": "{0}",
}

BINARY = {
    "Add": "torch.add({0}, {1})",
    "Sub": "torch.sub({0}, {1})",
    "Mul": "torch.mul({0}, {1})",
    "Equal": "torch.eq({0}, {1})",
    "Less": "torch.lt({0}, {1})",
    "Greater": "torch.gt({0}, {1})",
    "LessOrEqual": "torch.le({0}, {1})",
    "GreaterOrEqual": "torch.ge({0}, {1})",
    "And": "torch.logical_and({0}, {1})",
    "Or": "torch.logical_or({0}, {1})",
    "Xor": "torch.logical_xor({0}, {1})",
    "PRelu": "torch.where(torch.lt({0}, 0), torch.mul({0}, {1}), {0})",
}


def cast_to(expr, dtype):
    return f"({expr}).to({TORCH_DTYPES[np.dtype(dtype)]})"


def conv_div(c):
    if is_float(c.dtype(0)):
        return f"torch.div({c.x(0)}, {c.x(1)})"
    return f'torch.div({c.x(0)}, {c.x(1)}, rounding_mode="trunc")'


def conv_mod(c):
    fn = "torch.fmod" if c.attr("fmod", 0) else "torch.remainder"
    return f"{fn}({c.x(0)}, {c.x(1)})"


def conv_pow(c):
    # ONNX Pow keeps the base's dtype; torch promotes an integer base with a float exponent.
    expr = f"torch.pow({c.x(0)}, {c.x(1)})"
    return expr if c.dtype(0) == c.dtype(1) else cast_to(expr, c.dtype(0))


def conv_leaky_relu(c):
    return f"torch.nn.functional.leaky_relu({c.x(0)}, {lit(c.attr('alpha', 0.01))})"


def conv_elu(c):
    return f"torch.nn.functional.elu({c.x(0)}, {lit(c.attr('alpha', 1.0))})"


def conv_selu(c):
    alpha, gamma = c.attr("alpha", SELU_ALPHA), c.attr("gamma", SELU_GAMMA)
    if np.float32(alpha) == np.float32(SELU_ALPHA) and np.float32(gamma) == np.float32(SELU_GAMMA):
        return f"torch.selu({c.x(0)})"
    x = c.x(0)
    return (f"torch.where(torch.gt({x}, 0), {x} * {lit(gamma)}, "
            f"torch.expm1({x}) * {lit(gamma * alpha)})")


def conv_hard_sigmoid(c):
    alpha, beta = c.attr("alpha", 0.2), c.attr("beta", 0.5)
    return f"torch.clamp({c.x(0)} * {lit(alpha)} + {lit(beta)}, 0.0, 1.0)"


def conv_mean(c):
    return f"torch.div({fold(c, 'torch.add')}, {len(c.inputs())})"


def conv_clip(c):
    bounds = [f"{k}={c.x(i)}" for i, k in ((1, "min"), (2, "max")) if c.has(i)]
    if not bounds:
        return c.x(0)
    return f"torch.clamp({c.x(0)}, {', '.join(bounds)})"


def conv_cast(c):
    return cast_to(c.x(0), c.out_dtype())


# --- linear algebra ------------------------------------------------------------------------

def integral_scalar(value, dtype, what):
    """alpha/beta for torch.addmm: integer tensors take only integer scalars."""
    if is_float(dtype):
        return lit(value)
    if float(value) != int(value):
        raise Unsupported(f"non-integral {what} {value} on {np.dtype(dtype)}")
    return lit(int(value))


def conv_gemm(c):
    a = f"torch.t({c.x(0)})" if c.attr("transA", 0) else c.x(0)
    b = f"torch.t({c.x(1)})" if c.attr("transB", 0) else c.x(1)
    alpha, beta = c.attr("alpha", 1.0), c.attr("beta", 1.0)
    dt = c.dtype(0)
    if c.has(2):
        return (f"torch.addmm({c.x(2)}, {a}, {b}, beta={integral_scalar(beta, dt, 'beta')}, "
                f"alpha={integral_scalar(alpha, dt, 'alpha')})")
    product = f"torch.mm({a}, {b})"
    if alpha == 1.0:
        return product
    return f"torch.mul({product}, {integral_scalar(alpha, dt, 'alpha')})"


def conv_einsum(c):
    equation = c.attr("equation").replace(" ", "")
    return f'torch.einsum({program.string_lit(equation)}, [{", ".join(c.inputs())}])'


# --- convolution and pooling ---------------------------------------------------------------


def torch_pad_list(begins, ends):
    """ONNX per-axis pads -> torch.nn.functional.pad's list (last axis first)."""
    out = []
    for b, e in zip(reversed(begins), reversed(ends)):
        out += [b, e]
    return out


def conv_conv(c):
    n = spatial_rank(c, "torch", 3)
    kernel = list(c.shape(1)[2:])
    strides, dilations, begins, ends = window(c, kernel)
    x = c.x(0)
    padding = begins
    if begins != ends:
        x = f'torch.nn.functional.pad({x}, {lit(torch_pad_list(begins, ends))}, "constant", 0.0)'
        padding = [0] * n
    bias = c.x(2) if c.has(2) else "None"
    return (f"torch.nn.functional.conv{n}d({x}, {c.x(1)}, {bias}, {lit(strides)}, "
            f"{lit(padding)}, {lit(dilations)}, {c.attr('group', 1)})")


def conv_conv_transpose(c):
    n = spatial_rank(c, "torch", 3)
    _, strides, dilations, begins, ends, extra, group, full = conv_transpose_geometry(c)
    bias = c.x(2) if c.has(2) else "None"
    y = (f"torch.nn.functional.conv_transpose{n}d({c.x(0)}, {c.x(1)}, {bias}, {lit(strides)}, "
         f"{lit([0] * n)}, {lit(extra)}, {group}, {lit(dilations)})")
    if not any(begins) and not any(ends):
        return y
    return subscript(y, [None, None] + [(b, f - e, 1) for b, e, f in zip(begins, ends, full)])


def native_padding(kernel, begins, ends):
    """Whether torch's pooling padding argument can express the pads (symmetric, <= k/2)."""
    return begins == ends and all(2 * p <= k for p, k in zip(begins, kernel))


def conv_max_pool(c):
    if c.n_outputs() > 1 and c.node.output[1]:
        raise Unsupported("the Indices output")
    n = spatial_rank(c, "torch", 3)
    kernel = list(c.attr("kernel_shape"))
    strides, dilations, begins, ends = window(c, kernel)
    x = c.x(0)
    padding = begins
    if not native_padding(kernel, begins, ends):
        fill = lit(float(lowest(c.dtype(0))))
        x = f'torch.nn.functional.pad({x}, {lit(torch_pad_list(begins, ends))}, "constant", {fill})'
        padding = [0] * n
    ceil_mode = lit(bool(c.attr("ceil_mode", 0)))
    return (f"torch.nn.functional.max_pool{n}d({x}, {lit(kernel)}, {lit(strides)}, "
            f"{lit(padding)}, {lit(dilations)}, {ceil_mode})")


def conv_average_pool(c):
    n = spatial_rank(c, "torch", 3)
    kernel = list(c.attr("kernel_shape"))
    strides, _, begins, ends = window(c, kernel)
    ceil_mode = lit(bool(c.attr("ceil_mode", 0)))
    include = bool(c.attr("count_include_pad", 0))

    def pool(x, padding, count_pad):
        return (f"torch.nn.functional.avg_pool{n}d({x}, {lit(kernel)}, {lit(strides)}, "
                f"{lit(padding)}, {ceil_mode}, {lit(count_pad)})")

    if native_padding(kernel, begins, ends):
        return pool(c.x(0), begins, include)
    pads = lit(torch_pad_list(begins, ends))
    padded = f'torch.nn.functional.pad({c.x(0)}, {pads}, "constant", 0.0)'
    if include:
        return pool(padded, [0] * n, True)
    # Mean over the real elements only: pooled values over pooled coverage.
    ones = f'torch.nn.functional.pad(torch.ones_like({c.x(0)}), {pads}, "constant", 0.0)'
    return f"torch.div({pool(padded, [0] * n, True)}, {pool(ones, [0] * n, True)})"


def conv_global_pool(fn):
    def convert(c):
        dims = list(range(2, c.rank(0)))
        return f"{fn}({c.x(0)}, {lit(dims)}, True)"

    return convert


# --- normalisation -------------------------------------------------------------------------

def conv_batch_norm(c):
    eps = lit(batch_norm_epsilon(c))
    return (f"torch.nn.functional.batch_norm({c.x(0)}, {c.x(3)}, {c.x(4)}, {c.x(1)}, {c.x(2)}, "
            f"False, 0.0, {eps})")


def conv_layer_norm(c):
    normalized = [c.shape(0)[d] for d in layer_norm_axes(c)]
    bias = c.x(2) if c.has(2) else "None"
    return (f"torch.nn.functional.layer_norm({c.x(0)}, {lit(normalized)}, {c.x(1)}, {bias}, "
            f"{lit(norm_epsilon(c))})")


def conv_instance_norm(c):
    return (f"torch.nn.functional.instance_norm({c.x(0)}, None, None, {c.x(1)}, {c.x(2)}, True, "
            f"0.0, {lit(norm_epsilon(c))})")


def conv_group_norm(c):
    return (f"torch.nn.functional.group_norm({c.x(0)}, {lit(c.attr('num_groups'))}, {c.x(1)}, "
            f"{c.x(2)}, {lit(norm_epsilon(c))})")


def conv_softmax(fn):
    return lambda c: f"{fn}({c.x(0)}, {norm_axis(c.attr('axis', -1), c.rank(0))})"


def quant_param(c, i):
    """Input i (a scale or zero point) as f32, shaped to broadcast along the node's axis."""
    shape = quant_shape(c)
    x = cast_to(c.x(i), np.float32)
    return x if shape is None else f"torch.reshape({x}, {lit(shape)})"


def conv_quantize_linear(c):
    q = f"torch.round(torch.div({c.x(0)}, {quant_param(c, 1)}))"
    if c.has(2):
        q = f"torch.add({q}, {quant_param(c, 2)})"
    lo, hi = quant_range(c)
    return cast_to(f"torch.clamp({q}, {lit(lo)}, {lit(hi)})", c.out_dtype())


def conv_dequantize_linear(c):
    x = cast_to(c.x(0), np.float32)
    if c.has(2):
        x = f"torch.sub({x}, {quant_param(c, 2)})"
    return f"torch.mul({x}, {quant_param(c, 1)})"


TORCH_RESIZE = {("nearest", "asymmetric", "floor"): "nearest",
                ("nearest", "half_pixel", "round_prefer_ceil"): "nearest-exact",
                ("linear", "half_pixel", None): "linear",
                ("linear", "align_corners", None): "linear"}


def resize_gathers(c):
    """Resize as gathers along each spatial axis (resize_tables), linear as lo * (1 - w) + hi * w
    with the weights in x's dtype."""
    y = c.x(0)
    dt = TORCH_DTYPES[np.dtype(c.dtype(0))]
    for axis, (lo, hi, w) in enumerate(resize_tables(c), start=2):
        low = f"torch.index_select({y}, {axis}, torch.tensor({lit(lo)}))"
        if lo == hi:
            y = c.tmp(low)
            continue
        shape = [1] * c.rank(0)
        shape[axis] = -1
        weight = c.tmp(f"torch.reshape(torch.tensor({lit(w)}, dtype={dt}), {lit(shape)})")
        high = f"torch.index_select({y}, {axis}, torch.tensor({lit(hi)}))"
        y = c.tmp(f"{low} * (1 - {weight}) + {high} * {weight}")
    return y


def conv_resize(c):
    """torch.nn.functional.interpolate where its modes are ONNX's (Inductor lowers them), else
    gathers: nearest is asymmetric + floor, nearest-exact half_pixel + round_prefer_ceil, linear
    half_pixel (torch clamps the source as ONNX's edge padding does) or align_corners."""
    mode, coord, rounding, sizes = resize_params(c)
    if coord == "pytorch_half_pixel" and min(sizes[2:]) > 1:
        coord = "half_pixel"
    name = TORCH_RESIZE.get((mode, coord, rounding if mode == "nearest" else None))
    if name is None:
        return resize_gathers(c)
    n = c.rank(0) - 2
    if name == "linear":
        name = ("linear", "bilinear", "trilinear")[n - 1]
        corners = lit(coord == "align_corners")
        return (f"torch.nn.functional.interpolate({c.x(0)}, {lit(sizes[2:])}, None, "
                f"{string_lit(name)}, {corners})")
    return f"torch.nn.functional.interpolate({c.x(0)}, {lit(sizes[2:])}, None, {string_lit(name)})"


# --- reductions ----------------------------------------------------------------------------


def extreme(c, x, dims, keep, dt):
    """torch.amax/amin; over an empty axis ONNX gives the identity (-inf or the dtype's least for
    max), where torch raises, so then the output is that constant."""
    fn = "amax" if c.op == "ReduceMax" else "amin"
    shape = list(c.shape(0))
    if all(shape[d] != 0 for d in dims):
        return f"torch.{fn}({x}, {lit(dims)}, {keep})"
    if is_float(c.dtype(0)):
        ident = "float('-inf')" if fn == "amax" else "float('inf')"
    else:  # a literal: TorchScript has no torch.iinfo
        info = np.iinfo(np.dtype(c.dtype(0)))
        ident = lit(info.min if fn == "amax" else info.max)
    out = [1 if d in dims else n for d, n in enumerate(shape) if d not in dims or keep == "True"]
    return f"torch.full({lit(out)}, {ident}, dtype={dt})"


def conv_reduce(c):
    dims = reduce_dims(c)
    x = c.x(0)
    if dims is None or not dims:
        return x
    keep = lit(bool(c.attr("keepdims", 1)))
    dt = TORCH_DTYPES[np.dtype(c.dtype(0))]
    if c.op == "ReduceSum":
        return f"torch.sum({x}, {lit(dims)}, {keep}, dtype={dt})"
    if c.op in ("ReduceMax", "ReduceMin"):
        return extreme(c, x, dims, keep, dt)
    if c.op == "ReduceMean":
        if is_float(c.dtype(0)):
            return f"torch.mean({x}, {lit(dims)}, {keep})"
        count = mean_count(c, dims)
        total = f"torch.sum({x}, {lit(dims)}, {keep}, dtype=torch.int64)"
        return cast_to(f'torch.div({total}, {count}, rounding_mode="trunc")', c.dtype(0))
    for d in reversed(dims):  # ReduceProd: torch.prod takes one axis at a time
        x = f"torch.prod({x}, {d}, {keep}, dtype={dt})"
    return x


def conv_arg(fn):
    def convert(c):
        axis = norm_axis(c.attr("axis", 0), c.rank(0))
        keep = lit(bool(c.attr("keepdims", 1)))
        if not c.attr("select_last_index", 0):
            return f"{fn}({c.x(0)}, {axis}, {keep})"
        last = c.shape(0)[axis] - 1
        return f"torch.sub({last}, {fn}(torch.flip({c.x(0)}, [{axis}]), {axis}, {keep}))"

    return convert


# --- shape ops -----------------------------------------------------------------------------

def conv_reshape(c):
    return f"torch.reshape({c.x(0)}, {lit(reshape_target(c))})"


def conv_flatten(c):
    return f"torch.reshape({c.x(0)}, {lit(list(flatten_dims(c)))})"


def conv_squeeze(c):
    x = c.x(0)
    for d in reversed(squeeze_dims(c)):
        x = f"torch.squeeze({x}, {d})"
    return x


def conv_unsqueeze(c):
    x = c.x(0)
    for d in unsqueeze_dims(c):
        x = f"torch.unsqueeze({x}, {d})"
    return x


def conv_transpose(c):
    return f"torch.permute({c.x(0)}, {lit(transpose_perm(c))})"


def conv_concat(c):
    axis = norm_axis(c.attr("axis"), c.rank(0))
    return f"torch.cat([{', '.join(c.inputs())}], {axis})"


def conv_split(c):
    axis, sizes = split_sizes(c)
    parts = c.tmp(f"torch.split({c.x(0)}, {lit(sizes)}, {axis})")
    return [f"{parts}[{i}]" for i in range(len(sizes))]


def conv_slice(c):
    ranges, flips = slice_steps(c)
    x = f"torch.flip({c.x(0)}, {lit(flips)})" if flips else c.x(0)
    return subscript(x, ranges)


def conv_gather(c):
    axis, n = gather_axis(c)
    idx = f"{c.x(1)}.to(torch.int64)"
    idx = f"torch.where(torch.lt({idx}, 0), {idx} + {n}, {idx})"
    picked = f"torch.index_select({c.x(0)}, {axis}, torch.reshape({idx}, [-1]))"
    return f"torch.reshape({picked}, {lit(list(c.out_shape()))})"


def conv_cumsum(c):
    """Scans forward; reverse flips before and after, and exclusive sums the axis shifted by one
    (a zero first), so that each output adds the same terms in the same order as ONNX's."""
    axis, n, exclusive, reverse = cumsum_scan(c)
    x = c.x(0)
    if n == 0:
        return x
    if reverse:
        x = c.tmp(f"torch.flip({x}, [{axis}])")
    if exclusive:
        x = c.tmp(f"torch.cat([torch.zeros_like(torch.narrow({x}, {axis}, 0, 1)), "
                  f"torch.narrow({x}, {axis}, 0, {n - 1})], {axis})")
    y = f"torch.cumsum({x}, {axis}, dtype={TORCH_DTYPES[np.dtype(c.dtype(0))]})"
    return f"torch.flip({y}, [{axis}])" if reverse else y


def element_index(c, n):
    idx = f"{c.x(1)}.to(torch.int64)"
    return c.tmp(f"torch.where(torch.lt({idx}, 0), {idx} + {n}, {idx})")


def conv_gather_elements(c):
    axis, n, _ = element_axis(c)
    return f"torch.gather({c.x(0)}, {axis}, {element_index(c, n)})"


def conv_scatter_elements(c):
    axis, n, reduction = element_axis(c)
    idx = element_index(c, n)
    if reduction == "none":
        return f"torch.scatter({c.x(0)}, {axis}, {idx}, {c.x(2)})"
    how = {"add": "sum", "mul": "prod"}[reduction]
    return f'torch.scatter_reduce({c.x(0)}, {axis}, {idx}, {c.x(2)}, "{how}")'


def conv_topk(c):
    """A stable sort, cut to k: torch.topk does not promise ONNX's order of ties (lower index
    first)."""
    axis, k, largest = topk_params(c)
    s = c.tmp(f"torch.sort({c.x(0)}, dim={axis}, descending={lit(largest)}, stable=True)")
    return [f"torch.narrow({s}[{j}], {axis}, 0, {k})" for j in (0, 1)]


def conv_pad(c):
    begins, ends, mode = pad_widths(c)
    if mode == "constant":
        value = float(c.const(2).reshape(-1)[0]) if c.has(2) else 0.0
        return (f"torch.nn.functional.pad({c.x(0)}, {lit(torch_pad_list(begins, ends))}, "
                f'"constant", {lit(value)})')
    x = c.x(0)
    for axis, index in pad_gathers(c, begins, ends, mode):
        x = f"torch.index_select({x}, {axis}, torch.tensor({lit(index)}, dtype=torch.int64))"
    return x


def conv_expand(c):
    return f"{c.x(0)}.expand({lit(expand_shape(c))})"


def conv_tile(c):
    return f"{c.x(0)}.repeat({lit(ints(c.const(1)))})"


def conv_shape(c):
    return f"torch.tensor({lit(shape_values(c))}, dtype=torch.int64)"


# ONNX op types that Retort exports but the worker cannot express at all, with the reason. Every
# registry op has a converter today; narrower limits (a dtype without a CPU kernel, MaxPool's
# Indices output, training-mode BatchNormalization, ...) are raised as Unsupported by the
# converters or detected from torch's "not implemented for" errors; docs/backend-protocol.md
# lists them.
UNSUPPORTED_OPS = {}

CONVERTERS = {
    **{op: template(text, 1) for op, text in UNARY.items()},
    **{op: template(text, 2) for op, text in BINARY.items()},
    "Div": conv_div,
    "Mod": conv_mod,
    "Pow": conv_pow,
    "LeakyRelu": conv_leaky_relu,
    "Elu": conv_elu,
    "Selu": conv_selu,
    "HardSigmoid": conv_hard_sigmoid,
    "Max": lambda c: fold(c, "torch.maximum"),
    "Min": lambda c: fold(c, "torch.minimum"),
    "Sum": lambda c: fold(c, "torch.add"),
    "Mean": conv_mean,
    "Where": template("torch.where({0}, {1}, {2})", 3),
    "Clip": conv_clip,
    "Cast": conv_cast,
    "MatMul": template("torch.matmul({0}, {1})", 2),
    "Gemm": conv_gemm,
    "Einsum": conv_einsum,
    "Conv": conv_conv,
    "ConvTranspose": conv_conv_transpose,
    "MaxPool": conv_max_pool,
    "AveragePool": conv_average_pool,
    "GlobalAveragePool": conv_global_pool("torch.mean"),
    "GlobalMaxPool": conv_global_pool("torch.amax"),
    "BatchNormalization": conv_batch_norm,
    "LayerNormalization": conv_layer_norm,
    "Resize": conv_resize,
    "QuantizeLinear": conv_quantize_linear,
    "DequantizeLinear": conv_dequantize_linear,
    "InstanceNormalization": conv_instance_norm,
    "GroupNormalization": conv_group_norm,
    "Softmax": conv_softmax("torch.softmax"),
    "LogSoftmax": conv_softmax("torch.log_softmax"),
    "ReduceSum": conv_reduce,
    "ReduceMean": conv_reduce,
    "ReduceMax": conv_reduce,
    "ReduceMin": conv_reduce,
    "ReduceProd": conv_reduce,
    "ArgMax": conv_arg("torch.argmax"),
    "ArgMin": conv_arg("torch.argmin"),
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
