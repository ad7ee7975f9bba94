#!/usr/bin/python3
"""Retort backend worker for PyTorch (TorchScript); docs/backend-protocol.md.

Run with Debian's interpreter (/usr/bin/python3), which has python3-torch and python3-onnx.
Options of `hello`: mode = eager | trace | script, freeze = 0 | 1 (torch.jit.freeze and
torch.jit.optimize_for_inference), fuser = 0 | 1 (the TensorExpr fuser on CPU).
stdout carries frames only; everything else goes to stderr.
"""

import collections
import hashlib
import json
import struct
import sys
import traceback

import numpy as np
import torch

from torch_graph import convert_model
from torch_ops import Unsupported

DTYPES = {"f32": "float32", "f64": "float64", "f16": "float16", "i8": "int8", "u8": "uint8",
          "i16": "int16", "i32": "int32", "i64": "int64", "bool": "bool"}
DTYPE_NAMES = {np.dtype(v): k for k, v in DTYPES.items()}
MAX_HEADER = 64 << 20
CACHE_SIZE = 16
JIT_RUNS = 3  # the profiling executor specialises (and fuses) after the first runs of a module


class ProtocolError(Exception):
    pass


class Failure(Exception):
    """A failed request with its kind ("unsupported" or "error") already decided."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


# Messages in which torch says it has no kernel or rule for a dtype or value, e.g.
# "addmm_impl_cpu_" not implemented for 'Half': the model is unsupported, not miscompiled.
TORCH_LIMITS = ("not implemented for", "could not infer output dtype")


def error_kind(exc):
    if isinstance(exc, (Unsupported, Failure)):
        return getattr(exc, "kind", "unsupported")
    text = str(exc)
    return "unsupported" if any(limit in text for limit in TORCH_LIMITS) else "error"


def concise(exc):
    """The message of exc; for a torch limit just the line that names it."""
    text = str(exc)
    for line in text.splitlines():
        if any(limit in line for limit in TORCH_LIMITS):
            return line.strip()
    return text if len(text) <= 4000 else text[:4000] + " ..."


def blamed(converted, exc):
    return Failure(error_kind(exc), f"{converted.blame(exc)}{concise(exc)}")


def read_exact(stream, n):
    data = stream.read(n)
    if data is None or len(data) < n:
        return None
    return data


def read_frame(stream):
    """(header, blobs), or None at end of input."""
    size = read_exact(stream, 4)
    if size is None:
        return None
    (n,) = struct.unpack("<I", size)
    if n > MAX_HEADER:
        raise ProtocolError(f"header of {n} bytes")
    raw = read_exact(stream, n)
    if raw is None:
        return None
    header = json.loads(raw.decode("utf-8"))
    blobs = []
    for length in header.get("blobs", []):
        blob = read_exact(stream, length)
        if blob is None:
            return None
        blobs.append(blob)
    return header, blobs


def write_frame(stream, header, blobs=()):
    header = dict(header, blobs=[len(b) for b in blobs])
    raw = json.dumps(header).encode("utf-8")
    stream.write(struct.pack("<I", len(raw)) + raw)
    for blob in blobs:
        stream.write(blob)
    stream.flush()


def tensor_from(desc, blobs):
    if desc["dtype"] not in DTYPES:
        raise Unsupported(f"input '{desc['name']}': dtype {desc['dtype']}")
    dtype = np.dtype(DTYPES[desc["dtype"]]).newbyteorder("<")
    array = np.frombuffer(blobs[desc["blob"]], dtype=dtype).reshape(desc["shape"])
    return torch.from_numpy(array.astype(dtype.newbyteorder("="), copy=True))


def tensor_to(name, tensor, dtype, blobs):
    array = tensor.detach().contiguous().numpy()
    if array.dtype != dtype:  # the model's declared dtype wins over torch's promotion
        array = array.astype(dtype)
    blobs.append(array.astype(dtype.newbyteorder("<")).tobytes())
    return {"name": name, "dtype": DTYPE_NAMES[dtype], "shape": list(array.shape),
            "blob": len(blobs) - 1}


def option(options, name, choices, default):
    value = options.get(name, default)
    if value not in choices:
        raise ProtocolError(f"option {name} must be one of {', '.join(choices)}, got '{value}'")
    return value


class Settings:
    def __init__(self, options):
        self.mode = option(options, "mode", ("eager", "trace", "script"), "script")
        self.freeze = option(options, "freeze", ("0", "1"), "0") == "1"
        self.fuser = option(options, "fuser", ("0", "1"), "0") == "1"

    def apply(self):
        torch.set_num_threads(1)
        torch._C._jit_set_profiling_executor(True)
        torch._C._jit_set_texpr_fuser_enabled(self.fuser)
        torch._C._jit_override_can_fuse_on_cpu(self.fuser)
        # Debian's torch has no LLVM; the fuser then compiles with its block/IR-eval codegen.
        torch._C._jit_set_te_must_use_llvm_cpu(False)


def compile_module(converted, settings, inputs):
    module = converted.module
    if settings.mode == "eager":
        if settings.freeze:
            raise Unsupported("freeze applies to trace and script modes, not eager")
        return module
    if settings.mode == "trace":
        jit = torch.jit.trace(module, tuple(inputs), check_trace=False)
    else:
        try:
            jit = torch.jit.script(module)
        except Exception as e:  # TorchScript cannot express the generated forward
            raise Unsupported(f"torch.jit.script: {e}") from None
    if settings.freeze:
        jit = torch.jit.optimize_for_inference(torch.jit.freeze(jit))
    return jit


def check_inputs(converted, inputs):
    """The run's inputs must be what the model declares: the module is specialised to it."""
    for name, (dtype, shape) in converted.input_types.items():
        if name not in inputs:
            raise ProtocolError(f"model input '{name}' is not given")
        t = inputs[name]
        got = (t.numpy().dtype, list(t.shape))
        if got != (dtype, list(shape)):
            raise ProtocolError(f"input '{name}' is {DTYPE_NAMES[got[0]]}{got[1]}, the model "
                                f"declares {DTYPE_NAMES[dtype]}{list(shape)}")


