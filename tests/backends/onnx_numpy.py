"""A small numpy evaluator of ONNX (opset 17) graphs: the expectations of the worker tests.

Written from the ONNX operator specification, independently of torch, for the ops Retort
exports. Integer arithmetic wraps as numpy does; division and remainder follow ONNX.
"""

import itertools
import math

import numpy as np
import onnx
import onnx.helper
import onnx.numpy_helper

from onnx_compat import np_dtype


def _erf(x):
    return np.vectorize(math.erf, otypes=[x.dtype])(x) if x.size else x


SELU_ALPHA = 1.67326319217681884765625
SELU_GAMMA = 1.05070102214813232421875

UNARY = {
    "Abs": np.abs, "Neg": np.negative, "Sign": np.sign,
    "Relu": lambda x: np.maximum(x, x.dtype.type(0)),
    "Sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "Softplus": lambda x: np.log1p(np.exp(x)),
    "Softsign": lambda x: x / (1 + np.abs(x)),
    "Exp": np.exp, "Log": np.log, "Sqrt": np.sqrt, "Reciprocal": lambda x: 1 / x,
    "Tanh": np.tanh, "Sin": np.sin, "Cos": np.cos, "Tan": np.tan, "Asin": np.arcsin,
    "Acos": np.arccos, "Atan": np.arctan, "Sinh": np.sinh, "Cosh": np.cosh, "Erf": _erf,
    "Floor": np.floor, "Ceil": np.ceil, "Round": np.round, "Not": np.logical_not,
    "Identity": lambda x: x,
}


def _int_div(a, b):
    q = np.abs(a.astype(np.int64)) // np.abs(b.astype(np.int64))
    return (q * np.sign(a) * np.sign(b)).astype(a.dtype)


def _div(a, b):
    return a / b if a.dtype.kind == "f" else _int_div(a, b)


def _mod(a, b, fmod=0):
    return np.fmod(a, b) if fmod else np.mod(a, b)


def _pow(a, b):
    return np.power(a.astype(np.float64), b.astype(np.float64)).astype(a.dtype) \
        if a.dtype != b.dtype else np.power(a, b)


BINARY = {
    "Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": _div, "Mod": _mod,
    "Pow": _pow, "Equal": np.equal, "Less": np.less, "Greater": np.greater,
    "LessOrEqual": np.less_equal, "GreaterOrEqual": np.greater_equal,
    "And": np.logical_and, "Or": np.logical_or, "Xor": np.logical_xor,
    "PRelu": lambda x, s: np.where(x < 0, x * s, x),
}


def _activation(op, x, a):
    if op == "LeakyRelu":
        alpha = a.get("alpha", 0.01)
        return np.where(x < 0, x * alpha, x)
    if op == "Elu":
        return np.where(x < 0, a.get("alpha", 1.0) * np.expm1(x), x)
    if op == "Selu":
        alpha, gamma = a.get("alpha", SELU_ALPHA), a.get("gamma", SELU_GAMMA)
        return np.where(x > 0, gamma * x, gamma * alpha * np.expm1(x))
    alpha, beta = a.get("alpha", 0.2), a.get("beta", 0.5)  # HardSigmoid
    return np.clip(alpha * x + beta, 0, 1)


def _windows(x, kernel, strides, dilations, pads, fill):
    """x padded, and its sliding windows [N, C, out..., k...] (strided and dilated)."""
    n = len(kernel)
    pad_width = [(0, 0), (0, 0)] + [(pads[i], pads[i + n]) for i in range(n)]
    xp = np.pad(x, pad_width, constant_values=fill)
    span = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    if 0 in xp.shape:  # no window to view: an empty output of the windows' shape
        out = [(size - w) // s + 1 if size >= w else 0
               for size, w, s in zip(xp.shape[2:], span, strides)]
        return np.zeros(list(xp.shape[:2]) + out + list(kernel), x.dtype)
    view = np.lib.stride_tricks.sliding_window_view(xp, span, axis=tuple(range(2, 2 + n)))
    for i in range(n):
        view = np.take(view, range(0, view.shape[2 + i], strides[i]), axis=2 + i)
        view = np.take(view, range(0, span[i], dilations[i]), axis=2 + n + i)
    return view


