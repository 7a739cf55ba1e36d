/**
 * charlm over gRPC (a grpc-js client generated from rtserve's .proto): ModelInfer and ModelStreamInfer with the
 * text interface (`text_input` BYTES plus parameters) answer the same greedy text as REST, and the last response
 * of a generation carries `triton_final_response: true`, as Triton's decoupled models do. The stream test reads
 * responses until that flag, so it holds whether the gRPC front end sends the generation as one response (today:
 * it calls InferenceApi.infer) or as many (once it iterates InferenceApi.inferStream).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { postJson } from '../../helpers/server.ts';
import {
  fromRaw,
  inferenceClient,
  unary,
  type InferenceClient,
  type ModelInferResponse,
  type ModelStreamInferResponse,
} from '../grpc/grpc-test-client.ts';
import { startCharlmServer } from './charlm-helpers.ts';

let server: RunningServer;
let cleanup: () => Promise<void>;
let client: InferenceClient;

before(async () => {
  ({ server, cleanup } = await startCharlmServer());
  client = inferenceClient(server.grpcAddress as string);
});
after(async () => {
  client.close();
  await cleanup();
});

const PROMPT = 'import sys\n';

function request(id: string): Record<string, unknown> {
  return {
    model_name: 'charlm',
    id,
    parameters: { max_tokens: { int64_param: 40 }, temperature: { double_param: 0 } },
    inputs: [{ name: 'text_input', datatype: 'BYTES', shape: [1, 1], contents: { bytes_contents: [Buffer.from(PROMPT)] } }],
    outputs: [],
    raw_input_contents: [],
  };
}

type WithParams = ModelInferResponse & { parameters?: Record<string, { bool_param?: boolean; string_param?: string; int64_param?: string }> };

const textOf = (r: ModelInferResponse): string => {
  const data = fromRaw('BYTES', r.raw_output_contents[0] ?? Buffer.alloc(0)) as Uint8Array[];
  return new TextDecoder().decode(data[0]);
};

async function restText(): Promise<string> {
  const res = await postJson(`${server.httpUrl}/v1/completions`, { model: 'charlm', prompt: PROMPT, max_tokens: 40, temperature: 0 });
  return (res.json() as { choices: { text: string }[] }).choices[0]?.text as string;
}

test('gRPC ModelInfer with text_input answers the whole greedy text, flagged final', async () => {
  const expected = await restText();
  const res = await unary<WithParams>(client, 'ModelInfer', request('g1'));
  assert.equal(res.id, 'g1');
  assert.equal(res.outputs[0]?.name, 'text_output');
  assert.equal(textOf(res), expected);
  assert.equal(res.parameters?.['triton_final_response']?.bool_param, true);
  assert.equal(res.parameters?.['finish_reason']?.string_param, 'length');
});

test('gRPC ModelStreamInfer: the responses of a generation, up to triton_final_response, give the same text', async () => {
  const expected = await restText();
  const stream = client.ModelStreamInfer();
  const pieces: string[] = [];
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (r: ModelStreamInferResponse) => {
      if (r.error_message !== '') {
        reject(new Error(r.error_message));
        return;
      }
      const res = r.infer_response as WithParams;
      assert.equal(res.id, 's1');
      pieces.push(textOf(res));
      if (res.parameters?.['triton_final_response']?.bool_param === true) resolve();
    });
    stream.on('error', reject);
    stream.write(request('s1'));
  });
  stream.end();
  assert.equal(pieces.join(''), expected);
  // Decoupled: the text arrives as it is generated, in several responses, not as one at the end.
  assert.ok(pieces.length > 1, `expected several streamed responses, got ${pieces.length}`);
});
