#!/usr/bin/env python3
"""Run a Retort repro bundle's models on onnx.reference and compare with expected/ (Retort's reference).
usage: oref.py BUNDLE [--print]"""
import os, sys, numpy as np
from bundle import Bundle
d = sys.argv[1]
b = Bundle(d)
CASE, inputs, expected = b.case, b.inputs, b.expected
from onnx.reference import ReferenceEvaluator
import onnx
models = b.models()
print("claim:", CASE["claim"], "| verdict:", CASE["verdict"], "| oracle:", CASE["oracle"])
for m in models:
    path = os.path.join(d, CASE["root"], m)
    try:
        onnx.checker.check_model(onnx.load(path), full_check=True)
        chk = "checker ok"
    except Exception as e:
        chk = f"checker FAIL: {str(e)[:200]}"
    print(f"{m}: {chk}")
    try:
        sess = ReferenceEvaluator(path)
        outs = sess.run(None, {k: v for k, v in inputs.items() if k in sess.input_names})
    except Exception as e:
        print(f"  onnx.reference failed: {type(e).__name__}: {str(e)[:300]}")
        continue
    for i, (o, e) in enumerate(zip(outs, expected)):
        why = b.differences(o, i)
        print(f"  onnx-ref output {i} vs Retort ref: {'agree' if why is None else why}")
        if why is not None and "--print" in sys.argv:
            np.set_printoptions(threshold=50, linewidth=150)
            print("    onnx-ref:", np.asarray(o).ravel()[:24], "\n    retort  :", e.ravel()[:24])
