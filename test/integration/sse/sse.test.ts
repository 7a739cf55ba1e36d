/**
 * SSE generate / generate_stream (docs/ws-protocol.md "SSE") with a real HTTP client (fetch): the event framing
 * with `<stream id>:<seq>` ids, both body forms, errors before and after the first event, heartbeats, and
 * Last-Event-ID resume after a dropped connection — nothing lost, nothing repeated.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { readSse, type SseMessage } from '../../../packages/client/src/sse-reader.ts';
import { parseLastEventId } from '../../../src/transport/http/sse-generate.ts';
import { Gate, startGatedServer } from '../ws/gated-engine.ts';

const INPUT0 = Array.from({ length: 16 }, (_, i) => i);
const generateBody = { INPUT0, INPUT1: new Array(16).fill(3) };

async function post(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  });
}

async function allEvents(res: Response): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const m of readSse(res.body!)) out.push(m);
  return out;
}

describe('SSE generate_stream', () => {
  const gate = new Gate();
  let server: RunningServer;
  let base: string;
  before(async () => {
    server = await startGatedServer(gate, { sseHeartbeatIntervalMs: 50, wsResumeWindowMs: 60000 });
    base = `${server.httpUrl}/v2/models/simple`;
  });
  after(async () => {
    gate.release('simple');
    await server.close();
  });

  test('any model streams: one data event with its outputs, then done; ids carry <stream>:<seq>', async () => {
    const res = await post(`${base}/generate_stream`, generateBody);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const sid = res.headers.get('rtserve-stream-id');
    assert.match(sid ?? '', /^[0-9a-f-]{36}$/);
    const text = await res.text();
    const data = JSON.stringify({ model_name: 'simple', model_version: '1', OUTPUT0: INPUT0.map((v) => v + 3), OUTPUT1: INPUT0.map((v) => v - 3) });
    assert.equal(text.replace(/^: ping\n\n/gm, ''), `id: ${sid}:1\ndata: ${data}\n\nid: ${sid}:2\nevent: done\ndata: {"seq":2,"responses":1}\n\n`);
  });

  test('the KServe form streams $inference_response JSON; id and parameters are echoed', async () => {
    const res = await post(`${base}/generate_stream`, {
      id: 'k1',
      inputs: [
        { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: INPUT0 },
        { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Array(16).fill(1) },
      ],
      outputs: [{ name: 'OUTPUT1' }],
    });
    const events = await allEvents(res);
    assert.deepEqual(
      events.map((e) => e.event),
      ['message', 'done'],
    );
    const body = JSON.parse(events[0]!.data) as { id: string; outputs: { name: string; datatype: string; shape: number[]; data: number[] }[] };
    assert.equal(body.id, 'k1');
    assert.deepEqual(body.outputs, [{ name: 'OUTPUT1', datatype: 'INT32', shape: [1, 16], data: INPUT0.map((v) => v - 1) }]);
  });

  test("generate (not streamed) answers one JSON body in the request's form", async () => {
    const res = await post(`${base}/generate`, { id: 'g', ...generateBody });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      id: 'g',
      model_name: 'simple',
      model_version: '1',
      OUTPUT0: INPUT0.map((v) => v + 3),
      OUTPUT1: INPUT0.map((v) => v - 3),
    });
    const versioned = await post(`${server.httpUrl}/v2/models/simple/versions/1/generate`, generateBody);
    assert.equal(versioned.status, 200);
  });

  test('errors before the first event are ordinary HTTP errors naming what was wrong', async () => {
    const cases: [string, unknown, number, string, RegExp][] = [
      [`${base}/generate_stream`, { INPUT0: [1, 2], INPUT1: new Array(16).fill(0) }, 400, 'BAD_SHAPE', /INPUT0.*16.*2/],
      [`${base}/generate_stream`, { ...generateBody, INPUT9: [1] }, 400, 'UNEXPECTED_INPUT', /INPUT9/],
      [`${base}/generate_stream`, { INPUT0 }, 400, 'MISSING_INPUT', /INPUT1/],
      [`${server.httpUrl}/v2/models/nope/generate_stream`, generateBody, 404, 'MODEL_NOT_FOUND', /nope/],
      [`${base}/generate`, { INPUT0: 'x', INPUT1: new Array(16).fill(0) }, 400, 'BAD_SHAPE', /INPUT0/],
    ];
    for (const [url, body, status, code, message] of cases) {
      const res = await post(url, body);
      assert.equal(res.status, status, `${code}: ${url}`);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      const err = (await res.json()) as { error: string; code: string };
      assert.equal(err.code, code, err.error);
      assert.match(err.error, message);
    }
    const bad = await fetch(`${base}/generate_stream`, { method: 'POST', body: '{nope' });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { code: string }).code, 'BAD_JSON');
  });

  test('an error after the stream started arrives as an error event, under 200', async () => {
    const runs = gate.runs('simple');
    gate.hold('simple');
    const res = await post(`${base}/generate_stream`, generateBody);
    // The heartbeat committed the 200 while the model was held.
    assert.equal(res.status, 200);
    await gate.untilRuns('simple', runs + 1);
    gate.fail('simple');
    gate.release('simple');
    const events = await allEvents(res);
    gate.heal('simple');
    assert.deepEqual(
      events.map((e) => e.event),
      ['error'],
    );
    const err = JSON.parse(events[0]!.data) as { error: string; code: string; retryable: boolean };
    assert.equal(err.code, 'ENGINE_FAILED');
    assert.equal(err.retryable, true);
    assert.match(events[0]!.id ?? '', /:1$/);
  });

  test('Last-Event-ID replays what came after it, exactly once', async () => {
    const res = await post(`${base}/generate_stream`, generateBody);
    const sid = res.headers.get('rtserve-stream-id')!;
    const first = await allEvents(res);
    assert.deepEqual(
      first.map((e) => e.id),
      [`${sid}:1`, `${sid}:2`],
    );

    const fromOne = await allEvents(await post(`${base}/generate_stream`, undefined, { 'last-event-id': `${sid}:1` }));
    assert.deepEqual(
      fromOne.map((e) => [e.id, e.event]),
      [[`${sid}:2`, 'done']],
    );
    const fromZero = await allEvents(await post(`${base}/generate_stream`, undefined, { 'last-event-id': `${sid}:0` }));
    assert.deepEqual(
      fromZero.map((e) => e.data),
      first.map((e) => e.data),
    );
    const fromEnd = await allEvents(await post(`${base}/generate_stream`, undefined, { 'last-event-id': `${sid}:2` }));
    assert.deepEqual(fromEnd, []);
  });

  test('a connection dropped mid-stream resumes with Last-Event-ID: nothing lost, nothing repeated', async () => {
    const runs = gate.runs('simple');
    gate.hold('simple');
    const controller = new AbortController();
    const res = await post(`${base}/generate_stream`, generateBody, {}, controller.signal);
    assert.equal(res.status, 200);
    const sid = res.headers.get('rtserve-stream-id')!;
    // Read until the first heartbeat comment proves the stream is live, then drop the connection.
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes(': ping')) seen += new TextDecoder().decode((await reader.read()).value);
    assert.equal(seen.includes('data:'), false);
    controller.abort();
    await gate.untilRuns('simple', runs + 1);
    gate.release('simple');

    const resumed = await post(`${base}/generate_stream`, undefined, { 'last-event-id': `${sid}:0` });
    assert.equal(resumed.status, 200);
    assert.equal(resumed.headers.get('rtserve-stream-id'), sid);
    const events = await allEvents(resumed);
    assert.deepEqual(
      events.map((e) => [e.id, e.event]),
      [
        [`${sid}:1`, 'message'],
        [`${sid}:2`, 'done'],
      ],
    );
    assert.deepEqual(
      JSON.parse(events[0]!.data).OUTPUT0,
      INPUT0.map((v) => v + 3),
    );
  });

  test("an unknown or malformed Last-Event-ID gets 404 RESUME_EXPIRED; another model's stream is refused", async () => {
    for (const id of ['00000000-0000-0000-0000-000000000000:1', 'garbage']) {
      const res = await post(`${base}/generate_stream`, undefined, { 'last-event-id': id });
      assert.equal(res.status, 404);
      assert.equal(((await res.json()) as { code: string }).code, 'RESUME_EXPIRED');
    }
    const res = await post(`${base}/generate_stream`, generateBody);
    const sid = res.headers.get('rtserve-stream-id')!;
    await res.text();
    const other = await post(`${server.httpUrl}/v2/models/mlp/generate_stream`, undefined, { 'last-event-id': `${sid}:0` });
    assert.equal(other.status, 400);
    await other.text();
  });
});

describe('SSE helpers', () => {
  test('parseLastEventId splits at the last colon and wants a decimal seq', () => {
    assert.deepEqual(parseLastEventId('abc:12'), { streamId: 'abc', seq: 12 });
    assert.deepEqual(parseLastEventId('a:b:3'), { streamId: 'a:b', seq: 3 });
    assert.equal(parseLastEventId('abc'), undefined);
    assert.equal(parseLastEventId(':3'), undefined);
    assert.equal(parseLastEventId('abc:-1'), undefined);
    assert.equal(parseLastEventId('abc:1e3'), undefined);
  });

  test('readSse: CRLF and CR line ends, multi-line data, comments, ids that persist', async () => {
    const text = ': hello\r\nid: s:1\r\ndata: a\r\ndata: b\r\n\r\nevent: done\rdata: {}\r\rdata: x\n\n';
    const bytes = new TextEncoder().encode(text);
    // Split mid-CRLF to check the parser waits for the LF.
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.subarray(0, 26));
        c.enqueue(bytes.subarray(26));
        c.close();
      },
    });
    const events: SseMessage[] = [];
    for await (const m of readSse(body)) events.push(m);
    assert.deepEqual(events, [
      { event: 'message', data: 'a\nb', id: 's:1' },
      { event: 'done', data: '{}', id: 's:1' },
      { event: 'message', data: 'x', id: 's:1' },
    ]);
  });
});
