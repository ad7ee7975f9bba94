#!/usr/bin/env node
// Tests of scripts/backends/frames.js (the Node workers' frames), with node:test.
'use strict';

const assert = require('assert');
const path = require('path');
const test = require('node:test');

const { MAX_DEPTH, ProtocolError, encodeFrame, FrameReader } = require(
  path.join(__dirname, '..', '..', 'scripts', 'backends', 'frames.js'));

function lengthPrefixed(text) {
  const body = Buffer.from(text, 'utf8');
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32LE(body.length, 0);
  return Buffer.concat([prefix, body]);
}

// Feeds `bytes` in chunks of `size` and returns the frames read, counting the bytes that
// Buffer.concat copies on the way.
function readInChunks(bytes, size) {
  const reader = new FrameReader();
  const frames = [];
  const concat = Buffer.concat;
  let copied = 0;
  Buffer.concat = (list, n) => {
    const out = concat(list, n);
    copied += out.length;
    return out;
  };
  try {
    for (let at = 0; at < bytes.length; at += size) {
      reader.push(bytes.subarray(at, Math.min(at + size, bytes.length)));
      for (let f = reader.next(); f; f = reader.next()) frames.push(f);
    }
  } finally {
    Buffer.concat = concat;
  }
  return { frames, copied };
}

test('a 64 MB frame in 64 KiB chunks is joined once', () => {
  const blob = Buffer.alloc(64 * 1000 * 1000);
  for (let i = 0; i < blob.length; i += 4096) blob[i] = i & 0xff;
  const bytes = encodeFrame({ type: 'run', id: 1 }, [Buffer.from('model'), blob]);
  const { frames, copied } = readInChunks(bytes, 64 * 1024);
  assert.strictEqual(frames.length, 1);
  assert.deepStrictEqual(frames[0].header.blobs, [5, blob.length]);
  assert.strictEqual(frames[0].blobs[0].toString(), 'model');
  assert.ok(frames[0].blobs[1].equals(blob));
  // Joining everything received on each chunk (the old reader) copies ~1000 times the frame.
  assert.ok(copied <= bytes.length, `copied ${copied} bytes for a frame of ${bytes.length}`);
});

test('frames split anywhere, even inside the length, come out whole and in order', () => {
  const one = encodeFrame({ type: 'hello', options: {} }, []);
  const two = encodeFrame({ type: 'run', id: 2 }, [Buffer.from('abc'), Buffer.from('')]);
  const three = encodeFrame({ type: 'bye' }, []);
  const bytes = Buffer.concat([one, two, three]);
  for (const size of [1, 2, 3, 5, 7, bytes.length]) {
    const { frames } = readInChunks(bytes, size);
    assert.deepStrictEqual(frames.map((f) => f.header.type), ['hello', 'run', 'bye']);
    assert.deepStrictEqual(frames[1].blobs.map(String), ['abc', '']);
  }
});

test('a header nested deeper than the limit is refused before it is parsed', () => {
  const deep = `{"a":${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}}`;
  assert.throws(() => readInChunks(lengthPrefixed(deep), 1 << 20), ProtocolError);
  const huge = `{"a":${'['.repeat(15 * 1024 * 1024)}`;
  assert.throws(() => readInChunks(lengthPrefixed(huge), 1 << 20), /nested deeper than 64/);
  // Brackets inside strings are text, not nesting.
  const quoted = JSON.stringify({ a: '['.repeat(1000), b: '\\"[[' });
  assert.deepStrictEqual(readInChunks(lengthPrefixed(quoted), 7).frames[0].header.a, '['.repeat(1000));
});

test('malformed headers are protocol errors', () => {
  const big = Buffer.from([0x00, 0x00, 0x00, 0x02]);
  assert.throws(() => readInChunks(big, 4), /over the limit of 16 MiB/);
  assert.throws(() => readInChunks(lengthPrefixed('[1]'), 8), /not a JSON object/);
  assert.throws(() => readInChunks(lengthPrefixed('{"a":'), 8), /not JSON/);
  assert.throws(() => readInChunks(lengthPrefixed('{"blobs":[-1]}'), 8), /not a byte count/);
  assert.throws(() => readInChunks(lengthPrefixed('{"blobs":3}'), 8), /not an array/);
});
