"""Models whose names and attribute strings try to become code in a generated program.

Every worker must run them as data: the canary command would create `canary` if any name
reached generated source unescaped and ran.
"""

import numpy as np
from onnx import TensorProto, helper

from torch_cases import value_info


def payloads(canary):
    run = f"__import__('os').system('touch {canary}')"
    return [
        f"n\n{run}\n",
        # indented as the body of a generated method, so that it is valid code if it escapes
        f"n\n        {run}\n        #",
        f"n\n    {run}\n    #",
        f"n'); {run} #",
        f'n"""); {run} #',
        f"n\u2028{run}",
        f"n\u2029{run}\u0085{run}",
        f"n\r{run}",
        f"\x1b[31mred\x1b[0m {run}",
        f"{{0}}{{{run}}}",
        f"# \\\n{run}",
    ]


def renamed_chain(names):
    """x, y -> Add -> Mul -> Relu -> Einsum, every value and node named from `names` (which
    cycle); an intermediate is an output too. (model bytes, inputs, expected by output)."""
    def name(k):
        return f"{names[k % len(names)]}#{k}"

    x, y = name(0), name(1)
    s, m, r, e = name(2), name(3), name(4), name(5)
    nodes = [helper.make_node("Add", [x, y], [s], name=name(6)),
             helper.make_node("Mul", [s, x], [m], name=name(7)),
             helper.make_node("Relu", [m], [r], name=name(8)),
             helper.make_node("Einsum", [r, y], [e], name=name(9), equation="ij,ij->i")]
    xs = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)
    ys = np.full((2, 3), 0.5, np.float32)
    inputs = {x: xs, y: ys}
    relu = np.maximum((xs + ys) * xs, 0)
    expected = {e: (relu * ys).sum(axis=1), s: xs + ys}
    graph = helper.make_graph(nodes, name(10), [value_info(k, v) for k, v in inputs.items()],
                              [value_info(k, v) for k, v in expected.items()])
    graph.doc_string = name(11)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name=name(12))
    return model.SerializeToString(), inputs, expected


def equations(canary):
    run = f"open({canary!r},'w')"  # no spaces: converters may strip them from equations
    return [f"ii->i',[x0]);{run};('", f'ii->i",[x0]);{run};("', f"ii->i\n{run}"]


def hostile_equation(equation):
    """An Einsum whose equation is a payload: the framework may reject it (an error or
    unsupported), but must never run it."""
    x = np.ones((2, 2), np.float32)
    node = helper.make_node("Einsum", ["x"], ["y"], name="einsum", equation=equation)
    graph = helper.make_graph([node], "g", [value_info("x", x)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString(), {"x": x}


def unknown_op(node_name):
    """A node of an op type no worker knows, named `node_name`: its error names it."""
    x = np.ones((2, 2), np.float32)
    node = helper.make_node("NoSuchOp", ["x"], ["y"], name=node_name)
    graph = helper.make_graph([node], "g", [value_info("x", x)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString(), {"x": x}
