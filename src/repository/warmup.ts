import type { ModelConfig, ModelWarmup } from '../config/model-config.ts';
import type { EngineSession } from '../engine/engine.ts';
import { rtError } from '../errors/registry.ts';
import type { PlanManifest } from '../plan/manifest.ts';
import { warmupShapes } from '../plan/profiles.ts';
import { allocate, elementCount, fromConfigType, type DataType } from '../tensor/datatype.ts';
import type { Tensor } from '../tensor/tensor.ts';
import type { ModelIoMetadata } from './model-metadata.ts';

/**
 * Runs Triton-style warmup before a version turns READY (model_warmup in the config), or, without one, a
 * single batch-1 run with zeros (dynamic dims as 1) so the first client request does not pay for lazy
 * initialization.
 */
export async function warmup(session: EngineSession, config: ModelConfig, meta: ModelIoMetadata, plan?: PlanManifest): Promise<void> {
  const outputs = meta.outputs.map((o) => o.name);
  const samples: { feeds: Tensor[]; count: number }[] = [];
  const batchPrefix = (b: number): number[] => (config.max_batch_size > 0 ? [Math.max(1, b)] : []);
  if (config.model_warmup.length > 0) {
    for (const w of config.model_warmup) samples.push({ feeds: warmupFeeds(w, batchPrefix(w.batch_size)), count: w.count });
  } else if (plan !== undefined && plan.profiles.length > 0) {
    // A plan warms up at its profiles' opt shapes, the shapes it was tuned for (docs/plan-format.md).
    const full = meta.inputs.map((i) => ({ name: i.name, shape: [...batchPrefix(1).map(() => -1), ...i.shape] }));
    const shapes = warmupShapes(full, plan.profiles);
    const feeds: Tensor[] = [];
    for (const i of meta.inputs) {
      if (meta.optionalInputs.has(i.name)) continue;
      const shape = shapes[i.name] ?? [];
      feeds.push({ name: i.name, datatype: i.datatype, shape, data: allocate(i.datatype, elementCount(shape)) });
    }
    samples.push({ feeds, count: 1 });
  } else {
    const feeds: Tensor[] = [];
    for (const i of meta.inputs) {
      if (meta.optionalInputs.has(i.name)) continue;
      const shape = [...batchPrefix(1), ...i.shape.map((d) => (d < 0 ? 1 : d))];
      feeds.push({ name: i.name, datatype: i.datatype, shape, data: allocate(i.datatype, elementCount(shape)) });
    }
    samples.push({ feeds, count: 1 });
  }
  for (const s of samples) {
    for (let n = 0; n < s.count; n++) {
      // Fresh buffers each run: the engine may transfer (detach) them to its worker.
      const feeds = s.feeds.map((t) => ({ ...t, data: cloneData(t.data) }));
      await session.run(feeds, outputs);
    }
  }
}

function warmupFeeds(w: ModelWarmup, batchPrefix: number[]): Tensor[] {
  return Object.entries(w.inputs).map(([name, spec]) => {
    const dt: DataType | undefined = fromConfigType(spec.data_type);
    if (dt === undefined) throw rtError('BAD_CONFIG', `model_warmup '${w.name}': input '${name}' has unknown data_type ${spec.data_type}`);
    const shape = [...batchPrefix, ...spec.dims];
    const data = allocate(dt, elementCount(shape));
    if (spec.random_data === true && !Array.isArray(data)) {
      if (data instanceof Float32Array || data instanceof Float64Array) for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
      else if (data instanceof BigInt64Array || data instanceof BigUint64Array) for (let i = 0; i < data.length; i++) data[i] = BigInt(i % 7);
      else if (dt !== 'FP16' && dt !== 'BF16') for (let i = 0; i < data.length; i++) data[i] = i % 7;
    }
    return { name, datatype: dt, shape, data };
  });
}

function cloneData(d: Tensor['data']): Tensor['data'] {
  return Array.isArray(d) ? d.map((x) => x.slice()) : d.slice();
}
