/**
 * The WebSocket journal's forms (src/transport/ws/ws-journal.ts): an event journaled without `event_id` comes back
 * with the replaying connection's, binary frames included; an infer event that would sample without a seed gets one
 * pinned (so a replica re-running it draws the same tokens), other events are left as they are; keys keep the
 * client's request ids inert.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../../../../src/app/rtserve-server.ts';
import { fromJournalChunk, pinWsSeed, toJournalChunk, wsJournalKey } from '../../../../src/transport/ws/ws-journal.ts';
import { startTestServer } from '../../../helpers/server.ts';

describe('WebSocket journal forms', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  it('round-trips an event with binary frames, putting the connection event_id after the type', () => {
    const json = new TextEncoder().encode('{"type":"delta","id":"r,1","seq":3,"outputs":[{"name":"x","parameters":{"binary_data_size":3}}]}');
    const chunk = toJournalChunk({ json, binary: [Uint8Array.of(1, 2, 10), Uint8Array.of()] });
    const back = fromJournalChunk(chunk, 'e9');
    assert.deepEqual(JSON.parse(back.json), {
      type: 'delta',
      event_id: 'e9',
      id: 'r,1',
      seq: 3,
      outputs: [{ name: 'x', parameters: { binary_data_size: 3 } }],
    });
    assert.ok(back.json.startsWith('{"type":"delta","event_id":"e9",'));
    assert.deepEqual(
      back.binary.map((b) => [...b]),
      [[1, 2, 10], []],
    );
    const text = fromJournalChunk(toJournalChunk({ json: '{"type":"done","id":"r","seq":4,"responses":3}', binary: [] }), 'e1');
    assert.deepEqual(JSON.parse(text.json), { type: 'done', event_id: 'e1', id: 'r', seq: 4, responses: 3 });
    assert.deepEqual(text.binary, []);
  });

  it('pins a seed for a generative model sampling without one, and only then', () => {
    const event = { type: 'infer', id: 'g', model: 'charlm', inputs: [], parameters: { temperature: 0.8 }, stream: true };
    const pinned = pinWsSeed(server.core, 'charlm', undefined, event) as { parameters: Record<string, number> };
    assert.ok(Number.isSafeInteger(pinned.parameters['seed']));
    assert.equal(pinned.parameters['temperature'], 0.8);
    assert.deepEqual(event.parameters, { temperature: 0.8 }, 'the original event is not changed');
    for (const [model, e] of [
      ['charlm', { ...event, parameters: { seed: 3 } }],
      ['charlm', { ...event, parameters: { random_seed: 3 } }],
      ['charlm', { ...event, inputs: [{ name: 'seed', datatype: 'INT64', shape: [1], data: [3] }] }],
      ['simple', { ...event, model: 'simple' }],
    ] as const) {
      assert.equal(pinWsSeed(server.core, model, undefined, e), e);
    }
  });

  it('keys a request by session and base64url id, so ids with braces or colons stay inside the key', () => {
    assert.equal(wsJournalKey('s1', 'a}{:b'), `ws:s1:${Buffer.from('a}{:b').toString('base64url')}`);
    assert.doesNotMatch(wsJournalKey('s1', 'a}{:b').slice(6), /[{}:]/);
  });
});
