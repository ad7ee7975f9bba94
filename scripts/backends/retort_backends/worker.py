"""A worker's life: hello and its options, the compile cache, timing, checking, answering.

A family is a subclass of Family; `serve(family_class)` runs the request loop on stdin/stdout.
Times in a result header (docs/backend-protocol.md):
  compile_ms  what it took to make the model runnable: conversion, the framework's compilation
              and the warm-up runs the family needs (lazy JITs compile at the first call). A run
              that reuses a cached compilation reports that compilation's time and "cached": true.
  run_ms      the one call whose outputs are answered.
"""

import collections
import hashlib
import json
import os
import re
import sys
import time
import traceback

import numpy as np
import onnx
import onnx.compose

from . import tensors
from .errors import Failure, ProtocolError, Unsupported, bounded, concise, kind_of, quoted
from .model import Model
from .protocol import read_frame, write_frame

CACHE_SIZE = 16


# The hello option that lists a compiler's passes to turn off (`findings blame`, issue 41): names
# joined by ',', each only of characters no compiler's flag syntax gives a meaning, so that a
# name can never become another flag. A family that takes it puts it in OPTIONS with these
# choices.
PASS_NAMES = re.compile(r"(?:[A-Za-z0-9_.-]+(?:,[A-Za-z0-9_.-]+)*)?")


class Family:
    """One framework. Subclasses set NAME, OPTIONS ({option: (choices, default)}; choices a tuple
    of values, or a compiled pattern the whole value must match) and LIMITS
    (phrases in which the framework says it lacks a kernel or rule, or exception types it
    raises for that: unsupported, not a bug)."""

    NAME = "?"
    OPTIONS = {}
    LIMITS = ()
    # Whether the family runs a generated Python program that TorchProbe's mutations rewrite
    # (probe.py); the others run the model as it is and ignore a run's "mutations".
    PROGRAM = False

    def __init__(self, options):
        self.options = options

    def version(self):
        raise NotImplementedError

    def convert(self, model, outputs, mutations=(), args=None):
        """A Compiled for the model's `outputs` (its fn may still be None): the conversion to
        the framework's form, with a PROGRAM family's program mutated (profiled on `args`).
        Raises Unsupported (naming the node) for what has no form."""
        raise NotImplementedError

    def build(self, entry, args):
        """The framework's compilation of a converted entry for these inputs (numpy arrays in
        the model's input order): sets entry.fn. Its failures are blamed on a node if possible."""

    def warm_up_runs(self):
        """Calls of a fresh compilation before the answered one (lazy JIT compilation)."""
        return 0

    def standalone(self, model, outputs, mutations=(), args=None):
        """A PROGRAM family's program as a module that runs without Retort (a reproducer's
        model_a.py, docs/backend-protocol.md): (source, {name: numpy constant}). The source
        imports only the framework, reads each constant with const(name) (which the module that
        holds it defines), and defines forward(x0, ...) over the model's inputs in order.
        Raises Unsupported when the family runs the ONNX model itself."""
        raise Unsupported(f"{self.NAME} runs the ONNX model, not a generated program")

    def probe(self, parts):
        """(results, compilations) of a probe request's graphs ((model bytes, outputs, inputs)
        each) for a family that batches them its own way; None: the worker merges them into
        one ONNX model (Worker.probe_group)."""
        return None

    def optimized_ops(self, entry):
        """The node count per ONNX op_type of the graph the framework optimized for a built
        entry (a run's "optimized_ops", docs/backend-protocol.md), or None when the family
        cannot see that graph."""
        return None


class Compiled:
    """A runnable model: fn(list of numpy inputs in model order) -> list of numpy outputs.
    `program` (a program.Program or None) names the node of a failing generated line."""

    def __init__(self, fn=None, program=None, release=None):
        self.fn = fn
        self.program = program
        self.release = release
        self.runs = 0
        self.compile_ms = 0.0

    def blame(self, exc):
        return self.program.blame(exc) if self.program is not None else ""

    def drop(self):
        if self.program is not None:
            self.program.forget()
        if self.release is not None:
            self.release()


