#!/usr/bin/env python3
"""Compile and run time per case of each family's worker on generated graphs (core/gen).

  bench_families.py --gen build/bin/retort_gen_onnx [--seeds N] [--nodes 5,10,15]
                    FAMILY[:OPTION=VALUE] ...
Each graph is generate_graph(nodes, seed) over f32, exported as ONNX; every value nobody reads
is an output. Prints a Markdown table of medians (compile_ms, run_ms, their sum) per family
and node count, over the cases the family ran (the others are counted as unsupported/errors).
Environments are found as run_family_test.py finds them.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE]

from onnx_compat import np_dtype  # noqa: E402
from run_family_test import default_version, envs_dir  # noqa: E402
from worker_client import WorkerClient  # noqa: E402

WORKERS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "backends")


def graphs(gen, nodes, seeds, tmp):
    for seed in range(1, seeds + 1):
        path = os.path.join(tmp, f"g{nodes}_{seed}.onnx")
        subprocess.run([gen, str(nodes), str(seed), path, "f32"], check=True)
        model = onnx.load(path)
        rng = np.random.default_rng(seed)
        inputs = {v.name: rng.uniform(-1, 1, [d.dim_value for d in v.type.tensor_type.shape.dim])
                  .astype(np_dtype(v.type.tensor_type.elem_type)) for v in model.graph.input}
        yield model.SerializeToString(), inputs, [o.name for o in model.graph.output]


def measure(family, options, gen, node_counts, seeds):
    python = os.path.join(envs_dir(), f"{family}@{default_version(family)}", "bin", "python")
    worker = os.path.join(WORKERS, f"{family.replace('-', '_')}_worker.py")
    client = WorkerClient([python, worker], options)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for nodes in node_counts:
            times, failed = [], 0
            for model, inputs, outputs in graphs(gen, nodes, seeds, tmp):
                header, _ = client.run(model, inputs, outputs)
                if header["type"] != "result":
                    failed += 1
                    continue
                times.append((header["compile_ms"], header["run_ms"]))
            med = [statistics.median(t[k] for t in times) if times else float("nan")
                   for k in (0, 1)]
            total = statistics.median(c + r for c, r in times) if times else float("nan")
            rows.append((nodes, len(times), failed, med[0], med[1], total))
    client.close()
    return client.hello.get("version"), rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gen", required=True)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--nodes", default="5,10,15")
    parser.add_argument("families", nargs="+")
    args = parser.parse_args()
    counts = [int(n) for n in args.nodes.split(",")]
    print("| family | version | nodes | cases run | not run | compile ms | run ms | "
          "compile + run ms |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in args.families:
        family, _, option = spec.partition(":")
        options = dict([option.split("=", 1)]) if option else {}
        version, rows = measure(family, options, args.gen, counts, args.seeds)
        for nodes, ran, failed, compile_ms, run_ms, total in rows:
            print(f"| {spec} | {version} | {nodes} | {ran} | {failed} | {compile_ms:.1f} | "
                  f"{run_ms:.2f} | {total:.1f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
