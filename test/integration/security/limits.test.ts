import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { postJson, request, startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import * as grpc from '@grpc/grpc-js';
import { encodeInferRequest } from '../../../src/codec/kserve-client-codec.ts';
import { encodeModelInferRequest } from '../../../src/codec/grpc/infer-client-codec.ts';
import { TestWs } from '../ws/ws-test-client.ts';
import { simpleRequest } from './helpers.ts';
import { parseSamples, scrape, valueOf } from '../ops/helpers.ts';

/** Writes raw bytes on a fresh connection and collects everything the server sends until it closes (or 10 s). */
function rawExchange(url: string, chunks: string[]): Promise<{ text: string; closed: boolean }> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, 10_000);
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.on('error', () => {});
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
    });
  });
}

describe('request limits on the REST port', () => {
  let server: RunningServer;
  let infer: string;
  before(async () => {
    server = await startTestServer({
      maxJsonDepth: 8,
      maxJsonElements: 1000,
      maxInputsPerRequest: 3,
      maxElementsPerTensor: 64,
      maxHeaderBytes: 4096,
      headersTimeoutMs: 500,
      requestTimeoutMs: 1000,
    });
    infer = `${server.httpUrl}/v2/models/simple/infer`;
  });
  after(async () => {
    await server.close();
  });

  const expect413 = async (r: Awaited<ReturnType<typeof request>>, re: RegExp) => {
    assert.equal(r.status, 413, new TextDecoder().decode(r.body));
    const body = r.json() as { error: string; code: string };
    assert.equal(body.code, 'LIMIT_EXCEEDED');
    assert.match(body.error, re);
  };

  test('JSON nested deeper than maxJsonDepth is refused before parsing, naming the setting', async () => {
    const deep = {
      inputs: [{ name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: JSON.parse(`${'['.repeat(9)}1${']'.repeat(9)}`) as unknown }],
    };
    await expect413(await postJson(infer, deep), /maxJsonDepth/);
    // the same limit applies to a binary request's JSON header
    const header = JSON.stringify({ inputs: [{ name: 'x', parameters: { a: JSON.parse('['.repeat(10) + ']'.repeat(10)) as unknown } }] });
    const r = await request(infer, {
      method: 'POST',
      headers: { 'inference-header-content-length': String(header.length) },
      body: `${header}\0\0\0\0`,
    });
    await expect413(r, /maxJsonDepth/);
  });

  test('more JSON values than maxJsonElements is refused, hinting at binary data', async () => {
    const body = { inputs: [{ name: 'INPUT0', datatype: 'INT32', shape: [1, 2000], data: Array(2000).fill(1) }] };
    await expect413(await postJson(infer, body), /more than 1000 JSON values.*binary data/);
  });

  test('inputs per request and elements per tensor', async () => {
    const four = simpleRequest();
    four.inputs.push({ ...four.inputs[0]!, name: 'A' }, { ...four.inputs[0]!, name: 'B' });
    await expect413(await postJson(infer, four), /4 inputs; the limit is 3/);
    // binary data: the element limit holds where the JSON element count does not see the data
    const enc = encodeInferRequest(
      [
        { name: 'INPUT0', datatype: 'INT32', shape: [5, 16], data: new Int32Array(80) },
        { name: 'INPUT1', datatype: 'INT32', shape: [5, 16], data: new Int32Array(80) },
      ],
      { binary: true },
    );
    const r = await request(infer, { method: 'POST', headers: { 'inference-header-content-length': String(enc.headerLength) }, body: enc.body });
    await expect413(r, /input 'INPUT0' has 80 elements.*maxElementsPerTensor/);
    assert.equal((await postJson(infer, simpleRequest())).status, 200, 'a request within every limit passes');
  });

  test('gRPC and WebSocket requests meet the same inputs / elements limits', async () => {
    assert.ok(server.grpcAddress !== undefined);
    const client = new grpc.Client(server.grpcAddress, grpc.credentials.createInsecure());
    try {
      const big = encodeModelInferRequest({
        model: 'simple',
        inputs: [
          { name: 'INPUT0', datatype: 'INT32', shape: [5, 16], data: new Int32Array(80) },
          { name: 'INPUT1', datatype: 'INT32', shape: [5, 16], data: new Int32Array(80) },
        ],
      });
      const err = await new Promise<grpc.ServiceError | null>((resolve) =>
        client.makeUnaryRequest<Buffer, Buffer>(
          '/inference.GRPCInferenceService/ModelInfer',
          (b) => b,
          (b) => b,
          big,
          new grpc.Metadata(),
          { deadline: Date.now() + 15_000 },
          (e) => resolve(e),
        ),
      );
      assert.equal(err?.code, grpc.status.RESOURCE_EXHAUSTED, err?.details);
      assert.match(err?.details ?? '', /input 'INPUT0' has 80 elements.*maxElementsPerTensor/);
    } finally {
      client.close();
    }
    const ws = await TestWs.open(server.httpUrl);
    try {
      const four = simpleRequest();
      four.inputs.push({ ...four.inputs[0]!, name: 'A' }, { ...four.inputs[0]!, name: 'B' });
      ws.send({ type: 'infer', id: 'too-many', model: 'simple', inputs: four.inputs });
      const e = (await ws.terminal('too-many')) as unknown as { type: string; error: { code: string; message: string } };
      assert.equal(e.type, 'error');
      assert.equal(e.error.code, 'LIMIT_EXCEEDED');
      assert.match(e.error.message, /4 inputs; the limit is 3/);
    } finally {
      ws.close();
    }
  });

  test('a request head over maxHeaderBytes gets 431 and the connection is closed', async () => {
    const r = await rawExchange(server.httpUrl, [`GET /v2/health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(8192)}\r\n\r\n`]);
    assert.match(r.text, /^HTTP\/1\.1 431 /);
    assert.ok(r.closed);
  });

  test('slow clients: an unfinished head (slowloris) and an unfinished body are answered 408 and closed', async () => {
    const head = await rawExchange(server.httpUrl, ['GET /v2/health/live HTTP/1.1\r\nHost: x\r\n']);
    assert.ok(head.closed, 'the server closes a connection whose head never ends');
    assert.match(head.text, /^HTTP\/1\.1 408 /);
    const body = await rawExchange(server.httpUrl, [
      'POST /v2/models/simple/infer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"inputs":',
    ]);
    assert.ok(body.closed, 'the server closes a connection whose body never ends');
    assert.match(body.text, /^HTTP\/1\.1 408 /);
    assert.equal((await request(`${server.httpUrl}/v2/health/live`)).status, 200);
    // Each is counted on /metrics by the guard that fired.
    const metrics = parseSamples(await scrape(`${server.metricsUrl ?? ''}/metrics`));
    assert.equal(valueOf(metrics, 'rtserve_slow_clients_total', { kind: 'http_head' }), 1);
    assert.equal(valueOf(metrics, 'rtserve_slow_clients_total', { kind: 'http_body' }), 1);
  });
});