def parse_options(family_class, raw):
    options = {str(k): str(v) for k, v in raw.items()}
    parsed = {}
    for name, value in options.items():
        if name not in family_class.OPTIONS:
            known = ", ".join(sorted(family_class.OPTIONS)) or "none"
            raise ProtocolError(f"unknown option {quoted(name)} (known: {known})")
    for name, (choices, default) in family_class.OPTIONS.items():
        value = options.get(name, default)
        if isinstance(choices, re.Pattern):
            if not choices.fullmatch(value):
                raise ProtocolError(f"option {name} does not take {quoted(value)}")
        elif value not in choices:
            raise ProtocolError(
                f"option {name} must be one of {', '.join(choices)}, got {quoted(value)}")
        parsed[name] = value
    return options, parsed


def check_inputs(model, inputs):
    """The run's inputs must be what the model declares: compilations are specialised to it."""
    for name, dtype, shape in model.input_types():
        if name not in inputs:
            raise ProtocolError(f"model input {quoted(name)} is not given")
        got = (inputs[name].dtype, list(inputs[name].shape))
        if got != (dtype, list(shape)):
            raise ProtocolError(
                f"input {quoted(name)} is {tensors.dtype_name(got[0])}{got[1]}, the model "
                f"declares {tensors.dtype_name(dtype)}{list(shape)}")


def checked_model(model_bytes, outputs, inputs):
    """The model of a request, its outputs and inputs checked against it, and the inputs in the
    model's order."""
    model = Model(model_bytes)
    model.check_outputs(outputs)
    check_inputs(model, inputs)
    return model, [inputs[n] for n in model.input_names]


def merged_model(parts):
    """One model computing every probe graph of `parts` ((model bytes, outputs, inputs) each),
    side by side, the names of graph i prefixed with "p<i>_": (model bytes, outputs, inputs).
    A compiler then compiles a batch of probes once instead of once per graph."""
    graph = onnx.helper.make_graph([], "main", [], [])
    opsets = {}
    outputs, inputs = [], {}
    ir_version = 0
    for i, (model_bytes, outs, ins) in enumerate(parts):
        prefix = f"p{i}_"
        proto = onnx.compose.add_prefix(onnx.load_from_string(model_bytes), prefix)
        ir_version = max(ir_version, proto.ir_version)
        for field in ("node", "input", "output", "initializer", "value_info"):
            getattr(graph, field).extend(getattr(proto.graph, field))
        for opset in proto.opset_import:
            opsets[opset.domain] = max(opsets.get(opset.domain, 0), opset.version)
        outputs += [prefix + o for o in outs]
        inputs.update({prefix + n: a for n, a in ins.items()})
    merged = onnx.helper.make_model(
        graph, opset_imports=[onnx.helper.make_opsetid(d, v) for d, v in opsets.items()],
        ir_version=ir_version)  # the graphs' own, which the framework reads: not onnx's newest
    return merged.SerializeToString(), outputs, inputs


