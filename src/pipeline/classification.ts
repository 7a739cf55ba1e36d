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
import { withOverrides } from '../util/with-overrides.ts';
import { classifyOutput } from './classify-output.ts';

type StreamFn = (request: InferRequest) => AsyncIterable<InferResponse>;

/** Output name → N, or undefined when the request asks for no classification. */
export function classificationCounts(request: Pick<InferRequest, 'outputs'>): ReadonlyMap<string, number> | undefined {
  let counts: Map<string, number> | undefined;
  for (const o of request.outputs ?? []) {
    const n = o.parameters?.['classification'];
    if (typeof n === 'number' && n > 0) (counts ??= new Map()).set(o.name, n);
  }
  return counts;
}

export function withClassification<T extends InferenceApi>(api: T): T {
  /**
   * A reload may swap the answering version out before the answer is classified (poll mode, explicit load):
   * the config is read before the call too, and used when the answering version is gone; its labels then are.
   */
  const configBefore = (request: InferRequest): ModelConfig | undefined => {
    try {
      return api.modelConfig(request.model, request.version);
    } catch {
      return undefined;
    }
  };
  const classify = (counts: ReadonlyMap<string, number>, before: ModelConfig | undefined, resp: InferResponse): InferResponse => {
    let config = before;
    try {
      config = api.modelConfig(resp.model_name, resp.model_version);
    } catch {
      // the answering version is gone: keep the config read before the call
    }
    const batched = (config?.max_batch_size ?? 0) > 0;
    const outputs = resp.outputs.map((o): Tensor => {
      const n = counts.get(o.name);
      if (n === undefined) return o;
      let labels: readonly string[] | undefined;
      try {
        labels = api.outputLabels(resp.model_name, resp.model_version, o.name);
      } catch {
        labels = undefined;
      }
      return classifyOutput(o, { count: n, batched, ...(labels !== undefined && { labels }) });
    });
    return { ...resp, outputs };
  };
  const overrides: Record<string, unknown> = {
    infer(request: InferRequest): Promise<InferResponse> {
      const counts = classificationCounts(request);
      if (counts === undefined) return api.infer(request);
      const before = configBefore(request);
      return api.infer(request).then((resp) => classify(counts, before, resp));
    },
  };
  const inner = (api as { inferStream?: StreamFn }).inferStream;
  if (inner !== undefined) {
    overrides['inferStream'] = (request: InferRequest): AsyncIterable<InferResponse> => {
      const counts = classificationCounts(request);
      if (counts === undefined) return inner.call(api, request);
      const before = configBefore(request);
      return (async function* classified() {
        for await (const resp of inner.call(api, request)) yield classify(counts, before, resp);
      })();
    };
  }
  return withOverrides(api, overrides);
}
