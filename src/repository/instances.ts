/**
 * A model version's instances: the engine load options its config asks for, the sessions placed by instance_group
 * (on a failover chain or loaded directly, each warmed up) and the label files of its outputs.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import type { ModelConfig } from '../config/model-config.ts';
import type { Engine, EngineLoadOptions, EngineSession, ExecutionProviderSpec } from '../engine/engine.ts';
import { EngineChain, type EngineChainEvents } from '../engine/engine-chain.ts';
import { rtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import { instancePlacements } from './instance-placement.ts';

/**
 * What the engine is asked for: the config's providers (or the accelerators it names, or the server default), and
 * whether the model may be compiled to a CUDA plan at load (Triton's tensorrt accelerator asks for it).
 */
export function engineLoadOptions(config: ModelConfig, defaultProviders: readonly ExecutionProviderSpec[]): EngineLoadOptions {
  const e = config.engine;
  const isDefault = e.providers.length === 1 && e.providers[0]?.name === 'cpu' && Object.keys(e.providers[0].options).length === 0;
  const accelerators = config.optimization?.execution_accelerators?.gpu_execution_accelerator ?? [];
  const fromAccelerators: ExecutionProviderSpec[] = accelerators
    .filter((a) => a.name === 'tensorrt' || a.name === 'cuda')
    .map((a) => ({ name: a.name as 'tensorrt' | 'cuda', options: a.parameters }));
  const providers = isDefault ? (fromAccelerators.length > 0 ? [...fromAccelerators, { name: 'cpu' as const }] : defaultProviders) : e.providers;
  const cpuOnly = config.instance_group.length > 0 && config.instance_group.every((g) => g.kind === 'KIND_CPU');
  return {
    providers,
    ...(cpuOnly ? {} : { cudaCompile: { requested: accelerators.some((a) => a.name === 'tensorrt'), maxBatchSize: config.max_batch_size } }),
    graphOptimizationLevel: e.graph_optimization_level,
    ...(e.intra_op_num_threads > 0 ? { intraOpNumThreads: e.intra_op_num_threads } : {}),
    ...(e.inter_op_num_threads > 0 ? { interOpNumThreads: e.inter_op_num_threads } : {}),
    sessionConfig: { 'session.intra_op.allow_spinning': e.allow_spinning ? '1' : '0', ...e.session_config },
  };
}

export interface InstanceLoad {
  readonly model: string;
  readonly version: string;
  readonly modelPath: string;
  readonly config: ModelConfig;
  readonly loadOptions: EngineLoadOptions;
  readonly engine: Engine;
  readonly warmup: (session: EngineSession) => Promise<void>;
  readonly logger: Logger;
  readonly events: EngineChainEvents | undefined;
}

/**
 * The version's instances, placed on GPUs by instance_group (instance-placement.ts) and warmed up: behind a failover
 * chain when the config enables one (each provider loads on its own, the first that loads and warms up serves), else
 * loaded directly. On a failure every session loaded so far is closed before the error is thrown.
 */
export async function loadInstances(o: InstanceLoad): Promise<{ sessions: EngineSession[]; chain: EngineChain | undefined }> {
  const placements = instancePlacements(o.model, o.config.instance_group, o.engine.deviceCount?.());
  if (o.config.engine.failover.enabled) {
    const chain = await EngineChain.open({
      model: o.model,
      version: o.version,
      modelPath: o.modelPath,
      engine: o.engine,
      loadOptions: o.loadOptions,
      instances: placements.length,
      devices: placements.map((p) => p.device),
      settings: o.config.engine.failover,
      warmup: o.warmup,
      logger: o.logger,
      events: o.events,
    });
    return { sessions: [...chain.sessions], chain };
  }
  const sessions: EngineSession[] = [];
  try {
    for (const { device } of placements) {
      sessions.push(await o.engine.load(o.modelPath, device === undefined ? o.loadOptions : { ...o.loadOptions, device }));
    }
    await Promise.all(sessions.map(o.warmup));
    return { sessions, chain: undefined };
  } catch (err) {
    await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
    throw err;
  }
}

/** The label lines of each output that names a label_filename (classification front ends map indexes to them). */
export async function readOutputLabels(modelDir: string, config: ModelConfig): Promise<Map<string, readonly string[]>> {
  const labels = new Map<string, readonly string[]>();
  for (const o of config.output) {
    if (o.label_filename !== undefined) {
      const text = await readFile(labelPath(modelDir, o.name, o.label_filename), 'utf8');
      labels.set(
        o.name,
        text.split(/\r?\n/).filter((l, i, a) => l !== '' || i < a.length - 1),
      );
    }
  }
  return labels;
}

/**
 * A label file named by the config, resolved inside the model folder. Configs can arrive through the load API
 * (Triton's `config` parameter), so a name that escapes the folder ('../', absolute paths) is refused.
 */
function labelPath(modelDir: string, output: string, fileName: string): string {
  const root = resolve(modelDir);
  const path = resolve(root, fileName);
  if (isAbsolute(fileName) || (path !== root && !path.startsWith(root + sep))) {
    throw rtError('BAD_CONFIG', `output '${output}': label_filename '${fileName}' must name a file inside the model folder`);
  }
  return path;
}