class Worker:
    def __init__(self, family_class):
        self.family_class = family_class
        self.family = None
        self.cache = collections.OrderedDict()
        self.compilations = 0  # of the probe request being answered

    def limits(self):
        return self.family_class.LIMITS

    def hello(self, header):
        options, parsed = parse_options(self.family_class, header.get("options", {}))
        self.clear()
        self.family = self.family_class(parsed)
        return {"type": "hello", "name": self.family_class.NAME,
                "version": self.family.version(), "options": options, "probe": True}, []

    def clear(self):
        for entry in self.cache.values():
            entry.drop()
        self.cache.clear()

    def failure(self, entry, exc):
        return Failure(kind_of(exc, self.limits()),
                       f"{entry.blame(exc) if entry else ''}{concise(exc, self.limits())}")

    def compiled(self, model_bytes, outputs, inputs, mutations=()):
        key = (hashlib.sha256(model_bytes).hexdigest(), tuple(outputs),
               tuple(sorted((n, str(a.dtype), a.shape) for n, a in inputs.items())))
        if mutations:
            # A condition TCB synthesized holds for these inputs only (equivalence modulo
            # inputs): the mutated program is compiled for their values.
            values = hashlib.sha256(b"".join(inputs[n].tobytes() for n in sorted(inputs)))
            key += (json.dumps(mutations, sort_keys=True), values.hexdigest())
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key], True
        start = time.perf_counter()
        model, args = checked_model(model_bytes, outputs, inputs)
        if mutations:
            entry = self.family.convert(model, outputs, mutations, args)
        else:
            entry = self.family.convert(model, outputs)
        entry.input_names = model.input_names
        entry.output_dtypes = [model.dtype_of(o) for o in outputs]
        try:
            self.family.build(entry, args)
            for _ in range(self.family.warm_up_runs()):
                entry.fn(args)
                entry.runs += 1
        except Exception as e:
            entry.drop()
            raise self.failure(entry, e) from e
        entry.compile_ms = (time.perf_counter() - start) * 1e3
        self.cache[key] = entry
        if len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)[1].drop()
        return entry, False

    def request_parts(self, header, blobs):
        """What a run or program request names: (model bytes, outputs, inputs, mutations)."""
        if not isinstance(header.get("model"), int) or not 0 <= header["model"] < len(blobs):
            raise ProtocolError(f"the {header.get('type')} names no model blob")
        outputs = header.get("outputs") or []
        if not outputs:
            raise ProtocolError(f"the {header.get('type')} asks for no outputs")
        inputs = {d["name"]: tensors.decode(d, blobs) for d in header.get("inputs", [])}
        mutations = header.get("mutations") or [] if self.family_class.PROGRAM else []
        if not isinstance(mutations, list) or not all(isinstance(m, dict) for m in mutations):
            raise ProtocolError("'mutations' must be a list of objects")
        return blobs[header["model"]], outputs, inputs, mutations

    def run(self, header, blobs):
        if self.family is None:
            raise ProtocolError("run before hello")
        model_bytes, outputs, inputs, mutations = self.request_parts(header, blobs)
        entry, cached = self.compiled(model_bytes, outputs, inputs, mutations)
        args = [inputs[n] for n in entry.input_names]
        start = time.perf_counter()
        try:
            results = entry.fn(args)
            entry.runs += 1
        except Exception as e:
            raise self.failure(entry, e) from e
        run_ms = (time.perf_counter() - start) * 1e3
        out_blobs = []
        described = [tensors.encode(name, array, dtype, out_blobs)
                     for name, array, dtype in zip(outputs, results, entry.output_dtypes)]
        answer = {"type": "result", "id": header.get("id"), "outputs": described,
                  "compile_ms": round(entry.compile_ms, 3), "run_ms": round(run_ms, 3),
                  "cached": cached}
        if header.get("program") and entry.program is not None:
            answer["program"] = entry.program.source
        if header.get("optimized_ops"):
            ops = self.family.optimized_ops(entry)
            if ops is not None:
                answer["optimized_ops"] = ops
        return answer, out_blobs

    def run_once(self, model_bytes, outputs, inputs):
        """Compiles and runs a model, raising what fails; for the probe, which keeps no result."""
        entry, _ = self.compiled(model_bytes, outputs, inputs)
        try:
            entry.fn([inputs[n] for n in entry.input_names])
        except Exception as e:
            raise self.failure(entry, e) from e

    def probe_one(self, part):
        try:
            self.run_once(*part)
            return {"status": "ok"}
        except Exception as e:
            message = str(e) if isinstance(e, Failure) else f"{type(e).__name__}: {e}"
            return {"status": kind_of(e, self.limits()), "message": bounded(message)}

    def probe_group(self, parts, indices, results):
        """Fills results[i] for the graphs `indices` name: all of them merged into one model
        first. When that fails and the error names one graph's prefix, that graph alone, and
        when it fails alone, the others again without it; else each half again, down to single
        graphs, whose answer is their own run's. A batch that runs costs one compilation."""
        if len(indices) == 1:
            results[indices[0]] = self.probe_one(parts[indices[0]])
            self.compilations += 1
            return
        self.compilations += 1
        try:
            self.run_once(*merged_model([parts[i] for i in indices]))
            for i in indices:
                results[i] = {"status": "ok"}
            return
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            text = f"{e}\n{e.__cause__}"  # a Failure's message may keep one line of it
            named = {int(k) for k in re.findall(r"(?<![A-Za-z0-9_])p([0-9]+)_", text)}
        # The merged model's graph k is indices[k]: prefixes count positions in this merge.
        named = [indices[k] for k in named if k < len(indices)]
        if len(named) == 1:
            self.probe_group(parts, named, results)
            if results[named[0]]["status"] != "ok":
                self.probe_group(parts, [i for i in indices if i != named[0]], results)
                return
        half = len(indices) // 2
        self.probe_group(parts, indices[:half], results)
        self.probe_group(parts, indices[half:], results)

    def probe(self, header, blobs):
        """A probe request (docs/backend-protocol.md): whether each of many small graphs runs,
        answered per graph in order."""
        if self.family is None:
            raise ProtocolError("probe before hello")
        graphs = header.get("graphs")
        if not isinstance(graphs, list) or not all(isinstance(g, dict) for g in graphs):
            raise ProtocolError("'graphs' must be a list of objects")
        parts = []
        for g in graphs:
            model_bytes, outputs, inputs, _ = self.request_parts(dict(g, type="probe"), blobs)
            parts.append((model_bytes, outputs, inputs))
        answered = self.family.probe(parts) if parts else None
        if answered is not None:
            results, self.compilations = answered
        else:
            results = [None] * len(parts)
            self.compilations = 0
            if parts:
                self.probe_group(parts, list(range(len(parts))), results)
        return {"type": "probe", "id": header.get("id"), "results": results,
                "compilations": self.compilations}, []

    def program(self, header, blobs):
        """A program request: the generated program of the model as a standalone module, with
        its constants as tensors, for a reproducer that runs without Retort."""
        if self.family is None:
            raise ProtocolError("program before hello")
        model_bytes, outputs, inputs, mutations = self.request_parts(header, blobs)
        model, args = checked_model(model_bytes, outputs, inputs)
        source, consts = self.family.standalone(model, outputs, mutations, args)
        out_blobs = []
        described = [tensors.encode(name, value, np.asarray(value).dtype, out_blobs)
                     for name, value in consts.items()]
        return {"type": "program", "id": header.get("id"), "source": source,
                "consts": described}, out_blobs

    def answer(self, header, blobs):
        kind = header.get("type")
        try:
            if kind == "hello":
                return self.hello(header)
            if kind == "run":
                return self.run(header, blobs)
            if kind == "program":
                return self.program(header, blobs)
            if kind == "probe":
                return self.probe(header, blobs)
            raise ProtocolError(f"unknown request type {quoted(kind)}")
        except Exception as e:  # one bad request never ends the worker
            traceback.print_exc(file=sys.stderr)
            message = str(e) if isinstance(e, Failure) else f"{type(e).__name__}: {e}"
            return {"type": "error", "id": header.get("id"), "kind": kind_of(e, self.limits()),
                    "message": bounded(message)}, []


def frames_out():
    """A private stream on the real stdout for frames; file descriptor 1 then goes to stderr,
    so that nothing else (a stray print, a framework's native logging, a compiler it starts)
    can write into the frames."""
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def serve(family_class, stdin=None, stdout=None):
    """The request loop; returns the exit status."""
    if stdin is None:
        stdin, stdout = sys.stdin.buffer, frames_out()
    worker = Worker(family_class)
    while True:
        try:
            frame = read_frame(stdin)
        except (ProtocolError, ValueError) as e:  # the stream is out of step: nothing to answer
            print(f"{family_class.NAME} worker: malformed frame: {e}", file=sys.stderr)
            return 2
        if frame is None or frame[0].get("type") == "bye":
            worker.clear()
            return 0
        reply, out_blobs = worker.answer(*frame)
        try:
            write_frame(stdout, reply, out_blobs)
        except ProtocolError as e:  # nothing was written: the request gets an error instead
            write_frame(stdout, {"type": "error", "id": reply.get("id"), "kind": "error",
                                 "message": str(e)})
