/**
 * The onnxruntime engine: each `load` starts one worker thread that owns one onnxruntime session (one model
 * instance). Scheduling, batching and instance counts stay with the caller (docs/architecture.md, Contracts).
 */
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rtError } from '../../errors/registry.ts';
import type { Engine, EngineLoadOptions, ExecutionProviderSpec } from '../engine.ts';
import type { PlanRuntime } from '../../plan/compatibility.ts';
import { modelLabelOf, WorkerSession } from '../worker/worker-session.ts';

/**
 * The worker entry next to this module, with this module's own extension: `.ts` when the source runs under
 * tsx (workers inherit `--import tsx` through execArgv), `.js` once tsc has compiled it to dist/.
 */
export const ORT_WORKER_URL = new URL(`./ort-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** A loaded onnxruntime session; `describe().provider` names the provider that loaded it. */
export type OrtEngineSession = WorkerSession;

export interface OrtEngine extends Engine {
  load(modelPath: string, options: EngineLoadOptions): Promise<OrtEngineSession>;
}

export interface OrtEngineOptions {
  /** How long `close` waits for onnxruntime to release a session before terminating its worker. */
  readonly closeTimeoutMs?: number;
}

/** onnxruntime-node's version, read from its package.json so the main thread never loads the native binding. */
function ortVersion(): string {
  const pkg = createRequire(import.meta.url)('onnxruntime-node/package.json') as { version: string };
  return pkg.version;
}

export function createOrtEngine(engineOptions: OrtEngineOptions = {}): OrtEngine {
  return {
    name: 'onnxruntime',
    planRuntime(providers: readonly ExecutionProviderSpec[]): PlanRuntime {
      // ort-cpu plans always run; ort-webgpu plans need the webgpu provider among the model's providers.
      const targets: PlanRuntime['targets'] = providers.some((p) => p.name === 'webgpu') ? ['ort-cpu', 'ort-webgpu'] : ['ort-cpu'];
      return { targets, runtime: { name: 'onnxruntime-node', version: ortVersion() }, arch: process.arch };
    },
    async load(modelPath: string, options: EngineLoadOptions): Promise<OrtEngineSession> {
      const modelLabel = modelLabelOf(modelPath);
      try {
        await access(modelPath);
      } catch {
        throw rtError('MODEL_LOAD_FAILED', `model ${modelLabel}: model file not found or not readable`);
      }
      return WorkerSession.open({
        workerUrl: ORT_WORKER_URL,
        modelPath,
        modelLabel,
        options,
        ...(engineOptions.closeTimeoutMs !== undefined ? { closeTimeoutMs: engineOptions.closeTimeoutMs } : {}),
      });
    },
  };
}
