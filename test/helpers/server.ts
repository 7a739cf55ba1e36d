import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServerConfig } from '../../src/config/load-server-config.ts';
import type { ServerConfigInput } from '../../src/config/server-config.ts';
import { startServer, type RunningServer, type StartOptions } from '../../src/app/rtserve-server.ts';
import { bundledModelRepository } from '../../src/util/package-root.ts';
import { silentLogger } from '../../src/observability/logger.ts';

/**
 * A real rtserve on port 0 (HTTP, gRPC and metrics), serving the bundled models unless told otherwise. Its close
 * does not wait after the admitted work (drainQuietMs 0); the drain tests run the real CLI with the default. It starts
 * even when a model fails to load (exitOnError false): many tests serve a model that fails on purpose; the default
 * (Triton's: exit) is tested through the CLI (test/integration/cli/startup-cli.test.ts, triton-cli.test.ts).
 */
export async function startTestServer(
  overrides: Partial<ServerConfigInput> = {},
  start: Omit<Partial<StartOptions>, 'config' | 'logger'> = {},
): Promise<RunningServer> {
  const config = await loadServerConfig({
    flags: {
      host: '127.0.0.1',
      httpPort: 0,
      grpcPort: 0,
      metricsPort: 0,
      logLevel: 'silent',
      exitTimeoutSecs: 10,
      drainQuietMs: 0,
      workers: 1,
      exitOnError: false,
      ...overrides,
    },
  });
  return startServer({ ...start, config, logger: silentLogger() });
}

/**
 * A temporary model repository: copies of bundled models, optionally with their config replaced, so a test
 * can tune batching or queue policy without touching models/.
 */
export async function makeRepository(
  models: Record<string, { from: string; config?: unknown }>,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-repo-'));
  for (const [name, spec] of Object.entries(models)) {
    await cp(join(bundledModelRepository(), spec.from, '1'), join(dir, name, '1'), { recursive: true });
    if (spec.config !== undefined) await writeFile(join(dir, name, 'config.json'), JSON.stringify({ name, ...(spec.config as object) }));
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * The bundled mlp's config with partial batches held for `delayUs` in the queue (so requests are certainly
 * queued, and concurrent, when a test acts on them), and optionally a bounded queue.
 */
export function slowMlpConfig(delayUs: number, maxQueueSize?: number): { from: string; config: unknown } {
  return {
    from: 'mlp',
    config: {
      max_batch_size: 64,
      input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [64] }],
      output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }],
      dynamic_batching: {
        max_queue_delay_microseconds: delayUs,
        ...(maxQueueSize === undefined ? {} : { default_queue_policy: { max_queue_size: maxQueueSize } }),
      },
    },
  };
}

export interface FetchResult {
  status: number;
  headers: Headers;
  body: Uint8Array;
  json: () => unknown;
}

/** fetch that returns status, headers and the body bytes, with a JSON accessor. */
export async function request(url: string, init: RequestInit = {}): Promise<FetchResult> {
  const res = await fetch(url, init);
  const body = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    headers: res.headers,
    body,
    json: () => JSON.parse(new TextDecoder().decode(body)) as unknown,
  };
}

export function postJson(url: string, body: unknown): Promise<FetchResult> {
  return request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
