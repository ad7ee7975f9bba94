"""ONNX's arithmetic on a node, in plain numbers, for every framework's converter table.

What the ONNX spec says a node's attributes and constant operands mean — the pads after
auto_pad, a pooling window and the extra end padding of ceil_mode, the reduced axes, Slice's
clamped bounds, the source positions of an edge or reflect Pad, Reshape's zeros, the axes of
Squeeze and Unsqueeze, Split's sizes, Gemm's scalars, BatchNormalization's epsilon,
Selu's defaults — is written once here.
torch_ops, tf_ops and jax_ops keep only how their framework spells the result.
"""

import math

import numpy as np

from .errors import Unsupported
from .program import ints, norm_axis
from .tensors import is_float

# Selu's default attributes (the ONNX spec's values, exact in f64).
SELU_ALPHA = 1.67326319217681884765625
SELU_GAMMA = 1.05070102214813232421875


def spatial_rank(c, framework=None, highest=None):
    """The number of spatial axes of input 0 (N, C, spatial...). A framework that has forms for
    1-D up to `highest`-D only names itself in the refusal."""
    n = c.rank(0) - 2
    if n < 1:
        raise Unsupported("no spatial axes")
    if highest is not None and n > highest:
        raise Unsupported(f"{framework} has 1-D to {highest}-D forms only, got {n} spatial axes")
    return n


