/**
 * Token streams from charlm over the two resumable front ends (the WebSocket protocol and SSE generate_stream,
 * docs/ws-protocol.md), which read the generation through InferenceApi.inferStream: a client that drops its
 * connection mid-stream and resumes gets every later piece exactly once — the text it assembles equals the
 * uninterrupted generation and the sequence numbers have no gap and no repeat.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { postJson } from '../../helpers/server.ts';
import { startCharlmServer } from './charlm-helpers.ts';

let server: RunningServer;
let cleanup: () => Promise<void>;

before(async () => {
  ({ server, cleanup } = await startCharlmServer());
});
after(async () => cleanup());

const PROMPT = 'def read_config(path):\n';
const PARAMS = { max_tokens: 80, temperature: 0 };

async function uninterrupted(): Promise<string> {
  const res = await postJson(`${server.httpUrl}/v2/models/charlm/generate`, { text_input: PROMPT, parameters: PARAMS });
  assert.equal(res.status, 200);
  return (res.json() as { text_output: string }).text_output;
}

interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/** Reads SSE events from a streaming response until `stop` says so (then cancels the body) or the stream ends. */
async function readSse(res: Response, stop: (e: SseEvent, all: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    buf += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const e: SseEvent = { id: undefined, event: undefined, data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) e.id = line.slice(4);
        else if (line.startsWith('event: ')) e.event = line.slice(7);
        else if (line.startsWith('data: ')) e.data += line.slice(6);
      }
      if (block.startsWith(':')) continue; // heartbeat comment
      events.push(e);
      if (stop(e, events)) {
        await reader.cancel();
        return events;
      }
    }
  }
}

const seqOf = (e: SseEvent): number => Number(e.id?.slice(e.id.lastIndexOf(':') + 1));

describe('resume of charlm token streams', () => {
  test('SSE generate_stream: disconnect after a few tokens, resume with Last-Event-ID, nothing lost or repeated', async () => {
    const expected = await uninterrupted();
    const url = `${server.httpUrl}/v2/models/charlm/generate_stream`;
    const first = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text_input: PROMPT, parameters: PARAMS }),
    });
    assert.equal(first.status, 200);
    const streamId = first.headers.get('rtserve-stream-id');
    assert.ok(streamId !== null);
    const before = await readSse(first, (_e, all) => all.length === 5);
    const last = before.at(-1) as SseEvent;
    // Reconnect as an EventSource would: the same route, Last-Event-ID, no body.
    const second = await fetch(url, { method: 'POST', headers: { 'last-event-id': last.id as string } });
    assert.equal(second.status, 200);
    const rest = await readSse(second, (e) => e.event === 'done' || e.event === 'error');
    const all = [...before, ...rest];
    assert.deepEqual(
      all.map(seqOf),
      all.map((_, i) => i + 1),
      'sequence numbers 1..n, no gap, no repeat',
    );
    assert.ok(all.every((e) => e.id?.startsWith(`${streamId}:`)));
    assert.equal(rest.at(-1)?.event, 'done');
    const text = all
      .filter((e) => e.event === undefined)
      .map((e) => (JSON.parse(e.data) as { text_output: string }).text_output)
      .join('');
    assert.equal(text, expected);
  });

  test('WebSocket: a dropped socket resumes its session and receives the rest of the deltas exactly once', async () => {
    const expected = await uninterrupted();
    const wsUrl = `${server.httpUrl.replace(/^http/, 'ws')}/v2/ws`;
    type Event = { type: string; id?: string; seq?: number; session?: { id: string }; outputs?: { data: string[] }[]; error?: { code: string } };
    const open = (): Promise<{ ws: WebSocket; next: () => Promise<Event> }> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(wsUrl, ['rtserve.v1']);
        const queue: Event[] = [];
        const waiters: ((e: Event) => void)[] = [];
        ws.on('message', (data, isBinary) => {
          if (isBinary) return;
          const e = JSON.parse(data.toString()) as Event;
          const w = waiters.shift();
          if (w !== undefined) w(e);
          else queue.push(e);
        });
        ws.once('open', () =>
          resolve({ ws, next: () => new Promise<Event>((r) => (queue.length > 0 ? r(queue.shift() as Event) : waiters.push(r))) }),
        );
        ws.once('error', reject);
      });

    const a = await open();
    const created = await a.next();
    assert.equal(created.type, 'session.created');
    const sessionId = created.session?.id as string;
    a.ws.send(
      JSON.stringify({
        type: 'infer',
        id: 'r1',
        model: 'charlm',
        inputs: [{ name: 'text_input', datatype: 'BYTES', shape: [1, 1], data: [PROMPT] }],
        parameters: PARAMS,
        stream: true,
      }),
    );
    const got: Event[] = [];
    while (got.length < 4) {
      const e = await a.next();
      if (e.id === 'r1') got.push(e);
    }
    assert.ok(got.every((e) => e.type === 'delta'));
    a.ws.terminate(); // no close handshake: what a network drop looks like to the server

    const b = await open();
    assert.equal((await b.next()).type, 'session.created');
    b.ws.send(JSON.stringify({ type: 'resume', session: sessionId, after: { r1: got.at(-1)?.seq } }));
    assert.equal((await b.next()).type, 'session.resumed');
    for (;;) {
      const e = await b.next();
      if (e.id !== 'r1') continue;
      got.push(e);
      if (e.type !== 'delta') break;
    }
    b.ws.close();
    assert.equal(got.at(-1)?.type, 'done');
    assert.deepEqual(
      got.map((e) => e.seq),
      got.map((_, i) => i + 1),
      'sequence numbers 1..n, no gap, no repeat',
    );
    const text = got
      .filter((e) => e.type === 'delta')
      .map((e) => e.outputs?.[0]?.data[0] ?? '')
      .join('');
    assert.equal(text, expected);
  });
});
