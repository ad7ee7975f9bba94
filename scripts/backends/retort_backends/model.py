"""The ONNX model as a worker sees it: value types, constants, and the nodes outputs need.

Works with onnx 1.12 (Debian) up to the current release (onnx.mapping is gone there).
"""

import itertools

import numpy as np
import onnx
import onnx.numpy_helper
import onnx.shape_inference

from .errors import Unsupported, quoted
from .tensors import BFLOAT16

# ONNX element types that have a Retort dtype.
ONNX_DTYPES = {1: np.dtype("float32"), 2: np.dtype("uint8"), 3: np.dtype("int8"),
               5: np.dtype("int16"), 6: np.dtype("int32"), 7: np.dtype("int64"),
               9: np.dtype("bool"), 10: np.dtype("float16"), 11: np.dtype("float64")}
if BFLOAT16 is not None:
    ONNX_DTYPES[16] = BFLOAT16
ONNX_CODES = {v: k for k, v in ONNX_DTYPES.items()}


# The domain of the local functions Retort exports for a graph's functions (HirFuzz's calls).
FUNCTION_DOMAIN = "retort.functions"
# The domain of the functions Retort exports for ops above its opset (GroupNormalization): the
# frameworks whose converters know the op keep the call, the others get the function's body.
OPS_DOMAIN = "retort.ops"


class CallSite:
    """One call of a local function after inlining: the function called (by its name in the
    model), where its inlined nodes are in the graph (indices start..end-1), and the values
    passed and returned."""

    def __init__(self, function, start, end, args, results):
        self.function = function
        self.start, self.end = start, end
        self.args = args
        self.results = results


class FunctionInliner:
    """Replaces every call of a model-local function in one domain (retort.functions, or
    retort.ops) by the function's nodes, so shape inference types every value and frameworks that
    read ONNX see a plain graph. The call sites are kept (Builder writes them back as nested
    Python functions)."""

    def __init__(self, proto, domain=FUNCTION_DOMAIN):
        self.proto = proto
        self.domain = domain
        self.functions = {f.name: f for f in proto.functions if f.domain == domain}
        self.used = {v for n in proto.graph.node for v in itertools.chain(n.input, n.output)}
        self.used.update(v.name for v in itertools.chain(proto.graph.input, proto.graph.output))
        self.used.update(i.name for i in proto.graph.initializer)
        self._fresh = itertools.count()

    def run(self):
        sites, nodes = [], []
        for node in self.proto.graph.node:
            if node.domain != self.domain:
                nodes.append(node)
                continue
            body = self.expand(node, depth=0)
            sites.append(CallSite(node.op_type, len(nodes), len(nodes) + len(body),
                                  list(node.input), list(node.output)))
            nodes.extend(body)
        del self.proto.graph.node[:]
        self.proto.graph.node.extend(nodes)
        other = [f for f in self.proto.functions if f.domain != self.domain]
        del self.proto.functions[:]
        self.proto.functions.extend(other)
        kept = [o for o in self.proto.opset_import if o.domain != self.domain]
        del self.proto.opset_import[:]
        self.proto.opset_import.extend(kept)
        return sites

    def fresh(self):
        while True:
            name = f"retort_inlined_{next(self._fresh)}"
            if name not in self.used:
                self.used.add(name)
                return name

    def expand(self, call, depth):
        """The nodes computing one call, its values renamed into the caller's names."""
        fn = self.functions.get(call.op_type)
        if fn is None:
            raise Unsupported(f"call of unknown local function {quoted(call.op_type)}")
        if depth > len(self.functions):
            raise Unsupported(f"local function {quoted(call.op_type)} calls itself")
        if len(call.input) != len(fn.input) or len(call.output) != len(fn.output):
            raise Unsupported(f"call of {quoted(call.op_type)} has the wrong number of values")
        names = dict(zip(fn.input, call.input))
        names.update(zip(fn.output, call.output))
        given = {a.name: a for a in call.attribute}
        out = []
        for inner in fn.node:
            node = onnx.NodeProto()
            node.CopyFrom(inner)
            self.bind_attributes(node, given)
            for i, v in enumerate(node.input):
                if v:
                    node.input[i] = names.setdefault(v, self.fresh())
            for i, v in enumerate(node.output):
                if v:
                    node.output[i] = names.setdefault(v, self.fresh())
            if node.domain == self.domain:
                out.extend(self.expand(node, depth + 1))
            else:
                out.append(node)
        return out

    @staticmethod
    def bind_attributes(node, given):
        """The body node's attributes that refer to the call's (ref_attr_name) as the call's
        values; one the call leaves out is left out (ONNX's rule)."""
        attrs = []
        for a in node.attribute:
            if not a.ref_attr_name:
                attrs.append(a)
            elif a.ref_attr_name in given:
                bound = onnx.AttributeProto()
                bound.CopyFrom(given[a.ref_attr_name])
                bound.name = a.name
                attrs.append(bound)
        del node.attribute[:]
        node.attribute.extend(attrs)
        if node.op_type == "Constant" and node.domain in ("", "ai.onnx"):
            FunctionInliner.constant_as_tensor(node)

    @staticmethod
    def constant_as_tensor(node):
        """A Constant of value_int(s) or value_float(s) (a body's way to make a tensor of the
        call's attribute) in the `value` form, the one every ONNX importer reads."""
        forms = {"value_int": np.int64, "value_ints": np.int64, "value_float": np.float32,
                 "value_floats": np.float32}
        if len(node.attribute) != 1 or node.attribute[0].name not in forms:
            return
        a = node.attribute[0]
        array = np.array(onnx.helper.get_attribute_value(a), forms[a.name])
        del node.attribute[:]
        node.attribute.append(onnx.helper.make_attribute(
            "value", onnx.numpy_helper.from_array(array)))