class Compiled:
    """A cached module: the conversion, the callable, and how often it has run."""

    def __init__(self, converted, fn):
        self.converted = converted
        self.fn = fn
        self.runs = 0


class Worker:
    def __init__(self):
        self.settings = None
        self.cache = collections.OrderedDict()

    def hello(self, header):
        options = {str(k): str(v) for k, v in header.get("options", {}).items()}
        self.settings = Settings(options)
        self.settings.apply()
        self.cache.clear()
        return {"type": "hello", "name": "torch", "version": torch.__version__,
                "options": options}, []

    def compiled(self, model, outputs, inputs):
        key = (hashlib.sha256(model).hexdigest(), tuple(outputs),
               tuple(sorted((n, str(t.dtype), tuple(t.shape)) for n, t in inputs.items())))
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        converted = convert_model(model, outputs)
        check_inputs(converted, inputs)
        args = [inputs[n] for n in converted.input_names]
        try:
            entry = Compiled(converted, compile_module(converted, self.settings, args))
        except Exception as e:
            raise blamed(converted, e) from e
        self.cache[key] = entry
        if len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)
        return entry

    def run(self, header, blobs):
        if self.settings is None:
            raise ProtocolError("run before hello")
        model = blobs[header["model"]]
        outputs = header["outputs"]
        if not outputs:
            raise ProtocolError("the run asks for no outputs")
        inputs = {d["name"]: tensor_from(d, blobs) for d in header.get("inputs", [])}
        entry = self.compiled(model, outputs, inputs)
        converted = entry.converted
        args = [inputs[n] for n in converted.input_names]
        warm_up = 0 if self.settings.mode == "eager" else JIT_RUNS - 1
        try:
            with torch.no_grad():
                for _ in range(max(1, warm_up + 1 - entry.runs)):
                    results = entry.fn(*args)
                    entry.runs += 1
        except Exception as e:
            raise blamed(converted, e) from e
        out_blobs = []
        described = [tensor_to(name, t, dtype, out_blobs)
                     for name, t, dtype in zip(outputs, results, converted.output_dtypes)]
        return {"type": "result", "id": header.get("id"), "outputs": described}, out_blobs


def serve(stdin, stdout):
    worker = Worker()
    while True:
        try:
            frame = read_frame(stdin)
        except (ProtocolError, ValueError) as e:  # the stream is out of step: nothing to answer
            print(f"torch_worker: malformed frame: {e}", file=sys.stderr)
            return 2
        if frame is None:
            return 0
        header, blobs = frame
        kind = header.get("type")
        if kind == "bye":
            return 0
        try:
            if kind == "hello":
                reply, out_blobs = worker.hello(header)
            elif kind == "run":
                reply, out_blobs = worker.run(header, blobs)
            else:
                raise ProtocolError(f"unknown request type '{kind}'")
        except Exception as e:  # one bad request never ends the worker
            traceback.print_exc(file=sys.stderr)
            message = str(e) if isinstance(e, Failure) else f"{type(e).__name__}: {e}"
            reply = {"type": "error", "id": header.get("id"), "kind": error_kind(e),
                     "message": message}
            out_blobs = []
        write_frame(stdout, reply, out_blobs)


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the frames
    return serve(stdin, stdout)


if __name__ == "__main__":
    sys.exit(main())
