// The reproducer scripts of `export repro` (core/compare/repro.h). They use only the runtime
// under test (onnxruntime-node, or the worker's own command) and read everything else from the
// bundle: repro.json, the .npy inputs and expected outputs, the models.
#include "core/compare/repro.h"

namespace retort {

const char* const kReproNodeScript = R"JS('use strict';
// Reproduces a Retort finding on ONNX Runtime (onnxruntime-node). Exit 1: reproduced; 0: the
// two sides agree; 2: the script itself could not run.
const fs = require('fs');
const path = require('path');
const cfg = JSON.parse(fs.readFileSync(path.join(__dirname, 'repro.json'), 'utf8'));
const modules = process.env.RETORT_NODE_MODULES || cfg.node_modules;
let ort;
try {
  ort = require(path.join(modules, 'onnxruntime-node'));
} catch (e) {
  console.error(`cannot load onnxruntime-node from ${modules} (set RETORT_NODE_MODULES): ${e.message}`);
  process.exit(2);
}

const DESCR = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array], '<f2': ['float16', Uint16Array],
  '|i1': ['int8', Int8Array], '|u1': ['uint8', Uint8Array], '<i2': ['int16', Int16Array],
  '<i4': ['int32', Int32Array], '<i8': ['int64', BigInt64Array], '|b1': ['bool', Uint8Array],
};
const RETORT_DTYPE = {float32: 'f32', float64: 'f64', float16: 'f16', int8: 'i8', uint8: 'u8',
                      int16: 'i16', int32: 'i32', int64: 'i64', bool: 'bool'};

function readNpy(file) {
  const buf = fs.readFileSync(path.join(__dirname, file));
  const len = buf.readUInt16LE(8);
  const header = buf.toString('latin1', 10, 10 + len);
  const descr = /'descr': '([^']+)'/.exec(header)[1];
  const shape = /'shape': \(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim())
                    .filter(s => s.length).map(Number);
  const [type, Array_] = DESCR[descr];
  const bytes = buf.subarray(10 + len);
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return {type, shape, data: new Array_(copy.buffer)};
}

function halfToNumber(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, f = h & 0x3ff;
  if (e === 0) return s * Math.pow(2, -14) * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * Math.pow(2, e - 15) * (1 + f / 1024);
}
// An element's bits as a signed count of representable values from zero, so that the
// difference of two is their distance in ulps of the dtype.
const F32 = new Float32Array(1), I32 = new Int32Array(F32.buffer);
const F64 = new Float64Array(1), I64 = new BigInt64Array(F64.buffer);
function ordered(type, raw) {
  if (type === 'float16') return BigInt(raw & 0x8000 ? -(raw & 0x7fff) : raw);
  if (type === 'float32') {
    F32[0] = raw;
    return BigInt(I32[0] < 0 ? -(I32[0] & 0x7fffffff) : I32[0]);
  }
  F64[0] = raw;
  return I64[0] < 0n ? -(I64[0] & 0x7fffffffffffffffn) : I64[0];
}
function ulpGap(type, a, b) {
  const d = ordered(type, a) - ordered(type, b);
  return Number(d < 0n ? -d : d);
}
function numbers(t) {
  const out = [];
  for (const v of t.data) out.push(t.type === 'float16' ? halfToNumber(v) : Number(v));
  return out;
}

async function runSide(side, feeds) {
  const session = await ort.InferenceSession.create(path.join(__dirname, side.model),
      {graphOptimizationLevel: side.backend.ort_level});
  const result = await session.run(feeds, side.outputs);
  return side.outputs.map(n => ({type: result[n].type, shape: Array.from(result[n].dims),
                                 data: result[n].data}));
}

