import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InferenceApi } from '../../../src/api/inference-api.ts';
import type { InferRequest, InferResponse } from '../../../src/api/types.ts';
import { decodeInferResponse } from '../../../src/codec/kserve-client-codec.ts';
import { encodeInferResponse, responseOptionsFor } from '../../../src/codec/kserve-json.ts';
import { concatBytes } from '../../../src/codec/wire-tensor.ts';
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import { ClassificationLayer } from '../../../src/pipeline/classification.ts';
import { compose, type ComposedCalls } from '../../../src/pipeline/layer.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';

// The classification layer over a model that answers `probs` ([2, 4] per call, or one response per item when
// streamed). The layer needs infer, inferStream, modelConfig and outputLabels of the API it wraps; the rest of
// the InferenceApi is not reached.
const probs: Tensor = { name: 'probs', datatype: 'FP32', shape: [2, 4], data: new Float32Array([0.1, 0.6, 0.25, 0.05, 0.7, 0.1, 0.1, 0.1]) };
const other: Tensor = { name: 'other', datatype: 'INT32', shape: [2], data: new Int32Array([7, 8]) };

function model(maxBatchSize: number, labels?: readonly string[]): InferenceApi {
  const config = modelConfigSchema.parse({ name: 'm', max_batch_size: maxBatchSize });
  const respond = (): InferResponse => ({ model_name: 'm', model_version: '1', outputs: [probs, other] });
  const api = {
    infer: async (_r: InferRequest) => respond(),
    inferStream: (_r: InferRequest) =>
      (async function* two() {
        yield respond();
        yield respond();
      })(),
    modelConfig: () => config,
    outputLabels: (_m: string, _v: string, output: string) => (output === 'probs' ? labels : undefined),
  };
  return api as unknown as InferenceApi;
}

const ask = (n: number): InferRequest => ({
  model: 'm',
  inputs: [],
  outputs: [{ name: 'probs', parameters: { classification: n } }, { name: 'other' }],
});
const strings = (t: Tensor | undefined): string[] => (t?.data as Uint8Array[]).map((b) => new TextDecoder().decode(b));

/** The classification layer folded around `api`. */
const withClassification = (api: InferenceApi): ComposedCalls => compose([new ClassificationLayer(api)], api);

describe('ClassificationLayer (Triton classification extension, once for every front end)', () => {
  test('top-N per batch item as "value:index[:label]" BYTES; other outputs untouched', async () => {
    const r = await withClassification(model(8, ['cat', 'dog', 'bird'])).infer(ask(2));
    const [c, o] = r.outputs;
    assert.equal(c?.datatype, 'BYTES');
    assert.deepEqual(c?.shape, [2, 2]);
    // Index 3 has no label; ties keep the lower index first.
    assert.deepEqual(strings(c), ['0.600000:1:dog', '0.250000:2:bird', '0.700000:0:cat', '0.100000:1:dog']);
    assert.equal(o, other);
  });

  test('a model without batching classifies the whole tensor as one item', async () => {
    const r = await withClassification(model(0)).infer(ask(2));
    assert.deepEqual(r.outputs[0]?.shape, [2]);
    assert.deepEqual(strings(r.outputs[0]), ['0.700000:4', '0.600000:1']);
  });

  test('every response of a stream is classified', async () => {
    const api = withClassification(model(8));
    const seen: string[][] = [];
    for await (const r of api.stream(ask(1))) seen.push(strings(r.outputs[0]));
    assert.deepEqual(seen, [
      ['0.600000:1', '0.700000:0'],
      ['0.600000:1', '0.700000:0'],
    ]);
  });

  test('no classification asked (or N = 0): the response passes through as the model gave it', async () => {
    const api = withClassification(model(8));
    const r = await api.infer({ model: 'm', inputs: [], outputs: [{ name: 'probs', parameters: { classification: 0 } }] });
    assert.equal(r.outputs[0], probs);
  });

  test('a classified output encodes as BYTES, JSON or binary, and round-trips through the client decoder', async () => {
    const r = await withClassification(model(0)).infer(ask(2));
    const e = encodeInferResponse(r, responseOptionsFor({ parameters: { binary_data_output: true } }));
    const decoded = decodeInferResponse(concatBytes([e.json, ...e.binary]), e.headerLength);
    assert.deepEqual(strings(decoded.outputs[0]), ['0.700000:4', '0.600000:1']);
  });
});
