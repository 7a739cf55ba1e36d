import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import type { InferResponse } from '../../../src/api/types.ts';
import { withImageRequests } from '../../../src/pipeline/images.ts';
import { startTestServer } from '../../helpers/server.ts';
import { digitPng, heldOutDigits } from '../../integration/image/image-helpers.ts';

let server: RunningServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const decoder = new TextDecoder();

describe('withImageRequests', () => {
  test('infer runs an encoded image in a BYTES input through the pipeline', async () => {
    const api = withImageRequests(server.core);
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
    const api = withImageRequests(server.core);
    const png = await digitPng(heldOutDigits().images[0] ?? '');
    const stream = (api as unknown as { inferStream: (r: unknown) => AsyncIterable<InferResponse> }).inferStream({
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

  test('every other method is the wrapped API’s', () => {
    const api = withImageRequests(server.core);
    assert.equal(api.isReady(), server.core.isReady());
    assert.deepEqual(api.modelMetadata('digits'), server.core.modelMetadata('digits'));
    assert.equal(api.modelConfig('shapes'), server.core.modelConfig('shapes'));
  });
});
