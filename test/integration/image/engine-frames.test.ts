/**
 * JPEG frames travel undecoded to an engine that decodes on its own device (tensor/frames.ts, docs/image.md "Frames
 * on the engine's device"), from every front end and, under `--workers 2`, from every worker: the owner's scheduler
 * batches the encoded frames and the engine decodes them into its input. CI has no GPU, so the engine is
 * onnxruntime with the CPU reference decoder standing in for nvJPEG (test/helpers/frame-engine.ts: the same contract
 * and arithmetic), recording every frame it receives. PNG and CMYK JPEGs take the CPU path before the engine; a
 * corrupt JPEG fails its own request only, while the rest of its batch is answered.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { startServer, type RunningServer } from '../../../src/app/rtserve-server.ts';
import { createNodeClient } from '../../../src/client/node.ts';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import type { ServerConfigInput } from '../../../src/config/server-config.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { bundledModelRepository } from '../../../src/util/package-root.ts';
import { boxIou } from '../../../src/postprocess/geometry.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { frameDecodingEngine, type FrameEngineLog } from '../../helpers/frame-engine.ts';
import { makeRepository } from '../../helpers/server.ts';
import { encodeScene, grpcJpegInfer, scene } from './image-helpers.ts';

const text = new TextDecoder();
type Truth = readonly { label: string; box: readonly number[] }[];

function assertBoxes(out: readonly Tensor[], truth: Truth): void {
  const byName = new Map(out.map((t) => [t.name, t]));
  const boxes = byName.get('boxes')?.data as Float32Array;
  const labels = (byName.get('labels')?.data as Uint8Array[]).map((b) => text.decode(b));
  assert.equal(labels.length, truth.length, `labels ${labels.join(',')}`);
  for (const t of truth) {
    assert.ok(
      labels.some((l, i) => l === t.label && boxIou([...boxes.subarray(i * 4, i * 4 + 4)], t.box) > 0.7),
      `no ${t.label}`,
    );
  }
}

async function postImage(url: string, body: Uint8Array, type: string): Promise<Response> {
  return fetch(`${url}/v2/models/shapes/image`, { method: 'POST', headers: { 'content-type': type, connection: 'close' }, body: Buffer.from(body) });
}

/** The four front ends, each with one JPEG scene: POST /image, REST infer BYTES, gRPC ModelInfer, a WS frame stream. */
async function everyFrontEnd(server: RunningServer): Promise<number> {
  let sent = 0;
  const r1 = scene(21, 4);
  const res = await postImage(server.httpUrl, await encodeScene(r1, 'jpeg'), 'image/jpeg');
  assert.equal(res.status, 200, await res.clone().text());
  const body = (await res.json()) as { detections: { box: number[]; label: string }[] };
  for (const o of r1.objects)
    assert.ok(
      body.detections.some((d) => d.label === o.label && boxIou(d.box, o.box) > 0.7),
      `no ${o.label}`,
    );
  sent++;

  const client = createNodeClient({ url: server.httpUrl });
  try {
    const r2 = scene(22, 4);
    const out = await client.infer(
      'shapes',
      { image: { datatype: 'BYTES', shape: [1], data: [await encodeScene(r2, 'jpeg')] } },
      { parameters: { score_threshold: 0.4 } },
    );
    assertBoxes(out.outputs, r2.objects);
    sent++;
    const stream = client.frameStream('shapes', 'cam', { parameters: { score_threshold: 0.4 } });
    const truth = new Map<string, Truth>();
    const r3 = scene(23, 4);
    truth.set(stream.send({ image: { datatype: 'BYTES', shape: [1], data: [await encodeScene(r3, 'jpeg')] } }), r3.objects);
    stream.close();
    for await (const o of stream) {
      if (o.kind === 'error') assert.fail(`${o.id}: ${o.error.code} ${o.error.message}`);
      if (o.kind === 'result') assertBoxes(o.result.outputs, truth.get(o.id) ?? []);
    }
    sent++;
  } finally {
    client.close();
  }

  assert.ok(server.grpcAddress);
  const r4 = scene(24, 4);
  assertBoxes(await grpcJpegInfer(server.grpcAddress, 'shapes', 'image', await encodeScene(r4, 'jpeg'), 0.4), r4.objects);
  sent++;
  return sent;
}

/** Images the device must not get: a PNG and a CMYK JPEG, each answered through the CPU path. */
async function cpuImages(server: RunningServer): Promise<void> {
  const png = await encodeScene(scene(25, 4), 'png');
  assert.equal((await postImage(server.httpUrl, png, 'image/png')).status, 200);
  const r = scene(26, 4);
  const cmyk = await sharp(Buffer.from(r.pixels), { raw: { width: r.width, height: r.height, channels: 3 } })
    .toColourspace('cmyk')
    .jpeg()
    .toBuffer();
  const res = await postImage(server.httpUrl, new Uint8Array(cmyk), 'image/jpeg');
  assert.equal(res.status, 200, await res.clone().text());
}

