// usage: node ort_run.js model.onnx in.json out.json opt_level(disabled|basic|extended|all)
const ort = require(require('path').join(__dirname, '..', 'backends', 'node_modules', 'onnxruntime-node'));
const fs = require('fs');
const T = {float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array, uint8: Uint8Array,
  int16: Int16Array, int32: Int32Array, int64: BigInt64Array, bool: Uint8Array};
(async () => {
  const [model, inp, outp, lvl] = process.argv.slice(2);
  const spec = JSON.parse(fs.readFileSync(inp));
  const feeds = {};
  for (const [name, v] of Object.entries(spec)) {
    const buf = Buffer.from(v.b64, 'base64');
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    feeds[name] = new ort.Tensor(v.dtype, new T[v.dtype](ab), v.shape);
  }
  const s = await ort.InferenceSession.create(model, {graphOptimizationLevel: lvl || 'disabled', intraOpNumThreads: 1, executionMode: 'sequential'});
  const r = await s.run(feeds);
  const out = {};
  for (const name of s.outputNames) {
    const t = r[name];
    out[name] = {dtype: t.type, shape: t.dims, b64: Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString('base64')};
  }
  fs.writeFileSync(outp, JSON.stringify(out));
})().catch(e => { console.log('ORT FAILED: ' + e.message.slice(0, 400)); process.exit(3); });
