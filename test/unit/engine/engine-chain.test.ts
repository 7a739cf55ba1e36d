import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FailoverSection } from '../../../src/config/model-config.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import type { Engine, EngineSession, ExecutionProviderSpec } from '../../../src/engine/engine.ts';
import { WorkerSession } from '../../../src/engine/worker/worker-session.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { EngineChain, type EngineChainEvents } from '../../../src/engine/engine-chain.ts';
import { waitFor } from '../../integration/ops/helpers.ts';

/**
 * EngineChain over real WorkerSessions running the stand-in engine worker of the WorkerSession tests: a feed
 * named 'device' fails with ENGINE_DEVICE_FAILED on a provider whose options say `fake_device: 'flaky'`, and is
 * echoed everywhere else, so the breaker's counting, the retry and the probes can be driven without a GPU.
 */
const FAKE_WORKER = new URL('./worker/fake-engine-worker.ts', import.meta.url);
const fakeEngine: Engine = {
  name: 'fake',
  load: (modelPath, options) => WorkerSession.open({ workerUrl: FAKE_WORKER, modelPath, modelLabel: "'fake'", options }),
};
const FLAKY_THEN_CPU: ExecutionProviderSpec[] = [{ name: 'cpu', options: { fake_device: 'flaky' } }, { name: 'cpu' }];

function f32(name: string, values: number[]): Tensor {
  return { name, datatype: 'FP32', shape: [values.length], data: Float32Array.from(values) };
}

interface Recorded {
  failovers: string[];
  probes: string[];
  recoveries: string[];
}

function recorder(): { events: EngineChainEvents; seen: Recorded } {
  const seen: Recorded = { failovers: [], probes: [], recoveries: [] };
  return {
    seen,
    events: {
      failover: (e) => seen.failovers.push(`${e.from.position}->${e.to?.position ?? 'none'} ${e.reason}`),
      probed: (e) => seen.probes.push(`${e.link.position} ${e.passed ? 'passed' : 'failed'}`),
      recovered: (e) => seen.recoveries.push(`${e.from?.position ?? 'none'}->${e.to.position}`),
    },
  };
}

function settings(over: Partial<FailoverSection> = {}): FailoverSection {
  return { enabled: true, failure_threshold: 2, probe_interval_ms: 3_600_000, max_probe_interval_ms: 3_600_000, retry_failed_batch: true, ...over };
}

async function openChain(over: Partial<FailoverSection>, warmup: (s: EngineSession) => Promise<void> = async () => undefined) {
  const r = recorder();
  const chain = await EngineChain.open({
    model: 'm',
    version: '1',
    modelPath: 'echo',
    engine: fakeEngine,
    loadOptions: { providers: FLAKY_THEN_CPU },
    instances: 1,
    settings: settings(over),
    warmup,
    logger: silentLogger(),
    events: r.events,
  });
  const session = chain.sessions[0];
  assert.ok(session !== undefined);
  return { chain, session, seen: r.seen };
}

function isCode(code: string): (err: unknown) => boolean {
  return (err) => err instanceof RtError && err.code === code;
}

describe('EngineChain', () => {
  test('device errors below failure_threshold stay on the primary, a success resets the count; at the threshold traffic moves and the batch is retried there', async () => {
    const { chain, session, seen } = await openChain({ failure_threshold: 2 });
    try {
      await assert.rejects(session.run([f32('device', [1])], ['y']), isCode('ENGINE_DEVICE_FAILED'));
      assert.equal(chain.active?.position, 0);
      await session.run([f32('x', [1])], ['y']);
      await assert.rejects(session.run([f32('device', [2])], ['y']), isCode('ENGINE_DEVICE_FAILED'));
      assert.equal(chain.active?.position, 0, 'the success in between reset the count');
      // Second in a row: the breaker opens and this very batch is answered by the next provider.
      const [y] = await session.run([f32('device', [3])], ['y']);
      assert.deepEqual([...(y?.data as Float32Array)], [3]);
      assert.equal(chain.active?.position, 1);
      assert.equal(chain.state, 'open');
      assert.deepEqual(seen.failovers, ['0->1 device_error']);
    } finally {
      await chain.close();
    }
  });

  test('with retry_failed_batch off the batch that trips the breaker fails, the next one is served by the fallback', async () => {
    const { chain, session } = await openChain({ failure_threshold: 1, retry_failed_batch: false });
    try {
      await assert.rejects(session.run([f32('device', [1])], ['y']), isCode('ENGINE_DEVICE_FAILED'));
      assert.equal(chain.active?.position, 1);
      const [y] = await session.run([f32('device', [4])], ['y']);
      assert.deepEqual([...(y?.data as Float32Array)], [4]);
    } finally {
      await chain.close();
    }
  });

  test("the request's own errors and cancellations never count", async () => {
    const { chain, session, seen } = await openChain({ failure_threshold: 1 });
    try {
      await assert.rejects(session.run([f32('fail', [1])], ['y']), isCode('BAD_DATA'));
      const aborted = new AbortController();
      aborted.abort();
      await assert.rejects(session.run([f32('device', [1])], ['y'], aborted.signal), isCode('CANCELLED'));
      assert.equal(chain.active?.position, 0);
      assert.equal(chain.state, 'closed');
      assert.deepEqual(seen.failovers, []);
    } finally {
      await chain.close();
    }
  });

  test('probes back off while the primary fails its warmup and move traffic back once one passes', async () => {
    let deviceHealthy = false;
    // The probe's test is the warmup inference: it fails on the flaky provider until the device is "repaired".
    const warmup = async (s: EngineSession): Promise<void> => {
      await s.run([f32(deviceHealthy ? 'x' : 'device', [0])], ['y']);
    };
    deviceHealthy = true;
    const { chain, session, seen } = await openChain({ failure_threshold: 1, probe_interval_ms: 20, max_probe_interval_ms: 80 }, warmup);
    deviceHealthy = false;
    try {
      await session.run([f32('device', [5])], ['y']);
      assert.equal(chain.active?.position, 1);
      await waitFor('three failed probes', () => (seen.probes.filter((p) => p === '0 failed').length >= 3 ? true : undefined));
      assert.equal(chain.active?.position, 1);
      deviceHealthy = true;
      await waitFor('the recovery', () => (seen.recoveries.length > 0 ? true : undefined));
      assert.deepEqual(seen.recoveries, ['1->0']);
      assert.equal(chain.active?.position, 0);
      assert.equal(chain.state, 'closed');
      assert.ok(seen.probes.includes('0 passed'));
      const [y] = await session.run([f32('x', [6])], ['y']);
      assert.deepEqual([...(y?.data as Float32Array)], [6]);
    } finally {
      await chain.close();
    }
  });
});

