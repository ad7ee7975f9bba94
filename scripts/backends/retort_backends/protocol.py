"""Frames of the worker protocol: a 4-byte little-endian header length, a JSON header, blobs.

The limits are those of every worker language (core/backend/frame.h)."""

import json
import re
import struct

from .errors import ProtocolError

MAX_HEADER = 16 << 20
MAX_DEPTH = 64
MAX_BLOB_TOTAL = 4 << 30
# Bytes are read in pieces of this size, so a declared size costs nothing until its bytes come.
PIECE = 1 << 20

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_OPEN = b"[{"
_NOT_BRACKET = bytes(sorted(set(range(256)) - set(b"[]{}")))


def _read_exact(stream, n):
    """n bytes, or None at the end of input. Short reads (a pipe, a raw stream) are read on; the
    pieces join into one bytearray, which grows geometrically: linear in n."""
    data = bytearray()
    while len(data) < n:
        piece = stream.read(min(PIECE, n - len(data)))
        if not piece:
            return None
        data += piece
    return bytes(data)


def _check_nesting(raw):
    """Refuses a header nested deeper than MAX_DEPTH before json builds one value per bracket
    (Python's own bound is its recursion limit, and a RecursionError is not a protocol error)."""
    depth = 0
    for c in _STRING.sub(b"", raw).translate(None, _NOT_BRACKET):
        depth += 1 if c in _OPEN else -1
        if depth > MAX_DEPTH:
            raise ProtocolError(f"the header is nested deeper than {MAX_DEPTH} levels")


def _blob_sizes(header):
    sizes = header.get("blobs") or []
    if not isinstance(sizes, list):
        raise ProtocolError("'blobs' is not an array")
    for n in sizes:
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ProtocolError(f"'blobs' holds {n!r}, not a byte count")
    if sum(sizes) > MAX_BLOB_TOTAL:
        raise ProtocolError("the blobs of one frame take more than 4 GiB")
    return sizes


def read_frame(stream):
    """(header, blobs), or None at the end of input."""
    size = _read_exact(stream, 4)
    if size is None:
        return None
    (n,) = struct.unpack("<I", size)
    if n > MAX_HEADER:
        raise ProtocolError(f"header of {n} bytes is over the limit of {MAX_HEADER >> 20} MiB")
    raw = _read_exact(stream, n)
    if raw is None:
        return None
    _check_nesting(raw)
    header = json.loads(raw.decode("utf-8"))
    if not isinstance(header, dict):
        raise ProtocolError("the header is not a JSON object")
    blobs = []
    for length in _blob_sizes(header):
        blob = _read_exact(stream, length)
        if blob is None:
            return None
        blobs.append(blob)
    return header, blobs


def write_frame(stream, header, blobs=()):
    """Writes one frame; ProtocolError, with nothing written, when its header is over MAX_HEADER
    (a generated program of a huge model), which the reader would refuse."""
    header = dict(header, blobs=[len(b) for b in blobs])
    raw = json.dumps(header).encode("utf-8")
    if len(raw) > MAX_HEADER:
        raise ProtocolError(f"an answer's header of {len(raw)} bytes is over the limit of "
                            f"{MAX_HEADER >> 20} MiB")
    stream.write(struct.pack("<I", len(raw)) + raw)
    for blob in blobs:
        stream.write(blob)
    stream.flush()