def resolve_pads(c, kernel, strides, dilations):
    """The begin and end pads of each spatial axis of input 0, after auto_pad."""
    spatial = c.shape(0)[2:]
    n = len(spatial)
    auto_pad = c.attr("auto_pad", "NOTSET")
    if auto_pad in ("NOTSET", ""):
        pads = list(c.attr("pads", [0] * (2 * n)))
        return pads[:n], pads[n:]
    if auto_pad == "VALID":
        return [0] * n, [0] * n
    begins, ends = [], []
    for size, k, s, d in zip(spatial, kernel, strides, dilations):
        out = -(-size // s)
        total = max(0, (out - 1) * s + (k - 1) * d + 1 - size)
        small = total // 2
        begin = small if auto_pad == "SAME_UPPER" else total - small
        begins.append(begin)
        ends.append(total - begin)
    return begins, ends


def window(c, kernel):
    """strides, dilations, begin pads and end pads of a convolution or pooling window."""
    n = len(kernel)
    strides = list(c.attr("strides", [1] * n))
    dilations = list(c.attr("dilations", [1] * n))
    begins, ends = resolve_pads(c, kernel, strides, dilations)
    return strides, dilations, begins, ends


def conv_transpose_geometry(c):
    """ConvTranspose's kernel, strides, dilations, begin pads, end pads, output_padding, group and
    the uncropped extents s * (in - 1) + (k - 1) * d + 1 + output_padding, for explicit pads only
    (auto_pad and output_shape, which Retort does not export, have no converter)."""
    if c.attr("auto_pad", "NOTSET") != "NOTSET" or c.attr("output_shape") is not None:
        raise Unsupported("auto_pad or output_shape")
    kernel = list(c.shape(1)[2:])
    n = len(kernel)
    strides = list(c.attr("strides", [1] * n))
    dilations = list(c.attr("dilations", [1] * n))
    pads = list(c.attr("pads", [0] * 2 * n))
    extra = list(c.attr("output_padding", [0] * n))
    full = [s * (size - 1) + (k - 1) * d + 1 + e for size, k, s, d, e in
            zip(c.shape(0)[2:], kernel, strides, dilations, extra)]
    return (kernel, strides, dilations, pads[:n], pads[n:], extra, int(c.attr("group", 1)), full)


def quant_shape(c):
    """The shape that makes a QuantizeLinear or DequantizeLinear scale (and zero point) broadcast
    along its axis, or None for a per-tensor (0-D) one."""
    if not c.shape(1):
        return None
    rank = c.rank(0)
    axis = c.attr("axis", 1)
    if not -rank <= axis < rank:
        raise Unsupported(f"axis {axis} out of range for rank {rank}")
    shape = [1] * rank
    shape[axis % rank] = -1
    return shape


def quant_range(c):
    """The lowest and largest values of QuantizeLinear's output dtype (u8 without a zero point)."""
    info = np.iinfo(c.dtype(2) if c.has(2) else np.uint8)
    return float(info.min), float(info.max)


RESIZE_COORDS = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric")
RESIZE_ROUNDING = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


def resize_params(c):
    """Resize's mode, coordinate mode, nearest rounding and output sizes, in the subset Retort
    exports (sizes given over N x C x spatial axes, N and C kept; no roi, no scales)."""
    if c.has(1) or c.has(2) or not c.has(3):
        raise Unsupported("roi or scales instead of sizes")
    mode = c.attr("mode", "nearest")
    coord = c.attr("coordinate_transformation_mode", "half_pixel")
    rounding = c.attr("nearest_mode", "round_prefer_floor")
    if mode not in ("nearest", "linear") or coord not in RESIZE_COORDS or (
            rounding not in RESIZE_ROUNDING):
        raise Unsupported(f"mode {mode!r} with {coord!r} and {rounding!r}")
    sizes = ints(c.const(3))
    shape = list(c.shape(0))
    if not 3 <= len(shape) <= 5 or sizes[:2] != shape[:2] or len(sizes) != len(shape):
        raise Unsupported(f"sizes {sizes} beside the batch and channels of {shape}")
    return mode, coord, rounding, sizes


def resize_source(dst, size, out, coord):
    """The input coordinate of output position dst along an axis of size -> out elements."""
    if coord == "align_corners":
        return 0.0 if out == 1 else dst * (size - 1) / (out - 1)
    if coord == "asymmetric":
        return dst * size / out
    if coord == "pytorch_half_pixel" and out == 1:
        return 0.0
    return (2 * dst + 1) * size / (2 * out) - 0.5


def resize_tables(c):
    """Per spatial axis of a Resize, (lo, hi, w): the input positions each output position reads
    (one for nearest, where lo = hi) and the weight of hi, clamped into the axis as ONNX's
    reference does by edge padding."""
    mode, coord, rounding, sizes = resize_params(c)
    tables = []
    for size, out in zip(c.shape(0)[2:], sizes[2:]):
        lo, hi, w = [], [], []
        for dst in range(out):
            x = resize_source(dst, size, out, coord)
            f = math.floor(x)
            if mode == "nearest":
                k = {"round_prefer_floor": math.ceil(x - 0.5), "round_prefer_ceil": f if
                     x - f < 0.5 else f + 1, "floor": f, "ceil": math.ceil(x)}[rounding]
                k = min(max(k, 0), size - 1)
                lo.append(k), hi.append(k), w.append(0.0)
            else:
                lo.append(min(max(f, 0), size - 1))
                hi.append(min(max(f + 1, 0), size - 1))
                w.append(x - f)
        tables.append((lo, hi, w))
    return tables


def ceil_extra(size, k, s, d, begin, end):
    """End padding that gives ceil_mode's last window to a floor-mode pooling."""
    span = (k - 1) * d + 1
    padded = size + begin + end
    out = -(-(padded - span) // s) + 1
    if (out - 1) * s >= size + begin:  # a window may not start in the end padding
        out -= 1
    return max(0, (out - 1) * s + span - padded)


def pool_geometry(c):
    """kernel, strides, dilations, begin pads, end pads and ceil_mode's extra end pads."""
    kernel = list(c.attr("kernel_shape"))
    strides, dilations, begins, ends = window(c, kernel)
    extra = [0] * len(kernel)
    if c.attr("ceil_mode", 0):
        extra = [ceil_extra(size, k, s, d, b, e) for size, k, s, d, b, e in
                 zip(c.shape(0)[2:], kernel, strides, dilations, begins, ends)]
    return kernel, strides, dilations, begins, ends, extra


def lowest(dtype):
    """The value MaxPool pads with: below every element of the dtype."""
    dtype = np.dtype(dtype)
    return -math.inf if is_float(dtype) else int(np.iinfo(dtype).min)


def reduce_dims(c):
    """The reduced axes, sorted, or None when the node reduces nothing (noop_with_empty_axes)."""
    rank = c.rank(0)
    if c.op == "ReduceSum":
        axes = ints(c.const(1)) if c.has(1) else []
    else:
        axes = list(c.attr("axes", []))
    if not axes:
        return None if c.attr("noop_with_empty_axes", 0) else list(range(rank))
    return sorted({norm_axis(int(a), rank) for a in axes})


def slice_bounds(start, end, step, n):
    """ONNX Slice's clamping of one axis of length n."""
    start = start + n if start < 0 else start
    end = end + n if end < 0 else end
    if step > 0:
        return min(max(start, 0), n), min(max(end, 0), n)
    return min(max(start, 0), n - 1), min(max(end, -1), n - 1)


def pad_index(mode, begin, end, n):
    """Source positions of one padded axis for edge and reflect modes (negative pads crop)."""
    out = []
    for i in range(-begin, n + end):
        if mode == "edge":
            out.append(min(max(i, 0), n - 1))
            continue
        period = 2 * (n - 1)
        j = abs(i) % period if period else 0
        out.append(period - j if j >= n else j)
    return out


def gemm_scalars(c):
    """Gemm's alpha and beta; a non-integral one cannot scale an integer product."""
    dt = c.dtype(0)
    alpha, beta = c.attr("alpha", 1.0), c.attr("beta", 1.0)
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not is_float(dt) and float(v) != int(v):
            raise Unsupported(f"non-integral {name} {v} on {np.dtype(dt)}")
    return alpha, beta


def batch_norm_epsilon(c):
    """BatchNormalization's epsilon, for its inference form only: training mode (and the running
    statistics it outputs) has no converter."""
    if c.attr("training_mode", 0) or (c.n_outputs() > 1 and any(c.node.output[1:])):
        raise Unsupported("training mode")
    return c.attr("epsilon", 1e-5)


def norm_epsilon(c):
    """The epsilon of LayerNormalization and InstanceNormalization (a float32 attribute)."""
    return float(np.float32(c.attr("epsilon", 1e-5)))


def layer_norm_axes(c):
    """The axes LayerNormalization normalizes over (its axis to the last), for its Y output only:
    Mean and InvStdDev, and statistics in another type than float32 (stash_type), have no
    converter."""
    if c.n_outputs() > 1 and any(c.node.output[1:]):
        raise Unsupported("Mean and InvStdDev outputs")
    if c.attr("stash_type", 1) != 1:
        raise Unsupported(f"stash_type {c.attr('stash_type')}")
    rank = c.rank(0)
    axis = c.attr("axis", -1)
    if not -rank <= axis < rank:
        raise Unsupported(f"axis {axis} out of range for rank {rank}")
    return list(range(axis % rank, rank))


def mean_count(c, dims):
    """How many elements ReduceMean averages over the reduced axes (an integer mean divides the
    integer sum by it)."""
    return int(np.prod([c.shape(0)[d] for d in dims]))


def reshape_target(c):
    """Reshape's target shape: a 0 keeps the input's extent there, unless allowzero makes it an
    empty axis."""
    shape = ints(c.const(1))
    if not c.attr("allowzero", 0):
        shape = [c.shape(0)[i] if v == 0 else v for i, v in enumerate(shape)]
    return shape


def flatten_dims(c):
    """Flatten's two extents: the product of the axes before `axis`, and that of the rest."""
    shape = c.shape(0)
    axis = c.attr("axis", 1)
    axis = axis + len(shape) if axis < 0 else axis
    return int(np.prod(shape[:axis], dtype=np.int64)), int(np.prod(shape[axis:], dtype=np.int64))


def squeeze_dims(c):
    """The axes Squeeze removes, sorted: those of the axes operand, else every axis of extent 1."""
    shape = c.shape(0)
    if c.has(1):
        return sorted({norm_axis(a, len(shape)) for a in ints(c.const(1))})
    return [d for d, n in enumerate(shape) if n == 1]


def unsqueeze_dims(c):
    """Where Unsqueeze's new axes stand in the output, sorted (its axes count in the output's
    rank)."""
    axes = ints(c.const(1))
    out_rank = c.rank(0) + len(axes)
    return sorted(norm_axis(a, out_rank) for a in axes)


def transpose_perm(c):
    """Transpose's permutation; without one, ONNX reverses the axes."""
    return list(c.attr("perm", list(reversed(range(c.rank(0))))))


def split_sizes(c):
    """Split's axis and the size of each part: the split operand, else equal parts with a
    smaller last one."""
    axis = norm_axis(c.attr("axis", 0), c.rank(0))
    if c.has(1):
        return axis, ints(c.const(1))
    n, extent = c.n_outputs(), c.shape(0)[axis]
    chunk = -(-extent // n)
    return axis, [chunk] * (n - 1) + [extent - chunk * (n - 1)]


def slice_steps(c):
    """Slice as forward steps: per axis of input 0, None (the whole axis) or (start, stop, step)
    with 0 <= start <= stop and a positive step, and the sorted axes to flip first (a negative
    step walks the flipped axis forward, which every framework can slice)."""
    shape = c.shape(0)
    starts, ends = ints(c.const(1)), ints(c.const(2))
    axes = ints(c.const(3)) if c.has(3) else list(range(len(starts)))
    steps = ints(c.const(4)) if c.has(4) else [1] * len(starts)
    ranges = [None] * len(shape)
    flips = []
    for start, end, axis, step in zip(starts, ends, axes, steps):
        axis = norm_axis(axis, len(shape))
        n = shape[axis]
        if step == 0:
            raise Unsupported("step 0")
        start, end = slice_bounds(start, end, step, n)
        if step < 0:
            flips.append(axis)
            start, end, step = n - 1 - start, n - 1 - end, -step
        ranges[axis] = (start, max(end, start), step)
    return ranges, sorted(flips)


def gather_axis(c):
    """Gather's axis and its extent (a negative index counts back from it)."""
    axis = norm_axis(c.attr("axis", 0), c.rank(0))
    return axis, c.shape(0)[axis]


def element_axis(c):
    """GatherElements' and ScatterElements' axis, its extent in data, and the reduction."""
    axis = norm_axis(c.attr("axis", 0), c.rank(0))
    reduction = c.attr("reduction", "none")
    if reduction not in ("none", "add", "mul"):
        raise Unsupported(f"reduction {reduction!r} (opset 18)")
    return axis, c.shape(0)[axis], reduction


def topk_params(c):
    """TopK's axis, k (input 1), largest; sorted=0 leaves the order open and is not taken."""
    axis = norm_axis(c.attr("axis", -1), c.rank(0))
    if not c.attr("sorted", 1):
        raise Unsupported("sorted=0")
    return axis, ints(c.const(1))[0], bool(c.attr("largest", 1))


def cumsum_scan(c):
    """CumSum's axis (input 1, a 0-D or one-element tensor), its extent, exclusive and reverse."""
    axis = norm_axis(ints(c.const(1))[0], c.rank(0))
    return axis, c.shape(0)[axis], bool(c.attr("exclusive", 0)), bool(c.attr("reverse", 0))


def pad_widths(c):
    """Pad's begin and end widths of each axis (negative widths crop) and its mode."""
    rank = c.rank(0)
    pads = ints(c.const(1))
    if c.has(3):
        raise Unsupported("the axes input (opset 18)")
    return pads[:rank], pads[rank:], c.attr("mode", "constant")


def pad_gathers(c, begins, ends, mode):
    """[(axis, source positions)] that an edge or reflect Pad gathers, for each padded axis."""
    if mode not in ("edge", "reflect"):
        raise Unsupported(f"mode {mode!r}")
    return [(axis, pad_index(mode, b, e, c.shape(0)[axis]))
            for axis, (b, e) in enumerate(zip(begins, ends)) if b or e]


def expand_shape(c):
    """Expand's output shape: the input broadcast with the shape operand, numpy's way."""
    return list(np.broadcast_shapes(tuple(c.shape(0)), tuple(ints(c.const(1)))))


def shape_values(c):
    """Shape's output: the input's extents from start to end, both clamped into the rank."""
    shape = list(c.shape(0))
    rank = len(shape)
    start, end = c.attr("start", 0), c.attr("end", rank)
    start = min(max(start + rank if start < 0 else start, 0), rank)
    end = min(max(end + rank if end < 0 else end, 0), rank)
    return shape[start:end]
