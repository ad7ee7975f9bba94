#!/usr/bin/env python3
"""Retort backend worker for OpenVINO on CPU; docs/backend-protocol.md.

OpenVINO reads the ONNX model itself (its ONNX frontend) and compiles it for the CPU plugin.
Option of `hello`: precision = f32 (INFERENCE_PRECISION_HINT f32) | default (the plugin's
choice, bf16 or f16 on CPUs that have them (AVX512_BF16, AMX, AVX512_FP16), else f32, for a
model whose floats are all bf16 or f16; f32 for a model with an f32 or f64 value, whose results
the plugin's choice would leave with a narrower type's precision by design, which no equivalence
oracle can tell from a bug); disabled_passes = names of SWITCHES joined by ','
(`findings blame`): the CPU plugin's public properties that turn a transformation off (no
public property turns off one of its graph transformations by name). The CPU runs one stream on
one thread.
"""

import os
import sys
import tempfile

import numpy as np
import onnx
import openvino as ov
import openvino.opset12 as ov_ops
from openvino.frontend.onnx import ConversionExtension

from retort_backends.model import OPS_DOMAIN
from retort_backends.tensors import BFLOAT16, is_bfloat16
from retort_backends.worker import PASS_NAMES, Compiled, Family, serve

LIMITS = ("No conversion rule found", "is not supported", "not implemented")
WIDE_FLOATS = (onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE)


# OpenVINO's Python API shows a bf16 tensor's data as 16-bit words (numpy float16) and reads no
# ml_dtypes array: bf16 crosses as bits.
def to_ov(array):
    if not is_bfloat16(array.dtype):
        return array
    tensor = ov.Tensor(ov.Type.bf16, list(array.shape))
    tensor.data[...] = array.view(tensor.data.dtype)
    return tensor


def from_ov(tensor):
    data = np.array(tensor.data)
    return data.view(BFLOAT16) if tensor.element_type == ov.Type.bf16 else data


def group_norm(node):
    """A call of Retort's GroupNormalization function (domain retort.ops) as OpenVINO's own
    GroupNormalization-12 (scale and bias per channel, as ONNX's version 21), so that the CPU
    plugin's lowering of it is what runs, not the function's body."""
    return ov_ops.group_normalization(node.get_input(0), node.get_input(1), node.get_input(2),
                                      node.get_attribute("num_groups"),
                                      node.get_attribute("epsilon")).outputs()


# Pass switch -> the compile_model properties that turn it off; names not here are ignored.
SWITCHES = {
    # Snippets: the JIT that compiles chains of elementwise ops into one "Subgraph" kernel.
    "snippets": {"SNIPPETS_MODE": "DISABLE"},
    # Lowered precision and approximations the PERFORMANCE hint allows.
    "low_precision": {"EXECUTION_MODE_HINT": "ACCURACY"},
    # Dynamic quantization of MatMul activations.
    "dynamic_quantization": {"DYNAMIC_QUANTIZATION_GROUP_SIZE": 0},
}


class OpenVINO(Family):
    NAME = "openvino"
    OPTIONS = {"precision": (("f32", "default"), "default"),
               "disabled_passes": (PASS_NAMES, "")}
    LIMITS = LIMITS

    def __init__(self, options):
        super().__init__(options)
        self.core = ov.Core()
        self.core.add_extension(ConversionExtension("GroupNormalization", OPS_DOMAIN, group_norm))
        self.config = {"INFERENCE_NUM_THREADS": 1, "NUM_STREAMS": 1}
        if options["precision"] == "f32":
            self.config["INFERENCE_PRECISION_HINT"] = "f32"
        for name in options["disabled_passes"].split(","):
            self.config.update(SWITCHES.get(name, {}))
        self.tmp = tempfile.TemporaryDirectory(prefix="retort_openvino_")

    def version(self):
        return ov.__version__ if hasattr(ov, "__version__") else ov.get_version()

    def convert(self, model, outputs):
        path = os.path.join(self.tmp.name, "model.onnx")
        with open(path, "wb") as f:
            f.write(model.restricted_to(outputs, keep_ops=True).SerializeToString())
        entry = Compiled()
        entry.ov_model = self.core.read_model(path)
        entry.config = dict(self.config)
        if any(code in WIDE_FLOATS for code, _ in model.types.values()):
            entry.config["INFERENCE_PRECISION_HINT"] = "f32"
        return entry

    def build(self, entry, args):
        compiled = self.core.compile_model(entry.ov_model, "CPU", entry.config)
        request = compiled.create_infer_request()
        n_outputs = len(compiled.outputs)

        def run(arrays):
            request.infer({k: to_ov(a) for k, a in enumerate(arrays)})
            return [from_ov(request.get_output_tensor(j)) for j in range(n_outputs)]

        entry.fn = run


if __name__ == "__main__":
    sys.exit(serve(OpenVINO))