describe('EngineChain: instances placed on GPUs', () => {
  test("every link loads instance i on instance i's GPU, and the chain's sessions report that GPU", async () => {
    const asked: (number | undefined)[] = [];
    const recording: Engine = {
      name: 'recording',
      load: (modelPath, options) => {
        asked.push(options.device);
        return fakeEngine.load(modelPath, options);
      },
    };
    const chain = await EngineChain.open({
      model: 'm',
      version: '1',
      modelPath: 'echo',
      engine: recording,
      loadOptions: { providers: FLAKY_THEN_CPU },
      instances: 3,
      devices: [1, 0, undefined],
      settings: settings(),
      warmup: async () => undefined,
      logger: silentLogger(),
    });
    try {
      assert.deepEqual(
        chain.sessions.map((s) => s.device),
        [1, 0, undefined],
      );
      // The primary link loads the three instances up front, each on its instance's device.
      assert.deepEqual(asked, [1, 0, undefined]);
      // Two device errors move instance 0 to the next link, which loads it there on the same GPU.
      const first = chain.sessions[0] as EngineSession;
      await assert.rejects(first.run([f32('device', [1])], ['y']), isCode('ENGINE_DEVICE_FAILED'));
      const [y] = await first.run([f32('device', [5])], ['y']);
      assert.deepEqual([...(y?.data as Float32Array)], [5]);
      assert.equal(chain.active?.position, 1);
      assert.equal(asked[3], 1, "the next link's instance 0 is on instance 0's GPU");
      assert.equal(first.device, 1);
    } finally {
      await chain.close();
    }
  });
});

describe('EngineChain: the provider it reports', () => {
  test('is what the serving link loaded on, not the name in its spec (a CUDA plan under a link configured as cpu)', async () => {
    // The default engine loads a CUDA plan on the native engine whatever provider the link names; here the first
    // link's sessions report 'cuda' as a CudaSession does, the second link's what onnxruntime loaded ('cpu').
    const reporting: Engine = {
      name: 'reporting',
      load: async (modelPath, options) => {
        const s = await fakeEngine.load(modelPath, options);
        if (options.providers[0]?.options?.['fake_device'] !== 'flaky') return s;
        const description = { ...s.describe(), provider: 'cuda' as const };
        const wrapped: EngineSession = {
          describe: () => description,
          run: (feeds, names, signal) => s.run(feeds, names, signal),
          close: () => s.close(),
          isAlive: () => s.isAlive?.() ?? true,
        };
        return wrapped;
      },
    };
    const chain = await EngineChain.open({
      model: 'm',
      version: '1',
      modelPath: 'echo',
      engine: reporting,
      loadOptions: { providers: FLAKY_THEN_CPU },
      instances: 1,
      settings: settings(),
      warmup: async () => undefined,
      logger: silentLogger(),
    });
    try {
      assert.equal(chain.links[0]?.provider, 'cpu', 'the link keeps its configured name (failover events use it)');
      assert.equal(chain.provider, 'cuda');
      assert.equal(chain.description.provider, 'cuda');
      // After a failover to the second link, its own sessions' provider.
      const s = chain.sessions[0] as EngineSession;
      await assert.rejects(s.run([f32('device', [1])], ['y']), isCode('ENGINE_DEVICE_FAILED'));
      await s.run([f32('device', [2])], ['y']);
      assert.equal(chain.active?.position, 1);
      assert.equal(chain.provider, 'cpu');
    } finally {
      await chain.close();
    }
  });
});
