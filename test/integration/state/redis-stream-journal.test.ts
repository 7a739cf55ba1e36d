/**
 * The Redis stream journal (src/state/redis-stream-journal.ts) in a real redis-server, next to the in-memory one:
 * both keep the request and the events after a seq, one claim wins and a release frees the stream, and a key
 * recorded again (a WebSocket request id reused within its session, src/transport/ws/ws-journal.ts) starts with no
 * events of the request that used it before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeRedis, connectRedis } from '../../../src/state/redis-connection.ts';
import { RedisStreamJournal } from '../../../src/state/redis-stream-journal.ts';
import { MemoryStreamJournal, type JournalEntry, type StreamJournal } from '../../../src/state/stream-journal.ts';
import { RedisServer, redisSkip } from '../../helpers/redis.ts';

const entry = (seq: number, terminal = false): JournalEntry => ({ seq, chunk: `{"type":"delta","seq":${seq}}`, terminal });
const meta = (body: string) => ({ model: 'charlm', body });

describe('stream journals: Redis and memory', { skip: redisSkip() }, () => {
  let server: RedisServer;
  const journals: [string, StreamJournal, () => Promise<void>][] = [];
  before(async () => {
    server = await RedisServer.start();
    const redis = await connectRedis({ url: server.url, timeoutMs: 2000 });
    const options = { leaseMs: 60_000, windowMs: 60_000, timeoutMs: 2000 };
    journals.push(['redis', new RedisStreamJournal(redis, `rtserve-test-${process.pid}:`, options), () => closeRedis(redis)]);
    journals.push(['memory', new MemoryStreamJournal(options), () => Promise.resolve()]);
  });
  after(async () => {
    for (const [, j, close] of journals) {
      await j.close();
      await close();
    }
    await server?.kill();
  });

  it('keeps the request and the events after a seq; one claim wins, a release frees the stream', async () => {
    for (const [name, j] of journals) {
      await j.create('s1', meta('{"a":1}'), 'replica-a');
      for (const seq of [1, 2, 3]) await j.append('s1', entry(seq, seq === 3));
      const read = await j.read('s1', 1);
      assert.deepEqual(read?.meta, meta('{"a":1}'), name);
      assert.deepEqual(
        read?.entries.map((e) => [e.seq, e.terminal]),
        [
          [2, false],
          [3, true],
        ],
        name,
      );
      assert.equal(await j.read('nope', 0), undefined, name);
      assert.equal(await j.claim('s1', 'replica-b'), false, `${name}: the producer's lease holds`);
      await j.release('s1', 'replica-a');
      assert.equal(await j.claim('s1', 'replica-b'), true, `${name}: a released stream is claimed`);
    }
  });

  it('a key recorded again starts with no events of its previous request', async () => {
    for (const [name, j] of journals) {
      await j.create('reused', meta('{"first":true}'), 'replica-a');
      for (const seq of [1, 2]) await j.append('reused', entry(seq, seq === 2));
      await j.create('reused', meta('{"second":true}'), 'replica-a');
      await j.append('reused', entry(1));
      const read = await j.read('reused', 0);
      assert.deepEqual(read?.meta, meta('{"second":true}'), name);
      assert.deepEqual(
        read?.entries.map((e) => [e.seq, e.terminal]),
        [[1, false]],
        `${name}: only the new request's events`,
      );
    }
  });
});
