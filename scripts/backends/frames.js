// Frames of the backend worker protocol (docs/backend-protocol.md) for the Node workers: a
// little-endian u32 header length, a JSON header, then the blobs the header's "blobs" counts.
'use strict';

// The limits every worker language shares (core/backend/frame.h).
const MAX_HEADER = 16 * 1024 * 1024;
const MAX_DEPTH = 64;
const MAX_BLOB_TOTAL = 4 * 1024 * 1024 * 1024;

class ProtocolError extends Error {}

function encodeFrame(header, blobs) {
  header.blobs = blobs.map((b) => b.length);
  const text = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32LE(text.length, 0);
  return Buffer.concat([prefix, text, ...blobs]);
}

// Refuses a header nested deeper than MAX_DEPTH before JSON.parse builds one value per bracket.
function checkNesting(bytes) {
  const QUOTE = 0x22, BACKSLASH = 0x5c;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; ++i) {
    const c = bytes[i];
    if (inString) {
      if (c === BACKSLASH) ++i;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) throw new ProtocolError(`the header is nested deeper than ${MAX_DEPTH} levels`);
    } else if (c === 0x5d || c === 0x7d) {
      --depth;
    }
  }
}

function blobSizes(header) {
  const sizes = header.blobs ?? [];
  if (!Array.isArray(sizes)) throw new ProtocolError("'blobs' is not an array");
  let total = 0;
  for (const n of sizes) {
    if (!Number.isSafeInteger(n) || n < 0) throw new ProtocolError(`'blobs' holds ${JSON.stringify(n)}, not a byte count`);
    total += n;
  }
  if (total > MAX_BLOB_TOTAL) throw new ProtocolError('the blobs of one frame take more than 4 GiB');
  return sizes;
}

// Frames out of the bytes received so far. Chunks are queued as they arrive and joined once, when
// the part they complete (the length, the header, the blobs) is whole: reading a frame costs time
// linear in its size, whatever the chunk size.
class FrameReader {
  constructor() {
    this.chunks = [];
    this.length = 0;
    this.header = null;
    this.sizes = null;
  }
  push(chunk) {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }
  // The first n queued bytes as one buffer, removed from the queue.
  take(n) {
    const parts = [];
    let got = 0;
    while (got < n) {
      const chunk = this.chunks[0];
      const want = n - got;
      if (chunk.length <= want) {
        parts.push(chunk);
        this.chunks.shift();
        got += chunk.length;
      } else {
        parts.push(chunk.subarray(0, want));
        this.chunks[0] = chunk.subarray(want);
        got += want;
      }
    }
    this.length -= n;
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, n);
  }
  peekLength() {
    const first = this.chunks[0];
    if (first.length >= 4) return first.readUInt32LE(0);
    const prefix = this.take(4);
    this.chunks.unshift(prefix);
    this.length += 4;
    return prefix.readUInt32LE(0);
  }
  next() {
    if (this.header === null) {
      if (this.length < 4) return null;
      const headerLength = this.peekLength();
      if (headerLength > MAX_HEADER) throw new ProtocolError(`header length ${headerLength} is over the limit of 16 MiB`);
      if (this.length < 4 + headerLength) return null;
      const text = this.take(4 + headerLength).subarray(4);
      checkNesting(text);
      let header;
      try {
        header = JSON.parse(text.toString('utf8'));
      } catch (e) {
        throw new ProtocolError(`the header is not JSON: ${e.message}`);
      }
      if (header === null || typeof header !== 'object' || Array.isArray(header)) throw new ProtocolError('the header is not a JSON object');
      this.sizes = blobSizes(header);
      this.header = header;
    }
    const total = this.sizes.reduce((a, b) => a + b, 0);
    if (this.length < total) return null;
    const data = total > 0 ? this.take(total) : Buffer.alloc(0);
    const blobs = [];
    let offset = 0;
    for (const size of this.sizes) {
      blobs.push(data.subarray(offset, offset + size));
      offset += size;
    }
    const frame = { header: this.header, blobs };
    this.header = null;
    this.sizes = null;
    return frame;
  }
}

module.exports = { MAX_HEADER, MAX_DEPTH, ProtocolError, encodeFrame, FrameReader };