async function start(log: FrameEngineLog, overrides: Partial<ServerConfigInput>): Promise<RunningServer> {
  const config = await loadServerConfig({
    flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, logLevel: 'silent', exitTimeoutSecs: 10, drainQuietMs: 0, ...overrides },
  });
  return startServer({ config, logger: silentLogger(), engine: frameDecodingEngine(log) });
}

for (const workers of [1, 2]) {
  describe(`--workers ${workers}: JPEG frames reach the engine's decoder undecoded`, () => {
    const log: FrameEngineLog = { frames: [], batches: [] };
    let server: RunningServer;
    before(async () => {
      server = await start(log, { imageDecode: 'auto', workers });
    });
    after(() => server.close());

    test('every front end: each JPEG is decoded by the engine, boxes match the scene', async () => {
      log.frames.length = 0;
      const sent = await everyFrontEnd(server);
      assert.equal(log.frames.length, sent, `${log.frames.length} of ${sent} JPEGs reached the engine's decoder`);
      assert.ok(log.frames.every((f) => f.width === 640 && f.height === 480 && f.resizeWidth === 160 && f.resizeHeight === 120));
    });

    test('a PNG and a CMYK JPEG take the CPU path: the engine gets tensors, not frames', async () => {
      log.frames.length = 0;
      await cpuImages(server);
      assert.equal(log.frames.length, 0);
    });

    test('a frame with nothing to detect is answered with empty boxes, over REST and a WS frame stream', async () => {
      log.frames.length = 0;
      const blank = new Uint8Array(
        await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 128, g: 128, b: 128 } } })
          .jpeg()
          .toBuffer(),
      );
      const client = createNodeClient({ url: server.httpUrl });
      try {
        const input = { image: { datatype: 'BYTES' as const, shape: [1], data: [blank] } };
        const rest = await client.infer('shapes', input);
        assert.deepEqual(rest.output('boxes').shape, [0, 4]);
        const stream = client.frameStream('shapes', 'empty-cam');
        stream.send(input);
        stream.close();
        for await (const o of stream) {
          assert.equal(o.kind, 'result', o.kind === 'error' ? o.error.message : o.kind);
          if (o.kind === 'result') assert.deepEqual(o.result.output('scores').shape, [0]);
        }
      } finally {
        client.close();
      }
      assert.equal(log.frames.length, 2);
    });
  });
}

describe("--image-decode cpu: the engine's frame input is not used", () => {
  test('a JPEG is decoded before the engine', async () => {
    const log: FrameEngineLog = { frames: [], batches: [] };
    const server = await start(log, { imageDecode: 'cpu' });
    try {
      assert.equal((await postImage(server.httpUrl, await encodeScene(scene(27, 4), 'jpeg'), 'image/jpeg')).status, 200);
      assert.equal(log.frames.length, 0);
    } finally {
      await server.close();
    }
  });
});

describe('a corrupt frame fails its own request; the rest of its batch is answered', () => {
  test('four requests in one batch of four, one JPEG with its scan data cut', async () => {
    const log: FrameEngineLog = { frames: [], batches: [] };
    // One batch of exactly four: the preferred size goes at once; nothing else would let the batch go for 30 s.
    const repo = await makeRepository({
      shapes: {
        from: 'shapes',
        config: await import('../../../models/shapes/config.json', { with: { type: 'json' } }).then((m) => ({
          ...m.default,
          dynamic_batching: { preferred_batch_size: [4], max_queue_delay_microseconds: 30_000_000 },
        })),
      },
    });
    await copyFile(join(bundledModelRepository(), 'shapes', 'labels.txt'), join(repo.dir, 'shapes', 'labels.txt'));
    const server = await start(log, { imageDecode: 'auto', modelRepository: [repo.dir] });
    try {
      const good = await Promise.all([31, 32, 33].map(async (s) => encodeScene(scene(s, 4), 'jpeg')));
      const whole = await encodeScene(scene(34, 4), 'jpeg');
      // Headers intact (the CPU reads them and routes the frame to the device), entropy-coded data cut short.
      const cut = whole.subarray(0, Math.floor(whole.length / 3));
      const answers = await Promise.all([...good, cut].map((b) => postImage(server.httpUrl, b, 'image/jpeg')));
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200, 400],
      );
      const err = (await answers[3]?.json()) as { error: string };
      assert.match(err.error, /corrupt JPEG/);
      assert.deepEqual(log.batches, [4]);
    } finally {
      await server.close();
      await repo.cleanup();
    }
  });
});
