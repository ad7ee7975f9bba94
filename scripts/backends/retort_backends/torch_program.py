"""ONNX model -> a torch.nn.Module whose forward() is generated, real Python source.

The source is registered with linecache (program.Program), so TorchScript and dynamo read it
like a file; the same class is run eagerly, traced, scripted or torch.compile'd. Constants
become buffers (self.c0, ...).
"""

import numpy as np
import torch

from .program import Builder, Program, indented
from .torch_ops import CONVERTERS


def module_source(builder, params, results):
    """The source of the module class, and the line number of the first line of forward()."""
    args = ", ".join(f"{p}: Tensor" for p in params)
    ret = "Tuple[" + ", ".join(["Tensor"] * len(results)) + "]"
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
    body = indented(builder.lines + [f"return ({', '.join(results)},)"])
    return "\n".join(head + body + [""]), len(head) + 1


def torch_program(model, outputs):
    """(program, module in eval mode) computing `outputs` of the model."""
    builder = Builder(model, CONVERTERS, "torch", const_ref=lambda ident: f"self.{ident}")
    params = builder.bind_inputs()
    results = builder.convert_for(outputs)
    source, first_line = module_source(builder, params, results)
    prog = Program(source, first_line, builder.line_nodes, prefix="retort_torch")
    buffers = {k: torch.from_numpy(np.array(v)) for k, v in builder.consts.items()}
    return prog, prog.namespace["RetortModel"](buffers).eval()


def to_torch(arrays):
    return [torch.from_numpy(a) for a in arrays]


def to_numpy(tensors):
    return [t.detach().contiguous().numpy() for t in tensors]
