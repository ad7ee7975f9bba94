#!/usr/bin/env node
// Retort backend worker for ONNX Runtime (onnxruntime-node, pinned in package.json).
// Speaks docs/backend-protocol.md on stdin/stdout; debug output goes to stderr only.
// `--modules DIR` loads onnxruntime-node from DIR (an installed release's node_modules) instead of
// the one next to this file.
// hello options (all strings):
//   opt_level         disabled | basic | extended | all   (graphOptimizationLevel)
//   intra_op_threads  a count; 0 lets ONNX Runtime choose
//   execution_mode    sequential | parallel
//   disabled_passes   transformer and rewrite rule names joined by ',', turned off through the
//                     session config entry optimization.disable_specified_optimizers (`findings
//                     blame`); empty: none
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

function modulesDir() {
  const i = process.argv.indexOf('--modules');
  return i > 0 && process.argv[i + 1] ? path.resolve(process.argv[i + 1]) : null;
}
const modules = modulesDir();
const ort = require(modules ? path.join(modules, 'onnxruntime-node') : 'onnxruntime-node');
const float16 = require('./float16.js');
const onnxProto = require('./onnx_proto.js');
const { encodeFrame, FrameReader } = require('./frames.js');

const SESSION_CACHE_SIZE = 16;

// Retort dtype name -> [ONNX Runtime type, typed array].
const DTYPES = {
  f32: ['float32', Float32Array],
  f64: ['float64', Float64Array],
  f16: ['float16', Uint16Array],
  bf16: ['bfloat16', Uint16Array],
  i8: ['int8', Int8Array],
  u8: ['uint8', Uint8Array],
  i16: ['int16', Int16Array],
  i32: ['int32', Int32Array],
  i64: ['int64', BigInt64Array],
  bool: ['bool', Uint8Array],
};
const FROM_ORT = Object.fromEntries(Object.entries(DTYPES).map(([name, [ortType]]) => [ortType, name]));
// The 16-bit floats float16.js may give float32 boundaries, by ONNX element type.
const NARROW = { [float16.FLOAT16]: 'f16', [float16.BFLOAT16]: 'bf16' };

const OPT_LEVELS = ['disabled', 'basic', 'extended', 'all'];
const EXEC_MODES = ['sequential', 'parallel'];

function writeFrame(header, blobs = []) {
  process.stdout.write(encodeFrame(header, blobs));
}

// [feed name, tensor] of an input; one of an element type in `widened` as float32, under the
// name float16.js gave it.
function toOrtTensor(entry, blobs, widened) {
  const dtype = DTYPES[entry.dtype];
  if (!dtype) throw new Error(`input ${entry.name}: unknown dtype ${entry.dtype}`);
  const [ortType, ArrayType] = dtype;
  const blob = blobs[entry.blob];
  // Copy into a fresh, aligned buffer: the blob may sit at any offset of the frame.
  const bytes = new Uint8Array(blob.length);
  bytes.set(blob);
  const data = new ArrayType(bytes.buffer, 0, blob.length / ArrayType.BYTES_PER_ELEMENT);
  const elem = widened.find((e) => NARROW[e] === entry.dtype);
  if (elem === undefined) return [entry.name, new ort.Tensor(ortType, data, entry.shape)];
  return [entry.name + float16.SUFFIX[elem], new ort.Tensor('float32', float16.toFloat32(data, elem), entry.shape)];
}

function fromOrtTensor(name, tensor, blobs) {
  const dtype = FROM_ORT[tensor.type];
  if (!dtype) throw new Error(`output ${name} has type ${tensor.type}, which Retort does not have`);
  const data = tensor.data;
  blobs.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  return { name, dtype, shape: Array.from(tensor.dims, Number), blob: blobs.length - 1 };
}

// A pass name as ONNX Runtime spells one: nothing that could end the list or start another entry.
const PASS_NAME = /^[A-Za-z0-9_.-]+$/;

function disabledPasses(text) {
  const names = text ? text.split(',') : [];
  for (const name of names)
    if (!PASS_NAME.test(name)) throw new Error(`disabled_passes: '${name}' is not a pass name (letters, digits, _ . -)`);
  return names;
}

