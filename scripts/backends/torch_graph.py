"""ONNX model -> torch.nn.Module whose forward() is generated TorchScript-compatible source.

The source is registered with linecache so that torch.jit.script can read it like a file; the
same class is run eagerly, traced, or scripted. Initializers become buffers.
"""

import itertools
import linecache
import re

import numpy as np
import onnx
import onnx.numpy_helper
import onnx.shape_inference
import torch

from torch_ops import CONVERTERS, NodeContext, Unsupported

_module_ids = itertools.count()

ONNX_DTYPES = {1: "float32", 2: "uint8", 3: "int8", 5: "int16", 6: "int32", 7: "int64",
               9: "bool", 10: "float16", 11: "float64"}


class Builder:
    """Turns the nodes that feed the requested outputs into lines of forward()."""

    def __init__(self, model):
        self.graph = model.graph
        self.types = {}
        self.consts = {}  # ONNX name -> numpy value known at conversion time
        self.buffers = {}  # python attribute name -> numpy value
        self.exprs = {}
        self.lines = []
        self.line_nodes = []  # per line: the node it computes, for error messages
        self._node = None
        self._fresh = itertools.count()
        self._collect_types()
        self._collect_consts()

    def _collect_types(self):
        g = self.graph
        for v in itertools.chain(g.input, g.value_info, g.output):
            t = v.type.tensor_type
            if not t.HasField("elem_type"):
                continue
            dims = None
            if t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim):
                dims = [d.dim_value for d in t.shape.dim]
            self.types[v.name] = (t.elem_type, dims)

    def _collect_consts(self):
        for init in self.graph.initializer:
            self.consts[init.name] = onnx.numpy_helper.to_array(init)
        for node in self.graph.node:
            if node.op_type == "Constant":
                value = next((a for a in node.attribute if a.name == "value"), None)
                if value is None:
                    raise Unsupported("Constant: only the 'value' form")
                self.consts[node.output[0]] = onnx.numpy_helper.to_array(value.t)
        for name, value in self.consts.items():
            code = onnx.mapping.NP_TYPE_TO_TENSOR_TYPE.get(value.dtype, 0)
            self.types[name] = (code, list(value.shape))

    def dtype_of(self, name):
        if name not in self.types:
            raise Unsupported(f"value '{name}' has no known type")
        code = self.types[name][0]
        if code not in ONNX_DTYPES:
            raise Unsupported(f"value '{name}': ONNX dtype {code} has no Retort form")
        return np.dtype(ONNX_DTYPES[code])

    def shape_of(self, name):
        dims = self.types.get(name, (None, None))[1]
        if dims is None:
            raise Unsupported(f"value '{name}' has no static shape")
        return dims

    def const_value(self, name):
        return self.consts.get(name)

    def expr(self, name):
        if name in self.exprs:
            return self.exprs[name]
        if name in self.consts:
            attr = f"c{len(self.buffers)}"
            self.buffers[attr] = self.consts[name]
            self.exprs[name] = f"self.{attr}"
            return self.exprs[name]
        raise ValueError(f"value '{name}' is not in the model")

    def temp(self, expr):
        name = f"t{next(self._fresh)}"
        # The model's text reaches the source only as ascii(): a name holding a line break (or
        # any other character) cannot end the comment and become code.
        self.lines.append(f"{name} = {expr}  # {ascii(self._node)}")
        self.line_nodes.append(self._node)
        return name

    def convert(self, node):
        self._node = f"node '{node.name}' ({node.op_type})"
        try:
            if node.domain not in ("", "ai.onnx"):
                raise Unsupported(f"domain '{node.domain}' has no torch form")
            converter = CONVERTERS.get(node.op_type)
            if converter is None:
                raise Unsupported("no torch form")
            results = converter(NodeContext(node, self))
        except Unsupported as e:
            raise Unsupported(f"{self._node}: {e}") from None
        if isinstance(results, str):
            results = [results]
        for out, expr in zip(node.output, results):
            if out:
                self.exprs[out] = self.temp(expr)


def needed_nodes(graph, outputs):
    """The nodes the requested outputs depend on, in graph order."""
    nodes = list(graph.node)
    producer = {o: k for k, n in enumerate(nodes) for o in n.output}
    wanted, stack = set(), list(outputs)
    while stack:
        k = producer.get(stack.pop())
        if k is None or k in wanted:
            continue
        wanted.add(k)
        stack.extend(i for i in nodes[k].input if i)
    return [nodes[k] for k in sorted(wanted)]


def module_source(builder, params, results):
    """The source of the module class, and the line number of the first line of forward()."""
    args = ", ".join(f"{p}: Tensor" for p in params)
    ret = "Tuple[" + ", ".join(["Tensor"] * len(results)) + "]"
    body = [f"        {line}" for line in builder.lines]
    body.append(f"        return ({', '.join(results)},)")
    head = [
        "import torch",
        "from torch import Tensor",
        "from typing import Dict, List, Tuple",
        "",
        "",
        "class RetortModel(torch.nn.Module):",
        "    def __init__(self, buffers: Dict[str, Tensor]):",
        "        super().__init__()",
        "        for name, value in buffers.items():",
        "            self.register_buffer(name, value)",
        "",
        f"    def forward(self, {args}) -> {ret}:",
    ]
    return "\n".join(head + body + [""]), len(head) + 1


def define_class(source, filename):
    """Executes the source under a file name that inspect (and so TorchScript) can read."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"__name__": filename}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["RetortModel"]


class Converted:
    """A generated module and what the worker needs to call it."""

    def __init__(self, module, filename, inputs, output_dtypes, line_nodes, first_line):
        self.module = module
        self.filename = filename
        self.input_names = [name for name, _, _ in inputs]
        self.input_types = {name: (dtype, shape) for name, dtype, shape in inputs}
        self.output_dtypes = output_dtypes
        self._line_nodes = line_nodes
        self._first_line = first_line

    def blame(self, exc):
        """The node whose generated line raised exc, as "node 'n' (Op): ", or ""."""
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


def convert_model(model_bytes, outputs):
    model = onnx.load_from_string(model_bytes)
    try:
        model = onnx.shape_inference.infer_shapes(model)
    except Exception:  # a model inference rejects may still carry every type it needs
        pass
    builder = Builder(model)
    init_names = set(builder.consts)
    input_names = [i.name for i in model.graph.input if i.name not in init_names]
    params = [f"x{k}" for k in range(len(input_names))]
    builder.exprs.update(zip(input_names, params))
    for node in needed_nodes(model.graph, outputs):
        if node.op_type != "Constant":
            builder.convert(node)
    results = [builder.expr(o) for o in outputs]
    output_dtypes = [builder.dtype_of(o) for o in outputs]
    source, first_line = module_source(builder, params, results)
    filename = f"<retort_model_{next(_module_ids)}>"
    cls = define_class(source, filename)
    module = cls({k: torch.from_numpy(np.array(v)) for k, v in builder.buffers.items()})
    inputs = [(n, builder.dtype_of(n), builder.shape_of(n)) for n in input_names]
    return Converted(module.eval(), filename, inputs, output_dtypes, builder.line_nodes,
                     first_line)
