import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { encodeInferRequest, decodeInferResponse } from '../../../src/transport/codec/kserve-client-codec.ts';
import { INFER_CASES, TableError, plainValues, type TableClient } from '../cases.ts';
import type { ErrorCategory } from '../../../src/errors/registry.ts';

/** Status → category, as the error registry maps them (src/errors/registry.ts). */
const CATEGORY_OF_STATUS: Record<number, ErrorCategory> = {
  400: 'INVALID_ARGUMENT', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED', 500: 'INTERNAL', 501: 'UNIMPLEMENTED',
};

function restClient(baseUrl: string, binary: boolean): TableClient {
  return async (req) => {
    const path = `/v2/models/${req.model}${req.version === undefined ? '' : `/versions/${req.version}`}/infer`;
    const outputs = binary ? (req.outputs ?? []).map((o) => ({ ...o, parameters: { ...o.parameters, binary_data: true } })) : req.outputs;
    const enc = encodeInferRequest(req.inputs, {
      binary,
      ...(req.id === undefined ? {} : { id: req.id }),
      ...(binary ? { parameters: { ...req.parameters, binary_data_output: true } } : req.parameters === undefined ? {} : { parameters: req.parameters }),
      ...(outputs === undefined ? {} : { outputs }),
    });
    const headers: Record<string, string> = { 'content-type': binary ? 'application/octet-stream' : 'application/json' };
    if (enc.headerLength !== undefined) headers['inference-header-content-length'] = String(enc.headerLength);
    const res = await fetch(baseUrl + path, { method: 'POST', headers, body: enc.body });
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) {
      const err = JSON.parse(new TextDecoder().decode(body)) as { error: string };
      assert.equal(typeof err.error, 'string', 'error body is {"error": "..."}');
      throw new TableError(CATEGORY_OF_STATUS[res.status] ?? 'INTERNAL', err.error);
    }
    const hl = res.headers.get('inference-header-content-length');
    const decoded = decodeInferResponse(body, hl === null ? undefined : Number(hl));
    return { model_name: decoded.model_name, outputs: decoded.outputs, ...(decoded.id === undefined ? {} : { id: decoded.id }) };
  };
}

/** Runs the shared integration table against one TableClient; exported shape mirrors the gRPC/WS runs. */
async function runCase(client: TableClient, c: (typeof INFER_CASES)[number]): Promise<void> {
  const expect = c.expect;
  if ('error' in expect) {
    await assert.rejects(client(c.request), (err: unknown) => {
      assert.ok(err instanceof TableError, `expected a TableError, got ${String(err)}`);
      assert.equal(err.category, expect.error, err.message);
      for (const part of expect.messageIncludes) assert.ok(err.message.includes(part), `message ${JSON.stringify(err.message)} should mention ${part}`);
      return true;
    });
    return;
  }
  const res = await client(c.request);
  if (expect.id !== undefined) assert.equal(res.id, expect.id);
  assert.deepEqual(res.outputs.map((o) => o.name), expect.outputs.map((o) => o.name));
  for (const [i, want] of expect.outputs.entries()) {
    const got = res.outputs[i];
    assert.ok(got !== undefined);
    assert.equal(got.datatype, want.datatype, `${want.name} datatype`);
    assert.deepEqual([...got.shape], want.shape, `${want.name} shape`);
    assert.deepEqual(plainValues(got), want.data, `${want.name} data`);
  }
}

describe('REST: the shared integration table', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });
  for (const binary of [false, true]) {
    for (const c of INFER_CASES) {
      test(`${binary ? 'binary' : 'json'}: ${c.name}`, async () => {
        await runCase(restClient(server.httpUrl, binary), c);
      });
    }
  }
});