function sessionOptions(options) {
  const level = options.opt_level ?? 'all';
  if (!OPT_LEVELS.includes(level)) throw new Error(`opt_level must be one of ${OPT_LEVELS.join(', ')}, not '${level}'`);
  const mode = options.execution_mode ?? 'sequential';
  if (!EXEC_MODES.includes(mode)) throw new Error(`execution_mode must be one of ${EXEC_MODES.join(', ')}, not '${mode}'`);
  const threads = Number(options.intra_op_threads ?? '0');
  if (!Number.isInteger(threads) || threads < 0) throw new Error(`intra_op_threads must be a count, not '${options.intra_op_threads}'`);
  for (const key of Object.keys(options))
    if (!['opt_level', 'execution_mode', 'intra_op_threads', 'disabled_passes'].includes(key)) throw new Error(`unknown option '${key}'`);
  const session = { graphOptimizationLevel: level, executionMode: mode, intraOpNumThreads: threads, logSeverityLevel: 3 };
  const passes = disabledPasses(options.disabled_passes ?? '');
  // ONNX Runtime splits this entry at ';'.
  if (passes.length) session.extra = { optimization: { disable_specified_optimizers: passes.join(';') } };
  return session;
}

// Whether the binding passes sessionOptions.extra on to ONNX Runtime: one that does refuses an
// extra that is no object; one that does not ignores it, and so would ignore disabled_passes.
async function bindingTakesExtra() {
  try {
    await ort.InferenceSession.create(float16.probeModel(), { extra: 'probe' });
  } catch (e) {
    return /extra/.test(String(e && e.message));
  }
  return false;
}

// ONNX Runtime's words for "this model uses something I do not implement".
const NOT_IMPLEMENTED = /NOT_IMPLEMENTED|Could not find an implementation|not implemented|is not supported|Unsupported (data )?type/i;
// Errors that mean the same when they come from one of the model's own nodes: the ONNX schema not
// admitting an element type for the op (Pow of int8), and the cases ONNX Runtime's kernels refuse
// although ONNX defines them (numpy.pad's reflect beyond the axis length or over a single element,
// Pad and Slice of a scalar). From a node ONNX Runtime made itself they are its own bug, and stay
// errors.
const OWN_NODE_REFUSALS = [
  /Type Error: Type '[^']*' of input parameter \(.*\) of operator \(.*\) in node \((.*)\) is invalid/,
  /running Pad node\. Name:'([^']*)' Status Message: (Pad reflect|.*Input tensor has no dimensions)/,
  /running Slice node\. Name:'([^']*)' Status Message: Cannot slice scalars/,
];

function isUnsupported(message, model) {
  if (NOT_IMPLEMENTED.test(message)) return true;
  if (!model) return false;
  for (const pattern of OWN_NODE_REFUSALS) {
    const match = pattern.exec(message);
    if (!match) continue;
    try {
      const names = onnxProto.nodeNames(model);
      // ONNX Runtime names a node it inlined from a local function "_inlfunc_<f>_<n>" or
      // "_inlfunc_<f>_token_<k>_<n>": any tail after a '_' may be the node's own name.
      const name = match[1];
      const tails = name.startsWith("_inlfunc_")
        ? [...name.matchAll(/_/g)].map((m) => name.slice(m.index + 1)) : [];
      return names.has(name) || tails.some((n) => names.has(n));
    } catch {
      return false;  // not a model we can read: say what ONNX Runtime said, as an error
    }
  }
  return false;
}

let options = null;
const sessions = new Map(); // sha256 of the model -> {session, compileMs}, oldest first

// The model as the session runs it: with float32 boundaries for the element types in `widened`.
function sessionModel(model, widened) {
  return widened.length ? float16.withF32Boundaries(model, widened) : new Uint8Array(model);
}

// The session of a model (from the cache when it ran before) and the milliseconds its creation
// took. `widened`: as for sessionModel.
async function sessionFor(model, widened) {
  const key = crypto.createHash('sha256').update(model).digest('hex') + `:${widened.join(',')}`;
  let entry = sessions.get(key);
  const cached = Boolean(entry);
  if (entry) {
    sessions.delete(key);
  } else {
    const start = process.hrtime.bigint();
    const session = await ort.InferenceSession.create(sessionModel(model, widened), options);
    entry = { session, compileMs: Number(process.hrtime.bigint() - start) / 1e6 };
    if (sessions.size >= SESSION_CACHE_SIZE) {
      const [oldestKey, oldest] = sessions.entries().next().value;
      sessions.delete(oldestKey);
      oldest.session.release?.();
    }
  }
  sessions.set(key, entry);
  return { session: entry.session, compileMs: entry.compileMs, cached };
}

// Whether the binding takes float16 tensors: releases before 1.19 answer "Tensor.data must be a
// typed array (-1) for float16 tensors". Asked once, of a one-node model.
let float16Binding = null;
async function bindingTakesFloat16() {
  if (float16Binding === null) {
    try {
      const probe = await ort.InferenceSession.create(float16.probeModel());
      await probe.run({ x: new ort.Tensor('float16', new Uint16Array([0x3c00]), [1]) });
      float16Binding = true;
    } catch (e) {
      float16Binding = false;
    }
  }
  return float16Binding;
}

