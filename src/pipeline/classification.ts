/**
 * Triton's classification extension as one layer of the InferenceApi every front end gets (docs/protocol.md
 * §2.2): a requested output with the parameter `classification: N` (N > 0) comes back as the BYTES tensor of its
 * top-N `"value:index[:label]"` entries (classify-output.ts), for `infer` and for every response of
 * `inferStream`. Front ends encode what they get; none of them classifies.
 */
import type { InferenceApi } from '../api/inference-api.ts';
import type { InferRequest, InferResponse } from '../api/types.ts';
import type { ModelConfig } from '../config/model-config.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { classifyOutput } from './classify-output.ts';
import type { InferFn, PipelineLayer, StreamFn } from './layer.ts';

/** Output name → N, or undefined when the request asks for no classification. */
export function classificationCounts(request: Pick<InferRequest, 'outputs'>): ReadonlyMap<string, number> | undefined {
  let counts: Map<string, number> | undefined;
  for (const o of request.outputs ?? []) {
    const n = o.parameters?.['classification'];
    if (typeof n === 'number' && n > 0) (counts ??= new Map()).set(o.name, n);
  }
  return counts;
}

/** What classification reads of the models: their configs and output labels. */
export type ModelLabels = Pick<InferenceApi, 'modelConfig' | 'outputLabels'>;

export class ClassificationLayer implements PipelineLayer {
  constructor(private readonly models: ModelLabels) {}

  infer(next: InferFn): InferFn {
    return (request) => {
      const counts = classificationCounts(request);
      if (counts === undefined) return next(request);
      const before = this.configBefore(request);
      return next(request).then((resp) => this.classify(counts, before, resp));
    };
  }

  stream(next: StreamFn): StreamFn {
    return (request) => {
      const counts = classificationCounts(request);
      if (counts === undefined) return next(request);
      const before = this.configBefore(request);
      const classify = (resp: InferResponse): InferResponse => this.classify(counts, before, resp);
      return (async function* classified() {
        for await (const resp of next(request)) yield classify(resp);
      })();
    };
  }

  /**
   * A reload may swap the answering version out before the answer is classified (poll mode, explicit load):
   * the config is read before the call too, and used when the answering version is gone; its labels then are.
   */
  private configBefore(request: InferRequest): ModelConfig | undefined {
    try {
      return this.models.modelConfig(request.model, request.version);
    } catch {
      return undefined;
    }
  }

  private classify(counts: ReadonlyMap<string, number>, before: ModelConfig | undefined, resp: InferResponse): InferResponse {
    let config = before;
    try {
      config = this.models.modelConfig(resp.model_name, resp.model_version);
    } catch {
      // the answering version is gone: keep the config read before the call
    }
    const batched = (config?.max_batch_size ?? 0) > 0;
    const outputs = resp.outputs.map((o): Tensor => {
      const n = counts.get(o.name);
      if (n === undefined) return o;
      let labels: readonly string[] | undefined;
      try {
        labels = this.models.outputLabels(resp.model_name, resp.model_version, o.name);
      } catch {
        labels = undefined;
      }
      return classifyOutput(o, { count: n, batched, ...(labels !== undefined && { labels }) });
    });
    return { ...resp, outputs };
  }
}
