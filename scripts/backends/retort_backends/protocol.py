"""Frames of the worker protocol: a 4-byte little-endian header length, a JSON header, blobs."""

import json
import struct

from .errors import ProtocolError

MAX_HEADER = 64 << 20


def _read_exact(stream, n):
    data = stream.read(n)
    if data is None or len(data) < n:
        return None
    return data


def read_frame(stream):
    """(header, blobs), or None at the end of input."""
    size = _read_exact(stream, 4)
    if size is None:
        return None
    (n,) = struct.unpack("<I", size)
    if n > MAX_HEADER:
        raise ProtocolError(f"header of {n} bytes")
    raw = _read_exact(stream, n)
    if raw is None:
        return None
    header = json.loads(raw.decode("utf-8"))
    if not isinstance(header, dict):
        raise ProtocolError("the header is not a JSON object")
    blobs = []
    for length in header.get("blobs", []):
        blob = _read_exact(stream, int(length))
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
