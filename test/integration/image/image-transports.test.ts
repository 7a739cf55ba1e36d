/**
 * The same image input on the other front ends: gRPC ModelInfer with the encoded image in a BYTES input (raw
 * contents or typed bytes_contents), and a WebSocket frame stream of JPEG frames through the client SDK, each
 * answered with boxes that match the scene.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { createNodeClient } from '../../../src/client/node.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { boxIou } from '../../../src/postprocess/geometry.ts';
import { startTestServer } from '../../helpers/server.ts';
import { inferenceClient, tensorsOf, unary, type InferenceClient, type ModelInferResponse } from '../grpc/grpc-test-client.ts';
import { digitPng, encodeScene, heldOutDigits, scene } from './image-helpers.ts';

let server: RunningServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const decoder = new TextDecoder();

function assertMatches(out: Tensor[], truth: readonly { label: string; box: readonly number[] }[]): void {
  const byName = new Map(out.map((t) => [t.name, t]));
  const boxes = byName.get('boxes')?.data as Float32Array;
  const labels = (byName.get('labels')?.data as Uint8Array[]).map((b) => decoder.decode(b));
  assert.equal(labels.length, truth.length, `labels ${labels.join(',')}`);
  for (const t of truth) {
    const hit = labels.some((l, i) => l === t.label && boxIou([...boxes.subarray(i * 4, i * 4 + 4)], t.box) > 0.7);
    assert.ok(hit, `no ${t.label} near ${t.box.map((v) => v.toFixed(0)).join(',')}`);
  }
}

describe('image requests over gRPC', () => {
  let client: InferenceClient;
  before(() => {
    assert.ok(server.grpcAddress);
    client = inferenceClient(server.grpcAddress);
  });
  after(() => client.close());

  test('ModelInfer with the JPEG in raw_input_contents answers boxes, scores, classes and labels', async () => {
    const r = scene(4, 4);
    const jpeg = Buffer.from(await encodeScene(r, 'jpeg'));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(jpeg.length);
    const res = await unary<ModelInferResponse>(client, 'ModelInfer', {
      model_name: 'shapes',
      id: 'g1',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1] }],
      raw_input_contents: [Buffer.concat([len, jpeg])],
      parameters: { score_threshold: { double_param: 0.4 } },
    });
    assert.equal(res.id, 'g1');
    assert.equal(res.model_name, 'shapes');
    assertMatches(tensorsOf(res), r.objects);
  });

  test('ModelInfer with typed bytes_contents classifies a digit; a corrupt image is INVALID_ARGUMENT', async () => {
    const { images, labels } = heldOutDigits();
    const png = Buffer.from(await digitPng(images[5] ?? ''));
    const res = await unary<ModelInferResponse>(client, 'ModelInfer', {
      model_name: 'digits',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], contents: { bytes_contents: [png] } }],
      outputs: [{ name: 'labels' }],
    });
    const out = tensorsOf(res);
    assert.deepEqual(
      out.map((t) => t.name),
      ['labels'],
    );
    assert.equal(decoder.decode((out[0]?.data as Uint8Array[])[0]), String(labels[5]));
    await assert.rejects(
      unary(client, 'ModelInfer', {
        model_name: 'digits',
        inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], contents: { bytes_contents: [png.subarray(0, 30)] } }],
      }),
      (err: { code?: number; details?: string }) => err.code === 3 && /corrupt png image/.test(err.details ?? ''),
    );
  });
});

describe('image frames over a WebSocket frame stream', () => {
  test('JPEG frames of a moving scene are answered (or reported dropped), with boxes that match each frame', async () => {
    const client = createNodeClient({ url: server.httpUrl });
    try {
      const frames = new Map<string, readonly { label: string; box: readonly number[] }[]>();
      const stream = client.frameStream('shapes', 'cam', { parameters: { score_threshold: 0.4 } });
      for (let k = 0; k < 6; k++) {
        const r = scene(5, 4, k * 0.25);
        const id = stream.send({ image: { datatype: 'BYTES', shape: [1], data: [await encodeScene(r, 'jpeg')] } });
        frames.set(id, r.objects);
      }
      stream.close();
      let results = 0;
      let outcomes = 0;
      for await (const o of stream) {
        outcomes++;
        if (o.kind === 'error') assert.fail(`${o.id}: ${o.error.code} ${o.error.message}`);
        if (o.kind !== 'result') continue;
        results++;
        assertMatches([...o.result.outputs], frames.get(o.id) ?? []);
      }
      assert.equal(outcomes, 6, 'every frame has exactly one outcome');
      assert.ok(results >= 1);
      assert.equal(results + stream.stats.dropped, 6);
    } finally {
      client.close();
    }
  });
});
