#!/usr/bin/python3
"""Tests of scripts/backends/retort_backends that need no framework (numpy and onnx only)."""

import io
import json
import os
import struct
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
WORKERS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "backends")
sys.path[:0] = [HERE, WORKERS]

from retort_backends.errors import ProtocolError, bounded, printable, quoted  # noqa: E402
from retort_backends.protocol import MAX_DEPTH, read_frame, write_frame  # noqa: E402
from retort_backends.program import lit, string_lit  # noqa: E402

# A family whose version() writes to file descriptor 1 natively, as a framework's C++ may.
NOISY_WORKER = f"""
import os, sys
sys.path.insert(0, {WORKERS!r})
from retort_backends.worker import Family, serve

class Noisy(Family):
    NAME = "noisy"

    def version(self):
        os.write(1, b"native noise on fd 1")
        print("a stray print")
        return "1"

sys.exit(serve(Noisy))
"""


def frame_bytes(raw):
    return struct.pack("<I", len(raw)) + raw


def frame(header):
    raw = json.dumps(header).encode()
    return struct.pack("<I", len(raw)) + raw


class FramesTest(unittest.TestCase):
    def test_native_writes_to_stdout_do_not_corrupt_frames(self):
        requests = frame({"type": "hello", "options": {}}) + frame({"type": "bye"})
        proc = subprocess.run([sys.executable, "-c", NOISY_WORKER], input=requests,
                              capture_output=True, timeout=60)
        self.assertEqual(proc.returncode, 0)
        (n,) = struct.unpack("<I", proc.stdout[:4])
        self.assertEqual(len(proc.stdout), 4 + n, proc.stdout)
        self.assertEqual(json.loads(proc.stdout[4:]), {"type": "hello", "name": "noisy",
                                                       "version": "1", "options": {},
                                                       "probe": True, "blobs": []})
        self.assertIn(b"native noise on fd 1", proc.stderr)


class ShortReads(io.RawIOBase):
    """A stream that answers at most `piece` bytes a read, as a pipe does, and counts the bytes
    it hands out."""

    def __init__(self, data, piece):
        self.data, self.at, self.piece = memoryview(data), 0, piece

    def read(self, n=-1):
        n = min(n, self.piece, len(self.data) - self.at)
        out = bytes(self.data[self.at:self.at + n])
        self.at += n
        return out


class FrameReadingTest(unittest.TestCase):
    def test_a_64_mb_frame_in_short_reads(self):
        blob = bytes(range(256)) * (64 * 1000 * 1000 // 256)
        out = io.BytesIO()
        write_frame(out, {"type": "run", "id": 1}, [b"model", blob])
        header, blobs = read_frame(ShortReads(out.getvalue(), 64 * 1024))
        self.assertEqual(header["blobs"], [5, len(blob)])
        self.assertEqual(blobs[0], b"model")
        self.assertEqual(blobs[1], blob)

    def test_frames_in_order_then_the_end(self):
        out = io.BytesIO()
        write_frame(out, {"type": "hello"})
        write_frame(out, {"type": "run"}, [b"abc", b""])
        stream = ShortReads(out.getvalue(), 3)
        self.assertEqual(read_frame(stream)[0]["type"], "hello")
        self.assertEqual(read_frame(stream)[1], [b"abc", b""])
        self.assertIsNone(read_frame(stream))

    def test_nesting_and_size_are_bounded(self):
        deep = b'{"a":' + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"}"
        with self.assertRaisesRegex(ProtocolError, "nested deeper than 64"):
            read_frame(io.BytesIO(frame_bytes(deep)))
        with self.assertRaisesRegex(ProtocolError, "nested deeper than 64"):
            read_frame(io.BytesIO(frame_bytes(b'{"a":' + b"[" * (15 << 20))))
        quoted_brackets = json.dumps({"a": "[" * 1000, "b": '\\"[['}).encode()
        self.assertEqual(read_frame(io.BytesIO(frame_bytes(quoted_brackets)))[0]["a"], "[" * 1000)
        with self.assertRaisesRegex(ProtocolError, "over the limit of 16 MiB"):
            read_frame(io.BytesIO(struct.pack("<I", (16 << 20) + 1)))
        for bad in (b'{"blobs": [-1]}', b'{"blobs": 3}', b'{"blobs": [true]}'):
            with self.assertRaises(ProtocolError):
                read_frame(io.BytesIO(frame_bytes(bad)))

    def test_a_header_over_the_limit_is_never_written(self):
        out = io.BytesIO()
        write_frame(out, {"type": "program", "source": "x" * (1 << 20)})
        self.assertEqual(len(read_frame(io.BytesIO(out.getvalue()))[0]["source"]), 1 << 20)
        out = io.BytesIO()
        with self.assertRaisesRegex(ProtocolError, "over the limit of 16 MiB"):
            write_frame(out, {"type": "program", "source": "x" * (16 << 20)})
        self.assertEqual(out.getvalue(), b"")


class TextTest(unittest.TestCase):
    def test_printable_escapes_controls_and_line_separators(self):
        text = printable("a\x1b[31m\u2028b\u2029\u0085c\rd\ne\tf")
        self.assertEqual(text, "a\\x1b[31m\\u2028b\\u2029\\x85c\\rd\ne\tf")

    def test_bounded_keeps_head_and_tail(self):
        text = bounded("h" * 5000 + "TAIL", limit=2000)
        self.assertTrue(text.startswith("h" * 1000))
        self.assertTrue(text.endswith("TAIL"))
        self.assertIn("characters ...", text)
        self.assertLess(len(text), 2100)

    def test_quoted_names_are_one_line(self):
        self.assertEqual(quoted("n\n__import__('os')"), "\"n\\n__import__('os')\"")
        self.assertNotIn("\u2028", quoted("a\u2028b"))


class LiteralTest(unittest.TestCase):
    def test_string_literals_evaluate_to_themselves(self):
        for s in ("ii->i", "a'); __import__('os')", 'b"""\n', "c\u2028d", "\\"):
            self.assertEqual(eval(string_lit(s)), s)

    def test_number_literals(self):
        self.assertEqual(lit([1, -2.5, True, float("inf")]), '[1, -2.5, True, float("inf")]')
        self.assertEqual(lit(float("nan")), 'float("nan")')
        with self.assertRaises((TypeError, ValueError)):
            lit("__import__('os')")


if __name__ == "__main__":
    unittest.main()
