"""The ONNX model as a worker sees it: value types, constants, and the nodes outputs need.

Works with onnx 1.12 (Debian) up to the current release (onnx.mapping is gone there).
"""

import itertools

import numpy as np
import onnx
import onnx.numpy_helper
import onnx.shape_inference

from .errors import Unsupported, quoted

# ONNX element types that have a Retort dtype.
ONNX_DTYPES = {1: "float32", 2: "uint8", 3: "int8", 5: "int16", 6: "int32", 7: "int64",
               9: "bool", 10: "float16", 11: "float64"}
ONNX_CODES = {np.dtype(v): k for k, v in ONNX_DTYPES.items()}


class Model:
    """One parsed model: graph, types (ONNX code, static dims or None), constants."""

    def __init__(self, model_bytes):
        try:
            proto = onnx.load_from_string(model_bytes)
        except Exception as e:
            raise ValueError(f"the model is not ONNX: {e}") from None
        try:
            proto = onnx.shape_inference.infer_shapes(proto)
        except Exception:  # a model inference rejects may still carry every type it needs
            pass
        self.proto = proto
        self.graph = proto.graph
        self.types = {}
        self.consts = {}
        self._collect_types()
        self._collect_consts()
        self.input_names = [i.name for i in self.graph.input if i.name not in self.consts]

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
            self.types[name] = (ONNX_CODES.get(value.dtype, 0), list(value.shape))

    def dtype_of(self, name):
        if name not in self.types:
            raise Unsupported(f"value {quoted(name)} has no known type")
        code = self.types[name][0]
        if code not in ONNX_DTYPES:
            raise Unsupported(f"value {quoted(name)}: ONNX dtype {code} has no Retort form")
        return np.dtype(ONNX_DTYPES[code])

    def shape_of(self, name):
        dims = self.types.get(name, (None, None))[1]
        if dims is None:
            raise Unsupported(f"value {quoted(name)} has no static shape")
        return dims

    def input_types(self):
        """[(name, numpy dtype, shape)] of the graph inputs that are not initializers."""
        return [(n, self.dtype_of(n), self.shape_of(n)) for n in self.input_names]

    def needed_nodes(self, outputs):
        """The nodes the requested outputs depend on, in graph order."""
        nodes = list(self.graph.node)
        producer = {o: k for k, n in enumerate(nodes) for o in n.output}
        wanted, stack = set(), list(outputs)
        while stack:
            k = producer.get(stack.pop())
            if k is None or k in wanted:
                continue
            wanted.add(k)
            stack.extend(i for i in nodes[k].input if i)
        return [nodes[k] for k in sorted(wanted)]

    def check_outputs(self, outputs):
        known = set(self.types) | {o for n in self.graph.node for o in n.output}
        for name in outputs:
            if name not in known:
                raise ValueError(f"value {quoted(name)} is not in the model")

    def restricted_to(self, outputs):
        """The model's bytes with exactly `outputs` as graph outputs (for frameworks that take
        the ONNX model itself); types come from shape inference."""
        proto = onnx.ModelProto()
        proto.CopyFrom(self.proto)
        infos = {v.name: v for v in itertools.chain(proto.graph.output, proto.graph.value_info)}
        del proto.graph.output[:]
        for name in outputs:
            info = infos.get(name)
            if info is None:
                code, dims = self.types.get(name, (0, None))
                info = onnx.helper.make_tensor_value_info(name, code, dims)
            proto.graph.output.append(info)
        return proto


def node_label(node):
    """How messages name a node: node 'n3' (Conv); names are quoted by repr(), and an op type
    that is not an identifier too."""
    op = node.op_type if node.op_type.isidentifier() else quoted(node.op_type)
    return f"node {quoted(node.name)} ({op})"
