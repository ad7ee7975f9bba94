#!/usr/bin/env python3
"""Retort backend worker for TensorFlow's XLA (tf.function(jit_compile=True)) on CPU;
docs/backend-protocol.md.

The ONNX graph becomes a generated Python function over tf ops (retort_backends/tf_ops.py),
registered with linecache; constants are globals of it (tf.constant). Option of `hello`:
mode = jit (tf.function(jit_compile=True): TF's ops lowered by tf2xla and compiled by XLA) |
nojit (tf.function without jit_compile: TF's own kernels, the baseline).
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tensorflow.experimental.numpy as tnp  # noqa: E402

from retort_backends.program import (Builder, Program, forward_source,  # noqa: E402
                                     standalone_module)
from retort_backends.tf_ops import CONVERTERS  # noqa: E402
from retort_backends.worker import Compiled, Family, serve  # noqa: E402

LIMITS = ("Could not find device for node", "No registered", "not supported", "Unimplemented",
          "UNIMPLEMENTED", "is not in the list of allowed values", "No OpKernel")


# What the program names besides its own identifiers, as a standalone module imports it.
IMPORTS = ["import tensorflow as tf", "import tensorflow.experimental.numpy as tnp"]


def tf_builder(model, outputs):
    builder = Builder(model, CONVERTERS, "tf")
    params = builder.bind_inputs()
    results = builder.convert_for(outputs)
    return builder, params, results


def tf_program(model, outputs):
    builder, params, results = tf_builder(model, outputs)
    source, first_line = forward_source(builder, params, results)
    namespace = {"tf": tf, "tnp": tnp}
    namespace.update({k: tf.constant(v) for k, v in builder.consts.items()})
    return Program(source, first_line, builder.line_nodes, namespace, prefix="retort_tf")


class TFXLA(Family):
    NAME = "tf-xla"
    OPTIONS = {"mode": (("jit", "nojit"), "jit")}
    LIMITS = LIMITS

    def __init__(self, options):
        super().__init__(options)
        self.jit = options["mode"] == "jit"
        try:
            tf.config.threading.set_intra_op_parallelism_threads(1)
            tf.config.threading.set_inter_op_parallelism_threads(1)
        except RuntimeError:  # already initialised by an earlier hello
            pass

    def version(self):
        return tf.__version__

    def convert(self, model, outputs):
        return Compiled(program=tf_program(model, outputs))

    def standalone(self, model, outputs, mutations=(), args=None):
        builder, params, results = tf_builder(model, outputs)
        source, _ = forward_source(builder, params, results)
        return (standalone_module(IMPORTS, source, builder.consts, "tf.constant({})"),
                dict(builder.consts))

    def build(self, entry, args):
        signature = [tf.TensorSpec(a.shape, tf.as_dtype(a.dtype)) for a in args]
        fn = tf.function(entry.program.namespace["forward"], jit_compile=self.jit,
                         input_signature=signature, autograph=False)
        concrete = fn.get_concrete_function()

        def run(arrays):
            return [np.asarray(r.numpy()) for r in concrete(*arrays)]

        entry.fn = run

    def warm_up_runs(self):
        return 1  # XLA compiles at the first call


if __name__ == "__main__":
    sys.exit(serve(TFXLA))
