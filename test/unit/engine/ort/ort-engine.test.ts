import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DataType } from '../../../../src/tensor/datatype.ts';
import type { Tensor } from '../../../../src/tensor/tensor.ts';
import type { EngineLoadOptions } from '../../../../src/engine/engine.ts';
import { createOrtEngine, type OrtEngineSession } from '../../../../src/engine/ort/index.ts';
import { cleanOrtMessage, sessionOptionsFor } from '../../../../src/engine/ort/ort-backend.ts';
import { RtError } from '../../../../src/errors/registry.ts';
import {
  addModel,
  allTypesIdentityModel,
  ElemType,
  heavyMatMulModel,
  identityModel,
  makeModelDir,
  type ORT_ELEM_TYPES,
  twoOutputModel,
  writeModel,
} from '../../../fixtures/onnx-builders.ts';

// One intra-op thread: these tests share a small machine and check behaviour, not speed.
const CPU: EngineLoadOptions = { providers: [{ name: 'cpu' }], intraOpNumThreads: 1, interOpNumThreads: 1 };

const engine = createOrtEngine();
let dir = '';
const paths: Record<string, string> = {};

before(async () => {
  dir = await makeModelDir();
  paths.add = await writeModel(dir, 'add', addModel());
  paths.allTypes = await writeModel(dir, 'all-types', allTypesIdentityModel());
  paths.twoOutputs = await writeModel(dir, 'two-outputs', twoOutputModel());
  paths.bf16 = await writeModel(dir, 'bf16', identityModel(ElemType.BFLOAT16));
  paths.heavy = await writeModel(dir, 'heavy', heavyMatMulModel(512, 48));
  paths.garbage = join(dir, 'garbage.onnx');
  await writeFile(paths.garbage, 'this is not a model');
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

function path(name: string): string {
  const p = paths[name];
  assert.ok(p !== undefined, `no fixture ${name}`);
  return p;
}

function f32(name: string, shape: number[], values: number[]): Tensor {
  return { name, datatype: 'FP32', shape, data: Float32Array.from(values) };
}

function rejectsWith(code: string, pattern?: RegExp): (err: unknown) => boolean {
  return (err: unknown) => {
    assert.ok(err instanceof RtError, `expected an RtError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (pattern !== undefined) assert.match(err.message, pattern);
    return true;
  };
}

async function withSession<T>(modelPath: string, options: EngineLoadOptions, fn: (s: OrtEngineSession) => Promise<T>): Promise<T> {
  const session = await engine.load(modelPath, options);
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

describe('createOrtEngine', () => {
  test('is named onnxruntime', () => {
    assert.equal(engine.name, 'onnxruntime');
  });

  test('describe() gives KServe datatypes, -1 for dynamic dims, and the provider', async () => {
    await withSession(path('twoOutputs'), CPU, async (s) => {
      assert.deepEqual(s.describe(), {
        inputs: [
          { name: 'a', datatype: 'FP32', shape: [-1, 2] },
          { name: 'b', datatype: 'FP32', shape: [-1, 2] },
          { name: 'i', datatype: 'INT64', shape: [-1] },
        ],
        outputs: [
          { name: 'sum', datatype: 'FP32', shape: [-1, 2] },
          { name: 'idx', datatype: 'INT64', shape: [-1] },
        ],
        provider: 'cpu',
      });
    });
  });

  test('Add with a dynamic batch dimension', async () => {
    await withSession(path('add'), CPU, async (s) => {
      const [one] = await s.run([f32('a', [1, 3], [1, 2, 3]), f32('b', [1, 3], [10, 20, 30])], ['y']);
      assert.deepEqual(one?.shape, [1, 3]);
      assert.deepEqual([...(one?.data as Float32Array)], [11, 22, 33]);
      const a = Array.from({ length: 15 }, (_, i) => i);
      const [five] = await s.run([f32('a', [5, 3], a), f32('b', [5, 3], a)], ['y']);
      assert.equal(five?.datatype, 'FP32');
      assert.deepEqual(five?.shape, [5, 3]);
      assert.deepEqual(
        [...(five?.data as Float32Array)],
        a.map((v) => 2 * v),
      );
    });
  });

  test('every onnxruntime-supported datatype round-trips through Identity', async () => {
    const enc = new TextEncoder();
    const samples: Record<keyof typeof ORT_ELEM_TYPES, Tensor['data']> = {
      BOOL: Uint8Array.of(1, 0, 1),
      UINT8: Uint8Array.of(0, 7, 255),
      UINT16: Uint16Array.of(0, 1, 65535),
      UINT32: Uint32Array.of(0, 1, 4294967295),
      UINT64: BigUint64Array.of(0n, 1n, 2n ** 64n - 1n),
      INT8: Int8Array.of(-128, 0, 127),
      INT16: Int16Array.of(-32768, 0, 32767),
      INT32: Int32Array.of(-(2 ** 31), 0, 2 ** 31 - 1),
      INT64: BigInt64Array.of(-(2n ** 63n), 0n, 2n ** 63n - 1n),
      // IEEE half bits: 1.0, -2.0, +inf
      FP16: Uint16Array.of(0x3c00, 0xc000, 0x7c00),
      FP32: Float32Array.of(-1.5, 0, 3.25),
      FP64: Float64Array.of(Math.PI, -0, 1e300),
      BYTES: ['héllo', '', '日本語'].map((s) => enc.encode(s)),
    };
    const datatypes = Object.keys(samples) as (keyof typeof samples)[];
    // Copies of the expectations: the inputs' buffers are transferred to the worker.
    const expected = datatypes.map((dt) => {
      const d = samples[dt];
      return Array.isArray(d) ? d.map((b) => new TextDecoder().decode(b)) : [...d];
    });
    const feeds: Tensor[] = datatypes.map((dt) => ({ name: `x_${dt}`, datatype: dt as DataType, shape: [3], data: samples[dt] }));
    // Ask for the outputs in reverse model order: answers come back in the order asked.
    const outputNames = datatypes.map((dt) => `y_${dt}`).reverse();
    await withSession(path('allTypes'), CPU, async (s) => {
      for (const meta of s.describe().inputs) assert.equal(meta.name, `x_${meta.datatype}`);
      const outputs = await s.run(feeds, outputNames);
      assert.deepEqual(
        outputs.map((o) => o.name),
        outputNames,
      );
      for (const [i, dt] of datatypes.entries()) {
        const out = outputs.find((o) => o.name === `y_${dt}`);
        assert.ok(out !== undefined);
        assert.equal(out.datatype, dt, `y_${dt} datatype`);
        assert.deepEqual(out.shape, [3]);
        const got = Array.isArray(out.data) ? out.data.map((b) => new TextDecoder().decode(b)) : [...out.data];
        assert.deepEqual(got, expected[i], `y_${dt} values`);
        if (dt === 'FP16') assert.ok(out.data instanceof Uint16Array);
        if (dt === 'BOOL') assert.ok(out.data instanceof Uint8Array);
        if (dt === 'INT64') assert.ok(out.data instanceof BigInt64Array);
      }
    });
  });

  test('inputs that are views into a larger buffer are sent without disturbing that buffer', async () => {
    await withSession(path('add'), CPU, async (s) => {
      const body = new Float32Array(12).map((_, i) => i);
      const a = body.subarray(0, 3);
      const b = body.subarray(3, 6);
      const [y] = await s.run(
        [
          { name: 'a', datatype: 'FP32', shape: [1, 3], data: a },
          { name: 'b', datatype: 'FP32', shape: [1, 3], data: b },
        ],
        ['y'],
      );
      assert.deepEqual([...(y?.data as Float32Array)], [3, 5, 7]);
      assert.deepEqual(
        [...body],
        Array.from({ length: 12 }, (_, i) => i),
      );
    });
  });

  test('a model with a bfloat16 input fails to load with UNSUPPORTED naming the tensor', async () => {
    await assert.rejects(engine.load(path('bf16'), CPU), rejectsWith('UNSUPPORTED', /input 'x'.*bfloat16/));
  });

  // A webgpu provider that cannot load on any host, GPU or not: onnxruntime-node refuses the unknown option. (A
  // plain 'webgpu' loads on a GPU machine, so it cannot stand for "a provider that fails".)
  const UNLOADABLE_WEBGPU = { name: 'webgpu' as const, options: { notAnOption: 'x' } };

  test("providers [webgpu that cannot load, 'cpu'] end up on cpu, tried one at a time", async () => {
    await withSession(path('add'), { ...CPU, providers: [UNLOADABLE_WEBGPU, { name: 'cpu' }] }, async (s) => {
      assert.equal(s.describe().provider, 'cpu');
      assert.equal(s.attempts.length, 2);
      assert.equal(s.attempts[0]?.provider, 'webgpu');
      assert.equal(s.attempts[0]?.ok, false);
      assert.match(s.attempts[0]?.error ?? '', /notAnOption/);
      assert.deepEqual(s.attempts[1], { provider: 'cpu', ok: true });
      const [y] = await s.run([f32('a', [1, 3], [1, 1, 1]), f32('b', [1, 3], [1, 2, 3])], ['y']);
      assert.deepEqual([...(y?.data as Float32Array)], [2, 3, 4]);
    });
  });

  test('a webgpu provider that cannot load, alone, fails with ENGINE_UNAVAILABLE naming webgpu', async () => {
    await assert.rejects(engine.load(path('add'), { ...CPU, providers: [UNLOADABLE_WEBGPU] }), rejectsWith('ENGINE_UNAVAILABLE', /webgpu: \S/));
  });

  test('provider options pass through to onnxruntime', async () => {
    // onnxruntime-node validates WebGPU options, so an unknown one shows they reached it.
    await assert.rejects(
      engine.load(path('add'), { ...CPU, providers: [{ name: 'webgpu', options: { notAnOption: 'x' } }] }),
      rejectsWith('ENGINE_UNAVAILABLE', /notAnOption/),
    );
    assert.deepEqual(
      sessionOptionsFor(
        { name: 'webgpu', options: { validationMode: 'disabled' } },
        {
          providers: [],
          graphOptimizationLevel: 'basic',
          intraOpNumThreads: 0,
          interOpNumThreads: 2,
          sessionConfig: { 'session.intra_op.allow_spinning': '0' },
        },
      ),
      {
        executionProviders: [{ name: 'webgpu', validationMode: 'disabled' }],
        graphOptimizationLevel: 'basic',
        interOpNumThreads: 2,
        extra: { 'session.intra_op.allow_spinning': '0' },
      },
    );
    assert.deepEqual(sessionOptionsFor({ name: 'cpu' }, { providers: [] }), { executionProviders: ['cpu'] });
  });

  test('session options are accepted by onnxruntime', async () => {
    const options: EngineLoadOptions = {
      ...CPU,
      graphOptimizationLevel: 'disabled',
      sessionConfig: { 'session.intra_op.allow_spinning': '0', 'session.inter_op.allow_spinning': '0' },
    };
    await withSession(path('add'), options, async (s) => {
      const [y] = await s.run([f32('a', [1, 3], [1, 2, 3]), f32('b', [1, 3], [1, 2, 3])], ['y']);
      assert.deepEqual([...(y?.data as Float32Array)], [2, 4, 6]);
    });
  });

  test('a missing or corrupt model file is MODEL_LOAD_FAILED, without the absolute path', async () => {
    await assert.rejects(engine.load(join(dir, 'nope.onnx'), CPU), (err: unknown) => {
      rejectsWith('MODEL_LOAD_FAILED', /'nope.onnx'/)(err);
      assert.ok(!(err as Error).message.includes(dir));
      return true;
    });
    await assert.rejects(engine.load(path('garbage'), CPU), (err: unknown) => {
      rejectsWith('MODEL_LOAD_FAILED', /cpu: .*'garbage.onnx'/)(err);
      assert.ok(!(err as Error).message.includes(dir));
      return true;
    });
  });

  test('onnxruntime refusing an input rank is BAD_SHAPE naming the model and the shapes; the session keeps working', async () => {
    await withSession(path('add'), CPU, async (s) => {
      await assert.rejects(
        s.run([f32('a', [3], [1, 2, 3]), f32('b', [1, 3], [1, 2, 3])], ['y']),
        rejectsWith('BAD_SHAPE', /model 'add.onnx' cannot run inputs of these shapes \('a' \[3\], 'b' \[1,3\]\): .*rank.*\ba\b/i),
      );
      assert.equal(s.isAlive(), true);
      const [y] = await s.run([f32('a', [1, 3], [1, 2, 3]), f32('b', [1, 3], [4, 5, 6])], ['y']);
      assert.deepEqual([...(y?.data as Float32Array)], [5, 7, 9]);
    });
  });

  test('request mistakes the engine can see are named: datatype, unknown input/output, missing input, bad size', async () => {
    await withSession(path('add'), CPU, async (s) => {
      const b = (): Tensor => f32('b', [1, 3], [1, 2, 3]);
      await assert.rejects(
        s.run([{ name: 'a', datatype: 'INT32', shape: [1, 3], data: Int32Array.of(1, 2, 3) }, b()], ['y']),
        rejectsWith('BAD_DATATYPE', /input 'a' must be FP32, got INT32/),
      );
      await assert.rejects(s.run([f32('a', [1, 3], [1, 2, 3]), b(), f32('c', [1], [1])], ['y']), rejectsWith('UNEXPECTED_INPUT', /'c'/));
      await assert.rejects(s.run([b()], ['y']), rejectsWith('MISSING_INPUT', /'a'/));
      await assert.rejects(s.run([f32('a', [1, 3], [1, 2, 3]), b()], ['z']), rejectsWith('UNKNOWN_OUTPUT', /'z'/));
      await assert.rejects(s.run([f32('a', [1, 3], [1, 2]), b()], ['y']), rejectsWith('BAD_DATA', /input 'a'/));
      // Empty outputNames means every output.
      const all = await s.run([f32('a', [1, 3], [1, 2, 3]), b()], []);
      assert.deepEqual(
        all.map((t) => t.name),
        ['y'],
      );
    });
  });

  test('concurrent runs on one session each get their own answer', async () => {
    await withSession(path('add'), CPU, async (s) => {
      const runs = Array.from({ length: 24 }, (_, i) => s.run([f32('a', [1, 3], [i, i, i]), f32('b', [1, 3], [0, 1, 2])], ['y']));
      const results = await Promise.all(runs);
      results.forEach(([y], i) => assert.deepEqual([...(y?.data as Float32Array)], [i, i + 1, i + 2]));
    });
  });

  test('several sessions (one worker each) run side by side', async () => {
    const sessions = await Promise.all([1, 2, 3].map(() => engine.load(path('add'), CPU)));
    try {
      const results = await Promise.all(sessions.map((s, k) => s.run([f32('a', [1, 3], [k, k, k]), f32('b', [1, 3], [1, 1, 1])], ['y'])));
      results.forEach(([y], k) => assert.deepEqual([...(y?.data as Float32Array)], [k + 1, k + 1, k + 1]));
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
  });

  test('the event loop keeps turning while a heavy run executes', async () => {
    await withSession(path('heavy'), CPU, async (s) => {
      const n = 512;
      let ticks = 0;
      const timer = setInterval(() => {
        ticks++;
      }, 1);
      try {
        const [y] = await s.run([f32('x', [n, n], new Array<number>(n * n).fill(1))], ['y']);
        assert.deepEqual(y?.shape, [n, n]);
      } finally {
        clearInterval(timer);
      }
      // Had the run blocked this thread, the interval could not have fired before the run resolved.
      assert.ok(ticks > 0, 'setInterval never fired during the run');
    });
  });

  test('cancellation: an aborted signal is CANCELLED; aborting mid-run releases the caller early', async () => {
    await withSession(path('heavy'), CPU, async (s) => {
      const n = 512;
      const x = (): Tensor => f32('x', [n, n], new Array<number>(n * n).fill(1));
      await assert.rejects(s.run([x()], ['y'], AbortSignal.abort()), rejectsWith('CANCELLED'));
      const controller = new AbortController();
      const running = s.run([x()], ['y'], controller.signal);
      controller.abort();
      await assert.rejects(running, rejectsWith('CANCELLED'));
      // The worker still finishes that run; the session then serves the next one.
      const [y] = await s.run([x()], ['y']);
      assert.deepEqual(y?.shape, [n, n]);
    });
  });

  test('close() releases the session: later runs fail, close is idempotent', async () => {
    const s = await engine.load(path('add'), CPU);
    const pending = s.run([f32('a', [1, 3], [1, 2, 3]), f32('b', [1, 3], [1, 2, 3])], ['y']);
    await s.close();
    // A run posted before close still completes.
    const [y] = await pending;
    assert.deepEqual([...(y?.data as Float32Array)], [2, 4, 6]);
    assert.equal(s.isAlive(), false);
    await assert.rejects(s.run([f32('a', [1, 3], [1, 2, 3]), f32('b', [1, 3], [1, 2, 3])], ['y']), rejectsWith('MODEL_NOT_READY'));
    await s.close();
  });
});

describe('cleanOrtMessage', () => {
  test('keeps what went wrong, drops the source location and the failed condition', () => {
    assert.equal(
      cleanOrtMessage(
        '/onnxruntime_src/onnxruntime/core/providers/webgpu/webgpu_context.cc:136 onnxruntime::webgpu::X::<lambda()> status == Success was false. Failed to get a WebGPU adapter: No supported adapters',
      ),
      'Failed to get a WebGPU adapter: No supported adapters',
    );
    assert.equal(cleanOrtMessage('Invalid rank for input: a Got: 1 Expected: 2'), 'Invalid rank for input: a Got: 1 Expected: 2');
  });
});
