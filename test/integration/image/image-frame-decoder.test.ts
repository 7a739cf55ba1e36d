/**
 * The server's image requests through a device frame decoder (server setting imageDecode, issue #19) on every front
 * end: POST /v2/models/{m}/image, KServe BYTES over REST and gRPC, a WebSocket frame stream. CI has no GPU, so the
 * server is given the CPU reference decoder (the same contract and arithmetic as the nvJPEG path; recorded here to
 * see which frames reached it). On the GPU machine the same server uses the addon's decoder.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type RunningServer } from '../../../src/app/rtserve-server.ts';
import { createNodeClient } from '../../../src/client/node.ts';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import type { ServerConfigInput } from '../../../src/config/server-config.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { boxIou } from '../../../src/postprocess/geometry.ts';
import { referenceFrameDecoder, type FrameDecoder, type FrameItem } from '../../../src/preprocess/frame-decoder.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { encodeScene, grpcJpegInfer, scene } from './image-helpers.ts';

const seen: FrameItem[] = [];
const recorded: FrameDecoder = {
  name: 'recorded-reference',
  decodesJpeg: true,
  decode: (items, spec) => {
    seen.push(...items);
    return referenceFrameDecoder.decode(items, spec);
  },
};

async function start(overrides: Partial<ServerConfigInput>): Promise<RunningServer> {
  const config = await loadServerConfig({
    flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, logLevel: 'silent', exitTimeoutSecs: 10, drainQuietMs: 0, ...overrides },
  });
  return startServer({ config, logger: silentLogger(), frameDecoder: recorded });
}

const text = new TextDecoder();
type Truth = readonly { label: string; box: readonly number[] }[];

function assertTensorsMatch(out: readonly Tensor[], truth: Truth): void {
  const byName = new Map(out.map((t) => [t.name, t]));
  const boxes = byName.get('boxes')?.data as Float32Array;
  const labels = (byName.get('labels')?.data as Uint8Array[]).map((b) => text.decode(b));
  assert.equal(labels.length, truth.length, `labels ${labels.join(',')}`);
  for (const t of truth)
    assert.ok(
      labels.some((l, i) => l === t.label && boxIou([...boxes.subarray(i * 4, i * 4 + 4)], t.box) > 0.7),
      `no ${t.label}`,
    );
}

describe("imageDecode 'gpu': every front end's JPEG frames go through the frame decoder", () => {
  let server: RunningServer;
  before(async () => {
    server = await start({ imageDecode: 'gpu' });
  });
  after(() => server.close());

  test('POST /image, REST infer with a BYTES input, gRPC ModelInfer and a WebSocket frame stream: boxes match each scene', async () => {
    seen.length = 0;
    const r1 = scene(7, 4);
    const res = await fetch(`${server.httpUrl}/v2/models/shapes/image`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: await encodeScene(r1, 'jpeg'),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { detections: { box: number[]; label: string }[] };
    assert.equal(body.detections.length, r1.objects.length);
    for (const o of r1.objects)
      assert.ok(
        body.detections.some((d) => d.label === o.label && boxIou(d.box, o.box) > 0.7),
        `no ${o.label}`,
      );

    const client = createNodeClient({ url: server.httpUrl });
    try {
      const r2 = scene(4, 4);
      const out = await client.infer(
        'shapes',
        { image: { datatype: 'BYTES', shape: [1], data: [await encodeScene(r2, 'jpeg')] } },
        { parameters: { score_threshold: 0.4 } },
      );
      assertTensorsMatch(out.outputs, r2.objects);

      const stream = client.frameStream('shapes', 'cam', { parameters: { score_threshold: 0.4 } });
      const truth = new Map<string, Truth>();
      for (let k = 0; k < 3; k++) {
        const r = scene(5, 4, k * 0.25);
        truth.set(stream.send({ image: { datatype: 'BYTES', shape: [1], data: [await encodeScene(r, 'jpeg')] } }), r.objects);
      }
      stream.close();
      let results = 0;
      for await (const o of stream) {
        if (o.kind === 'error') assert.fail(`${o.id}: ${o.error.code} ${o.error.message}`);
        if (o.kind !== 'result') continue;
        results++;
        assertTensorsMatch(o.result.outputs, truth.get(o.id) ?? []);
      }
      assert.ok(results >= 1);
      assert.equal(results + stream.stats.dropped, 3);
    } finally {
      client.close();
    }

    assert.ok(server.grpcAddress);
    const r3 = scene(4, 4);
    assertTensorsMatch(await grpcJpegInfer(server.grpcAddress, 'shapes', 'image', await encodeScene(r3, 'jpeg'), 0.4), r3.objects);
    // REST image, REST infer, gRPC, and the stream's frames that were not dropped: all decoded by the frame decoder.
    assert.ok(seen.length >= 4, `${seen.length} frames reached the decoder`);
    assert.ok(seen.every((f) => f.encoded && f.width === 640 && f.height === 480));
  });

  test('a raw UINT8 [H, W, 3] camera frame over REST infer takes the same path as a JPEG; a wrong-sized one is BAD_DATA', async () => {
    seen.length = 0;
    const r = scene(4, 4);
    const client = createNodeClient({ url: server.httpUrl });
    try {
      const frame = { datatype: 'UINT8', shape: [r.height, r.width, 3], data: new Uint8Array(r.pixels) } as const;
      const out = await client.infer('shapes', { image: frame }, { parameters: { score_threshold: 0.4 } });
      assertTensorsMatch(out.outputs, r.objects);
      assert.deepEqual(
        seen.map((f) => [f.encoded, f.width, f.height]),
        [[false, 640, 480]],
      );
      const small = await client.infer('shapes', { image: { datatype: 'UINT8', shape: [1, 10, 10, 3], data: new Uint8Array(300) } });
      assert.ok(
        small.outputs.some((o) => o.name === 'boxes'),
        'a 10x10 frame is a frame too',
      );
      const bad = await fetch(`${server.httpUrl}/v2/models/shapes/infer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ inputs: [{ name: 'image', datatype: 'UINT8', shape: [20, 10, 3], data: new Array(300).fill(0) }] }),
      });
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as { error: string }).error, /600|300/);
    } finally {
      client.close();
    }
  });

  test('a PNG takes the CPU path; a corrupt JPEG is 400 BAD_DATA naming why, and the server goes on', async () => {
    seen.length = 0;
    const png = await encodeScene(scene(15, 4), 'png');
    const ok = await fetch(`${server.httpUrl}/v2/models/shapes/image`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: png });
    assert.equal(ok.status, 200);
    assert.equal(seen.length, 0, 'the PNG never reached the frame decoder');
    const jpeg = await encodeScene(scene(16, 4), 'jpeg');
    const bad = await fetch(`${server.httpUrl}/v2/models/shapes/image`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: jpeg.subarray(0, 100),
    });
    assert.equal(bad.status, 400);
    const err = (await bad.json()) as { error: string };
    assert.match(err.error, /corrupt jpeg image/);
    const again = await fetch(`${server.httpUrl}/v2/models/shapes/image`, { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: jpeg });
    assert.equal(again.status, 200);
  });
});

describe("imageDecode 'auto' and 'cpu': models on onnxruntime keep the CPU path", () => {
  for (const mode of ['auto', 'cpu'] as const) {
    test(`imageDecode '${mode}'`, async () => {
      const server = await start({ imageDecode: mode });
      try {
        seen.length = 0;
        const r = scene(17, 4);
        const res = await fetch(`${server.httpUrl}/v2/models/shapes/image`, {
          method: 'POST',
          headers: { 'content-type': 'image/jpeg' },
          body: await encodeScene(r, 'jpeg'),
        });
        assert.equal(res.status, 200);
        // A raw frame on the CPU path (sharp's raw input, then the same resize and conversion as a decoded image).
        const f = scene(4, 4);
        const client = createNodeClient({ url: server.httpUrl });
        try {
          const out = await client.infer(
            'shapes',
            { image: { datatype: 'UINT8', shape: [1, f.height, f.width, 3], data: new Uint8Array(f.pixels) } },
            { parameters: { score_threshold: 0.4 } },
          );
          assertTensorsMatch(out.outputs, f.objects);
        } finally {
          client.close();
        }
        assert.equal(seen.length, 0);
      } finally {
        await server.close();
      }
    });
  }
});
