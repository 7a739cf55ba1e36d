import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJsonLimits, checkTensorLimits, MessageRateLimiter } from '../../../src/security/limits.ts';
import { withRequestLimits } from '../../../src/pipeline/limits.ts';
import { RtError } from '../../../src/errors/registry.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const limits = { maxJsonDepth: 8, maxJsonElements: 100 };

function isLimit(re: RegExp) {
  return (e: unknown) => e instanceof RtError && e.code === 'LIMIT_EXCEEDED' && e.httpStatus === 413 && re.test(e.message);
}

describe('checkJsonLimits', () => {
  test('depth: brackets and braces count, brackets inside strings do not', () => {
    checkJsonLimits(enc('[[[[[[[[1]]]]]]]]'), limits);
    assert.throws(() => checkJsonLimits(enc('[[[[[[[[[1]]]]]]]]]'), limits), isLimit(/deeper than the limit of 8 levels/));
    assert.throws(() => checkJsonLimits(enc('{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":1}}}}}}}}}'), limits), isLimit(/maxJsonDepth/));
    checkJsonLimits(enc(`{"s":"${'['.repeat(50)}\\"${'{'.repeat(50)}"}`), limits);
    // An unterminated body is left for the parser.
    checkJsonLimits(enc(`"${'['.repeat(50)}`), limits);
  });

  test('elements are counted before parsing', () => {
    checkJsonLimits(enc(`[${Array(100).fill(1).join(',')}]`), limits);
    assert.throws(() => checkJsonLimits(enc(`[${Array(101).fill(1).join(',')}]`), limits), isLimit(/more than 100 JSON values.*binary data/));
    checkJsonLimits(enc(`["${Array(500).fill('a').join(',')}"]`), limits);
  });

  test('a body shorter than both limits is not scanned (and cannot exceed them)', () => {
    checkJsonLimits(enc('[[['), limits);
  });
});

describe('checkTensorLimits', () => {
  test('inputs per request and elements per tensor', () => {
    const l = { maxInputsPerRequest: 2, maxElementsPerTensor: 100 };
    checkTensorLimits(
      [
        { name: 'a', shape: [10, 10] },
        { name: 'b', shape: [] },
      ],
      l,
    );
    assert.throws(
      () =>
        checkTensorLimits(
          [
            { name: 'a', shape: [1] },
            { name: 'b', shape: [1] },
            { name: 'c', shape: [1] },
          ],
          l,
        ),
      isLimit(/3 inputs; the limit is 2/),
    );
    assert.throws(() => checkTensorLimits([{ name: 'big', shape: [10, 11] }], l), isLimit(/input 'big' has 110 elements/));
  });
});

test('MessageRateLimiter: burst then rate; 0 = unlimited', () => {
  let t = 0;
  const m = new MessageRateLimiter(10, 2, () => t);
  assert.ok(m.take());
  assert.ok(m.take());
  assert.ok(!m.take());
  assert.equal(m.retryAfterMs, 100);
  t += 100;
  assert.ok(m.take());
  const free = new MessageRateLimiter(0);
  for (let i = 0; i < 1000; i++) assert.ok(free.take());
});

test('withRequestLimits checks infer and inferStream, and passes everything else through', async () => {
  const calls: string[] = [];
  const api = {
    name: 'core',
    infer(req: { inputs: readonly { name: string; shape: number[] }[] }) {
      calls.push(`infer ${req.inputs.length}`);
      return Promise.resolve('ok');
    },
    async *inferStream(req: { inputs: readonly { name: string; shape: number[] }[] }) {
      calls.push(`stream ${req.inputs.length}`);
      yield 'one';
    },
    hello(this: { name: string }) {
      return `hello from ${this.name}`;
    },
  };
  const limited = withRequestLimits(api, { maxInputsPerRequest: 1, maxElementsPerTensor: 4 });
  assert.equal(await limited.infer({ inputs: [{ name: 'a', shape: [2, 2] }] }), 'ok');
  await assert.rejects(limited.infer({ inputs: [{ name: 'a', shape: [5] }] }), isLimit(/input 'a' has 5 elements/));
  const refused = limited.inferStream({
    inputs: [
      { name: 'a', shape: [1] },
      { name: 'b', shape: [1] },
    ],
  });
  await assert.rejects(refused[Symbol.asyncIterator]().next(), isLimit(/2 inputs/));
  for await (const x of limited.inferStream({ inputs: [{ name: 'a', shape: [1] }] })) assert.equal(x, 'one');
  assert.equal(limited.hello(), 'hello from core');
  assert.deepEqual(calls, ['infer 1', 'stream 1']);
});
