#!/usr/bin/env python3
"""Expose intermediates of a bundle's model and run onnx.reference + ORT on them.
usage: inter.py BUNDLE NAME[,NAME...] [model_a.onnx] [level]"""
import os, sys, json, base64, subprocess, tempfile, numpy as np, onnx
from bundle import Bundle
from onnx.reference import ReferenceEvaluator
d, names = sys.argv[1], sys.argv[2].split(",")
mname = sys.argv[3] if len(sys.argv) > 3 else "model_a.onnx"
lvl = sys.argv[4] if len(sys.argv) > 4 else "disabled"
b = Bundle(d)
CASE, root, inputs = b.case, b.root, b.inputs
m = onnx.load(os.path.join(root, mname))
m.graph.ClearField("output")
for n in names: m.graph.output.append(onnx.helper.make_empty_tensor_value_info(n))
np.set_printoptions(threshold=100000, linewidth=160, precision=7)
t = tempfile.mkdtemp(); p = os.path.join(t, "m.onnx"); onnx.save(m, p)
try:
    outs = ReferenceEvaluator(p).run(None, {k: v for k, v in inputs.items()})
    for n, o in zip(names, outs): print(f"onnx-ref {n}: {o.dtype}{list(o.shape)} {o.ravel()}"); np.save(f"/tmp/inter_ref_{n}.npy", o)
except Exception as e: print("onnx-ref failed", e)
names_t = {np.float32: "float32", np.float64: "float64", np.float16: "float16", np.int8: "int8", np.uint8: "uint8", np.int16: "int16", np.int32: "int32", np.int64: "int64", np.bool_: "bool"}
rev = {v: k for k, v in names_t.items()}
spec = {k: {"dtype": names_t[v.dtype.type], "shape": list(v.shape), "b64": base64.b64encode(np.ascontiguousarray(v).tobytes()).decode()} for k, v in inputs.items()}
json.dump(spec, open(f"{t}/in.json", "w"))
r = subprocess.run(["node", os.path.dirname(os.path.abspath(__file__)) + "/ort_run.js", p, f"{t}/in.json", f"{t}/out.json", lvl], capture_output=True, text=True)
if r.returncode: print("ort failed", r.stdout[-300:], r.stderr[-300:])
else:
    out = json.load(open(f"{t}/out.json"))
    for n in names:
        v = out[n]; a = np.frombuffer(base64.b64decode(v["b64"]), rev[v["dtype"]]).reshape(v["shape"])
        print(f"ort {lvl} {n}: {a.dtype}{list(a.shape)} {a.ravel()}"); np.save(f"/tmp/inter_ort_{n}.npy", a)
