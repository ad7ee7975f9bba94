#!/usr/bin/env python3
"""Run a Retort repro bundle's models on onnx.reference and compare with expected/ (Retort's reference).
usage: oref.py BUNDLE [--print]"""
import os, sys, types, numpy as np
d = sys.argv[1]
src = open(os.path.join(d, "repro.py")).read()
mod = types.ModuleType("repro"); mod.__file__ = os.path.join(d, "repro.py")
exec(compile(src.replace('if __name__ == "__main__":', 'if False:'), "repro.py", "exec"), mod.__dict__)
CASE = mod.CASE
_d = mod.differences
def _exact(actual, expected, tol):
    actual = np.asarray(actual)
    if actual.dtype == expected.dtype and actual.shape == expected.shape and actual.dtype.kind in "iu":
        bad = np.flatnonzero(actual.ravel() != expected.ravel())
        return None if bad.size == 0 else f"{bad.size} of {expected.size} elements differ (exact int): " + ", ".join(f"[{i}] {actual.ravel()[i]} (expected {expected.ravel()[i]})" for i in bad[:4])
    return _d(actual, expected, tol)
mod.differences = _exact
from onnx.reference import ReferenceEvaluator
import onnx
inputs = {n: np.load(os.path.join(d, CASE["root"], f"inputs/input_{i}.npy")) for i, n in enumerate(CASE["inputs"])}
expected = [np.load(os.path.join(d, CASE["root"], f"expected/output_{i}.npy")) for i in range(len(CASE["tolerances"]))]
models = sorted({r["model"] for r in CASE["runs"]})
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
    for i, (o, e, t) in enumerate(zip(outs, expected, CASE["tolerances"])):
        why = mod.differences(np.asarray(o), e, t)
        print(f"  onnx-ref output {i} vs Retort ref: {'agree' if why is None else why}")
        if why is not None and "--print" in sys.argv:
            np.set_printoptions(threshold=50, linewidth=150)
            print("    onnx-ref:", np.asarray(o).ravel()[:24], "\n    retort  :", e.ravel()[:24])