// The element types of the model's boundaries that the binding cannot take: bfloat16 always,
// float16 before 1.19.
async function widenedTypes(model) {
  const types = float16.boundaryTypes(model);
  const widened = [];
  if (types.has(float16.BFLOAT16)) widened.push(float16.BFLOAT16);
  if (types.has(float16.FLOAT16) && !(await bindingTakesFloat16())) widened.push(float16.FLOAT16);
  return widened;
}

// The results under the model's own output names, the float32 ones of widened outputs narrowed
// back (as {type, data, dims}, which fromOrtTensor reads: the binding makes no bfloat16 tensor).
function narrowResults(results, widened) {
  const out = {};
  for (const [name, t] of Object.entries(results)) {
    const elem = widened.find((e) => name.endsWith(float16.SUFFIX[e]));
    if (elem === undefined) out[name] = t;
    else out[name.slice(0, -float16.SUFFIX[elem].length)] = { type: DTYPES[NARROW[elem]][0], data: float16.fromFloat32(t.data, elem), dims: t.dims };
  }
  return out;
}

// The op counts of the graph ONNX Runtime runs for this model at the session's optimization
// level (OATest's trigger check): a session made only to write its optimized model
// (optimizedModelFilePath) into a scratch folder, which is removed again.
async function optimizedOps(bytes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retort-ort-'));
  try {
    const file = path.join(dir, 'optimized.onnx');
    const session = await ort.InferenceSession.create(bytes, { ...options, optimizedModelFilePath: file });
    await session.release?.();
    return onnxProto.opCounts(fs.readFileSync(file));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function run(header, blobs) {
  const id = header.id;
  try {
    const model = blobs[header.model];
    // A binding that takes no tensors of a type the model has at its boundaries (bfloat16; float16
    // before 1.19) runs the model with f32 there (exact both ways); the tensors are converted here.
    const widened = await widenedTypes(model);
    const { session, compileMs, cached } = await sessionFor(model, widened);
    const feeds = Object.fromEntries(header.inputs.map((entry) => toOrtTensor(entry, blobs, widened)));
    // Fetch every output and pick by name: onnxruntime-node 1.20.1 answers a fetch list with the
    // model's first outputs, whatever names it lists.
    const runStart = process.hrtime.bigint();
    let results = await session.run(feeds);
    results = narrowResults(results, widened);
    const runMs = Number(process.hrtime.bigint() - runStart) / 1e6;
    const outBlobs = [];
    const outputs = header.outputs.map((name) => {
      if (!(name in results)) throw new Error(`the model has no output named '${name}'`);
      return fromOrtTensor(name, results[name], outBlobs);
    });
    const result = { type: 'result', id, outputs, compile_ms: round3(compileMs), run_ms: round3(runMs), cached };
    if (header.optimized_ops) result.optimized_ops = await optimizedOps(sessionModel(model, widened));
    writeFrame(result, outBlobs);
  } catch (e) {
    const message = String(e && e.message ? e.message : e);
    writeFrame({ type: 'error', id, kind: isUnsupported(message, blobs[header.model]) ? 'unsupported' : 'error', message });
  }
}

function round3(x) {
  return Math.round(x * 1000) / 1000;
}

async function handle(frame) {
  const { header, blobs } = frame;
  switch (header.type) {
    case 'hello':
      try {
        options = sessionOptions(header.options || {});
        if (options.extra && !(await bindingTakesExtra()))
          throw new Error(`onnxruntime-node ${ort.env.versions?.node ?? ''} ignores session config entries (sessionOptions.extra), so it cannot turn passes off`);
      } catch (e) {
        writeFrame({ type: 'error', kind: 'error', message: e.message });
        return;
      }
      writeFrame({ type: 'hello', name: 'onnxruntime', version: ort.env.versions?.node ?? ort.env.versions?.common ?? 'unknown', options: header.options || {} });
      return;
    case 'run':
      if (!options) options = sessionOptions({});
      await run(header, blobs);
      return;
    case 'bye':
      process.exit(0);
    default:
      writeFrame({ type: 'error', id: header.id, kind: 'error', message: `unknown request type '${header.type}'` });
  }
}

function main() {
  const reader = new FrameReader();
  let queue = Promise.resolve();
  process.stdin.on('data', (chunk) => {
    reader.push(chunk);
    try {
      for (let frame = reader.next(); frame; frame = reader.next()) {
        const f = frame;
        queue = queue.then(() => handle(f));
      }
    } catch (e) {
      process.stderr.write(`ort_worker: ${e.message}\n`);
      process.exit(3);
    }
  });
  process.stdin.on('end', () => queue.then(() => process.exit(0)));
}

main();