def _geometry(x, kernel, a):
    n = len(kernel)
    strides = a.get("strides", [1] * n)
    dilations = a.get("dilations", [1] * n)
    pads = a.get("pads", [0] * (2 * n))
    if a.get("auto_pad", "NOTSET") not in ("NOTSET", "VALID"):
        begins, ends = [], []
        for size, k, s, d in zip(x.shape[2:], kernel, strides, dilations):
            total = max(0, (-(-size // s) - 1) * s + (k - 1) * d + 1 - size)
            begin = total // 2 if a["auto_pad"] == "SAME_UPPER" else total - total // 2
            begins.append(begin)
            ends.append(total - begin)
        pads = begins + ends
    return strides, dilations, pads


def _conv(x, w, b=None, **a):
    kernel = list(w.shape[2:])
    n = len(kernel)
    strides, dilations, pads = _geometry(x, kernel, a)
    view = _windows(x, kernel, strides, dilations, pads, 0)
    group = a.get("group", 1)
    cg, mg = x.shape[1] // group, w.shape[0] // group
    letters = "defg"[:n]
    parts = []
    for g in range(group):
        vg = view[:, g * cg:(g + 1) * cg]
        wg = w[g * mg:(g + 1) * mg]
        eq = f"nc{letters}{letters.upper()},mc{letters.upper()}->nm{letters}"
        parts.append(np.einsum(eq, vg.astype(np.float64), wg.astype(np.float64)))
    y = np.concatenate(parts, axis=1)
    if b is not None:
        y = y + b.reshape([1, -1] + [1] * n)
    return y.astype(x.dtype)


def _pool_axes(n):
    return tuple(range(-n, 0))


def _max_pool(x, **a):
    kernel = a["kernel_shape"]
    strides, dilations, pads = _geometry(x, kernel, a)
    view = _windows(x, kernel, strides, dilations, pads, -np.inf)
    return view.max(axis=_pool_axes(len(kernel))).astype(x.dtype)


def _average_pool(x, **a):
    kernel = a["kernel_shape"]
    strides, dilations, pads = _geometry(x, kernel, a)
    n = len(kernel)
    sums = _windows(x.astype(np.float64), kernel, strides, dilations, pads, 0).sum(
        axis=_pool_axes(n))
    if a.get("count_include_pad", 0):
        counts = np.prod(kernel)
    else:
        ones = np.ones(x.shape)
        counts = _windows(ones, kernel, strides, dilations, pads, 0).sum(axis=_pool_axes(n))
    return (sums / counts).astype(x.dtype)


def _conv_transpose(x, w, b=None, strides=None, pads=None, dilations=None, output_padding=None,
                    group=1, **_):
    """Each tap t of the kernel adds x (by channel group) times w[..., t] at the output positions
    i * stride + t * dilation of the uncropped output, which the pads then crop."""
    n = x.ndim - 2
    kernel = w.shape[2:]
    strides = strides or [1] * n
    dilations = dilations or [1] * n
    pads = pads or [0] * 2 * n
    extra = output_padding or [0] * n
    full = [s * (i - 1) + (k - 1) * d + 1 + e for i, k, s, d, e in
            zip(x.shape[2:], kernel, strides, dilations, extra)]
    cg, mg = x.shape[1] // group, w.shape[1]
    y = np.zeros([x.shape[0], mg * group] + full)
    for g in range(group):
        xg = x[:, g * cg:(g + 1) * cg].astype(np.float64)
        for tap in itertools.product(*[range(k) for k in kernel]):
            part = np.einsum("nc...,cm->nm...", xg, w[(slice(g * cg, (g + 1) * cg), slice(None))
                                                      + tap].astype(np.float64))
            at = tuple(slice(t * d, t * d + s * (i - 1) + 1, s) for t, d, s, i in
                       zip(tap, dilations, strides, x.shape[2:]))
            y[(slice(None), slice(g * mg, (g + 1) * mg)) + at] += part
    if b is not None:
        y += b.reshape([1, -1] + [1] * n)
    crop = tuple(slice(pads[a], full[a] - pads[n + a]) for a in range(n))
    return y[(slice(None), slice(None)) + crop].astype(x.dtype)


def _quant_param(x, p, axis):
    """A scale or zero point as float32, shaped to broadcast along axis when 1-D."""
    p = p.astype(np.float32)
    if p.ndim == 0:
        return p
    shape = [1] * x.ndim
    shape[axis % x.ndim] = -1
    return p.reshape(shape)


def _quantize_linear(x, scale, zero=None, axis=1, **_):
    dtype = np.uint8 if zero is None else zero.dtype
    q = np.rint(x / _quant_param(x, scale, axis))  # float32 division, ties to even
    if zero is not None:
        q = q + _quant_param(x, zero, axis)
    info = np.iinfo(dtype)
    return np.clip(q, info.min, info.max).astype(dtype)


def _dequantize_linear(x, scale, zero=None, axis=1, **_):
    y = x.astype(np.float32)
    if zero is not None:
        y = y - _quant_param(x, zero, axis)
    return (y * _quant_param(x, scale, axis)).astype(np.float32)


def _resize_source(dst, size, out, coord):
    dst = np.arange(out, dtype=np.float64)
    if coord == "align_corners":
        return np.zeros(out) if out == 1 else dst * (size - 1) / (out - 1)
    if coord == "asymmetric":
        return dst * size / out
    if coord == "pytorch_half_pixel" and out == 1:
        return np.zeros(1)
    return (dst + 0.5) * size / out - 0.5


def _resize(x, roi=None, scales=None, sizes=None, mode="nearest",
            coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_floor", **_):
    """Resize-13 to sizes, nearest or linear, axis by axis in float64 (edge values past the
    ends, as onnx.reference pads)."""
    y = x.astype(np.float64)
    for axis, (size, out) in enumerate(zip(x.shape, sizes)):
        if size == out and coordinate_transformation_mode != "align_corners":
            continue
        src = _resize_source(None, size, out, coordinate_transformation_mode)
        if mode == "nearest":
            k = {"round_prefer_floor": np.ceil(src - 0.5), "round_prefer_ceil": np.floor(src + 0.5),
                 "floor": np.floor(src), "ceil": np.ceil(src)}[nearest_mode]
            y = np.take(y, np.clip(k, 0, size - 1).astype(np.int64), axis=axis)
            continue
        lo = np.floor(src)
        shape = [1] * x.ndim
        shape[axis] = -1
        w = (src - lo).reshape(shape)
        low = np.take(y, np.clip(lo, 0, size - 1).astype(np.int64), axis=axis)
        high = np.take(y, np.clip(lo + 1, 0, size - 1).astype(np.int64), axis=axis)
        y = low * (1 - w) + high * w
    return y.astype(x.dtype)


def _batch_norm(x, scale, b, mean, var, epsilon=1e-5, **_):
    shape = [1, -1] + [1] * (x.ndim - 2)
    r = lambda t: t.reshape(shape)  # noqa: E731
    return ((x - r(mean)) / np.sqrt(r(var) + epsilon) * r(scale) + r(b)).astype(x.dtype)


def _normalize(x, axes, epsilon):
    """(x - mean) / sqrt(var + epsilon) over axes, in float64 (two passes)."""
    x64 = x.astype(np.float64)
    centred = x64 - x64.mean(axis=axes, keepdims=True)
    return centred / np.sqrt((centred * centred).mean(axis=axes, keepdims=True)
                             + np.float32(epsilon))


def _layer_norm(x, scale, b=None, axis=-1, epsilon=1e-5, **_):
    y = _normalize(x, tuple(range(axis % x.ndim, x.ndim)), epsilon) * scale
    return (y if b is None else y + b).astype(x.dtype)


def _instance_norm(x, scale, b, epsilon=1e-5, **_):
    shape = [1, -1] + [1] * (x.ndim - 2)
    y = _normalize(x, tuple(range(2, x.ndim)), epsilon)
    return (y * scale.reshape(shape) + b.reshape(shape)).astype(x.dtype)


def _group_norm(x, scale, b, num_groups, epsilon=1e-5, **_):
    """GroupNormalization-21 (Retort exports it as a call of its retort.ops function): scale and
    b per channel."""
    shape = [1, -1] + [1] * (x.ndim - 2)
    y = _normalize(x.reshape(x.shape[0], num_groups, -1), 2, epsilon).reshape(x.shape)
    return (y * scale.reshape(shape) + b.reshape(shape)).astype(x.dtype)


def _softmax(x, axis=-1, log=False):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    s = e / e.sum(axis=axis, keepdims=True)
    return np.log(s) if log else s


def _reduce(op, x, axes, keepdims, noop):
    if axes is None or len(axes) == 0:
        if noop:
            return x
        axes = list(range(x.ndim))
    axes = tuple(int(a) % max(x.ndim, 1) for a in axes)
    keep = bool(keepdims)
    if op == "ReduceSum":
        return x.sum(axis=axes, keepdims=keep, dtype=x.dtype)
    if op == "ReduceProd":
        return x.prod(axis=axes, keepdims=keep, dtype=x.dtype)
    if op in ("ReduceMax", "ReduceMin"):
        return _extreme(op, x, axes, keep)
    if x.dtype.kind == "f":
        return x.mean(axis=axes, keepdims=keep).astype(x.dtype)
    count = int(np.prod([x.shape[a] for a in axes]))
    return _int_div(x.sum(axis=axes, keepdims=keep, dtype=np.int64),
                    np.array(count)).astype(x.dtype)


def _extreme(op, x, axes, keep):
    """Max and min; over an empty axis the identity (-inf or the dtype's least for max)."""
    biggest = np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).max
    if op == "ReduceMax":
        return x.max(axis=axes, keepdims=keep, initial=-biggest if x.dtype.kind == "f"
                     else np.iinfo(x.dtype).min)
    return x.min(axis=axes, keepdims=keep, initial=biggest)


def _arg(fn, x, axis=0, keepdims=1, select_last_index=0):
    if select_last_index:
        idx = x.shape[axis] - 1 - fn(np.flip(x, axis), axis=axis)
    else:
        idx = fn(x, axis=axis)
    return (np.expand_dims(idx, axis) if keepdims else idx).astype(np.int64)


def _cumsum(x, axis, exclusive=0, reverse=0):
    axis = int(np.asarray(axis).reshape(-1)[0])
    y = np.flip(x, axis) if reverse else x
    y = np.cumsum(y, axis=axis, dtype=x.dtype)
    if exclusive:
        y = y - (np.flip(x, axis) if reverse else x)
    return np.flip(y, axis) if reverse else y


def _element_coords(data, indices, axis):
    idx = np.where(indices < 0, indices + data.shape[axis], indices)
    grid = list(np.indices(indices.shape))
    grid[axis] = idx
    return tuple(grid)


def _gather_elements(data, indices, axis=0):
    return data[_element_coords(data, indices, axis % data.ndim)]


def _scatter_elements(data, indices, updates, axis=0, reduction="none"):
    out = data.copy()
    coords = _element_coords(data, indices, axis % data.ndim)
    for k in np.ndindex(indices.shape):
        at = tuple(c[k] for c in coords)
        if reduction == "add":
            out[at] += updates[k]
        elif reduction == "mul":
            out[at] *= updates[k]
        else:
            out[at] = updates[k]
    return out


def _topk(x, k, axis=-1, largest=1, sorted=1):
    """A stable sort cut to k: ties keep the lower index first, for the largest too."""
    axis = axis % x.ndim
    order = np.argsort(-x if largest else x, axis=axis, kind="stable")
    idx = np.take(order, np.arange(int(np.asarray(k).reshape(-1)[0])), axis=axis)
    return [np.take_along_axis(x, idx, axis=axis), idx.astype(np.int64)]


def _slice(x, starts, ends, axes=None, steps=None):
    axes = range(len(starts)) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    index = [slice(None)] * x.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        n = x.shape[a]
        s = max(-n - 1, min(int(s), n))
        e = max(-n - 1, min(int(e), n))
        if st < 0 and e < -n:
            e = None
        index[int(a)] = slice(s, e, int(st))
    return x[tuple(index)]


def _split(x, split=None, axis=0, n=1):
    sizes = list(split) if split is not None else None
    if sizes is None:
        chunk = -(-x.shape[axis] // n)
        sizes = [chunk] * (n - 1) + [x.shape[axis] - chunk * (n - 1)]
    return np.split(x, np.cumsum(sizes)[:-1], axis=axis)


def _pad(x, pads, value=None, mode="constant"):
    r = x.ndim
    if r == 0:  # np.pad cannot read an empty width list
        return x.copy()
    width = [(max(pads[i], 0), max(pads[i + r], 0)) for i in range(r)]
    if mode == "constant":
        # Pad, then crop what the padding made: an axis keeps n + begin + end elements, pad
        # values among them where a crop passes the data.
        fill = 0 if value is None else value.reshape(-1)[0]
        padded = np.pad(x, width, constant_values=fill)
        return padded[tuple(slice(max(-pads[i], 0), padded.shape[i] - max(-pads[i + r], 0))
                            for i in range(r))]
    crop = tuple(slice(max(-pads[i], 0), x.shape[i] - max(-pads[i + r], 0)) for i in range(r))
    return np.pad(x[crop], width, mode={"edge": "edge", "reflect": "reflect"}[mode])


def _einsum(*xs, equation):
    return np.einsum(equation, *[t.astype(np.float64) if t.dtype.kind == "f" else t
                                 for t in xs]).astype(xs[0].dtype)


def _gemm(a, b, c=None, alpha=1.0, beta=1.0, transA=0, transB=0):
    a = a.T if transA else a
    b = b.T if transB else b
    y = alpha * (a.astype(np.float64) @ b.astype(np.float64))
    if c is not None:
        y = y + beta * c
    return y.astype(a.dtype)


def _clip(x, low=None, high=None):
    if low is not None:
        x = np.maximum(x, low)
    if high is not None:
        x = np.minimum(x, high)
    return x


def _shape(x, start=0, end=None):
    return np.array(x.shape[start:end], dtype=np.int64)


def _node(op, ins, a, n_out):
    """The outputs (a list) of one node."""
    if op in UNARY:
        return [np.asarray(UNARY[op](ins[0])).astype(ins[0].dtype)]
    if op in BINARY:
        kw = {"fmod": a.get("fmod", 0)} if op == "Mod" else {}
        return [np.asarray(BINARY[op](ins[0], ins[1], **kw))]
    if op in ("LeakyRelu", "Elu", "Selu", "HardSigmoid"):
        return [_activation(op, ins[0], a).astype(ins[0].dtype)]
    if op in ("Max", "Min", "Sum", "Mean"):
        fn = {"Max": np.maximum, "Min": np.minimum}.get(op, np.add)
        acc = ins[0]
        for t in ins[1:]:
            acc = fn(acc, t)
        return [(acc / len(ins)).astype(ins[0].dtype) if op == "Mean" else acc]
    if op.startswith("Reduce"):
        axes = ins[1] if op == "ReduceSum" and len(ins) > 1 else a.get("axes")
        return [_reduce(op, ins[0], axes, a.get("keepdims", 1), a.get("noop_with_empty_axes", 0))]
    if op == "TopK":
        return _topk(ins[0], ins[1], **a)
    if op == "Split":
        return _split(ins[0], ins[1] if len(ins) > 1 else None, a.get("axis", 0), n_out)
    table = {
        "Where": lambda: np.where(*ins),
        "Clip": lambda: _clip(*ins),
        "Cast": lambda: ins[0].astype(np_dtype(a["to"])),
        "MatMul": lambda: np.matmul(ins[0], ins[1]),
        "Gemm": lambda: _gemm(*ins, **a),
        "Einsum": lambda: _einsum(*ins, equation=a["equation"]),
        "Conv": lambda: _conv(*ins, **a),
        "ConvTranspose": lambda: _conv_transpose(*ins, **a),
        "MaxPool": lambda: _max_pool(ins[0], **a),
        "AveragePool": lambda: _average_pool(ins[0], **a),
        "GlobalAveragePool": lambda: ins[0].mean(axis=tuple(range(2, ins[0].ndim)),
                                                 keepdims=True).astype(ins[0].dtype),
        "GlobalMaxPool": lambda: ins[0].max(axis=tuple(range(2, ins[0].ndim)), keepdims=True),
        "BatchNormalization": lambda: _batch_norm(*ins, **a),
        "LayerNormalization": lambda: _layer_norm(*ins, **a),
        "Resize": lambda: _resize(*ins, **a),
        "QuantizeLinear": lambda: _quantize_linear(*ins, **a),
        "DequantizeLinear": lambda: _dequantize_linear(*ins, **a),
        "InstanceNormalization": lambda: _instance_norm(*ins, **a),
        "GroupNormalization": lambda: _group_norm(*ins, **a),
        "Softmax": lambda: _softmax(ins[0], a.get("axis", -1)),
        "LogSoftmax": lambda: _softmax(ins[0], a.get("axis", -1), log=True),
        "ArgMax": lambda: _arg(np.argmax, ins[0], **a),
        "ArgMin": lambda: _arg(np.argmin, ins[0], **a),
        "CumSum": lambda: _cumsum(ins[0], ins[1], **a),
        "Reshape": lambda: ins[0].reshape([ins[0].shape[i] if v == 0 and not a.get("allowzero")
                                           else v for i, v in enumerate(ins[1])]),
        "Flatten": lambda: ins[0].reshape(
            int(np.prod(ins[0].shape[:a.get("axis", 1) % (ins[0].ndim + 1)])), -1),
        "Squeeze": lambda: np.squeeze(ins[0], tuple(ins[1]) if len(ins) > 1 else None),
        "Unsqueeze": lambda: np.expand_dims(ins[0], tuple(ins[1])),
        "Transpose": lambda: np.transpose(ins[0], a.get("perm")),
        "Concat": lambda: np.concatenate(ins, axis=a["axis"]),
        "Slice": lambda: _slice(*ins),
        "Gather": lambda: np.take(ins[0], ins[1], axis=a.get("axis", 0)),
        "GatherElements": lambda: _gather_elements(*ins, **a),
        "ScatterElements": lambda: _scatter_elements(*ins, **a),
        "Pad": lambda: _pad(ins[0], list(ins[1]), ins[2] if len(ins) > 2 else None,
                            a.get("mode", "constant")),
        "Expand": lambda: np.broadcast_to(ins[0], np.broadcast_shapes(ins[0].shape, tuple(ins[1]))),
        "Tile": lambda: np.tile(ins[0], ins[1]),
        "Shape": lambda: _shape(ins[0], a.get("start", 0), a.get("end")),
    }
    if op not in table:
        raise KeyError(f"onnx_numpy has no {op}")
    return [np.asarray(table[op]())]


def attrs_of(node):
    out = {}
    for attr in node.attribute:
        v = onnx.helper.get_attribute_value(attr)
        out[attr.name] = v.decode() if isinstance(v, bytes) else v
    return out


def evaluate(model, inputs):
    """Every value of the model's graph, by name, for the given inputs."""
    values = dict(inputs)
    for init in model.graph.initializer:
        values[init.name] = onnx.numpy_helper.to_array(init)
    with np.errstate(all="ignore"):
        for node in model.graph.node:
            ins = [values[i] if i else None for i in node.input]
            while ins and ins[-1] is None:
                ins.pop()
            outs = _node(node.op_type, ins, attrs_of(node), len(node.output))
            values.update(zip(node.output, outs))
    return values
