"""A test-side client of the backend worker protocol (docs/backend-protocol.md)."""

import json
import struct
import subprocess

import numpy as np

DTYPES = {"f32": "float32", "f64": "float64", "f16": "float16", "i8": "int8", "u8": "uint8",
          "i16": "int16", "i32": "int32", "i64": "int64", "bool": "bool"}
try:  # bfloat16 comes with ml_dtypes (onnx 1.15 and later require it)
    import ml_dtypes
    DTYPES["bf16"] = ml_dtypes.bfloat16
except ImportError:
    pass
DTYPE_NAMES = {np.dtype(v): k for k, v in DTYPES.items()}


def arrays_of(described, blobs):
    """{name: array} of the tensor descriptions of a reply."""
    arrays = {}
    for o in described:
        dtype = np.dtype(DTYPES[o["dtype"]]).newbyteorder("<")
        arrays[o["name"]] = np.frombuffer(blobs[o["blob"]], dtype).reshape(o["shape"])
    return arrays


class WorkerClient:
    def __init__(self, command, options):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.hello = self.request({"type": "hello", "options": options})[0]

    def send(self, header, blobs=()):
        header = dict(header, blobs=[len(b) for b in blobs])
        raw = json.dumps(header).encode()
        self.proc.stdin.write(struct.pack("<I", len(raw)) + raw + b"".join(blobs))
        self.proc.stdin.flush()

    def receive(self):
        (n,) = struct.unpack("<I", self.proc.stdout.read(4))
        header = json.loads(self.proc.stdout.read(n))
        blobs = [self.proc.stdout.read(size) for size in header.get("blobs", [])]
        return header, blobs

    def request(self, header, blobs=()):
        self.send(header, blobs)
        return self.receive()

    def run(self, model_bytes, inputs, outputs, **fields):
        """(reply header, {name: array}) for one run; `fields` go into the run request as they
        are (optimized_ops=True)."""
        header, out_blobs = self.model_request("run", model_bytes, inputs, outputs, fields)
        return header, arrays_of(header.get("outputs", []), out_blobs)

    def program(self, model_bytes, inputs, outputs, **fields):
        """(reply header, {name: constant}) of a program request: the standalone program;
        `fields` go into the request as they are (mutations=[...])."""
        header, out_blobs = self.model_request("program", model_bytes, inputs, outputs, fields)
        return header, arrays_of(header.get("consts", []), out_blobs)

    def model_request(self, kind, model_bytes, inputs, outputs, fields):
        self.next_id += 1
        blobs = [model_bytes]
        described = []
        for name, array in inputs.items():
            array = np.asarray(array)
            blobs.append(array.astype(array.dtype.newbyteorder("<")).tobytes())
            described.append({"name": name, "dtype": DTYPE_NAMES[array.dtype],
                              "shape": list(array.shape), "blob": len(blobs) - 1})
        return self.request({"type": kind, "id": self.next_id, "model": 0, "inputs": described,
                             "outputs": outputs, **fields}, blobs)

    def probe(self, graphs):
        """The reply header of a probe request for graphs, each (model bytes, {name: array},
        outputs)."""
        self.next_id += 1
        blobs, entries = [], []
        for model_bytes, inputs, outputs in graphs:
            blobs.append(model_bytes)
            entry = {"model": len(blobs) - 1, "inputs": [], "outputs": outputs}
            for name, array in inputs.items():
                array = np.asarray(array)
                blobs.append(array.astype(array.dtype.newbyteorder("<")).tobytes())
                entry["inputs"].append({"name": name, "dtype": DTYPE_NAMES[array.dtype],
                                        "shape": list(array.shape), "blob": len(blobs) - 1})
            entries.append(entry)
        return self.request({"type": "probe", "id": self.next_id, "graphs": entries}, blobs)[0]

    def close(self):
        self.send({"type": "bye"})
        self.proc.stdin.close()
        code = self.proc.wait(timeout=30)
        self.proc.stdout.close()
        return code
