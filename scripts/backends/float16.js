// float16 and bfloat16 for onnxruntime-node bindings that take no such tensors: releases before
// 1.19 take no float16 ("Tensor.data must be a typed array (-1) for float16 tensors"), and no
// release takes bfloat16 (onnxruntime-common has no such tensor type). The ONNX model is
// rewritten so that every graph input X of such a type becomes a float32 input X + suffix
// followed by a Cast to X's type, and every such graph output Y a Cast(to=f32) to the output
// Y + suffix (one suffix per type, so that an output's type is known from its name). Both casts
// are exact (every f16 and bf16 value is a f32 value), so the model computes what it did. Only
// the protobuf fields this needs are decoded; every other byte is kept as it was.
'use strict';

const FLOAT = 1;
const FLOAT16 = 10;
const BFLOAT16 = 16;
const SUFFIX = { [FLOAT16]: '__retort_f32', [BFLOAT16]: '__retort_bf16_f32' };

const { readVarint, decode, encode, bytesField, intField, text, first } = require('./onnx_proto.js');

// --- ONNX: ModelProto.graph = 7; GraphProto node = 1, input = 11, output = 12;
// ValueInfoProto name = 1, type = 2; TypeProto tensor_type = 1; Tensor elem_type = 1 ---

function elemType(valueInfo) {
  const type = first(decode(valueInfo), 2);
  const tensor = type && first(decode(type.value), 1);
  const elem = tensor && first(decode(tensor.value), 1);
  return elem ? Number(readVarint(elem.value, 0)[0]) : 0;
}

// The value info with another name and element type (shape kept).
function retyped(valueInfo, name, elem) {
  return encode(decode(valueInfo).map((f) => {
    if (f.field === 1) return bytesField(1, name);
    if (f.field !== 2) return f;
    const type = decode(f.value).map((t) => {
      if (t.field !== 1) return t;
      const tensor = decode(t.value).map((e) => (e.field === 1 ? intField(1, elem) : e));
      return bytesField(1, encode(tensor));
    });
    return bytesField(2, encode(type));
  }));
}

// NodeProto input = 1, output = 2, name = 3, op_type = 4, attribute = 5;
// AttributeProto name = 1, i = 3, type = 20 (INT = 2).
function castNode(from, to, elem) {
  const attr = encode([bytesField(1, 'to'), intField(3, elem), intField(20, 2)]);
  return bytesField(1, encode([bytesField(1, from), bytesField(2, to), bytesField(3, `${to}_cast`),
                               bytesField(4, 'Cast'), bytesField(5, attr)]));
}

// The element types of the model's graph inputs and outputs.
function boundaryTypes(model) {
  const graph = first(decode(Buffer.from(model)), 7);
  if (!graph) return new Set();
  return new Set(decode(graph.value).filter((g) => g.field === 11 || g.field === 12).map((g) => elemType(g.value)));
}

// An ONNX model y = Identity(x) on float16[1], to ask a binding whether it takes float16.
function probeModel() {
  const valueInfo = (name) => encode([bytesField(1, name), bytesField(2, encode([bytesField(1, encode([intField(1, FLOAT16)]))]))]);
  const node = encode([bytesField(1, 'x'), bytesField(2, 'y'), bytesField(4, 'Identity')]);
  const graph = encode([bytesField(1, node), bytesField(2, 'probe'), bytesField(11, valueInfo('x')),
                        bytesField(12, valueInfo('y'))]);
  const opset = encode([bytesField(1, ''), intField(2, 17)]);
  return new Uint8Array(encode([intField(1, 8), bytesField(7, graph), bytesField(8, opset)]));
}

// The model with float32 boundaries in place of those of the element types in `types`.
function withF32Boundaries(model, types) {
  const fields = decode(Buffer.from(model));
  return encode(fields.map((f) => {
    if (f.field !== 7) return f;
    const graph = decode(f.value);
    const before = [], after = [], rest = [];
    for (const g of graph) {
      const isIo = g.field === 11 || g.field === 12;
      const elem = isIo ? elemType(g.value) : 0;
      if (!types.includes(elem)) {
        rest.push(g);
        continue;
      }
      const name = text(first(decode(g.value), 1));
      const wide = name + SUFFIX[elem];
      if (g.field === 11) {
        rest.push(bytesField(11, retyped(g.value, wide, FLOAT)));
        before.push(castNode(wide, name, elem));
      } else {
        rest.push(bytesField(12, retyped(g.value, wide, FLOAT)));
        after.push(castNode(name, wide, FLOAT));
      }
    }
    // Nodes must stay in topological order: the input casts first, the output casts last.
    const firstNode = rest.findIndex((g) => g.field === 1);
    const at = firstNode < 0 ? 0 : firstNode;
    const nodesEnd = rest.reduce((last, g, i) => (g.field === 1 ? i + 1 : last), at);
    const out = [...rest.slice(0, at), ...before, ...rest.slice(at, nodesEnd), ...after, ...rest.slice(nodesEnd)];
    return bytesField(7, encode(out));
  }));
}

// --- the numbers ---

function halfToFloat(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, f = h & 0x3ff;
  if (e === 0) return s * Math.pow(2, -14) * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * Math.pow(2, e - 15) * (1 + f / 1024);
}

// Round to nearest even; exact for every value that came from a float16.
function floatToHalf(x) {
  const f32 = new Float32Array([x]);
  const bits = new Uint32Array(f32.buffer)[0];
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  let mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 | (mant >>> 13) : 0);
  let e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1), mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && (half & 1))) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (half & 1))) half++;
  return sign | half;
}

// bfloat16 is the upper half of a float32: widening shifts its bits up; narrowing rounds the
// lower half to nearest even (exact for every value that came from a bfloat16).
function bfloat16ToFloat(b) {
  return new Float32Array(new Uint32Array([b << 16]).buffer)[0];
}

function floatToBfloat16(x) {
  const bits = new Uint32Array(new Float32Array([x]).buffer)[0];
  if ((bits & 0x7fffffff) > 0x7f800000) return (bits >>> 16) | 0x40;
  return ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
}

const CONVERT = {
  [FLOAT16]: [halfToFloat, floatToHalf],
  [BFLOAT16]: [bfloat16ToFloat, floatToBfloat16],
};

// The float32 values of 16-bit words of element type `elem` (FLOAT16 or BFLOAT16), and back.
function toFloat32(words, elem) {
  return Float32Array.from(words, CONVERT[elem][0]);
}

function fromFloat32(floats, elem) {
  return Uint16Array.from(floats, CONVERT[elem][1]);
}

module.exports = { FLOAT16, BFLOAT16, SUFFIX, boundaryTypes, probeModel, withF32Boundaries, toFloat32, fromFloat32 };
