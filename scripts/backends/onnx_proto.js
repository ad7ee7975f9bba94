// The protobuf wire format, as far as the ONNX workers need it: a message decodes to a list of
// {field, wire, value} and encodes back byte for byte. Used by float16.js (rewriting a model's
// boundaries) and by the ONNX Runtime worker (counting the ops of its optimized model).
'use strict';

function readVarint(buf, pos) {
  let value = 0n;
  let shift = 0n;
  for (;;) {
    if (pos >= buf.length) throw new Error('truncated varint in the model');
    const b = buf[pos++];
    value |= BigInt(b & 0x7f) << shift;
    if (!(b & 0x80)) return [value, pos];
    shift += 7n;
  }
}

function decode(buf) {
  const fields = [];
  let pos = 0;
  while (pos < buf.length) {
    let key;
    [key, pos] = readVarint(buf, pos);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    const start = pos;
    if (wire === 0) {
      [, pos] = readVarint(buf, pos);
    } else if (wire === 1) {
      pos += 8;
    } else if (wire === 5) {
      pos += 4;
    } else if (wire === 2) {
      let len;
      [len, pos] = readVarint(buf, pos);
      const begin = pos;
      pos += Number(len);
      fields.push({ field, wire, value: buf.subarray(begin, pos) });
      continue;
    } else {
      throw new Error(`unsupported protobuf wire type ${wire} in the model`);
    }
    fields.push({ field, wire, value: buf.subarray(start, pos) });  // the raw varint/fixed bytes
  }
  return fields;
}

function varint(n) {
  let v = BigInt(n);
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
}

function encode(fields) {
  const parts = [];
  for (const { field, wire, value } of fields) {
    parts.push(varint((field << 3) | wire));
    if (wire === 2) parts.push(varint(value.length));
    parts.push(Buffer.from(value));
  }
  return Buffer.concat(parts);
}

const bytesField = (field, value) => ({ field, wire: 2, value: Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8') });
const intField = (field, n) => ({ field, wire: 0, value: varint(n) });
const text = (f) => Buffer.from(f.value).toString('utf8');
const first = (fields, n) => fields.find((f) => f.field === n);

// ONNX: ModelProto.graph = 7; GraphProto.node = 1; NodeProto.op_type = 4, domain = 7.
// How many nodes of each op the model's main graph has; ops of another domain than the default
// one are named domain.op_type ("com.microsoft.FusedConv").
function opCounts(model) {
  const counts = {};
  const graph = first(decode(model), 7);
  if (!graph) return counts;
  for (const f of decode(graph.value)) {
    if (f.field !== 1) continue;
    const node = decode(f.value);
    const opType = first(node, 4);
    const domain = first(node, 7);
    const name = (domain && text(domain) && text(domain) !== 'ai.onnx' ? text(domain) + '.' : '') + (opType ? text(opType) : '');
    counts[name] = (counts[name] || 0) + 1;
  }
  return counts;
}

// The names of the model's main-graph nodes (NodeProto.name = 3).
// The names of a model's nodes: the graph's (GraphProto.node = 1) and those inside its local
// functions (ModelProto.functions = 25, FunctionProto.node = 7).
function nodeNames(model) {
  const names = new Set();
  const addNodes = (message, nodeField) => {
    for (const f of decode(message)) {
      if (f.field !== nodeField) continue;
      const name = first(decode(f.value), 3);
      if (name) names.add(text(name));
    }
  };
  for (const f of decode(model)) {
    if (f.field === 7) addNodes(f.value, 1);
    if (f.field === 25) addNodes(f.value, 7);
  }
  return names;
}

module.exports = { readVarint, decode, encode, bytesField, intField, text, first, opCounts, nodeNames };
