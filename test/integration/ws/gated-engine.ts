/**
 * A real onnxruntime engine with a gate in front of each model's runs, so streaming tests can make a model
 * "slow" deterministically (hold its runs, send more, then release) instead of relying on timings.
 */
import { basename, dirname } from 'node:path';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import type { ServerConfigInput } from '../../../src/config/server-config.ts';
import { startServer, type RunningServer, type StartOptions } from '../../../src/app/rtserve-server.ts';
import type { Engine, EngineSession } from '../../../src/engine/engine.ts';
import { createOrtEngine } from '../../../src/engine/ort/index.ts';
import { silentLogger } from '../../../src/observability/logger.ts';

export class Gate {
  private readonly held = new Set<string>();
  private readonly failing = new Set<string>();
  private readonly waiting = new Map<string, (() => void)[]>();
  private readonly runCounts = new Map<string, number>();
  private readonly runWaiters: { model: string; n: number; resolve: () => void }[] = [];

  hold(model: string): void {
    this.held.add(model);
  }

  release(model: string): void {
    this.held.delete(model);
    const w = this.waiting.get(model) ?? [];
    this.waiting.delete(model);
    for (const r of w) r();
  }

  /** Runs of `model` that pass the gate from now on fail (an engine error), until `heal`. */
  fail(model: string): void {
    this.failing.add(model);
  }

  heal(model: string): void {
    this.failing.delete(model);
  }

  /** Batch runs of `model` that have started (reached the gate). */
  runs(model: string): number {
    return this.runCounts.get(model) ?? 0;
  }

  /** Resolves once `n` runs of `model` have reached the gate. */
  untilRuns(model: string, n: number): Promise<void> {
    if (this.runs(model) >= n) return Promise.resolve();
    return new Promise((resolve) => this.runWaiters.push({ model, n, resolve }));
  }

  async pass(model: string): Promise<void> {
    const n = (this.runCounts.get(model) ?? 0) + 1;
    this.runCounts.set(model, n);
    for (let i = this.runWaiters.length - 1; i >= 0; i--) {
      const w = this.runWaiters[i]!;
      if (w.model === model && n >= w.n) {
        this.runWaiters.splice(i, 1);
        w.resolve();
      }
    }
    if (this.held.has(model)) {
      await new Promise<void>((resolve) => {
        const list = this.waiting.get(model) ?? [];
        list.push(resolve);
        this.waiting.set(model, list);
      });
    }
    if (this.failing.has(model)) throw new Error(`gate: injected failure of ${model}`);
  }
}

/** Wraps `inner` so that every run of a model waits at `gate` (model = the repository folder name). */
export function gatedEngine(inner: Engine, gate: Gate): Engine {
  return {
    name: `gated-${inner.name}`,
    async load(modelPath, options) {
      // <repo>/<model>/<version>/model.onnx
      const model = basename(dirname(dirname(modelPath)));
      const session = await inner.load(modelPath, options);
      const gated: EngineSession = {
        describe: () => session.describe(),
        run: async (feeds, outputNames, signal) => {
          await gate.pass(model);
          return session.run(feeds, outputNames, signal);
        },
        close: () => session.close(),
      };
      return gated;
    },
  };
}

/** A real server on port 0 whose model runs go through `gate`; `options` adds state shared with other servers. */
export async function startGatedServer(
  gate: Gate,
  overrides: Partial<ServerConfigInput> = {},
  options: Pick<StartOptions, 'sharedState'> = {},
): Promise<RunningServer> {
  const config = await loadServerConfig({
    flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, logLevel: 'silent', exitTimeoutSecs: 10, workers: 1, ...overrides },
  });
  return startServer({ config, logger: silentLogger(), engine: gatedEngine(createOrtEngine(), gate), ...options });
}
