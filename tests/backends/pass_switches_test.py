#!/usr/bin/env python3
"""A family's pass switches reach its compiler (issue 41, `findings blame`):

  pass_switches_test.py FAMILY     (tvm, inductor, openvino, iree)

The worker's hello option disabled_passes takes the names core/backend/families/FAMILY.cpp
declares, and the worker applies them: Inductor's config switches are off after hello; OpenVINO's
`snippets` leaves an elementwise chain unfused (no Snippets "Subgraph" in the compiled model);
IREE compiles and runs with every flag of its table (so each flag exists in the release); TVM's
DecomposeOps off keeps a BatchNormalization in the module it compiles (optimized_ops). The
workers' own switch tables name exactly the declared passes. Each check runs one worker in the
family's environment, in a fresh interpreter; skipped (77) without the environment.
"""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_family_test import SKIP, default_version, envs_dir  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
BACKENDS = os.path.join(ROOT, "scripts", "backends")

PROLOGUE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import numpy as np
from onnx import TensorProto, helper
from retort_backends.worker import Worker
from worker_client import WorkerClient
names = sys.argv[3]
def model(nodes, inputs, output, shape, initializers=()):
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
                                           for n, s in inputs],
                              [helper.make_tensor_value_info(output, TensorProto.FLOAT, shape)],
                              list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
x = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(2, 16)
chain = model([helper.make_node("Exp", ["x"], ["a"]), helper.make_node("Mul", ["a", "x"], ["b"]),
               helper.make_node("Tanh", ["b"], ["y"])], [("x", [2, 16])], "y", [2, 16])
want = np.tanh(np.exp(x) * x)
def worker_of(script, options):
    return WorkerClient([sys.executable, f"{sys.argv[1]}/{script}"], options)
"""

PROGRAMS = {
    "inductor": r"""
import inductor_worker, torch._inductor.config as config
from retort_backends import inductor_passes
Worker(inductor_worker.Inductor).hello({"options": {"disabled_passes": names}})
print(json.dumps({"table": sorted(inductor_passes.OFF),
                  "off": {n: config.cpp.vec_isa_ok if n == "cpp.vec_isa_ok"
                          else getattr(config, n) for n in ("pattern_matcher", "cpp.vec_isa_ok",
                                                            "max_fusion_size")}}))
""",
    "openvino": r"""
import collections, openvino as ov, openvino_worker
counts = {}
for off in ("", names):
    w = Worker(openvino_worker.OpenVINO)
    w.hello({"options": {"precision": "f32", "disabled_passes": off}})
    core = w.family.core
    with open(f"{w.family.tmp.name}/chain.onnx", "wb") as f:
        f.write(chain)
    compiled = core.compile_model(core.read_model(f"{w.family.tmp.name}/chain.onnx"), "CPU",
                                  w.family.config)
    counts[off or "none"] = collections.Counter(
        n.get_rt_info()["layerType"].astype(str) for n in compiled.get_runtime_model().get_ops())
client = worker_of("openvino_worker.py", {"precision": "f32", "disabled_passes": names})
header, out = client.run(chain, {"x": x}, ["y"])
print(json.dumps({"table": sorted(openvino_worker.SWITCHES),
                  "subgraphs": {k: c.get("Subgraph", 0) for k, c in counts.items()},
                  "right": bool(np.allclose(out["y"], want, rtol=1e-5))}))
""",
    "iree": r"""
import iree_worker
w = Worker(iree_worker.IREE)
w.hello({"options": {"disabled_passes": names}})
flags = w.family.switch_flags
client = worker_of("iree_worker.py", {"opt_level": "3", "disabled_passes": names})
header, out = client.run(chain, {"x": x}, ["y"])
print(json.dumps({"table": sorted(iree_worker.SWITCHES), "flags": len(flags),
                  "answer": header["type"],
                  "right": "y" in out and bool(np.allclose(out["y"], want, rtol=1e-5))}))
""",
    "tvm": r"""
def f32(*shape):
    return np.linspace(0.5, 1.5, int(np.prod(shape)), dtype=np.float32).reshape(shape)
stats = [helper.make_tensor(n, TensorProto.FLOAT, [4], f32(4).ravel()) for n in "gbmv"]
bn = model([helper.make_node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y"])],
           [("x", [1, 4, 3, 3])], "y", [1, 4, 3, 3], stats)
xb = f32(1, 4, 3, 3)
ops = {}
for off in ("", names):
    client = worker_of("tvm_worker.py", {"passes": "graph", "disabled_passes": off})
    header, out = client.run(bn, {"x": xb}, ["y"], optimized_ops=True)
    ops[off or "none"] = header.get("optimized_ops", {}).get("BatchNormalization", 0)
    ops["right"] = ops.get("right", True) and "y" in out
    client.close()
print(json.dumps({"batch_norms": ops}))
""",
}


def declared_passes(family):
    """The names core/backend/families/FAMILY.cpp declares, as `findings blame` turns them off."""
    with open(os.path.join(ROOT, "core", "backend", "families", f"{family}.cpp")) as f:
        text = f.read()
    block = text[text.index(".names = {", text.index("passes = {")):]
    return re.findall(r'"([A-Za-z0-9_.-]+)"', block[:block.index("}")])


def run(python, family, names):
    done = subprocess.run([python, "-c", PROLOGUE + PROGRAMS[family], BACKENDS, HERE, names],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise AssertionError(f"{family}: exit {done.returncode}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    family = sys.argv[1]
    python = os.path.join(envs_dir(), f"{family}@{default_version(family)}", "bin", "python")
    if not os.path.exists(python):
        print(f"skipped: no {family} environment ({python})")
        return SKIP
    names = declared_passes(family)
    if family == "tvm":
        got = run(python, family, "DecomposeOps")
        assert got["batch_norms"] == {"none": 0, "DecomposeOps": 1, "right": True}, got
    else:
        got = run(python, family, ",".join(names))
        assert got["table"] == sorted(names), (got["table"], names)
        if family == "inductor":
            assert got["off"] == {"pattern_matcher": False, "cpp.vec_isa_ok": False,
                                  "max_fusion_size": 1}, got
        if family == "openvino":
            assert got["subgraphs"]["none"] == 1 and got["subgraphs"][",".join(names)] == 0, got
            assert got["right"], got
        if family == "iree":
            assert got["flags"] >= len(names) and got["answer"] == "result" and got["right"], got
    print(f"{family} pass switches: ok ({len(names)} declared; {got})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
