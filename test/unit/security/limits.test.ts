import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJsonLimits, checkTensorLimits, MessageRateLimiter } from '../../../src/security/limits.ts';
import { RequestLimitsLayer } from '../../../src/pipeline/limits.ts';
import { compose } from '../../../src/pipeline/layer.ts';
import type { InferRequest, InferResponse } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
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

test('RequestLimitsLayer checks infer and inferStream before the layers below see the request', async () => {
  const calls: string[] = [];
  const answer: InferResponse = { model_name: 'm', model_version: '1', outputs: [] };
  const base = {
    infer(req: InferRequest): Promise<InferResponse> {
      calls.push(`infer ${req.inputs.length}`);
      return Promise.resolve(answer);
    },
    async *inferStream(req: InferRequest): AsyncGenerator<InferResponse> {
      calls.push(`stream ${req.inputs.length}`);
      yield answer;
    },
  };
  const t = (name: string, shape: number[]): Tensor => ({ name, datatype: 'INT32', shape, data: new Int32Array(shape.reduce((a, b) => a * b, 1)) });
  const limited = compose([new RequestLimitsLayer({ maxInputsPerRequest: 1, maxElementsPerTensor: 4 })], base);
  assert.equal(await limited.infer({ model: 'm', inputs: [t('a', [2, 2])] }), answer);
  await assert.rejects(limited.infer({ model: 'm', inputs: [t('a', [5])] }), isLimit(/input 'a' has 5 elements/));
  const refused = limited.stream({ model: 'm', inputs: [t('a', [1]), t('b', [1])] });
  await assert.rejects(refused[Symbol.asyncIterator]().next(), isLimit(/2 inputs/));
  for await (const x of limited.stream({ model: 'm', inputs: [t('a', [1])] })) assert.equal(x, answer);
  assert.deepEqual(calls, ['infer 1', 'stream 1']);
});
