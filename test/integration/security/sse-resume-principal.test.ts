/**
 * An SSE stream belongs to the principal that started it (issue 37, hole 3): a `Last-Event-ID` naming another
 * principal's stream is refused as WebSocket resume refuses, RESUME_EXPIRED (404), with no event of it, on the
 * replica that holds the stream and on one that would resume it from the shared journal; the owner's live response
 * is never disturbed (every event, then `done`), and the owner can still resume its own stream. Before, the other
 * principal got the stream replayed and the owner's response was cut after its first event.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { readSse, type SseMessage } from '../../../packages/client/src/sse-reader.ts';
import type { ServerConfigInput } from '../../../src/config/server-config.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import { MemoryStreamJournal } from '../../../src/state/stream-journal.ts';
import { Gate, startGatedServer } from '../ws/gated-engine.ts';

const KEY_A = 'sk-sse-owner-a';
const KEY_B = 'sk-sse-other-b';
const INPUT0 = Array.from({ length: 16 }, (_, i) => i);
const BODY = { INPUT0, INPUT1: new Array(16).fill(3) };

const SETTINGS: Partial<ServerConfigInput> = {
  // The heartbeat commits the 200 while the model is held, so the owner's stream is live before its first event.
  sseHeartbeatIntervalMs: 50,
  wsResumeWindowMs: 60000,
  auth: {
    enabled: true,
    apiKeys: [
      { id: 'a', sha256: hashApiKey(KEY_A), scopes: ['infer'] },
      { id: 'b', sha256: hashApiKey(KEY_B), scopes: ['infer'] },
    ],
  },
};

async function allEvents(res: Response): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const m of readSse(res.body as ReadableStream<Uint8Array>)) out.push(m);
  return out;
}

describe('SSE Last-Event-ID is honoured only for the principal that started the stream', () => {
  const gate = new Gate();
  const journal = new MemoryStreamJournal({ leaseMs: 60000, windowMs: 60000 });
  /** Two replicas on one journal: `holder` runs the streams, `other` would resume them from the journal. */
  let holder: RunningServer;
  let other: RunningServer;
  const start = (): Promise<RunningServer> =>
    startGatedServer(gate, SETTINGS, { sharedState: { replicaId: `replica-${Math.random()}`, journal, close: () => Promise.resolve() } });
  const generateStream = (server: RunningServer, key: string, lastEventId?: string): Promise<Response> =>
    fetch(`${server.httpUrl}/v2/models/simple/generate_stream`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      },
      body: JSON.stringify(BODY),
    });
  const expectRefused = async (res: Response): Promise<void> => {
    // The status first: a stream that was resumed (200) would not end while the model is held.
    if (res.status !== 404) await res.body?.cancel();
    assert.equal(res.status, 404, 'refused as an unknown stream');
    const text = await res.text();
    const err = JSON.parse(text) as { code: string; error: string };
    assert.equal(err.code, 'RESUME_EXPIRED', text);
    assert.doesNotMatch(text, /OUTPUT0/, 'no event of the stream');
  };

  before(async () => {
    holder = await start();
    other = await start();
  });
  after(async () => {
    gate.release('simple');
    await Promise.all([holder?.close(), other?.close()]);
  });

  test("b's Last-Event-ID for a's live stream is refused on both replicas; a's response is whole", async () => {
    const runs = gate.runs('simple');
    gate.hold('simple');
    const owner = await generateStream(holder, KEY_A);
    assert.equal(owner.status, 200);
    const sid = owner.headers.get('rtserve-stream-id') ?? '';
    assert.match(sid, /^[0-9a-f-]{36}$/);
    // a's request is in the model (held there): its stream is live and its response open.
    await gate.untilRuns('simple', runs + 1);
    const ownerEvents = allEvents(owner);

    await expectRefused(await generateStream(holder, KEY_B, `${sid}:0`));
    await expectRefused(await generateStream(other, KEY_B, `${sid}:0`));

    gate.release('simple');
    const events = await ownerEvents;
    assert.deepEqual(
      events.map((e) => [e.event, e.id]),
      [
        ['message', `${sid}:1`],
        ['done', `${sid}:2`],
      ],
      "a's response: its event, then done",
    );
    assert.deepEqual(
      JSON.parse(events[0]?.data ?? '{}').OUTPUT0,
      INPUT0.map((v) => v + 3),
    );

    // a's own resume still works, on the holder and from the journal, and b is still refused after the end.
    for (const server of [holder, other]) {
      const resumed = await allEvents(await generateStream(server, KEY_A, `${sid}:1`));
      assert.deepEqual(
        resumed.map((e) => [e.event, e.id]),
        [['done', `${sid}:2`]],
      );
      await expectRefused(await generateStream(server, KEY_B, `${sid}:1`));
    }
  });
});
