import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rtError, RtError } from '../../../src/errors/registry.ts';
import { GenerationStream } from '../../../src/generate/generation-stream.ts';
import type { GenerationEvent, GenerationResult } from '../../../src/generate/types.ts';

const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
const summarize = (): GenerationResult => ({
  id: 'g',
  model: 'm',
  version: '1',
  text: 'ab',
  tokens: [97, 98],
  finishReason: 'stop',
  usage,
  timeToFirstTokenMs: 0,
});

async function collect(it: AsyncIterable<GenerationEvent>): Promise<GenerationEvent[]> {
  const out: GenerationEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

test('readers get every event after their cursor exactly once, live events included, then the stream ends', async () => {
  const s = new GenerationStream(summarize);
  s.push({ type: 'delta', text: 'a', tokens: [97] });
  const fromStart = collect(s.events());
  const fromOne = collect(s.events(1));
  // A reader that stops early (disconnect) and another that resumes after what it saw.
  const it = s.events()[Symbol.asyncIterator]();
  const first = await it.next();
  await it.return?.();
  s.push({ type: 'delta', text: 'b', tokens: [98] });
  const resumed = collect(s.events((first.value as GenerationEvent).seq));
  s.push({ type: 'done', text: '', finishReason: 'stop', usage });
  s.push({ type: 'delta', text: 'late', tokens: [1] }); // after the terminal event: ignored
  assert.deepEqual(
    (await fromStart).map((e) => e.seq),
    [1, 2, 3],
  );
  assert.deepEqual(
    (await fromOne).map((e) => e.seq),
    [2, 3],
  );
  assert.deepEqual(
    (await resumed).map((e) => [e.seq, e.type]),
    [
      [2, 'delta'],
      [3, 'done'],
    ],
  );
  assert.equal(s.lastSeq, 3);
  assert.equal((await s.result).text, 'ab');
  assert.deepEqual(await collect(s.events(3)), [], 'a cursor at the end gives nothing');
  assert.throws(
    () => s.events(4),
    (e: unknown) => e instanceof RtError && e.code === 'BAD_PARAMETER',
  );
});

test('an error event ends the stream and rejects the result', async () => {
  const s = new GenerationStream(summarize);
  const reader = collect(s.events());
  s.push({ type: 'error', error: rtError('ENGINE_FAILED', 'boom') });
  assert.deepEqual(
    (await reader).map((e) => e.type),
    ['error'],
  );
  await assert.rejects(s.result, (e: unknown) => e instanceof RtError && e.code === 'ENGINE_FAILED');
});
