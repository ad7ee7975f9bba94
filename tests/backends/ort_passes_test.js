#!/usr/bin/env node
// The ONNX Runtime worker's hello option disabled_passes reaches ONNX Runtime (issue 41): on
// docs/bugs.md row 15, MatMul(Transpose(x), c) with a 1-D c, the session at level `all` computes
// x @ c (MatmulTransposeFusion drops the Transpose); with that transformer turned off it computes
// x^T @ c, the right answer. A name that could start another config entry is refused.
'use strict';

const assert = require('assert');
const { spawn } = require('child_process');
const path = require('path');
const test = require('node:test');

const backends = path.join(__dirname, '..', '..', 'scripts', 'backends');
const { encode, bytesField, intField } = require(path.join(backends, 'onnx_proto.js'));
const { encodeFrame, FrameReader } = require(path.join(backends, 'frames.js'));

const FLOAT = 1;

// ValueInfoProto: name = 1, type = 2; TypeProto.tensor_type = 1; elem_type = 1, shape = 2;
// TensorShapeProto.dim = 1; Dimension.dim_value = 1.
function valueInfo(name, dims) {
  const shape = encode(dims.map((d) => bytesField(1, encode([intField(1, d)]))));
  const tensor = encode([intField(1, FLOAT), bytesField(2, shape)]);
  return encode([bytesField(1, name), bytesField(2, encode([bytesField(1, tensor)]))]);
}

// NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5; AttributeProto: name
// = 1, ints = 8, type = 20 (INTS = 7).
function transposeMatmulModel() {
  const perm = encode([bytesField(1, 'perm'), intField(8, 1), intField(8, 0), intField(20, 7)]);
  const transpose = encode([bytesField(1, 'x'), bytesField(2, 't'), bytesField(3, 'transpose'),
                            bytesField(4, 'Transpose'), bytesField(5, perm)]);
  const matmul = encode([bytesField(1, 't'), bytesField(1, 'c'), bytesField(2, 'y'),
                         bytesField(3, 'matmul'), bytesField(4, 'MatMul')]);
  // GraphProto: node = 1, name = 2, input = 11, output = 12.
  const graph = encode([bytesField(1, transpose), bytesField(1, matmul), bytesField(2, 'row15'),
                        bytesField(11, valueInfo('x', [3, 3])), bytesField(11, valueInfo('c', [3])),
                        bytesField(12, valueInfo('y', [3]))]);
  const opset = encode([bytesField(1, ''), intField(2, 17)]);
  // ModelProto: ir_version = 1, graph = 7, opset_import = 8.
  return encode([intField(1, 8), bytesField(7, graph), bytesField(8, opset)]);
}

// Starts the worker, says hello with `options`, runs the model once; the answers' headers and
// y's values (null when the run failed).
function runWorker(options) {
  return new Promise((resolve, reject) => {
    const worker = spawn(process.execPath, [path.join(backends, 'ort_worker.js')],
                         { stdio: ['pipe', 'pipe', 'inherit'] });
    const reader = new FrameReader();
    const answers = [];
    worker.stdout.on('data', (chunk) => {
      reader.push(chunk);
      for (let f = reader.next(); f; f = reader.next()) answers.push(f);
      if (answers.length === 2) worker.stdin.end(encodeFrame({ type: 'bye' }, []));
    });
    worker.on('error', reject);
    worker.on('exit', () => {
      const [hello, run] = answers;
      const y = run && run.header.type === 'result'
        ? Array.from(new Float32Array(new Uint8Array(run.blobs[0]).buffer)) : null;
      resolve({ hello: hello && hello.header, run: run && run.header, y });
    });
    const x = Buffer.from(new Float32Array([1, 2, 3, 4, 5, 6, 7, 8, 9]).buffer);
    const c = Buffer.from(new Float32Array([1, 10, 100]).buffer);
    worker.stdin.write(encodeFrame({ type: 'hello', options }, []));
    worker.stdin.write(encodeFrame({
      type: 'run', id: 1, model: 0, outputs: ['y'],
      inputs: [{ name: 'x', dtype: 'f32', shape: [3, 3], blob: 1 },
               { name: 'c', dtype: 'f32', shape: [3], blob: 2 }],
    }, [transposeMatmulModel(), x, c]));
  });
}

const ALL = { opt_level: 'all', intra_op_threads: '1', execution_mode: 'sequential' };
const RIGHT = [741, 852, 963];  // x^T @ c
const FUSED = [321, 654, 987];  // x @ c: the Transpose dropped

test('the fusion drops the Transpose while it is on', async () => {
  const { hello, y } = await runWorker(ALL);
  assert.strictEqual(hello.type, 'hello');
  assert.deepStrictEqual(y, FUSED);
});

test('disabled_passes turns MatmulTransposeFusion off', async () => {
  const { hello, y } = await runWorker({ ...ALL, disabled_passes: 'ConstantFolding,MatmulTransposeFusion' });
  assert.strictEqual(hello.type, 'hello');
  assert.deepStrictEqual(y, RIGHT);
});

test('a pass the model does not need leaves the wrong answer', async () => {
  const { y } = await runWorker({ ...ALL, disabled_passes: 'NotWhereFusion' });
  assert.deepStrictEqual(y, FUSED);
});

test('a name that is no pass name is refused at hello', async () => {
  const { hello } = await runWorker({ ...ALL, disabled_passes: 'ConstantFolding;x' });
  assert.strictEqual(hello.type, 'error');
  assert.match(hello.message, /is not a pass name/);
});
