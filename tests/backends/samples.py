"""The POLYJUICE samples (samples/polyjuice) exported to ONNX by Retort, with rewritten variants,
and random inputs for a model."""

import os
import subprocess
import tempfile

import numpy as np
import onnx

from onnx_compat import np_dtype

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def retort(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, check=True).stdout


def registry_onnx_types(binary):
    """{Retort op name: the ONNX op type it exports to}, from `retort help ops|op NAME`."""
    names = [line.split()[0] for line in retort(binary, "help", "ops").splitlines()[1:] if line]
    types = {}
    for name in names:
        line = next(l for l in retort(binary, "help", "op", name).splitlines()
                    if l.startswith("onnx: "))
        types[name] = line.split()[1]
    return types


SAMPLES = os.path.join(ROOT, "samples", "polyjuice")

# Ops above the exported opset 17, which Retort exports as calls of its retort.ops functions
# (GroupNormalization-21): their cases are Retort's own export, so that a family gets the call
# (and the function's body) as the workbench sends it.
EXPORTED_OP_GRAPHS = [
    ("GroupNormalization", "GroupNormalization",
     "input x : f32[2, 6, 5]\ninput s : f32[6]\ninput b : f32[6]\n"
     "y = group_norm(x, s, b, num_groups=3)\noutput y\n"),
    ("GroupNormalization 4d epsilon", "GroupNormalization",
     "input x : f32[1, 4, 3, 3]\ninput s : f32[4]\ninput b : f32[4]\n"
     "y = group_norm(x, s, b, num_groups=2, epsilon=0.25)\noutput y\n"),
]


class ExportedCase:
    """An op case (torch_cases.Case's fields) whose model is Retort's export of a graph."""

    def __init__(self, binary, tmp, label, op, text):
        from onnx_numpy import evaluate

        self.label, self.op = label, op
        path = os.path.join(tmp, f"{len(os.listdir(tmp))}.rtg")
        with open(path, "w") as f:
            f.write(text)
        model = export_model(binary, path, f"{path}.onnx")
        self.model = model.SerializeToString()
        self.inputs = random_inputs(model, seed=len(label))
        values = evaluate(model, self.inputs)
        self.outputs = [o.name for o in model.graph.output]
        self.expected = {o: values[o] for o in self.outputs}


def exported_op_cases(binary):
    with tempfile.TemporaryDirectory() as tmp:
        return [ExportedCase(binary, tmp, *graph) for graph in EXPORTED_OP_GRAPHS]


def random_inputs(model, seed):
    rng = np.random.default_rng(seed)
    inputs = {}
    for v in model.graph.input:
        t = v.type.tensor_type
        dtype = np_dtype(t.elem_type)
        shape = [d.dim_value for d in t.shape.dim]
        if dtype.kind == "f":
            inputs[v.name] = rng.uniform(-1, 1, shape).astype(dtype)
        elif dtype == np.uint8:
            inputs[v.name] = rng.integers(0, 256, shape).astype(dtype)
        else:
            inputs[v.name] = rng.integers(-9, 10, shape).astype(dtype)
    return inputs


def variant_text(binary, sample, how):
    """A rewritten variant of the sample as .rtg text (`show` lists its constants elided, so
    only constant-free samples qualify)."""
    script = f"load {sample}; egraph; saturate --iters 3; extract {how}; show v"
    shown = retort(binary, "-c", script)
    return shown[shown.index("graph "):]


def export_model(binary, rtg_path, onnx_path):
    """Retort's ONNX export, with every intermediate value as an output (as the workbench
    sends models)."""
    retort(binary, "-c", f"load {rtg_path}; export {onnx_path}")
    model = onnx.load(onnx_path)
    model.graph.output.extend(model.graph.value_info)
    del model.graph.value_info[:]
    return model


def exported_samples(binary):
    """The POLYJUICE samples and rewritten variants of them, exported by the Retort binary."""
    models = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(SAMPLES)):
            if not name.endswith(".rtg"):
                continue
            sample = os.path.join(SAMPLES, name)
            models[name] = export_model(binary, sample, os.path.join(tmp, f"{name}.onnx"))
            with open(sample) as f:
                if "\nconst " in f.read():
                    continue
            for how in ("max as v", "random as v --seed 7"):
                rtg = os.path.join(tmp, f"{name}.{how.split()[0]}.rtg")
                with open(rtg, "w") as f:
                    f.write(variant_text(binary, sample, how))
                label = f"{name} ({how.split()[0]} variant)"
                models[label] = export_model(binary, rtg, f"{rtg}.onnx")
    return models
