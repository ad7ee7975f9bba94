"""ONNX element type codes <-> numpy dtypes, for onnx 1.12 (Debian) up to the current release
(where onnx.mapping is gone)."""

import numpy as np
import onnx

try:
    _to_np = onnx.helper.tensor_dtype_to_np_dtype
    _to_code = onnx.helper.np_dtype_to_tensor_dtype
except AttributeError:  # onnx < 1.13
    def _to_np(code):
        return onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[code]

    def _to_code(dtype):
        return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[dtype]


def np_dtype(code):
    return np.dtype(_to_np(code))


def onnx_code(dtype):
    return int(_to_code(np.dtype(dtype)))
