/**
 * What an unpadded JSON header costs a REST binary request (Triton's clients do not pad it, so the tensor after it
 * is unaligned three times in four): CPU per request of splitting the body and decoding one 1x3x224x224 FP32 input,
 * for a body the server owns (the tensor moves back over the parsed header, src/codec/binary-data.ts alignInPlace)
 * against the same body in a buffer it does not own (the tensor is copied out: the path every body took before).
 * Each arm decodes fresh bodies allocated before the clock starts; GC after the loop is counted.
 *
 *   node --import tsx --expose-gc bench/binary-align.ts
 */
import { decodeInferRequestJson, parseBinaryBody } from '../src/codec/kserve-json.ts';
import { markExclusive } from '../src/tensor/exclusive-buffers.ts';

const ELEMENTS = 3 * 224 * 224;
const N = 400;
const head = new TextEncoder().encode(
  `{"inputs":[{"name":"input","datatype":"FP32","shape":[1,3,224,224],"parameters":{"binary_data_size":${ELEMENTS * 4}}}]}`,
);
// Make the tensor start 1 byte past an 8-byte boundary whatever the JSON's length.
const pad = (9 - (head.byteLength % 8)) % 8;
const header = new Uint8Array(head.byteLength + pad);
header.set(head.subarray(0, head.byteLength - 1));
header.fill(0x20, head.byteLength - 1, head.byteLength - 1 + pad);
header[header.byteLength - 1] = 0x7d; // '}'
const tensor = new Uint8Array(Float32Array.from({ length: ELEMENTS }, (_, i) => i % 255).buffer);
const cpu = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const gc = (globalThis as { gc?: () => void }).gc;

function arm(own: boolean): number {
  const bodies = Array.from({ length: N }, () => {
    const b = Buffer.allocUnsafeSlow(header.byteLength + tensor.byteLength);
    b.set(header, 0);
    b.set(tensor, header.byteLength);
    if (own) markExclusive(b);
    return b;
  });
  gc?.();
  const t = cpu();
  let sum = 0;
  for (const b of bodies) {
    const p = parseBinaryBody(b, String(header.byteLength));
    if (p.kind !== 'json') throw new Error('expected a JSON header');
    const d = decodeInferRequestJson(p.json, { bytes: p.binary });
    sum += (d.inputs[0]?.data as Float32Array)[7] ?? 0;
  }
  bodies.length = 0;
  gc?.();
  if (sum !== N * 7) throw new Error('wrong values');
  return (cpu() - t) / N;
}

console.log(`header ${header.byteLength} bytes (tensor at offset % 8 = ${header.byteLength % 8}), ${N} bodies per arm, µs CPU per request`);
for (let r = 0; r < 5; r++) {
  const copied = arm(false);
  const moved = arm(true);
  console.log(`round ${r + 1}: not owned (copied) ${copied.toFixed(1)}  owned (moved in place) ${moved.toFixed(1)}`);
}
