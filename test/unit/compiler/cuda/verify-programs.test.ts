/**
 * The CUDA build's end-to-end program check (src/compiler/cuda/verify-programs.ts). The outlier rule is tested on
 * numbers; the plumbing (one reference run, one run per program with exactly `batch` rows, errors per output)
 * with real onnxruntime sessions, the "plan" side being onnxruntime too, since no GPU is here.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyPrograms, verifyPrograms } from '../../../../src/compiler/cuda/verify-programs.ts';
import { syntheticDataset } from '../../../../src/compiler/data/dataset.ts';
import { loadModel } from '../../../../src/compiler/ir/graph.ts';
import type { OfflineRuntime, RuntimeSession } from '../../../../src/plan/runtime.ts';
import { runtime } from '../helpers.ts';
import { tinyConvNet } from '../models.ts';

describe('classifyPrograms', () => {
  test('a program far off its siblings and over the tolerance is an outlier', () => {
    const checks = classifyPrograms([
      { batch: 1, err: 1.6e-3 },
      { batch: 8, err: 1.7e-3 },
      { batch: 16, err: 8.7e-2 },
      { batch: 32, err: 1.9e-3 },
      { batch: 256, err: 2.1e-3 },
    ]);
    assert.deepEqual(
      checks.filter((c) => c.outlier).map((c) => c.batch),
      [16],
    );
  });

  test('programs all off alike are the model, not a program: none is an outlier', () => {
    const checks = classifyPrograms([
      { batch: 1, err: 3e-2 },
      { batch: 2, err: 2.7e-2 },
      { batch: 4, err: 3.3e-2 },
    ]);
    assert.equal(checks.filter((c) => c.outlier).length, 0);
  });

  test('an error under the tolerance is never an outlier, however far from the median', () => {
    const checks = classifyPrograms([
      { batch: 1, err: 1e-5 },
      { batch: 2, err: 1e-5 },
      { batch: 4, err: 9e-3 },
    ]);
    assert.equal(checks.filter((c) => c.outlier).length, 0);
  });

  test('a program the engine reports as history-dependent is an outlier however small its error, except the largest', () => {
    const checks = classifyPrograms([
      { batch: 1, err: 2e-3 },
      { batch: 8, err: 2.1e-3, historyDependent: true },
      { batch: 16, err: 2e-3 },
      { batch: 64, err: 2e-3, historyDependent: true },
    ]);
    assert.deepEqual(
      checks.filter((c) => c.outlier).map((c) => c.batch),
      [8],
    );
    assert.deepEqual(
      checks.filter((c) => c.historyDependent === true).map((c) => c.batch),
      [8, 64],
    );
  });

  test('a non-finite error (NaN or inf in the output) is an outlier', () => {
    const checks = classifyPrograms([
      { batch: 1, err: 1e-3 },
      { batch: 2, err: Number.NaN },
      { batch: 4, err: 1e-3 },
    ]);
    assert.deepEqual(
      checks.filter((c) => c.outlier).map((c) => c.batch),
      [2],
    );
  });
});

/** onnxruntime standing in for the CUDA runtime: a 'cuda' session is an onnxruntime one, passed through `wrap`. */
function asPlan(wrap: (s: RuntimeSession) => RuntimeSession): OfflineRuntime {
  return {
    ...runtime,
    runnableTargets: [...runtime.runnableTargets, 'cuda'],
    async createSession(model, options) {
      const s = await runtime.createSession(model, { ...options, target: 'ort-cpu' });
      return options.target === 'cuda' ? wrap(s) : s;
    },
  };
}

/** The test model, and its inputs with fixed 1x3x8x8 shapes for a synthetic dataset. */
function convNet() {
  const bytes = tinyConvNet({ softmax: false });
  const g = loadModel(bytes);
  return { bytes, g, inputs: g.inputs.map((i) => ({ ...i, type: { ...i.type, shape: [1, 3, 8, 8] } })) };
}

describe('verifyPrograms with real sessions', () => {
  test('runs the reference once and every program over the whole dataset, exactly its batch of rows at a time, each smaller one after the largest', async () => {
    const { bytes, g, inputs } = convNet();
    const rowsRun: number[] = [];
    const plan = asPlan((s) => ({
      ...s,
      run: async (feeds, names) => {
        rowsRun.push(Object.values(feeds)[0]?.dims[0] ?? -1);
        return s.run(feeds, names);
      },
    }));
    const data = syntheticDataset(inputs, 16, 3);
    const checks = await verifyPrograms(plan, { bytes, inputs: g.inputs }, bytes, ['logits'], data, [16, 1, 4]);
    assert.deepEqual(rowsRun, [16, ...new Array<number>(16).fill(1), 16, 4, 4, 4, 4, 16]);
    assert.deepEqual(
      checks.map((c) => c.batch),
      [1, 4, 16],
    );
    for (const c of checks) {
      assert.ok(c.relMaxError < 1e-5, `batch ${c.batch}: the same model agrees with itself (${c.relMaxError})`);
      assert.equal(c.outlier, false);
    }
  });

  test("the runtime's history-dependent programs are reported and dropped", async () => {
    const { bytes, g, inputs } = convNet();
    const plan = asPlan((s) => ({ ...s, historyDependentBatches: () => [4] }));
    const checks = await verifyPrograms(plan, { bytes, inputs: g.inputs }, bytes, ['logits'], syntheticDataset(inputs, 16, 3), [1, 4, 16]);
    assert.deepEqual(
      checks.map((c) => [c.batch, c.outlier, c.historyDependent === true]),
      [
        [1, false, false],
        [4, true, true],
        [16, false, false],
      ],
    );
  });

  test('a program whose output depends on what a larger batch left behind is found by its error and dropped', async () => {
    const { bytes, g, inputs } = convNet();
    // The stand-in plan: batch 4 reads stale memory once a larger batch has run (its output is off by 5%), as
    // ResNet-50's drifting programs did on the GPU; the engine's own load-time check does not flag it.
    const plan = asPlan((s) => {
      let largestRan = 0;
      return {
        ...s,
        run: async (feeds, names) => {
          const rows = Object.values(feeds)[0]?.dims[0] ?? 0;
          const out = await s.run(feeds, names);
          const logits = out['logits'];
          if (rows === 4 && largestRan > rows && logits !== undefined) {
            const data = logits.data as Float32Array;
            for (let i = 0; i < data.length; i++) data[i] = (data[i] as number) * 1.05 + 0.05;
          }
          largestRan = Math.max(largestRan, rows);
          return out;
        },
      };
    });
    const checks = await verifyPrograms(plan, { bytes, inputs: g.inputs }, bytes, ['logits'], syntheticDataset(inputs, 16, 3), [1, 4, 16]);
    assert.deepEqual(
      checks.map((c) => [c.batch, c.outlier]),
      [
        [1, false],
        [4, true],
        [16, false],
      ],
    );
    assert.ok((checks[1]?.relMaxError ?? 0) > 1e-2, `batch 4 error ${checks[1]?.relMaxError}`);
  });

  test('too few samples for the largest program is refused', async () => {
    const { bytes, g, inputs } = convNet();
    const data = syntheticDataset(inputs, 4, 3);
    await assert.rejects(verifyPrograms(runtime, { bytes, inputs: g.inputs }, bytes, ['logits'], data, [1, 8]), /4 samples for a batch-8 program/);
  });
});
