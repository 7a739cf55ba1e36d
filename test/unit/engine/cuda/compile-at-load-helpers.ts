/** Shared by the compile-at-load tests (CPU and GPU): configs, a repository of `simple` copies, a server whose logs are kept. */
import assert from 'node:assert/strict';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startServer, type RunningServer } from '../../../../src/app/rtserve-server.ts';
import { compileCudaPlan } from '../../../../src/cli/cuda-compile.ts';
import { loadServerConfig } from '../../../../src/config/load-server-config.ts';
import type { ServerConfigInput } from '../../../../src/config/server-config.ts';
import { bundledModelRepository } from '../../../../src/util/package-root.ts';

export const SIMPLE_CONFIG = (name: string, extra = ''): string =>
  `name: "${name}"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_INT32 dims: [ 16 ] }, { name: "INPUT1" data_type: TYPE_INT32 dims: [ 16 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_INT32 dims: [ 16 ] }, { name: "OUTPUT1" data_type: TYPE_INT32 dims: [ 16 ] } ]
${extra}
`;
export const TENSORRT = 'optimization { execution_accelerators { gpu_execution_accelerator : [ { name : "tensorrt" } ] } }';

/** A server on free ports whose log lines are kept; `cudaCompiler` is the one `rtserve serve` passes. */
export async function serverWithLogs(flags: Partial<ServerConfigInput>): Promise<{ server: RunningServer; logs: Record<string, unknown>[] }> {
  const logs: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const config = await loadServerConfig({
    flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, exitTimeoutSecs: 10, drainQuietMs: 0, workers: 1, ...flags },
  });
  return { server: await startServer({ config, logger, cudaCompiler: compileCudaPlan }), logs };
}

/** A repository holding the bundled `simple` model under each name, with that name's config.pbtxt. */
export async function simpleRepository(configs: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-compile-'));
  for (const [name, text] of Object.entries(configs)) {
    await cp(join(bundledModelRepository(), 'simple', '1'), join(dir, name, '1'), { recursive: true });
    await writeFile(join(dir, name, 'config.pbtxt'), text);
  }
  return dir;
}

export async function inferSimple(server: RunningServer, model: string): Promise<number[]> {
  const row = Array.from({ length: 16 }, (_, i) => i);
  const body = {
    inputs: [
      { name: 'INPUT0', shape: [1, 16], datatype: 'INT32', data: row },
      { name: 'INPUT1', shape: [1, 16], datatype: 'INT32', data: row.map(() => 1) },
    ],
    outputs: [{ name: 'OUTPUT0' }],
  };
  const r = await fetch(`${server.httpUrl}/v2/models/${model}/infer`, { method: 'POST', body: JSON.stringify(body) });
  assert.equal(r.status, 200, await r.clone().text());
  return ((await r.json()) as { outputs: { data: number[] }[] }).outputs[0]?.data ?? [];
}

export const compileFailures = (logs: readonly Record<string, unknown>[], model: string) =>
  logs.filter(
    (l) => l['msg'] === 'CUDA compile at load failed; serving the model on the configured engine' && String(l['modelPath']).includes(`/${model}/`),
  );
