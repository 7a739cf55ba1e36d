/**
 * The bundled models compute what models/README.md says, under the real runtime (onnxruntime-node), and the
 * ResNet has the structure the compiler tests rely on.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ort from 'onnxruntime-node';
import { defaultOpsetVersion, loadModel, toNumber } from '../../../src/onnx/proto.ts';
import { ENCODER, mulberry32 } from '../../../models/generate.ts';
import { numericOrtTensor } from '../../../src/engine/ort/ort-tensor.ts';

const modelPath = (name: string): string => fileURLToPath(new URL(`../../../models/${name}/1/model.onnx`, import.meta.url));

async function session(name: string): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(modelPath(name), { intraOpNumThreads: 1, interOpNumThreads: 1 });
}

function randomFloats(seed: number, n: number): Float32Array {
  const r = mulberry32(seed);
  return Float32Array.from({ length: n }, () => r() * 2 - 1);
}

describe('bundled models under onnxruntime-node', () => {
  test('simple: OUTPUT0 = INPUT0 + INPUT1, OUTPUT1 = INPUT0 - INPUT1 over a batch', async () => {
    const s = await session('simple');
    const a = Int32Array.from({ length: 32 }, (_, i) => i * 3 - 40);
    const b = Int32Array.from({ length: 32 }, (_, i) => 7 - i);
    const out = await s.run({ INPUT0: new ort.Tensor('int32', a, [2, 16]), INPUT1: new ort.Tensor('int32', b, [2, 16]) });
    assert.deepEqual(out['OUTPUT0']?.dims, [2, 16]);
    assert.deepEqual(
      [...(out['OUTPUT0']?.data as Int32Array)],
      [...a].map((x, i) => x + (b[i] as number)),
    );
    assert.deepEqual(
      [...(out['OUTPUT1']?.data as Int32Array)],
      [...a].map((x, i) => x - (b[i] as number)),
    );
    await s.release();
  });

  test('mlp: matches a plain JS forward pass over the weights stored in the model', async () => {
    const model = loadModel(await readFile(modelPath('mlp')));
    const weights = new Map<string, Float32Array>();
    for (const t of model.graph?.initializer ?? []) {
      const raw = t.rawData as Uint8Array;
      weights.set(t.name ?? '', new Float32Array(Uint8Array.from(raw).buffer));
      assert.ok(t.dims?.every((d) => toNumber(d) > 0));
    }
    const x = randomFloats(7, 3 * 64);
    const forward = (row: Float32Array): number[] => {
      let h = Array.from(row);
      const sizes = [64, 256, 256, 10];
      for (let l = 0; l < 3; l++) {
        const w = weights.get(`fc${l + 1}.weight`) as Float32Array;
        const bias = weights.get(`fc${l + 1}.bias`) as Float32Array;
        const nIn = sizes[l] as number;
        const nOut = sizes[l + 1] as number;
        const next: number[] = [];
        for (let o = 0; o < nOut; o++) {
          let acc = bias[o] as number;
          for (let i = 0; i < nIn; i++) acc += (w[o * nIn + i] as number) * (h[i] as number);
          next.push(l < 2 ? Math.max(0, acc) : acc);
        }
        h = next;
      }
      return h;
    };
    const s = await session('mlp');
    const out = await s.run({ input: new ort.Tensor('float32', x, [3, 64]) });
    const logits = out['logits'];
    assert.deepEqual(logits?.dims, [3, 10]);
    const got = logits?.data as Float32Array;
    for (let r = 0; r < 3; r++) {
      const want = forward(x.subarray(r * 64, (r + 1) * 64));
      for (let k = 0; k < 10; k++) {
        const diff = Math.abs((got[r * 10 + k] as number) - (want[k] as number));
        assert.ok(diff < 1e-4, `row ${r} logit ${k}: ${got[r * 10 + k]} vs ${want[k]}`);
      }
    }
    await s.release();
  });

  test('resnet_tiny: a ResNet-style graph under 3 MB that classifies a batch of 32x32 images', async () => {
    assert.ok((await stat(modelPath('resnet_tiny'))).size < 3 * 1024 * 1024);
    const model = loadModel(await readFile(modelPath('resnet_tiny')));
    const ops = new Map<string, number>();
    for (const n of model.graph?.node ?? []) ops.set(n.opType ?? '', (ops.get(n.opType ?? '') ?? 0) + 1);
    // stem conv + 3 stages x 2 blocks x 2 convs + 2 downsample shortcuts
    assert.equal(ops.get('Conv'), 15);
    assert.equal(ops.get('BatchNormalization'), 15);
    assert.equal(ops.get('Add'), 6);
    assert.equal(ops.get('GlobalAveragePool'), 1);
    assert.equal(ops.get('Gemm'), 1);
    // BN statistics are not the identity (mean 0, var 1), so folding them is observable
    const mean = model.graph?.initializer?.find((t) => t.name === 'stem.bn.running_mean');
    assert.ok(new Float32Array(Uint8Array.from(mean?.rawData as Uint8Array).buffer).some((v) => v !== 0));

    const s = await session('resnet_tiny');
    const x = randomFloats(11, 2 * 3 * 32 * 32);
    const out = await s.run({ input: new ort.Tensor('float32', x, [2, 3, 32, 32]) });
    const logits = out['logits'];
    assert.deepEqual(logits?.dims, [2, 10]);
    const data = logits?.data as Float32Array;
    assert.ok(data.every((v) => Number.isFinite(v)));
    assert.notDeepEqual([...data.subarray(0, 10)], [...data.subarray(10, 20)], 'different images give different logits');
    await s.release();
  });

  test('encoder: matches a plain JS transformer forward pass over its stored weights, at any sequence length', async () => {
    const model = loadModel(await readFile(modelPath('encoder')));
    assert.equal(defaultOpsetVersion(model), 17, 'LayerNormalization needs opset 17');
    const w = new Map<string, Float32Array>();
    for (const t of model.graph?.initializer ?? []) {
      if (t.dataType === 1) w.set(t.name ?? '', new Float32Array(Uint8Array.from(t.rawData as Uint8Array).buffer));
    }
    const ops = new Map<string, number>();
    for (const n of model.graph?.node ?? []) ops.set(n.opType ?? '', (ops.get(n.opType ?? '') ?? 0) + 1);
    // per layer: Q, K, V, output, FFN in, FFN out (MatMul by a weight) + scores and context (MatMul of activations)
    assert.equal(ops.get('MatMul'), ENCODER.layers * 8);
    assert.equal(ops.get('LayerNormalization'), ENCODER.layers * 2);
    assert.equal(ops.get('Softmax'), ENCODER.layers);
    assert.equal(ops.get('Erf'), ENCODER.layers);
    const { dModel: d, heads, dFf } = ENCODER;
    const dh = d / heads;
    const get = (name: string): Float32Array => w.get(name) ?? assert.fail(`no initializer ${name}`);
    /** rows [n, nIn] times W [nIn, nOut] plus b */
    const linear = (x: Float64Array, n: number, name: string, nIn: number, nOut: number): Float64Array => {
      const W = get(`${name}.weight`);
      const b = get(`${name}.bias`);
      const y = new Float64Array(n * nOut);
      for (let r = 0; r < n; r++)
        for (let o = 0; o < nOut; o++) {
          let acc = b[o] as number;
          for (let i = 0; i < nIn; i++) acc += (x[r * nIn + i] as number) * (W[i * nOut + o] as number);
          y[r * nOut + o] = acc;
        }
      return y;
    };
    const layerNorm = (x: Float64Array, n: number, name: string): Float64Array => {
      const g = get(`${name}.weight`);
      const b = get(`${name}.bias`);
      const y = new Float64Array(x.length);
      for (let r = 0; r < n; r++) {
        const row = x.subarray(r * d, (r + 1) * d);
        const mean = row.reduce((a, v) => a + v, 0) / d;
        const variance = row.reduce((a, v) => a + (v - mean) ** 2, 0) / d;
        for (let i = 0; i < d; i++) y[r * d + i] = (((row[i] as number) - mean) / Math.sqrt(variance + 1e-5)) * (g[i] as number) + (b[i] as number);
      }
      return y;
    };
    const erf = (z: number): number => {
      // Abramowitz-Stegun 7.1.26 is too coarse for 1e-4; integrate the series instead (|z| stays small here).
      let sum = 0;
      let term = z;
      for (let k = 0; k < 200; k++) {
        sum += term / (2 * k + 1);
        term *= (-z * z) / (k + 1);
      }
      return (2 / Math.sqrt(Math.PI)) * sum;
    };
    /** One sequence [s, d] → [hidden [s, d], logits [10]]. */
    const forward = (x0: Float64Array, s: number): [Float64Array, Float64Array] => {
      let x = x0;
      for (let l = 0; l < ENCODER.layers; l++) {
        const p = `layer${l}`;
        const q = linear(x, s, `${p}.attention.query`, d, d);
        const k = linear(x, s, `${p}.attention.key`, d, d);
        const v = linear(x, s, `${p}.attention.value`, d, d);
        const ctx = new Float64Array(s * d);
        for (let h = 0; h < heads; h++)
          for (let i = 0; i < s; i++) {
            const scores = Array.from({ length: s }, (_, j) => {
              let dot = 0;
              for (let e = 0; e < dh; e++) dot += (q[i * d + h * dh + e] as number) * (k[j * d + h * dh + e] as number);
              return dot / Math.sqrt(dh);
            });
            const m = Math.max(...scores);
            const ex = scores.map((z) => Math.exp(z - m));
            const z = ex.reduce((a, b) => a + b, 0);
            for (let e = 0; e < dh; e++) ctx[i * d + h * dh + e] = ex.reduce((a, pj, j) => a + (pj / z) * (v[j * d + h * dh + e] as number), 0);
          }
        const attn = linear(ctx, s, `${p}.attention.output`, d, d);
        x = layerNorm(
          attn.map((a, i) => a + (x[i] as number)),
          s,
          `${p}.attention.norm`,
        );
        const hIn = linear(x, s, `${p}.ffn.in`, d, dFf).map((a) => 0.5 * a * (1 + erf(a / Math.SQRT2)));
        const ffn = linear(hIn, s, `${p}.ffn.out`, dFf, d);
        x = layerNorm(
          ffn.map((a, i) => a + (x[i] as number)),
          s,
          `${p}.ffn.norm`,
        );
      }
      const pooled = new Float64Array(d);
      for (let r = 0; r < s; r++) for (let i = 0; i < d; i++) pooled[i] = (pooled[i] as number) + (x[r * d + i] as number) / s;
      const cw = get('classifier.weight');
      const cb = get('classifier.bias');
      const logits = Float64Array.from({ length: ENCODER.classes }, (_, o) =>
        pooled.reduce((a, v, i) => a + v * (cw[o * d + i] as number), cb[o] as number),
      );
      return [x, logits];
    };
    const s = await session('encoder');
    for (const [batch, seq] of [
      [2, 5],
      [1, 1],
    ] as const) {
      const x = randomFloats(13 + seq, batch * seq * d);
      const out = await s.run({ input: new ort.Tensor('float32', x, [batch, seq, d]) });
      assert.deepEqual(out['logits']?.dims, [batch, ENCODER.classes]);
      assert.deepEqual(out['hidden']?.dims, [batch, seq, d]);
      const logits = out['logits']?.data as Float32Array;
      const hidden = out['hidden']?.data as Float32Array;
      for (let b = 0; b < batch; b++) {
        const [wantHidden, wantLogits] = forward(Float64Array.from(x.subarray(b * seq * d, (b + 1) * seq * d)), seq);
        wantHidden.forEach((v, i) =>
          assert.ok(Math.abs(v - (hidden[b * seq * d + i] as number)) < 1e-4, `hidden[${b}][${i}]: ${hidden[b * seq * d + i]} vs ${v}`),
        );
        wantLogits.forEach((v, i) =>
          assert.ok(
            Math.abs(v - (logits[b * ENCODER.classes + i] as number)) < 1e-4,
            `logits[${b}][${i}]: ${logits[b * ENCODER.classes + i]} vs ${v}`,
          ),
        );
      }
    }
    await s.release();
  });

  /** A tensor's elements; float16 as its raw bits (a Float16Array's numbers would make NaN unequal to itself). */
  const valuesOf = (t: ort.Tensor): unknown[] => {
    const d = t.data as ArrayLike<unknown> & Partial<ArrayBufferView>;
    return t.type === 'float16' && d.buffer !== undefined
      ? Array.from(new Uint16Array(d.buffer, d.byteOffset, (d.byteLength ?? 0) / 2))
      : Array.from(d);
  };

  test('identity_all: every datatype round-trips unchanged', async () => {
    const s = await session('identity_all');
    const feeds: Record<string, ort.Tensor> = {
      IN_BOOL: new ort.Tensor('bool', new Uint8Array([1, 0, 1]), [1, 3]),
      IN_UINT8: new ort.Tensor('uint8', new Uint8Array([0, 255]), [2, 1]),
      IN_UINT16: new ort.Tensor('uint16', new Uint16Array([0, 65535]), [1, 2]),
      IN_UINT32: new ort.Tensor('uint32', new Uint32Array([0, 4294967295]), [1, 2]),
      IN_UINT64: new ort.Tensor('uint64', new BigUint64Array([0n, 18446744073709551615n]), [1, 2]),
      IN_INT8: new ort.Tensor('int8', new Int8Array([-128, 127]), [1, 2]),
      IN_INT16: new ort.Tensor('int16', new Int16Array([-32768, 32767]), [1, 2]),
      IN_INT32: new ort.Tensor('int32', new Int32Array([-2147483648, 2147483647]), [1, 2]),
      IN_INT64: new ort.Tensor('int64', new BigInt64Array([-9223372036854775808n, 9223372036854775807n]), [1, 2]),
      // Raw half bits, built as the engine builds them (on Node 24+ onnxruntime-common wraps them in a Float16Array).
      IN_FP16: numericOrtTensor('float16', new Uint16Array([0x3c00, 0xfbff, 0x7e00]), [3, 1]),
      IN_FP32: new ort.Tensor('float32', new Float32Array([1.5, -0, Number.POSITIVE_INFINITY]), [1, 3]),
      IN_FP64: new ort.Tensor('float64', new Float64Array([Math.PI]), [1, 1]),
      // onnxruntime-node passes strings as C strings: a NUL byte would cut the element short (see models/README.md).
      IN_BYTES: new ort.Tensor('string', ['', 'héllo', 'tab\tand emoji \u{1f600}'], [3, 1]),
    };
    assert.deepEqual([...s.inputNames].sort(), Object.keys(feeds).sort());
    const out = await s.run(feeds);
    for (const [name, input] of Object.entries(feeds)) {
      const o = out[name.replace('IN_', 'OUT_')];
      assert.ok(o, name);
      assert.equal(o.type, input.type, name);
      assert.deepEqual(o.dims, input.dims, name);
      assert.deepEqual(valuesOf(o), valuesOf(input), name);
    }
    await s.release();
  });
});
