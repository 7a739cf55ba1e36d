/**
 * The in-memory StreamJournal (src/state/stream-journal.ts): the contract the SSE front end relies on to resume a
 * stream on a server that does not hold it — read after a seq, follow while the producer's lease lives, report the
 * stream orphaned when the lease lapses, one claim wins, a released lease frees the stream.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryStreamJournal, type JournalEntry } from '../../../src/state/stream-journal.ts';

const META = { model: 'charlm', body: '{"text_input":"x","parameters":{"seed":1}}' };
const entry = (seq: number, terminal = false): JournalEntry => ({ seq, chunk: `id: s:${seq}\ndata: ${seq}\n\n`, terminal });

describe('MemoryStreamJournal', () => {
  it('reads the request and the events after a seq; an unknown stream reads as undefined', async () => {
    const j = new MemoryStreamJournal({ leaseMs: 60_000, windowMs: 60_000 });
    await j.create('s', META, 'a');
    for (const s of [1, 2, 3]) await j.append('s', entry(s));
    const r = await j.read('s', 1);
    assert.deepEqual(r?.meta, META);
    assert.deepEqual(
      r?.entries.map((e) => e.seq),
      [2, 3],
    );
    assert.equal(await j.read('nope', 0), undefined);
  });

  it('tail delivers appended events until the terminal one', async () => {
    const j = new MemoryStreamJournal({ leaseMs: 60_000, windowMs: 60_000 });
    await j.create('s', META, 'a');
    await j.append('s', entry(1));
    const got: number[] = [];
    const tail = j.tail('s', 0, (e) => got.push(e.seq), new AbortController().signal);
    await j.append('s', entry(2));
    await j.append('s', entry(3, true));
    assert.equal(await tail, 'finished');
    assert.deepEqual(got, [1, 2, 3]);
  });

  it('a lapsed lease makes the stream orphaned; one claim wins; the owner renews and releases', async () => {
    const j = new MemoryStreamJournal({ leaseMs: 30, windowMs: 60_000 });
    await j.create('s', META, 'a');
    assert.equal(await j.claim('s', 'b'), false, "a's lease is live");
    assert.equal(await j.claim('s', 'a'), true, 'the owner renews');
    // The owner stops renewing (it died): the follower wakes when the lease ends.
    assert.equal(await j.tail('s', 0, () => {}, new AbortController().signal), 'orphaned');
    assert.equal(await j.claim('s', 'b'), true);
    assert.equal(await j.claim('s', 'c'), false, 'b holds it now');
    await j.release('s', 'b');
    assert.equal(await j.claim('s', 'c'), true, 'released: free to claim');
    assert.equal(await j.claim('nope', 'c'), false, 'no claim on an unknown stream');
  });

  it('tail ends on abort, and on expiry of the stream', async () => {
    const j = new MemoryStreamJournal({ leaseMs: 60_000, windowMs: 60_000 });
    await j.create('s', META, 'a');
    const ac = new AbortController();
    const t = j.tail('s', 0, () => {}, ac.signal);
    ac.abort();
    assert.equal(await t, 'aborted');
    const short = new MemoryStreamJournal({ leaseMs: 60_000, windowMs: 1 });
    await short.create('x', META, 'a');
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(await short.tail('x', 0, () => {}, new AbortController().signal), 'expired');
  });
});
