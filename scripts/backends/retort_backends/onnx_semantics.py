"""ONNX's arithmetic on a node, in plain numbers, for every framework's converter table.

What the ONNX spec says a node's attributes mean — the pads after auto_pad, a pooling window and
the extra end padding of ceil_mode, the reduced axes, Slice's clamped bounds, the source positions
of an edge or reflect Pad, Selu's defaults — is written once here. torch_ops, tf_ops and jax_ops
keep only how their framework spells the result.
"""

import math

import numpy as np

from .errors import Unsupported
from .program import ints, is_float, norm_axis

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
