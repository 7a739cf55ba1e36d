/**
 * OpenTelemetry traces (src/observability/otel-tracing.ts): a real rtserve exports over OTLP/HTTP protobuf to a
 * receiver in this process (otlp-receiver.ts), which decodes the requests with the OTLP trace .proto.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { inferenceClient, unary } from '../grpc/grpc-test-client.ts';
import * as grpc from '@grpc/grpc-js';
import WebSocket from 'ws';
import { startTestServer } from '../../helpers/server.ts';
import { type DecodedSpan, type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.ts';

const body = JSON.stringify({
  inputs: ['INPUT0', 'INPUT1'].map((name) => ({ name, shape: [1, 16], datatype: 'INT32', data: new Array(16).fill(1) })),
});
const STAGES = ['receive', 'queue', 'batch', 'compute', 'respond'];

describe('OpenTelemetry traces over OTLP/HTTP protobuf', () => {
  let receiver: OtlpReceiver;
  let spans: DecodedSpan[];
  let contentTypes: string[];
  let server: RunningServer;

  before(async () => {
    receiver = await startOtlpReceiver();
    ({ spans, contentTypes } = receiver);
    server = await startTestServer({ traceOtlpEndpoint: `http://127.0.0.1:${receiver.port}/v1/traces`, traceRate: 1, serverId: 'rtserve-traced' });
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const of = (traceId: string): DecodedSpan[] => spans.filter((s) => s.traceId === traceId);

  function checkTrace(traceId: string, rootId: string, callerSpan: string, protocol: string): void {
    const trace = of(traceId);
    const root = trace.find((s) => s.spanId === rootId);
    assert.ok(root !== undefined, `root span ${rootId} among ${trace.map((s) => `${s.name}:${s.spanId}`).join(', ')}`);
    assert.equal(root.parentSpanId, callerSpan, "the root span's parent is the caller's span");
    assert.equal(root.name, 'infer simple');
    assert.equal(root.kind, 2, 'SERVER');
    assert.equal(root.attributes['rtserve.protocol'], protocol);
    assert.equal(root.attributes['rtserve.model'], 'simple');
    assert.equal(root.service, 'rtserve-traced');
    const children = trace.filter((s) => s.parentSpanId === rootId);
    assert.deepEqual(children.map((s) => s.name).sort(), [...STAGES].sort());
    // The stages follow each other inside the request's span.
    const ordered = STAGES.map((n) => children.find((s) => s.name === n) as DecodedSpan);
    for (const s of ordered) assert.ok(s.start >= root.start && s.end <= root.end && s.start <= s.end, `${s.name} inside the request`);
    for (let i = 1; i < ordered.length; i++)
      assert.ok((ordered[i - 1] as DecodedSpan).end <= (ordered[i] as DecodedSpan).start, `${STAGES[i - 1]} ends before ${STAGES[i]} starts`);
  }

  test('a REST request joins the caller trace: a SERVER span with rtserve span id and one span per stage', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const caller = '00f067aa0ba902b7';
    const res = await fetch(`${server.httpUrl}/v2/models/simple/infer`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${caller}-01` },
    });
    assert.equal(res.status, 200);
    const rootId = /^00-[0-9a-f]{32}-([0-9a-f]{16})-01$/.exec(res.headers.get('traceparent') ?? '')?.[1] ?? '';
    // Not an inference request: no trace.
    assert.equal(
      (await fetch(`${server.httpUrl}/v2/health/ready`, { headers: { traceparent: '00-11111111111111111111111111111111-2222222222222222-01' } }))
        .status,
      200,
    );
    await server.tracing?.flush();
    assert.ok(
      contentTypes.every((c) => c === 'POST /v1/traces application/x-protobuf'),
      contentTypes.join('; '),
    );
    checkTrace(traceId, rootId, caller, 'http');
    assert.deepEqual(of('11111111111111111111111111111111'), []);
  });

  test('a gRPC ModelInfer joins the trace in its traceparent metadata', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const caller = 'b7ad6b7169203331';
    const client = inferenceClient(server.grpcAddress ?? '');
    try {
      const md = new grpc.Metadata();
      md.set('traceparent', `00-${traceId}-${caller}-01`);
      await unary(
        client,
        'ModelInfer',
        {
          model_name: 'simple',
          inputs: ['INPUT0', 'INPUT1'].map((name) => ({ name, datatype: 'INT32', shape: [1, 16] })),
          raw_input_contents: [Buffer.alloc(64), Buffer.alloc(64)],
        },
        {},
        md,
      );
    } finally {
      client.close();
    }
    await server.tracing?.flush();
    const root = of(traceId).find((s) => s.parentSpanId === caller);
    assert.ok(root !== undefined);
    checkTrace(traceId, root.spanId, caller, 'grpc');
  });

  test('a WebSocket infer event joins the trace in its traceparent field', async () => {
    const traceId = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    const caller = '1234567890abcdef';
    const socket = new WebSocket(`${server.httpUrl.replace(/^http/, 'ws')}/v2/ws`, 'rtserve.v1');
    try {
      const result = await new Promise<Record<string, unknown>>((resolve, reject) => {
        socket.on('error', reject);
        socket.on('open', () => {
          socket.send(
            JSON.stringify({
              type: 'infer',
              id: 'r1',
              model: 'simple',
              traceparent: `00-${traceId}-${caller}-01`,
              inputs: ['INPUT0', 'INPUT1'].map((name) => ({ name, datatype: 'INT32', shape: [1, 16], data: new Array(16).fill(1) })),
            }),
          );
        });
        socket.on('message', (data: Buffer) => {
          const event = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
          if (event['type'] === 'result' || event['type'] === 'error') resolve(event);
        });
      });
      assert.equal(result['type'], 'result', JSON.stringify(result));
    } finally {
      socket.close();
    }
    await server.tracing?.flush();
    const root = of(traceId).find((s) => s.parentSpanId === caller);
    assert.ok(
      root !== undefined,
      `spans of ${traceId}: ${of(traceId)
        .map((s) => s.name)
        .join(', ')}`,
    );
    checkTrace(traceId, root.spanId, caller, 'ws');
  });

  test("Triton's /v2/trace/setting reads and changes the level and the rate", async () => {
    const get = (await (await fetch(`${server.httpUrl}/v2/trace/setting`)).json()) as Record<string, unknown>;
    assert.deepEqual(get, {
      trace_level: ['TIMESTAMPS'],
      trace_rate: '1',
      trace_count: '-1',
      log_frequency: '0',
      trace_file: '',
      trace_mode: 'opentelemetry',
    });
    assert.deepEqual(await (await fetch(`${server.httpUrl}/v2/models/simple/trace/setting`)).json(), get, 'per-model settings read the global ones');
    const bad = await fetch(`${server.httpUrl}/v2/trace/setting`, {
      method: 'POST',
      body: JSON.stringify({ trace_rate: 'often' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: string }).error, /trace_rate must be an integer >= 1/);
    const off = await fetch(`${server.httpUrl}/v2/trace/setting`, {
      method: 'POST',
      body: JSON.stringify({ trace_level: ['OFF'] }),
      headers: { 'content-type': 'application/json' },
    });
    assert.deepEqual(((await off.json()) as { trace_level: string[] }).trace_level, ['OFF']);
    const traceId = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    assert.equal(
      (
        await fetch(`${server.httpUrl}/v2/models/simple/infer`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-bbbbbbbbbbbbbbbb-01` },
        })
      ).status,
      200,
    );
    await server.tracing?.flush();
    assert.deepEqual(of(traceId), [], 'no spans while the level is OFF');
  });
});
