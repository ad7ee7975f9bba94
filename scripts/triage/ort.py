#!/usr/bin/env python3
"""Run a bundle's models on ORT (node) at a level and print outputs vs expected. usage: ort.py BUNDLE LEVEL [model]"""
import os, sys, json, base64, subprocess, tempfile, numpy as np
from bundle import Bundle
d, lvl = sys.argv[1], sys.argv[2]
b = Bundle(d)
CASE, root, inputs, expected = b.case, b.root, b.inputs, b.expected
names = {np.float32: "float32", np.float64: "float64", np.float16: "float16", np.int8: "int8", np.uint8: "uint8",
         np.int16: "int16", np.int32: "int32", np.int64: "int64", np.bool_: "bool"}
spec = {k: {"dtype": names[v.dtype.type], "shape": list(v.shape), "b64": base64.b64encode(np.ascontiguousarray(v).tobytes()).decode()} for k, v in inputs.items()}
rev = {"float32": np.float32, "float64": np.float64, "float16": np.float16, "int8": np.int8, "uint8": np.uint8,
       "int16": np.int16, "int32": np.int32, "int64": np.int64, "bool": np.bool_}
args = [a for a in sys.argv[3:] if not a.startswith("--")]
models = args if args else b.models()
np.set_printoptions(threshold=50, linewidth=150)
for m in models:
    with tempfile.TemporaryDirectory() as t:
        json.dump(spec, open(f"{t}/in.json", "w"))
        p = subprocess.run(["node", os.path.dirname(os.path.abspath(__file__)) + "/ort_run.js", os.path.join(root, m), f"{t}/in.json", f"{t}/out.json", lvl], capture_output=True, text=True)
        if p.returncode:
            print(f"{m} ort {lvl}: rc={p.returncode} {p.stdout[-400:]} {p.stderr[-400:]}"); continue
        out = json.load(open(f"{t}/out.json"))
    for i, (name, v) in enumerate(out.items()):
        a = np.frombuffer(base64.b64decode(v["b64"]), rev[v["dtype"]]).reshape(v["shape"])
        why = b.differences(a, i) if i < len(expected) else "?"
        print(f"{m} ort {lvl} output {i}: {'agree' if why is None else why}")
        if why is not None and ("--print" in sys.argv or os.environ.get("PRINT")):
            print("   ort   :", a.ravel()[:24]); print("   retort:", expected[i].ravel()[:24])
