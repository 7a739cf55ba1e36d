/**
 * How `rtserve bench` builds request inputs from model metadata (shapes, batch dimension, dynamic dims, datatypes)
 * and reads input files in both accepted forms.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_TYPES } from '../../../src/tensor/datatype.ts';
import { BenchError } from '../../../src/bench/errors.ts';
import { inputsFromFile, randomData, randomInputs, requestShape, zeroInputs } from '../../../src/bench/inputs.ts';
import { parseShapeFlag } from '../../../src/bench/bench-command.ts';

describe('request shapes from model metadata', () => {
  const batched = { name: 'x', datatype: 'FP32' as const, shape: [-1, 3, -1] };
  test('the batch dimension takes --batch, other dynamic dims become 1', () => {
    assert.deepEqual(requestShape(batched, { batch: 4, maxBatchSize: 8 }), [4, 3, 1]);
  });
  test('--shape sets dynamic dims (without the batch dimension) and must fit the fixed ones', () => {
    assert.deepEqual(requestShape(batched, { batch: 2, maxBatchSize: 8, shapes: new Map([['x', [3, 7]]]) }), [2, 3, 7]);
    assert.throws(() => requestShape(batched, { batch: 2, maxBatchSize: 8, shapes: new Map([['x', [4, 7]]]) }), BenchError);
    assert.throws(() => requestShape(batched, { batch: 2, maxBatchSize: 8, shapes: new Map([['x', [3]]]) }), BenchError);
  });
  test('a model without batching keeps its shape and refuses --batch > 1; a batch over max_batch_size is refused', () => {
    const fixed = { name: 'y', datatype: 'INT32' as const, shape: [2, -1] };
    assert.deepEqual(requestShape(fixed, { batch: 1, maxBatchSize: 0 }), [2, 1]);
    assert.throws(() => requestShape(fixed, { batch: 2, maxBatchSize: 0 }), /max_batch_size 0/);
    assert.throws(() => requestShape(batched, { batch: 9, maxBatchSize: 8 }), /exceeds the model's max_batch_size 8/);
  });
  test('--shape flag parsing', () => {
    assert.deepEqual(parseShapeFlag('input:3,224,224'), ['input', [3, 224, 224]]);
    assert.deepEqual(parseShapeFlag('ns:name:5'), ['ns:name', [5]]);
    assert.throws(() => parseShapeFlag('input'), BenchError);
    assert.throws(() => parseShapeFlag('input:3,x'), BenchError);
  });
});

describe('random and zero data', () => {
  test('every datatype gets data of its own array type and element count, deterministically', () => {
    for (const dt of DATA_TYPES) {
      const a = randomData(dt, 5, () => 0.25);
      assert.equal(a.length, 5, dt);
      if (dt === 'BYTES') assert.ok(Array.isArray(a) && a.every((e) => e instanceof Uint8Array && e.byteLength === 16));
    }
    const meta = [
      { name: 'a', datatype: 'FP32' as const, shape: [-1, 4] },
      { name: 'b', datatype: 'INT64' as const, shape: [-1, 2] },
    ];
    const one = randomInputs(meta, { batch: 3, maxBatchSize: 8 });
    assert.deepEqual(
      one.map((t) => t.shape),
      [
        [3, 4],
        [3, 2],
      ],
    );
    assert.ok(one[1]?.data instanceof BigInt64Array);
    assert.deepEqual(randomInputs(meta, { batch: 3, maxBatchSize: 8 }), one, 'same seed, same data');
    assert.ok(
      zeroInputs(meta, { batch: 3, maxBatchSize: 8 }).every((t) =>
        [...(t.data as ArrayLike<number | bigint> & Iterable<number | bigint>)].every((v) => Number(v) === 0),
      ),
    );
  });
});

describe('input files', () => {
  let dir: string;
  const meta = [{ name: 'INPUT0', datatype: 'INT32' as const, shape: [-1, 4] }];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtserve-bench-inputs-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('perf_analyzer form: one sample per entry, repeated over the batch; {content, shape} accepted', async () => {
    const file = join(dir, 'pa.json');
    await writeFile(file, JSON.stringify({ data: [{ INPUT0: [1, 2, 3, 4] }, { INPUT0: { content: [5, 6, 7, 8], shape: [4] } }] }));
    const sets = await inputsFromFile(file, meta, { batch: 2, maxBatchSize: 8 });
    assert.equal(sets.length, 2);
    assert.deepEqual(sets[0]?.[0]?.shape, [2, 4]);
    assert.deepEqual([...(sets[0]?.[0]?.data as Int32Array)], [1, 2, 3, 4, 1, 2, 3, 4]);
    assert.deepEqual([...(sets[1]?.[0]?.data as Int32Array)], [5, 6, 7, 8, 5, 6, 7, 8]);
  });
  test('KServe request form is sent as written', async () => {
    const file = join(dir, 'kserve.json');
    await writeFile(file, JSON.stringify({ inputs: [{ name: 'INPUT0', datatype: 'INT32', shape: [1, 4], data: [9, 9, 9, 9] }] }));
    const sets = await inputsFromFile(file, meta, { batch: 1, maxBatchSize: 8 });
    assert.deepEqual(
      sets.map((s) => s.map((t) => [...(t.data as Int32Array)])),
      [[[9, 9, 9, 9]]],
    );
  });
  test('a file that fits neither form, misses an input or has the wrong count is refused with a clear message', async () => {
    const cases: [unknown, RegExp][] = [
      [{ foo: 1 }, /expected a KServe request/],
      [{ data: [{ OTHER: [1] }] }, /no value for input 'INPUT0'/],
      [{ data: [{ INPUT0: [1, 2, 3] }] }, /needs 4 elements, data has 3/],
    ];
    for (const [body, message] of cases) {
      const file = join(dir, 'bad.json');
      await writeFile(file, JSON.stringify(body));
      await assert.rejects(
        inputsFromFile(file, meta, { batch: 1, maxBatchSize: 8 }),
        (err: unknown) => err instanceof BenchError && message.test(err.message),
      );
    }
    await assert.rejects(inputsFromFile(join(dir, 'missing.json'), meta, { batch: 1, maxBatchSize: 8 }), BenchError);
  });
});