class Model:
    """One parsed model: graph, types (ONNX code, static dims or None), constants; with local
    functions inlined, and their call sites and forms kept (`sites`, `functions`)."""

    def __init__(self, model_bytes):
        try:
            proto = onnx.load_from_string(model_bytes)
        except Exception as e:
            raise ValueError(f"the model is not ONNX: {e}") from None
        self.functions = {f.name: f for f in proto.functions if f.domain == FUNCTION_DOMAIN}
        self.sites = FunctionInliner(proto).run()
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
        return ONNX_DTYPES[code]

    def shape_of(self, name):
        dims = self.types.get(name, (None, None))[1]
        if dims is None:
            raise Unsupported(f"value {quoted(name)} has no static shape")
        return dims

    def input_types(self):
        """[(name, numpy dtype, shape)] of the graph inputs that are not initializers."""
        return [(n, self.dtype_of(n), self.shape_of(n)) for n in self.input_names]

    def needed_indices(self, outputs):
        """The indices of the nodes the requested outputs depend on, in graph order; a call
        needs all of its nodes (it computes them together)."""
        nodes = list(self.graph.node)
        producer = {o: k for k, n in enumerate(nodes) for o in n.output}
        wanted, stack = set(), list(outputs)
        while stack:
            k = producer.get(stack.pop())
            if k is None or k in wanted:
                continue
            wanted.add(k)
            stack.extend(i for i in nodes[k].input if i)
            site = self.site_at(k)
            if site is not None:
                stack.extend(o for n in nodes[site.start:site.end] for o in n.output if o)
        return sorted(wanted)

    def site_at(self, index):
        """The call site whose inlined nodes include graph node `index`, or None."""
        for s in self.sites:
            if s.start <= index < s.end:
                return s
        return None

    def function_form(self, name):
        """(form, target) of a local function: ("body", None), or a wrapper's form from its
        doc_string ("retort:closure") and the function it calls."""
        fn = self.functions[name]
        if len(fn.node) != 1 or fn.node[0].domain != FUNCTION_DOMAIN:
            return "body", None
        form = fn.doc_string[len("retort:"):] if fn.doc_string.startswith("retort:") else ""
        return (form if form in ("returns", "closure") else "forward"), fn.node[0].op_type

    def check_outputs(self, outputs):
        known = set(self.types) | {o for n in self.graph.node for o in n.output}
        for name in outputs:
            if name not in known:
                raise ValueError(f"value {quoted(name)} is not in the model")

    def restricted_to(self, outputs, keep_ops=False):
        """The model's bytes with exactly `outputs` as graph outputs (for frameworks that take
        the ONNX model itself); types come from shape inference. Calls of retort.ops functions
        are inlined unless keep_ops (a framework that converts them itself)."""
        proto = onnx.ModelProto()
        proto.CopyFrom(self.proto)
        if not keep_ops:
            FunctionInliner(proto, OPS_DOMAIN).run()
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
