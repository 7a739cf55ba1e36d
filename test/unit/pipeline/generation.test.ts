import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { InferenceApi, ModelMetadata } from '../../../src/api/inference-api.ts';
import type { InferRequest, InferResponse } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { GenerateService } from '../../../src/generate/generate-service.ts';
import { GenerationLayer, generateRequestOf } from '../../../src/pipeline/generation.ts';
import { compose } from '../../../src/pipeline/layer.ts';
import { registerGenerateMetrics } from '../../../src/generate/metrics.ts';
import { FakeDecoderSession, fakeConfig, fakeReference } from '../generate/fake-decoder.ts';

const enc = new TextEncoder();
const bytesT = (name: string, values: string[], shape = [1, values.length]): Tensor => ({
  name,
  datatype: 'BYTES',
  shape,
  data: values.map((v) => enc.encode(v)),
});

test('a KServe request with text_input maps to a GenerateRequest; inputs win over parameters', () => {
  const { req, shape } = generateRequestOf({
    model: 'm',
    id: 'r1',
    inputs: [
      bytesT('text_input', ['hi']),
      { name: 'max_tokens', datatype: 'INT32', shape: [1, 1], data: new Int32Array([7]) },
      bytesT('stop', ['\n', 'x']),
    ],
    parameters: { max_tokens: 99, temperature: 0.5, random_seed: 3 },
  });
  assert.deepEqual(shape, [1, 1]);
  assert.deepEqual(req, { model: 'm', id: 'r1', prompt: 'hi', stop: ['\n', 'x'], maxTokens: 7, temperature: 0.5, seed: 3 });
  const bad = (r: Partial<InferRequest>, code: string) =>
    assert.throws(
      () => generateRequestOf({ model: 'm', inputs: [], ...r }),
      (e: unknown) => e instanceof RtError && e.code === code,
    );
  bad({}, 'MISSING_INPUT');
  bad({ inputs: [bytesT('text_input', ['a', 'b'])] }, 'BAD_SHAPE');
  bad({ inputs: [bytesT('text_input', ['a']), bytesT('prompt', ['a'])] }, 'UNEXPECTED_INPUT');
  bad({ inputs: [bytesT('text_input', ['a'])], outputs: [{ name: 'logits' }] }, 'UNKNOWN_OUTPUT');
  bad({ inputs: [bytesT('text_input', ['a'])], parameters: { temperature: 'hot' } }, 'BAD_PARAMETER');
});

test('GenerationLayer: text metadata, whole-text infer, streamed responses with triton_final_response; other models untouched', async () => {
  const session = new FakeDecoderSession();
  const config = fakeConfig();
  const service = new GenerateService({
    resolve: (model) => {
      if (model !== 'fake') throw new RtError('MODEL_NOT_FOUND', `unknown model '${model}'`);
      return { name: 'fake', version: '1', config, session };
    },
  });
  const rawMeta: ModelMetadata = { name: 'x', versions: ['1'], platform: 'onnxruntime_onnx', inputs: [], outputs: [] };
  const calls: string[] = [];
  const core = {
    modelMetadata: (name: string) => ({ ...rawMeta, name }),
    infer: async (r: InferRequest): Promise<InferResponse> => {
      calls.push(r.model);
      return { model_name: r.model, model_version: '1', outputs: [] };
    },
  } as unknown as InferenceApi;
  const layer = new GenerationLayer(service);
  const layered = compose([layer], core);
  const api = { infer: layered.infer, inferStream: layered.stream };
  const metadata = (name: string): ModelMetadata => layer.metadata(core.modelMetadata(name), name);
  assert.deepEqual(metadata('other').inputs, []);
  const meta = metadata('fake');
  assert.deepEqual(
    meta.inputs.map((i) => i.name),
    ['text_input', 'max_tokens', 'temperature', 'top_k', 'top_p', 'repetition_penalty', 'seed', 'stop'],
  );
  assert.deepEqual(meta.outputs, [{ name: 'text_output', datatype: 'BYTES', shape: [-1, 1] }]);

  const request = { model: 'fake', inputs: [bytesT('text_input', ['abc'])], parameters: { max_tokens: 12, temperature: 0 } };
  const expected = fakeReference([...enc.encode('abc')], 12);
  const expectedText = new TextDecoder().decode(new Uint8Array(expected.filter((t) => t < 256)));
  const whole = await api.infer(request);
  assert.equal(new TextDecoder().decode((whole.outputs[0]?.data as Uint8Array[])[0]), expectedText);
  assert.equal(whole.parameters?.['triton_final_response'], true);

  const pieces: string[] = [];
  const finals: unknown[] = [];
  for await (const r of api.inferStream(request)) {
    pieces.push(new TextDecoder().decode((r.outputs[0]?.data as Uint8Array[])[0]));
    finals.push(r.parameters?.['triton_final_response']);
  }
  assert.equal(pieces.join(''), expectedText);
  assert.deepEqual(finals, [...Array(finals.length - 1).fill(false), true]);

  // Raw requests (no text_input) and ordinary models go to the core.
  await api.infer({ model: 'fake', inputs: [] });
  const one: InferResponse[] = [];
  for await (const r of api.inferStream({ model: 'other', inputs: [] })) one.push(r);
  assert.equal(one.length, 1);
  assert.deepEqual(calls, ['fake', 'other']);
});

test('stopping a stream early cancels the generation', async () => {
  const session = new FakeDecoderSession();
  const config = fakeConfig();
  const service = new GenerateService({ resolve: () => ({ name: 'fake', version: '1', config, session }) });
  const base = {
    infer: async (): Promise<InferResponse> => {
      throw new Error('unused');
    },
  };
  const api = compose([new GenerationLayer(service)], base);
  for await (const r of api.stream({
    model: 'fake',
    inputs: [bytesT('text_input', ['abcdef'])],
    parameters: { max_tokens: 50, temperature: 0 },
  })) {
    void r;
    break;
  }
  await service.batcher('fake').whenIdle();
  assert.equal(service.batcher('fake').running, 0);
  assert.ok(session.calls.length < 40, `stopped early (${session.calls.length} engine runs)`);
});

test('generation metrics register on the given registry and count tokens and requests', async () => {
  const registry = new Registry();
  const metrics = registerGenerateMetrics(registry);
  const session = new FakeDecoderSession();
  const config = fakeConfig();
  const service = new GenerateService({ resolve: () => ({ name: 'fake', version: '1', config, session }), metrics });
  const r = await service.start({ model: 'fake', prompt: 'abc', maxTokens: 5, greedy: true }).result;
  const text = await registry.metrics();
  const value = (line: string): number =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(line))
        ?.split(' ')
        .at(-1),
    );
  assert.equal(value('rtserve_generate_tokens_total{model="fake"}'), r.tokens.length);
  assert.equal(value('rtserve_generate_prompt_tokens_total{model="fake"}'), 3);
  assert.equal(value('rtserve_generate_time_to_first_token_seconds_count{model="fake"}'), 1);
  assert.equal(value('rtserve_generate_inter_token_latency_seconds_count{model="fake"}'), r.tokens.length - 1);
  assert.equal(value(`rtserve_generate_requests_total{model="fake",finish_reason="${r.finishReason}"}`), 1);
  assert.equal(value('rtserve_generate_sequences_in_flight{model="fake"}'), 0);
  assert.ok(!text.includes('rtserve_generate_tokens_per_second'), 'tokens are counters only; tokens/s is rate() in PromQL');
});
