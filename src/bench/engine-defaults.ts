/**
 * The engine options the server uses for a model whose config leaves the `engine` section at its defaults, so the
 * raw-engine baseline runs the model the way the server does. Derived from the model config schema's defaults; the
 * mapping of config fields to onnxruntime options mirrors RepositoryManager.engineOptions (src/repository/manager.ts).
 */
import { modelConfigSchema } from '../config/model-config.ts';
import type { EngineLoadOptions } from '../engine/engine.ts';

export interface EngineOverrides {
  readonly intraOpNumThreads?: number;
  /** onnxruntime session config entries on top of the defaults (e.g. `session.intra_op.allow_spinning`). */
  readonly sessionConfig?: Readonly<Record<string, string>>;
}

export function serverDefaultEngineOptions(overrides: EngineOverrides = {}): EngineLoadOptions {
  const e = modelConfigSchema.parse({ name: 'bench' }).engine;
  const intra = overrides.intraOpNumThreads ?? (e.intra_op_num_threads > 0 ? e.intra_op_num_threads : undefined);
  return {
    providers: [{ name: 'cpu' }],
    graphOptimizationLevel: e.graph_optimization_level,
    ...(intra === undefined ? {} : { intraOpNumThreads: intra }),
    ...(e.inter_op_num_threads > 0 ? { interOpNumThreads: e.inter_op_num_threads } : {}),
    sessionConfig: { 'session.intra_op.allow_spinning': e.allow_spinning ? '1' : '0', ...e.session_config, ...overrides.sessionConfig },
  };
}
