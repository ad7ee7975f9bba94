"""Generated Python programs: one line per ONNX node, run under a linecache file name.

Nothing a model names or says reaches the source text: values become generated identifiers
(x0.. for inputs, c0.. for constants, t0.. for results), numbers become literals through lit(),
and a string an op needs (an einsum equation) through repr(). Which node a line computes is
kept beside the source (for error messages), never in it.
"""

import itertools
import linecache
import math
import re

import numpy as np
import onnx.helper

from .errors import Unsupported, quoted
from .model import OPS_DOMAIN, node_label

_program_ids = itertools.count()


def lit(v):
    """A Python literal for a number, a bool, or a (nested) list of them."""
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(lit(e) for e in v) + "]"
    if isinstance(v, (bool, np.bool_)):
        return "True" if v else "False"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    f = float(v)
    if math.isnan(f):
        return 'float("nan")'
    if math.isinf(f):
        return 'float("inf")' if f > 0 else '-float("inf")'
    return repr(f)


def string_lit(s):
    """A Python literal for a string from the model."""
    return repr(str(s))


def norm_axis(axis, rank):
    if not -rank <= axis < max(rank, 1):
        raise Unsupported(f"axis {axis} out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def ints(array):
    return [int(v) for v in np.asarray(array).reshape(-1)]


def template(text, arity):
    """A converter that fills a format string with the node's first `arity` inputs."""
    return lambda c: text.format(*[c.x(i) for i in range(arity)])


def subscript(x, ranges):
    """x[start:stop:step, ...] for each axis's (start, stop, step), None being the whole axis
    (Python's slicing, which torch, TF and JAX all read); a 0-d x as it is."""
    if not ranges:
        return x
    index = [":" if r is None else f"{r[0]}:{r[1]}:{r[2]}" for r in ranges]
    return f"{x}[{', '.join(index)}]"


def clip(c, maximum, minimum):
    """Clip as the framework's maximum with the min operand, then minimum with the max operand,
    each only where that bound is given."""
    x = c.x(0)
    if c.has(1):
        x = f"{maximum}({x}, {c.x(1)})"
    if c.has(2):
        x = f"{minimum}({x}, {c.x(2)})"
    return x


def batch_norm(c, module, eps):
    """Inference BatchNormalization written out, (x - mean) * (scale / sqrt(var + eps)) + bias,
    each per-channel operand reshaped to broadcast over (N, C, ...): module names the framework's
    reshape and sqrt (jnp, tf), eps is its typed epsilon."""
    shape = lit([1, -1] + [1] * (c.rank(0) - 2))

    def per_channel(i):
        return f"{module}.reshape({c.x(i)}, {shape})"

    scale = f"{per_channel(1)} / {module}.sqrt({per_channel(4)} + {eps})"
    return f"({c.x(0)} - {per_channel(3)}) * ({scale}) + {per_channel(2)}"


def normalize(c, mean_fn, sqrt_fn, axes, eps, x=None):
    """(x - mean) / sqrt(var + eps) over axes, mean and (biased) variance taken in two passes as
    ONNX's LayerNormalization and InstanceNormalization define them: mean_fn and sqrt_fn name the
    framework's (jnp.mean, tf.reduce_mean...), eps is its typed epsilon; x is the node's first
    input unless given (GroupNormalization's grouped view of it)."""
    x, axis = x or c.x(0), lit(list(axes))
    centred = c.tmp(f"{x} - {mean_fn}({x}, axis={axis}, keepdims=True)")
    var = f"{mean_fn}({centred} * {centred}, axis={axis}, keepdims=True)"
    return f"{centred} / {sqrt_fn}({var} + {eps})"


def group_norm(c, module, mean_fn, eps):
    """GroupNormalization-21 from primitives: x as [N, num_groups, -1], each group normalized
    (normalize), back to x's shape, scale and bias per channel; module names the framework's
    reshape and sqrt (jnp, tf), mean_fn its mean, eps is its typed epsilon."""
    groups = lit([c.shape(0)[0], c.attr("num_groups"), -1])
    grouped = c.tmp(f"{module}.reshape({c.x(0)}, {groups})")
    y = normalize(c, mean_fn, f"{module}.sqrt", [2], eps, grouped)
    shape = lit([1, -1] + [1] * (c.rank(0) - 2))
    return (f"{module}.reshape({y}, {lit(list(c.shape(0)))}) * {module}.reshape({c.x(1)}, {shape})"
            f" + {module}.reshape({c.x(2)}, {shape})")


def fold(c, fn):
    """fn applied left to right over every input of a variadic node (Max, Min, Sum, Mean)."""
    acc = c.x(0)
    for operand in c.inputs()[1:]:
        acc = f"{fn}({acc}, {operand})"
    return acc


class NodeContext:
    """What a converter may ask about its node."""

    def __init__(self, node, builder):
        self.node = node
        self.op = node.op_type
        self._b = builder
        self._attrs = {a.name: a for a in node.attribute}

    def has(self, i):
        return i < len(self.node.input) and self.node.input[i] != ""

    def x(self, i):
        """The expression of input i (a tensor)."""
        if not self.has(i):
            raise Unsupported(f"input {i} is missing")
        return self._b.expr(self.node.input[i])

    def inputs(self):
        return [self.x(i) for i in range(len(self.node.input)) if self.has(i)]

    def const(self, i):
        """The value of input i, which must be known when converting (an initializer)."""
        value = self._b.model.consts.get(self.node.input[i]) if self.has(i) else None
        if value is None:
            raise Unsupported(f"input {i} must be a constant (an initializer)")
        return value

    def attr(self, name, default=None):
        a = self._attrs.get(name)
        if a is None:
            return default
        v = onnx.helper.get_attribute_value(a)
        return v.decode("utf-8", "replace") if isinstance(v, bytes) else v

    def shape(self, i):
        return self._b.model.shape_of(self.node.input[i])

    def rank(self, i):
        return len(self.shape(i))

    def dtype(self, i):
        return self._b.model.dtype_of(self.node.input[i])

    def out_dtype(self, j=0):
        return self._b.model.dtype_of(self.node.output[j])

    def out_shape(self, j=0):
        return self._b.model.shape_of(self.node.output[j])

    def n_outputs(self):
        return len(self.node.output)

    def tmp(self, expr):
        """Emits `t = expr` and returns the fresh name t."""
        return self._b.temp(expr)


class Builder:
    """Turns the nodes that feed the requested outputs into lines of a function body.

    `const_ref` maps a constant's generated name (c0, ...) to how the body refers to it (a torch
    module's buffer is self.c0; a JAX program's global is c0)."""

    def __init__(self, model, converters, framework, const_ref=lambda name: name):
        self.model = model
        self.converters = converters
        self.framework = framework
        self.const_ref = const_ref
        self.consts = {}  # generated name -> numpy value
        self.const_exprs = {}  # ONNX constant name -> expression (shared by nested functions)
        self.exprs = {}  # ONNX value name -> expression, in the scope being written
        self.defined = {}  # local function name -> its generated identifier (f0, ...)
        self.lines = []
        self.line_nodes = []  # per line: the label of the node it computes
        self.line_info = []  # per line: (ONNX node, ONNX value) it computes, or Nones
        self._label = None
        self._node = None
        self._fresh = itertools.count()

    def bind_inputs(self):
        """Generated parameter names (x0, ...) for the model's inputs, in their order."""
        params = [f"x{k}" for k in range(len(self.model.input_names))]
        self.exprs.update(zip(self.model.input_names, params))
        return params

    def expr(self, name):
        if name in self.exprs:
            return self.exprs[name]
        if name in self.model.consts:
            if name not in self.const_exprs:
                ident = f"c{len(self.consts)}"
                self.consts[ident] = self.model.consts[name]
                self.const_exprs[name] = self.const_ref(ident)
            return self.const_exprs[name]
        raise ValueError(f"value {name!r} is not in the model")

    def temp(self, expr):
        name = f"t{next(self._fresh)}"
        self.lines.append(f"{name} = {expr}")
        self.line_nodes.append(self._label)
        self.line_info.append((self._node, None))
        return name

    def convert(self, node):
        self._label = node_label(node)
        self._node = node
        try:
            if node.domain not in ("", "ai.onnx", OPS_DOMAIN):
                raise Unsupported(f"domain {node.domain!r} has no {self.framework} form")
            converter = self.converters.get(node.op_type)
            if converter is None:
                raise Unsupported(f"no {self.framework} form")
            results = converter(NodeContext(node, self))
        except Unsupported as e:
            raise Unsupported(f"{self._label}: {e}") from None
        if isinstance(results, str):
            results = [results]
        for out, expr in zip(node.output, results):
            if out:
                self.exprs[out] = self.temp(expr)
                self.line_info[-1] = (node, out)
        self._node = None

    def convert_for(self, outputs):
        """Converts the nodes `outputs` need; their expressions. The nodes of a call site
        become a call of a nested function (defined at its first call)."""
        self.model.check_outputs(outputs)
        nodes = list(self.model.graph.node)
        for k in self.model.needed_indices(outputs):
            site = self.model.site_at(k)
            if site is None:
                if nodes[k].op_type != "Constant":
                    self.convert(nodes[k])
            elif k == site.start:
                self.call(site)
        return [self.expr(o) for o in outputs]

    # HirFuzz's functions (docs/techniques.md): each local function becomes a Python function
    # with a generated name; a wrapper keeps its form (forward: calls its target; returns: returns
    # the target itself, called as g()(...); closure: defines the target inside itself).

    def call(self, site):
        self._label = f"call of {quoted(site.function)}"
        ident = self.defined.get(site.function)
        if ident is None:
            for line, label in self.definition(site.function, site):
                self.lines.append(line)
                self.line_nodes.append(label)
                self.line_info.append((None, None))
            ident = self.defined[site.function]
        expr = self.call_expr(site.function, ", ".join(self.expr(a) for a in site.args))
        if len(site.results) == 1:
            self.exprs[site.results[0]] = self.temp(expr)
            return
        names = [f"t{next(self._fresh)}" for _ in site.results]
        self.lines.append(f"{', '.join(names)} = {expr}")
        self.line_nodes.append(self._label)
        self.line_info.append((None, None))
        self.exprs.update(zip(site.results, names))

    def definition(self, name, site):
        """[(line, node label)] defining local function `name` (and what it calls), with the
        nodes of `site` as the body it ends in."""
        ident = self.defined[name] = f"f{len(self.defined)}"
        form, target = self.model.function_form(name)
        params = ", ".join(f"p{k}" for k in range(len(site.args)))
        if form == "body":
            body, results = self.body(site)
            ret = results[0] if len(results) == 1 else f"({', '.join(results)})"
            return [(f"def {ident}({params}):", None), *nest(body), (f"    return {ret}", None)]
        inner = self.definition(target, site)
        call = f"    return {self.call_expr(target, params)}"
        if form == "closure":
            return [(f"def {ident}({params}):", None), *nest(inner), (call, None)]
        if form == "returns":
            return [*inner, (f"def {ident}():", None), (f"    return {self.defined[target]}", None)]
        return [*inner, (f"def {ident}({params}):", None), (call, None)]

    def call_expr(self, name, args):
        """How a defined local function is called: a `returns` wrapper hands back the function
        to call, g()(args)."""
        form, _ = self.model.function_form(name)
        callee = self.defined[name]
        return f"{callee}()({args})" if form == "returns" else f"{callee}({args})"

    def body(self, site):
        """The lines computing a call site's nodes from parameters p0.., and its results."""
        saved = self.lines, self.line_nodes, self.line_info, self.exprs, self._label
        self.lines, self.line_nodes, self.line_info = [], [], []
        self.exprs = {a: f"p{k}" for k, a in enumerate(site.args)}
        for node in list(self.model.graph.node)[site.start:site.end]:
            if node.op_type != "Constant":
                self.convert(node)
        results = [self.expr(r) for r in site.results]
        body = list(zip(self.lines, self.line_nodes))
        self.lines, self.line_nodes, self.line_info, self.exprs, self._label = saved
        return body, results


class Program:
    """Generated source, executed under a file name that linecache (and so inspect, TorchScript
    and dynamo) can read; knows which node each line of the body computes."""

    def __init__(self, source, body_first_line, line_nodes, namespace=None, prefix="retort"):
        self.source = source
        self.filename = f"<{prefix}_program_{next(_program_ids)}>"
        self._first_line = body_first_line
        self._line_nodes = line_nodes
        linecache.cache[self.filename] = (len(source), None, source.splitlines(True),
                                          self.filename)
        self.namespace = dict(namespace or {}, __name__=self.filename)
        exec(compile(source, self.filename, "exec"), self.namespace)

    def forget(self):
        linecache.cache.pop(self.filename, None)

    def blame(self, exc):
        """The label of the node whose generated line raised exc, as "node 'n' (Op): ", or ""."""
        lines = [int(m) for m in re.findall(
            rf'File "{re.escape(self.filename)}", line (\d+)', str(exc))]
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                lines.append(tb.tb_lineno)
            tb = tb.tb_next
        for line in reversed(lines):
            k = line - self._first_line
            if 0 <= k < len(self._line_nodes) and self._line_nodes[k]:
                return f"{self._line_nodes[k]}: "
        return ""


def forward_source(builder, params, results):
    """The source of `def forward(params)` returning the results as a tuple, and the line number
    of its body's first line."""
    head = [f"def forward({', '.join(params)}):"]
    body = indented(builder.lines + [f"return ({', '.join(results)},)"], depth=1)
    return "\n".join(head + body + [""]), len(head) + 1


def standalone_module(imports, code, consts=(), const_form="{}"):
    """A program as a module that runs without Retort (Family.standalone): the framework's
    imports, each global constant read with const(name) in the framework's form (const_form,
    e.g. "jnp.asarray({})"), then the code."""
    lines = [*imports, ""]
    lines += [f"{k} = {const_form.format(f'const({k!r})')}" for k in consts]
    return "\n".join(lines + ["", "", code])


def nest(lines):
    """[(line, label)] one level deeper."""
    return [("    " + line, label) for line, label in lines]


def indented(lines, depth=2):
    return [" " * (4 * depth) + line for line in lines]
