/**
 * A front-end worker's pipeline (src/pipeline/front-pipeline.ts) in front of a real owner API (a server whose engine
 * takes encoded frames: the device-decoder stand-in, test/helpers/frame-engine.ts): images of a model whose engine
 * decodes frames are placed in the front and reach the owner as frame requests, their answers turned into boxes in
 * the front; everything else reaches the owner exactly as it came.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InferenceApi } from '../../../src/api/inference-api.ts';
import type { ImageRequest } from '../../../src/api/image-types.ts';
import type { InferRequest } from '../../../src/api/types.ts';
import { startServer, type RunningServer } from '../../../src/app/rtserve-server.ts';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { FrontPipeline } from '../../../src/pipeline/front-pipeline.ts';
import { boxIou } from '../../../src/postprocess/geometry.ts';
import { frameDecodingEngine, type FrameEngineLog } from '../../helpers/frame-engine.ts';
import { digitPng, encodeScene, heldOutDigits, scene } from '../../integration/image/image-helpers.ts';

const log: FrameEngineLog = { frames: [], batches: [] };
let server: RunningServer;
before(async () => {
  const config = await loadServerConfig({
    flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, logLevel: 'silent', imageDecode: 'auto', exitTimeoutSecs: 10 },
  });
  server = await startServer({ config, logger: silentLogger(), engine: frameDecodingEngine(log) });
});
after(() => server.close());

/** The owner's API, recording every inference call that reaches it. */
function recordingOwner(): { owner: InferenceApi; infers: InferRequest[]; images: ImageRequest[] } {
  const api = server.api;
  const infers: InferRequest[] = [];
  const images: ImageRequest[] = [];
  const owner: InferenceApi = Object.assign(Object.create(api) as InferenceApi, {
    infer: (r: InferRequest) => {
      infers.push(r);
      return api.infer(r);
    },
    inferImage: (r: ImageRequest) => {
      images.push(r);
      return (api.inferImage as NonNullable<InferenceApi['inferImage']>)(r);
    },
  });
  return { owner, infers, images };
}

describe('FrontPipeline', () => {
  test('a JPEG for a frame-decoding engine reaches the owner as a placed frame; its boxes are made in the front', async () => {
    const { owner, infers } = recordingOwner();
    const front = new FrontPipeline(owner);
    const r = scene(41, 4);
    log.frames.length = 0;
    const res = await front.infer({
      model: 'shapes',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], data: [await encodeScene(r, 'jpeg')] }],
    });
    assert.equal(infers.length, 1);
    assert.deepEqual(infers[0]?.frames, [{ width: 640, height: 480, resizeWidth: 160, resizeHeight: 120, offsetX: 0, offsetY: 0 }]);
    assert.equal(log.frames.length, 1, 'the engine decoded the frame');
    const boxes = res.outputs.find((o) => o.name === 'boxes')?.data as Float32Array;
    const labels = (res.outputs.find((o) => o.name === 'labels')?.data as Uint8Array[]).map((b) => new TextDecoder().decode(b));
    for (const o of r.objects)
      assert.ok(
        labels.some((l, i) => l === o.label && boxIou([...boxes.subarray(i * 4, i * 4 + 4)], o.box) > 0.7),
        `no ${o.label}`,
      );
  });

  test('the image form (POST /image) of a frame-decoding model runs in the front; of any other model, in the owner', async () => {
    const { owner, infers, images } = recordingOwner();
    const front = new FrontPipeline(owner);
    const shapes = await front.inferImage({ model: 'shapes', bytes: await encodeScene(scene(42, 4), 'jpeg') });
    assert.equal(shapes.type, 'detection');
    assert.equal(images.length, 0);
    assert.ok(infers[0]?.frames !== undefined);
    const { images: digits, labels } = heldOutDigits();
    const digit = await front.inferImage({ model: 'digits', bytes: await digitPng(digits[2] ?? ''), topK: 1 });
    assert.equal(images.length, 1, 'digits (a 1-channel model its engine takes as tensors) went to the owner whole');
    assert.equal(digit.type === 'classification' ? digit.classes[0]?.index : undefined, labels[2]);
  });

  test('a PNG for a frame-decoding model and every tensor request cross as they came', async () => {
    const { owner, infers } = recordingOwner();
    const front = new FrontPipeline(owner);
    const png = await encodeScene(scene(43, 4), 'png');
    const request = { model: 'shapes', inputs: [{ name: 'image', datatype: 'BYTES' as const, shape: [1], data: [png] }] };
    log.frames.length = 0;
    await front.infer(request);
    // The front decoded the PNG on the CPU (a device decodes only JPEG): a tensor, not a frame, reached the owner.
    assert.equal(infers[0]?.frames, undefined);
    assert.equal(infers[0]?.inputs[0]?.datatype, 'FP32');
    assert.equal(log.frames.length, 0);
    const tensor = {
      model: 'simple',
      inputs: [
        { name: 'INPUT0', datatype: 'INT32' as const, shape: [1, 16], data: new Int32Array(16) },
        { name: 'INPUT1', datatype: 'INT32' as const, shape: [1, 16], data: new Int32Array(16) },
      ],
    };
    await front.infer(tensor);
    assert.equal(infers[1], tensor);
  });
});
