"""Tensors of the protocol: Retort dtype names, numpy arrays, little-endian blobs."""

import numpy as np

from .errors import ProtocolError, Unsupported

DTYPES = {"f32": "float32", "f64": "float64", "f16": "float16", "i8": "int8", "u8": "uint8",
          "i16": "int16", "i32": "int32", "i64": "int64", "bool": "bool"}
NUMPY_DTYPES = {k: np.dtype(v) for k, v in DTYPES.items()}
try:
    # numpy has no bfloat16; ml_dtypes (which onnx 1.15 and later, jax and tf require) adds it.
    import ml_dtypes
    BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
    NUMPY_DTYPES["bf16"] = BFLOAT16
except ImportError:  # an older onnx (Debian's 1.12): a bf16 tensor is unsupported
    BFLOAT16 = None
DTYPE_NAMES = {v: k for k, v in NUMPY_DTYPES.items()}


def is_bfloat16(dtype):
    # Not `== BFLOAT16` alone: numpy 1.x reads None as float64 in a dtype comparison.
    return BFLOAT16 is not None and np.dtype(dtype) == BFLOAT16


def is_float(dtype):
    return np.dtype(dtype).kind == "f" or is_bfloat16(dtype)


def bits_view(array):
    """A bfloat16 array as the int16 array of its bits (frameworks that take no ml_dtypes
    array take these and view them as their own bfloat16); other arrays as they are."""
    return array.view(np.int16) if is_bfloat16(array.dtype) else array


def dtype_name(dtype):
    return DTYPE_NAMES.get(np.dtype(dtype), str(dtype))


def decode(desc, blobs):
    """The numpy array (native byte order, writable) that a tensor description names."""
    if desc.get("dtype") not in NUMPY_DTYPES:
        raise Unsupported(f"input {desc.get('name')!r}: dtype {desc.get('dtype')!r}")
    index = desc.get("blob")
    if not isinstance(index, int) or not 0 <= index < len(blobs):
        raise ProtocolError(f"input {desc.get('name')!r}: no blob {index!r}")
    dtype = NUMPY_DTYPES[desc["dtype"]]
    shape = [int(d) for d in desc.get("shape", [])]
    array = np.frombuffer(blobs[index], dtype=dtype.newbyteorder("<"))
    if array.size != int(np.prod(shape, dtype=np.int64)):
        raise ProtocolError(f"input {desc.get('name')!r}: {array.size} elements for shape {shape}")
    return array.reshape(shape).astype(dtype, copy=True)


def encode(name, array, dtype, blobs):
    """Appends array's bytes (as `dtype`, the model's declared type) to blobs; its description."""
    array = np.asarray(array)
    dtype = np.dtype(dtype)
    if array.dtype != dtype:  # the model's declared dtype wins over a framework's promotion
        array = array.astype(dtype)
    blobs.append(np.ascontiguousarray(array, dtype=dtype.newbyteorder("<")).tobytes())
    return {"name": name, "dtype": DTYPE_NAMES[dtype], "shape": list(array.shape),
            "blob": len(blobs) - 1}
