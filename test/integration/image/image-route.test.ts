/**
 * POST /v2/models/{m}/image and the KServe tensor form of image requests, on a real server with the bundled
 * `digits` and `shapes` models: body kinds (raw image, multipart form, JSON base64 and data URLs), options, the
 * versioned route, results that match the scene's known shapes, and clear 4xx errors for bad images and bodies.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { boxIou } from '../../../src/postprocess/geometry.ts';
import { makeRepository, postJson, request, startTestServer } from '../../helpers/server.ts';
import { bytes, digitPng, encodeScene, heldOutDigits, scene } from './image-helpers.ts';

let server: RunningServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

interface Classes {
  model_name: string;
  model_version: string;
  type: string;
  image: { width: number; height: number; format: string };
  classes: { index: number; label: string; score: number }[];
  timing: Record<string, number>;
}
interface Detections {
  type: string;
  detections: { box: [number, number, number, number]; class_id: number; label: string; score: number }[];
}

const url = (path: string): string => `${server.httpUrl}${path}`;
const post = (path: string, body: Uint8Array<ArrayBuffer> | string, contentType?: string) =>
  request(url(path), { method: 'POST', ...(contentType === undefined ? {} : { headers: { 'content-type': contentType } }), body });

const digits = heldOutDigits();
const firstDigit = async (): Promise<{ png: Uint8Array<ArrayBuffer>; label: number }> => ({
  png: await digitPng(digits.images[0] ?? ''),
  label: digits.labels[0] ?? -1,
});

async function expectError(res: { status: number; json: () => unknown }, status: number, code: string, message: RegExp): Promise<void> {
  assert.equal(res.status, status);
  const body = res.json() as { error: string; code: string };
  assert.equal(body.code, code);
  assert.match(body.error, message);
}

describe('POST /v2/models/{m}/image', () => {
  test('a raw PNG digit is classified: top-3 classes with labels, probabilities, image info and timings', async () => {
    const { png, label } = await firstDigit();
    const res = await post('/v2/models/digits/image', png, 'image/png');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const body = res.json() as Classes;
    assert.equal(body.type, 'classification');
    assert.equal(body.model_name, 'digits');
    assert.equal(body.model_version, '1');
    assert.deepEqual(body.image, { width: 8, height: 8, format: 'png' });
    assert.equal(body.classes.length, 3);
    assert.equal(body.classes[0]?.label, String(label));
    assert.ok(body.classes.every((c, i) => i === 0 || c.score <= (body.classes[i - 1]?.score ?? 1)));
    assert.ok(body.classes.reduce((s, c) => s + c.score, 0) <= 1 + 1e-6);
    assert.ok(body.timing.decode_us! >= 0 && body.timing.infer_us! > 0);
  });

  test('a JPEG scene is answered with boxes that match its shapes, in the original image coordinates', async () => {
    const r = scene(7, 4);
    const res = await post('/v2/models/shapes/image', await encodeScene(r, 'jpeg'), 'image/jpeg');
    assert.equal(res.status, 200);
    const body = res.json() as Detections;
    assert.equal(body.type, 'detection');
    assert.equal(body.detections.length, r.objects.length);
    for (const o of r.objects) {
      const match = body.detections.find((d) => d.class_id === o.cls && boxIou(d.box, o.box) > 0.7);
      assert.ok(match, `no detection for the ${o.label} at ${o.box.map((v) => v.toFixed(0)).join(',')}: ${JSON.stringify(body.detections)}`);
      assert.equal(match.label, o.label);
      assert.ok(match.score >= 0.3 && match.score <= 1);
    }
  });

  test('multipart/form-data with an image part and option fields', async () => {
    const { png, label } = await firstDigit();
    const form = new FormData();
    form.set('top_k', '5');
    form.set('image', new Blob([png], { type: 'image/png' }), 'digit.png');
    const res = await request(url('/v2/models/digits/image'), { method: 'POST', body: form });
    assert.equal(res.status, 200);
    const body = res.json() as Classes;
    assert.equal(body.classes.length, 5);
    assert.equal(body.classes[0]?.label, String(label));
    // a form whose only file has another name
    const other = new FormData();
    other.set('upload', new Blob([png], { type: 'image/png' }), 'x.png');
    assert.equal((await request(url('/v2/models/digits/image'), { method: 'POST', body: other })).status, 200);
  });

  test('JSON with base64 or a data: URL, options in the body or the query string', async () => {
    const { png, label } = await firstDigit();
    const b64 = Buffer.from(png).toString('base64');
    const plain = await postJson(url('/v2/models/digits/image'), { image: b64, top_k: 1 });
    assert.equal(plain.status, 200);
    assert.deepEqual(
      (plain.json() as Classes).classes.map((c) => c.label),
      [String(label)],
    );
    const dataUrl = await postJson(url('/v2/models/digits/image?top_k=2'), { image: `data:image/png;base64,${b64}` });
    assert.equal((dataUrl.json() as Classes).classes.length, 2);
  });

  test('the versioned route and the request id header', async () => {
    const { png } = await firstDigit();
    const res = await request(url('/v2/models/digits/versions/1/image'), {
      method: 'POST',
      headers: { 'content-type': 'image/png', 'x-request-id': 'req-42' },
      body: png,
    });
    assert.equal(res.status, 200);
    assert.equal((res.json() as { id?: string }).id, 'req-42');
    await expectError(await post('/v2/models/digits/versions/9/image', png, 'image/png'), 404, 'VERSION_NOT_FOUND', /no version '9'/);
  });

  test('detection options: a high score threshold and max_detections narrow the answer', async () => {
    const jpeg = await encodeScene(scene(2, 4), 'jpeg');
    const all = (await post('/v2/models/shapes/image?score_threshold=0.05', jpeg, 'image/jpeg')).json() as Detections;
    const one = (await post('/v2/models/shapes/image?max_detections=1', jpeg, 'image/jpeg')).json() as Detections;
    const none = (await post('/v2/models/shapes/image?score_threshold=1', jpeg, 'image/jpeg')).json() as Detections;
    assert.ok(all.detections.length >= 4);
    assert.equal(one.detections.length, 1);
    assert.equal(one.detections[0]?.score, Math.max(...all.detections.map((d) => d.score)));
    assert.equal(none.detections.length, 0);
  });

  test('bad images and bodies are 400 with a message naming the problem', async () => {
    const { png } = await firstDigit();
    const jpeg = bytes(await sharp(png).jpeg().toBuffer());
    await expectError(await post('/v2/models/digits/image', jpeg.slice(0, 40), 'image/jpeg'), 400, 'BAD_DATA', /^corrupt jpeg image: /);
    await expectError(
      await post('/v2/models/digits/image', bytes(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;')), 'image/gif'),
      400,
      'BAD_DATA',
      /unsupported image format 'gif' \(model 'digits' accepts jpeg, png, webp\)/,
    );
    await expectError(await post('/v2/models/digits/image', 'just text', 'image/png'), 400, 'BAD_DATA', /not a supported image/);
    await expectError(await post('/v2/models/digits/image', new Uint8Array(0), 'image/png'), 400, 'BAD_DATA', /empty/);
    await expectError(await post('/v2/models/digits/image', 'hello', 'text/plain'), 400, 'BAD_REQUEST', /unsupported Content-Type 'text\/plain'/);
    await expectError(await postJson(url('/v2/models/digits/image'), { picture: 'x' }), 400, 'BAD_REQUEST', /no 'image' field/);
    await expectError(await postJson(url('/v2/models/digits/image'), { image: 'not base64!' }), 400, 'BAD_REQUEST', /not valid base64/);
    await expectError(await postJson(url('/v2/models/digits/image'), { image: 42 }), 400, 'BAD_REQUEST', /must be a base64 string, got number/);
    await expectError(await post('/v2/models/digits/image', '{"image": ', 'application/json'), 400, 'BAD_JSON', /./);
    await expectError(
      await post('/v2/models/digits/image?top_k=0', png, 'image/png'),
      400,
      'BAD_PARAMETER',
      /top_k must be an integer in \[1, 10000\], got 0/,
    );
    await expectError(
      await post('/v2/models/digits/image?score_threshold=abc', png, 'image/png'),
      400,
      'BAD_PARAMETER',
      /score_threshold must be a number/,
    );
    const noImage = new FormData();
    noImage.set('top_k', '1');
    await expectError(await request(url('/v2/models/digits/image'), { method: 'POST', body: noImage }), 400, 'BAD_REQUEST', /no image part/);
    await expectError(await post('/v2/models/digits/image', 'x', 'multipart/form-data; boundary=abc'), 400, 'BAD_REQUEST', /multipart\/form-data/);
    await expectError(await post('/v2/models/mlp/image', png, 'image/png'), 400, 'BAD_REQUEST', /model 'mlp' takes no images/);
    await expectError(await post('/v2/models/nope/image', png, 'image/png'), 404, 'MODEL_NOT_FOUND', /unknown model 'nope'/);
    // the server keeps serving
    assert.equal((await post('/v2/models/digits/image', png, 'image/png')).status, 200);
  });

  test('a large random-looking image body is not mistaken for JSON by the request limits', async () => {
    const noise = Buffer.from(Array.from({ length: 512 * 512 * 3 }, (_, i) => (i * 2654435761) >>> 24));
    const jpeg = bytes(
      await sharp(noise, { raw: { width: 512, height: 512, channels: 3 } })
        .jpeg({ quality: 100 })
        .toBuffer(),
    );
    assert.ok(jpeg.length > 300_000);
    assert.equal((await post('/v2/models/shapes/image', jpeg, 'image/jpeg')).status, 200);
  });
});

describe('image requests in the KServe tensor form (POST /infer with a BYTES input)', () => {
  test('a detection model answers boxes, scores, classes and labels tensors', async () => {
    const r = scene(3, 4);
    const jpeg = await encodeScene(r, 'jpeg');
    const res = await postJson(url('/v2/models/shapes/infer'), {
      id: 'frame-1',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], data: [Buffer.from(jpeg).toString('latin1')] }],
      parameters: { score_threshold: 0.5 },
    });
    // JSON BYTES data are UTF-8 strings, which cannot carry arbitrary bytes; the binary extension can:
    assert.equal(res.status, 400);
    const header = JSON.stringify({
      id: 'frame-1',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], parameters: { binary_data_size: jpeg.length + 4 } }],
      parameters: { score_threshold: 0.5 },
    });
    const len = Buffer.alloc(4);
    len.writeUInt32LE(jpeg.length);
    const body = bytes(Buffer.concat([Buffer.from(header), len, jpeg]));
    const bin = await request(url('/v2/models/shapes/infer'), {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(header.length) },
      body,
    });
    assert.equal(bin.status, 200);
    const out = bin.json() as {
      id: string;
      model_name: string;
      outputs: { name: string; datatype: string; shape: number[]; data: (number | string)[] }[];
    };
    assert.equal(out.id, 'frame-1');
    assert.equal(out.model_name, 'shapes');
    const byName = new Map(out.outputs.map((o) => [o.name, o]));
    const n = r.objects.length;
    assert.deepEqual(byName.get('boxes')?.shape, [n, 4]);
    assert.equal(byName.get('boxes')?.datatype, 'FP32');
    assert.deepEqual(byName.get('scores')?.shape, [n]);
    assert.equal(byName.get('classes')?.datatype, 'INT32');
    assert.deepEqual([...(byName.get('labels')?.data ?? [])].sort(), r.objects.map((o) => o.label).sort());
    const boxes = byName.get('boxes')?.data as number[];
    for (const o of r.objects) {
      assert.ok(
        Array.from({ length: n }, (_, i) => boxes.slice(i * 4, i * 4 + 4)).some((b) => boxIou(b, o.box) > 0.7),
        `no box for the ${o.label}`,
      );
    }
  });

  test('a classification model answers scores, classes and labels; requested outputs are honoured', async () => {
    const { png, label } = await firstDigit();
    const header = JSON.stringify({
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1, 1], parameters: { binary_data_size: png.length + 4 } }],
      outputs: [{ name: 'labels' }],
      parameters: { top_k: 2 },
    });
    const len = Buffer.alloc(4);
    len.writeUInt32LE(png.length);
    const res = await request(url('/v2/models/digits/infer'), {
      method: 'POST',
      headers: { 'inference-header-content-length': String(header.length) },
      body: bytes(Buffer.concat([Buffer.from(header), len, png])),
    });
    assert.equal(res.status, 200);
    const out = res.json() as { outputs: { name: string; shape: number[]; data: string[] }[] };
    assert.deepEqual(
      out.outputs.map((o) => o.name),
      ['labels'],
    );
    assert.deepEqual(out.outputs[0]?.shape, [2]);
    assert.equal(out.outputs[0]?.data[0], String(label));
  });

  test('a tensor request with the model input datatype still goes to the model unchanged', async () => {
    const res = await postJson(url('/v2/models/digits/infer'), {
      inputs: [{ name: 'image', datatype: 'FP32', shape: [1, 1, 28, 28], data: new Array(784).fill(0) }],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      (res.json() as { outputs: { name: string; shape: number[] }[] }).outputs.map((o) => [o.name, o.shape]),
      [['logits', [1, 10]]],
    );
  });
});

describe('image sections in model configs', () => {
  test('a preprocess section that does not fit the model fails its load with the reason', async () => {
    const repo = await makeRepository({
      bad: {
        from: 'digits',
        config: {
          max_batch_size: 4,
          input: [{ name: 'image', data_type: 'TYPE_FP32', dims: [1, 28, 28] }],
          output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }],
          preprocess: { color: 'rgb' },
        },
      },
      good: { from: 'digits' },
    });
    const s = await startTestServer({ modelRepository: [repo.dir], strictReadiness: false });
    try {
      const index = s.core.repositoryIndex(false);
      const bad = index.find((e) => e.name === 'bad');
      assert.equal(bad?.state, 'UNAVAILABLE');
      assert.match(bad?.reason ?? '', /preprocess.color 'rgb' gives 3 channel\(s\) but input 'image' has 1/);
      assert.equal(index.find((e) => e.name === 'good')?.state, 'READY');
    } finally {
      await s.close();
      await repo.cleanup();
    }
  });
});
