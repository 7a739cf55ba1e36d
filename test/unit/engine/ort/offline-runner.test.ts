/**
 * The compiler's offline onnxruntime runner: ort-webgpu sessions run on the CPU provider unless the runner is made
 * for a GPU machine (`webgpu: true`, bench/compiler.ts --target ort-webgpu), where they go to the WebGPU provider.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GraphBuilder } from '../../../../src/compiler/ir/builder.ts';
import { DT } from '../../../../src/tensor/onnx-dtype.ts';
import { createOfflineRunner, offlineProviders } from '../../../../src/engine/ort/offline-runner.ts';
import { RtError } from '../../../../src/errors/registry.ts';

function softmaxModel(): Uint8Array {
  const b = new GraphBuilder({ opset: 17 });
  b.input('x', DT.FLOAT, ['N', 4]);
  b.node('Softmax', ['x'], ['y']);
  b.output('y', DT.FLOAT, ['N', 4]);
  return b.bytes();
}

const x = { elemType: DT.FLOAT, dims: [1, 4], data: Float32Array.of(0, 1, 2, 3) };
const want = [0, 1, 2, 3].map((v) => Math.exp(v) / [0, 1, 2, 3].reduce((s, u) => s + Math.exp(u), 0));

test('providers: ort-webgpu goes to WebGPU only when asked; cuda never reaches onnxruntime', () => {
  assert.deepEqual(offlineProviders('ort-cpu', {}), ['cpu']);
  assert.deepEqual(offlineProviders('ort-webgpu', {}), ['cpu']);
  assert.deepEqual(offlineProviders('ort-webgpu', { webgpu: true }), ['webgpu']);
  assert.deepEqual(offlineProviders('ort-cpu', { webgpu: true }), ['cpu']);
  assert.throws(
    () => offlineProviders('cuda', { webgpu: true }),
    (e: unknown) => e instanceof RtError && e.code === 'ENGINE_UNAVAILABLE',
  );
});

test('by default an ort-webgpu session runs on the CPU provider, on any machine', async () => {
  const s = await createOfflineRunner().createSession(softmaxModel(), { target: 'ort-webgpu' });
  const y = (await s.run({ x })).y?.data as Float32Array;
  await s.release();
  want.forEach((v, i) => assert.ok(Math.abs(v - (y[i] ?? 0)) < 1e-6));
});

test('with webgpu: true an ort-webgpu session goes to the WebGPU provider: it computes the same, or names the missing adapter', async () => {
  const runner = createOfflineRunner({ webgpu: true });
  let s;
  try {
    s = await runner.createSession(softmaxModel(), { target: 'ort-webgpu' });
  } catch (err) {
    // A machine without a GPU (CI, the development VM): the WebGPU provider itself says it found no adapter.
    assert.ok(err instanceof RtError, String(err));
    assert.match(err.message, /WebGPU adapter|webgpu/i);
    return;
  }
  const y = (await s.run({ x })).y?.data as Float32Array;
  await s.release();
  want.forEach((v, i) => assert.ok(Math.abs(v - (y[i] ?? 0)) < 1e-4));
});

test('ort-cpu sessions of a webgpu runner stay on the CPU provider', async () => {
  const s = await createOfflineRunner({ webgpu: true }).createSession(softmaxModel(), { target: 'ort-cpu' });
  const y = (await s.run({ x })).y?.data as Float32Array;
  await s.release();
  want.forEach((v, i) => assert.ok(Math.abs(v - (y[i] ?? 0)) < 1e-6));
});

// On Node 24+ (Float16Array) onnxruntime-node 1.30/1.31 read a float16 input as empty ("not enough space: expected
// 4, got 0") unless the binding gets the Uint16Array back (src/engine/ort/ort-tensor.ts); CI runs this on Node 24.
test('float16 inputs and outputs run as raw half bits, on runtimes with and without Float16Array', async () => {
  const b = new GraphBuilder({ opset: 17 });
  b.input('h', DT.FLOAT16, [4]);
  b.node('Neg', ['h'], ['y']);
  b.output('y', DT.FLOAT16, [4]);
  const s = await createOfflineRunner().createSession(b.bytes(), { target: 'ort-cpu' });
  // IEEE half bits: 1.0, -2.0, 0.5, +inf
  const y = (await s.run({ h: { elemType: DT.FLOAT16, dims: [4], data: Uint16Array.of(0x3c00, 0xc000, 0x3800, 0x7c00) } })).y?.data;
  await s.release();
  assert.ok(y instanceof Uint16Array);
  assert.deepEqual([...y], [0xbc00, 0x4000, 0xb800, 0xfc00]);
});