function compare(name, a, e) {
  if (a.type !== e.type || a.shape.join(',') !== e.shape.join(','))
    return `${name}: shape/dtype mismatch: ${a.type}[${a.shape}] vs ${e.type}[${e.shape}]`;
  const tol = cfg.tolerances[RETORT_DTYPE[e.type]] || {atol: 0, rtol: 0, ulps: 0};
  const x = numbers(a), y = numbers(e);
  let bad = 0, first = -1, maxAbs = 0;
  for (let i = 0; i < y.length; ++i) {
    const d = Math.abs(x[i] - y[i]);
    const same = (Number.isNaN(x[i]) && Number.isNaN(y[i])) || x[i] === y[i] ||
                 (Number.isFinite(d) && d <= tol.atol + tol.rtol * Math.abs(y[i])) ||
                 (Number.isFinite(d) && tol.ulps > 0 && a.type.startsWith('float') &&
                  ulpGap(a.type, a.data[i], e.data[i]) <= tol.ulps);
    if (Number.isFinite(d)) maxAbs = Math.max(maxAbs, d);
    if (!same && bad++ === 0) first = i;
  }
  if (!bad) return null;
  return `${name}: mismatch in ${bad}/${y.length} elements, max_abs=${maxAbs}; ` +
         `first at [${first}]: ${x[first]} vs ${y[first]}`;
}

(async () => {
  const feeds = {};
  for (const input of cfg.inputs) {
    const t = readNpy(input.file);
    feeds[input.name] = new ort.Tensor(t.type, t.data, t.shape);
  }
  let a, b;
  try {
    a = await runSide(cfg.a, feeds);
    b = cfg.b.expected ? cfg.b.expected.map(readNpy) : await runSide(cfg.b, feeds);
  } catch (e) {
    console.log(`run failed: ${e.message}`);
    const expected = ['error', 'crash'].includes(cfg.verdict);
    console.log(expected ? `reproduced: ${cfg.verdict} (${cfg.oracle} oracle)` : 'not the finding');
    process.exit(expected ? 1 : 2);
  }
  const problems = [];
  for (let i = 0; i < a.length; ++i) {
    const p = compare(`${cfg.a.outputs[i]} vs ${cfg.b.outputs[i]}`, a[i], b[i]);
    if (p) problems.push(p);
  }
  for (const p of problems) console.log(p);
  if (problems.length) {
    console.log(`reproduced: ${cfg.a.label} disagrees with ${cfg.b.label} (${cfg.oracle} oracle)`);
    process.exit(1);
  }
  console.log(`not reproduced: ${cfg.a.label} agrees with ${cfg.b.label}`);
  process.exit(0);
})().catch(e => {
  // Anything else that stops the script (a missing file, a broken install) says nothing about
  // the finding: exit 2, never the 1 of "reproduced".
  console.log(`could not run the reproducer: ${e && e.message ? e.message : e}`);
  process.exit(2);
});
)JS";

const char* const kReproPythonScript = R"PY(#!/usr/bin/env python3
"""Reproduces a Retort finding on a backend worker (docs/backend-protocol.md in Retort): starts
the worker's command, sends it the model and the inputs, and compares what it returns.
Exit 1: reproduced; 0: the two sides agree; 2: the script itself could not run."""
import json, os, struct, subprocess, sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CFG = json.load(open(os.path.join(HERE, "repro.json")))
DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i8": np.int8,
          "u8": np.uint8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "bool": np.bool_}
NAMES = {np.dtype(v).str: k for k, v in DTYPES.items()}


class RunFailed(Exception):
    pass


def frame(header, blobs):
    header = dict(header, blobs=[len(b) for b in blobs])
    text = json.dumps(header).encode()
    return struct.pack("<I", len(text)) + text + b"".join(blobs)


def read_exact(stream, n):
    data = stream.read(n)
    if len(data) != n:
        raise RunFailed("the worker closed its output (crashed?)")
    return data


def read_frame(stream):
    (n,) = struct.unpack("<I", read_exact(stream, 4))
    header = json.loads(read_exact(stream, n))
    return header, [read_exact(stream, k) for k in header.get("blobs", [])]


