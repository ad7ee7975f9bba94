"""ONNX model -> a torch.nn.Module whose forward() is generated, real Python source.

The source is registered with linecache (program.Program), so TorchScript and dynamo read it
like a file; the same class is run eagerly, traced, scripted or torch.compile'd. Constants
become buffers (self.c0, ...).
"""

import numpy as np
import torch

from . import probe, torch_forms
from .program import Builder, Program, indented
from .tensors import BFLOAT16, bits_view, is_bfloat16
from .torch_ops import CONVERTERS
from .worker import Compiled, Family


# What generated code may name besides the module's own identifiers.
IMPORTS = ["import torch", "from torch import Tensor", "from typing import Dict, List, Tuple"]


def module_source(builder, params, results, forms=()):
    """The source of the module class with what the program forms add after it (arguments()
    and DYNAMIC, torch_forms.py), and the line number of the first line of forward()."""
    args = ", ".join(f"{p}: Tensor" for p in params)
    ret = "Tuple[" + ", ".join(["Tensor"] * len(results)) + "]"
    head = [
        *IMPORTS,
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
    ranks = [len(shape) for _, _, shape in builder.model.input_types()]
    tail = torch_forms.module_tail(len(params), ranks, forms)
    return "\n".join(head + body + ["", "", tail]), len(head) + 1


def torch_builder(model, outputs, mutations, args):
    """The builder of forward() computing `outputs` of the model, its parameters, results and
    program forms; with the forms' program rewrites (torch_forms.py) and then TorchProbe's
    mutations (probe.py) applied, profiled on `args` (numpy, model input order)."""
    builder = Builder(model, CONVERTERS, "torch", const_ref=lambda ident: f"self.{ident}")
    params = builder.bind_inputs()
    results = builder.convert_for(outputs)
    forms, mutations = torch_forms.split(mutations)
    torch_forms.rewrite(builder, forms)
    if mutations:
        mutate(builder, params, results, mutations, args)
    return builder, params, results, forms


def torch_program(model, outputs, mutations=(), args=None):
    """(program, module in eval mode) computing `outputs` of the model (torch_builder)."""
    builder, params, results, forms = torch_builder(model, outputs, mutations, args)
    source, first_line = module_source(builder, params, results, forms)
    prog = Program(source, first_line, builder.line_nodes, prefix="retort_torch")
    buffers = {k: from_numpy(np.array(v)) for k, v in builder.consts.items()}
    return prog, prog.namespace["RetortModel"](buffers).eval()


def torch_standalone(model, outputs, mutations=(), args=None):
    """The program as a standalone module (Family.standalone): forward is the module, with its
    buffers read by const(); arguments() and DYNAMIC say how it is called (torch_forms.py)."""
    builder, params, results, forms = torch_builder(model, outputs, mutations, args)
    source, _ = module_source(builder, params, results, forms)
    buffers = ", ".join(f"{k!r}: {standalone_buffer(k, v)}" for k, v in builder.consts.items())
    code = f"{source}\n\nforward = RetortModel({{{buffers}}}).eval()\n"
    return code, dict(builder.consts)


def standalone_buffer(name, value):
    """How the standalone module makes a buffer of const(name): torch.from_numpy takes no
    bfloat16 array (the bundle reads bf16 as ml_dtypes'), so that one by its bits."""
    if is_bfloat16(value.dtype):
        return f"torch.from_numpy(const({name!r}).view('int16')).view(torch.bfloat16)"
    return f"torch.from_numpy(const({name!r}))"


def mutate(builder, params, results, mutations, args):
    """Rewrites the builder's forward() lines with the mutations; a condition TCB synthesizes
    comes from running the program so far on `args`."""
    buffers = type("Buffers", (), {})()
    for ident, value in builder.consts.items():
        setattr(buffers, ident, from_numpy(np.array(value)))

    def profile(stmts):
        scope = {}
        exec("\n".join(IMPORTS), scope)
        run = probe.prefix_function(stmts, ["self", *params], scope)
        with torch.no_grad():
            # On copies: a prefix may end between a mutate and its recover, and must not leave
            # the run's own inputs changed.
            values = run(buffers, *to_torch([a.copy() for a in args]))
        # As numpy arrays (which have no bfloat16: such a tensor is profiled in float32).
        return {name: (v.float() if v.dtype == torch.bfloat16 else v).numpy()
                for name, v in values.items() if isinstance(v, torch.Tensor)}

    if args is None:
        raise ValueError("program mutations need the run's inputs")
    probe.rewrite(builder, results, mutations, probe.Torch, profile)


def from_numpy(array):
    """The torch tensor sharing a numpy array's memory; a bfloat16 one through its bits
    (torch.from_numpy takes no ml_dtypes array), as torch.bfloat16."""
    t = torch.from_numpy(bits_view(array))
    return t.view(torch.bfloat16) if is_bfloat16(array.dtype) else t


def to_torch(arrays, device="cpu"):
    return [from_numpy(a).to(device) for a in arrays]


def program_arguments(entry, arrays, device="cpu"):
    """The run's inputs as the program's forms pass them (views of other layouts)."""
    return entry.program.namespace["arguments"](*to_torch(arrays, device))


def program_dynamic(entry):
    return entry.program.namespace["DYNAMIC"]


def to_numpy(tensors):
    out = []
    for t in tensors:
        t = t.detach().cpu().contiguous()
        out.append(t.view(torch.int16).numpy().view(BFLOAT16) if t.dtype == torch.bfloat16
                   else t.numpy())
    return out


class TorchFamily(Family):
    """A family that compiles the generated torch module (torch_worker's TorchScript,
    inductor_worker's torch.compile): the conversion and the standalone program are the same,
    only build() differs."""

    PROGRAM = True

    def version(self):
        return torch.__version__

    def convert(self, model, outputs, mutations=(), args=None):
        prog, module = torch_program(model, outputs, mutations, args)
        entry = Compiled(program=prog)
        entry.module = module
        return entry

    def standalone(self, model, outputs, mutations=(), args=None):
        return torch_standalone(model, outputs, mutations, args)
