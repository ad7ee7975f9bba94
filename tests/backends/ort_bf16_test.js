#!/usr/bin/env node
// bf16 through the ONNX Runtime worker: onnxruntime-node has no bfloat16 tensor, so the worker
// gives a model's bf16 inputs and outputs f32 boundaries with exact casts (float16.js). One
// worker runs Identity (the bits come back as they went) and Add, which the CPU provider has no
// bf16 kernel for: `unsupported`, as the support probe records it.
'use strict';

const assert = require('assert');
const { spawn } = require('child_process');
const path = require('path');
const test = require('node:test');

const backends = path.join(__dirname, '..', '..', 'scripts', 'backends');
const { encode, bytesField, intField } = require(path.join(backends, 'onnx_proto.js'));
const { encodeFrame, FrameReader } = require(path.join(backends, 'frames.js'));

const BFLOAT16 = 16;

// ValueInfoProto: name = 1, type = 2; TypeProto.tensor_type = 1; elem_type = 1, shape = 2;
// TensorShapeProto.dim = 1; Dimension.dim_value = 1.
function valueInfo(name, dims) {
  const shape = encode(dims.map((d) => bytesField(1, encode([intField(1, d)]))));
  const tensor = encode([intField(1, BFLOAT16), bytesField(2, shape)]);
  return encode([bytesField(1, name), bytesField(2, encode([bytesField(1, tensor)]))]);
}

// y = OP(x, ...) on bf16[4]; NodeProto: input = 1, output = 2, op_type = 4; GraphProto: node = 1,
// name = 2, input = 11, output = 12; ModelProto: ir_version = 1, graph = 7, opset_import = 8.
function model(op, inputs) {
  const node = encode([...inputs.map((i) => bytesField(1, i)), bytesField(2, 'y'), bytesField(4, op)]);
  const graph = encode([bytesField(1, node), bytesField(2, 'bf16'),
                        ...inputs.map((i) => bytesField(11, valueInfo(i, [4]))),
                        bytesField(12, valueInfo('y', [4]))]);
  const opset = encode([bytesField(1, ''), intField(2, 17)]);
  return encode([intField(1, 8), bytesField(7, graph), bytesField(8, opset)]);
}

// 1, -2.5, the largest bf16, the quiet NaN (a JS number keeps no NaN payload): bits that a
// rounding anywhere would change.
const X = new Uint16Array([0x3f80, 0xc020, 0x7f7f, 0x7fc0]);

test('bf16 crosses the worker exactly, and an op without a bf16 kernel is unsupported', async () => {
  const answers = await new Promise((resolve, reject) => {
    const worker = spawn(process.execPath, [path.join(backends, 'ort_worker.js')],
                         { stdio: ['pipe', 'pipe', 'inherit'] });
    const reader = new FrameReader();
    const got = [];
    worker.stdout.on('data', (chunk) => {
      reader.push(chunk);
      for (let f = reader.next(); f; f = reader.next()) got.push(f);
      if (got.length === 3) worker.stdin.end(encodeFrame({ type: 'bye' }, []));
    });
    worker.on('error', reject);
    worker.on('exit', () => resolve(got));
    const x = Buffer.from(X.buffer);
    const input = (name, blob) => ({ name, dtype: 'bf16', shape: [4], blob });
    worker.stdin.write(encodeFrame({ type: 'hello', options: { opt_level: 'all' } }, []));
    worker.stdin.write(encodeFrame({ type: 'run', id: 1, model: 0, outputs: ['y'],
                                     inputs: [input('x', 1)] }, [model('Identity', ['x']), x]));
    worker.stdin.write(encodeFrame({ type: 'run', id: 2, model: 0, outputs: ['y'],
                                     inputs: [input('x', 1), input('z', 2)] },
                                   [model('Add', ['x', 'z']), x, x]));
  });
  const [hello, identity, add] = answers;
  assert.strictEqual(hello.header.type, 'hello');
  assert.strictEqual(identity.header.type, 'result', identity.header.message);
  assert.deepStrictEqual(identity.header.outputs[0], { name: 'y', dtype: 'bf16', shape: [4], blob: 0 });
  assert.deepStrictEqual(Array.from(new Uint16Array(new Uint8Array(identity.blobs[0]).buffer)), Array.from(X));
  assert.strictEqual(add.header.kind, 'unsupported', add.header.message);
});
