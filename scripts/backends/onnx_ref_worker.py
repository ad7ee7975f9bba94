#!/usr/bin/env python3
"""Retort backend worker for ONNX's own reference implementation; docs/backend-protocol.md.

onnx.reference.ReferenceEvaluator interprets the model node by node in numpy, as the ONNX
specification describes each op: a second reference, written independently of Retort's
(core/exec/reference), that compiles nothing. Where the two disagree, one of them is wrong or
the specification is silent (docs/conformance.md).
It takes no options of `hello`.
"""

import importlib.metadata
import sys

import numpy as np
from onnx.reference import ReferenceEvaluator

from retort_backends.worker import Compiled, Family, serve

# How onnx.reference says that it has no kernel for an op, or none for this form of it.
# ("No implementation for operator 'DequantizeLinear' ... version 17": it has DequantizeLinear
# from opset 19 on only.)
LIMITS = (NotImplementedError, "Unable to find an implementation", "is not implemented",
          "not implemented", "No implementation for operator")


class OnnxReference(Family):
    NAME = "onnx-ref"
    LIMITS = LIMITS

    def version(self):
        return importlib.metadata.version("onnx")

    def convert(self, model, outputs):
        entry = Compiled()
        entry.proto = model.restricted_to(outputs)
        entry.outputs = list(outputs)
        return entry

    def build(self, entry, args):
        evaluator = ReferenceEvaluator(entry.proto)
        names = list(entry.input_names)

        def run(arrays):
            results = evaluator.run(entry.outputs, dict(zip(names, arrays)))
            return [np.asarray(r) for r in results]

        entry.fn = run


if __name__ == "__main__":
    sys.exit(serve(OnnxReference))
