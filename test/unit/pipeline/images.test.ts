import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import type { InferResponse } from '../../../src/api/types.ts';
import type { InferenceApi } from '../../../src/api/inference-api.ts';
import { ImageLayer } from '../../../src/pipeline/images.ts';
import { compose } from '../../../src/pipeline/layer.ts';
import type { ImageDecoding } from '../../../src/preprocess/frame-batcher.ts';
import { imageToTensor } from '../../../src/preprocess/image-pipeline.ts';
import { startTestServer } from '../../helpers/server.ts';
import { digitPng, heldOutDigits } from '../../integration/image/image-helpers.ts';

let server: RunningServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const decoder = new TextDecoder();

/** The image layer alone, folded around the core. */
function withImages(
  core: InferenceApi,
  decoding?: ImageDecoding,
): { infer: InferenceApi['infer']; inferStream: NonNullable<InferenceApi['inferStream']> } {
  const calls = compose([new ImageLayer(core, decoding)], core);
  return { infer: calls.infer, inferStream: calls.stream };
}

describe('ImageLayer', () => {
  test('infer runs an encoded image in a BYTES input through the pipeline', async () => {
    const api = withImages(server.core);
    const { images, labels } = heldOutDigits();
    const png = await digitPng(images[3] ?? '');
    const res = await api.infer({
      model: 'digits',
      id: 'x',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], data: [png] }],
      parameters: { top_k: 1 },
    });
    assert.equal(res.id, 'x');
    const out = new Map(res.outputs.map((o) => [o.name, o]));
    assert.deepEqual(out.get('classes')?.shape, [1]);
    assert.equal((out.get('classes')?.data as Int32Array)[0], labels[3]);
    assert.equal(decoder.decode((out.get('labels')?.data as Uint8Array[])[0]), String(labels[3]));
  });

  test('inferStream answers an image request once; tensor requests pass through unchanged', async () => {
    const api = withImages(server.core);
    const png = await digitPng(heldOutDigits().images[0] ?? '');
    const stream = api.inferStream({
      model: 'digits',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], data: [png] }],
    });
    const all: InferResponse[] = [];
    for await (const r of stream) all.push(r);
    assert.equal(all.length, 1);
    assert.deepEqual(
      all[0]?.outputs.map((o) => o.name),
      ['scores', 'classes', 'labels'],
    );

    const plain = await api.infer({
      model: 'simple',
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16).fill(2) },
        { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16).fill(1) },
      ],
    });
    assert.deepEqual([...(plain.outputs.find((o) => o.name === 'OUTPUT0')?.data as Int32Array)], new Array(16).fill(3));
  });

  test('images become tensors through the ImageDecoding it was given (the device path), for both forms of a request', async () => {
    const seen: string[] = [];
    const decoding: ImageDecoding = {
      toTensor: (bytes, spec, model) => {
        seen.push(model);
        return imageToTensor(bytes, spec);
      },
    };
    const api = withImages(server.core, decoding);
    const { images, labels } = heldOutDigits();
    const png = await digitPng(images[5] ?? '');
    const res = await api.infer({
      model: 'digits',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], data: [png] }],
      parameters: { top_k: 1 },
    });
    assert.equal((res.outputs.find((o) => o.name === 'classes')?.data as Int32Array)[0], labels[5]);
    const layer = new ImageLayer(server.core, decoding);
    const result = await layer.image((r) => server.core.infer(r))({ model: 'digits', bytes: png, id: 'img-1', topK: 2 });
    assert.equal(result.type, 'classification');
    assert.equal(result.id, 'img-1');
    assert.equal(result.type === 'classification' ? result.classes[0]?.index : undefined, labels[5]);
    assert.equal(result.type === 'classification' ? result.classes.length : undefined, 2);
    assert.deepEqual(seen, ['digits', 'digits']);
  });
});

describe('RequestPipeline', () => {
  test('metadata calls are the core’s; infer, inferStream and inferImage run the layers', async () => {
    const api = server.api;
    assert.equal(api.isReady(), server.core.isReady());
    assert.equal(api.isLive(), server.core.isLive());
    assert.deepEqual(api.modelMetadata('digits'), server.core.modelMetadata('digits'));
    assert.equal(api.modelConfig('shapes'), server.core.modelConfig('shapes'));
    assert.deepEqual(api.repositoryIndex(true), server.core.repositoryIndex(true));
    const png = await digitPng(heldOutDigits().images[1] ?? '');
    const viaInfer = await api.infer({ model: 'digits', inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], data: [png] }] });
    const viaImage = await api.inferImage?.({ model: 'digits', bytes: png });
    assert.ok(viaImage?.type === 'classification');
    assert.deepEqual(
      [...(viaInfer.outputs.find((o) => o.name === 'classes')?.data as Int32Array)],
      viaImage.classes.map((c) => c.index),
    );
  });
});
