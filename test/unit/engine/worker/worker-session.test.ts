import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Tensor } from '../../../../src/tensor/tensor.ts';
import { RtError } from '../../../../src/errors/registry.ts';
import { modelLabelOf, WorkerSession } from '../../../../src/engine/worker/worker-session.ts';

const FAKE_WORKER = new URL('./fake-engine-worker.ts', import.meta.url);
const OPTIONS = { providers: [{ name: 'cpu' as const }] };

function open(modelPath = 'echo'): Promise<WorkerSession> {
  return WorkerSession.open({ workerUrl: FAKE_WORKER, modelPath, modelLabel: "'fake'", options: OPTIONS });
}

function f32(name: string, values: number[]): Tensor {
  return { name, datatype: 'FP32', shape: [values.length], data: Float32Array.from(values) };
}

function sleepFeed(ms: number): Tensor {
  return { name: 'sleep', datatype: 'INT32', shape: [1], data: Int32Array.of(ms) };
}

function isCode(code: string): (err: unknown) => boolean {
  return (err: unknown) => {
    assert.ok(err instanceof RtError, `expected an RtError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return true;
  };
}

describe('modelLabelOf', () => {
  test('names a Triton repository model by model and version, anything else by file name', () => {
    assert.equal(modelLabelOf('/srv/models/resnet/3/model.onnx'), "'resnet' v3");
    assert.equal(modelLabelOf('/tmp/x/add.onnx'), "'add.onnx'");
  });
});

describe('WorkerSession', () => {
  test('loads, describes and echoes tensors through the worker', async () => {
    const session = await open();
    try {
      assert.equal(session.describe().provider, 'cpu');
      assert.deepEqual(session.attempts, [{ provider: 'cpu', ok: true }]);
      const [y, exact] = await session.run([f32('x', [1, 2, 3])], ['y']);
      assert.equal(y?.name, 'y');
      assert.deepEqual([...(y?.data as Float32Array)], [1, 2, 3]);
      assert.deepEqual([...(exact?.data as Int32Array)], [1]);
    } finally {
      await session.close();
    }
  });

  test('transfers an exactly-sized input buffer and copies a view over a larger buffer', async () => {
    const session = await open();
    try {
      const own = Float32Array.of(1, 2);
      const body = new Float32Array(16).fill(7);
      const view = body.subarray(4, 6);
      const out = await session.run(
        [
          { name: 'x', datatype: 'FP32', shape: [2], data: own },
          { name: 'v', datatype: 'FP32', shape: [2], data: view },
        ],
        ['y', 'w'],
      );
      // The owned buffer moved to the worker (detached here); the larger buffer stayed usable.
      assert.equal(own.byteLength, 0);
      assert.equal(body.byteLength, 64);
      assert.deepEqual([...view], [7, 7]);
      assert.deepEqual([...(out[1]?.data as Float32Array)], [7, 7]);
      // Both arrived in the worker owning exactly their own bytes.
      assert.deepEqual([...(out[2]?.data as Int32Array)], [1, 1]);
    } finally {
      await session.close();
    }
  });

  test('carries BYTES tensors both ways', async () => {
    const session = await open();
    try {
      const enc = new TextEncoder();
      const words = ['héllo', '', 'wörld'];
      const [y] = await session.run([{ name: 'x', datatype: 'BYTES', shape: [3], data: words.map((w) => enc.encode(w)) }], ['y']);
      assert.equal(y?.datatype, 'BYTES');
      assert.deepEqual(
        (y?.data as Uint8Array[]).map((b) => new TextDecoder().decode(b)),
        words,
      );
    } finally {
      await session.close();
    }
  });

  test('concurrent runs each get their own answer', async () => {
    const session = await open();
    try {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => session.run([f32('x', [i, i * 2])], ['y'])));
      results.forEach((out, i) => assert.deepEqual([...(out[0]?.data as Float32Array)], [i, i * 2]));
    } finally {
      await session.close();
    }
  });

  test('engine errors keep their registry code; plain errors become ENGINE_FAILED; the session keeps working', async () => {
    const session = await open();
    try {
      await assert.rejects(session.run([f32('fail', [1])], ['y']), isCode('BAD_DATA'));
      await assert.rejects(session.run([f32('throw', [1])], ['y']), (err: unknown) => {
        isCode('ENGINE_FAILED')(err);
        assert.match((err as Error).message, /model 'fake' failed: native says no/);
        return true;
      });
      const [y] = await session.run([f32('x', [5])], ['y']);
      assert.deepEqual([...(y?.data as Float32Array)], [5]);
      assert.equal(session.isAlive(), true);
    } finally {
      await session.close();
    }
  });

  test('an already-aborted signal rejects with CANCELLED without running', async () => {
    const session = await open();
    try {
      const input = f32('x', [1]);
      await assert.rejects(session.run([input], ['y'], AbortSignal.abort()), isCode('CANCELLED'));
      // Nothing was posted, so nothing was transferred.
      assert.equal((input.data as Float32Array).byteLength, 4);
      assert.equal(session.inFlight, 0);
    } finally {
      await session.close();
    }
  });

  test('aborting a posted run releases the caller early; the worker finishes it and the session goes on', async () => {
    const session = await open();
    try {
      const controller = new AbortController();
      const slow = session.run([sleepFeed(300)], ['y'], controller.signal);
      controller.abort();
      await assert.rejects(slow, isCode('CANCELLED'));
      assert.equal(session.inFlight, 1, 'the worker is still running the cancelled request');
      const [y] = await session.run([f32('x', [9])], ['y']);
      assert.deepEqual([...(y?.data as Float32Array)], [9]);
      assert.equal(session.inFlight, 0);
    } finally {
      await session.close();
    }
  });

  test('a crashing worker fails pending runs with ENGINE_FAILED and the session reports itself dead', async () => {
    const session = await open();
    const pending = session.run([sleepFeed(50)], ['y']);
    const crashing = session.run([f32('crash', [1])], ['y']);
    const queued = session.run([f32('x', [1])], ['y']);
    await pending;
    await assert.rejects(crashing, isCode('ENGINE_FAILED'));
    await assert.rejects(queued, (err: unknown) => {
      isCode('ENGINE_FAILED')(err);
      assert.match((err as Error).message, /fake engine crashed/);
      return true;
    });
    assert.equal(session.isAlive(), false);
    assert.match(session.deathReason ?? '', /crashed/);
    await assert.rejects(session.run([f32('x', [1])], ['y']), isCode('ENGINE_FAILED'));
    await session.close();
  });

  test('a worker that exits is dead too', async () => {
    const session = await open();
    await assert.rejects(session.run([f32('exit', [1])], ['y']), (err: unknown) => {
      isCode('ENGINE_FAILED')(err);
      assert.match((err as Error).message, /exited with code 3/);
      return true;
    });
    assert.equal(session.isAlive(), false);
    await session.close();
  });

  test('load failures keep their code; a loader crash is MODEL_LOAD_FAILED', async () => {
    await assert.rejects(open('fail-load'), isCode('ENGINE_UNAVAILABLE'));
    await assert.rejects(open('crash-load'), (err: unknown) => {
      isCode('MODEL_LOAD_FAILED')(err);
      assert.match((err as Error).message, /fake loader exploded/);
      return true;
    });
  });

  test('close waits for posted runs, then refuses new ones', async () => {
    const session = await open();
    const running = session.run([sleepFeed(100)], ['y']);
    const closing = session.close();
    assert.equal(session.isAlive(), false);
    await assert.rejects(session.run([f32('x', [1])], ['y']), isCode('MODEL_NOT_READY'));
    const [y] = await running;
    assert.equal(y?.name, 'y');
    await closing;
    await session.close(); // idempotent
    await assert.rejects(session.run([f32('x', [1])], ['y']), isCode('MODEL_NOT_READY'));
  });
});