def run_worker(side, inputs):
    backend = side["backend"]
    proc = subprocess.Popen(backend["argv"], cwd=HERE, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    try:
        proc.stdin.write(frame({"type": "hello", "options": backend["options"]}, []))
        proc.stdin.flush()
        read_frame(proc.stdout)
        blobs = [open(os.path.join(HERE, side["model"]), "rb").read()]
        tensors = []
        for name, arr in inputs:
            tensors.append({"name": name, "dtype": NAMES[arr.dtype.str], "shape": list(arr.shape),
                            "blob": len(blobs)})
            blobs.append(np.ascontiguousarray(arr).tobytes())
        proc.stdin.write(frame({"type": "run", "id": 1, "model": 0, "inputs": tensors,
                                "outputs": side["outputs"]}, blobs))
        proc.stdin.flush()
        header, out_blobs = read_frame(proc.stdout)
        if header.get("type") == "error":
            raise RunFailed(f"{header.get('kind')}: {header.get('message')}")
        outs = {}
        for t in header["outputs"]:
            arr = np.frombuffer(out_blobs[t["blob"]], dtype=DTYPES[t["dtype"]])
            outs[t["name"]] = arr.reshape(t["shape"])
        proc.stdin.write(frame({"type": "bye"}, []))
        proc.stdin.flush()
        proc.wait(timeout=30)
        return [outs[n] for n in side["outputs"]]
    finally:
        if proc.poll() is None:
            proc.kill()


def ulp_gap(a, b):
    """The distance of two values of one float dtype in its ulps (numpy scalars)."""
    bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    sign = 1 << (8 * a.dtype.itemsize - 1)

    def ordered(v):
        raw = int(np.array(v).view(bits))
        return -(raw & (sign - 1)) if raw & sign else raw

    return abs(ordered(a) - ordered(b))


def compare(name, a, e):
    if a.dtype != e.dtype or a.shape != e.shape:
        return f"{name}: shape/dtype mismatch: {a.dtype}{list(a.shape)} vs {e.dtype}{list(e.shape)}"
    tol = CFG["tolerances"].get(NAMES[e.dtype.str], {"atol": 0, "rtol": 0, "ulps": 0})
    x, y = a.astype(np.float64).ravel(), e.astype(np.float64).ravel()
    with np.errstate(invalid="ignore"):
        d = np.abs(x - y)
        same = (np.isnan(x) & np.isnan(y)) | (x == y) | (np.isfinite(d) & (d <= tol["atol"] + tol["rtol"] * np.abs(y)))
    if tol.get("ulps", 0) > 0 and a.dtype.kind == "f":
        for i in np.flatnonzero(~same & np.isfinite(d)):
            same[i] = ulp_gap(a.ravel()[i], e.ravel()[i]) <= tol["ulps"]
    bad = np.flatnonzero(~same)
    if bad.size == 0:
        return None
    finite = d[np.isfinite(d)]
    i = bad[0]
    return (f"{name}: mismatch in {bad.size}/{y.size} elements, "
            f"max_abs={finite.max() if finite.size else 0:g}; first at [{i}]: {x[i]:.7g} vs {y[i]:.7g}")


def main():
    inputs = [(t["name"], np.load(os.path.join(HERE, t["file"]))) for t in CFG["inputs"]]
    try:
        a = run_worker(CFG["a"], inputs)
        if "expected" in CFG["b"]:
            b = [np.load(os.path.join(HERE, f)) for f in CFG["b"]["expected"]]
        else:
            b = run_worker(CFG["b"], inputs)
    except RunFailed as e:
        print(f"run failed: {e}")
        expected = CFG["verdict"] in ("error", "crash")
        print(f"reproduced: {CFG['verdict']} ({CFG['oracle']} oracle)" if expected else "not the finding")
        return 1 if expected else 2
    problems = [p for p in (compare(f"{na} vs {nb}", x, y) for na, nb, x, y in
                            zip(CFG["a"]["outputs"], CFG["b"]["outputs"], a, b)) if p]
    for p in problems:
        print(p)
    if problems:
        print(f"reproduced: {CFG['a']['label']} disagrees with {CFG['b']['label']} ({CFG['oracle']} oracle)")
        return 1
    print(f"not reproduced: {CFG['a']['label']} agrees with {CFG['b']['label']}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # a missing worker or file says nothing about the finding: exit 2
        print(f"could not run the reproducer: {type(e).__name__}: {e}")
        sys.exit(2)
)PY";

}  // namespace retort
